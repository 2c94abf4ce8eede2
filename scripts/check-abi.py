#!/usr/bin/env python3
"""check-abi.py [SO] [MAP] — libpmc.so exports exactly the symbols its version
script names (lib/libpmc.map), each in the map's version node.

The map lists every public symbol by name; the library is built with
-fvisibility=hidden and the public headers mark each declaration PMC_API.
This compares what the built library really exports (`nm -D
--defined-only`) with the map, so an accidental export (a glob back in the
map, the version script dropped from the link, an internal function marked
public) fails, and so does a listed symbol the library does not export (its
declaration lost PMC_API).  Prints one line per difference and exits 1 if
there is any.  Run by tests/integration/abi.sh (`make check`) and `make
check-abi`.
"""
import re
import subprocess
import sys

so = sys.argv[1] if len(sys.argv) > 1 else 'build/libpmc.so'
mapfile = sys.argv[2] if len(sys.argv) > 2 else 'lib/libpmc.map'

text = re.sub(r'/\*.*?\*/', ' ', open(mapfile).read(), flags=re.S)
text = re.sub(r'#[^\n]*', ' ', text)
named = {}          # symbol -> version node
bad = 0
for node, body in re.findall(r'([A-Za-z_][\w.]*)\s*\{(.*?)\}\s*[\w.]*\s*;', text, re.S):
    scope = 'global'
    for tok in re.findall(r'[^\s;]+:|[^\s;]+', body):
        if tok.endswith(':'):
            scope = tok[:-1]
            continue
        if scope != 'global':
            continue
        if re.search(r'[*?\[]', tok):
            print('%s: node %s exports a pattern, "%s": list each symbol by name' %
                  (mapfile, node, tok))
            bad += 1
            continue
        named[tok] = node
if not named:
    sys.exit('check-abi: %s names no symbol' % mapfile)

out = subprocess.run(['nm', '-D', '--defined-only', so], capture_output=True,
                     text=True)
if out.returncode != 0:
    sys.exit('check-abi: nm %s: %s' % (so, out.stderr.strip()))
exported = {}
for line in out.stdout.splitlines():
    f = line.split()
    if len(f) < 3 or f[1] == 'A':      # the version nodes themselves
        continue
    name, _, ver = f[2].partition('@')
    exported[name] = ver.lstrip('@')

for name in sorted(set(exported) - set(named)):
    print('%s exports %s, which %s does not name' % (so, name, mapfile))
    bad += 1
for name in sorted(set(named) - set(exported)):
    print('%s names %s, which %s does not export (no PMC_API on its declaration?)' %
          (mapfile, name, so))
    bad += 1
for name in sorted(set(named) & set(exported)):
    if exported[name] != named[name]:
        print('%s exports %s as version "%s", %s puts it in %s' %
              (so, name, exported[name], mapfile, named[name]))
        bad += 1
sys.exit(1 if bad else 0)
