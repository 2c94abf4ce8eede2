#!/usr/bin/env bash
# bench/report/mem.sh — memory per sample of pmc report and perf report.
#
# Records the bundled 60/30/10 workload with `perf record -e cpu-clock -c
# 10000`, without and with -g, converts each perf.data into a pmc log
# (`pmc convert`), and cuts the log at a quarter of its bytes (a cut log
# converts up to its last whole record): two sizes of the same recording,
# N1 and N2 samples.  Both are converted into perf.data files (`pmc
# convert`), which perf reads, and from those into whole pmc logs.  Then
# each report runs at both sizes under /usr/bin/time and the table shows
# the peak RSS at each, the growth per sample,
#     (peak at N2 - peak at N1) / (N2 - N1),
# for pmc and for perf, and perf's peak over pmc's at N2.
#
#   bench/report/mem.sh [SAMPLES] [RUNS]       (defaults 4000000, 1)
#
# SAMPLES sets the workload's length (lib.sh's estimate: samples per unit
# vary with the machine's load); to measure recordings already made, give
# them as BENCH_PERF_DATA (no -g) and BENCH_PERF_DATA_G (-g).
set -eu
N=${1:-4000000}
RUNS=${2:-1}
source "$(dirname "$0")/../lib.sh"

# prepare NAME PERF-RECORD-FLAGS [EXISTING]: $T/NAME-{1,2}.{log,data}
prepare() {
  local name=$1 flags=$2 src=${3:-}
  if [ -z "$src" ]; then
    src=$T/$name.orig
    # shellcheck disable=SC2086
    perf record -q $flags -e cpu-clock -c 10000 -o "$src" -- "$T/w/work603010" "$scale" \
        >/dev/null 2>&1
  fi
  "$PMC" convert -i "$src" -o "$T/$name.log" -f >/dev/null 2>&1
  head -c $(($(stat -c %s "$T/$name.log") / 4)) "$T/$name.log" >"$T/$name.cut"
  # the cut log converts up to its cut (exit 1: truncated); both sizes then
  # go the same way: perf.data, and from it a whole pmc log
  "$PMC" convert -i "$T/$name.cut" -o "$T/$name-1.data" -f >/dev/null 2>&1 || true
  "$PMC" convert -i "$T/$name.log" -o "$T/$name-2.data" -f >/dev/null 2>&1
  "$PMC" convert -i "$T/$name-1.data" -o "$T/$name-1.log" -f >/dev/null 2>&1
  "$PMC" convert -i "$T/$name-2.data" -o "$T/$name-2.log" -f >/dev/null 2>&1
  rm -f "$T/$name.log" "$T/$name.cut"
  [ -n "${3:-}" ] || rm -f "$src"
}

samples() {
  "$PMC" report -i "$1" --color never 2>/dev/null |
    awk '/^# Samples:/ { gsub(",", "", $3); print $3; exit }'
}

# peak NAME EXT CMD... (INPUT in CMD is replaced by each size's file): the
# peak RSS (KB) at N1 and at N2
peak() {
  local name=$1 ext=$2 k out=; shift 2
  for k in 1 2; do
    local cmd=() a
    for a in "$@"; do cmd+=("${a//INPUT/$T/$name-$k.$ext}"); done
    read -r _ m _ < <(measure "${cmd[@]}")
    out="$out $m"
  done
  echo "$out"
}

# MB (measure's unit) to bytes per sample between the two sizes
per() { awk -v a="$1" -v b="$2" -v n1="$3" -v n2="$4" 'BEGIN { printf "%.1f", (b - a) * 1048576 / (n2 - n1) }'; }

# row LABEL NAME EXT PMC-ARGS... -- [PERF-ARGS...]: perf's columns for the
# perf.data input (EXT data)
row() {
  local label=$1 name=$2 ext=$3 pargs=() fargs=(); shift 3
  while [ "$1" != "--" ]; do pargs+=("$1"); shift; done; shift
  fargs=("$@")
  local n1 n2 p1 p2 f1 f2
  n1=$(samples "$T/$name-1.log"); n2=$(samples "$T/$name-2.log")
  read -r p1 p2 < <(peak "$name" "$ext" "$PMC" report -i INPUT --color never "${pargs[@]}")
  if [ "$ext" = data ]; then
    read -r f1 f2 < <(peak "$name" data perf report --stdio --no-children -i INPUT "${fargs[@]}")
    printf '| %s | %s / %s | %s / %s MB | %s | %s / %s MB | %s | %sx |\n' "$label" "$n1" "$n2" \
      "$p1" "$p2" "$(per "$p1" "$p2" "$n1" "$n2")" "$f1" "$f2" "$(per "$f1" "$f2" "$n1" "$n2")" \
      "$(awk -v a="$f2" -v b="$p2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')"
  else
    printf '| %s | %s / %s | %s / %s MB | %s | — | — | — |\n' "$label" "$n1" "$n2" "$p1" "$p2" \
      "$(per "$p1" "$p2" "$n1" "$n2")"
  fi
}

prepare flat "" "${BENCH_PERF_DATA:-}"
prepare g -g "${BENCH_PERF_DATA_G:-}"

echo "Workload: work603010 (tests/helpers/analysis), perf record -e cpu-clock -c 10000;"
echo "peak RSS of $RUNS run(s) at each size; $(nproc) CPUs, $(uname -r), $(perf --version)"
echo
echo "| report | samples N1 / N2 | pmc peak RSS | pmc bytes/sample | perf peak RSS | perf bytes/sample | perf / pmc peak at N2 |"
echo "|---|---|---|---|---|---|---|"
row "no call chains, pmc log" flat log --
row "no call chains, perf.data" flat data --
row "call chains, pmc log" g log --
row "call chains, perf.data" g data --
row "call chains, -g caller, pmc log" g log -g caller --
row "call chains, -g caller, perf.data" g data -g caller -- -G
