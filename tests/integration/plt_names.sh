#!/usr/bin/env bash
# Names of samples in a binary's PLT, against perf 6.1 on the same
# perf.data.  Samples land exactly where a test puts them: uprobes (written
# to tracefs's uprobe_events by file offset; perf probe's raw addresses are
# taken as offsets, wrong for lld's layout) on the PLT header (PLT0, run by
# every first call of a lazily bound function) and on the first PLT slot
# of a small program linked with -z lazy.
#  - PLT0: pmc names it as perf does.  perf stretches a sizeless function
#    symbol to the next one's start across sections (symbols__fixup_end),
#    so after GNU ld's .init it reads "_init+0x26"; libdwfl's rule (a
#    sizeless symbol only in its own section) named it [unknown] before.
#    After lld's last function (_fini, with .plt after it) both say
#    [unknown].
#  - A PLT slot: pmc says "puts@plt+0x0".  perf 6.1 is not the oracle
#    there, nor on .plt.got after the slots: its synthesized name@plt
#    symbols overlap the stretched _init, and its tree search finds one or
#    the other by the tree's shape (in this small program _init+0x30 and
#    _init+0x50; in libpython's .plt.got [unknown], as pmc says there).
#    With lld it names the slots [unknown] and PLT0 with a wrapped offset.
source "$(dirname "$0")/lib.sh"
T=/sys/kernel/tracing
GRP=pmcplt$$

if ! command -v perf >/dev/null 2>&1; then
  skip "PLT names against perf" "perf is not installed"; done_testing; exit
fi
if [ "$(id -u)" != 0 ] || [ ! -w "$T/uprobe_events" ]; then
  skip "PLT names against perf" "needs root and tracefs's uprobe_events ($T) for uprobes"
  done_testing; exit
fi
unprobe() {
  local e
  for e in $(grep -o "^p:$GRP/[a-z0-9_]*" "$T/uprobe_events" 2>/dev/null | cut -d: -f2); do
    echo "-:$e" >>"$T/uprobe_events" 2>/dev/null
  done
}
trap 'unprobe; rm -rf "$TMP"' EXIT
unset LD_BIND_NOW

cat >"$TMP/p.c" <<'EOF'
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
	char b[64];
	for (int i = 0; i < 3; i++) {
		snprintf(b, sizeof(b), "%d", i);
		puts(b);
	}
	return strlen(argv[0]) == 0;
}
EOF

# offset BIN VADDR: the file offset of VADDR (its PT_LOAD segment's)
offset() {
  local t o v f r a=$(($2))
  while read -r t o v _ f r; do
    [ "$t" = LOAD ] || continue
    if [ "$a" -ge $((v)) ] && [ "$a" -lt $((v + f)) ]; then printf '0x%x\n' $((a - v + o)); return; fi
  done < <(readelf -lW "$1")
}
# secaddr BIN NAME: a section's address (empty when it has none)
secaddr() { readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\]//' | awk -v n="$2" '$1 == n { print "0x" $3; exit }'; }

# probe V BIN NAME VADDR: a uprobe GRP/V_NAME at VADDR of BIN
probe() {
  local off
  off=$(offset "$2" "$4")
  [ -n "$off" ] && echo "p:$GRP/$1_$3 $2:$off" >>"$T/uprobe_events"
}

for v in bfd bfd_nopie lld; do
  case $v in
    bfd) cc=(gcc -fuse-ld=bfd) ;;
    bfd_nopie) cc=(gcc -fuse-ld=bfd -no-pie) ;;
    lld) cc=(gcc -fuse-ld=lld) ;;
  esac
  bin=$TMP/$v
  if ! "${cc[@]}" -O2 -Wl,-z,lazy -o "$bin" "$TMP/p.c" 2>"$TMP/$v.cc"; then
    skip "$v: PLT names" "cannot link with ${cc[*]}: $(head -1 "$TMP/$v.cc")"; continue
  fi
  plt=$(secaddr "$bin" .plt); pltsec=$(secaddr "$bin" .plt.sec)
  if [ -z "$plt" ]; then skip "$v: PLT names" "no .plt section"; continue; fi
  # the first slot: after the 16-byte header, or .plt.sec's first entry
  slot=${pltsec:-$((plt + 16))}
  first=$(readelf -rW "$bin" | awk '/^Relocation section .\.rela\.plt/ { r = 1; next }
    r && /_JUMP_SLOT/ { n = $5; sub(/@.*/, "", n); print n; exit }')
  if ! { probe "$v" "$bin" h0 "$plt" && probe "$v" "$bin" h6 $((plt + 6)) &&
         probe "$v" "$bin" slot "$slot"; } 2>"$TMP/$v.probe"; then
    skip "$v: PLT names" "uprobe refused: $(head -1 "$TMP/$v.probe")"; unprobe; continue
  fi
  if ! perf_record "$v" -e "$GRP:${v}_*" -- "$bin"; then
    skip "$v: PLT names" "perf record failed: $(head -1 "$TMP/$v.err")"; unprobe; continue
  fi
  unprobe
  perf script -F event,ip,sym,symoff -i "$TMP/$v.data" 2>/dev/null >"$TMP/$v.perf"
  "$PMC" script -F event,ip,sym,symoff -i "$TMP/$v.data" >"$TMP/$v.pmc" 2>"$TMP/$v.pmcerr"
  for k in h0 h6; do
    # perf 6.1 names lld's PLT0 with its first slot's symbol and a wrapped
    # offset ("__cxa_finalize@plt+0xffffaa9176cb1000"): not an oracle
    [ $v = lld ] && [ $k = h0 ] && continue
    n=$(grep -c ":${v}_$k:" "$TMP/$v.perf")
    if [ "$n" -gt 0 ] && cmp -s <(grep ":${v}_$k:" "$TMP/$v.perf") <(grep ":${v}_$k:" "$TMP/$v.pmc"); then
      ok "$v: the $k sample named as perf names it, $n times ($(grep -m1 ":${v}_$k:" "$TMP/$v.pmc" | awk '{ print $NF }'))"
    else
      fail "$v: the $k sample named as perf names it" "perf: $(grep -m1 ":${v}_$k:" "$TMP/$v.perf" | awk '{ print $NF }') pmc: $(grep -m1 ":${v}_$k:" "$TMP/$v.pmc" | awk '{ print $NF }') ($n samples; $(head -c 200 "$TMP/$v.pmcerr"))"
    fi
  done
  got=$(grep -m1 ":${v}_slot:" "$TMP/$v.pmc" | awk '{ print $NF }')
  if [ -n "$first" ] && [ "$got" = "$first@plt+0x0" ]; then
    ok "$v: the first PLT slot named $got"
  else fail "$v: the first PLT slot named $first@plt+0x0" "pmc: ${got:-no sample}"; fi
done
done_testing
