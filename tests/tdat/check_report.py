#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""check_report.py: does `trace-cmd report -N -R -t` (libtracecmd +
libtraceevent) print exactly the records of a tdat_writer.py ground
truth?

    check_report.py --name CASE TRUTH.json REPORT.txt

REPORT.txt is `trace-cmd report -N -R -t` output, or (better) that of
`trace-cmd report --debug -N -R -t`: then also every record's position
in its ring-buffer page, payload size and header time delta, the page
timestamps ("[SUBBUFFER START]") and the padding / time-extend / time
stamp events between records are compared with what the writer laid out.

For every buffer of the truth (the top-level one and each instance, told
apart by the "NAME:" prefix trace-cmd puts before an instance's lines):
the same number of records, and record by record, in the order the
report prints them, the same CPU, timestamp (nanoseconds, as printed
with -t), event, pid, comm (from the saved cmdlines), every field value
and the lost-events lines ("CPU:N [COUNT EVENTS DROPPED]" or "[EVENTS
DROPPED]" before the record that opens a page with missed events).

-R prints each field through the conversion its print fmt gives it when
the print fmt names the field directly (call_site=%pS as symbol+0xoffset,
%zu decimal, %p hex or "(nil)", "0x%lx" ...), else raw: pointers and
longs in hex, other numbers in decimal, strings as text, arrays as their
declared bytes (ARRAY[..]).  The expected text is derived here from the
truth's value, the event format and the kallsyms (symbol lookup as
libtraceevent does it: the highest symbol at or below the address; past
the last one only its exact address), and compared strictly: a wrong
offset, size, endianness, bitfield layout, time delta, data_loc, page
boundary or commit in the file shows up as a mismatch.

