#!/usr/bin/env bash
# pmc exporter's CPU profiles at /debug/pprof/profile (Go's net/http/pprof
# convention), pulled by a real `go tool pprof` (Debian's golang-go, optional
# in scripts/deps.sh: those checks skip with the reason when it is missing).
# Known answers: the profile of a running 60/30/10 workload (-p PID, and a
# cgroup with -G) shows its designed shares within 3 points; -raw shows the
# mappings with the binary's build id (readelf's); --call-graph dwarf gives
# whole stacks.  The HTTP side: bad seconds/hz get 400 with the reason, a
# second request while one runs gets 429 and Retry-After, /metrics answers
# during a profile, a client that goes away frees the profiler at once; an
# idle target's profile has no samples but its sample types.
. "$(dirname "$0")/lib.sh"

W=$TMP/w
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
  [ -n "${CG:-}" ] && rmdir "$CG" 2>/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT
# connections the exporter on port PORT has accepted and holds open
established() { awk -v p=":$(printf '%04X' "$1")" '$2 ~ p"$" && $4 == "01"' /proc/net/tcp | wc -l; }
code() { curl -s -o "$TMP/body" -D "$TMP/head" -w '%{http_code}' "http://127.0.0.1:$1$2"; }

# ---- options (need nothing but pmc) -----------------------------------------------
"$PMC" exporter --help >"$TMP/help" 2>&1
check "--help names /debug/pprof/profile, -F, --call-graph and --max-profile" \
    sh -c "grep -q '/debug/pprof/profile?seconds=N' '$TMP/help' && grep -q -- '--call-graph=MODE' '$TMP/help' && grep -q -- '--max-profile' '$TMP/help' && grep -q -- '-F, --freq' '$TMP/help'"
for bad in "-F 0" "-F x" "--call-graph nonsense" "--max-profile 0" "--max-profile 100000"; do
  # shellcheck disable=SC2086
  "$PMC" exporter $bad -L 127.0.0.1:0 -l 0.1 >/dev/null 2>"$TMP/e"; rc=$?
  check "$bad: usage error, exit 2 ($rc): $(head -1 "$TMP/e")" test "$rc" = 2
done

if ! sh "$PMC_ROOT/tests/helpers/analysis/build.sh" "$W" >"$TMP/build.out" 2>&1; then
  skip "exporter profiles" "cannot build the workloads: $(tail -1 "$TMP/build.out")"
  done_testing; exit
fi
if ! "$PMC" record -q -e cpu-clock -g -o "$TMP/probe.log" -- true >/dev/null 2>"$TMP/e"; then
  skip "exporter profiles" "cannot sample here: $(tail -1 "$TMP/e")"
  done_testing; exit
fi
HAVE_GO=
if command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; then
  HAVE_GO=1
  # go tool pprof keeps profiles under $PPROF_TMPDIR (else $HOME/pprof) and
  # may write its cache under $HOME
  export HOME=$TMP/home PPROF_TMPDIR=$TMP/pprof GOCACHE=$TMP/gocache
  mkdir -p "$HOME" "$PPROF_TMPDIR"
fi
NOGO="go tool pprof (Debian package golang-go) is not installed"
BUILDID=$(readelf -n "$W/work603010" | sed -n 's/.*Build ID: *//p')

# flat% of SYM in a go tool pprof -top listing
flat() { awk -v s="$1" '$NF == s { sub("%", "", $2); print $2; exit }' "$2"; }
# within A B POINTS: |A - B| <= POINTS
within() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= p) }'; }
# The seconds at HZ that give the process PID about 3000 samples (its CPU
# share measured over a second: the machine may be busy), at least 2.  With
# 3000 samples a 60 % share is known to +-0.9 points (one sigma).
secs_for() {
  local t0 t1
  t0=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
  sleep 1
  t1=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
  awk -v d="$((t1 - t0))" -v tck="$(getconf CLK_TCK)" -v hz="$2" 'BEGIN {
    f = d / tck; if (f < 0.02) f = 0.02; s = int(3000 / (f * hz)) + 1
    if (s < 2) s = 2; if (s > 100) s = 100; print s }'
}
# shares NAME FILE: the 60/30/10 checks of a -top listing
shares() {
  local h w c
  h=$(flat hot60 "$2"); w=$(flat warm30 "$2"); c=$(flat cold10 "$2")
  check "$1: hot60 ${h:-none}% within 3 points of 60" within "${h:-}" 60 3
  check "$1: warm30 ${w:-none}% within 3 points of 30" within "${w:-}" 30 3
  check "$1: cold10 ${c:-none}% within 3 points of 10" within "${c:-}" 10 3
}

# ---- a process: -p -------------------------------------------------------------------
"$W/work603010" 100000000 >/dev/null & WPID=$!; PIDS+=("$WPID")
"$PMC" exporter -e cpu-clock -p "$WPID" -L 127.0.0.1:0 --max-profile 120 2>"$TMP/x.err" &
XPID=$!; PIDS+=("$XPID")
port=$(served_port "$TMP/x.err")
if [ -z "$port" ]; then
  fail "pmc exporter -p serves" "$(cat "$TMP/x.err")"
  done_testing; exit
