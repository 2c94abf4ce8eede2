#!/usr/bin/env bash
# Hostile and careless input (issue 11 items 3 and 5): each case was observed
# on the old code and fails there.
#  - perf.data from a pipe is streamed, never buffered without limit: checked
#    under a memory limit (ulimit -v), never a time limit;
#  - bad option values are usage errors naming the value;
#  - JSON outputs are valid UTF-8 whatever bytes the names hold;
#  - --follow ends when the log's writer has died;
#  - annotate fails on a truncated log; a directory is "Is a directory";
#  - after a failed write the summary counts the samples the file holds.
. "$(dirname "$0")/lib.sh"

"$PMC" record -g -e cpu-clock -o "$TMP/a.log" -- "$HELPERS/busy" 200 >/dev/null 2>&1 ||
  fail "record a log to work on"

# ---- item 3: perf.data on a pipe, under a memory limit -------------------------------
if [ -n "${PMC_SANITIZED:-}" ]; then
  skip "perf.data pipe under ulimit -v" "ASan reserves terabytes of address space"
  skip "file-mode perf.data pipe under ulimit -v" "ASan reserves terabytes of address space"
else
  # 2 GB of zeros behind a perf.data magic; 400 MB of address space
  ( ulimit -v 400000; (printf PERFILE2; head -c 2G /dev/zero) |
    timeout 300 "$PMC" report -i - >/dev/null 2>"$TMP/z.err"; echo "${PIPESTATUS[1]}" >"$TMP/z.rc" )
  rc=$(cat "$TMP/z.rc")
  if [ "$rc" = 1 ] && grep -q "header size" "$TMP/z.err"; then
    ok "PERFILE2 + zeros on a pipe: refused at once with a reason, in bounded memory"
  else fail "PERFILE2 + zeros on a pipe" "rc=$rc $(cat "$TMP/z.err")"; fi
  if command -v perf >/dev/null 2>&1 &&
     perf record -q -e cpu-clock -c 100000 -o "$TMP/p.data" -- "$HELPERS/busy" 100 >/dev/null 2>&1; then
    # a file-mode perf.data (sections found by offset) followed by 2 GB of junk
    ( ulimit -v 400000; (cat "$TMP/p.data"; head -c 2G /dev/zero) |
      timeout 300 "$PMC" report -i - --sort comm >"$TMP/pf.txt" 2>"$TMP/pf.err"; echo "${PIPESTATUS[1]}" >"$TMP/pf.rc" )
    rc=$(cat "$TMP/pf.rc")
    "$PMC" report -i "$TMP/p.data" --sort comm >"$TMP/pf.ref" 2>/dev/null
    if [ "$rc" = 0 ] && grep -q busy "$TMP/pf.txt" && diff -q <(grep -v '^#' "$TMP/pf.ref") <(grep -v '^#' "$TMP/pf.txt") >/dev/null; then
      ok "file-mode perf.data on a pipe: only what its header names is held (same report as the file)"
    else fail "file-mode perf.data on a pipe" "rc=$rc $(cat "$TMP/pf.err")"; fi
  else
    skip "file-mode perf.data on a pipe" "perf cannot record here"
  fi
fi

# ---- item 5: bad values are usage errors --------------------------------------------
bad() {   # NAME EXPECTED-TEXT CMD...: exit 2 and the text on stderr
  local name=$1 want=$2; shift 2
  "$@" >/dev/null 2>"$TMP/bad.err"; local rc=$?
  if [ "$rc" = 2 ] && grep -qF -- "$want" "$TMP/bad.err"; then ok "$name: usage error"
  else fail "$name" "rc=$rc $(head -2 "$TMP/bad.err")"; fi
}
bad "report --pid abc" "'abc' is not a process id" "$PMC" report -i "$TMP/a.log" --pid abc
bad "report --tid 1,x" "'x' is not a thread id" "$PMC" report -i "$TMP/a.log" --tid 1,x
bad "annotate --cpu zz" "'zz' is not a CPU number" "$PMC" annotate -i "$TMP/a.log" --cpu zz main
bad "diff --pid abc" "'abc' is not a process id" "$PMC" diff --pid abc "$TMP/a.log" "$TMP/a.log"
bad "report --time nan,inf" "--time" "$PMC" report -i "$TMP/a.log" --time nan,inf
bad "report --time 0,inf" "--time" "$PMC" report -i "$TMP/a.log" --time 0,inf
bad "report -g caller,nan" "'nan' is not a threshold" "$PMC" report -i "$TMP/a.log" -g caller,nan
bad "report -g caller,5,nan" "'nan' is not a print limit" "$PMC" report -i "$TMP/a.log" -g caller,5,nan
"$PMC" record -e cpu-clock -c 18446744073709551615 -o "$TMP/c.log" -- true >/dev/null 2>"$TMP/c.err"; rc=$?
if [ "$rc" != 0 ] && grep -q "period 18446744073709551615 is above the largest one" "$TMP/c.err"; then
  ok "record -c 2^64-1: the period is blamed, not the event"
