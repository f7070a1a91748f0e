#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""compare_stat.py KSHARK_KMEM_OUTPUT STAT_JSON
compare_stat.py --has ALLOCATOR STAT_JSON

What the KernelShark plugin registered on a trace (tests/kshark/
kshark_kmem.c's output) against trace-kmem stat --json of the same file:
for slab, page, per-CPU and vmalloc (whose lines kshark_kmem prints only
when it has a link, a leak or live bytes: none means zeros), links =
alloc_freed.count, ping-pong links = cross_cpu_frees, leak marks =
live.count and their bytes, added up by kshark_kmem, = live.bytes, the
live-bytes curve at the last entry = live.bytes; the curve of each call
site chosen ends at its row's live_bytes and peaks at its peak_bytes;
and no link, leak or description the tool found wrong.
KernelShark shows a file's top-level buffer: the JSON's document of
that buffer is the one whose "file" names no instance (none: the buffer
is empty, and so must the plugin's numbers be).  Prints what differs and
exits 1, or nothing.
With --has: exits 0 if that document counts events of ALLOCATOR ("slab",
"vmalloc" ...), else 1.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from jsondocs import parse as documents  # noqa: E402


has = sys.argv[1] == '--has'
out, js = sys.argv[-2], sys.argv[-1]
d = {}
for doc in documents(open(js).read()):
    if '(instance ' not in doc['file'] and doc['file'] != '(merged)':
        d = doc
        break
if has:
    sys.exit(0 if (d.get(out) or {}).get('events') else 1)
got = {}
other = {}
for line in open(out):
    w = line.split()
    if len(w) == 11 and w[1] == 'pairs':
        got[w[0]] = dict(zip(w[1::2], map(int, w[2::2])))
    elif w and w[0] in ('link_errors', 'leak_errors', 'describe_errors', 'records'):
        other[w[0]] = int(w[1])
    elif w and w[0] == 'leak_sum':
        got.setdefault('sum', {})[w[1]] = int(w[2])
    elif w and w[0] == 'site':
        got.setdefault('sites', []).append((w[1], int(w[2], 16), int(w[4]),
                                            int(w[6])))
    elif w and w[0] == 'site_error':
        got.setdefault('site_errors', []).append(w[1])
bad = []
zero = dict(pairs=0, pingpong=0, leaks=0, leak_bytes=0, live_bytes=0)
for a in ('slab', 'page', 'percpu', 'vmalloc'):
    s = (d.get(a) or {}).get('summary')
    g = got.get(a)
    if g is None and a == 'vmalloc':
        g = zero
        got.setdefault('sum', {}).setdefault(a, 0)
    if g is None:
        bad.append('no %s line' % a)
        continue
    want = dict(pairs=s['alloc_freed']['count'] if s else 0,
                leaks=s['live']['count'] if s else 0,
                leak_bytes=s['live']['bytes'] if s else 0,
                live_bytes=s['live']['bytes'] if s else 0)
    if s and 'cross_cpu_frees' in s:
        want['pingpong'] = s['cross_cpu_frees']
    want_sum = want['leak_bytes']
    for k, v in want.items():
        if g[k] != v:
            bad.append('%s %s: plugin %d, stat %d' % (a, k, g[k], v))
    if got.get('sum', {}).get(a) != want_sum:
        bad.append('%s leak_sum %s != %d' % (a, got.get('sum', {}).get(a), want_sum))
for a, addr, live, peak in got.get('sites', []):
    rows = [r for r in ((d.get(a) or {}).get('callsites') or [])
            if int(r['address'], 16) == addr]
    if len(rows) != 1:
        bad.append('site %s %#x: %d rows in the JSON' % (a, addr, len(rows)))
    elif (rows[0]['live_bytes'], rows[0]['peak_bytes']) != (live, peak):
        bad.append('site %s %#x: curve ends %d peaks %d, stat %d %d' % (
            a, addr, live, peak, rows[0]['live_bytes'], rows[0]['peak_bytes']))
if got.get('site_errors'):
    bad.append('site errors: %s' % got['site_errors'])
for k in ('link_errors', 'leak_errors', 'describe_errors'):
    if other.get(k) != 0:
        bad.append('%s = %s' % (k, other.get(k)))
if bad:
    print('; '.join(bad)); sys.exit(1)
