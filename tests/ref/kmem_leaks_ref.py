#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Independent reference of the leak report (kmem:leaks[=AGE]) and of
the lifetime histograms (kmem:lifetimes).

Written from Documentation/kmem-stat-definitions.txt ("LEAKS") and
kmem-json.txt only, not from lib/.

    kmem_leaks_ref.py --check DOC.json [--age NS] FILE.dat

compares the "leaks" arrays of DOC.json (trace-kmem stat --leaks=AGE
--json, or the plugin's) with what the listing of FILE.dat gives
(`trace-cmd report -N -R -t`, read by libtraceevent):

  slab, per-CPU  every row (callsite, count, bytes, oldest_ns,
                 median_age_ns) as a set, keyed by the call site
                 libtraceevent prints; the order of the rows (bytes,
                 then count, descending); the end of the trace
  page, vmalloc  the totals (count, bytes) and the oldest age: a page's
                 or vmap area's call site comes from its kernel stack,
                 whose rules kmem_page_ref.py and kmem_vmalloc_ref.py
                 check

    kmem_leaks_ref.py --check-lifetimes DOC.json FILE.dat

compares every slab and per-CPU call site's "lifetime_hist" (exactly)
and "lifetime_p50_ns" / "lifetime_p99_ns" (the estimate defined in the
documentation, and in the same bucket as the exact percentile of the
lifetimes) with the listing's matched frees.

Exit 1 listing each difference, 2 when DOC.json has none of them.
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import listing  # noqa: E402  (trace-cmd 3.1's and 3.3's listings)

SLAB_ALLOC = {"kmalloc", "kmalloc_node", "kmem_cache_alloc",
              "kmem_cache_alloc_node"}
SLAB_FREE = {"kfree", "kmem_cache_free"}
PAGE_FREE = {"mm_page_free", "mm_page_free_direct", "mm_pagevec_free"}
OURS = SLAB_ALLOC | SLAB_FREE | PAGE_FREE | {
    "mm_page_alloc", "mm_page_free_batched", "mm_page_alloc_zone_locked",
    "mm_page_pcpu_drain", "mm_page_alloc_extfrag",
    "percpu_alloc_percpu", "percpu_free_percpu", "percpu_alloc_percpu_fail",
    "percpu_create_chunk", "percpu_destroy_chunk",
    "alloc_vmap_area", "free_vmap_area_noflush", "purge_vmap_area_lazy"}


def addr(v):
    """A %p value: hex, or (nil)."""
    return 0 if v == "(nil)" else int(v, 16)


def live_objects(path, page_size=4096, lifetimes=None):
    """{allocator: {key: (callsite, bytes, ts)}} at the end, and the end;
    the lifetimes of matched frees into lifetimes[(allocator, callsite)]."""
    out = subprocess.run(["trace-cmd", "report", "-N", "-R", "-t", path],
                         capture_output=True, text=True, check=True).stdout
    live = {"slab": {}, "page": {}, "percpu": {}, "vmalloc": {}}
    end = 0
    for rec in listing.records(out):
        if rec[0] != "ev" or rec[1].event not in OURS:
            continue
        ev, ts = rec[1].event, rec[1].ts
        end = max(end, ts)
        f = listing.fields(rec[1].rest)
        if ev in SLAB_ALLOC:
            ptr = addr(f["ptr"])
            if ptr > 16:
                live["slab"][ptr] = (f["call_site"], int(f["bytes_alloc"]),
                                     ts)
        elif ev in SLAB_FREE:
            o = live["slab"].pop(addr(f["ptr"]), None)
            if o and lifetimes is not None:
                lifetimes.setdefault(("slab", o[0]), []).append(
                    max(0, ts - o[2]))
        elif ev == "mm_page_alloc":
            key = f.get("pfn", f.get("page"))
            if key in ("0xffffffffffffffff", "18446744073709551615",
                       "0", "(nil)"):
                continue
            order = int(f.get("order", "0"))
            live["page"][int(key, 0)] = (None, page_size << order, ts)
        elif ev in PAGE_FREE:
            key = f.get("pfn", f.get("page"))
            live["page"].pop(int(key, 0), None)
        elif ev == "percpu_alloc_percpu":
            nbytes = int(f.get("bytes_alloc", f["size"]))
            live["percpu"][addr(f["ptr"])] = (f.get("call_site"), nbytes, ts)
        elif ev == "percpu_free_percpu":
            o = live["percpu"].pop(addr(f["ptr"]), None)
            if o and lifetimes is not None:
                lifetimes.setdefault(("percpu", o[0]), []).append(
                    max(0, ts - o[2]))
        elif ev == "alloc_vmap_area":   # addr: decimal in the listing
            if int(f["failed"], 0) == 0:
                live["vmalloc"][int(f["addr"], 0)] = (None, int(f["size"], 0),
                                                      ts)
        elif ev == "free_vmap_area_noflush":
            live["vmalloc"].pop(int(f["va_start"], 0), None)
    return live, end


def rows(objs, end, age):
    by = {}
    for cs, nbytes, ts in objs.values():
        a = end - ts
        if a >= age:
            by.setdefault(cs, []).append((a, nbytes))
    out = {}
    for cs, items in by.items():
        ages = sorted(a for a, _ in items)
        out[cs] = {"count": len(items), "bytes": sum(b for _, b in items),
                   "oldest_ns": ages[-1],
                   "median_age_ns": ages[(len(ages) - 1) // 2]}
    return out


def bucket(v):
    return 0 if v < 2 else v.bit_length() - 1


def estimate(hist, pct):
    """The documented estimate from {bucket: count}."""
    n = sum(hist.values())
    rank = -(-n * pct // 100)
    before = 0
    for b in sorted(hist):
        if before + hist[b] >= rank:
            lo = 0 if b == 0 else 1 << b
            hi = (1 << 64) - 1 if b == 63 else 1 << (b + 1)
            return lo + (hi - lo) * (2 * (rank - before) - 1) // (2 * hist[b])
        before += hist[b]
    return None


def check_lifetimes(doc, path):
    life = {}
    live_objects(path, lifetimes=life)
    bad, seen = [], 0
    for kind in ("slab", "percpu"):
        for r in (doc.get(kind) or {}).get("callsites") or []:
            if "lifetime_hist" not in r:
                continue
            seen += 1
            ages = sorted(life.get((kind, r["callsite"]), []))
            want = {}
            for a in ages:
                want[bucket(a)] = want.get(bucket(a), 0) + 1
            got = {bucket(h["lo_ns"]) if h["lo_ns"] else 0: h["count"]
                   for h in r["lifetime_hist"]}
            if got != want:
                bad.append("%s %s: hist %s, reference %s"
                           % (kind, r["callsite"], got, want))
                continue
            for pct in (50, 99):
                key = "lifetime_p%d_ns" % pct
                if not ages:
                    if r[key] is not None:
                        bad.append("%s %s: %s %s, no frees"
                                   % (kind, r["callsite"], key, r[key]))
                    continue
                exact = ages[-(-len(ages) * pct // 100) - 1]
                if r[key] != estimate(want, pct) or \
                        bucket(r[key]) != bucket(exact):
                    bad.append("%s %s: %s %s, estimate %s, exact %s"
                               % (kind, r["callsite"], key, r[key],
                                  estimate(want, pct), exact))
    return bad, seen


def main(argv):
    args = argv[1:]
    if args and args[0] == "--check-lifetimes" and len(args) == 3:
        bad, seen = check_lifetimes(json.load(open(args[1])), args[2])
        for line in bad[:40]:
            print(line)
        if not seen:
            print("no lifetime histograms in", args[1])
            return 2
        return 1 if bad else 0
    doc_path, age = None, 0
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt == "--check":
            doc_path = args.pop(0)
        elif opt == "--age":
            age = int(args.pop(0))
        else:
            sys.exit("kmem_leaks_ref.py: unknown option " + opt)
    if not doc_path or len(args) != 1:
        sys.exit(__doc__)
    doc = json.load(open(doc_path))
    live, end = live_objects(args[0])
    bad, seen = [], 0
    for kind in ("slab", "page", "percpu", "vmalloc"):
        sec = doc.get(kind)
        if not sec or "leaks" not in sec:
            continue
        seen += 1
        if sec["leaks_end_ns"] != end:
            bad.append("%s.leaks_end_ns: %d, reference %d"
                       % (kind, sec["leaks_end_ns"], end))
        if sec["leaks_older_than_ns"] != age:
            bad.append("%s.leaks_older_than_ns: %d, asked %d"
                       % (kind, sec["leaks_older_than_ns"], age))
        got = sec["leaks"]
        keys = [(r["bytes"], r["count"]) for r in got]
        if keys != sorted(keys, reverse=True):
            bad.append("%s.leaks: not sorted by bytes, then count" % kind)
        want = rows(live[kind], end, age)
        if kind in ("page", "vmalloc"):
            tot = (sum(r["count"] for r in got), sum(r["bytes"] for r in got),
                   max((r["oldest_ns"] for r in got), default=None))
            ref = (sum(r["count"] for r in want.values()),
                   sum(r["bytes"] for r in want.values()),
                   max((r["oldest_ns"] for r in want.values()), default=None))
            if tot != ref:
                bad.append("%s.leaks totals %s, reference %s"
                           % (kind, tot, ref))
            continue
        gotd = {r["callsite"] if r["address"] != "0x0" else None: r
                for r in got}
        for cs in sorted(set(gotd) | set(want), key=str):
            if cs not in want:
                bad.append("%s.leaks: %s not in the reference" % (kind, cs))
            elif cs not in gotd:
                bad.append("%s.leaks: %s missing (reference %s)"
                           % (kind, cs, want[cs]))
            else:
                for k, v in want[cs].items():
                    if gotd[cs][k] != v:
                        bad.append("%s.leaks[%s].%s: %s, reference %s"
                                   % (kind, cs, k, gotd[cs][k], v))
    for line in bad[:40]:
        print(line)
    if not seen:
        print("no leaks in", doc_path)
        return 2
    return 1 if bad else 0


if __name__ == "__main__":
    import refcache  # noqa: E402  (tests/run.sh's cache of results)
    refcache.main(main, sys.argv)
