#!/usr/bin/env python3
# inline_depth.py PERF_SCRIPT PMC_SCRIPT: compare, sample by sample, the
# inlined frames two `perf script`-format outputs of the same perf.data
# show.  A sample's inline chain is, for each address that has inlined
# frames, the address and how many frames share it above the function's own
# (names are left out: demangling is not what this compares).  Prints
# "EQUAL TOTAL", then up to 3 differing samples with both chains.
import sys

def samples(path):
    out = []
    with open(path, errors='replace') as f:
        for blk in f.read().split('\n\n'):
            lines = [l for l in blk.split('\n') if l.strip()]
            if lines:
                out.append([l.split()[0] for l in lines[1:]])
    return out

def chain(addrs):
    r, i = [], 0
    while i < len(addrs):
        j = i
        while j + 1 < len(addrs) and addrs[j + 1] == addrs[i]:
            j += 1
        if j > i:
            r.append((addrs[i], j - i))
        i = j + 1
    return r

a, b = samples(sys.argv[1]), samples(sys.argv[2])
if len(a) != len(b):
    print(0, max(len(a), len(b)))
    print("sample counts differ: perf %d, pmc %d" % (len(a), len(b)))
    sys.exit(0)
eq, shown, diffs = 0, 0, []
for x, y in zip(a, b):
    cx, cy = chain(x), chain(y)
    if cx == cy:
        eq += 1
    elif shown < 3:
        shown += 1
        diffs.append("perf %s | pmc %s" % (cx, cy))
print(eq, len(a))
for d in diffs:
    print(d)
