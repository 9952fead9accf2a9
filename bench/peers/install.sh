#!/bin/bash
# Installs the peer reducers that bench/harness measures wynot against,
# without Python's package index:
#
#   C-Reduce, C-Vise, delta   Debian packages (apt-get)
#   shrinkray 26.4.14.0       a Python 3.12 venv whose site-packages are
#                             symlinks to Debian's pure-Python packages and
#                             to sources checked out of fetched repositories
#   picire (21.8, 61d6162)    a venv of Debian's python3.11 with its
#                             system packages (chardet), picire and inators
#                             symlinked from fetched repositories
#
# The fetched repositories are git directories (no work tree) under
# $WYNOT_MIRROR (default /work/.mirror), one per repository, named
# OWNER+NAME/repo, as the workplace's fetch tool brings them
# (fetch github:OWNER/NAME). The script lists the ones missing and stops.
# Nothing is downloaded but Debian packages.
#
# Everything goes to $WYNOT_PEERS (default ~/.cache/wynot-peers); the
# commands to run are in $WYNOT_PEERS/bin (shrinkray, picire), where
# bench/harness looks for them besides $PATH.
#
# Usage: bench/peers/install.sh [--no-apt]
#
# Python 3.12 or later is needed for shrinkray: $PYTHON312, else
# python3.12 on $PATH, else pyenv's. shrinkray's libcst is v1.8.0 in its
# pure-Python parser (LIBCST_PARSER_TYPE=pure, set by the wrapper): later
# versions need their Rust extension. black is not installed: shrinkray
# uses it only to format .py files.
set -euo pipefail

peers=${WYNOT_PEERS:-$HOME/.cache/wynot-peers}
mirror=${WYNOT_MIRROR:-/work/.mirror}
apt=1
[ "${1:-}" = --no-apt ] && apt=0

# Repositories: OWNER/NAME REVISION.
repos=(
  "DRMacIver/shrinkray v26.4.14.0"
  "renatahodovan/picire 61d6162"
  "renatahodovan/inators 2.1.1"
  "python-trio/trio v0.34.0"
  "python-attrs/attrs 26.1.0"
  "python-trio/sniffio v1.3.1"
  "python/typing_extensions 4.15.0"
  "Textualize/textual v8.2.8"
  "Textualize/rich v14.3.3"
  "executablebooks/markdown-it-py v4.2.0"
  "executablebooks/mdit-py-plugins v0.6.1"
  "tox-dev/platformdirs 4.11.3"
  "piccolomo/plotext 5.3.2"
  "Textualize/textual-plotext 9fa23e7"
  "Instagram/LibCST v1.8.0"
)

debs=(cvise creduce delta python3-venv python3-click python3-humanize python3-chardet
  python3-binaryornot python3-idna python3-sortedcontainers python3-outcome
  python3-pygments python3-mdurl python3-yaml python3-typing-inspect python3-mypy-extensions)

if [ $apt = 1 ]; then
  missing=()
  for p in "${debs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "apt-get install ${missing[*]}"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
  fi
fi

gitdir() { echo "$mirror/${1/\//+}/repo"; }
absent=()
for r in "${repos[@]}"; do
  set -- $r
  d=$(gitdir "$1")
  if ! git --git-dir="$d" rev-parse -q --verify "$2^{commit}" >/dev/null 2>&1; then
    absent+=("github:$1 (at $2)")
  fi
