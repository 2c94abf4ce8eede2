#!/usr/bin/env python3
"""check_exports.py KIND FILE [ARGS] — parse a pmc report export back and
print what the tests compare (python3 standard library only):

  pprof FILE        gunzip + decode profile.proto with a minimal protobuf
                    reader; check the references; print "samples=N count=C"
                    per sample type pair and the top function
  speedscope FILE   check the file-format schema's required fields; print
                    "samples=N weight=W" per profile
  callgrind FILE    sum the self costs (not the calls= lines); compare with
                    totals:/summary:; print "self=N totals=N"
  folded FILE       sum the counts; print "samples=N"
  svg FILE          well-formed XML; every frame's children fit in it and
                    the root spans the whole width; print "frames=N root=W"
Exit status 0 if the file is valid, 1 otherwise (with the reason).
"""
import gzip, json, sys
import xml.etree.ElementTree as ET


def varint(b, i):
    r = s = 0
    while True:
        c = b[i]; i += 1
        r |= (c & 0x7f) << s; s += 7
        if c < 0x80:
            return r, i


def fields(b):
    """yield (field number, wire type, value) of one message"""
    i = 0
    while i < len(b):
        k, i = varint(b, i)
        fn, wt = k >> 3, k & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            v = int.from_bytes(b[i:i + 8], 'little'); i += 8
        elif wt == 2:
            n, i = varint(b, i); v = b[i:i + n]; i += n
        elif wt == 5:
            v = int.from_bytes(b[i:i + 4], 'little'); i += 4
        else:
            raise ValueError("wire type %d" % wt)
        yield fn, wt, v


def packed(wt, v):
    if wt == 0:
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = varint(v, i); out.append(x)
    return out


def s64(x):
    return x - (1 << 64) if x >= 1 << 63 else x


def pprof(path):
    raw = gzip.open(path).read()
    prof = {'st': [], 'samples': [], 'loc': {}, 'fn': {}, 'map': {}, 'types': []}
    for fn, wt, v in fields(raw):
        if fn == 6:
            prof['st'].append(v.decode())
        elif fn == 1:
            d = {f: x for f, _, x in fields(v)}
            prof['types'].append((d.get(1, 0), d.get(2, 0)))
        elif fn == 2:
            locs, vals = [], []
            for f, w, x in fields(v):
                if f == 1: locs += packed(w, x)
                if f == 2: vals += [s64(y) for y in packed(w, x)]
            prof['samples'].append((locs, vals))
        elif fn == 4:
            lid, lines = 0, []
            for f, w, x in fields(v):
                if f == 1: lid = x
                if f == 4: lines.append({g: y for g, _, y in fields(x)})
            prof['loc'][lid] = lines
        elif fn == 5:
            d = {f: x for f, _, x in fields(v)}
            prof['fn'][d.get(1)] = d
        elif fn == 3:
            d = {f: x for f, _, x in fields(v)}
            prof['map'][d.get(1)] = d
    st = prof['st']
    assert st and st[0] == '', "string_table[0] must be empty"
    for l in prof['loc'].values():
        for line in l:
            assert line.get(1) in prof['fn'], "line names an unknown function"
    for f in prof['fn'].values():
        assert 0 <= f.get(2, 0) < len(st), "function name out of the string table"
    ntypes = len(prof['types'])
    tot = [0] * ntypes
    selfby = {}
    for locs, vals in prof['samples']:
        assert len(vals) == ntypes, "sample has %d values for %d types" % (len(vals), ntypes)
        for l in locs:
            assert l in prof['loc'], "sample names an unknown location"
        for k, x in enumerate(vals):
            tot[k] += x
        if locs and vals[0]:
            leaf = prof['loc'][locs[0]][-1]     # the real function: the last line
            name = st[prof['fn'][leaf[1]].get(2, 0)]
            selfby[name] = selfby.get(name, 0) + vals[0]
    for k in range(0, ntypes, 2):
        print("type=%s samples=%d count=%d" % (st[prof['types'][k + 1][0]], tot[k], tot[k + 1]))
    total = sum(tot[0::2]) or 1
    for name, n in sorted(selfby.items(), key=lambda x: -x[1])[:5]:
        print("self %s %.2f" % (name, 100.0 * n / total))
    print("mappings=%d locations=%d functions=%d" % (len(prof['map']), len(prof['loc']), len(prof['fn'])))