else fail "record -c 2^64-1" "rc=$rc $(cat "$TMP/c.err")"; fi

# ---- item 5: JSON is valid UTF-8 --------------------------------------------------------
bin="$TMP/b$(printf '\377\376')usy"
cp "$HELPERS/busy" "$bin"
"$PMC" record -g -e cpu-clock -o "$TMP/u.log" -- "$bin" 200 >/dev/null 2>&1
for fmt in json speedscope html; do
  "$PMC" report -i "$TMP/u.log" -F "$fmt" -o "$TMP/u.$fmt" 2>/dev/null
  if python3 - "$TMP/u.$fmt" "$fmt" <<'PY'
import json, re, sys
t = open(sys.argv[1], 'rb').read().decode('utf-8')          # strict: raises on bad UTF-8
if sys.argv[2] == 'html':
    t = re.search(r'<script id="data" type="application/json">(.*?)</script>', t, re.S).group(1)
s = json.dumps(json.loads(t), ensure_ascii=False)
# the name, still recognisable: written \xNN as printable.h writes names
# (the one rule of every text output), or \u00XX where a path is kept as is
sys.exit(0 if r'\\xff\\xfeusy' in s or '\u00ff\u00feusy' in s else 1)
PY
  then ok "$fmt: valid UTF-8 JSON with a non-UTF-8 program name (bytes as \\xNN or \\u00XX)"
  else fail "$fmt with a non-UTF-8 name"; fi
done
"$PMC" dump --json -i "$TMP/u.log" 2>/dev/null >"$TMP/u.dump"
check "dump --json: every line valid UTF-8 JSON" python3 -c "
import json, sys
for l in open(sys.argv[1], 'rb'): json.loads(l.decode('utf-8'))" "$TMP/u.dump"

# ---- names with control characters: written \xNN, never raw -------------------------------
# A program named ESC ] 0 ; pwn BEL x (a terminal retitles itself) with a newline
# after it: raw in a report it would act on the terminal and split lines.
ctl="$TMP/$(printf '\033]0;pwn\007x\ny')"
cp "$HELPERS/busy" "$ctl"
"$PMC" record -g -e cpu-clock -o "$TMP/ctl.log" -- "$ctl" 200 >/dev/null 2>&1
"$PMC" report -i "$TMP/ctl.log" --color never -s comm,dso,sym >"$TMP/ctl.rep" 2>&1
"$PMC" report -i "$TMP/ctl.log" --color never -g caller >"$TMP/ctl.g" 2>&1
"$PMC" script -i "$TMP/ctl.log" >"$TMP/ctl.scr" 2>&1
"$PMC" report -i "$TMP/ctl.log" -F callgrind -o "$TMP/ctl.cg" -f 2>/dev/null
for out in rep g scr cg; do
  if ! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$TMP/ctl.$out" &&
     grep -qF '\x1b]0;pwn\x07x\x0ay' "$TMP/ctl.$out"; then
    ok "control characters in a program's name: written \\xNN in $out, no raw control byte"
  else fail "control characters in $out" "$(LC_ALL=C grep -c "$(printf '\033')" "$TMP/ctl.$out") lines with ESC"; fi
done
# every line of the script output is a sample line or a call chain line: no name split it
if awk '!/^\t/ && !/^$/ && $0 !~ /x0ay/ {bad++} END {exit bad > 0}' "$TMP/ctl.scr"; then
  ok "script: a newline in a name does not start a line"
