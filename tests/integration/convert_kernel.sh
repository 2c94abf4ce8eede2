#!/usr/bin/env bash
# pmc convert (pmc log -> perf.data) writes the kernel's mapping perf needs
# (perf record's "[kernel.kallsyms]_text" MMAP, and one per module): perf
# report on the converted -g recording names the kernel's functions with
# the shares pmc report gives the log (within 0.1 points), and says
# nothing about kptr_restrict.
. "$(dirname "$0")/lib.sh"
command -v perf >/dev/null || { skip "perf report on pmc convert's output" "perf is not installed"; done_testing; exit; }
if ! awk '$3 == "_text" { exit !($1 !~ /^0+$/) }' /proc/kallsyms 2>/dev/null; then
  skip "perf report on pmc convert's output" "kernel addresses are hidden here (kernel.kptr_restrict)"
  done_testing; exit
fi

if ! "$PMC" record -g -e cpu-clock -o "$TMP/a.log" -- "$HELPERS/touch_pages" 20000 >/dev/null 2>"$TMP/rec.err"; then
  fail "pmc record -g" "$(tail -2 "$TMP/rec.err")"; done_testing; exit
fi
"$PMC" convert -i "$TMP/a.log" -o "$TMP/a.data" >/dev/null 2>"$TMP/conv.err"
check "pmc convert to perf.data" test -s "$TMP/a.data"

perf report -i "$TMP/a.data" --stdio --no-children --sort sym -g none >"$TMP/perf.rep" 2>"$TMP/perf.err"
"$PMC" report -i "$TMP/a.log" --no-children --sort sym >"$TMP/pmc.rep" 2>&1
check "perf report: no kptr_restrict warning" bash -c "! grep -q -i 'kptr_restrict\|were restricted' '$TMP/perf.err' '$TMP/perf.rep'"
# "[k] name" -> percentage, from both reports; the kernel's share in total
if python3 - "$TMP/perf.rep" "$TMP/pmc.rep" >"$TMP/cmp.txt" <<'PY'
import re, sys
def kernel(path, pmc):
    out = {}
    for line in open(path):
        if line.startswith("#"):
            continue
        m = re.match(r"\s*([\d.]+)%\s+(?:\d+\s+)?\[k\]\s+(\S+)", line)
        if m:
            out[m.group(2)] = out.get(m.group(2), 0) + float(m.group(1))
    return out
perf, pmc = kernel(sys.argv[1], 0), kernel(sys.argv[2], 1)
tp, tq = sum(perf.values()), sum(pmc.values())
print("kernel total: perf %.2f %%, pmc %.2f %%, %d functions" % (tp, tq, len(pmc)))
bad = [(n, v, perf.get(n, 0)) for n, v in pmc.items() if abs(v - perf.get(n, 0)) > 0.1]
bad += [(n, 0, v) for n, v in perf.items() if n not in pmc and v > 0.1]
for b in bad[:5]:
    print("differs: %s pmc %.2f perf %.2f" % b)
sys.exit(1 if bad or tq < 5 or abs(tp - tq) > 0.1 else 0)
PY
then ok "kernel symbols: perf on the converted file = pmc on the log ($(head -1 "$TMP/cmp.txt"))"
else fail "kernel symbols: perf on the converted file = pmc on the log" "$(tr '\n' ' ' <"$TMP/cmp.txt")"; fi
done_testing