def speedscope(path):
    d = json.load(open(path))
    for k in ('$schema', 'shared', 'profiles'):
        assert k in d, "missing " + k
    assert d['$schema'] == 'https://www.speedscope.app/file-format-schema.json'
    frames = d['shared']['frames']
    for f in frames:
        assert isinstance(f.get('name'), str), "frame without a name"
    for p in d['profiles']:
        for k in ('type', 'name', 'unit', 'startValue', 'endValue', 'samples', 'weights'):
            assert k in p, "profile missing " + k
        assert p['type'] == 'sampled'
        assert p['unit'] in ('none', 'nanoseconds', 'microseconds', 'milliseconds', 'seconds', 'bytes')
        assert len(p['samples']) == len(p['weights'])
        for s in p['samples']:
            for i in s:
                assert 0 <= i < len(frames), "frame index out of range"
        w = sum(p['weights'])
        assert p['endValue'] - p['startValue'] == w, "endValue - startValue != sum(weights)"
        print("profile=%s samples=%d weight=%d" % (p['name'], len(p['samples']), w))


def callgrind(path):
    selfc = 0
    totals = None
    skip_next = False
    for line in open(path):
        line = line.strip()
        if line.startswith('totals:') or line.startswith('summary:'):
            totals = int(line.split()[1])
            continue
        if line.startswith('calls='):
            skip_next = True        # the next cost line is inclusive, not self
            continue
        if line and (line[0].isdigit() or line[0] in '+-*'):
            if skip_next:
                skip_next = False
                continue
            selfc += int(line.split()[1])
    assert totals is not None, "no totals: line"
    print("self=%d totals=%d" % (selfc, totals))
    assert selfc == totals, "self costs do not add up to the totals"


def folded(path):
    n = 0
    for line in open(path):
        stack, _, c = line.rstrip('\n').rpartition(' ')
        assert stack, "line without a stack: %r" % line
        n += int(c)
    print("samples=%d" % n)


def svg(path):
    root = ET.parse(path).getroot()
    ns = '{http://www.w3.org/2000/svg}'
    frames = []
    for g in root.iter(ns + 'g'):
        if g.get('class') != 'f':
            continue
        r = g.find(ns + 'rect')
        frames.append((int(g.get('data-id')), int(g.get('data-parent')), float(r.get('x')),
                       float(r.get('width')), int(g.get('data-samples'))))
    assert frames, "no frames"
    byid = {f[0]: f for f in frames}
    kids = {}
    for f in frames:
        kids.setdefault(f[1], []).append(f)
    rootf = [f for f in frames if f[1] == -1]
    assert len(rootf) == 1, "one root frame"
    W = rootf[0][3]
    for fid, ks in kids.items():
        if fid == -1:
            continue
        p = byid[fid]
        w = sum(k[3] for k in ks)
        assert w <= p[3] + 0.01 * len(ks) + 0.01, "children of %d are wider than it" % fid
        for k in ks:
            assert k[2] >= p[2] - 0.01 and k[2] + k[3] <= p[2] + p[3] + 0.02, "child outside its parent"
        assert sum(k[4] for k in ks) <= p[4], "children have more samples than their parent"
    print("frames=%d root=%.2f samples=%d" % (len(frames), W, rootf[0][4]))


if __name__ == '__main__':
    try:
        {'pprof': pprof, 'speedscope': speedscope, 'callgrind': callgrind, 'folded': folded,
         'svg': svg}[sys.argv[1]](sys.argv[2])
    except (AssertionError, ValueError, KeyError, ET.ParseError, json.JSONDecodeError) as e:
        print("invalid: %s" % e)
        sys.exit(1)
