#!/usr/bin/env bash
# DWARF call chains (issue 9 items 1 and 2): pmc record --call-graph dwarf
# and perf.data recorded with perf record --call-graph dwarf, unwound by
# analysis/symbols/unwind.c.  Known answers: a workload built -O2
# -fomit-frame-pointer (tests/helpers/dwarf: main, a shared library, a
# thread) with designed shares; perf as the oracle (perf script folded as
# stackcollapse-perf does); real programs without frame pointers (python3,
# gcc, xz).  Before the unwinder, a dwarf perf.data was reported flat.
source "$(dirname "$0")/lib.sh"
D=$PMC_ROOT/tests/helpers/dwarf
CC=${CC:-cc}
FOLD=$PMC_ROOT/tests/integration/stackcollapse.awk

# --- the option -------------------------------------------------------------
"$PMC" record --call-graph lbr -o "$TMP/x.log" -- true >/dev/null 2>"$TMP/lbr.err"; rc=$?
if [ $rc -eq 1 ] && grep -q "not supported on this machine" "$TMP/lbr.err"; then
  ok "--call-graph lbr: 'not supported on this machine', exit 1"
else fail "--call-graph lbr" "exit $rc: $(cat "$TMP/lbr.err")"; fi
"$PMC" record --call-graph dwarf,65536 -o "$TMP/x.log" -- true >/dev/null 2>"$TMP/sz.err"; rc=$?
check "--call-graph dwarf,65536 (rounds above 65528): usage error" [ $rc -eq 2 ]
"$PMC" record --call-graph frame -o "$TMP/x.log" -- true >/dev/null 2>&1; rc=$?
check "--call-graph frame: usage error" [ $rc -eq 2 ]

# --- the workload -------------------------------------------------------------
W=$TMP/w
if ! build_dwarf_work "$W"; then
  skip "DWARF workload" "cannot build it with ${CC:-cc}: $(head -1 "$TMP/cc.err")"; done_testing; exit
fi

# Names, not unwinding: glibc exports one function under several names
# (clone3 / __clone3, __libc_start_main_impl / __libc_start_main@@GLIBC_2.34)
# and which alias a tool prints is symbol selection; perf prints an unknown
# symbol as [unknown], pmc as its address; stackcollapse-perf drops C++
# parameter lists.  Frames are compared without leading underscores, version
# or _impl suffixes and parameter lists, addresses as [unknown].
canon() {
  awk '{ c = $NF; $NF = ""; sub(/ $/, ""); n = split($0, f, ";"); s = ""
         for (i = 1; i <= n; i++) { x = f[i]; sub(/@.*/, "", x); sub(/^_+/, "", x); sub(/_impl$/, "", x)
           if (x !~ /^\(anonymous/) sub(/\(.*$/, "", x); if (x ~ /^0x[0-9a-f]+$/) x = "[unknown]"
           s = s (i > 1 ? ";" : "") x }
         cnt[s] += c }
       END { for (s in cnt) print s, cnt[s] }' | sort
}
# share PATTERN FILE: percent of the samples whose stack matches PATTERN
share() { awk -v re="$1" '{ t += $NF; if ($0 ~ re) m += $NF } END { printf "%.2f", t ? 100 * m / t : 0 }' "$2"; }
# within A B: |A - B| <= 2 points
within() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 2) }'; }

