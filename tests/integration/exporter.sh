#!/usr/bin/env bash
# pmc exporter: counters served at /metrics, scraped by a real Prometheus
# (Debian's prometheus package: started here on 127.0.0.1 with a free port,
# a temporary config and data directory, stopped at the end).  Known answer:
# the increase of page-faults of a page toucher, queried with PromQL through
# Prometheus's HTTP API, is pmc stat's count of the same workload within 5 %.
# Also: promtool check metrics, content negotiation, the HTTP server's
# bounds, a target that exits, Ctrl-C, a port in use, bad addresses.
. "$(dirname "$0")/lib.sh"

N=20000                      # pages the workload touches
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
  rm -rf "$TMP"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
http() {  # RAW-REQUEST PORT: the status line of the answer (python: exact bytes)
  python3 - "$1" "$2" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[2])))
s.sendall(sys.argv[1].encode().decode("unicode_escape").encode("latin-1"))
data = b""
while True:
    b = s.recv(65536)
    if not b: break
    data += b
    if b"\r\n\r\n" in data:
        head, _, body = data.partition(b"\r\n\r\n")
        cl = [l for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
        if cl and len(body) >= int(cl[0].split(b":")[1]): break
print(data.split(b"\r\n")[0].decode())
PY
}

# --- an exporter of the whole machine: formats and the HTTP server ----------------
"$PMC" exporter -e page-faults,context-switches -L 127.0.0.1:0 2>"$TMP/a.err" &
APID=$!; PIDS+=("$APID")
port=$(served_port "$TMP/a.err")
if [ -z "$port" ]; then
  fail "pmc exporter -L 127.0.0.1:0 serves" "$(cat "$TMP/a.err")"
  done_testing; exit
fi
ok "pmc exporter -L 127.0.0.1:0 serves on a free port ($port)"
curl -s -D "$TMP/h1" http://127.0.0.1:$port/metrics >"$TMP/m1"
check "without Accept: text format 0.0.4" grep -qi '^Content-Type: text/plain; version=0.0.4' "$TMP/h1"
check "one series per event and CPU" \
    test "$(grep -c '^pmc_events_total{event="page-faults",cpu="[0-9]*"} [0-9]*$' "$TMP/m1")" = "$(nproc)"
check "enabled and running times per series" \
    sh -c "grep -q '^pmc_event_enabled_seconds_total{event=\"context-switches\",cpu=\"0\"} [0-9.]*\$' '$TMP/m1' && grep -q '^pmc_event_running_seconds_total{' '$TMP/m1'"
if command -v promtool >/dev/null 2>&1; then
  promtool check metrics <"$TMP/m1" >"$TMP/lint" 2>&1
  check "promtool check metrics: clean ($(wc -l <"$TMP/lint") remarks)" test $? = 0 -a ! -s "$TMP/lint"
else
  skip "promtool check metrics" "promtool (Debian package prometheus) is not installed"
fi
curl -s -D "$TMP/h2" -H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1' \
    http://127.0.0.1:$port/metrics >"$TMP/m2"
check "Accept: application/openmetrics-text gets OpenMetrics" \
    grep -qi '^Content-Type: application/openmetrics-text; version=1.0.0' "$TMP/h2"
check "OpenMetrics: TYPE and UNIT of the family, _total samples, ends with # EOF" \
    sh -c "grep -q '^# TYPE pmc_events counter\$' '$TMP/m2' && grep -q '^# UNIT pmc_event_enabled_seconds seconds\$' '$TMP/m2' && [ \"\$(tail -1 '$TMP/m2')\" = '# EOF' ]"
