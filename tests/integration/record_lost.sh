#!/usr/bin/env bash
# Samples lost at the end of a recording are counted (issue 25 item 7):
# pmc record -o - into a reader that reads nothing until the workload has
# ended.  The writer blocks on the full pipe, the kernel's ring fills and
# the kernel drops samples; it would tell with a LOST record only once the
# ring has room again, which is after the counter is gone.  So the writer
# reads the counter's own lost count (PERF_FORMAT_LOST) when the ring
# closes: the summary, the log's DROPNOTIFY records and the report agree,
# and the loss is not 0.
#
# The rings are made small (PMC_NSAMPLES, PMC_LOGBUFFERSIZE): the kernel
# lowers perf_event_max_sample_rate on a busy machine, and at a lowered rate
# a short run's samples fit in the default ring, and nothing is lost.
. "$(dirname "$0")/lib.sh"

PMC_NSAMPLES=8 PMC_LOGBUFFERSIZE=4 "$PMC" record -F 50000 -g -e cpu-clock -o - -- \
    sh -c "\"$HELPERS/busy\" 2000 >/dev/null; touch \"$TMP/done\"" 2>"$TMP/rec.err" |
  (while [ ! -e "$TMP/done" ]; do sleep 0.2; done; sleep 1; cat >"$TMP/slow.log")
summary=$(sed -n 's/.* samples, \([0-9]*\) lost.*/\1/p' "$TMP/rec.err" | head -1)
records=$("$PMC" dump -i "$TMP/slow.log" 2>/dev/null |
  awk '$3 == "DROPNOTIFY" { for (i = 4; i <= NF; i++) if ($i ~ /^count=/) s += substr($i, 7) } END { print s + 0 }')
report=$("$PMC" report -i "$TMP/slow.log" 2>/dev/null | sed -n 's/^# Samples: .* Lost: \([0-9,]*\) .*/\1/p' | tr -d , | head -1)
check "the loss is counted (summary: ${summary:-none} lost; $(grep -m1 samples "$TMP/rec.err"); max rate $(cat /proc/sys/kernel/perf_event_max_sample_rate))" test "${summary:-0}" -gt 0
check "the log's DROPNOTIFY records agree ($records)" test "$records" = "${summary:-x}"
check "the report agrees ($report)" test "$report" = "${summary:-x}"
done_testing