fi
P=/debug/pprof/profile
# bad requests: 400 with the reason, before anything is sampled
for q in seconds=abc seconds=0 seconds=-1 seconds=1.5 seconds=121 "seconds=%zz" seconds=99999999999999999999; do
  c=$(code "$port" "$P?$q")
  check "?$q: 400 ($c), the body names seconds" sh -c "[ '$c' = 400 ] && grep -q \"seconds: .* from 1 to 120\" '$TMP/body'"
done
for q in hz=0 hz=abc hz=-5 hz=99999999 "seconds=1&hz="; do
  c=$(code "$port" "$P?$q")
  check "?$q: 400 ($c), the body names hz" sh -c "[ '$c' = 400 ] && grep -q 'hz: .* samples per second from 1 to' '$TMP/body'"
done

S=$(secs_for "$WPID" 997)
# one profile pulled by go tool pprof; meanwhile a second request and /metrics
if [ -n "$HAVE_GO" ]; then
  go tool pprof -top "http://127.0.0.1:$port$P?seconds=$S&hz=997" >"$TMP/top.txt" 2>"$TMP/top.err" &
else
  curl -s -o "$TMP/first.pb.gz" "http://127.0.0.1:$port$P?seconds=$S&hz=997" &
fi
FIRST=$!
# its connection is open (so it is the first request the server reads)
for i in $(seq 1 400); do
  [ "$(established "$port")" -ge 1 ] && break
  sleep 0.05
done
sleep 0.2
# the first request is being served once a second one is refused
c=
for i in $(seq 1 200); do
  c=$(code "$port" "$P?seconds=1")
  [ "$c" != 200 ] && break
done
ra=$(sed -n 's/^Retry-After: *\([0-9]*\).*/\1/Ip' "$TMP/head" | tr -d '\r')
check "a second request while a profile runs: 429 ($c) with Retry-After (${ra:-none} s)" \
    sh -c "[ '$c' = 429 ] && [ '${ra:-0}' -ge 1 ] && [ '${ra:-0}' -le $((S + 2)) ]"
c=$(code "$port" /metrics)
kill -0 "$FIRST" 2>/dev/null; running=$?
check "/metrics answers during the profile ($c, the profile still running: $((1 - running)))" \
    sh -c "[ '$c' = 200 ] && grep -q '^pmc_events_total{event=\"cpu-clock\",pid=\"$WPID\"' '$TMP/body' && [ $running = 0 ]"
