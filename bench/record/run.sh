#!/usr/bin/env bash
# bench/record/run.sh — the cost of `pmc record` next to `perf record`.
#
# Runs the bundled workload (tests/helpers/deepcall.c: THREADS threads, each
# repeatedly descending DEPTH frame-pointer frames to a fixed amount of work,
# so a slower run is a longer run) plain, under `perf record` and under
# `pmc record` with the same settings (-F HZ -g, one event), alternating the
# order every round, and prints:
#   * the workload's own run time (it measures itself, so the tools' start-up
#     and wrap-up are not in it), median of each, the slowdown of each over
#     the plain run and the ratio pmc/perf of the slowdowns (< 1: pmc costs
#     less); the tools' whole wall time (start-up and wrap-up included); and
#     the CPU time the recorder itself used (its user+sys, children's
#     included, less the workload's own);
#   * samples, lost samples, and bytes per sample (perf.data size / perf's
#     samples; pmc log size / pmc's samples).
# No assertions: the numbers go in docs/BENCHMARKS.md ("## pmc record").
#
# usage: bench/record/run.sh [-n ROUNDS] [-F HZ] [-e EVENT] [-t THREADS] [-d DEPTH] [-i ITERATIONS] [-z]
#   -z: both tools compress (perf record -z, pmc record -z)
set -u
cd "$(dirname "$0")/../.."
B=${PMC_BUILD:-build}
PMC=$PWD/$B/pmc
WL=$PWD/$B/helpers/deepcall
N=5 HZ=10000 EV="" THREADS=4 DEPTH=64 ITER=500000 Z=""
while getopts "n:F:e:t:d:i:z" o; do
  case $o in
    n) N=$OPTARG ;; F) HZ=$OPTARG ;; e) EV=$OPTARG ;; t) THREADS=$OPTARG ;;
    d) DEPTH=$OPTARG ;; i) ITER=$OPTARG ;; z) Z=-z ;;
    *) sed -n '2,16p' "$0"; exit 2 ;;
  esac
done
[ -x "$PMC" ] && [ -x "$WL" ] || { echo "build first: make" >&2; exit 1; }
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 1; }
if [ -z "$EV" ]; then     # cycles when there is a PMU, as both tools default to
  if [ -e /sys/bus/event_source/devices/cpu ]; then EV=cycles; else EV=cpu-clock; fi
fi
T=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT; [ -n "${KEEP:-}" ] && echo "kept in $T" >&2
CMD=("$WL" "$THREADS" "$DEPTH" "$ITER")

now() { date +%s%N; }
# each run appends "workload-ns wall-ns workload-cpu-ns total-cpu-ns" to $T/NAME.t
TIME=(/usr/bin/time -f "%U %S" -o "$T/time.out")
[ -x /usr/bin/time ] || TIME=()
log_run() {   # NAME T0 T1
  local cpu=0
  [ -s "$T/time.out" ] && cpu=$(awk '{printf "%.0f", ($1 + $2) * 1e9}' "$T/time.out")
  echo "$(awk '{print $5, $6}' "$T/wl.out" | { read -r w c; echo "$w $(( $3 - $2 )) $c"; }) $cpu" >>"$T/$1.t"
  rm -f "$T/time.out"
}
run_plain() {
  local t0 t1; t0=$(now); "${TIME[@]}" "${CMD[@]}" >"$T/wl.out"; t1=$(now)
  log_run plain "$t0" "$t1"
}
run_perf() {
  local t0 t1; rm -f "$T/perf.data"
  t0=$(now); "${TIME[@]}" perf record $Z -q -e "$EV" -F "$HZ" -g -o "$T/perf.data" -- "${CMD[@]}" >"$T/wl.out" 2>"$T/perf.err"; t1=$(now)
  log_run perf "$t0" "$t1"
  local st; st=$(perf report -i "$T/perf.data" --stats 2>/dev/null)
  local s l; s=$(echo "$st" | awk '/ SAMPLE events:/ {print $3; exit}')
  # lost samples: the LOST records' counts, as perf report -D lists them
  l=$(perf report -D -i "$T/perf.data" 2>/dev/null | awk '/PERF_RECORD_LOST / {n += $NF} /PERF_RECORD_LOST_SAMPLES/ {n += $NF} END {print n + 0}')
  echo "$s ${l:-0} $(stat -c %s "$T/perf.data")" >>"$T/perf.s"
}
run_pmc() {
  local t0 t1; rm -f "$T/pmc.log"
  t0=$(now); "${TIME[@]}" "$PMC" record $Z -e "$EV" -F "$HZ" -g -o "$T/pmc.log" -- "${CMD[@]}" >"$T/wl.out" 2>"$T/pmc.err"; t1=$(now)
  log_run pmc "$t0" "$t1"
  local s l
  s=$(sed -n 's/.* \([0-9]*\) samples, .*/\1/p' "$T/pmc.err" | tail -1)
  l=$(sed -n 's/.* \([0-9]*\) lost, .*/\1/p' "$T/pmc.err" | tail -1)
  echo "${s:-0} ${l:-0} $(stat -c %s "$T/pmc.log")" >>"$T/pmc.s"
}

