package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReportInChromium: the HTML report of a reduce run renders in a
// real headless Chromium without console errors, and its screenshot is
// not blank.
func TestReportInChromium(t *testing.T) {
	e2e(t)
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "page.html"), htmlPage())
	r := wynotRun(t, dir, nil, "reduce", "-q", "--report", "rep", "page.html", "--", prog("printer"))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	page := string(read(t, filepath.Join(dir, "rep", "index.html")))
	for _, want := range []string{"<svg", "class=\"FAIL\"", "class=\"PASS\"", "&lt;SELECT&gt;", "<h2>Difference</h2>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	for _, banned := range []string{"<script", `src="`, `href="`, "<link", "<iframe", "@import"} {
		if strings.Contains(page, banned) {
			t.Errorf("the report is not self-contained: it holds %q", banned)
		}
	}
	browser := chromium(t)
	shot := filepath.Join(dir, "shot.png")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--enable-logging=stderr", "--v=0", "--window-size=1200,1400", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--screenshot="+shot, "file://"+filepath.Join(dir, "rep", "index.html"))
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, log.String())
	}
	for _, l := range strings.Split(log.String(), "\n") {
		if strings.Contains(l, "CONSOLE") || strings.Contains(l, "Uncaught") {
			t.Errorf("console: %s", l)
		}
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	colors := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colors[r>>8<<16|g>>8<<8|bl>>8] = true
		}
	}
	if len(colors) < 20 {
		t.Errorf("the screenshot is (nearly) blank: %d colors", len(colors))
	}
}

// TestReportFitsWidth: at 1400 pixels, the report of a reduce run needs
// no horizontal scrolling (long configurations and details are cut with
// an ellipsis, and shown whole on hover). The report itself has no
// script; a page around it measures it in a real headless Chromium.
func TestReportFitsWidth(t *testing.T) {
	e2e(t)
	t.Parallel()
	browser := chromium(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "page.html"), htmlPage())
	r := wynotRun(t, dir, nil, "reduce", "-q", "--report", "rep", "page.html", "--", prog("printer"))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if scroll, client := pageWidth(t, browser, dir, "rep/index.html"); scroll > client {
		t.Errorf("the report is %d pixels wide in a %d-pixel window: it scrolls sideways", scroll, client)
	}
}

// pageWidth measures the page at dir/page (a path relative to dir) in a
// 1400-pixel frame in a headless Chromium: how wide it is (scroll) and
// how wide the frame shows it (client). The page itself has no script;
// a page around it measures it.
func pageWidth(t *testing.T, browser, dir, page string) (scroll, client int) {
	t.Helper()
	write(t, filepath.Join(dir, "measure.html"), []byte(`<!DOCTYPE html><html><head><title>-</title></head><body>
<iframe id=f src="`+page+`" width=1400 height=900></iframe>
<script>
document.getElementById('f').onload = function() {
  var d = this.contentDocument.documentElement;
  document.title = 'scroll=' + d.scrollWidth + ' client=' + d.clientWidth;
};
</script></body></html>`))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
		"--virtual-time-budget=5000", "--user-data-dir="+filepath.Join(dir, "profile"), "--dump-dom",
		"file://"+filepath.Join(dir, "measure.html")).Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	i := bytes.Index(out, []byte("<title>scroll="))
	if i < 0 {
		t.Fatalf("no measurement in the page:\n%.2000s", out)
	}
	if _, err := fmt.Sscanf(string(out[i:]), "<title>scroll=%d client=%d", &scroll, &client); err != nil {
		t.Fatal(err)
	}
	return scroll, client
}

// chromium returns the path of a Chromium to check the report in, or
// skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	if p := findChromium(); p != "" {
		return p
	}
	t.Skip("no Chromium installed (Debian: apt-get install chromium): the report is not checked in a browser")
	return ""
}

// findChromium returns the path of a Chromium, or "" when none is
// installed.
func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}
