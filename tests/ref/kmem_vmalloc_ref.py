#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Independent reference of the vmalloc allocator (vmap area) statistics.

Written from the definitions of the vmalloc section (the events
alloc_vmap_area, free_vmap_area_noflush and purge_vmap_area_lazy of the
"vmalloc" event system), not from lib/, so the end-to-end tests catch
bugs in the C code.  Python 3, standard library only.

    kmem_vmalloc_ref.py [--sort KEYS] FILE.dat
        print the "vmalloc" member of the JSON document
    kmem_vmalloc_ref.py [--sort KEYS] --check DOC.json FILE.dat
        compare DOC.json's "vmalloc" member with it: every summary
        member, every call-site row and field, and the rows' order;
        exit 1 listing each difference
    --lifetimes
        the rows have kmem:lifetimes' members too (lifetime_hist,
        lifetime_p50_ns, lifetime_p99_ns: kmem_leaks_ref.py's estimate)
    kmem_vmalloc_ref.py --timeline=PLOT.json FILE.dat
        print, instead, the vmalloc lines of the timeline (timeline_rec.py)
        over the spans that trace-kmem plot --json chose, for
        check_timeline.py

Exit status 3 (after printing or checking) when the reference's own
decoding disagrees with the listing (sizes, flags, addresses, frames).

What it computes
----------------
- An allocation is an alloc_vmap_area record with failed == 0, a
  failure one with failed != 0 (its size counts in failures.bytes; no
  object is made).  An object is keyed by its address (addr) and its
  bytes are its size field.
- A free is a free_vmap_area_noflush record with va_start != 0 (one
  with va_start == 0 is counted in "events" only; its nr_lazy and
  nr_lazy_max still count in "lazy").  It is matched (alloc_freed)
  when va_start is a live object; else it is free_only if the address
  was neither allocated in the trace nor freed before (the address is
  remembered), and a double free otherwise (allocated and already
  freed, or free_only already).