wait "$FIRST"; rc=$?
if [ -n "$HAVE_GO" ]; then
  check "go tool pprof -top http://.../debug/pprof/profile?seconds=$S&hz=997: exit 0 ($rc)" test "$rc" = 0
  shares "-p, $S s at 997 Hz" "$TMP/top.txt"
  check "-top: the profile's program is work603010" grep -q '^File: work603010$' "$TMP/top.txt"
  saved=$(ls "$PPROF_TMPDIR"/*.pb.gz 2>/dev/null | head -1)
  go tool pprof -raw "$saved" >"$TMP/raw.txt" 2>"$TMP/raw.err"
  check "-raw: the workload's mapping with its build id ($BUILDID)" \
      grep -Eq "^[0-9]+: 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ $W/work603010 $BUILDID( |\$)" "$TMP/raw.txt"
  check "-raw: libc's mapping has a build id too" \
      grep -Eq '^[0-9]+: 0x[0-9a-f/x]+ /[^ ]*libc\.so\.6 [0-9a-f]{40}( |$)' "$TMP/raw.txt"
else
  for n in "go tool pprof -top: 60/30/10 within 3 points" "go tool pprof -raw: mappings with build ids"; do
    skip "$n" "$NOGO"
  done
  check "the profile is gzip data" sh -c "[ \"\$(head -c 2 '$TMP/first.pb.gz' | od -An -tx1 | tr -d ' ')\" = 1f8b ]"
fi

# a client that goes away cancels its profile: the next one is taken at once
curl -s -m 1 -o /dev/null "http://127.0.0.1:$port$P?seconds=100"
c= ra=
for i in $(seq 1 40); do
  c=$(code "$port" "$P?seconds=1")
  [ "$c" != 429 ] && break
  ra=$(sed -n 's/^Retry-After: *\([0-9]*\).*/\1/Ip' "$TMP/head" | tr -d '\r')
  [ "${ra:-0}" -gt 10 ] && break     # still sampling the 100 s: not cancelled
  sleep 0.25
done
check "after its client went, the profile was cancelled: the next one is answered ($c${ra:+, Retry-After $ra})" \
    sh -c "[ '$c' = 200 ] && [ \"\$(head -c 2 '$TMP/body' | od -An -tx1 | tr -d ' ')\" = 1f8b ]"
check "the content type is application/octet-stream" grep -qi '^Content-Type: application/octet-stream' "$TMP/head"
kill -TERM "$XPID"; wait "$XPID"; rc=$?
check "SIGTERM: exit 0 ($rc)" test "$rc" = 0

# ---- an idle process: a profile without samples still says what it is of -------------
sleep 1000 & SPID=$!; PIDS+=("$SPID")
"$PMC" exporter -e cpu-clock -p "$SPID" -L 127.0.0.1:0 2>"$TMP/i.err" &
IPID=$!; PIDS+=("$IPID")
iport=$(served_port "$TMP/i.err")
c=$(code "$iport" "$P?seconds=1")
cp "$TMP/body" "$TMP/idle.pb.gz"
if [ -n "$HAVE_GO" ]; then
  go tool pprof -raw "$TMP/idle.pb.gz" >"$TMP/idle.txt" 2>&1
  check "an idle process: 200 ($c), no samples, its sample types (cpu-clock nanoseconds)" \
      sh -c "[ '$c' = 200 ] && grep -q '^samples/count cpu-clock/nanoseconds' '$TMP/idle.txt'"
else
  check "an idle process: 200 ($c)" test "$c" = 200
fi
kill -TERM "$IPID"; wait "$IPID"; kill "$SPID"; wait "$SPID" 2>/dev/null

# ---- --call-graph dwarf: whole stacks from the sampled user stack ---------------------
"$PMC" exporter -e cpu-clock -p "$WPID" --call-graph dwarf -L 127.0.0.1:0 2>"$TMP/d.err" &
DPID=$!; PIDS+=("$DPID")
dport=$(served_port "$TMP/d.err")
if [ -n "$HAVE_GO" ]; then
  go tool pprof -traces "http://127.0.0.1:$dport$P?seconds=2&hz=499" >"$TMP/traces.txt" 2>"$TMP/tr.err"; rc=$?
  check "--call-graph dwarf: go tool pprof -traces: exit 0 ($rc)" test "$rc" = 0
  # a trace: the leaf first, then its callers, each on its own line
  check "--call-graph dwarf: hot60's stacks go on to main" \
      awk '$NF == "hot60" { h = 1; next } h && $NF == "main" { ok = 1 } /^-----/ { h = 0 } END { exit !ok }' "$TMP/traces.txt"
else
  c=$(code "$dport" "$P?seconds=1&hz=499")
  check "--call-graph dwarf: a profile (200: $c)" test "$c" = 200
fi
kill -TERM "$DPID"; wait "$DPID"

# ---- a cgroup: -G, its tasks only ----------------------------------------------------------
kill "$WPID"; wait "$WPID" 2>/dev/null
cgroot=
for d in /sys/fs/cgroup/unified /sys/fs/cgroup; do
  [ -e "$d/cgroup.procs" ] && [ -w "$d" ] && { cgroot=$d; break; }
done
if [ -z "$HAVE_GO" ]; then
  skip "-G: a cgroup's profile" "$NOGO"
elif [ -n "$cgroot" ] && mkdir "$cgroot/pmc-pprof-$$" 2>/dev/null; then
  CG=$cgroot/pmc-pprof-$$
  sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" 100000000' sh "$CG" "$W/work603010" >/dev/null &
  GW=$!; PIDS+=("$GW")
  "$PMC" exporter -e cpu-clock -G "$CG" -L 127.0.0.1:0 2>"$TMP/g.err" &
  GPID=$!; PIDS+=("$GPID")
  gport=$(served_port "$TMP/g.err")
  S=$(secs_for "$GW" 997)
  rm -f "$PPROF_TMPDIR"/*
  go tool pprof -top "http://127.0.0.1:$gport$P?seconds=$S&hz=997" >"$TMP/gtop.txt" 2>"$TMP/gtop.err"; rc=$?
  check "-G: go tool pprof -top: exit 0 ($rc)" test "$rc" = 0
  shares "-G, $S s at 997 Hz" "$TMP/gtop.txt"
  saved=$(ls "$PPROF_TMPDIR"/*.pb.gz 2>/dev/null | head -1)
  go tool pprof -raw "$saved" >"$TMP/graw.txt" 2>/dev/null
  others=$(sed -n '/^Mappings/,$p' "$TMP/graw.txt" | awk 'NR > 1 { print $3 }' |
      grep -Ev "^($W/work603010|/proc/kallsyms|\\[.*\\]|/.*/(libc\\.so\\.6|ld-linux-x86-64\\.so\\.2))\$" | tr '\n' ' ')
  check "-G: only the cgroup's binaries (others: ${others:-none})" test -z "$others"
  kill -TERM "$GPID"; wait "$GPID"
  kill "$GW"; wait "$GW" 2>/dev/null
  rmdir "$CG" && CG=
else
  skip "-G: a cgroup's profile" "no writable cgroup hierarchy here"
fi

done_testing