curl -s -D "$TMP/h3" -H 'Accept: application/openmetrics-text;q=0.2,text/plain;q=0.9' http://127.0.0.1:$port/metrics >/dev/null
check "q-values decide (text/plain preferred)" grep -qi '^Content-Type: text/plain; version=0.0.4' "$TMP/h3"
a=$(sed -n 's/^pmc_events_total{event="page-faults",cpu="0"} //p' "$TMP/m1")
"$HELPERS/touch_pages" 2000
b=$(curl -s http://127.0.0.1:$port/metrics | sed -n 's/^pmc_events_total{event="page-faults",cpu="[0-9]*"} //p' | awk '{s+=$1} END {print s}')
a_all=$(sed -n 's/^pmc_events_total{event="page-faults",cpu="[0-9]*"} //p' "$TMP/m1" | awk '{s+=$1} END {print s}')
check "counters are monotonic and count (page-faults $a_all -> $b after 2000 pages)" test "$b" -ge $((a_all + 2000))
check "GET / names the endpoint" sh -c "curl -s http://127.0.0.1:$port/ | grep -q /metrics"
check "404 for another path" test "$(http 'GET /nope HTTP/1.1\r\nHost: x\r\n\r\n' "$port")" = "HTTP/1.1 404 Not Found"
check "405 for POST" test "$(http 'POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n' "$port")" = "HTTP/1.1 405 Method Not Allowed"
check "413 for a request body" test "$(http 'GET /metrics HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello' "$port")" = "HTTP/1.1 413 Content Too Large"
big=$(python3 -c 'print("X-Pad: " + "a" * 9000)')
check "431 for a request head over 8 KiB" test "$(http "GET /metrics HTTP/1.1\r\n$big\r\n\r\n" "$port")" = "HTTP/1.1 431 Request Header Fields Too Large"
check "400 for garbage" test "$(http 'hello\r\n\r\n' "$port")" = "HTTP/1.1 400 Bad Request"
# RFC 9112 framing: what two parsers could read two ways is refused, and answered
check "400 for two Content-Length that differ" \
    test "$(http 'GET /metrics HTTP/1.1\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\nhello' "$port")" = "HTTP/1.1 400 Bad Request"
check "400 for Content-Length with Transfer-Encoding" \
    test "$(http 'GET /metrics HTTP/1.1\r\nContent-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n' "$port")" = "HTTP/1.1 400 Bad Request"
check "400 (an answer, not a wait) for bare CR line ends" \
    test "$(http 'GET /metrics HTTP/1.1\rHost: x\r\r' "$port")" = "HTTP/1.1 400 Bad Request"
many=$(python3 -c 'print("".join("X-H%d: v\\r\\n" % i for i in range(120)), end="")')
check "431 for more than 100 header lines" \
    test "$(http "GET /metrics HTTP/1.1\r\n${many}\r\n" "$port")" = "HTTP/1.1 431 Request Header Fields Too Large"
late=$(python3 -c 'print("".join("X-H%d: v\\r\\n" % i for i in range(70)), end="")')
check "a Content-Length on the 71st header line is seen (413, not a second request)" \
    test "$(http "GET /metrics HTTP/1.1\r\n${late}Content-Length: 40\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\n\r\n" "$port")" = "HTTP/1.1 413 Content Too Large"
# slowloris: 64 connections that send one header byte every 0.5 s (and come
# back when closed) hold every slot; a scraper that connects and asks at once
# is answered within 2 s each time (the issue's known answer)
if python3 - "$port" >"$TMP/slow.out" 2>&1 <<'PY'
import socket, sys, threading, time
port = int(sys.argv[1]); stop = False
def slow():
    socks = []
    while not stop:
        while len(socks) < 64 and not stop:
            try:
                s = socket.create_connection(("127.0.0.1", port)); s.sendall(b"G"); socks.append(s)
            except OSError:
                time.sleep(0.05)
        for s in list(socks):
            try: s.sendall(b"X")
            except OSError: socks.remove(s); s.close()
        time.sleep(0.5)
threading.Thread(target=slow, daemon=True).start()
time.sleep(3)                      # every slot taken by now
lat = []
for i in range(12):
    t = time.monotonic()
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=2)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while True:
            b = s.recv(65536)
            if not b: break
            data += b
        ok = data.startswith(b"HTTP/1.1 200")
    except OSError:
        ok = False
    lat.append(time.monotonic() - t if ok else None)
    time.sleep(0.5)
