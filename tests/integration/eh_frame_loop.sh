#!/usr/bin/env bash
# A hostile .eh_frame: the hot function's CFA rule is a DWARF expression
# that loops (DW_OP_skip -3 jumps to itself).  The unwinder gives up on it
# (libdw stops after its step limit and ends the walk as if the frame were
# the outermost), so every stack through it is cut after one frame: the
# report's header must count those samples as truncated stacks, not say 0.
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || { skip "hostile .eh_frame" "the test's assembly is x86_64"; done_testing; exit; }

cat >"$TMP/ehloop.c" <<'C'
volatile unsigned long sink;
void leaf(unsigned long n);
__asm__(".text\n.globl leaf\n.type leaf,@function\nleaf:\n.cfi_startproc\n"
        /* DW_CFA_def_cfa_expression, 3 bytes: DW_OP_skip -3 (itself) */
        ".cfi_escape 0x0f, 0x03, 0x2f, 0xfd, 0xff\n"
        "1: addq $7, sink(%rip)\n decq %rdi\n jnz 1b\n ret\n.cfi_endproc\n.size leaf, .-leaf\n");
__attribute__((noinline)) void mid(unsigned long n) { leaf(n); __asm__ volatile(""); }
int main(void) { for (int i = 0; i < 20; i++) mid(50000000); return 0; }
C
if ! cc -O1 -g -o "$TMP/ehloop" "$TMP/ehloop.c"; then
  fail "build the hostile .eh_frame program"; done_testing; exit
fi
if ! "$PMC" record --call-graph dwarf -e cpu-clock -o "$TMP/eh.log" -- "$TMP/ehloop" >/dev/null 2>"$TMP/rec.err"; then
  fail "record --call-graph dwarf" "$(tail -2 "$TMP/rec.err")"; done_testing; exit
fi
"$PMC" report -i "$TMP/eh.log" --sort sym >"$TMP/eh.rep" 2>&1; rc=$?
check "report of the recording (exit $rc)" test "$rc" = 0
# leaf's samples: every one of them has a cut stack
leaf=$(awk '!/^#/ && $NF == "leaf" { print $2; exit }' "$TMP/eh.rep")
# (the header of a report that unwinds: a flat one does not)
"$PMC" report -g caller -i "$TMP/eh.log" --sort sym >"$TMP/eh.grep" 2>&1
trunc=$(sed -n 's/^# \([0-9,]*\) samples with truncated stacks.*/\1/p' "$TMP/eh.grep" | tr -d ,)
check "header: ${trunc:-no} truncated stacks, at least leaf's ${leaf:-0} samples" \
  awk -v t="${trunc:-0}" -v l="${leaf:-0}" 'BEGIN { exit !(l >= 100 && t >= l) }'
done_testing
