#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""check_callsites.py: are trace-kmem's call sites ones the trace holds?

    check_callsites.py --name NAME TRUTH.json DOC.json

A check against the writer's ground truth, independent of the
references (which could share a decoding mistake with trace-kmem):

- page allocator: every call site row and every page row names a
  return address (symbol+0xoffset, at that address) that some
  kernel_stack record of the truth has among its frames (the first
  "size" ones; 2.6.32: up to the all-ones word), or is "(no stack)";
- slab allocator: every call site row's address is a call_site value
  some allocation record of the truth carries.

A frame or call site decoded with the wrong size or byte order gives an
address no record has (for instance 0x81018554 for 0xffffffff81018554
when 8-byte frames are read as 4-byte ones).  Prints one PASS or FAIL
line per section present; exit status 1 on a FAIL.
"""

import bisect
import json
import re
import sys

SLAB_ALLOC = {"kmalloc", "kmalloc_node", "kmem_cache_alloc",
              "kmem_cache_alloc_node"}


def main(argv):
    name = "callsites"
    args = []
    it = iter(argv)
    for a in it:
        if a == "--name":
            name = next(it)
        else:
            args.append(a)
    truth = json.load(open(args[0]))
    doc = json.load(open(args[1]))
    syms = {}
    for line in truth["kallsyms"].splitlines():
        m = re.match(r"^([0-9a-fA-F]+) (\S) (\S+)", line)
        if m and m.group(2) not in "Aa" and not m.group(3).startswith("$"):
            syms.setdefault(int(m.group(1), 16), []).append(m.group(3))
    addrs = sorted(syms)

    def func(a):
        i = bisect.bisect_right(addrs, a) - 1
        if i < 0 or (i == len(addrs) - 1 and addrs[i] != a):
            return None
        return addrs[i]

    frames = set()
    sites = set()
    for b in truth["buffers"]:
        for r in b["records"]:
            f = r["fields"]
            if r["event"] == "kernel_stack":
                calls = f.get("caller", [])
                n = f.get("size", len(calls))
                size = next(x["size"] for x in truth["events"]["kernel_stack"]
                            ["fields"] if x["name"] == "caller")
                arr = next(x["array"] for x in truth["events"]["kernel_stack"]
                           ["fields"] if x["name"] == "caller")
                allones = (1 << (8 * (size // arr))) - 1
                for a in calls[:n]:
                    if a == allones:
                        break
                    fa = func(a)
                    if fa is not None:
                        for nm in syms[fa]:
                            frames.add(("%s+0x%x" % (nm, a - fa), a))
            elif r["event"] in SLAB_ALLOC:
                sites.add(f["call_site"])
    rc = 0
    page = doc.get("page")
    if page is not None:
        bad = []
        for table in ("callsites", "pages"):
            for row in page.get(table, []):
                cs = row.get("callsite")
                if cs == "(no stack)":
                    continue
                addr = row.get("address")
                try:
                    a = int(addr, 16) if addr is not None else None
                except ValueError:
                    a = None
                if a is None and table == "pages":
                    # page rows name the call site only
                    if not any(nm == cs for nm, _ in frames):
                        bad.append("%s row %s: call site %s is in no stack"
                                   % (table, row.get("pfn"), cs))
                    continue
                if (cs, a) not in frames:
                    bad.append("%s row: call site %s at %s is no function of "
                               "a written stack frame" % (table, cs, addr))
        if bad:
            print("FAIL %s:page-callsites-in-stacks: %d row(s): %s"
                  % (name, len(bad), bad[0]))
            for b in bad[:10]:
                print("    " + b)
            rc = 1
        else:
            print("PASS %s:page-callsites-in-stacks" % name)
    slab = doc.get("slab")
    if slab is not None:
        bad = []
        for row in slab.get("callsites", []):
            try:
                a = int(row.get("address", ""), 16)
            except ValueError:
                a = None
            if a not in sites:
                bad.append("call site %s (%s) is no written call_site"
                           % (row.get("callsite"), row.get("address")))
        if bad:
            print("FAIL %s:slab-callsites-written: %d row(s): %s"
                  % (name, len(bad), bad[0]))
            rc = 1
        else:
            print("PASS %s:slab-callsites-written" % name)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