else fail "script lines" "$(grep -v '^\s' "$TMP/ctl.scr" | grep -v x0ay | head -3)"; fi

# ---- item 5: --follow on a log whose writer died ---------------------------------------
"$PMC" record -e cpu-clock -o "$TMP/f.log" -- "$HELPERS/busy" 60000 >/dev/null 2>&1 &
wpid=$!
for _ in $(seq 100); do [ -s "$TMP/f.log" ] && break; sleep 0.1; done
sleep 0.3
cpid=$(pgrep -P "$wpid" | head -1)
kill -9 "$wpid"; wait "$wpid" 2>/dev/null
[ -n "$cpid" ] && kill "$cpid" 2>/dev/null
# timeout only guards against the hang this test is about
timeout 120 "$PMC" report --follow -i "$TMP/f.log" >/dev/null 2>"$TMP/f.err"; rc=$?
if [ "$rc" = 1 ] && grep -q "truncated" "$TMP/f.err"; then
  ok "report --follow on a log whose writer was killed: ends, says truncated, exit 1"
else fail "report --follow, dead writer" "rc=$rc (124: it waited) $(cat "$TMP/f.err")"; fi
timeout 120 "$PMC" dump --follow -i "$TMP/f.log" >/dev/null 2>"$TMP/fd.err"; rc=$?
check "dump --follow on the same log ends (rc=$rc)" test "$rc" != 124

# ---- item 5: truncated logs and directories --------------------------------------------
sz=$(stat -c %s "$TMP/a.log")
head -c $((sz - 20)) "$TMP/a.log" >"$TMP/cut.log"
"$PMC" annotate -i "$TMP/cut.log" main >/dev/null 2>"$TMP/an.err"; rc=$?
if [ "$rc" = 1 ] && grep -q truncated "$TMP/an.err"; then ok "annotate on a truncated log: exit 1, says so"
else fail "annotate truncated" "rc=$rc $(cat "$TMP/an.err")"; fi
mkdir "$TMP/dir"
for cmd in "report -i $TMP/dir" "annotate -i $TMP/dir main" "diff $TMP/dir $TMP/a.log"; do
  $PMC $cmd >/dev/null 2>"$TMP/d.err"; rc=$?
  if [ "$rc" = 1 ] && grep -q "Is a directory" "$TMP/d.err" && ! grep -q "truncated" "$TMP/d.err"; then
    ok "${cmd%% *} on a directory: \"Is a directory\""
  else fail "${cmd%% *} on a directory" "rc=$rc $(cat "$TMP/d.err")"; fi
done
if command -v perf >/dev/null 2>&1 &&
   perf record -q --threads -e cpu-clock -o "$TMP/pdir" -- "$HELPERS/busy" 100 >/dev/null 2>&1 &&
   [ -d "$TMP/pdir" ]; then
  "$PMC" dump -i "$TMP/pdir" >"$TMP/pdir.txt" 2>&1
  check "perf's directory format (record --threads) still read by dump" grep -q CALLCHAIN "$TMP/pdir.txt"
  "$PMC" report -i "$TMP/pdir" --sort comm >"$TMP/pdir.rep" 2>&1
  check "... and by report" grep -q busy "$TMP/pdir.rep"
else
  skip "perf's directory format" "perf record --threads does not work here"
fi

# ---- item 5: after a failed write, count what the file holds --------------------------
( ulimit -f 16; trap '' XFSZ; exec "$PMC" record -g -e cpu-clock -F 10000 -o "$TMP/big.log" -- \
    "$HELPERS/deepcall" 2 64 20000 ) >/dev/null 2>"$TMP/fsz.err"
said=$(sed -n "s/.* \([0-9][0-9]*\) samples,.*/\1/p" "$TMP/fsz.err" | tail -1)
held=$("$PMC" dump --json -i "$TMP/big.log" 2>/dev/null | grep -c '"type":"CALLCHAIN"')
if [ -n "$said" ] && [ "$said" = "$held" ] && [ "$held" -gt 0 ]; then
  ok "EFBIG: the summary's $said samples are the $held the file holds"