A=';main;path_a;leaf_a;dw_spin [0-9]+$'
B=';main;path_b;lib_entry;lib_leaf;dw_spin [0-9]+$'
T=';start_thread;thread_main;thread_work;thread_leaf;dw_spin [0-9]+$'
# the designed shares among the samples of the three paths
# shares_ok FOLDED: the three shares within 2 points of 50/30/20 ($sa $sb $st)
shares_ok() {
  awk -v a="$A" -v b="$B" -v t="$T" '$0 ~ a { na += $NF } $0 ~ b { nb += $NF } $0 ~ t { nt += $NF }
    END { s = na + nb + nt; if (!s) s = 1; printf "%.2f %.2f %.2f\n", 100*na/s, 100*nb/s, 100*nt/s }' "$1" >"$TMP/sh"
  read -r sa sb st <"$TMP/sh"
  within "$sa" 50 && within "$sb" 30 && within "$st" 20
}
check_shares() {  # NAME FOLDED
  if shares_ok "$2"; then
    ok "$1: designed shares 50/30/20 within 2 points ($sa/$sb/$st)"
  else fail "$1: designed shares 50/30/20 within 2 points" "$sa/$sb/$st"; fi
}
# of the samples in the workload's leaves, the share with whole paths
check_paths() {  # NAME FOLDED
  local leaves whole
  leaves=$(awk '/;dw_spin [0-9]+$/ { t += $NF } END { print t + 0 }' "$2")
  whole=$(awk '/^dwarf_work;start;libc_start_main;libc_start_call_main;main;path_(a;leaf_a|b;lib_entry;lib_leaf);dw_spin [0-9]+$/ ||
               /^dwarf_work;clone3;start_thread;thread_main;thread_work;thread_leaf;dw_spin [0-9]+$/ { t += $NF }
               END { print t + 0 }' "$2")
  if [ "$leaves" -gt 100 ] && [ $((whole * 100)) -ge $((leaves * 99)) ]; then
    ok "$1: $whole of $leaves leaf samples have the whole path to _start or the thread start"
  else fail "$1: whole paths" "$whole of $leaves leaf samples"; fi
}

# --- pmc record --call-graph dwarf ------------------------------------------------
rec_pmc() {
  "$PMC" record -q --call-graph dwarf -o "$TMP/w.log" -- "$W/dwarf_work" 8 >/dev/null 2>"$TMP/rec.err" ||
    return 1
  "$PMC" report -i "$TMP/w.log" -F folded 2>/dev/null | canon >"$TMP/pmc_log.folded"
}
# The shares are of cpu-clock samples: on a loaded machine the two threads'
# iterations do not cost the same time (CI once saw 53.32/25.49/21.19), so
# shares off their design get one more recording; a wrong unwind would be
# wrong twice.
if rec_pmc; then
  if ! shares_ok "$TMP/pmc_log.folded"; then
    echo "# shares $sa/$sb/$st off 50/30/20: recording once more" >&2
    rec_pmc || true
  fi
  check_paths "pmc record --call-graph dwarf" "$TMP/pmc_log.folded"
  check_shares "pmc record --call-graph dwarf" "$TMP/pmc_log.folded"
  # (a report that shows stacks: a flat one unwinds nothing, flat_dwarf.sh)
  "$PMC" report -g caller -i "$TMP/w.log" >"$TMP/w.txt" 2>&1
  check "-g report header: 'N samples with truncated stacks'" grep -Eq '^# [0-9,]+ samples with truncated stacks' "$TMP/w.txt"
  "$PMC" dump -i "$TMP/w.log" 2>/dev/null | awk '$3 == "CALLCHAIN"' | head -1 >"$TMP/cc.txt"
  per=$(awk '/CALLCHAIN/ { n++ } END { print n + 0 }' <("$PMC" dump -i "$TMP/w.log" 2>/dev/null))
  bytes=$(stat -c %s "$TMP/w.log")
  if [ "$per" -gt 0 ] && [ $((bytes / per)) -lt 2048 ]; then ok "log: $((bytes / per)) bytes per DWARF sample"
  else fail "log bytes per DWARF sample" "$bytes bytes, $per samples"; fi
else
  fail "pmc record --call-graph dwarf" "$(head -2 "$TMP/rec.err")"
fi

# --- perf as the oracle -------------------------------------------------------------
# same_stacks A B: how many samples of folded file A have a stack that B has
same_stacks() {
  join -j1 <(awk '{ c = $NF; $NF = ""; sub(/ $/, ""); print $0 "\t" c }' "$1" | sort -t$'\t' -k1,1) \
    <(awk '{ c = $NF; $NF = ""; sub(/ $/, ""); print $0 "\t" c }' "$2" | sort -t$'\t' -k1,1) -t$'\t' |
    awk -F'\t' '{ m += ($2 < $3 ? $2 : $3) } END { print m + 0 }'
}
# pmc log -> perf.data: perf unwinds the converted file's user stacks itself
# (REGS_USER/STACK_USER, and the binaries' read-only segments where
# .eh_frame_hdr lives) to the stacks pmc shows for the log.  The samples
# taken in the workload's binaries: perf does not name the converted file's
# kernel addresses (the log has no kernel map for perf to relocate
# kallsyms by), which is not what this compares.
USERDSOS=dwarf_work,libdw_work.so,libc.so.6,ld-linux-x86-64.so.2
if ! command -v perf >/dev/null 2>&1; then
  skip "pmc convert log -> perf.data, perf unwinds" "perf is not installed"
elif [ -s "$TMP/pmc_log.folded" ] && "$PMC" convert -i "$TMP/w.log" -o "$TMP/wl.data" >/dev/null 2>&1; then
  perf script --dsos "$USERDSOS" -i "$TMP/wl.data" 2>/dev/null | awk -f "$FOLD" | canon >"$TMP/conv_perf.folded"
  "$PMC" report --dso "$USERDSOS" -i "$TMP/w.log" -F folded 2>/dev/null | canon >"$TMP/pmc_user.folded"
  same=$(same_stacks "$TMP/pmc_user.folded" "$TMP/conv_perf.folded")
  total=$(awk '{ t += $NF } END { print t + 0 }' "$TMP/pmc_user.folded")
  if [ "$total" -gt 100 ] && [ $((same * 100)) -ge $((total * 99)) ]; then
    ok "pmc convert log -> perf.data: perf script unwinds $same of $total stacks as pmc does"
  else fail "pmc convert log -> perf.data: perf's stacks equal pmc's for 99 %" "$same of $total"; fi
  check_paths "pmc convert log -> perf.data, perf script" "$TMP/conv_perf.folded"
else
  fail "pmc convert log -> perf.data" "no pmc log or the conversion failed"
fi
if ! command -v perf >/dev/null 2>&1; then
  skip "perf --call-graph dwarf oracle" "perf is not installed"
elif ! perf record -q --call-graph dwarf -o "$TMP/w.data" -- "$W/dwarf_work" 8 >/dev/null 2>"$TMP/perf.err"; then
  skip "perf --call-graph dwarf oracle" "perf record failed: $(head -1 "$TMP/perf.err")"
else
  "$PMC" report -i "$TMP/w.data" -F folded 2>/dev/null | canon >"$TMP/pmc.folded"
  if ! shares_ok "$TMP/pmc.folded"; then          # as for pmc record above
    echo "# shares $sa/$sb/$st off 50/30/20: recording once more" >&2
    perf record -q --call-graph dwarf -o "$TMP/w.data" -- "$W/dwarf_work" 8 >/dev/null 2>"$TMP/perf.err" &&
      "$PMC" report -i "$TMP/w.data" -F folded 2>/dev/null | canon >"$TMP/pmc.folded"
  fi
  perf script -i "$TMP/w.data" 2>/dev/null | awk -f "$FOLD" | canon >"$TMP/perf.folded"
  same=$(same_stacks "$TMP/pmc.folded" "$TMP/perf.folded")
  total=$(awk '{ t += $NF } END { print t + 0 }' "$TMP/perf.folded")
  if [ "$total" -gt 100 ] && [ $((same * 100)) -ge $((total * 99)) ]; then
    ok "perf.data --call-graph dwarf: $same of $total stacks equal perf script's"
  else fail "perf.data --call-graph dwarf: stacks equal perf's for 99 %" "$same of $total"; fi
  check_paths "perf.data --call-graph dwarf" "$TMP/pmc.folded"
  "$PMC" convert -z -i "$TMP/w.data" -o "$TMP/wc.log" >/dev/null 2>&1
  "$PMC" report -i "$TMP/wc.log" -F folded 2>/dev/null | canon >"$TMP/conv.folded"
  check "pmc convert perf.data -> pmc log keeps the registers and stacks" \
    cmp -s "$TMP/pmc.folded" "$TMP/conv.folded"
  check_shares "perf.data --call-graph dwarf" "$TMP/pmc.folded"
  perfrate=$(( $(stat -c %s "$TMP/w.data") / (total > 0 ? total : 1) ))
  echo "# perf.data: $perfrate bytes per sample"
fi

# --- real programs without frame pointers ----------------------------------------------
# real NAME COMM CMD...: pmc record --call-graph dwarf reaches the program's
# start (__libc_start_main, or the thread start) for >= 95 % of its
# samples.  Both tools copy 32 KB of stack here: with perf's default 8 KB,
# gcc's deepest passes (the range folder's recursion) and python's imports
# do not fit (93 % of gcc -O2 -c reaches main) — those samples are counted
# in the report's "truncated stacks" line.  perf's dwarf unwinding of the same program
# and pmc's of perf's file agree on each function's share within 2 points.
# The dynamic loader's own startup (_start;_dl_start ...) runs before
# __libc_start_main: a stack that ends at the entry point _start (the first
# frame after the command's name) reached the start too.  Without it, the
# loader's samples (3 to 5 % of a short python3 run, more on a busy machine
# where the run is shorter relative to its start) ate the whole margin.
START='(^|;)(libc_start_main|libc_start_call_main|start_thread|clone3?)(;| [0-9]+$)|^[^;]*;start(;| [0-9]+$)'
real() {
  local name=$1 comm=$2; shift 2
  if ! "$PMC" record -q --call-graph dwarf,32768 -f -o "$TMP/r.log" -- "$@" >/dev/null 2>"$TMP/r.err"; then
    fail "$name: pmc record --call-graph dwarf" "$(head -1 "$TMP/r.err")"; return
  fi
  "$PMC" report -i "$TMP/r.log" -F folded --comm "$comm" 2>/dev/null | canon >"$TMP/r.folded"
  local reach
  reach=$(share "$START" "$TMP/r.folded")
  if awk -v r="$reach" 'BEGIN { exit !(r >= 95) }'; then ok "$name: $reach % of samples unwound to the program's start"
  else fail "$name: >= 95 % of samples unwound to the program's start" "$reach %"; fi
  if ! command -v perf >/dev/null 2>&1 ||
     ! perf record -q --call-graph dwarf,32768 -o "$TMP/r.data" -- "$@" >/dev/null 2>&1; then
    skip "$name: shares agree with perf" "perf record --call-graph dwarf is not available"; return
  fi
  # without inlined frames: how each tool expands a caller's inlines is
  # symbolization (analysis/symbols/symbols.c), not unwinding
  "$PMC" report --no-inline -i "$TMP/r.data" -F folded --comm "$comm" 2>/dev/null | canon >"$TMP/rp.folded"
  perf_oracle perf script --no-inline -i "$TMP/r.data" --comms "$comm" | awk -f "$FOLD" | canon >"$TMP/pp.folded"
  # the share of each function where the samples fell (self), for every
  # function perf gives >= 2 %; and pmc unwinds at least as many of perf's
  # samples to the program's start as perf itself (perf stops early more often)
  self() { awk '{ c = $NF; $NF = ""; sub(/ $/, ""); n = split($0, f, ";"); s[f[n]] += c; t += c }
                END { for (k in s) printf "%s\t%.2f\n", k, 100 * s[k] / t }' "$1" | sort; }
  self "$TMP/pp.folded" >"$TMP/pp.self"
  self "$TMP/rp.folded" >"$TMP/rp.self"
  local bad pr rr
  bad=$(join -t$'\t' -a1 -e 0 -o 0,1.2,2.2 "$TMP/pp.self" "$TMP/rp.self" |
    awk -F'\t' '$2 >= 2 { d = $2 - $3; if (d < 0) d = -d; if (d > 2) printf "%s %s/%s ", $1, $3, $2 }')
  if [ -z "$bad" ]; then ok "$name: every function's share within 2 points of perf's"
  else fail "$name: function shares (pmc/perf)" "$bad"; fi
  pr=$(share "$START" "$TMP/pp.folded")
  rr=$(share "$START" "$TMP/rp.folded")
  if awk -v a="$rr" -v b="$pr" 'BEGIN { exit !(a >= b - 1) }'; then
    ok "$name: perf.data unwound to the start: pmc $rr %, perf $pr %"
  else fail "$name: perf.data unwound to the start as often as perf" "pmc $rr %, perf $pr %"; fi
}
if command -v python3 >/dev/null 2>&1; then
  real "python3 compute loop" python3 python3 -c 'def f(n):
    s = 0
    for i in range(n): s += i * i % 7
    return s
print(f(1500000))'
else skip "python3 compute loop" "python3 is not installed"; fi
if command -v gcc >/dev/null 2>&1; then
  awk 'BEGIN { for (i = 0; i < 300; i++) printf "int f%d(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i] * %d + (a[i] >> 3); return s; }\n", i, i }' >"$TMP/big.c"
  real "gcc -O2 -c" cc1 gcc -O2 -c "$TMP/big.c" -o "$TMP/big.o"
else skip "gcc -O2 -c" "gcc is not installed"; fi
if command -v xz >/dev/null 2>&1; then
  awk 'BEGIN { srand(7); for (i = 0; i < 60000; i++) printf "%d %s %x\n", i, (rand() < 0.5 ? "alpha" : "omega"), int(rand() * 1e9) }' >"$TMP/xz.in"
  real "xz -9" xz xz -9 -k -f -T1 "$TMP/xz.in"
else skip "xz -9" "xz is not installed"; fi
# --- many processes: each binary's debug file read once ---------------------
# Every process of a recording has its own address space to unwind in.
# ld.so's _dl_start_user has no .eh_frame entry, so each one asked libdw
# for ld.so's .debug_frame, which opened its debug file (libc6-dbg) and
# inflated its whole DWARF again: 200 processes, 203 opens, 230 MB.  Found
# once without .debug_frame, a binary's debug file is not opened again for
# unwinding, in each of the two workers (symbolization opens it once more).
LDSO=$(readlink -f /lib64/ld-linux-x86-64.so.2 2>/dev/null)
LDBID=$([ -n "$LDSO" ] && readelf -n "$LDSO" 2>/dev/null | awk '/Build ID/ { print $3 }')
LDDBG=${LDBID:+/usr/lib/debug/.build-id/${LDBID:0:2}/${LDBID:2}.debug}
if ! command -v strace >/dev/null 2>&1; then
  skip "many processes: ld.so's debug file read once" "strace is not installed"
elif [ -z "$LDDBG" ] || [ ! -f "$LDDBG" ]; then
  skip "many processes: ld.so's debug file read once" "no debug file for ld.so (libc6-dbg)"
elif ! "$PMC" record --call-graph dwarf -F 20000 -o "$TMP/many.log" -- \
    sh -c 'for i in $(seq 60); do ls / >/dev/null; done' >/dev/null 2>"$TMP/many.err"; then
  fail "many processes: pmc record" "$(tail -1 "$TMP/many.err")"
else
  procs=$("$PMC" report -i "$TMP/many.log" -s pid --stdio 2>/dev/null | grep -cE '^ +[0-9.]+% +[0-9]+ +[0-9]+$')
  strace -f -e trace=openat,open -o "$TMP/many.st" \
    "$PMC" report -g caller -j 2 -i "$TMP/many.log" --stdio >/dev/null 2>&1
  opens=$(grep -c "\"$LDDBG\"" "$TMP/many.st")
  if [ "$procs" -ge 20 ] && [ "$opens" -le 4 ]; then
    ok "many processes: ld.so's debug file opened $opens times for $procs processes with samples"
  else fail "many processes: ld.so's debug file read once" "$opens opens for $procs processes"; fi
  # every binary opened once per unwinder (one a worker), not once per
  # process: libc.so.6, mapped by every process, by its recorded path
  LIBC=$("$PMC" script -i "$TMP/many.log" --show-mmap-events 2>/dev/null |
         sed -n 's|.* \(/[^ ]*/libc\.so\.6\)$|\1|p' | head -1)
  copens=$(grep -c "\"$LIBC\"" "$TMP/many.st")
  if [ -n "$LIBC" ] && [ "$procs" -ge 20 ] && [ "$copens" -le 6 ]; then
    ok "many processes: $LIBC opened $copens times for $procs processes with samples"
  else fail "many processes: each binary opened once per unwinder" \
    "${LIBC:-libc.so.6 (no mapping of it recorded)}: $copens opens for $procs processes"; fi
  # A stack that ends in ld.so's _dl_start_user (the libraries' constructors,
  # run before the program's entry) is whole: _start falls into it, nothing
  # calls it, and it has no CFI.  It was counted as truncated ("no CFI").
  "$PMC" report -g caller -i "$TMP/many.log" --stdio >"$TMP/many.rep" 2>&1
  dsu=$("$PMC" report -i "$TMP/many.log" --no-inline -F folded 2>/dev/null |
        awk '$1 ~ /^[^;]*;_dl_start_user;/ { n += $NF } END { print n + 0 }')
  nocfi=$(grep -E "^# +truncated in [^ ]*ld-linux[^ ]*: [0-9,]+ \(no CFI" "$TMP/many.rep" || true)
  if [ "$dsu" -gt 0 ] && [ -z "$nocfi" ]; then
    ok "many processes: $dsu samples under _dl_start_user, whole stacks"
  else fail "many processes: stacks ending in _dl_start_user are whole" \
    "${nocfi:-no sample under _dl_start_user}"; fi
fi
done_testing
