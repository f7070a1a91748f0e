#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Where things are in a trace.dat, for tests that damage them on purpose.

    tdat_layout.py FILE                 the layout, as JSON
    tdat_layout.py --poke FILE OUT OFFSET HEX [OFFSET HEX ...]
                                        a copy with bytes overwritten
    tdat_layout.py --truncate FILE OUT N
                                        the first N bytes
    tdat_layout.py --add-option FILE OUT ID HEX
                                        (v7, uncompressed options) a copy
                                        with one more options section
                                        holding option ID, chained from
                                        the last one

Written from trace-cmd.dat(5) (versions 6 and 7), independently of
reader/.  The JSON gives the offsets of the size fields of the header
page, kallsyms and cmdlines parts, of the options, and of each CPU's
data: its pages, or its chunk table (compressed v7).
"""
import json
import struct
import sys


class R:
    def __init__(self, data, big):
        self.d, self.e = data, ">" if big else "<"

    def num(self, at, n):
        return struct.unpack_from(self.e + {2: "H", 4: "I", 8: "Q"}[n], self.d, at)[0]

    def cstr(self, at):
        end = self.d.index(b"\0", at)
        return self.d[at:end].decode("latin-1"), end + 1


def v6_layout(r, at, out):
    assert r.d[at:at + 12] == b"header_page\0"
    out["header_page_size_at"] = at + 12
    at += 12
    at += 8 + r.num(at, 8)
    assert r.d[at:at + 13] == b"header_event\0"
    at += 13
    at += 8 + r.num(at, 8)
    out["ftrace_count_at"] = at
    n = r.num(at, 4)
    at += 4
    for _ in range(n):
        at += 8 + r.num(at, 8)
    out["systems_at"] = at
    n = r.num(at, 4)
    at += 4
    for _ in range(n):
        _, at = r.cstr(at)
        c = r.num(at, 4)
        at += 4
        for _ in range(c):
            at += 8 + r.num(at, 8)
    out["kallsyms_size_at"] = at
    at += 4 + r.num(at, 4)
    out["printk_size_at"] = at
    at += 4 + r.num(at, 4)
    out["cmdlines_size_at"] = at
    at += 8 + r.num(at, 8)
    out["cpus_at"] = at
    cpus = r.num(at, 4)
    at += 4
    out["options"] = []
    if r.d[at:at + 10] == b"options  \0":
        at += 10
        while True:
            oid = r.num(at, 2)
            if oid == 0:
                at += 2
                break
            size = r.num(at + 2, 4)
            out["options"].append({"id": oid, "at": at, "data_at": at + 6, "size": size})
            if oid == 8:
                cpus = r.num(at + 6, 4)
            at += 6 + size
    assert r.d[at:at + 10] == b"flyrecord\0", r.d[at:at + 10]
    at += 10
    out["flyrecord_at"] = at
    for c in range(cpus):
        off, size = r.num(at, 8), r.num(at + 8, 8)
        out["cpus"].append({"buffer": "", "cpu": c, "table_at": at, "offset": off,
                            "size": size, "compressed": False})
        at += 16


def v7_layout(r, at, out):
    name, at = r.cstr(at)
    _, at = r.cstr(at)
    out["compression"] = name
    off = r.num(at, 8)
    out["options_offset_at"] = at
    out["options"] = []
    while off:
        sid, flags = r.num(off, 2), r.num(off + 2, 2)
        assert sid == 0
        out.setdefault("option_sections", []).append({"at": off, "flags": flags})
        if flags & 1:
            break  # compressed options: not followed here
        at = off + 16
        nxt = 0
        while True:
            oid, size = r.num(at, 2), r.num(at + 2, 4)
            out["options"].append({"id": oid, "at": at, "data_at": at + 6, "size": size})
            if oid == 0:
                nxt = r.num(at + 6, 8)
                out["last_done_at"] = at + 6
                break
            if oid == 3:
                buffer_option(r, at + 6, out)
            at += 6 + size
        off = nxt


def buffer_option(r, at, out):
    sec = r.num(at, 8)
    name, p = r.cstr(at + 8)
    _, p = r.cstr(p)
    p += 4
    n = r.num(p, 4)
    p += 4
    flags = r.num(sec + 2, 2)
    for _ in range(n):
        cpu, off, size = r.num(p, 4), r.num(p + 4, 8), r.num(p + 12, 8)
        e = {"buffer": name, "cpu": cpu, "table_at": p, "offset": off, "size": size,
             "compressed": bool(flags & 1)}
        if flags & 1 and size:
            e["chunks"] = []
            c = r.num(off, 4)
            q = off + 4
            for _ in range(c):
                z, u = r.num(q, 4), r.num(q + 4, 4)
                e["chunks"].append({"at": q, "zsize": z, "size": u})
                q += 8 + z
        out["cpus"].append(e)
        p += 20


def layout(data):
    assert data[:10] == b"\x17\x08Dtracing"
    ver, at = R(data, False).cstr(10)
    big = data[at] == 1
    r = R(data, big)
    out = {"version": int(ver), "big": big, "long_size": data[at + 1],
           "page_size": r.num(at + 2, 4), "cpus": []}
    at += 6
    if out["version"] == 6:
        v6_layout(r, at, out)
    else:
        v7_layout(r, at, out)
    return out


def main(argv):
    if argv[1] == "--poke":
        d = bytearray(open(argv[2], "rb").read())
        for off, hx in zip(argv[4::2], argv[5::2]):
            b = bytes.fromhex(hx)
            d[int(off, 0):int(off, 0) + len(b)] = b
        open(argv[3], "wb").write(d)
    elif argv[1] == "--truncate":
        open(argv[3], "wb").write(open(argv[2], "rb").read()[:int(argv[4], 0)])
    elif argv[1] == "--add-option":
        d = bytearray(open(argv[2], "rb").read())
        lay = layout(bytes(d))
        r = R(bytes(d), lay["big"])
        e = r.e
        body = bytes.fromhex(argv[5])
        opts = struct.pack(e + "HI", int(argv[4], 0), len(body)) + body
        opts += struct.pack(e + "HIQ", 0, 8, 0)
        sec = struct.pack(e + "HHIQ", 0, 0, 0, len(opts))
        at = len(d)
        d[lay["last_done_at"]:lay["last_done_at"] + 8] = struct.pack(e + "Q", at)
        d += sec + opts
        open(argv[3], "wb").write(d)
    else:
        json.dump(layout(open(argv[1], "rb").read()), sys.stdout, indent=1)
        print()


if __name__ == "__main__":
    main(sys.argv)