else fail "EFBIG sample count" "summary '$said', file $held"; fi
if [ "$(id -u)" = 0 ] && mkdir -p "$TMP/tiny" && mount -t tmpfs -o size=64k tmpfs "$TMP/tiny" 2>/dev/null; then
  "$PMC" record -g -e cpu-clock -F 10000 -o "$TMP/tiny/x.log" -- "$HELPERS/deepcall" 2 64 20000 \
      >/dev/null 2>"$TMP/nospc.err"
  said=$(sed -n "s/.* \([0-9][0-9]*\) samples,.*/\1/p" "$TMP/nospc.err" | tail -1)
  held=$("$PMC" dump --json -i "$TMP/tiny/x.log" 2>/dev/null | grep -c '"type":"CALLCHAIN"')
  umount "$TMP/tiny"
  if [ -n "$said" ] && [ "$said" = "$held" ] && [ "$held" -gt 0 ]; then
    ok "ENOSPC: the summary's $said samples are the $held the file holds"
  else fail "ENOSPC sample count" "summary '$said', file $held"; fi
else
  skip "ENOSPC sample count" "cannot mount a tmpfs here"
fi
# ---- careless users: one message naming the real problem (brief cli-errs) ---------------
# said NAME RC TEXT CMD...: exit RC and one line on stderr (a usage error's
# "Try ... --help" aside) that holds TEXT
said() {
  local name=$1 want_rc=$2 want=$3; shift 3
  "$@" >/dev/null 2>"$TMP/said.err"; local rc=$?
  local n; n=$(grep -vc "^Try '" "$TMP/said.err")
  if [ "$rc" = "$want_rc" ] && [ "$n" = 1 ] && grep -qF -- "$want" "$TMP/said.err"; then ok "$name"
  else fail "$name" "rc=$rc lines=$n $(head -3 "$TMP/said.err")"; fi
}
mkdir "$TMP/o"
said "annotate NOSUCH -o F: only 'no samples' (no write error)" 1 \
  "no samples in a function named 'nosuch'" "$PMC" annotate -i "$TMP/a.log" -o "$TMP/o/ann.out" nosuch
check "... and no output file (nor a temporary one) left" test -z "$(ls -A "$TMP/o")"
said "annotate NOSUCH to stdout: only 'no samples'" 1 \
  "no samples in a function named 'nosuch'" "$PMC" annotate -i "$TMP/a.log" nosuch
: >"$TMP/empty.log"
said "annotate on an empty log: only 'truncated at byte 0'" 1 "truncated at byte 0" \
  "$PMC" annotate -i "$TMP/empty.log" -o "$TMP/o/ann.out" nosuch
said "annotate -o /dev/full: one line, No space left on device" 1 "No space left on device" \
  "$PMC" annotate -i "$TMP/a.log" -o /dev/full main
said "annotate >/dev/full: No space left on device" 1 "No space left on device" \
  sh -c '"$1" annotate -i "$2" main >/dev/full' sh "$PMC" "$TMP/a.log"
# an annotation larger than stdio's buffer fails while it is written: the
# errno of that write, said once (python3's interpreter loop is ~1 MB of it)
if command -v python3 >/dev/null &&
   "$PMC" record -e cpu-clock -o "$TMP/py.log" -- python3 -c 'sum(i*i for i in range(2000000))' \
     >/dev/null 2>&1 &&
   "$PMC" annotate -i "$TMP/py.log" _PyEval_EvalFrameDefault 2>/dev/null | head -c 100000 | wc -c |
     grep -qx 100000; then
  said "annotate -o /dev/full, a large annotation: one line, No space left on device" 1 \
    "cannot write '/dev/full': No space left on device" \
    "$PMC" annotate -i "$TMP/py.log" -o /dev/full _PyEval_EvalFrameDefault
  said "annotate >/dev/full, a large annotation: No space left on device" 1 \
    "cannot write the output: No space left on device" \
    sh -c '"$1" annotate -i "$2" _PyEval_EvalFrameDefault >/dev/full' sh "$PMC" "$TMP/py.log"
else
  skip "annotate of a large function to /dev/full" "no python3 samples in _PyEval_EvalFrameDefault"
fi