done
if [ ${#absent[@]} -gt 0 ]; then
  echo "missing under $mirror (bring each with the fetch tool, then run this again):" >&2
  printf '  fetch %s\n' "${absent[@]}" >&2
  exit 1
fi

mkdir -p "$peers/src" "$peers/bin"
# checkout OWNER/NAME PATH...: the directory holding PATH... of the
# repository at its revision (only those paths: a fetched repository may
# lack its largest files).
checkout() {
  local repo=$1 rev="" r
  shift
  for r in "${repos[@]}"; do
    set -- $r "$@"
    [ "$1" = "$repo" ] && rev=$2
    shift 2
  done
  local dir=$peers/src/${repo#*/}-$rev
  if [ ! -d "$dir" ]; then
    rm -rf "$dir.part" && mkdir -p "$dir.part"
    # (git archive complains of absent blobs outside the paths asked for.)
    git --git-dir="$(gitdir "$repo")" archive "$rev" -- "$@" 2>/dev/null | tar -x -C "$dir.part" &&
      [ -e "$dir.part/$1" ] || { echo "could not check out $repo at $rev" >&2; exit 1; }
    mv "$dir.part" "$dir"
  fi
  echo "$dir"
}

# link SITE TARGET: a symlink in SITE to TARGET, under TARGET's base name.
link() { ln -sfn "$2" "$1/$(basename "$2")"; }
# stub SITE NAME VERSION: the metadata importlib.metadata reads.
stub() {
  local d=$1/$2-$3.dist-info
  mkdir -p "$d"
  printf 'Metadata-Version: 2.1\nName: %s\nVersion: %s\n' "$2" "$3" > "$d/METADATA"
}
debver() { dpkg-query -W -f='${Version}' "$1" | sed -E 's/^[0-9]+://; s/[-+~].*//'; }

# --- shrinkray -------------------------------------------------------------
py312=${PYTHON312:-}
if [ -z "$py312" ]; then
  for c in python3.14 python3.13 python3.12 "$HOME"/.pyenv/versions/3.1[2-9]*/bin/python3; do
    if p=$(command -v "$c" 2>/dev/null) && "$p" -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null; then
      py312=$("$p" -c 'import sys; print(sys.executable)')
      break
    fi
  done
fi
[ -n "$py312" ] || { echo "no Python 3.12 or later for shrinkray (set PYTHON312)" >&2; exit 1; }

venv=$peers/shrinkray
rm -rf "$venv"
"$py312" -m venv --without-pip "$venv"
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
dist=/usr/lib/python3/dist-packages
for m in click:python3-click humanize:python3-humanize chardet:python3-chardet \
  binaryornot:python3-binaryornot idna:python3-idna sortedcontainers:python3-sortedcontainers \
  outcome:python3-outcome pygments:python3-pygments mdurl:python3-mdurl yaml:python3-yaml \
  typing_inspect.py:python3-typing-inspect mypy_extensions.py:python3-mypy-extensions; do
  mod=${m%%:*} deb=${m#*:}
  link "$site" "$dist/$mod"
  name=${mod%.py}
  [ "$name" = yaml ] && name=PyYAML
  stub "$site" "$name" "$(debver "$deb")"
done

d=$(checkout python-trio/trio src/trio); link "$site" "$d/src/trio" && stub "$site" trio 0.34.0
d=$(checkout python-attrs/attrs src/attr src/attrs); link "$site" "$d/src/attr" && link "$site" "$d/src/attrs" && stub "$site" attrs 26.1.0
d=$(checkout python-trio/sniffio sniffio); link "$site" "$d/sniffio" && stub "$site" sniffio 1.3.1
[ -f "$d/sniffio/_version.py" ] || echo '__version__ = "1.3.1"' > "$d/sniffio/_version.py"
d=$(checkout python/typing_extensions src/typing_extensions.py); link "$site" "$d/src/typing_extensions.py" && stub "$site" typing_extensions 4.15.0
d=$(checkout Textualize/textual src/textual); link "$site" "$d/src/textual" && stub "$site" textual 8.2.8
d=$(checkout Textualize/rich rich); link "$site" "$d/rich" && stub "$site" rich 14.3.3
d=$(checkout executablebooks/markdown-it-py markdown_it); link "$site" "$d/markdown_it" && stub "$site" markdown-it-py 4.2.0
d=$(checkout executablebooks/mdit-py-plugins mdit_py_plugins); link "$site" "$d/mdit_py_plugins" && stub "$site" mdit-py-plugins 0.6.1
d=$(checkout tox-dev/platformdirs src/platformdirs); link "$site" "$d/src/platformdirs" && stub "$site" platformdirs 4.11.3
[ -f "$d/src/platformdirs/version.py" ] ||
  printf '__version__ = version = "4.11.3"\n__version_tuple__ = version_tuple = (4, 11, 3)\n' > "$d/src/platformdirs/version.py"
d=$(checkout piccolomo/plotext plotext); link "$site" "$d/plotext" && stub "$site" plotext 5.3.2
d=$(checkout Textualize/textual-plotext src/textual_plotext); link "$site" "$d/src/textual_plotext" && stub "$site" textual-plotext 1.0.1
d=$(checkout Instagram/LibCST libcst); link "$site" "$d/libcst" && stub "$site" libcst 1.8.0
[ -f "$d/libcst/_version.py" ] || echo 'version = __version__ = "1.8.0"' > "$d/libcst/_version.py"
d=$(checkout DRMacIver/shrinkray src/shrinkray); link "$site" "$d/src/shrinkray" && stub "$site" shrinkray 26.4.14.0

cat > "$peers/bin/shrinkray" <<EOF
#!/bin/sh
LIBCST_PARSER_TYPE=pure exec "$venv/bin/python" -m shrinkray "\$@"
EOF
chmod +x "$peers/bin/shrinkray"

# --- picire ----------------------------------------------------------------
venv=$peers/picire
rm -rf "$venv"
/usr/bin/python3.11 -m venv --without-pip --system-site-packages "$venv"
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
d=$(checkout renatahodovan/inators src/inators); link "$site" "$d/src/inators" && stub "$site" inators 2.1.1
d=$(checkout renatahodovan/picire src/picire); link "$site" "$d/src/picire" && stub "$site" picire 21.8.post49
cat > "$peers/bin/picire" <<EOF
#!/bin/sh
exec "$venv/bin/python" -m picire "\$@"
EOF
chmod +x "$peers/bin/picire"

# --- check -------------------------------------------------------------------
echo "creduce $(creduce --version 2>&1 | tail -1)"
echo "cvise $(cvise --version 2>&1 | tail -1)"
echo "$("$peers/bin/shrinkray" --version 2>&1 | tail -1)"
echo "picire $("$peers/bin/picire" --version 2>&1 | tail -1)"
echo "installed in $peers/bin"
