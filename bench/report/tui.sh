#!/usr/bin/env bash
# bench/report/tui.sh — how long `pmc report --tui` takes to open: from
# its start to its first screen (the header line drawn), in a pseudo
# terminal, on a perf.data of SAMPLES samples with call chains (the
# bundled 60/30/10 workload, `perf record -g -e cpu-clock -c 10000`), and
# the text report of the same file for comparison.  The issue's bar: a
# 1 M-sample perf.data opens in under 1 s.  Best of RUNS.
#
#   bench/report/tui.sh [SAMPLES] [RUNS]        (defaults 1000000, 3)
#   BENCH_PERF_DATA=FILE: that perf.data instead of recording one
set -eu
N=${1:-1000000}
RUNS=${2:-3}
source "$(dirname "$0")/../lib.sh"
DATA=${BENCH_PERF_DATA:-$T/perf.data}
# perf 6.1 aborts now and then (tests/integration/lib.sh perf_record): three tries
if [ -z "${BENCH_PERF_DATA:-}" ]; then
  for try in 1 2 3; do
    perf record -q -g -e cpu-clock -c 10000 -o "$DATA" -- "$T/w/work603010" "$scale" \
      >/dev/null 2>&1 && break
    [ "$try" = 3 ] && { echo "bench/report/tui.sh: perf record failed 3 times" >&2; exit 1; }
  done
fi
samples=$("$PMC" report --stdio -i "$DATA" --color never | awk '/^# Samples:/ { gsub(",", "", $3); print $3; exit }')
# open_time: seconds from exec to the first screen, then q
cat >"$T/open.py" <<'PY'
import os, pty, sys, time, select
t0 = time.monotonic()
pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "xterm"
    os.execv(sys.argv[1], [sys.argv[1], "report", "--tui", "-i", sys.argv[2]])
buf = b""
while b"Samples: " not in buf:
    r, _, _ = select.select([fd], [], [], 600)
    if not r:
        sys.exit("no screen in 600 s")
    try:
        d = os.read(fd, 65536)
    except OSError:
        sys.exit("pmc ended before drawing: " + buf.decode(errors="replace")[-300:])
    if not d:
        sys.exit("pmc ended before drawing")
    buf += d
t1 = time.monotonic()
os.write(fd, b"q")
while True:
    try:
        if not os.read(fd, 65536):
            break
    except OSError:
        break
os.waitpid(pid, 0)
print("%.3f" % (t1 - t0))
PY
best= textbest=
for _ in $(seq "$RUNS"); do
  t=$(python3 "$T/open.py" "$PMC" "$DATA")
  if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$t; fi
  read -r s _ _ _ < <(RUNS=1 measure "$PMC" report --stdio -i "$DATA" --color never)
  if [ -z "$textbest" ] || awk -v a="$s" -v b="$textbest" 'BEGIN{exit !(a<b)}'; then textbest=$s; fi
done
echo "perf.data: ${BENCH_PERF_DATA:-work603010, perf record -g -e cpu-clock -c 10000}, $samples samples"
echo "$(nproc) CPUs, $(uname -r); best of $RUNS"
echo
echo "| pmc report --tui: first screen | pmc report --stdio: whole report |"
echo "|---|---|"
echo "| $best s | $textbest s |"
