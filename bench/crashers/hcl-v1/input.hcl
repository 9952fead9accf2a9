# Batch job that renders the nightly reports and uploads them.
job "reports-nightly" {
  datacenters = ["eu-west-1a", "eu-west-1b"]
  type        = "batch"
  priority    = 40

  periodic {
    cron             = "15 2 * * *"
    prohibit_overlap = true
    time_zone        = "Europe/Berlin"
  }

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  meta {
    owner   = "analytics"
    runbook = "https://wiki.example.org/runbooks/reports-nightly"
  }

  group "render" {
    count = 1

    restart {
      attempts = 2
      interval = "30m"
      delay    = "1m"
      mode     = "fail"
    }

    ephemeral_disk {
      size    = 2048
      migrate = false
    }

    network {
      port "metrics" {
        to = 9100
      }
    }

    task "fetch" {
      driver = "docker"

      lifecycle {
        hook    = "prestart"
        sidecar = false
      }

      config {
        image   = "registry.example.org/tools/fetcher:1.9"
        command = "/bin/fetch"
        args    = ["--since", "24h", "--out", "${NOMAD_ALLOC_DIR}/data"]
      }

      resources {
        cpu    = 300
        memory = 256
      }
    }

    task "render" {
      driver = "docker"

      config {
        image = "registry.example.org/analytics/report-renderer:5.2.0"
        args  = [
          "--input", "${NOMAD_ALLOC_DIR}/data",
          "--templates", "/local/templates",
          "--out", "${NOMAD_ALLOC_DIR}/out",
          "--formats", "pdf,html,csv",
        ]
        ports = ["metrics"]
      }

      env {
        TZ          = "Europe/Berlin"
        LOG_LEVEL   = "info"
        RENDER_JOBS = "4"
      }

      template {
        destination = "local/templates/summary.tmpl"
        change_mode = "noop"
        data        = <<EOT
Daily summary for {{ env "NOMAD_META_owner" }}
Generated at {{ timestamp }}
EOT
      }

      template {
        destination = "local/share.conf"
        data        = "path = \\\\fileserver\\reports"
      }

      artifact "fonts\400n" {
        source      = "https://assets.example.org/fonts/report-fonts-2.tar.gz"
        destination = "local/fonts"
      }

      vault {
        policies    = ["reports-read"]
        change_mode = "restart"
      }

      resources {
        cpu    = 2000
        memory = 3072
      }

      kill_timeout = "45s"
    }

    task "upload" {
      driver = "exec"

      lifecycle {
        hook = "poststop"
      }

      config {
        command = "/usr/local/bin/upload"
        args    = ["--from", "${NOMAD_ALLOC_DIR}/out", "--bucket", "reports-archive"]
      }

      resources {
        cpu    = 200
        memory = 128
      }
    }
  }

  group "notify" {
    count = 1

    task "mail" {
      driver = "exec"

      config {
        command = "/usr/local/bin/notify"
        args    = ["--channel", "email", "--to", "analytics@example.org"]
      }

      resources {
        cpu    = 100
        memory = 64
      }
    }
  }
}
