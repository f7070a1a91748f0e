#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Damaged copies of trace.dat files, seeded and reproducible.

    mutate.py SEED COUNT OUTDIR FILE...

writes OUTDIR/NNNN-KIND.dat, COUNT files in all, round robin over the
FILEs, each with one kind of damage drawn by random.Random(SEED):

  flip       1 to 8 random bits flipped anywhere
  run        a run of 1 to 64 bytes set to 0x00, 0xff or random bytes
  truncate   the file cut at a random length
  header     a byte of the initial header (version, endianness, long
             size, page size) changed
  format     a number in an event format text ("offset:", "size:",
             "ID:") replaced by another (0, 1, huge, negative)
  sizes      a size, count or offset field (header page size, kallsyms
             and cmdlines sizes, CPU data offsets and sizes, chunk sizes)
             set to 0, to a huge value, or off by a little
  page       a ring-buffer page's commit word, or one of its event
             header words, changed

The layout comes from tests/lib/tdat_layout.py.  A line per file on
stdout: its name, the kind, and what was changed (to reproduce by hand).
"""
import os
import random
import re
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tdat_layout  # noqa: E402

SPECIAL = [0, 1, 2, 3, 4, 7, 8, 0x7f, 0x80, 0xff, 0xffff, 0x7fffffff, 0x80000000,
           0xffffffff, 0xfffffffc, 0x7fffffffffffffff, 0xffffffffffffffff]


def put(d, at, size, v, big):
    if 0 <= at and at + size <= len(d):
        d[at:at + size] = (v & ((1 << (8 * size)) - 1)).to_bytes(size, "big" if big else "little")


def number_fields(lay):
    """(offset, size) of the size/count/offset fields the layout knows."""
    out = []
    for k, n in (("header_page_size_at", 8), ("kallsyms_size_at", 4), ("printk_size_at", 4),
                 ("cmdlines_size_at", 8), ("cpus_at", 4), ("options_offset_at", 8),
                 ("ftrace_count_at", 4), ("systems_at", 4), ("last_done_at", 8)):
        if k in lay:
            out.append((lay[k], n))
    for o in lay.get("options", []):
        out.append((o["at"] + 2, 4))
    for c in lay["cpus"]:
        out.append((c["table_at"] + (4 if lay["version"] == 7 else 0), 8))
        out.append((c["table_at"] + (12 if lay["version"] == 7 else 8), 8))
        for ch in c.get("chunks", [])[:4]:
            out.append((ch["at"], 4))
            out.append((ch["at"] + 4, 4))
    return out


def pages(lay):
    ps = lay["page_size"]
    out = []
    for c in lay["cpus"]:
        if c["compressed"] or not c["size"]:
            continue
        for off in range(c["offset"], c["offset"] + c["size"], ps):
            out.append(off)
    return out


def mutate(rng, data, kind, lay):
    d = bytearray(data)
    big = lay["big"] if lay else False
    n = len(d)
    if kind == "flip":
        what = []
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(n)
            bit = rng.randrange(8)
            d[at] ^= 1 << bit
            what.append("%d.%d" % (at, bit))
        return d, "bits " + ",".join(what)
    if kind == "run":
        at = rng.randrange(n)
        ln = rng.randint(1, 64)
        fill = rng.choice([b"\0", b"\xff", None])
        b = bytes(rng.randrange(256) for _ in range(ln)) if fill is None else fill * ln
        d[at:at + ln] = b[:max(0, n - at)]
        return d, "run at %d of %d" % (at, ln)
    if kind == "truncate":
        at = rng.randrange(n)
        return d[:at], "cut at %d" % at
    if kind == "header":
        at = rng.randrange(10, min(n, 24))
        d[at] = rng.choice([0, 1, 2, 4, 8, 0x7f, 0xff, rng.randrange(256)])
        return d, "header byte %d = %d" % (at, d[at])
    if kind == "format":
        txt = bytes(d)
        spots = [m for m in re.finditer(rb"(offset:|size:|ID: )(\d+)", txt)]
        if not spots:
            return mutate(rng, data, "flip", lay)
        m = rng.choice(spots)
        num = m.group(2)
        new = rng.choice([b"0", b"1", b"9" * len(num), str(rng.randrange(10 ** len(num))).encode()])
        new = new[:len(num)].rjust(len(num), b"0")
        d[m.start(2):m.end(2)] = new
        return d, "format %s%s -> %s at %d" % (m.group(1).decode(), num.decode(), new.decode(), m.start(2))
    if kind == "sizes":
        fields = number_fields(lay) if lay else []
        if not fields:
            return mutate(rng, data, "flip", lay)
        at, size = rng.choice(fields)
        old = int.from_bytes(d[at:at + size], "big" if big else "little") if at + size <= n else 0
        v = rng.choice(SPECIAL + [old + rng.randint(-16, 16), old * 2, old // 2])
        put(d, at, size, v, big)
        return d, "field at %d (%d bytes) %d -> %d" % (at, size, old, v)
    if kind == "page":
        pg = pages(lay) if lay else []
        if not pg:
            return mutate(rng, data, "sizes", lay)
        p = rng.choice(pg)
        ls = lay.get("long_size", 8)
        if rng.random() < 0.5:
            v = rng.choice(SPECIAL + [rng.randrange(1 << 27), rng.randrange(1 << 32)])
            put(d, p + 8, 8 if ls == 8 else 4, v, big)
            return d, "commit of page %d -> %#x" % (p, v)
        at = p + 16 + 4 * rng.randrange(16)
        v = rng.choice(SPECIAL + [rng.randrange(1 << 32)])
        put(d, at, 4, v, big)
        return d, "event word at %d -> %#x" % (at, v)
    raise ValueError(kind)


KINDS = ["flip", "run", "truncate", "header", "format", "sizes", "page"]


def main(argv):
    seed, count, outdir, files = int(argv[1]), int(argv[2]), argv[3], argv[4:]
    rng = random.Random(seed)
    os.makedirs(outdir, exist_ok=True)
    seeds = []
    for f in files:
        data = open(f, "rb").read()
        try:
            lay = tdat_layout.layout(data)
        except Exception:
            lay = None
        seeds.append((f, data, lay))
    for i in range(count):
        f, data, lay = seeds[i % len(seeds)]
        kind = KINDS[rng.randrange(len(KINDS))]
        d, what = mutate(rng, data, kind, lay)
        name = "%04d-%s.dat" % (i, kind)
        open(os.path.join(outdir, name), "wb").write(d)
        print("%s %s %s: %s" % (name, kind, os.path.basename(f), what))


if __name__ == "__main__":
    main(sys.argv)
