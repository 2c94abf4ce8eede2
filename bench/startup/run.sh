#!/usr/bin/env bash
# bench/startup/run.sh — the start-up and wrap-up cost of `pmc stat` next to
# `perf stat`: the wall time of `TOOL stat -e task-clock -- /bin/true` (the
# command itself takes ~1 ms), and of /bin/true alone, interleaved round by
# round (so drift in the machine's load hits all three alike), each round
# timing REPS back-to-back runs of each.  Prints the medians per run, the
# overhead of each tool over the bare command, and the ratio pmc/perf of the
# whole times (the issue's target: at most 1/3).  No assertions: the numbers
# go in docs/BENCHMARKS.md ("## Start-up").
#
# usage: bench/startup/run.sh [-n ROUNDS] [-r REPS] [-e EVENT]
set -u
cd "$(dirname "$0")/../.."
B=${PMC_BUILD:-build}
PMC=$PWD/$B/pmc
N=21 REPS=20 EV=task-clock
while getopts "n:r:e:" o; do
  case $o in
    n) N=$OPTARG ;; r) REPS=$OPTARG ;; e) EV=$OPTARG ;;
    *) sed -n '2,12p' "$0"; exit 2 ;;
  esac
done
[ -x "$PMC" ] || { echo "build first: make" >&2; exit 1; }
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 1; }
TRUE=$(command -v true); TRUE=/bin/true
"$PMC" stat -e "$EV" -- "$TRUE" >/dev/null 2>&1 || { echo "pmc stat -e $EV fails here" >&2; exit 1; }
perf stat -e "$EV" -- "$TRUE" >/dev/null 2>&1 || { echo "perf stat -e $EV fails here" >&2; exit 1; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

now() { date +%s%N; }
one() {   # NAME CMD...: REPS runs, appends the mean ns per run to $T/NAME
  local name=$1 t0 t1; shift
  t0=$(now)
  for ((k = 0; k < REPS; k++)); do "$@" >/dev/null 2>&1; done
  t1=$(now)
  echo $(( (t1 - t0) / REPS )) >>"$T/$name"
}
echo "pmc stat / perf stat -e $EV -- $TRUE: $N rounds of $REPS runs ($(nproc) CPUs, $(uname -r), $(perf --version))" >&2
for ((i = 0; i < N; i++)); do
  case $((i % 3)) in
    0) one true "$TRUE"; one perf perf stat -e "$EV" -- "$TRUE"; one pmc "$PMC" stat -e "$EV" -- "$TRUE" ;;
    1) one perf perf stat -e "$EV" -- "$TRUE"; one pmc "$PMC" stat -e "$EV" -- "$TRUE"; one true "$TRUE" ;;
    2) one pmc "$PMC" stat -e "$EV" -- "$TRUE"; one true "$TRUE"; one perf perf stat -e "$EV" -- "$TRUE" ;;
  esac
  printf '.' >&2
done
echo >&2
python3 - "$T" <<'PY'
import statistics as S, sys
T = sys.argv[1]
v = {k: [int(l) / 1e6 for l in open(f"{T}/{k}")] for k in ("true", "perf", "pmc")}
m = {k: S.median(x) for k, x in v.items()}
# paired: each round's runs are neighbours
ratio = S.median(a / b for a, b in zip(v["pmc"], v["perf"]))
print("| median per run (ms) | /bin/true | perf stat | pmc stat |")
print("|---|---:|---:|---:|")
print(f"| wall time | {m['true']:.2f} | {m['perf']:.2f} | {m['pmc']:.2f} |")
print(f"| over the bare command | | {m['perf'] - m['true']:.2f} | {m['pmc'] - m['true']:.2f} |")
print()
print(f"wall-time ratio pmc/perf (per-round median): {ratio:.3f}")
PY
