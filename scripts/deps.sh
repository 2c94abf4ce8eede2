#!/bin/sh
# Installs (as root) or names (otherwise) the Debian packages pmc builds with.
# Run by `make demo` and `make check`; safe to run again.
set -e
PKGS="build-essential pkg-config libelf-dev libdw-dev libpfm4-dev libzstd-dev \
libcapstone-dev libprotobuf-c-dev protobuf-c-compiler zlib1g-dev libcmocka-dev \
python3 linux-perf util-linux procps binutils g++ chromium golang-go"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "pmc: installing Debian packages:$missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  # linux-perf is the oracle for side-by-side tests and chromium opens the
  # HTML report in a test, go tool pprof reads the pprof export; none is
  # needed to build.
  apt-get install -y -qq $missing >/dev/null
else
  echo "pmc: missing Debian packages:$missing" >&2
  echo "pmc: install them with:  sudo apt-get install -y$missing" >&2
  exit 1
fi