# convert blames its input as report does, and makes no output for it
head -c 4096 /dev/urandom | tr '\211P' 'xx' >"$TMP/rnd"   # random bytes, never a magic
for in in /etc/passwd /dev/zero "$TMP/rnd"; do
  said "convert -i $(basename "$in"): not a pmc log or perf.data" 1 \
    "$in: not a pmc log or a perf.data file" "$PMC" convert -i "$in" -o "$TMP/o/x"
done
said "convert of a text file on stdin: not a pmc log or perf.data" 1 \
  "<stdin>: not a pmc log or a perf.data file" sh -c 'cat /etc/passwd | "$1" convert -i - -o "$2"' \
  sh "$PMC" "$TMP/o/x"
said "convert -i DIRECTORY: Is a directory" 1 "$TMP/dir: cannot read: Is a directory" \
  "$PMC" convert -i "$TMP/dir" -o "$TMP/o/x"
# an empty input is said to be empty (not "truncated"), in both directions
said "convert of an empty file: 'x' is empty" 1 "'$TMP/empty.log' is empty: nothing to convert" \
  "$PMC" convert -i "$TMP/empty.log" -o "$TMP/o/x"
said "convert --to pmc of an empty file: 'x' is empty" 1 "is empty: nothing to convert" \
  "$PMC" convert --to pmc -i "$TMP/empty.log" -o "$TMP/o/x"
said "convert of an empty stdin: '<stdin>' is empty" 1 "'<stdin>' is empty: nothing to convert" \
  sh -c ': | "$1" convert -i - -o "$2"' sh "$PMC" "$TMP/o/x"
check "... and no output made for any of them" test -z "$(ls -A "$TMP/o")"

# the real errno of a failed write to standard output
said "stat -j -o - >/dev/full: No space left on device" 1 "No space left on device" \
  sh -c '"$1" stat -e task-clock -j -o - -- /bin/true >/dev/full' sh "$PMC"
# the reader is gone before stat writes (SIGPIPE ignored, as a shell may)
said "stat -o - into a closed pipe: Broken pipe" 1 "cannot write the output: Broken pipe" \
  bash -c 'trap "" PIPE; "$1" stat -e task-clock -o - -- "$2" 100 | true; exit ${PIPESTATUS[0]}' \
  bash "$PMC" "$HELPERS/busy"
said "pmc --help >/dev/full: exit 1, says so" 1 "cannot write the output: No space left on device" \
  sh -c '"$1" --help >/dev/full' sh "$PMC"
said "pmc report --help >/dev/full: exit 1" 1 "No space left on device" \
  sh -c '"$1" report --help >/dev/full' sh "$PMC"

# usage errors
said "diff - -: standard input is read once" 2 "standard input can be read once" \
  sh -c 'cat "$2" | "$1" diff - -' sh "$PMC" "$TMP/a.log"
for cmd in "stat -e task-clock -o '' -- true" "report --input=" "report -i $TMP/a.log -o ''" \
           "dump -i ''" "script -i ''" "script -i $TMP/a.log -o ''" "annotate -i '' main" \
           "annotate -i $TMP/a.log -o '' main" "convert -i '' -o x" "convert -i $TMP/a.log -o ''" \
           "diff '' $TMP/a.log" "diff -o '' $TMP/a.log $TMP/a.log" "record -o '' -- true"; do
  said "$cmd: usage error" 2 "needs a file name" eval "\"\$PMC\" $cmd"
done
if command -v script >/dev/null; then
  for cmd in "convert -i $TMP/a.log -o -" "report -i $TMP/a.log -F pprof -o -" \
             "report -i $TMP/a.log -F pprof" "record -e cpu-clock -o - -- true"; do
    script -qec "'$PMC' $cmd" /dev/null >"$TMP/tty.out" 2>&1 </dev/null; rc=$?
    if [ "$rc" = 2 ] && grep -q "refusing to write a binary .* to a terminal" "$TMP/tty.out"; then
      ok "$cmd on a terminal: refused (binary)"
    else fail "$cmd on a terminal" "rc=$rc $(head -c 200 "$TMP/tty.out" | cat -v)"; fi
  done
else
  skip "binary output on a terminal" "script(1) is not installed"
fi
done_testing
