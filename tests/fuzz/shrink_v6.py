#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""shrink_v6.py: make a small fuzzing seed of a version 6 trace.dat.

    shrink_v6.py IN.dat OUT.dat [--kallsyms LINES] [--systems SYS,...]

A real recording carries thousands of event formats and megabytes of
kallsyms, which make it a slow fuzzing input.  This keeps the file's
structure and its ring-buffer data byte for byte, but only the event
systems named (default: kmem; the ftrace formats are all kept), and
about LINES lines of kallsyms (default 400: the first ones and a sample
of the rest, in their order).  Everything from the CPU count on (the
options, the flyrecord tables, the data) moves down by a whole number of
pages, and every file offset in it is corrected; kallsyms is padded with
newlines (empty lines, which every reader skips) to make up the rest.

Input: an uncompressed version 6 file (trace-cmd convert --file-version
6 --compression none).  Python 3, standard library only.
"""

import argparse
import struct
import sys

MAGIC = b"\x17\x08\x44tracing"


class Reader:
    def __init__(self, data, big):
        self.d = data
        self.pos = 0
        self.e = ">" if big else "<"

    def take(self, n):
        if self.pos + n > len(self.d):
            raise ValueError("truncated at %d" % self.pos)
        b = self.d[self.pos:self.pos + n]
        self.pos += n
        return b

    def num(self, n):
        return struct.unpack(self.e + {2: "H", 4: "I", 8: "Q"}[n],
                             self.take(n))[0]

    def cstr(self):
        end = self.d.index(b"\0", self.pos)
        s = self.d[self.pos:end]
        self.pos = end + 1
        return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--kallsyms", type=int, default=400)
    ap.add_argument("--systems", default="kmem")
    a = ap.parse_args()
    keep = set(a.systems.encode().split(b","))

    d = open(a.input, "rb").read()
    if d[:10] != MAGIC:
        sys.exit("shrink_v6: %s: not a trace.dat" % a.input)
    r = Reader(d, False)
    r.take(10)
    if r.cstr() != b"6":
        sys.exit("shrink_v6: %s: not version 6" % a.input)
    big = r.take(1)[0] == 1
    r.take(1)
    r.e = ">" if big else "<"
    page_size = r.num(4)
    e = r.e
    out = bytearray(d[:r.pos])

    def u(fmt, v):
        return struct.pack(e + fmt, v)

    for tag in (b"header_page\0", b"header_event\0"):
        if r.take(len(tag)) != tag:
            sys.exit("shrink_v6: no %r" % tag)
        n = r.num(8)
        out += tag + u("Q", n) + r.take(n)
    # ftrace formats: all
    count = r.num(4)
    out += u("I", count)
    for _ in range(count):
        n = r.num(8)
        out += u("Q", n) + r.take(n)
    # event systems: the ones kept
    systems = []
    for _ in range(r.num(4)):
        name = r.cstr()
        fmts = []
        for _ in range(r.num(4)):
            n = r.num(8)
            fmts.append(r.take(n))
        if name in keep:
            systems.append((name, fmts))
    out += u("I", len(systems))
    for name, fmts in systems:
        out += name + b"\0" + u("I", len(fmts))
        for f in fmts:
            out += u("Q", len(f)) + f
    # kallsyms: a sample
    ks = r.take(r.num(4)).split(b"\n")
    if len(ks) > a.kallsyms:
        head = ks[:a.kallsyms // 4]
        rest = ks[a.kallsyms // 4:]
        step = max(1, len(rest) // (a.kallsyms - len(head)))
        ks = head + rest[::step]
    kallsyms = b"\n".join(ks).rstrip(b"\n") + b"\n"
    ks_at = len(out)
    out += u("I", 0) + kallsyms
    printk = r.take(r.num(4))
    cmdlines = r.take(r.num(8))
    tail = u("I", len(printk)) + printk + u("Q", len(cmdlines)) + cmdlines
    p_old = r.pos		# the CPU count
    p_new = len(out) + len(tail)
    shift = (p_old - p_new) // page_size * page_size
    pad = p_old - shift - p_new
    out += b"\n" * pad + tail
    out[ks_at:ks_at + 4] = u("I", len(kallsyms) + pad)
    assert len(out) == p_old - shift

    rest = bytearray(d[p_old:])

    def fix(at):		# an absolute offset at rest[at:at + 8]
        v = struct.unpack(e + "Q", rest[at:at + 8])[0]
        if v >= p_old:
            rest[at:at + 8] = u("Q", v - shift)
        return v

    cpus = struct.unpack(e + "I", rest[:4])[0]
    pos = 4
    instances = []
    if rest[pos:pos + 10] == b"options  \0":
        pos += 10
        while True:
            oid = struct.unpack(e + "H", rest[pos:pos + 2])[0]
            pos += 2
            if oid == 0:
                break
            size = struct.unpack(e + "I", rest[pos:pos + 4])[0]
            pos += 4
            if oid == 3:	# BUFFER: offset, name
                instances.append(fix(pos) - p_old)
            pos += size

    def flyrecord(at):
        if rest[at:at + 10] != b"flyrecord\0":
            return
        at += 10
        for _ in range(cpus):
            fix(at)
            at += 16

    flyrecord(pos)
    for at in instances:
        flyrecord(at)
    open(a.output, "wb").write(bytes(out) + bytes(rest))


if __name__ == "__main__":
    main()