Prints "PASS CASE:report" or "FAIL CASE:report: ..." with details; exit
status 1 on a mismatch.
"""

import bisect
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "ref"))
import listing  # noqa: E402

# The listing of either trace-cmd version (3.1, 3.3): see
# tests/ref/listing.py.
DROP_RE = listing.DROP_RE
LINE_RE = listing.LINE_RE
FIELD_SPLIT_RE = re.compile(r"\s+(?=[A-Za-z_][A-Za-z0-9_]*=)")
CONV_RE = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?"
                     r"(?P<len>hh|h|ll|l|z|j|t|L)?(?P<conv>[diouxXcsp%])")


def parse_ts(ts):
    if "." in ts:
        sec, frac = ts.split(".")
        return int(sec) * 10 ** 9 + int(frac.ljust(9, "0")[:9])
    return int(ts)


# ---------------------------------------------------------------- print fmt

def split_top(text):
    out, depth, cur, q, esc = [], 0, "", False, False
    for ch in text:
        if q:
            cur += ch
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                q = False
            continue
        if ch == '"':
            q = True
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def direct_conversions(print_fmt):
    """{field name: (conversion, length modifier, ext, has_0x)} for the
    fields that the print fmt passes directly (through casts only)."""
    m = re.match(r'^\s*((?:"(?:[^"\\]|\\.)*"\s*)+)(.*)$', print_fmt, re.S)
    if not m:
        return {}
    fmt = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1)))
    rest = m.group(2).strip()
    args = split_top(rest[1:]) if rest.startswith(",") else []
    convs = []
    pos = 0
    for cm in CONV_RE.finditer(fmt):
        if cm.group("conv") == "%":
            continue
        before = fmt[pos:cm.start()]
        pos = cm.end()
        ext = ""
        if cm.group("conv") == "p" and cm.end() < len(fmt) and \
                fmt[cm.end()] in "FfSsMmIiUh":
            ext = fmt[cm.end()]
        if cm.group("width") == "*":
            convs.append(None)
        if cm.group("prec") == "*":
            convs.append(None)
        convs.append((cm.group("conv"), cm.group("len") or "", ext,
                      before.endswith("0x")))
    out = {}
    for c, a in zip(convs, args):
        if c is None:
            continue
        am = re.match(r"^(?:\(\s*[^()]*\)\s*)*REC\s*->\s*([A-Za-z_]\w*)$", a)
        if am and am.group(1) not in out:
            out[am.group(1)] = c
    return out


# ---------------------------------------------------------------- symbols

class Kallsyms:
    def __init__(self, text):
        byaddr = {}
        for line in text.splitlines():
            m = re.match(r"^([0-9a-fA-F]{1,16}) (\S) (\S+)", line)
            if not m:
                continue
            if m.group(3).startswith("$") or m.group(2) in "Aa":
                continue        # libtraceevent skips these
            byaddr.setdefault(int(m.group(1), 16), []).append(m.group(3))
        self.byaddr = byaddr
        self.addrs = sorted(byaddr)

    def names(self, addr, with_off):
        """Every spelling libtraceevent may print for addr (its %pS:
        symbol+0xoffset, %ps: symbol; unknown: the address in hex, of the
        field's size -- "0x%lx" of (long) on a 64-bit host)."""
        i = bisect.bisect_right(self.addrs, addr) - 1
        if i >= 0 and (i < len(self.addrs) - 1 or self.addrs[i] == addr):
            a = self.addrs[i]
            if with_off:
                return ["%s+0x%x" % (n, addr - a) for n in self.byaddr[a]]
            return list(self.byaddr[a])
        return ["0x%x" % addr]


# ---------------------------------------------------------------- values

def bits_of(lenmod, long_size):
    return {"hh": 8, "h": 16, "": 32, "l": 8 * long_size,
            "z": 8 * long_size, "j": 64, "t": 8 * long_size,
            "ll": 64, "L": 64}[lenmod]


class Checker:
    def __init__(self, truth):
        self.t = truth
        self.syms = Kallsyms(truth["kallsyms"])
        self.ls = truth["long_size"]
        self.big = truth["endian"] == "big"
        self.events = truth["events"]
        self.direct = {n: direct_conversions(e["print_fmt"])
                       for n, e in self.events.items()}

    def expect(self, evname, f, value):
        """(kind, expected) for a field: kind "exact" (a list of accepted
        texts), "int" (value, bits, base), "array" (bytes, how many must
        match)."""
        fsize = f["size"]
        ftype = f["type"]
        if f["dynamic"] or f["array"] is not None:
            is_char = re.search(r"char|u8|s8", ftype) is not None
            if is_char and isinstance(value, str):
                return ("exact", [value])
            if f["dynamic"]:
                return ("exact", [value])
            elem = fsize // f["array"] if f["array"] else 1
            vals = value if isinstance(value, list) else [value]
            b = b"".join((v & ((1 << (8 * elem)) - 1)).to_bytes(
                elem, "big" if self.big else "little") for v in vals)
            # only the bytes the record holds are defined
            n = min(len(b), fsize)
            return ("array", (b[:n], fsize))
        conv = self.direct[evname].get(f["name"])
        if conv is not None:
            c, lenmod, ext, _ = conv
            v = value & ((1 << (8 * fsize)) - 1)
            if c == "p" and ext in ("S", "s", "F", "f"):
                return ("sym", (self.syms.names(v, ext in "SF"), v))
            if c == "p":
                # glibc's %p of the field's value; "0x0" when libtraceevent
                # could not parse the print fmt (2.6.32's page_to_pfn())
                # and prints the field raw
                return ("exact", ["(nil)", "0x0"] if v == 0 else ["0x%x" % v])
            if c in "di":
                return ("int", (value, min(8 * fsize,
                                           bits_of(lenmod, self.ls)), 10))
            if c == "u":
                return ("int", (value, min(8 * fsize,
                                           bits_of(lenmod, self.ls)), 10))
            if c in "xX":
                return ("int", (value, min(8 * fsize,
                                           bits_of(lenmod, self.ls)), 16))
            if c == "o":
                return ("int", (value, 8 * fsize, 8))
        # raw
        mask = (1 << (8 * fsize)) - 1
        v = value & mask
        is_long = "long" in ftype
        if "*" in ftype:
            return ("exact", ["0x%x" % v])
        if f["signed"]:
            sv = v - (1 << (8 * fsize)) if v >> (8 * fsize - 1) else v
            if fsize == 4 and is_long:
                return ("exact", ["0x%x" % v])
            if fsize == 2:
                return ("exact", ["%2d" % sv])
            if fsize == 1:
                return ("exact", ["%1d" % sv])
            return ("exact", ["%d" % sv])
        if is_long:
            return ("exact", ["0x%x" % v])
        return ("exact", ["%d" % v])

    def check_value(self, kind, exp, tok):
        if kind == "sym":
            # 3.1: the symbol (or the address in hex when unknown); 3.3:
            # the symbol, then the address: "sym+0xoff (0xaddr)", and
            # "sym (0xaddr)" with an empty symbol when unknown
            names, v = exp
            text, addr = listing.split_value(tok)
            if addr is None:
                return tok in names, " or ".join(repr(x) for x in names)
            unknown = names == ["0x%x" % v]
            ok = addr == v and (text in names or (unknown and text == ""))
            return ok, " or ".join("%r (0x%x)" % (x, v) for x in names)
        if kind == "exact":
            return tok in exp, " or ".join(repr(x) for x in exp)
        if kind == "int":
            value, bits, base = exp
            mask = (1 << bits) - 1
            t = tok.strip()
            try:
                if base == 16:
                    got = int(t[2:] if t.lower().startswith("0x") else t, 16)
                elif base == 8:
                    got = int(t, 8)
                else:
                    got = int(t)
            except ValueError:
                return False, "%d (%d bits)" % (value, bits)
            return (got & mask) == (value & mask), \
                "%d (mod 2^%d)" % (value & mask, bits)
        if kind == "array":
            b, fsize = exp
            m = re.match(r"^ARRAY\[(.*)\]$", tok)
            if not m:
                return False, "ARRAY[...]"
            got = bytes(int(x, 16) for x in m.group(1).split(", ") if x)
            ok = len(got) == fsize and got[:len(b)] == b
            return ok, "ARRAY of %d bytes starting %s" % (
                fsize, ", ".join("%02x" % x for x in b))
        raise ValueError(kind)


SUB_RE = re.compile(r"^CPU:(\d+) \[SUBBUFFER START\](?: \[(\d+):0x([0-9a-f]+)\])?$")
DEBUG_RE = re.compile(r"\s\[(-?\d+):0x([0-9a-f]+):(\d+)\]$")
RAW_RE = re.compile(r"^\s*(PADDING|TIME EXTEND|TIME STAMP): "
                    r"(?:delta|timestamp):(-?\d+) length:(-?\d+)$")


def parse_report(text, instance_names):
    """{buffer name: [("drop", cpu, count|None) | ("sub", cpu, ts) |
    ("rec", match, debug|None, [after items])]}.  An instance's lines
    start with "NAME:"; the line after an instance's DROPPED or SUBBUFFER
    START line is its record, unprefixed; --debug's PADDING / TIME EXTEND
    / TIME STAMP lines belong to the record before them."""
    names = sorted(instance_names, key=len, reverse=True)
    out = {}
    pending = None
    last = None
    bad = []
    for line in text.splitlines():
        if line.startswith("cpus=") or line.startswith("version = ") or \
                not line.strip():
            continue
        rm = RAW_RE.match(line)
        if rm:
            if last is None:
                bad.append(line)
            else:
                last[3].append([rm.group(1), int(rm.group(2)),
                                int(rm.group(3))])
            continue
        buf = ""
        body = line
        for n in names:
            if line.startswith(n + ":"):
                buf = n
                body = line[len(n) + 1:]
                break
        else:
            if pending is not None:
                buf = pending
        pending = None
        st = body.strip()
        dm = DROP_RE.match(st)
        if dm:
            out.setdefault(buf, []).append(
                ("drop", int(dm.group(1)),
                 int(dm.group(2)) if dm.group(2) else None))
            pending = buf
            continue
        sm = SUB_RE.match(st)
        if sm:
            out.setdefault(buf, []).append(
                ("sub", int(sm.group(1)),
                 int(sm.group(2)) if sm.group(2) else None))
            pending = buf
            continue
        dbg = None
        dd = DEBUG_RE.search(body)
        if dd:
            dbg = (int(dd.group(1)), int(dd.group(2), 16), int(dd.group(3)))
            body = body[:dd.start()]
        m = LINE_RE.match(body)
        if not m:
            bad.append(line)
            continue
        last = ("rec", m, dbg, [])
        out.setdefault(buf, []).append(last)
    return out, bad


def main(argv):
    name = "report"
    args = []
    it = iter(argv)
    for a in it:
        if a == "--name":
            name = next(it)
        else:
            args.append(a)
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    with open(args[0]) as f:
        truth = json.load(f)
    with open(args[1], errors="replace") as f:
        text = f.read()
    ck = Checker(truth)
    inst = [b["name"] for b in truth["buffers"] if b["name"]]
    got, bad = parse_report(text, inst)
    problems = []
    for line in bad[:5]:
        problems.append("unparsed line: %r" % line[:200])
    if bad:
        problems.append("%d line(s) not understood" % len(bad))
    nrec = 0
    nlay = 0
    for b in truth["buffers"]:
        bn = b["name"]
        label = "buffer %s" % (bn or "(top)")
        items = got.pop(bn, [])
        recs = [x for x in items if x[0] == "rec"]
        want = b["records"]
        nrec += len(want)
        if len(recs) != len(want):
            problems.append("%s: %d records printed, %d written"
                            % (label, len(recs), len(want)))
        drop = None
        sub = None
        i = 0
        for item in items:
            if item[0] == "drop":
                drop = item
                continue
            if item[0] == "sub":
                sub = item
                continue
            m = item[1]
            if i >= len(want):
                break
            w = want[i]
            i += 1
            where = "%s record %d (cpu %d, ts %d, %s)" % (
                label, i - 1, w["cpu"], w["ts"], w["event"])
            lost = w.get("lost_before")
            if lost is not None:
                if drop is None:
                    problems.append("%s: no EVENTS DROPPED line before it "
                                    "(lost %d)" % (where, lost))
                elif drop[1] != w["cpu"] or drop[2] != (None if lost < 0
                                                        else lost):
                    problems.append("%s: drop line CPU:%d count %s, written "
                                    "CPU:%d count %s" % (
                                        where, drop[1], drop[2], w["cpu"],
                                        "unknown" if lost < 0 else lost))
            elif drop is not None:
                problems.append("%s: unexpected EVENTS DROPPED line (CPU:%d "
                                "%s)" % (where, drop[1], drop[2]))
            drop = None
            lay = w.get("layout")
            if item[2] is not None and lay is not None:
                nlay += 1
                delta, off, size = item[2]
                if (off, size, delta) != (lay["off"], lay["size"],
                                          lay["delta"]):
                    problems.append("%s: at page offset 0x%x, %d bytes, "
                                    "delta %d; written at 0x%x, %d bytes, "
                                    "delta %d" % (where, off, size, delta,
                                                  lay["off"], lay["size"],
                                                  lay["delta"]))
                if item[3] != lay["after"]:
                    problems.append("%s: followed by %s, written %s"
                                    % (where, item[3], lay["after"]))
                if ("page_ts" in lay) != (sub is not None):
                    problems.append("%s: %s a page, written %s" % (
                        where, "starts" if sub is not None else
                        "does not start",
                        "first on its page" if "page_ts" in lay else
                        "inside a page"))
                elif sub is not None and sub[2] is not None and \
                        sub[2] != lay["page_ts"]:
                    problems.append("%s: page timestamp %d, written %d"
                                    % (where, sub[2], lay["page_ts"]))
            sub = None
            if int(m.group("cpu")) != w["cpu"]:
                problems.append("%s: printed cpu %s" % (where,
                                                         m.group("cpu")))
            if parse_ts(m.group("ts")) != w["ts"]:
                problems.append("%s: printed ts %s" % (where, m.group("ts")))
            if m.group("event") != w["event"]:
                problems.append("%s: printed event %s" % (where,
                                                           m.group("event")))
                continue
            if int(m.group("pid")) != w["pid"]:
                problems.append("%s: printed pid %s, written %d"
                                % (where, m.group("pid"), w["pid"]))
            if m.group("comm").strip() != w["comm"]:
                problems.append("%s: printed comm %r, written %r"
                                % (where, m.group("comm").strip(), w["comm"]))
            ev = truth["events"][w["event"]]
            toks = {}
            for tok in FIELD_SPLIT_RE.split(m.group("rest").strip()):
                k, sep, v = tok.partition("=")
                if sep:
                    toks[k] = v
            fields = [f for f in ev["fields"]
                      if not f["name"].startswith("common_")]
            if sorted(toks) != sorted(f["name"] for f in fields):
                problems.append("%s: printed fields %s, format has %s"
                                % (where, sorted(toks),
                                   sorted(f["name"] for f in fields)))
            for f in fields:
                if f["name"] not in toks:
                    continue
                kind, exp = ck.expect(w["event"], f, w["fields"][f["name"]])
                ok, desc = ck.check_value(kind, exp, toks[f["name"]])
                if not ok:
                    problems.append("%s: %s=%s, expected %s"
                                    % (where, f["name"],
                                       toks[f["name"]][:120], desc[:200]))
        if drop is not None:
            problems.append("%s: EVENTS DROPPED line after the last record"
                            % label)
    for bn, items in got.items():
        problems.append("records of an unknown buffer %r: %d" % (bn,
                                                                len(items)))
    if problems:
        print("FAIL %s:report: %d problem(s): %s" % (name, len(problems),
                                                     problems[0]))
        for p in problems[:25]:
            print("    " + p)
        return 1
    print("PASS %s:report (%d records, %d buffer(s), %s)"
          % (name, nrec, len(truth["buffers"]),
             "page layout of every record checked" if nlay == nrec else
             "page layout of %d records checked" % nlay))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
