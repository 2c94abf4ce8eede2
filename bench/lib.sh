# bench/lib.sh — what the pmc-vs-perf benches share (sourced after N and RUNS
# are set): ROOT, PMC, a temporary directory T (removed at exit), the
# bundled 60/30/10 workload built in $T/w, measure and row.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PMC=${PMC:-$ROOT/build/pmc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
sh "$ROOT/tests/helpers/analysis/build.sh" "$T/w" >/dev/null
# one sample per 10 us of cpu-clock; one unit of scale gives ~25k samples here
scale=$(( N / 25000 > 0 ? N / 25000 : 1 ))

# measure CMD...: the best wall time (s) of RUNS runs, the peak RSS (MB), how
# many lines the command printed, and the best CPU time (user + system, s)
measure() {
  local best= mem= cpu= i
  for i in $(seq "$RUNS"); do
    /usr/bin/time -f '%e %M %U %S' -o "$T/time" "$@" >"$T/out" 2>/dev/null || true
    read -r s k u y <"$T/time"
    c=$(awk -v a="$u" -v b="$y" 'BEGIN{ printf "%.2f", a + b }')
    if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$s; fi
    if [ -z "$cpu" ] || awk -v a="$c" -v b="$cpu" 'BEGIN{exit !(a<b)}'; then cpu=$c; fi
    if [ -z "$mem" ] || [ "$k" -gt "$mem" ]; then mem=$k; fi
  done
  echo "$best $((mem / 1024)) $(wc -l <"$T/out") $cpu"
}

# cpu_best CMD...: the least CPU time (s) of RUNS runs, its threads'
# included: perf stat's task-clock, to the millisecond (/usr/bin/time's user
# + system counts 10 ms ticks: a 5 ms report reads 0.00 s)
cpu_best() {
  local i c best=
  for i in $(seq "$RUNS"); do
    perf stat -x, -e task-clock -o "$T/stat" "$@" >/dev/null 2>&1 || true
    c=$(awk -F, '/task-clock/ { printf "%.3f", $1 / 1000 }' "$T/stat")
    if [ -z "$best" ] || awk -v a="$c" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$c; fi
  done
  echo "$best"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ printf "%.1f", (b > 0 ? a / b : 0) }'; }

# row NAME PMC-CMD... -- [PERF-CMD...]: one Markdown table row (pmc's time
# and memory, perf's, the ratio); with BENCH_LINES=1 a "lines pmc / perf"
# column after the name, to show both printed the same amount; with
# BENCH_CPU=1 three more: pmc's and perf's CPU time and their ratio (wall
# time on a shared machine waits for the CPU; CPU time does not)
row() {
  local name=$1 lines= cpu= pt pm pl pc ft fm fl fc; shift
  local pcmd=() fcmd=()
  while [ "$1" != "--" ]; do pcmd+=("$1"); shift; done; shift
  fcmd=("$@")
  read -r pt pm pl pc < <(measure "${pcmd[@]}")
  if [ ${#fcmd[@]} -gt 0 ]; then
    read -r ft fm fl fc < <(measure "${fcmd[@]}")
    [ -z "${BENCH_LINES:-}" ] || lines=" $pl / $fl |"
    [ -z "${BENCH_CPU:-}" ] || cpu=" $pc s | $fc s | $(ratio "$fc" "$pc")x |"
    printf '| %s |%s %s s | %s MB | %s s | %s MB | %sx |%s\n' "$name" "$lines" "$pt" "$pm" "$ft" \
      "$fm" "$(ratio "$ft" "$pt")" "$cpu"
  else
    [ -z "${BENCH_LINES:-}" ] || lines=" $pl |"
    [ -z "${BENCH_CPU:-}" ] || cpu=" $pc s | — | — |"
    printf '| %s |%s %s s | %s MB | — | — | — |%s\n' "$name" "$lines" "$pt" "$pm" "$cpu"
  fi
}