- An allocation of an address still live is a missed free (the old
  object's bytes); the old object is dropped, the new one is live.
- summary: allocs, alloc_bytes, frees (matched or not), bytes_freed (of
  matched frees), net_bytes, largest (of successful allocations),
  failures, alloc_freed, alloc_only (allocs - alloc_freed, count and
  bytes: as for slab and per-CPU objects, an allocation whose free was
  missed is allocated-only), free_only, live (at the end), peak
  (the highest live count and the highest live bytes, each its own
  maximum, measured after each allocation), missed_frees,
  double_frees, cross_cpu_frees (matched frees on another CPU than the
  allocation's), lazy (purges, purged = sum of npurged, nr_lazy_peak =
  the highest nr_lazy of free records, nr_lazy_max of the last free
  record; 0 without free records), stacks (allocations and failures
  whose kernel stack was found).
- "events": the records of the three events (failures included);
  "complete": false when the listing shows lost events.
- Call site of an allocation or failure: the kernel_stack record
  DIRECTLY following the alloc_vmap_area record in the same CPU's
  buffer (kmem_page_ref.Page.stack_after, whose ring-buffer reader this
  script imports; none when the listing shows lost events of that CPU
  between the two): its first frame, innermost first, whose function
  name does not match SKIP, as "symbol+0xoff" (the frame's own address
  as "address"); the last frame if all match.  No stack: "(no stack)",
  address "0x0".
- callsites: one row per call-site address: hits and bytes of its
  allocations, failures, frees (matched frees of its objects),
  live_count, live_bytes, peak_bytes (its highest live_bytes),
  mean_lifetime_ns (sum of free ts - alloc ts over its matched frees,
  integer-divided by frees; null without frees).  Order: the --sort
  keys (callsite: the callsite string ascending; bytes, hit (hits),
  live (live_bytes), peak (peak_bytes), failures: descending), then
  bytes and hit descending, ties by the row's first allocation or
  failure.
- Times: the trace clock's nanoseconds of `trace-cmd report -N -t`
  (the listing kmem_page_ref reads; the same times as -N -R -t).
- Timeline (kmem-stat-definitions.txt, "TIMELINE"): the "vmalloc
  allocator" line is the live bytes above, after each record; a call
  site's line the live bytes of its allocations.  An allocation counts
  for its call site once the site is known: at the next kernel_stack or
  alloc_vmap_area record on its CPU (its stack record, when it has
  one), or at the end of the trace; one freed, or whose address is
  allocated again, before that never counts for it.

TRACEEVENT_PLUGIN_DIR is removed from the environment: libtraceevent's
own plugins only, never this project's.
"""

import json
import os
import re
import sys

os.environ.pop("TRACEEVENT_PLUGIN_DIR", None)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kmem_leaks_ref  # noqa: E402  (the lifetime estimate)
import kmem_page_ref  # noqa: E402  (ring-buffer reader, stack_after)
from timeline_rec import Lines, Recorder  # noqa: E402

SKIP = "|".join([
    r"^_*traceiter_", r"^trace_event_", r"^perf_trace_", r"^_*bpf_trace_",
    r"^_*ftrace_trace_stack", r"^_*trace_stack", r"^ftrace_",
    r"^stack_trace_", r"^event_trigger", r"^stacktrace_trigger",
    r"^trace_buffer_", r"^trace_call_bpf", r"^_*ring_buffer_",
    r"^_*alloc_vmap_area", r"^_*get_vm_area", r"^_*vmalloc", r"^_*vzalloc",
    r"^vmalloc_", r"^_*kvmalloc", r"^_*kvzalloc", r"^_*kvrealloc",
    r"^_*vmap", r"^vm_map_ram", r"^_*ioremap", r"^execmem_",
])

EVENTS = ("alloc_vmap_area", "free_vmap_area_noflush",
          "purge_vmap_area_lazy")
SORT_KEYS = ("callsite", "bytes", "hit", "live", "peak")


class VmallocTimeline(Lines):
    """The vmalloc lines of the timeline (timeline_rec.py), by the rules
    of the docstring's "Timeline"."""

    def __init__(self, rec):
        super().__init__(rec, "vmalloc", "vmalloc allocator")
        self.aliases = {}   # call-site address -> its names
        self.objs = {}      # addr -> live area

    def site_known(self, cpu):
        """A kernel_stack or alloc_vmap_area record on @cpu."""
        obj = self.pending.pop(cpu, None)
        if obj is not None:
            obj["attached"] = True
            k = obj["site"]
            self.sites[k] = self.sites.get(k, 0) + obj["bytes"]
            self.changed.add(("site", k))

    def gone(self, addr):
        """The live area at @addr is freed, or its free was missed."""
        obj = self.objs.pop(addr)
        if self.pending.get(obj["cpu"]) is obj:
            del self.pending[obj["cpu"]]
        self.total -= obj["bytes"]
        self.changed.add("vmalloc")
        if obj["attached"]:
            self.sites[obj["site"]] -= obj["bytes"]
            self.changed.add(("site", obj["site"]))

    def allocated(self, addr, cpu, caddr, cnames, size):
        if addr in self.objs:
            self.gone(addr)
        obj = dict(site=caddr, bytes=size, cpu=cpu, attached=False)
        self.objs[addr] = obj
        self.pending[cpu] = obj
        self.names[("site", caddr)] = ("vmalloc_callsite", caddr, cnames[0])
        self.aliases[caddr] = cnames
        self.total += size
        self.changed.add("vmalloc")

    def finish(self):
        self.record(self.rec.end)
        for cpu in sorted(self.pending):
            self.site_known(cpu)
        self.flush()

    def result(self):
        res = self.rec.result(self.names)
        for caddr, cnames in self.aliases.items():
            res["series"]["vmalloc_callsite:" + cnames[0]]["aliases"] = \
                cnames
        return res


class Vmalloc(kmem_page_ref.Page):
    """kmem_page_ref.Page's reading of the trace (listing, ring buffers,
    formats, kallsyms, stack_after), with the vmalloc statistics."""

    def __init__(self, path, sort_keys):
        super().__init__(path, SKIP)
        self.sort_keys = sort_keys
        self.lifetimes = False      # --lifetimes: kmem:lifetimes' members

    def check(self, msg):
        if len(self.problems) < 20:
            sys.stderr.write("kmem_vmalloc_ref: self-check: %s\n" % msg)
        self.problems.append(msg)

    def stack_after(self, rec):
        # lost events of this CPU between the allocation and the next
        # record: that record does not directly follow it
        if (rec.cpu, rec.idx + 1) in self.after_drop:
            return None
        return super().stack_after(rec)

    def aggregate(self, seq, tl=None):
        e = self.e
        self.after_drop = set()
        dropped = set()
        for item in seq:
            if item[0] == "drop":
                dropped.add(item[1])
            elif item[1].cpu in dropped:
                dropped.discard(item[1].cpu)
                self.after_drop.add((item[1].cpu, item[1].idx))

        s = dict(allocs=0, alloc_bytes=0, frees=0, bytes_freed=0,
                 largest=0, fail_count=0, fail_bytes=0, af_count=0,
                 missed_count=0, missed_bytes=0, free_only=0, double=0,
                 cross=0, purges=0, purged=0, nr_lazy_peak=0, nr_lazy_max=0,
                 stacks=0, peak_count=0, peak_bytes=0, idle=0)
        seen = set()        # the vmalloc events with a record
        events = 0
        complete = True
        live = {}           # addr -> (row key, bytes, ts, cpu)
        live_bytes = 0
        dead = set()        # allocated in the trace and freed, or free_only
        rows = {}           # call-site address -> row
        nstack_check = 0
        for item in seq:
            if item[0] == "drop":
                complete = False
                continue
            _, rec, fmt, text, frames_txt, ts = item
            name = fmt.name
            if tl is not None:
                tl.record(ts)
                if name in ("kernel_stack", "alloc_vmap_area"):
                    tl.site_known(rec.cpu)
            if name == "kernel_stack":
                # the names the listing prints for the first frames
                # (libtraceevent's choice among aliases)
                nstack_check = self.check_frame_names(rec, fmt, frames_txt,
                                                      nstack_check)
                continue
            if name in kmem_page_ref.kmem_ref.ALLOCATOR_EVENTS and \
                    "common_pid" in fmt.fields and \
                    kmem_page_ref.field(fmt, rec, "common_pid", e) == 0:
                s["idle"] += 1
            if name not in EVENTS:
                continue
            events += 1
            seen.add(name)

            def fv(n):
                return kmem_page_ref.field(fmt, rec, n, e)

            if name == "alloc_vmap_area":
                addr, size, failed = fv("addr"), fv("size"), fv("failed")
                for n, v in (("size", size), ("failed", failed)):
                    t = kmem_page_ref.text_field(text, n)
                    if t is not None and int(t, 0) != v:
                        self.check("alloc_vmap_area %s: listing %s, buffer "
                                   "%d" % (n, t, v))
                frames = self.stack_after(rec)
                if frames is not None:
                    s["stacks"] += 1
                caddr, cnames = self.callsite(frames or [])
                row = rows.get(caddr)
                if row is None:
                    row = rows[caddr] = dict(
                        callsite=cnames[0], address="0x%x" % caddr, hits=0,
                        bytes=0, failures=0, frees=0, live_count=0,
                        live_bytes=0, peak_bytes=0, _life=0, _lives=[],
                        _seq=len(rows))
                if failed:
                    s["fail_count"] += 1
                    s["fail_bytes"] += size
                    row["failures"] += 1
                    continue
                if addr in live:
                    okey, obytes, _, _ = live.pop(addr)
                    s["missed_count"] += 1
                    s["missed_bytes"] += obytes
                    live_bytes -= obytes
                    rows[okey]["live_count"] -= 1
                    rows[okey]["live_bytes"] -= obytes
                dead.discard(addr)
                s["allocs"] += 1
                s["alloc_bytes"] += size
                s["largest"] = max(s["largest"], size)
                row["hits"] += 1
                row["bytes"] += size
                row["live_count"] += 1
                row["live_bytes"] += size
                row["peak_bytes"] = max(row["peak_bytes"], row["live_bytes"])
                live[addr] = (caddr, size, ts, rec.cpu)
                live_bytes += size
                if tl is not None:
                    tl.allocated(addr, rec.cpu, caddr, cnames, size)
                s["peak_count"] = max(s["peak_count"], len(live))
                s["peak_bytes"] = max(s["peak_bytes"], live_bytes)
            elif name == "free_vmap_area_noflush":
                va, nr_lazy = fv("va_start"), fv("nr_lazy")
                t = kmem_page_ref.text_field(text, "va_start")
                if t is not None and int(t, 16) != va:
                    self.check("free_vmap_area_noflush va_start: listing %s,"
                               " buffer 0x%x" % (t, va))
                s["nr_lazy_peak"] = max(s["nr_lazy_peak"], nr_lazy)
                s["nr_lazy_max"] = fv("nr_lazy_max")
                if va == 0:
                    continue
                s["frees"] += 1
                if va in live:
                    key, nbytes, ats, acpu = live.pop(va)
                    live_bytes -= nbytes
                    s["af_count"] += 1
                    s["bytes_freed"] += nbytes
                    s["cross"] += rec.cpu != acpu
                    row = rows[key]
                    row["frees"] += 1
                    row["_life"] += ts - ats
                    row["_lives"].append(max(0, ts - ats))
                    row["live_count"] -= 1
                    row["live_bytes"] -= nbytes
                    dead.add(va)
                    if tl is not None:
                        tl.gone(va)
                elif va in dead:
                    s["double"] += 1
                else:
                    s["free_only"] += 1
                    dead.add(va)
            else:
                s["purges"] += 1
                s["purged"] += fv("npurged")

        summary = {
            "allocs": s["allocs"],
            "alloc_bytes": s["alloc_bytes"],
            "frees": s["frees"],
            "bytes_freed": s["bytes_freed"],
            "net_bytes": s["alloc_bytes"] - s["bytes_freed"],
            "largest": s["largest"],
            "failures": {"count": s["fail_count"], "bytes": s["fail_bytes"]},
            "alloc_freed": {"count": s["af_count"],
                            "bytes": s["bytes_freed"]},
            "alloc_only": {
                "count": s["allocs"] - s["af_count"],
                "bytes": s["alloc_bytes"] - s["bytes_freed"]},
            "free_only": {"count": s["free_only"]},
            "live": {"count": len(live), "bytes": live_bytes},
            "peak": {"count": s["peak_count"], "bytes": s["peak_bytes"]},
            "missed_frees": {"count": s["missed_count"],
                             "bytes": s["missed_bytes"]},
            "double_frees": s["double"],
            "cross_cpu_frees": s["cross"],
            "lazy": {"purges": s["purges"], "purged": s["purged"],
                     "nr_lazy_peak": s["nr_lazy_peak"],
                     "nr_lazy_max": s["nr_lazy_max"]},
            "stacks": s["stacks"],
        }
        # no free recorded: its figures are null (kmem-stat-definitions(7))
        if "free_vmap_area_noflush" not in seen:
            for k in ("frees", "bytes_freed", "net_bytes", "alloc_freed",
                      "alloc_only", "free_only", "live", "peak",
                      "missed_frees", "cross_cpu_frees"):
                summary[k] = None
        # double or repeated frees (kmem_ref.free_doubt())
        summary["double_frees_doubt"] = \
            "the ring buffer lost events" if not complete else \
            "no allocation was recorded" if "alloc_vmap_area" not in seen \
            else "no pid 0 record: likely only chosen tasks were traced" \
            if not s["idle"] else None
        if tl is not None:
            tl.finish()
        out = []
        for r in rows.values():
            r = dict(r)
            r["mean_lifetime_ns"] = r["_life"] // r["frees"] if r["frees"] \
                else None
            if self.lifetimes:
                lifetimes(r)
            out.append(r)
        out.sort(key=lambda r: sort_key(r, self.sort_keys))
        for r in out:
            del r["_life"], r["_seq"], r["_lives"]
        self.doc = {"events": events, "complete": complete,
                    "summary": summary, "callsites": out}


def lifetimes(r):
    """A row's kmem:lifetimes members (kmem-stat-definitions.txt,
    "LIFETIMES"): the log2 histogram of its matched frees' lifetimes and
    the documented p50 / p99 estimates (kmem_leaks_ref.py's)."""
    hist = {}
    for v in r["_lives"]:
        b = kmem_leaks_ref.bucket(v)
        hist[b] = hist.get(b, 0) + 1
    for pct in (50, 99):
        r["lifetime_p%d_ns" % pct] = kmem_leaks_ref.estimate(hist, pct) \
            if hist else None
    r["lifetime_hist"] = [
        {"lo_ns": 0 if b == 0 else 1 << b,
         "hi_ns": None if b == 63 else 1 << (b + 1), "count": hist[b]}
        for b in sorted(hist)]


def sort_key(r, keys):
    out = []
    for k in list(keys) + ["bytes", "hit"]:
        if k == "bytes":
            out.append(-r["bytes"])
        elif k == "hit":
            out.append(-r["hits"])
        elif k == "live":
            out.append(-r["live_bytes"])
        elif k == "peak":
            out.append(-r["peak_bytes"])
        elif k == "callsite":   # by address, as the tables sort it
            out.append(int(r["address"], 16))
    out.append(r["_seq"])
    return out


def same(got, want):
    """Equal and of the same JSON type (true is not 1, 1.0 is not 1)."""
    if isinstance(want, bool) or isinstance(got, bool) or \
            want is None or got is None:
        return got is want
    return type(got) is type(want) and got == want


def diff(path, got, want, out):
    if isinstance(want, dict):
        if not isinstance(got, dict):
            out.append("%s: %s, reference %s" % (path, json.dumps(got),
                                                  json.dumps(want)))
            return
        for k in want:
            if k not in got:
                out.append("%s.%s: missing (reference %s)"
                           % (path, k, json.dumps(want[k])))
            else:
                diff("%s.%s" % (path, k), got[k], want[k], out)
        for k in got:
            if k not in want:
                out.append("%s.%s: not in the reference (%s)"
                           % (path, k, json.dumps(got[k])))
    elif isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            out.append("%s: %s rows, reference %s" % (
                path, len(got) if isinstance(got, list) else
                json.dumps(got), len(want)))
            if not isinstance(got, list):
                return
        for i, (g, w) in enumerate(zip(got, want)):
            diff("%s[%d]" % (path, i), g, w, out)
    elif not same(got, want):
        out.append("%s: %s, reference %s" % (path, json.dumps(got),
                                              json.dumps(want)))


def main(argv):
    keys = []
    check = None
    lives = False
    timeline = None
    args = argv[1:]
    while args and args[0].startswith("-"):
        opt = args.pop(0)
        if opt in ("-h", "--help"):
            print(__doc__)
            return 0
        if opt == "--sort" and args:
            keys = args.pop(0).split(",")
        elif opt.startswith("--sort="):
            keys = opt[7:].split(",")
        elif opt == "--check" and args:
            check = args.pop(0)
        elif opt == "--lifetimes":
            lives = True
        elif opt.startswith("--timeline="):
            timeline = opt[len("--timeline="):]
        else:
            sys.exit("kmem_vmalloc_ref.py: unknown option " + opt)
    for k in keys:
        if k not in SORT_KEYS:
            sys.exit("kmem_vmalloc_ref.py: unknown sort key %r (%s)"
                     % (k, ", ".join(SORT_KEYS)))
    if len(args) != 1:
        sys.exit(__doc__)
    v = Vmalloc(args[0], keys)
    v.lifetimes = lives
    try:
        v.run()
        if timeline:
            tl = VmallocTimeline(Recorder(timeline))
            v.aggregate(v.seq, tl)
    except (RuntimeError, ValueError, KeyError) as ex:
        sys.exit("kmem_vmalloc_ref.py: %s" % ex)
    if timeline:
        json.dump(tl.result(), sys.stdout)
        print()
        return 3 if v.problems else 0
    want = v.doc
    bad = 3 if v.problems else 0
    if not check:
        json.dump(want, sys.stdout, indent=1)
        print()
        return bad
    with open(check) as f:
        got = json.load(f).get("vmalloc")
    out = []
    try:
        ga = [r.get("address") for r in got["callsites"]]
        wa = [r["address"] for r in want["callsites"]]
        if ga != wa and sorted(map(str, ga)) == sorted(map(str, wa)):
            out.append("vmalloc.callsites: the same rows in another order:"
                       " %s, reference %s" % (" ".join(map(str, ga[:8])),
                                              " ".join(wa[:8])))
    except (TypeError, KeyError, AttributeError):
        pass        # no comparable rows: diff() says what is wrong
    diff("vmalloc", got, want, out)
    for line in out[:60]:
        print(line)
    if len(out) > 60:
        print("... %d more" % (len(out) - 60))
    return 1 if out else bad


if __name__ == "__main__":
    import refcache  # noqa: E402  (tests/run.sh's cache of results)
    refcache.main(main, sys.argv)