echo "workload: ${CMD[*]##*/}   event $EV   -F $HZ -g ${Z}  rounds $N   ($(nproc) CPUs, $(uname -r))" >&2
run_plain                                   # warm-up (page cache, CPU frequency)
: >"$T/plain.t"
orders=("plain perf pmc" "perf pmc plain" "pmc plain perf")
for ((i = 0; i < N; i++)); do
  for w in ${orders[$((i % 3))]}; do "run_$w"; done
  printf '.' >&2
done
echo >&2

python3 - "$T" "$HZ" "$EV" "${CMD[*]##*/}" "$Z" <<'PY'
import statistics as S, sys
T, hz, ev, cmd, z = sys.argv[1:6]
rows = {k: [list(map(int, l.split())) for l in open(f"{T}/{k}.t")] for k in ("plain", "perf", "pmc")}
st = {k: [list(map(int, l.split())) for l in open(f"{T}/{k}.s")] for k in ("perf", "pmc")}
wl = {k: S.median(r[0] / 1e9 for r in v) for k, v in rows.items()}
wall = {k: S.median(r[1] / 1e9 for r in v) for k, v in rows.items()}
slow = {k: wl[k] / wl["plain"] for k in ("perf", "pmc")}
wslow = {k: wall[k] / wall["plain"] for k in ("perf", "pmc")}
zz = " -z" if z else ""
print(f"| median of {len(rows['plain'])} runs | plain | perf record{zz} | pmc record{zz} |")
print("|---|---:|---:|---:|")
print(f"| workload's own run time (s) | {wl['plain']:.3f} | {wl['perf']:.3f} | {wl['pmc']:.3f} |")
print(f"| workload slowdown | 1.000 | {slow['perf']:.3f} | {slow['pmc']:.3f} |")
print(f"| tool's wall time, start-up and wrap-up included (s) | {wall['plain']:.3f} | {wall['perf']:.3f} | {wall['pmc']:.3f} |")
own = {k: S.median((r[3] - r[2]) / 1e9 for r in v) for k, v in rows.items()}
if all(r[3] for v in rows.values() for r in v):
    print(f"| recorder's own CPU time (s) | | {own['perf']:.3f} | {own['pmc']:.3f} |")
def agg(k, i): return S.median(r[i] for r in st[k])
print(f"| samples (median) | | {agg('perf', 0):.0f} | {agg('pmc', 0):.0f} |")
print(f"| lost samples (total over runs) | | {sum(r[1] for r in st['perf'])} | {sum(r[1] for r in st['pmc'])} |")
bps = {k: S.median(r[2] / r[0] for r in st[k] if r[0]) for k in st}
print(f"| bytes per sample (median) | | {bps['perf']:.1f} | {bps['pmc']:.1f} |")
print()
# paired: each round's pmc and perf runs are neighbours, so drift in the
# machine's load cancels in their ratio
paired = S.median(a[0] / b[0] for a, b in zip(rows["pmc"], rows["perf"]))
print(f"per-round workload time ratio pmc/perf, median: {paired:.3f}")
print(f"workload slowdown ratio pmc/perf: {slow['pmc'] / slow['perf']:.3f}   "
      f"(overhead pmc {100 * (slow['pmc'] - 1):.1f}% vs perf {100 * (slow['perf'] - 1):.1f}%)")
print(f"wall-time ratio pmc/perf: {wall['pmc'] / wall['perf']:.3f}")
print(f"bytes per sample pmc/perf: {bps['pmc'] / bps['perf']:.3f}")
PY
