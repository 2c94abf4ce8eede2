#!/usr/bin/env bash
# A perf.data recorded with a fixed period (perf record -c N) has no
# per-sample period (no PERF_SAMPLE_PERIOD): each sample stands for the
# attr's sample_period events, and the event count is samples x N, as perf
# says (issue 10 item 4).  pmc convert round trips keep the period.
source "$(dirname "$0")/lib.sh"

if ! command -v perf >/dev/null 2>&1; then
  skip "fixed-period perf.data" "perf is not installed"; done_testing; exit
fi
if ! perf record -q -o "$TMP/c.data" -e cpu-clock -c 100000 -- "$HELPERS/busy" >/dev/null 2>&1; then
  skip "fixed-period perf.data" "perf record cannot sample here"; done_testing; exit
fi

perf_count() { perf report -i "$1" --stdio 2>/dev/null | awk -F': ' '/^# Event count/ { print $2; exit }'; }
pmc_count() { "$PMC" report -i "$1" 2>/dev/null |
  awk '/Event count:/ { sub(/.*Event count: /, ""); gsub(/,/, ""); print $1; exit }'; }
pmc_samples() { "$PMC" report -i "$1" 2>/dev/null |
  awk '/^# Samples:/ { v = $3; gsub(/,/, "", v); print v; exit }'; }

want=$(perf_count "$TMP/c.data")
n=$(pmc_samples "$TMP/c.data")
got=$(pmc_count "$TMP/c.data")
check "perf -c 100000: perf's event count is samples x period" [ "$want" = "$((n * 100000))" ]
if [ -n "$got" ] && [ "$got" = "$want" ]; then ok "pmc report: event count $got = perf's"
else fail "pmc report: event count" "pmc ${got:-none}, perf $want"; fi

"$PMC" convert -i "$TMP/c.data" -o "$TMP/c.pmclog" >/dev/null 2>&1
got=$(pmc_count "$TMP/c.pmclog")
if [ "$got" = "$want" ]; then ok "perf.data -> pmc log keeps the period"
else fail "perf.data -> pmc log keeps the period" "${got:-none} != $want"; fi

"$PMC" convert -i "$TMP/c.pmclog" -o "$TMP/c2.data" >/dev/null 2>&1
got=$(perf_count "$TMP/c2.data")
if [ "$got" = "$want" ]; then ok "pmc log -> perf.data keeps the period (perf report)"
else fail "pmc log -> perf.data keeps the period (perf report)" "${got:-none} != $want"; fi
done_testing
