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

# measure CMD...: the best wall time (s) of RUNS runs, the peak RSS (MB), and
# how many lines the command printed
measure() {
  local best= mem= i
  for i in $(seq "$RUNS"); do
    /usr/bin/time -f '%e %M' -o "$T/time" "$@" >"$T/out" 2>/dev/null || true
    read -r s k <"$T/time"
    if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$s; fi
    if [ -z "$mem" ] || [ "$k" -gt "$mem" ]; then mem=$k; fi
  done
  echo "$best $((mem / 1024)) $(wc -l <"$T/out")"
}

# row NAME PMC-CMD... -- [PERF-CMD...]: one Markdown table row (pmc's time
# and memory, perf's, the ratio); with BENCH_LINES=1 a "lines pmc / perf"
# column after the name, to show both printed the same amount
row() {
  local name=$1 lines= pt pm pl ft fm fl; shift
  local pcmd=() fcmd=()
  while [ "$1" != "--" ]; do pcmd+=("$1"); shift; done; shift
  fcmd=("$@")
  read -r pt pm pl < <(measure "${pcmd[@]}")
  if [ ${#fcmd[@]} -gt 0 ]; then
    read -r ft fm fl < <(measure "${fcmd[@]}")
    [ -z "${BENCH_LINES:-}" ] || lines=" $pl / $fl |"
    printf '| %s |%s %s s | %s MB | %s s | %s MB | %sx |\n' "$name" "$lines" "$pt" "$pm" "$ft" \
      "$fm" "$(awk -v a="$ft" -v b="$pt" 'BEGIN{ printf "%.1f", (b > 0 ? a / b : 0) }')"
  else
    [ -z "${BENCH_LINES:-}" ] || lines=" $pl |"
    printf '| %s |%s %s s | %s MB | — | — | — |\n' "$name" "$lines" "$pt" "$pm"
  fi
}
