#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Independent reference implementation of the kmem slab statistics.

Written from Documentation/kmem-stat-definitions.txt and
Documentation/kmem-json.txt only (not from lib/ or plugin/), so that the
end-to-end tests catch bugs in the C code.

    kmem_ref.py [--sort KEYS] [--raw-ip] [--check-symbols]
                [--refree-free-only] [--report-args="ARGS"]
                [--pid=LIST] [--comm=NAME] [--time=START,END] FILE.dat
    kmem_ref.py --make-edge-trace IN.dat OUT.dat
    kmem_ref.py --timeline=PLOT.json FILE.dat

prints the JSON document the plugin would write for FILE.dat
(-O kmem:json=...), as far as it is defined by the documentation.
--pid=LIST, --comm=NAME and --time=START,END keep only the listing's
lines of those pids, that command name, that time window (trace-kmem
stat's filters).
--report-args passes more arguments (filters such as --cpu 0) to
trace-cmd report: the plugin sees the records trace-cmd prints.
--timeline=PLOT.json prints, instead, the slab lines of the timeline
(timeline_rec.py) over the spans that trace-kmem plot --json chose.
--make-edge-trace writes a copy of a trace with allocation failures,
zero-size allocations and frees of NULL/ZERO_SIZE_PTR patched in (see
make_edge_trace()).

A free of a pointer that was never allocated in the trace, but whose
last traced event was a free (free, free with no allocation between or
before), matches both the "freed-only" and the "double free" rule of
the definitions.  This counts it as a double free: in a lossless trace
the object freed the second time cannot predate the trace, so only a
kernel double free (or, with lost events, a lost allocation) explains
it, which is exactly what the double-free rule says.  With
--refree-free-only such a free counts as freed-only instead, as long as
the pointer has never been allocated in the trace.

Input: `trace-cmd report -N -R -t` (raw fields, full nanosecond
timestamps).  libtraceevent prints call_site with %pS even in raw mode,
i.e. as symbol+0xoffset, and a symbol name is not unique in kallsyms
(binfmt_elf and compat_binfmt_elf both have load_elf_binary, say), so
the address cannot be recovered from the text.  To get the addresses,
the file is converted to format version 6 (uncompressed) with
`trace-cmd convert` and its kallsyms text is blanked (same length, so
nothing else moves); libtraceevent then prints every call_site as a hex
address.  The symbol table itself comes from `trace-cmd report -f` on
the original file and call sites are resolved here, the way the
documentation describes (the symbol at or below the address, plus the
offset).  Should the conversion fail, the symbolic output is read and
mapped back through the symbol table (ambiguous names are reported on
stderr).  That is trace-cmd 3.1; trace-cmd 3.3 prints the address after
the symbol ("symbol+0xoffset (0xaddress)", see listing.py, which reads
the listings of both), and then the listing is read as it is.

With --check-symbols the symbolic output of the original file is read
as well and compared record by record with the address output: same
records, and every symbol+offset that libtraceevent printed must be one
of the names this script gives the address (a self-check of the
reference, reported on stderr, exit status 3 on a disagreement).

Caches: kmalloc* events count under "kmalloc-<bytes_alloc>", kmem_cache_*
events under their name field, or "(unnamed)" when the event has none.
An object allocated under "(unnamed)" (kernels 5.12 to 6.17 name only
the free) moves, with its bytes, to the cache its matching
kmem_cache_free names; rows left empty by that are dropped.

Extra members, not in the plugin's document, start with "_":
"_callsite_aliases" (every acceptable symbol+offset spelling of an
address that has several symbols), "_address" and "_ptr" (numeric
addresses, for sorting) and "_seq" (order of first appearance in the
trace, the last tie-break of every sort).
"""

import bisect
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
from fractions import Fraction

import listing
from timeline_rec import Recorder

ALLOC_EVENTS = {"kmalloc", "kmalloc_node", "kmem_cache_alloc",
                "kmem_cache_alloc_node"}
FREE_EVENTS = {"kfree", "kmem_cache_free"}
SLAB_EVENTS = ALLOC_EVENTS | FREE_EVENTS
# Every allocator's records: a record of pid 0 among them says the
# recording was of the whole system (free_doubt()).
ALLOCATOR_EVENTS = SLAB_EVENTS | {
    "mm_page_alloc", "mm_page_free", "mm_page_free_batched",
    "mm_page_free_direct", "mm_pagevec_free", "mm_page_alloc_zone_locked",
    "mm_page_pcpu_drain", "mm_page_alloc_extfrag", "percpu_alloc_percpu",
    "percpu_free_percpu", "percpu_alloc_percpu_fail", "percpu_create_chunk",
    "percpu_destroy_chunk", "alloc_vmap_area", "free_vmap_area_noflush",
    "purge_vmap_area_lazy"}

# The listing of either trace-cmd version (3.1, 3.3): see listing.py.
LINE_RE = listing.LINE_RE
DROP_RE = listing.DROP_RE

TRACE_CMD = os.environ.get("TRACE_CMD", "trace-cmd")



def display_path(path):
    """The input's path as the definitions say the plugin shows it: the
    real path, relative to the current directory when below it."""
    real, cwd = os.path.realpath(path), os.path.realpath(os.getcwd())
    if real.startswith(cwd.rstrip("/") + "/"):
        return os.path.relpath(real, cwd)
    return real

def die(msg):
    sys.stderr.write("kmem_ref: %s\n" % msg)
    sys.exit(2)


def run(args):
    env = dict(os.environ)
    # -R bypasses plugins anyway; make sure nothing else changes the text.
    env.pop("TRACEEVENT_PLUGIN_DIR", None)
    p = subprocess.run([TRACE_CMD] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env)
    if p.returncode != 0:
        raise RuntimeError("trace-cmd %s failed: %s" % (
            " ".join(args), p.stderr.decode(errors="replace")[-500:]))
    return p.stdout.decode("utf-8", errors="replace")


# ---------------------------------------------------------------- symbols

class Symbols:
    """The functions libtraceevent loaded from the trace's kallsyms."""

    def __init__(self, text):
        byaddr = {}
        byname = {}
        for line in text.splitlines():
            parts = line.split()
            if len(parts) < 2:
                continue
            try:
                addr = int(parts[0], 16)
            except ValueError:
                continue
            name = parts[1]
            lst = byaddr.setdefault(addr, [])
            if name not in lst:
                lst.append(name)
            byname.setdefault(name, set()).add(addr)
        self.byaddr = byaddr
        self.byname = byname
        self.addrs = sorted(byaddr)

    def lookup(self, addr):
        """(symbol address, [names]) of the function containing addr, or
        None.  As libtraceevent: the highest symbol at or below addr; past
        the last symbol only that symbol's exact address is known."""
        i = bisect.bisect_right(self.addrs, addr) - 1
        if i < 0:
            return None
        a = self.addrs[i]
        if i == len(self.addrs) - 1 and addr != a:
            return None
        return a, self.byaddr[a]

    def names(self, addr):
        """Every symbol+0xoffset spelling of addr (first is canonical);
        empty when the symbol is unknown."""
        r = self.lookup(addr)
        if r is None:
            return []
        a, names = r
        return ["%s+0x%x" % (n, addr - a) for n in names]

    def reverse(self, text):
        """Address candidates of a printed symbol+0xoffset."""
        name, sep, off = text.rpartition("+0x")
        if not sep:
            name, off = text, "0"
        try:
            off = int(off, 16)
        except ValueError:
            return []
        out = []
        for a in sorted(self.byname.get(name, ())):
            r = self.lookup(a + off)
            if r is not None and r[0] == a:
                out.append(a + off)
        return out


def blank_kallsyms_v6(path):
    """Blank the kallsyms section of an uncompressed version 6 trace.dat
    in place (same length)."""
    with open(path, "r+b") as f:
        d = f.read()
        if d[:10] != b"\x17\x08\x44tracing":
            raise RuntimeError("not a trace.dat")
        p = d.index(b"\0", 10)
        if d[10:p] != b"6":
            raise RuntimeError("converted file is version %r" % d[10:p])
        p += 1
        endian = ">" if d[p] else "<"
        p += 1 + 1 + 4           # endian, long size, page size

        def num(fmt):
            nonlocal p
            v = struct.unpack_from(endian + fmt, d, p)[0]
            p += struct.calcsize(fmt)
            return v

        for tag in (b"header_page\0", b"header_event\0"):
            if d[p:p + len(tag)] != tag:
                raise RuntimeError("unexpected header layout")
            p += len(tag)
            n = num("Q")
            p += n
        for _ in range(num("I")):            # ftrace event formats
            n = num("Q")
            p += n
        for _ in range(num("I")):            # event systems
            p = d.index(b"\0", p) + 1
            for _ in range(num("I")):
                n = num("Q")
                p += n
        n = num("I")                         # kallsyms
        if n and not re.match(rb"[0-9a-fA-F]+ ", d[p:p + 40]):
            raise RuntimeError("kallsyms section not where expected")
        f.seek(p)
        f.write(b"\n" * n)


def trace_cmd_version():
    """(major, minor) of trace-cmd, or None when it does not say."""
    try:       # (trace-cmd 3.1 prints it with its usage, exit 255)
        p = subprocess.run([TRACE_CMD, "version"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
    except OSError:
        return None
    out = p.stdout.decode(errors="replace")
    m = re.search(r"version (\d+)\.(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else None


def has_addresses(text):
    """Does this -R listing print call sites with their address after the
    symbol (trace-cmd 3.3, listing.py)?  Its first call_site tells."""
    m = re.search(r" call_site=(.*)$", text, re.M)
    if not m:
        return False
    v = listing.FIELD_SPLIT_RE.split(m.group(1), 1)[0]
    return listing.split_value(v)[1] is not None


def raw_report(path, tmpdir, extra=()):
    """trace-cmd report -R output with call sites as hex addresses, or
    None when the file cannot be converted."""
    conv = os.path.join(tmpdir, "v6.dat")
    try:
        run(["convert", "-i", path, "-o", conv, "--file-version", "6"])
        blank_kallsyms_v6(conv)
    except (RuntimeError, OSError, ValueError, struct.error) as e:
        sys.stderr.write("kmem_ref: warning: cannot blank kallsyms (%s); "
                         "mapping symbols back to addresses\n" % e)
        return None
    return run(["report", "-N", "-R", "-t", "-i", conv] + list(extra))


# ---------------------------------------------------------------- parsing

def parse_fields(rest):
    """{name: listing.Value}: the printed text, with .addr the address
    trace-cmd 3.3 adds to a %pS value in -R (None from 3.1)."""
    return listing.fields(rest)


def parse_ts(ts):
    try:
        return listing.parse_ts(ts)
    except ValueError as e:
        die(str(e))


def parse_ptr(v):
    """%p as libtraceevent prints it: (nil) or hex, with or without 0x."""
    if v in ("(nil)", "0", ""):
        return 0
    return int(v, 16)


def parse_int(v):
    v = v.strip()
    if v.lower().startswith("0x"):
        return int(v, 16)
    return int(v)


# trace-kmem's task and time filters (--pid, --comm, --time), applied
# here to the listing's comm-pid and timestamp columns.
FILTER = {"pids": None, "comm": None, "start": None, "end": None,
          "time": False, "cpu": False}


def parse_time_window(arg):
    """START,END in seconds, both inclusive, taken as given (100,101 is
    100.000000000 to 101.000000000)."""
    start, _, end = arg.partition(",")
    lo = parse_ts(start) if start else 0
    hi = parse_ts(end) if end else None
    return lo, hi


def free_doubt(s):
    """Why a free of an object already freed may be one whose allocation
    the trace missed (kmem-stat-definitions(7), "Double frees"), or None:
    lost events, trace-kmem's filters, no allocation record, or no
    record of pid 0 (a recording of chosen tasks holds none)."""
    if s["events_lost"] or s["lost_unknown"]:
        return "the ring buffer lost events"
    used = [k for k, v in (("--time", FILTER["time"]),
                           ("--pid", FILTER["pids"] is not None),
                           ("--comm", FILTER["comm"] is not None),
                           ("--cpu", FILTER["cpu"])) if v]
    if used:
        return "the filters (%s) left records out" % ", ".join(used)
    if not s["alloc_records"]:
        return "no allocation was recorded"
    if not s["idle_records"]:
        return "no pid 0 record: likely only chosen tasks were traced"
    return None


def wanted(r):
    """Is the listing.Record r inside trace-kmem's filters?"""
    f = FILTER
    if f["pids"] is not None and r.pid not in f["pids"]:
        return False
    if f["comm"] is not None and r.comm.strip() != f["comm"]:
        return False
    if f["start"] is not None and r.ts < f["start"]:
        return False
    return f["end"] is None or r.ts <= f["end"]


def records(text):
    """Yield ('drop', cpu, count-or-None) and ('ev', cpu, ts, event, fields,
    pid) in the printed order."""
    for rec in listing.records(text):
        if rec[0] == "drop":
            yield rec
            continue
        r = rec[1]
        if not wanted(r):
            continue
        yield ("ev", r.cpu, r.ts, r.event, r.rest, r.pid)


def gfp_account_events(path):
    """The slab allocation events whose format names __GFP_ACCOUNT."""
    out = set()
    name = None
    for line in run(["dump", "--events", path]).splitlines():
        if line.startswith("name: "):
            name = line[6:].strip()
        elif name in ALLOC_EVENTS and "__GFP_ACCOUNT" in line:
            out.add(name)
    return out


def accounted_seq(path, extra):
    """For each slab allocation record, in order: True, False, or None
    when the listing tells nothing, from libtraceevent's own reading of
    the print fmt (accounted=true/false, computed from the field or from
    gfp_flags; else the gfp_flags names)."""
    for rec in records(run(["report", "-N", "-t", "-i", path] +
                           list(extra))):
        if rec[0] != "ev" or rec[3] not in ALLOC_EVENTS:
            continue
        f = parse_fields(rec[4])
        if "accounted" in f:
            yield f["accounted"] == "true", True
        else:
            names = f.get("gfp_flags", "").split("|")
            yield any(n.endswith("_ACCOUNT") for n in names), False


# ---------------------------------------------------------------- statistics

def pct(waste, total):
    return float(100 * Fraction(waste, total)) if total else 0.0


def frag_fraction(row):
    if not row["bytes_alloc"]:
        return Fraction(0)
    return Fraction(row["bytes_alloc"] - row["bytes_req"], row["bytes_alloc"])


class Stats:
    def __init__(self):
        self.s = dict(allocs=0, frees=0, bytes_requested=0,
                      bytes_allocated=0, cross_cpu_frees=0,
                      alloc_failures=0, events_lost=0, lost_unknown=0,
                      af_count=0, af_bytes=0, free_only=0,
                      missed_count=0, missed_bytes=0, double_frees=0,
                      null_frees=0, zero_size_allocs=0, events=0,
                      memcg_allocs=0, memcg_bytes=0, acct_field=0,
                      acct_gfp=0, idle_records=0, alloc_records=0)
        self.callsites = {}     # address -> row (insertion = first seen)
        # call site -> anomalies: freed-only and double frees at the
        # free's call site, missed frees at the earlier allocation's
        self.anoms = {}
        self.ptrs = {}          # ptr -> row
        self.caches = {}        # name -> row
        # ptr -> None (last event a free) or the live object:
        #   dict(callsite=addr, cache=name, bytes=bytes_alloc, cpu, ts)
        self.state = {}
        # A free of a pointer that was never allocated in the trace but
        # whose last event was a free fits both "freed-only" and "double
        # free" in the definitions; see --refree-free-only.
        self.refree_is_free_only = False
        # for --timeline: call sites whose live bytes the last event
        # changed, and the live bytes of every object
        self.touched = []
        self.live_total = 0

    def anom(self, addr):
        return self.anoms.setdefault(addr, dict(
            free_only=0, double_frees=0, missed_count=0, missed_bytes=0))

    def callsite(self, addr):
        r = self.callsites.get(addr)
        if r is None:
            r = self.callsites[addr] = dict(
                address=addr, hits=0, failures=0, bytes_req=0,
                bytes_alloc=0, frees=0, pingpong=0, live_count=0,
                live_bytes=0, peak_bytes=0, lifetime=0, memcg_bytes=0,
                caches=set())
        return r

    def cache(self, name):
        r = self.caches.get(name)
        if r is None:
            r = self.caches[name] = dict(
                name=name, allocs=0, frees=0, free_only=0, bytes_req=0,
                bytes_alloc=0, live_count=0, live_bytes=0, memcg_bytes=0)
        return r

    def ptr(self, p):
        r = self.ptrs.get(p)
        if r is None:
            r = self.ptrs[p] = dict(ptr=p, callsite=None, hits=0,
                                    bytes_req=0, bytes_alloc=0, frees=0,
                                    pingpong=0, lifetime=0, live_bytes=0,
                                    live=False)
        return r

    def drop(self, count):
        if count is None:
            self.s["lost_unknown"] += 1
        else:
            self.s["events_lost"] += count

    def _unlive(self, p, obj):
        cs = self.callsites[obj["callsite"]]
        cs["live_count"] -= 1
        cs["live_bytes"] -= obj["bytes"]
        self.touched.append(obj["callsite"])
        self.live_total -= obj["bytes"]
        c = self.caches[obj["cache"]]
        c["live_count"] -= 1
        c["live_bytes"] -= obj["bytes"]
        pr = self.ptrs[p]
        pr["live"] = False
        pr["live_bytes"] = 0

    def alloc(self, cpu, ts, event, f):
        s = self.s
        s["events"] += 1
        site = f["call_site"]
        p = f["ptr"]
        req = f["bytes_req"]
        got = f["bytes_alloc"]
        cs = self.callsite(site)
        if p == 0:
            s["alloc_failures"] += 1
            cs["failures"] += 1
            return
        if event.startswith("kmalloc"):
            cname = "kmalloc-%d" % got
        else:
            cname = f.get("name", "(unnamed)")
        s["allocs"] += 1
        s["bytes_requested"] += req
        s["bytes_allocated"] += got
        cs["hits"] += 1
        cs["bytes_req"] += req
        cs["bytes_alloc"] += got
        how, charged = f.get("_acct", (None, False))
        s["acct_field"] += how == "field"
        s["acct_gfp"] += how == "gfp"
        if charged:
            cs["memcg_bytes"] += got
            s["memcg_allocs"] += 1
            s["memcg_bytes"] += got
        if p <= 16:     # ZERO_SIZE_PTR: no cache served it, no cache row
            s["zero_size_allocs"] += 1
            cs["peak_bytes"] = max(cs["peak_bytes"], cs["live_bytes"])
            return
        c = self.cache(cname)
        cs["caches"].add(cname)
        c["allocs"] += 1
        c["bytes_req"] += req
        c["bytes_alloc"] += got
        if charged:
            c["memcg_bytes"] += got
        old = self.state.get(p)
        if old is not None:
            s["missed_count"] += 1
            s["missed_bytes"] += old["bytes"]
            a = self.anom(old["callsite"])
            a["missed_count"] += 1
            a["missed_bytes"] += old["bytes"]
            self._unlive(p, old)
        self.state[p] = dict(callsite=site, cache=cname, bytes=got,
                             req=req, cpu=cpu, ts=ts, memcg=charged,
                             unnamed=not event.startswith("kmalloc") and
                             "name" not in f)
        cs["live_count"] += 1
        cs["live_bytes"] += got
        cs["peak_bytes"] = max(cs["peak_bytes"], cs["live_bytes"])
        self.touched.append(site)
        self.live_total += got
        c["live_count"] += 1
        c["live_bytes"] += got
        pr = self.ptr(p)
        pr["callsite"] = site
        pr["hits"] += 1
        pr["bytes_req"] += req
        pr["bytes_alloc"] += got
        pr["live"] = True
        pr["live_bytes"] = got

    def free(self, cpu, ts, event, f):
        s = self.s
        s["events"] += 1
        p = f["ptr"]
        if p <= 16:
            s["null_frees"] += 1
            return
        s["frees"] += 1
        if p not in self.state or (self.state[p] is None and
                                   self.refree_is_free_only and
                                   p not in self.ptrs):
            s["free_only"] += 1
            self.anom(f["call_site"])["free_only"] += 1
            # a freed-only free counts in a cache row only if it names it
            if event == "kmem_cache_free" and "name" in f:
                self.cache(f["name"])["free_only"] += 1
            self.state[p] = None
            return
        obj = self.state[p]
        if obj is None:
            s["double_frees"] += 1
            self.anom(f["call_site"])["double_frees"] += 1
            return
        self._unlive(p, obj)
        self.state[p] = None
        life = ts - obj["ts"]
        ping = 1 if cpu != obj["cpu"] else 0
        s["af_count"] += 1
        s["af_bytes"] += obj["bytes"]
        s["cross_cpu_frees"] += ping
        cs = self.callsites[obj["callsite"]]
        cs["frees"] += 1
        cs["pingpong"] += ping
        cs["lifetime"] += life
        c = self.caches[obj["cache"]]
        if obj["unnamed"] and "name" in f and event == "kmem_cache_free":
            # 5.12 to 6.17: only the free names the cache; the object
            # moves from "(unnamed)" to it, with its bytes
            c["allocs"] -= 1
            c["bytes_req"] -= obj["req"]
            c["bytes_alloc"] -= obj["bytes"]
            if obj["memcg"]:
                c["memcg_bytes"] -= obj["bytes"]
            c = self.cache(f["name"])
            c["allocs"] += 1
            c["bytes_req"] += obj["req"]
            c["bytes_alloc"] += obj["bytes"]
            if obj["memcg"]:
                c["memcg_bytes"] += obj["bytes"]
        c["frees"] += 1
        pr = self.ptrs[p]
        pr["frees"] += 1
        pr["pingpong"] += ping
        pr["lifetime"] += life


# ---------------------------------------------------------------- sorting

SORT_KEYS = ("ptr", "callsite", "bytes", "hit", "pingpong", "frag", "live",
             "peak")


def sort_key_fn(table, key):
    """A function giving an ascending sort value for KEY in TABLE, or None
    when the table has no such column."""
    if key == "ptr":
        return (lambda r: r["_ptr"]) if table == "allocs" else None
    if key == "callsite":
        return (lambda r: r["_address"]) if table in ("callsites", "allocs") \
            else None
    if key == "bytes":
        return lambda r: -r["bytes_alloc"]
    if key == "hit":
        col = "allocs" if table == "caches" else "hits"
        return lambda r: -r[col]
    if key == "pingpong":
        return (lambda r: -r["pingpong"]) if table != "caches" else None
    if key == "frag":
        return lambda r: -frag_fraction(r)
    if key == "live":
        return lambda r: -r["live_bytes"]
    if key == "peak":
        return (lambda r: -r["peak_bytes"]) if table == "callsites" else None
    raise ValueError("unknown sort key %r" % key)


def table_keys(keys):
    """The keys a table sorts by: sort=KEYS (each once, the first place),
    then its defaults bytes and hit where KEYS did not name them."""
    out = []
    for k in list(keys) + ["bytes", "hit"]:
        if k not in out:
            out.append(k)
    return out


def sort_rows(table, rows, keys):
    """Rows in table order for sort=KEYS: the keys the table has, then its
    defaults (table_keys()); remaining ties in the order of first
    appearance ("_seq")."""
    fns = [fn for fn in (sort_key_fn(table, k) for k in table_keys(keys))
           if fn]
    return sorted(rows, key=lambda r: tuple(fn(r) for fn in fns) +
                  (r["_seq"],))


# ---------------------------------------------------------------- edge cases

def make_edge_trace(src, dst):
    """Write DST, a copy of SRC (as format version 6) in which every
    record of one kmalloc'ed pointer now returns ZERO_SIZE_PTR (0x10: its
    allocations become zero-size allocations, its frees frees of
    ZERO_SIZE_PTR) and every record of one kmem_cache pointer returns NULL
    (allocation failures, frees of NULL): paths that real recordings
    rarely take.  The pointers are picked among those allocated and freed
    most often."""
    run(["convert", "-i", src, "-o", dst, "--file-version", "6"])
    text = run(["report", "-N", "-R", "-i", src])
    counts = {}
    for rec in records(text):
        if rec[0] != "ev" or rec[3] not in SLAB_EVENTS:
            continue
        f = parse_fields(rec[4])
        p = parse_ptr(f.get("ptr", "0"))
        if p <= 16:
            continue
        c = counts.setdefault(p, {"kmalloc": 0, "cache": 0, "free": 0})
        if rec[3].startswith("kmalloc"):
            c["kmalloc"] += 1
        elif rec[3] in ALLOC_EVENTS:
            c["cache"] += 1
        else:
            c["free"] += 1

    def pick(kind, exclude):
        best = [p for p, c in counts.items()
                if c[kind] and c["free"] and p not in exclude]
        if not best:
            raise RuntimeError("%s has no %s pointer that is also freed"
                               % (src, kind))
        return max(best, key=lambda p: (min(counts[p][kind],
                                            counts[p]["free"]), p))

    zero = pick("kmalloc", ())
    null = pick("cache", (zero,))
    with open(dst, "r+b") as f:
        d = bytearray(f.read())
        endian = ">" if d[d.index(b"\0", 10) + 1] else "<"
        lsize = d[d.index(b"\0", 10) + 2]
        fmt = endian + ("Q" if lsize == 8 else "I")
        for old, new in ((zero, 0x10), (null, 0)):
            pat = struct.pack(fmt, old)
            n = d.count(pat)
            d = d.replace(pat, struct.pack(fmt, new))
            sys.stderr.write("kmem_ref: 0x%x -> 0x%x (%d records)\n"
                             % (old, new, n))
        f.seek(0)
        f.write(d)


# ---------------------------------------------------------------- main

def build(path, sort_keys, raw_ip, check_symbols, refree_free_only=False,
          extra=(), timeline=None):
    syms = Symbols(run(["report", "-f", "-i", path]))
    text = symbolic = None
    ver = trace_cmd_version()
    if ver is None or ver > (3, 1):
        # trace-cmd 3.3: -R gives each call site's symbol and address
        symbolic = run(["report", "-N", "-R", "-t", "-i", path] +
                       list(extra))
        if has_addresses(symbolic):
            text = symbolic
            if not check_symbols:
                symbolic = None
    if text is None:
        with tempfile.TemporaryDirectory(prefix="kmem_ref.") as tmp:
            text = raw_report(path, tmp, extra)
        if (text is None or check_symbols) and symbolic is None:
            symbolic = run(["report", "-N", "-R", "-t", "-i", path] +
                           list(extra))
        elif text is not None and not check_symbols:
            symbolic = None
    bad_symbols = 0
    if text is None:
        text = symbolic
        symbolic = None

    st = Stats()
    st.refree_is_free_only = refree_free_only
    gfp_acct = gfp_account_events(path)
    acct_iter = accounted_seq(path, extra)
    printed_names = {}      # address -> set of names libtraceevent printed
    sym_iter = records(symbolic) if symbolic is not None else None
    ambiguous = set()
    for rec in records(text):
        srec = next(sym_iter, None) if sym_iter is not None else None
        if sym_iter is not None and (srec is None or srec[0] != rec[0] or
                                     srec[1:3] != rec[1:3]):
            sys.stderr.write("kmem_ref: symbolic and address outputs "
                             "disagree: %r / %r\n" % (rec, srec))
            bad_symbols += 1
            sym_iter = None
        if rec[0] == "drop":
            st.drop(rec[2])
            continue
        _, cpu, ts, event, rest, pid = rec
        st.s["idle_records"] += pid == 0 and event in ALLOCATOR_EVENTS
        if event not in SLAB_EVENTS:
            continue
        st.s["alloc_records"] += event in ALLOC_EVENTS
        raw = parse_fields(rest)
        f = {}
        try:
            site = raw["call_site"]
            if site.addr is not None:
                f["call_site"] = site.addr
            elif re.match(r"^(0x)?[0-9a-fA-F]+$", site):
                f["call_site"] = int(site, 16)
            else:
                cands = syms.reverse(site)
                if not cands:
                    die("cannot map call_site %s to an address" % site)
                if len(cands) > 1:
                    ambiguous.add(site)
                f["call_site"] = cands[0]
            f["ptr"] = parse_ptr(raw["ptr"])
            if event in ALLOC_EVENTS:
                f["bytes_req"] = parse_int(raw["bytes_req"])
                f["bytes_alloc"] = parse_int(raw["bytes_alloc"])
        except KeyError as e:
            die("record lacks field %s: %s %s" % (e, event, rest))
        if "name" in raw:
            f["name"] = raw["name"]
        if srec is not None and srec[0] == "ev":
            sf = parse_fields(srec[4])
            name = sf.get("call_site")
            if name == "" and name.addr is not None:
                name = "0x%x" % name.addr    # 3.3, no symbol
            printed_names.setdefault(f["call_site"], set()).add(
                None if name is None else str(name))
            if sf.get("ptr") != raw.get("ptr") or srec[3] != event:
                sys.stderr.write("kmem_ref: symbolic and address outputs "
                                 "disagree: %r / %r\n" % (rec, srec))
                bad_symbols += 1
        if event in ALLOC_EVENTS:
            charged, printed = next(acct_iter, (False, False))
            if "accounted" in raw:
                f["_acct"] = ("field", charged)
            elif printed or event in gfp_acct:
                f["_acct"] = ("gfp", charged)
            else:
                f["_acct"] = (None, False)
            st.alloc(cpu, ts, event, f)
        else:
            st.free(cpu, ts, event, f)
        if timeline is not None:
            for cs in st.touched:
                timeline.set(cs, ts, st.callsites[cs]["live_bytes"])
            st.touched = []
            timeline.set("slab", ts, st.live_total)
    if sym_iter is not None and next(sym_iter, None) is not None:
        sys.stderr.write("kmem_ref: symbolic output has more records\n")
        bad_symbols += 1
    for site in sorted(ambiguous):
        sys.stderr.write("kmem_ref: warning: call_site %s is ambiguous; "
                         "took the lowest address\n" % site)
    for addr, printed in printed_names.items():
        mine = syms.names(addr) or ["0x%x" % addr]
        for name in printed:
            if name not in mine:
                sys.stderr.write("kmem_ref: libtraceevent printed %s for "
                                 "0x%x, reference resolves %s\n"
                                 % (name, addr, " or ".join(mine)))
                bad_symbols += 1

    def site_name(addr):
        if raw_ip:
            return ["0x%x" % addr]
        return syms.names(addr) or ["0x%x" % addr]

    if timeline is not None:
        names = {"slab": ("slab", 0, "slab allocator")}
        for addr in st.callsites:
            names[addr] = ("slab_callsite", addr, site_name(addr)[0])
        res = timeline.result(names)
        for addr in st.callsites:
            k = "slab_callsite:" + site_name(addr)[0]
            res["series"][k]["aliases"] = site_name(addr)
        return res, bad_symbols

    s = st.s
    summary = {
        "allocs": s["allocs"],
        "frees": s["frees"],
        "bytes_requested": s["bytes_requested"],
        "bytes_allocated": s["bytes_allocated"],
        "bytes_freed": s["af_bytes"],
        "net_bytes": s["bytes_allocated"] - s["af_bytes"],
        "wasted_bytes": s["bytes_allocated"] - s["bytes_requested"],
        "fragmentation_pct": pct(s["bytes_allocated"] - s["bytes_requested"],
                                 s["bytes_allocated"]),
        "cross_cpu_frees": s["cross_cpu_frees"],
        "alloc_failures": s["alloc_failures"],
        "events_lost": s["events_lost"],
        "alloc_freed": {"count": s["af_count"], "bytes": s["af_bytes"]},
        "alloc_only": {"count": s["allocs"] - s["af_count"],
                       "bytes": s["bytes_allocated"] - s["af_bytes"]},
        "free_only": {"count": s["free_only"]},
        "live": {"count": sum(1 for o in st.state.values() if o),
                 "bytes": sum(o["bytes"] for o in st.state.values() if o)},
        "missed_frees": {"count": s["missed_count"],
                         "bytes": s["missed_bytes"]},
        "double_frees": s["double_frees"],
        "double_frees_doubt": free_doubt(s),
        "null_frees": s["null_frees"],
        "zero_size_allocs": s["zero_size_allocs"],
        "memcg": {"count": s["memcg_allocs"], "bytes": s["memcg_bytes"],
                  "by_accounted_field": s["acct_field"],
                  "by_gfp_account": s["acct_gfp"],
                  "unknown": s["allocs"] - s["acct_field"] - s["acct_gfp"]},
    }
    known = bool(s["acct_field"] or s["acct_gfp"])

    def mean_life(r):
        return r["lifetime"] // r["frees"] if r["frees"] else None

    callsites = []
    for r in st.callsites.values():
        names = site_name(r["address"])
        row = {
            "callsite": names[0],
            "address": "0x%x" % r["address"],
            # the one cache of its allocations, unless unnamed
            "cache": (next(iter(r["caches"])) if len(r["caches"]) == 1
                      and "(unnamed)" not in r["caches"] else None),
            "hits": r["hits"], "failures": r["failures"],
            "bytes_req": r["bytes_req"], "bytes_alloc": r["bytes_alloc"],
            "frees": r["frees"], "pingpong": r["pingpong"],
            "frag_pct": pct(r["bytes_alloc"] - r["bytes_req"],
                            r["bytes_alloc"]),
            "live_count": r["live_count"], "live_bytes": r["live_bytes"],
            "peak_bytes": r["peak_bytes"],
            "memcg_bytes": r["memcg_bytes"] if known else None,
            "mean_lifetime_ns": mean_life(r),
            "_address": r["address"],
        }
        if len(names) > 1:
            row["_callsite_aliases"] = names
        callsites.append(row)

    allocs = []
    for r in st.ptrs.values():
        names = site_name(r["callsite"])
        row = {
            "ptr": "0x%x" % r["ptr"],
            "callsite": names[0],
            "address": "0x%x" % r["callsite"],
            "hits": r["hits"], "bytes_req": r["bytes_req"],
            "bytes_alloc": r["bytes_alloc"], "frees": r["frees"],
            "pingpong": r["pingpong"],
            "frag_pct": pct(r["bytes_alloc"] - r["bytes_req"],
                            r["bytes_alloc"]),
            "live": r["live"], "live_bytes": r["live_bytes"],
            "mean_lifetime_ns": mean_life(r),
            "_ptr": r["ptr"], "_address": r["callsite"],
        }
        if len(names) > 1:
            row["_callsite_aliases"] = names
        allocs.append(row)

    caches = []
    for r in st.caches.values():
        if not any(r[k] for k in ("allocs", "frees", "free_only", "bytes_req",
                                  "bytes_alloc", "live_count",
                                  "live_bytes")):
            continue        # left empty by moves out of "(unnamed)"
        row = dict(r)
        row["frag_pct"] = pct(r["bytes_alloc"] - r["bytes_req"],
                              r["bytes_alloc"])
        row["memcg_bytes"] = r["memcg_bytes"] if known else None
        caches.append(row)

    anomalies = []
    for addr, a in st.anoms.items():
        names = site_name(addr)
        row = {
            "callsite": names[0], "address": "0x%x" % addr,
            "free_only": a["free_only"], "double_frees": a["double_frees"],
            "missed_frees": {"count": a["missed_count"],
                             "bytes": a["missed_bytes"]},
            "_address": addr,
        }
        if len(names) > 1:
            row["_callsite_aliases"] = names
        anomalies.append(row)

    for rows in (callsites, allocs, caches, anomalies):
        for i, row in enumerate(rows):
            row["_seq"] = i         # order of first appearance
    callsites = sort_rows("callsites", callsites, sort_keys)
    allocs = sort_rows("allocs", allocs, sort_keys)
    caches = sort_rows("caches", caches, sort_keys)

    doc = {
        "file": display_path(path),
        "events_lost": s["events_lost"],
        "lost_unknown": s["lost_unknown"],
        "slab": {
            "events": s["events"],
            "complete": not (s["events_lost"] or s["lost_unknown"]),
            "handled_elsewhere": [],
            "summary": summary,
            "callsites": callsites,
            "allocs": allocs,
            "caches": caches,
            "anomalies": anomalies,     # unsorted: compared as a set
        },
    }
    return doc, bad_symbols


def main(argv):
    sort_keys = ["bytes", "hit"]
    raw_ip = False
    check = False
    refree = False
    timeline = None
    extra = []
    files = []
    it = iter(argv)
    for a in it:
        if a == "--sort":
            sort_keys = next(it, "").split(",")
        elif a.startswith("--sort="):
            sort_keys = a[len("--sort="):].split(",")
        elif a == "--raw-ip":
            raw_ip = True
        elif a == "--check-symbols":
            check = True
        elif a == "--refree-free-only":
            refree = True
        elif a.startswith("--timeline="):
            timeline = Recorder(a[len("--timeline="):])
        elif a.startswith("--pid="):
            FILTER["pids"] = {int(x) for x in a[len("--pid="):].split(",")}
        elif a.startswith("--comm="):
            FILTER["comm"] = a[len("--comm="):]
        elif a.startswith("--time="):
            FILTER["start"], FILTER["end"] = \
                parse_time_window(a[len("--time="):])
            FILTER["time"] = True
        elif a.startswith("--report-args="):
            extra += a[len("--report-args="):].split()
            FILTER["cpu"] = FILTER["cpu"] or any(x.startswith("--cpu")
                                                 for x in extra)
        elif a == "--make-edge-trace":
            src, dst = next(it, None), next(it, None)
            if not dst:
                die("--make-edge-trace needs IN.dat OUT.dat")
            try:
                make_edge_trace(src, dst)
            except (RuntimeError, OSError, ValueError) as e:
                die(str(e))
            return 0
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            files.append(a)
    if len(files) != 1:
        die("usage: kmem_ref.py [--sort KEYS] [--raw-ip] [--check-symbols] "
            "[--refree-free-only] FILE.dat")
    for k in sort_keys:
        if k not in SORT_KEYS:
            die("unknown sort key %r" % k)
    try:
        doc, bad = build(files[0], sort_keys, raw_ip, check, refree, extra,
                         timeline)
    except RuntimeError as e:
        die(str(e))
    sys.stdout.write(json.dumps(doc) + "\n")
    return 3 if bad else 0


if __name__ == "__main__":
    import refcache  # noqa: E402  (tests/run.sh's cache of results)
    refcache.main(main, sys.argv[1:])