stop = True
good = [x for x in lat if x is not None]
print("answered %d of %d, slowest %.3f s" % (len(good), len(lat), max(good) if good else -1))
sys.exit(0 if len(good) == len(lat) else 1)
PY
then ok "64 slow clients: every scrape answered within 2 s ($(cat "$TMP/slow.out"))"
else fail "64 slow clients: every scrape answered within 2 s" "$(cat "$TMP/slow.out")"; fi
if python3 - "$port" <<'PY'
import http.client, socket, sys
# keep-alive: two requests on one connection; HEAD has no body
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
c.request("GET", "/metrics"); r = c.getresponse(); b1 = r.read()
c.request("HEAD", "/metrics"); r2 = c.getresponse(); b2 = r2.read()
assert r.status == 200 and b1.startswith(b"# HELP") and r2.status == 200 and b2 == b"", (r.status, r2.status)
# a client that connects and says nothing does not stop the others
idle = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
c2 = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1])); c2.request("GET", "/metrics")
assert c2.getresponse().status == 200
idle.close()
PY
then ok "keep-alive, HEAD, and an idle client does not block others"
else fail "keep-alive / HEAD / idle client"; fi

# --- a port in use, bad addresses, bad events ---------------------------------------
"$PMC" exporter -e page-faults -L 127.0.0.1:$port -l 1 >/dev/null 2>"$TMP/inuse.err"; rc=$?
check "a port in use: exit 1, says so (rc=$rc)" sh -c "[ $rc = 1 ] && grep -q 'in use' '$TMP/inuse.err'"
for bad in nonsense 127.0.0.1:99999 127.0.0.1: '[::1:80' 'a:b:c'; do
  "$PMC" exporter -e page-faults -L "$bad" -l 1 >/dev/null 2>"$TMP/bad.err"; rc=$?
  check "-L '$bad': usage error (rc=$rc)" sh -c "[ $rc = 2 ] && grep -q 'not an address' '$TMP/bad.err'"
done
"$PMC" exporter -e no-such-event -L 127.0.0.1:0 -l 1 >/dev/null 2>"$TMP/ev.err"; rc=$?
check "an unknown event: usage error (rc=$rc)" sh -c "[ $rc = 2 ] && grep -q \"no-such-event\" '$TMP/ev.err'"
"$PMC" exporter -p 2147483646 -L 127.0.0.1:0 -l 1 >/dev/null 2>"$TMP/pid.err"; rc=$?
check "a process that does not exist: exit 1, names it (rc=$rc)" sh -c "[ $rc = 1 ] && grep -q 'no process.*2147483646' '$TMP/pid.err'"
"$PMC" exporter -G no/such/group -L 127.0.0.1:0 -l 1 >/dev/null 2>"$TMP/cg.err"; rc=$?
check "a cgroup that does not exist: exit 1, names it (rc=$rc)" sh -c "[ $rc = 1 ] && grep -q \"cgroup '/sys/fs/cgroup/no/such/group'\" '$TMP/cg.err'"
"$PMC" exporter -p 1 -a >/dev/null 2>&1; rc=$?
check "-p with -a: usage error (rc=$rc)" test "$rc" = 2

# --- Ctrl-C: a clean exit, the port free again ----------------------------------------
kill -INT "$APID"; wait "$APID"; rc=$?
check "SIGINT: exit 0 (rc=$rc)" test "$rc" = 0
"$PMC" exporter -e page-faults -L 127.0.0.1:$port -l 0.2 >/dev/null 2>"$TMP/again.err"; rc=$?
check "the port is free again: a new exporter listens there (rc=$rc)" test "$rc" = 0

# --- a cgroup: the page faults of the tasks in it ----------------------------------------
cgroot=
for d in /sys/fs/cgroup/unified /sys/fs/cgroup; do
  [ -e "$d/cgroup.procs" ] && [ -w "$d" ] && { cgroot=$d; break; }
