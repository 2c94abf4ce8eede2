#!/bin/sh
# Installs (as root) or names (otherwise) the Debian packages pmc uses.
# Run by `make demo` and `make check`; safe to run again.
#   required: to build, to run the test suite (lld: binaries of every
#             linker), and (clang, libclang-rt-dev:
#             libFuzzer) `make fuzz`
#   optional: oracles and consumers some tests compare with (perf, go tool
#             pprof, headless Chromium (playwright-core from the npm registry,
#             installed by tests/integration/html_report.sh into build/node
#             with the npm that comes with nodejs), node for JIT maps, strace, xz as a real
#             program to profile, mold as one more linker, the ATF runtime
#             for FreeBSD's tests/sys/pmc: tests/freebsd/run.sh); a test that
#             lacks one says so and counts as skipped
set -e
REQUIRED="build-essential pkg-config libelf-dev libdw-dev libpfm4-dev libzstd-dev \
libcapstone-dev libprotobuf-c-dev protobuf-c-compiler zlib1g-dev liblzma-dev libbz2-dev libcmocka-dev libiberty-dev \
python3 util-linux procps binutils g++ clang libclang-rt-dev lld libbsd-dev libncurses-dev"
OPTIONAL="linux-perf chromium golang-go nodejs prometheus tmux strace xz-utils mold passwd libatf-dev atf-sh kyua"
missing() {
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || printf ' %s' "$p"
  done
}
req=$(missing $REQUIRED)
opt=$(missing $OPTIONAL)
[ -z "$req$opt" ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "pmc: installing Debian packages:$req$opt" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq $req $opt >/dev/null
  exit 0
fi
if [ -n "$opt" ]; then
  echo "pmc: optional packages missing (some tests will be skipped):$opt" >&2
  echo "pmc: install them with:  sudo apt-get install -y$opt" >&2
fi
if [ -n "$req" ]; then
  echo "pmc: missing Debian packages:$req" >&2
  echo "pmc: install them with:  sudo apt-get install -y$req" >&2
  exit 1
fi
