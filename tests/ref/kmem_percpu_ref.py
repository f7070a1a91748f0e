#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Independent reference of the per-CPU allocator statistics.

Written from Documentation/kmem-stat-definitions.txt ("PER-CPU
ALLOCATOR") and Documentation/kmem-json.txt only, not from lib/, so the
end-to-end tests catch bugs in the C code.

    kmem_percpu_ref.py [--sort KEYS] FILE.dat
        print the "percpu" member of the JSON document, as far as the
        documentation defines it
    kmem_percpu_ref.py [--sort KEYS] --check DOC.json FILE.dat
        compare DOC.json's "percpu" member with it: every summary
        member, every call-site row and field, and the rows' order;
        exit 1 listing each difference
    kmem_percpu_ref.py --timeline=PLOT.json FILE.dat
        print, instead, the per-CPU lines of the timeline
        (timeline_rec.py) over the spans trace-kmem plot --json chose,
        for check_timeline.py

Input: `trace-cmd report -N -R -t` (raw fields, nanosecond times), read
by libtraceevent, not by this project.  Call sites are the
"symbol+0xoff" libtraceevent prints for %pS, which is also the form the
document uses.  Rows are ordered by the sort keys (bytes and hit
descending by default, callsite ascending), ties by the first
allocation of the call site.
"""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import listing  # noqa: E402  (trace-cmd 3.1's and 3.3's listings)
from timeline_rec import Recorder  # noqa: E402

NO_SITE = "(no call_site field)"    # a call site's name without one


def fields(text):
    """name=value pairs of a raw listing line (listing.Value: the
    symbol text of a call site, its address as .addr when printed)."""
    return listing.fields(text)


def num(v):
    return int(v, 0)


def records(path):
    out = subprocess.run(["trace-cmd", "report", "-N", "-R", "-t", path],
                         capture_output=True, text=True, check=True).stdout
    for rec in listing.records(out):
        r = rec[1] if rec[0] == "ev" else None
        if r is not None and r.event.startswith("percpu_"):
            yield (r.event, r.cpu, r.ts, fields(r.rest))


def compute(path, sort_keys, timeline=None):
    s = dict(allocs=0, bytes_requested=0, frees=0, bytes_freed=0, atomic=0,
             reserved=0, cross_cpu_frees=0, double_frees=0,
             chunks_created=0, chunks_destroyed=0)
    alloc_bytes = 0
    with_bytes_alloc = without = 0
    fails = {}
    freed = [0, 0]
    free_only = 0
    missed = [0, 0]
    live = {}          # ptr -> (site, bytes, ts, cpu)
    freed_only = set()
    dead = set()       # allocated here, freed
    sites = {}
    order = []
    live_total = 0
    for ev, cpu, ts, f in records(path):
        touched = []
        if ev == "percpu_alloc_percpu":
            ptr = num(f["ptr"])
            size = num(f["size"])
            if "bytes_alloc" in f:
                nbytes = num(f["bytes_alloc"])
                alloc_bytes += nbytes
                with_bytes_alloc += 1
            else:
                nbytes = size
                without += 1
            cs = f.get("call_site")
            if cs not in sites:
                sites[cs] = dict(callsite=cs, hits=0, bytes=0,
                                 bytes_requested=0, atomic=0, reserved=0,
                                 frees=0, live_count=0, live_bytes=0,
                                 peak_bytes=0, _life=0, _seq=len(order))
                order.append(cs)
            if ptr in live:
                osite, obytes, _, _ = live.pop(ptr)
                missed[0] += 1
                missed[1] += obytes
                sites[osite]["live_count"] -= 1
                sites[osite]["live_bytes"] -= obytes
                live_total -= obytes
                touched.append(osite)
            r = sites[cs]
            r["hits"] += 1
            r["bytes"] += nbytes
            r["bytes_requested"] += size
            r["atomic"] += num(f["is_atomic"]) != 0
            r["reserved"] += num(f["reserved"]) != 0
            r["live_count"] += 1
            r["live_bytes"] += nbytes
            r["peak_bytes"] = max(r["peak_bytes"], r["live_bytes"])
            live_total += nbytes
            touched.append(cs)
            s["allocs"] += 1
            s["bytes_requested"] += size
            s["atomic"] += num(f["is_atomic"]) != 0
            s["reserved"] += num(f["reserved"]) != 0
            live[ptr] = (cs, nbytes, ts, cpu)
            dead.discard(ptr)
        elif ev == "percpu_free_percpu":
            ptr = num(f["ptr"])
            if ptr == 0:
                continue
            s["frees"] += 1
            if ptr in live:
                cs, nbytes, ats, acpu = live.pop(ptr)
                freed[0] += 1
                freed[1] += nbytes
                s["cross_cpu_frees"] += cpu != acpu
                r = sites[cs]
                r["frees"] += 1
                r["_life"] += max(0, ts - ats)
                r["live_count"] -= 1
                r["live_bytes"] -= nbytes
                live_total -= nbytes
                touched.append(cs)
                dead.add(ptr)
            elif ptr in dead or ptr in freed_only:
                s["double_frees"] += 1
            else:
                free_only += 1
                freed_only.add(ptr)
        elif ev == "percpu_alloc_percpu_fail":
            key = (num(f["size"]), num(f["align"]) if "align" in f else None,
                   num(f["is_atomic"]) != 0, num(f["reserved"]) != 0)
            fails[key] = fails.get(key, 0) + 1
        elif ev == "percpu_create_chunk":
            s["chunks_created"] += 1
        elif ev == "percpu_destroy_chunk":
            s["chunks_destroyed"] += 1
        if timeline is not None and touched:
            for cs in touched:
                timeline.set(("site", cs), ts, sites[cs]["live_bytes"])
            timeline.set("percpu", ts, live_total)
    if timeline is not None:
        syms = symbols(path)
        names = {"percpu": ("percpu", 0, "per-CPU allocator")}
        for cs in order:
            names[("site", cs)] = ("percpu_callsite", address(syms, cs),
                                   cs or NO_SITE)
        return timeline.result(names)
    total = sum(r["bytes"] for r in sites.values())
    s["alloc_bytes"] = alloc_bytes if not without else None
    s["bytes_freed"] = freed[1]
    s["net_bytes"] = total - freed[1]
    s["failures"] = {"count": sum(fails.values()), "requests": [
        {"size": k[0], "align": k[1], "atomic": k[2], "reserved": k[3],
         "count": c}
        for k, c in sorted(fails.items(),
                           key=lambda kc: (-kc[0][0] * kc[1], -kc[1]))]}
    s["alloc_freed"] = {"count": freed[0], "bytes": freed[1]}
    s["alloc_only"] = {"count": s["allocs"] - freed[0],
                       "bytes": total - freed[1]}
    s["free_only"] = {"count": free_only}
    s["live"] = {"count": len(live),
                 "bytes": sum(v[1] for v in live.values())}
    s["missed_frees"] = {"count": missed[0], "bytes": missed[1]}
    rows = []
    for cs in order:
        r = dict(sites[cs])
        r["mean_lifetime_ns"] = r["_life"] // r["frees"] if r["frees"] \
            else None
        rows.append(r)
    if "callsite" in sort_keys:
        syms = symbols(path)
        for r in rows:
            r["_address"] = address(syms, r["callsite"])
    else:
        for r in rows:
            r["_address"] = 0
    rows.sort(key=lambda r: sort_key(r, sort_keys))
    for r in rows:
        del r["_life"], r["_seq"], r["_address"]
    doc = {"bytes_measure": "size" if without and not with_bytes_alloc
           else "bytes_alloc" if not without else "mixed",
           "summary": s,
           "callsites": None if s["allocs"] and None in sites else rows}
    return doc


def symbols(path):
    """name -> address, from the trace's kallsyms (trace-cmd report -f)."""
    out = subprocess.run(["trace-cmd", "report", "-f", path],
                         capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            syms.setdefault(parts[1], int(parts[0], 16))
    return syms


def address(syms, callsite):
    """The address of "symbol+0xoff" (0 when there is none)."""
    if not callsite:
        return 0
    name, _, off = callsite.rpartition("+")
    if name not in syms:
        return int(callsite, 16) if re.match(r"^(0x)?[0-9a-f]+$", callsite) \
            else 0
    return syms[name] + int(off, 16)


def sort_key(r, keys):
    out = []
    for k in keys + ["bytes", "hit"]:
        if k == "bytes":
            out.append(-r["bytes"])
        elif k == "hit":
            out.append(-r["hits"])
        elif k == "live":
            out.append(-r["live_bytes"])
        elif k == "peak":
            out.append(-r["peak_bytes"])
        elif k == "callsite":
            out.append(r["_address"])
    out.append(r["_seq"])
    return out


def diff(path, got, want, out):
    if isinstance(want, dict):
        if not isinstance(got, dict):
            out.append("%s: %r, reference %r" % (path, got, want))
            return
        for k in want:
            if k not in got:
                out.append("%s.%s: missing" % (path, k))
            else:
                diff("%s.%s" % (path, k), got[k], want[k], out)
    elif isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            out.append("%s: %s rows, reference %s" % (
                path, len(got) if isinstance(got, list) else got, len(want)))
            return
        for i, (g, w) in enumerate(zip(got, want)):
            diff("%s[%d]" % (path, i), g, w, out)
    elif got != want:
        out.append("%s: %r, reference %r" % (path, got, want))


def main(argv):
    keys = []
    check = None
    timeline = None
    args = argv[1:]
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt == "--sort":
            keys = args.pop(0).split(",")
        elif opt.startswith("--sort="):
            keys = opt[7:].split(",")
        elif opt == "--check":
            check = args.pop(0)
        elif opt.startswith("--timeline="):
            timeline = Recorder(opt[len("--timeline="):])
        else:
            sys.exit("kmem_percpu_ref.py: unknown option " + opt)
    if len(args) != 1:
        sys.exit(__doc__)
    want = compute(args[0], keys, timeline)
    if not check:
        json.dump(want, sys.stdout, indent=1)
        print()
        return 0
    got = json.load(open(check)).get("percpu")
    out = []
    diff("percpu", got, want, out)
    for line in out[:40]:
        print(line)
    return 1 if out else 0


if __name__ == "__main__":
    import refcache  # noqa: E402  (tests/run.sh's cache of results)
    refcache.main(main, sys.argv)