done
if [ -n "$cgroot" ] && mkdir "$cgroot/pmc-test-$$" 2>/dev/null; then
  CG=$cgroot/pmc-test-$$
  "$PMC" exporter -e page-faults -G "$CG" -L 127.0.0.1:0 2>"$TMP/g.err" 3>&- &
  GPID=$!; PIDS+=("$GPID")
  gport=$(served_port "$TMP/g.err")
  sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" "$3"' sh "$CG" "$HELPERS/touch_pages" "$N"
  got=$(curl -s http://127.0.0.1:$gport/metrics | sed -n "s|^pmc_events_total{event=\"page-faults\",cgroup=\"$CG\",cpu=\"[0-9]*\"} ||p" | awk '{s+=$1} END {print s+0}')
  kill -TERM "$GPID"; wait "$GPID"; rc=$?
  rmdir "$CG"
  check "-G: the cgroup's page faults, per CPU, summed: $got >= $N; SIGTERM: exit 0 (rc=$rc)" \
      sh -c "[ $got -ge $N ] && [ $got -lt $((N * 105 / 100)) ] && [ $rc = 0 ]"
else
  skip "-G: a cgroup's counts" "no writable cgroup hierarchy here"
fi

# --- a real Prometheus scrapes a process's page faults ----------------------------------
if ! command -v prometheus >/dev/null 2>&1; then
  skip "Prometheus scrapes pmc exporter" "prometheus (Debian package prometheus) is not installed"
  done_testing; exit
fi
mkfifo "$TMP/go"
"$HELPERS/touch_pages" "$N" wait <"$TMP/go" >"$TMP/wl.out" &
WPID=$!; PIDS+=("$WPID")
exec 3>"$TMP/go"
for i in $(seq 1 500); do [ "$(cat /proc/$WPID/comm 2>/dev/null)" = touch_pages ] && break; sleep 0.02; done
# (fd 3, the workload's stdin, stays out of the children: its end is the workload's)
"$PMC" exporter -e page-faults -p "$WPID" -L 127.0.0.1:0 2>"$TMP/p.err" 3>&- &
EPID=$!; PIDS+=("$EPID")
eport=$(served_port "$TMP/p.err")
# processes that name themselves \xff\xfe (not UTF-8) and x<newline>y: the
# scrape stays valid UTF-8 (promtool clean), nothing cut, and Prometheus
# stores their series
HOST=()
for name in fffe 780a79; do
  python3 -c 'import sys, time
open("/proc/self/comm", "wb").write(bytes.fromhex(sys.argv[1])); print("named", flush=True); time.sleep(600)' "$name" >"$TMP/h$name.out" 3>&- &
  HOST+=($!); PIDS+=($!)
  for i in $(seq 1 500); do grep -q named "$TMP/h$name.out" && break; sleep 0.02; done
done
"$PMC" exporter -e page-faults -p "${HOST[0]},${HOST[1]}" -L 127.0.0.1:0 2>"$TMP/h.err" 3>&- &
HPID=$!; PIDS+=("$HPID")
hport=$(served_port "$TMP/h.err")
curl -s http://127.0.0.1:$hport/metrics >"$TMP/hm"
check "a comm that is not UTF-8 is escaped (\\\\xff), a newline in one kept (\\n): valid UTF-8" \
    python3 - "$TMP/hm" "${HOST[0]}" "${HOST[1]}" <<'PY'
import sys
m = open(sys.argv[1], "rb").read(); m.decode("utf-8")
assert ('pid="%s",comm="\\\\xff\\\\xfe"}' % sys.argv[2]).encode() in m, m
assert ('pid="%s",comm="x\\ny"}' % sys.argv[3]).encode() in m, m
PY
if command -v promtool >/dev/null 2>&1; then
  promtool check metrics <"$TMP/hm" >"$TMP/hlint" 2>&1
  check "hostile names: promtool check metrics clean" test $? = 0 -a ! -s "$TMP/hlint"
else
  skip "hostile names: promtool check metrics" "promtool (Debian package prometheus) is not installed"
fi
pport=$(free_port)
cat >"$TMP/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: pmc
    static_configs:
      - targets: ['127.0.0.1:$eport']
  - job_name: hostile
    static_configs:
      - targets: ['127.0.0.1:$hport']
YML
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
    --web.listen-address=127.0.0.1:$pport --log.level=warn >"$TMP/prom.log" 2>&1 3>&- &
PPID_=$!; PIDS+=("$PPID_")
promql() {  # QUERY: the first result's value, or "" (Prometheus's HTTP API)
  python3 - "$pport" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
u = "http://127.0.0.1:%s/api/v1/query?query=%s" % (sys.argv[1], urllib.parse.quote(sys.argv[2]))
try:
    d = json.load(urllib.request.urlopen(u))
    r = d["data"]["result"]
    print(r[0]["value"][1] if r else "")
except Exception:
    print("")
PY
}
series='pmc_events_total{event="page-faults",job="pmc"}'
wait_for() {  # QUERY VALUE-TEST: poll (Prometheus scrapes every second) up to 600 times
  local i v
  for i in $(seq 1 600); do
    kill -0 "$PPID_" 2>/dev/null || return 1
    v=$(promql "$1")
    [ -n "$v" ] && eval "$2" && { echo "$v"; return 0; }
    sleep 0.2
  done
  return 1
}
if ! before=$(wait_for "count_over_time(${series}[10m])" '[ "${v%.*}" -ge 2 ]'); then
  fail "Prometheus scrapes pmc exporter" "$(tail -5 "$TMP/prom.log") $(cat "$TMP/p.err")"
  exec 3>&-; done_testing; exit
fi
ok "Prometheus scrapes pmc exporter ($before samples before the workload)"
if nh=$(wait_for 'count(pmc_events_total{job="hostile"})' '[ "$v" = 2 ]'); then
  ok "Prometheus stores the series of processes named \\xff\\xfe and x\\ny ($nh series)"
else
  fail "Prometheus stores the hostile names' series" "$(promql 'up{job="hostile"}') $(tail -3 "$TMP/prom.log")"
fi
echo go >&3
for i in $(seq 1 3000); do grep -q done "$TMP/wl.out" && break; sleep 0.02; done
final=$(curl -s http://127.0.0.1:$eport/metrics | sed -n 's/^pmc_events_total{event="page-faults",pid="[0-9]*",comm="touch_pages"} //p')
check "the series is labelled pid and comm (count $final)" test -n "$final"
wait_for "max_over_time(${series}[10m])" "[ \"\$v\" = \"$final\" ]" >/dev/null
inc=$(promql "max_over_time(${series}[10m]) - min_over_time(${series}[10m])")
rate=$(promql "max_over_time(rate(${series}[3s])[10m:1s])")
"$PMC" stat -x, -e page-faults -- "$HELPERS/touch_pages" "$N" 2>"$TMP/stat.csv"
want=$(awk -F, '$3 == "page-faults" {print $1}' "$TMP/stat.csv")
if [ -n "$inc" ] && [ -n "$want" ] && approx "$inc" "$want" 5; then
  ok "PromQL increase of page-faults: $inc, pmc stat: $want (within 5 %); peak rate ${rate%.*}/s"
else
  fail "PromQL increase vs pmc stat" "promql=$inc stat=$want $(cat "$TMP/stat.csv")"
fi

# --- the target exits: the exporter says so and ends, status 0 ----------------------------
exec 3>&-
wait "$WPID"
wait "$EPID"; rc=$?
check "the last process exits: the exporter ends with 0 and says why (rc=$rc)" \
    sh -c "[ $rc = 0 ] && grep -q 'has exited' '$TMP/p.err'"
kill -TERM "$PPID_"; wait "$PPID_"
check "Prometheus stopped, nothing left running" sh -c "! kill -0 $PPID_ 2>/dev/null && ! kill -0 $EPID 2>/dev/null"
done_testing
