#!/usr/bin/env bash
# pmc record on the simulated PMU, issue 13's sampling rules end to end
# (sim backend -> ring -> log -> report), with hand-computed answers:
# periods longer than a 32-bit counter, frequency mode on a low-rate event,
# and throttling with PERF_RECORD_THROTTLE/UNTHROTTLE in the log.
. "$(dirname "$0")/lib.sh"
EX=$PMC_ROOT/examples/sim

dumpjson() { "$PMC" dump --json -i "$1" 2>/dev/null; }
# FILE -> "SAMPLES SUM-OF-PERIODS THROTTLED UNTHROTTLED"
tally() { dumpjson "$1" | python3 -c '
import json, sys
n = s = th = un = 0
for l in sys.stdin:
    r = json.loads(l)
    if r["type"] == "CALLCHAIN":
        n += 1; s += r["period"]
    elif r["type"] == "THROTTLE":
        if r["state"] == "throttled": th += 1
        else: un += 1
print(n, s, th, un)'; }

# -c 3e9 over 10^10 cycles on 32-bit counters: the period is not cut to
# 2^31-1 (only the value loaded into the counter is): 3 samples of 3e9.
printf 'process p entry=f\nfunction f\n  work cycles=10G\n' >"$TMP/long.wl"
"$PMC" record -q --backend sim -e cycles -c 3000000000 -o "$TMP/l.log" -- "$TMP/long.wl" >/dev/null 2>&1
check "-c 3e9 over 1e10 cycles: 3 samples adding up to 9e9" test "$(tally "$TMP/l.log")" = "3 9000000000 0 0"

# -F 100 on 50 branch misses in 50 ms: frequency mode starts at period 1
# (Linux's perf_event_alloc), so the first miss is sampled (before: period
# 10^7, no sample at all).  The first five samples are computed by hand in
# test_sim_backend's test_freq_low_rate; the run is deterministic: 8 samples
# whose periods add up to the 41 misses counted by the last one.
printf 'process p entry=f\nfunction f\n  work cycles=50M branch-misses=50\n' >"$TMP/low.wl"
"$PMC" record -q --backend sim -e branch-misses -F 100 -o "$TMP/f.log" -- "$TMP/low.wl" >/dev/null 2>&1
check "-F 100 on a low-rate event: 8 samples for 41 events" test "$(tally "$TMP/f.log")" = "8 41 0 0"

# Throttling: max_sample_rate=1000 with 4 ms ticks allows ceil(1000/250) = 4
# samples per tick.  hot70 runs 100,009,108 cycles (+1 us per interrupt):
# 26 tick intervals (25 whole, the last 113 us) with 4 samples of 1000 each,
# 26 THROTTLE and 25 UNTHROTTLE (one per tick).
PMC_SIM_MACHINE=max_sample_rate=1000 "$PMC" record -q --backend sim -e cycles -c 1000 \
    -o "$TMP/t.log" -- "$EX/hot70.wl" >/dev/null 2>&1
check "max_sample_rate=1000: 104 samples, 26 throttled, 25 unthrottled" \
    test "$(tally "$TMP/t.log")" = "104 104000 26 25"
# off by default: floor(100009108 / 1000) samples, no THROTTLE
"$PMC" record -q --backend sim -e cycles -c 100003 -o "$TMP/u.log" -- "$EX/hot70.wl" >/dev/null 2>&1
check "no throttling by default: 1000 samples of 100003" test "$(tally "$TMP/u.log")" = "1000 100003000 0 0"
done_testing
