#!/usr/bin/env python3
"""check-layers.py [ROOT] — every #include in lib/, analysis/, tools/pmc and
tools/lib points at a layer the including file may use (docs/architecture.md,
"Layers"),
and every include inside analysis/ at a room the including file's room may use
(docs/architecture.md, "The rooms of analysis/").

The compiler already refuses most violations (each layer is compiled with only
its own include view, see the Makefile); this check also covers what the
compiler cannot see: headers no .c file includes yet, and includes spelled
relative to the file ("../core/internal.h") that a quoted include finds
without any -I.  The allowed edges are the Makefile's SEES_* and ROOM_*
tables, read from ROOT/Makefile, so there is one list.  Prints one line per violation and exits
1 if there is any.
"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), '..'))
os.chdir(root)

sees = {}
rooms = {}
for line in open('Makefile'):
    m = re.match(r'SEES_(\w+)\s*:=\s*(.*)', line)
    if m:
        sees[m.group(1)] = m.group(2).split()
    m = re.match(r'ROOM_(\w+)\s*:=\s*(.*)', line)
    if m:
        rooms[m.group(1)] = set(m.group(2).split())
if 'core' not in sees or 'analysis' not in sees or 'tools' not in sees:
    sys.exit('check-layers: no SEES_* table in %s/Makefile' % root)
if 'profile' not in rooms:
    sys.exit('check-layers: no ROOM_* table in %s/Makefile' % root)


def room_of(path):
    """analysis/ROOM/...: the room; None elsewhere."""
    parts = path.split(os.sep)
    return parts[1] if parts[0] == 'analysis' and len(parts) > 2 else None

# What a layer may include: its own files, the lib/ layers of its SEES list,
# the public headers (include/).  analysis also sees itself; the tools
# (tools/pmc) see analysis (libpmcstat's headers), their helper library
# (tools/lib, "toolslib/NAME.h") and of lib/ what SEES_tools names; the
# helper library sees itself and SEES_tools, not analysis.
allowed = {l: set(v) | {'include'} for l, v in sees.items()}
allowed['analysis'] |= {'analysis'}
allowed['toolslib'] = set(sees['tools']) | {'toolslib', 'include'}
allowed['tools'] = set(sees['tools']) | {'tools', 'toolslib', 'analysis', 'include'}


def layer_of(path):
    parts = path.split(os.sep)
    if parts[0] == 'lib' and len(parts) > 2:
        return parts[1] if parts[1] in sees else None
    if parts[0] in ('analysis', 'include'):
        return parts[0]
    if parts[:2] == ['tools', 'pmc']:
        return 'tools'
    if parts[:2] == ['tools', 'lib']:
        return 'toolslib'
    return None


def resolve(src, name, layer):
    """Where the compiler would find `name` included from src, trying the
    file's own directory first (as it does for quoted includes), then every
    place any layer could make visible, so a forbidden header is still found
    and named."""
    here = os.path.normpath(os.path.join(os.path.dirname(src), name))
    if os.path.isfile(here):
        return here
    if name.startswith('toolslib/'):
        p = os.path.normpath(os.path.join('tools/lib', name[len('toolslib/'):]))
        if os.path.isfile(p):
            return p
    for base in ['include', 'analysis'] + ['lib']:
        p = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(p):
            return p
    return None


bad = 0
for top in ('lib', 'analysis', 'tools/pmc', 'tools/lib'):
    for dirpath, _, files in os.walk(top):
        for f in sorted(files):
            if not f.endswith(('.c', '.h')):
                continue
            src = os.path.join(dirpath, f)
            layer = layer_of(src)
            if layer is None:
                continue
            if layer == 'analysis' and room_of(src) not in rooms:
                print('%s: in no room (analysis/ROOM/, a ROOM_* line of the Makefile)' % src)
                bad += 1
            for n, line in enumerate(open(src, errors='replace'), 1):
                m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
                if not m:
                    continue
                target = resolve(src, m.group(1), layer)
                if target is None:
                    print('%s:%d: includes "%s", which is in no layer' % (src, n, m.group(1)))
                    bad += 1
                    continue
                tl = layer_of(target)
                if tl not in allowed[layer]:
                    print('%s:%d: %s includes %s (%s): not a layer %s may use (allowed: %s)' % (
                        src, n, layer, target, tl, layer, ' '.join(sorted(allowed[layer]))))
                    bad += 1
                    continue
                sr, tr = room_of(src), room_of(target)
                if layer == 'analysis' and tr is not None:
                    if sr not in rooms:
                        print('%s:%d: room %s is in no ROOM_* line of the Makefile' % (src, n, sr))
                        bad += 1
                    elif tr not in rooms[sr]:
                        print('%s:%d: room %s includes %s (room %s): not a room %s may use '
                              '(allowed: %s)' % (src, n, sr, target, tr, sr,
                                                 ' '.join(sorted(rooms[sr]))))
                        bad += 1
sys.exit(1 if bad else 0)
