#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""pprof_vs_json.py: a pprof profile, as go tool pprof reads it, against
the JSON report of the same run (tests/e2e/pprof.sh).

    pprof_vs_json.py raw PROFILE.raw REPORT.json [LABEL=VALUE...]
    pprof_vs_json.py top TOP.txt REPORT.json TYPE [ALLOCATOR]

raw: PROFILE.raw is `go tool pprof -raw` output.  Each allocator's
samples are, one for one, its call-site rows of the JSON (address,
sym+0xoff, hits, bytes, live count and bytes, a slab row's bytes beyond
those requested, and a page row's order, migratetype and gfp as labels);
or, where the profile says "ALLOC: samples by kernel stack", stacks
whose leaves add up, per call site, to the JSON rows and whose values add
up to the allocator's summary.  Every sample carries the LABEL=VALUE
labels given.

top: TOP.txt is `go tool pprof -top -unit=B -nodecount=100000
-nodefraction=0 -sample_index=TYPE [-tagfocus=allocator=ALLOCATOR]`
output: the total it shows and each function's flat value equal the sums of the
JSON's call-site rows (of ALLOCATOR) by function.

Exit 0 when everything matches, else 1 with the first difference.
"""
import collections
import json
import re
import sys

LOC = re.compile(r"^\s*(\d+): (0x[0-9a-f]+) M=\d+ (.*) :(\d+)(?::\d+)? s=\d+$")
SAMPLE = re.compile(r"^\s*((?:-?\d+\s+){4}-?\d+): ([\d ]*)$")
LABEL = re.compile(r"(\w[\w.-]*):\[([^\]]*)\]")
TYPES = ["alloc_objects", "alloc_space", "inuse_objects", "inuse_space",
         "wasted_space"]


def parse_raw(path):
    """(comments, samples, locations) of go tool pprof -raw output."""
    comments, samples, locs = [], [], {}
    part = None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("Comment: "):
            comments.append(line[len("Comment: "):])
        elif line in ("Samples:", "Locations", "Mappings"):
            part = line
        elif part == "Samples:" and SAMPLE.match(line):
            m = SAMPLE.match(line)
            samples.append({"v": [int(x) for x in m.group(1).split()],
                            "locs": [int(x) for x in m.group(2).split()],
                            "labels": {}})
        elif part == "Samples:" and samples and line.startswith("     "):
            for k, v in LABEL.findall(line):
                samples[-1]["labels"][k] = v
        elif part == "Locations" and LOC.match(line):
            m = LOC.match(line)
            locs[int(m.group(1))] = (int(m.group(2), 16), m.group(3),
                                     int(m.group(4)))
    return comments, samples, locs


def site_name(loc):
    addr, fn, line = loc
    return "%s+0x%x" % (fn, line) if line else fn


def fail(msg):
    print(msg, file=sys.stderr)
    sys.exit(1)


def rows_of(doc, alloc):
    return (doc.get(alloc) or {}).get("callsites") or []


def summary_totals(doc, alloc):
    s = doc[alloc]["summary"]
    live = s.get("live") or {}
    if alloc == "slab":
        return [s["allocs"] - (s.get("zero_size_allocs") or 0),
                s["bytes_allocated"], live.get("count", 0),
                live.get("bytes", 0), 0]
    return [s["allocs"], s["alloc_bytes"], live.get("count", 0),
            live.get("bytes", 0), 0]


def row_values(row):
    space = row["bytes_alloc"] if "bytes_alloc" in row else row["bytes"]
    wasted = 0
    if "bytes_req" in row and (space or 0) > (row["bytes_req"] or 0):
        wasted = space - row["bytes_req"]
    return [row["hits"] or 0, space or 0, row["live_count"] or 0,
            row["live_bytes"] or 0, wasted]


def check_raw(raw, doc_path, want_labels):
    comments, samples, locs = parse_raw(raw)
    doc = json.load(open(doc_path))
    docs = doc["inputs"] if "inputs" in doc else [doc]
    several = len(docs) > 1
    by_trace = collections.defaultdict(list)
    for s in samples:
        for k, v in want_labels.items():
            if s["labels"].get(k) != v:
                fail("sample without %s=%s: %s" % (k, v, s))
        by_trace[s["labels"].get("trace") if several else None].append(s)
    for d in docs:
        key = d["file"] if several else None
        if "trace: %s" % d["file"] not in comments:
            fail("no comment 'trace: %s' in %s" % (d["file"], comments))
        for what in ("events_lost", "lost_unknown", "undecodable"):
            if d.get(what):
                c = "%s: %s: %d" % (d["file"], what, d[what])
                if c not in comments:
                    fail("no comment %r" % c)
        for what, n in (d.get("input") or {}).items():
            if n and "%s: %s: %d" % (d["file"], what, n) not in comments:
                fail("no comment for %s: %s" % (what, n))
        mine = by_trace[key]
        for alloc in ("slab", "page", "percpu", "vmalloc"):
            got = [s for s in mine if s["labels"]["allocator"] == alloc]
            rows = rows_of(d, alloc)
            stacks = "%s: %s: samples by kernel stack" % (d["file"], alloc) \
                in comments
            if stacks:
                check_stacks(got, locs, rows, d, alloc)
                continue
            want = collections.Counter()
            for r in rows:
                lab = tuple((k, str(r[k])) for k in ("order", "migratetype", "gfp")
                            if r.get(k) is not None)
                want[(int(r["address"], 16), r["callsite"],
                      tuple(row_values(r)), lab)] += 1
            have = collections.Counter()
            for s in got:
                if len(s["locs"]) != 1:
                    fail("a call-site sample of %s with a stack: %s" % (alloc, s))
                loc = locs[s["locs"][0]]
                lab = tuple((k, s["labels"][k]) for k in ("order", "migratetype", "gfp")
                            if k in s["labels"])
                have[(loc[0], site_name(loc), tuple(s["v"]), lab)] += 1
            if have != want:
                fail("%s %s: samples differ from the call-site rows:\n"
                     "  only in the profile: %s\n  only in the JSON: %s" %
                     (d["file"], alloc, list((have - want).items())[:3],
                      list((want - have).items())[:3]))
    return len(samples)


def check_stacks(got, locs, rows, doc, alloc):
    tot = [0] * 5
    leaves = collections.Counter()
    for s in got:
        tot = [a + b for a, b in zip(tot, s["v"])]
        leaves[site_name(locs[s["locs"][0]])] += s["v"][0]
    want = summary_totals(doc, alloc)
    if tot != want:
        fail("%s %s: stack totals %s, summary %s" % (doc["file"], alloc, tot, want))
    by_site = collections.Counter()
    for r in rows:
        by_site[r["callsite"]] += r["hits"]
    if +leaves != +by_site:
        fail("%s %s: allocations by leaf %s != by call site %s" %
             (doc["file"], alloc, list((leaves - by_site).items())[:3],
              list((by_site - leaves).items())[:3]))


def check_top(top, doc_path, typ, alloc):
    doc = json.load(open(doc_path))
    docs = doc["inputs"] if "inputs" in doc else [doc]
    i = TYPES.index(typ)
    want = collections.Counter()
    comments = set(l.rstrip("\n") for l in open(top))  # -top: as they are
    for d in docs:
        for a in ("slab", "page", "percpu", "vmalloc"):
            if alloc and a != alloc:
                continue
            stacks = "%s: %s: samples by kernel stack" % (d["file"], a)
            if typ == "wasted_space" and stacks in comments:
                continue    # a stack has no bytes requested
            for r in rows_of(d, a):
                want[r["callsite"].split("+0x")[0]] += row_values(r)[i]
    total = None
    have = collections.Counter()
    for line in open(top):
        # what the focus kept (all of it is shown: -nodefraction=0)
        m = re.search(r"Showing nodes accounting for (\d+)B?,", line)
        if m:
            total = int(m.group(1))
        pct = r"[-\d.e+]+%"
        m = re.match(r"^\s*(\d+)B?\s+%s\s+%s\s+\d+B?\s+%s\s+(.*)$" % (pct, pct, pct), line)
        if m:
            have[m.group(2).strip()] += int(m.group(1))
    wsum = sum(want.values())
    if (total or 0) != wsum and not (total is None and wsum == 0):
        fail("%s: total %s, JSON %d" % (typ, total, wsum))
    if +have != +want:
        fail("%s: by function: only in pprof %s, only in JSON %s" %
             (typ, list((have - want).items())[:3],
              list((want - have).items())[:3]))


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "raw":
        labels = dict(a.split("=", 1) for a in sys.argv[4:])
        check_raw(sys.argv[2], sys.argv[3], labels)
    elif len(sys.argv) in (5, 6) and sys.argv[1] == "top":
        check_top(sys.argv[2], sys.argv[3], sys.argv[4],
                  sys.argv[5] if len(sys.argv) == 6 else None)
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
