#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Check trace-kmem plot's "timeline" against the references.

    check_timeline.py PLOT.json LINES REF.json [REF.json]

REF.json: the output of kmem_ref.py, kmem_page_ref.py,
kmem_percpu_ref.py or kmem_vmalloc_ref.py with --timeline=PLOT.json.  Every series of the
plot must be a series of a reference with the same points (as a set:
the lowest, highest and last value of each span, at the times reached)
and peak; its points in time order, at most 3 a span; a line for each
allocator with a peak in the references; the call-site series the LINES
call sites of each allocator with the highest peaks in the references,
all in the order of their peaks (ties: by allocator in ALLOCATORS'
order, then the lower address), leaving out an allocator's only call
site when it is one of NO_SITE.  Prints
what differs; exit status 1.
"""

import json
import sys

# the allocators, in the order ties between their call sites go
# (kmem-stat-definitions.txt, "TIMELINE")
ALLOCATORS = ("slab", "page", "percpu", "vmalloc")
# the call-site names of allocations whose call site is not known
NO_SITE = ("(no stack)", "(no call_site field)")


def alloc_of(kind):
    """"page_callsite" -> "page"; "page" -> "page"."""
    return kind[:-len("_callsite")] if kind.endswith("_callsite") else kind


def main(argv):
    plot = json.load(open(argv[0]))
    tl = plot["timeline"]
    lines = int(argv[1])
    ref = {}
    for p in argv[2:]:
        ref.update(json.load(open(p))["series"])
    bad = []
    kinds = {s["kind"] for s in tl["series"]}
    for s in tl["series"]:
        k = s["kind"] + ":" + s["name"]
        r = ref.get(k)
        if r is None:
            r = next((x for x in ref.values() if x["kind"] == s["kind"] and
                      s["name"] in x.get("aliases", ())), None)
        if r is None:
            bad.append("%s: no such line in the references" % k)
            continue
        pts = [tuple(p) for p in s["points"]]
        if pts != sorted(pts, key=lambda p: p[0]):
            bad.append("%s: points not in time order" % k)
        if len(pts) > 3 * tl["spans"]:
            bad.append("%s: %d points for %d spans" % (k, len(pts),
                                                       tl["spans"]))
        want = {tuple(p) for p in r["points"]}
        if set(pts) != want:
            bad.append("%s: points differ: plot only %s, reference only %s"
                       % (k, sorted(set(pts) - want)[:3],
                          sorted(want - set(pts))[:3]))
        if s["peak_bytes"] != r["peak"]:
            bad.append("%s: peak %d, reference %d" % (k, s["peak_bytes"],
                                                      r["peak"]))
    # every allocator with live memory in the references has its line
    for r in ref.values():
        if r["kind"] in ALLOCATORS and r["peak"] > 0 and \
                r["kind"] not in kinds:
            bad.append("no %s allocator line, reference peak %d"
                       % (r["kind"], r["peak"]))
    # the call sites drawn: the highest peaks of the allocators shown
    shown = {k for k in kinds if k in ALLOCATORS}
    cands = [x for x in ref.values() if x["kind"].endswith("_callsite") and
             alloc_of(x["kind"]) in shown and x["peak"] > 0]
    # an allocator's only call site is not drawn when no call site is
    # known for it ("(no stack)"): it repeats its line
    per = {}
    for x in cands:
        per[alloc_of(x["kind"])] = per.get(alloc_of(x["kind"]), 0) + 1
    cands = [x for x in cands if per[alloc_of(x["kind"])] > 1 or
             x["name"] not in NO_SITE]
    cands.sort(key=lambda x: (-x["peak"],
                              ALLOCATORS.index(alloc_of(x["kind"])),
                              x["address"]))
    taken = {}
    want = []
    for x in cands:     # the first LINES (0: 32) of each allocator
        a = alloc_of(x["kind"])
        taken[a] = taken.get(a, 0) + 1
        if taken[a] <= (lines or 32):
            want.append(x["name"])
    got = [s["name"] for s in tl["series"] if s["kind"].endswith("_callsite")]
    cmp_got = [next((x["name"] for x in cands if g in x.get("aliases", ())),
                    g) for g in got]
    if cmp_got != want:
        bad.append("call sites drawn %s, the highest peaks %s" % (got, want))
    for b in bad:
        print("    " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
