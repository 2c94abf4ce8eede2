#!/usr/bin/env bash
# Flame graphs of programs without frame pointers (issue 9 item 5): `pmc
# record -g -- gcc -O2 -c` (Debian's cc1 has no frame pointers) gave every
# stack a 128-deep tower of [unknown] frames and SVG/HTML reports that opened
# on an empty screen.  Runs of unresolved frames collapse into one
# [unknown]; the SVG and the HTML open on the samples (checked on headless
# Chromium screenshots: flame-coloured pixels in the first screen); no
# doubled brackets ([[unknown]]) in text output.
. "$(dirname "$0")/lib.sh"

if ! command -v gcc >/dev/null 2>&1; then
  skip "flame graphs of gcc" "gcc is not installed"; done_testing; exit
fi
python3 -c "
print('\n'.join('int f%d(int x){int s=0;for(int i=0;i<x;i++)s+=i*%d^(s>>3);return s;}'%(i,i) for i in range(1500)))" >"$TMP/big.c"
if ! "$PMC" record -q -g -e cpu-clock -F 4000 -o "$TMP/cc.log" -- gcc -O2 -c "$TMP/big.c" -o "$TMP/big.o" \
     >/dev/null 2>"$TMP/rec.err"; then
  skip "flame graphs of gcc" "pmc record cannot sample here: $(tail -1 "$TMP/rec.err")"; done_testing; exit
fi
"$PMC" report -i "$TMP/cc.log" -F folded -o "$TMP/cc.folded"
check "folded export exits 0" test $? -eq 0
depth=$(awk '{ n = split($1, a, ";"); if (n > m) m = n } END { print m + 0 }' "$TMP/cc.folded")
check "no towers: deepest folded stack ${depth} frames (<= 64)" test "$depth" -le 64
runs=$(grep -cE '(\[unknown\]|0x[0-9a-f]+);(\[unknown\]|0x[0-9a-f]+)(;| )' "$TMP/cc.folded")
check "no two unresolved frames in a row (${runs} stacks have them)" test "$runs" -eq 0
"$PMC" report -i "$TMP/cc.log" --call-graph=caller,0 --graph-layout tree --color never >"$TMP/cg.txt" 2>&1
check "call graph text: no doubled brackets" bash -c "! grep -q '\[\[' '$TMP/cg.txt'"
check "call graph text: kernel frames named [kernel.kallsyms]" grep -q '  \[kernel.kallsyms\]$' "$TMP/cg.txt"
"$PMC" report -i "$TMP/cc.log" --call-graph=caller --graph-layout tree --color never >"$TMP/cg2.txt" 2>&1
top=$(awk '/^# Call graph/ { on = 1; next } on && /%/ { sub("%", "", $1); print $1; exit }' "$TMP/cg2.txt")
check "call graph text: the heaviest root is shown (${top:-none}%, >= 20)" awk -v v="${top:-0}" 'BEGIN{exit !(v >= 20)}' 
"$PMC" report -i "$TMP/cc.log" -s dso,sym --color never >"$TMP/flat.txt" 2>&1
check "flat text: no doubled brackets" bash -c "! grep -q '\[\[' '$TMP/flat.txt'"
"$PMC" report -i "$TMP/cc.log" -F svg -o "$TMP/cc.svg"
check "svg: no doubled brackets in titles" bash -c "! grep -q '\[\[' '$TMP/cc.svg'"

CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$CHROME" ]; then
  skip "flame graphs on screen" "chromium is not installed (apt-get install chromium)"
  done_testing; exit
fi
"$PMC" report -i "$TMP/cc.log" -F html -o "$TMP/cc.html"
# flame: the share of flame-coloured pixels (red/orange/yellow) in a PNG
flame() { python3 - "$1" <<'PY'
import sys, zlib, struct
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n"
o, idat, w = 8, b"", 0
while o < len(b):
    n, t = struct.unpack(">I4s", b[o:o+8]); d = b[o+8:o+8+n]; o += 12 + n
    if t == b"IHDR": w, h, bd, ct = struct.unpack(">IIBB", d[:10])
    elif t == b"IDAT": idat += d
raw = zlib.decompress(idat); bpp = 4 if ct == 6 else 3; stride = w * bpp
prev = bytearray(stride); hits = 0; o = 0
for y in range(h):
    f = raw[o]; line = bytearray(raw[o+1:o+1+stride]); o += 1 + stride
    for i in range(stride):
        a = line[i-bpp] if i >= bpp else 0; up = prev[i]; c = prev[i-bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + up) & 255
        elif f == 3: line[i] = (line[i] + (a + up) // 2) & 255
        elif f == 4:
            p = a + up - c; pa, pb, pc = abs(p-a), abs(p-up), abs(p-c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else up if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        r, g, bl = line[x], line[x+1], line[x+2]
        if r >= 190 and bl <= 110 and g <= 215 and r - bl >= 120: hits += 1
    prev = line
print("%.2f" % (100.0 * hits / (w * h)))
PY
}
for k in svg html; do
  "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d -p "$TMP")" --window-size=1280,900 \
    --screenshot="$TMP/$k.png" "file://$TMP/cc.$k" >/dev/null 2>&1
  if [ ! -s "$TMP/$k.png" ]; then fail "$k: screenshot" "chromium wrote none"; continue; fi
  pct=$(flame "$TMP/$k.png")
  check "$k opens on the samples: ${pct}% of the first screen is flame (>= 1%)" \
    awk -v v="$pct" 'BEGIN{exit !(v >= 1)}'
done
done_testing
