#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Independent reference implementation of the kmem page allocator
statistics.

Written from Documentation/kmem-stat-definitions.txt ("Page allocator")
and Documentation/kmem-json.txt ("The page allocator section") only, not
from lib/ or plugin/, so that tests/e2e/page_numbers.sh catches bugs in
the C code.  Python 3, standard library only.

    kmem_page_ref.py [--skip REGEX] FILE.dat > REF.json
        prints the document the plugin would write for FILE.dat with
        the default options ("page" section only), plus members starting
        with "_" that the comparison needs (raw values, order of first
        appearance, the stack gaps seen); exit status 3 if the
        reference's own decoding disagrees with the listing.
    kmem_page_ref.py [--skip REGEX] [--save REF.json] [--name NAME]
                     FILE.dat --case CASE PLUGIN.json KEYS LIVE SKIP ...
    kmem_page_ref.py --ref REF.json --case CASE PLUGIN.json KEYS LIVE "" ...
        compares plugin documents with the reference (computed from
        FILE.dat, or read from REF.json): PLUGIN.json was written with
        -O kmem:sort=KEYS (KEYS "" for the default), -O kmem:live if
        LIVE is 1, and -O kmem:skip=SKIP unless SKIP is "".  Checked: the top members, every summary member,
        every order x migration type cell, every call site row (by
        key), every page row (by pfn), every extfrag row, and the order
        of the call site and page arrays by the documented sort rules.
        Prints "PASS CASE:check" / "FAIL CASE:check: reason" lines
        (details indented below a FAIL; "FAIL NAME:reference-self-check"
        if the reference disagrees with the listing) and exits 1 if
        anything failed.

How the trace is read
---------------------
- Record order: `trace-cmd report -N -t` (no plugins, full timestamps),
  the order in which trace-cmd prints records and so the order the
  plugin sees them.  Lost-event markers ("CPU:N [N EVENTS DROPPED]")
  come from the same listing.
- Field values, record boundaries and complete stacks: the file is
  converted to format version 6 (uncompressed, `trace-cmd convert`) and
  every CPU's ring buffer pages are parsed here (page header, 32-bit
  event headers with type_len/time_delta, time extends, padding), with
  the field offsets and sizes of the trace's own event formats
  (`trace-cmd dump --events / --ftrace-events`).  libtraceevent prints a
  kernel_stack record through its print fmt, which names only the first
  8 frames (caller[8]); the record holds `size` frames.
- The i-th listed record of a CPU is the i-th data record in that CPU's
  buffer; the event names, pfn, order, migratetype and the frames that
  the listing shows are checked against the binary decoding (a mismatch
  is a reference failure, exit status 3).
- "Directly follows in the same CPU's buffer": the next data record of
  that CPU's buffer (time extends and padding are not records) is a
  kernel_stack record, and the bytes between the end of the allocation's
  data and the start of the kernel_stack's data (its event header, the
  length word of a long record, time extends, padding) are at most 16;
  or the kernel_stack record starts the next page of the buffer (its data
  at most 32 bytes into that page: the page header and its own headers).
  (Not modelled: a kernel_stack after lost events; the page samples lose
  none, and tests/unit/test_page.c checks that case.)
  The gaps seen in the sample traces are reported with --gaps.
- GFP flag names: the __print_flags table of mm_page_alloc's print fmt,
  its values evaluated here (a small C expression evaluator), applied
  as libtraceevent's __print_flags does (table order, each flag whose
  bits are all set is named and cleared, a remainder as 0x...).  A value
  of 0 is named by the print fmt's own "(REC->gfp_flags) ? ... : "none""
  when it has one.  Every name is checked against the listing.
- Migration type numbering: new (since 4.4: 1 Movable, 2 Reclaimable)
  if the GFP table names the value 0x10 __GFP_RECLAIMABLE, else old
  (1 Reclaimable, 2 Movable).  Types 3 and up are "Special" (negative
  numbers too: the documentation does not name them).
- The pageblock order of mm_page_alloc_extfrag: the argument that the
  print fmt prints as "pageblock_order=%d", evaluated here.  A fallback
  is fragmenting when fallback_order < pageblock_order.
- Call sites: the kallsyms stored in the trace (`trace-cmd report -f`):
  the function containing a frame's address is the highest symbol at or
  below it.  An address with several names takes the name libtraceevent
  printed for it when the listing shows it (its %ps), else the first
  kallsyms name; the other names are accepted in the comparison.

Readings of the documentation (where it is not explicit)
--------------------------------------------------------
- "events": the page allocator records (mm_page_alloc, mm_page_free,
  mm_page_free_batched, mm_page_alloc_zone_locked, mm_page_pcpu_drain,
  mm_page_alloc_extfrag and the pre-3.3 mm_page_free_direct,
  mm_pagevec_free); kernel_stack records are not counted.
- A call site row is keyed by the function's address (not its name),
  the order, the raw migratetype number and the raw GFP value.
- "stacks" counts successful allocations whose stack was found (the
  summary's "allocations" are the successful ones); a failed allocation
  makes no call site row and no page row.
- A page row's "frees" counts the frees matched with allocations of that
  pfn (as the slab per-pointer rows do); double frees and freed-only
  frees are not in it.
- With kmem:live a page row keeps its hits and frees; only "bytes"
  becomes the bytes of its live allocation (the documentation says so
  for bytes only).  A call site row's hits and bytes become live_count
  and live_bytes, rows with no live page are left out.
- Rows "first appear" with the allocation (its position in the listing),
  not with the kernel_stack record after it.
- order_migratetype: the non-zero cells in table order (order ascending,
  then Unmovable, Reclaimable, Movable, Special).  extfrag rows have no
  documented order: they are compared as a set.
"""

import json
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kmem_ref  # noqa: E402  (run, Symbols, display_path)
import listing as tclisting  # noqa: E402  (trace-cmd 3.1/3.3 listings)
from timeline_rec import Lines, Recorder  # noqa: E402

DEFAULT_SKIP = "|".join([
    r"^_*(alloc|get_free|get_zeroed)_pages?", r"^_*alloc_frozen_pages",
    r"^_*folio_alloc", r"^vma_alloc_folio", r"^alloc_page_interleave",
    r"^alloc_pages_exact", r"^get_page_from_freelist", r"^_*rmqueue",
    r"^prep_new_page", r"^post_alloc_hook", r"^_*traceiter_",
    r"^trace_event_", r"^perf_trace_", r"^_*bpf_trace_",
    r"^_*ftrace_trace_stack", r"^_*trace_stack", r"^ftrace_",
    r"^stack_trace_", r"^event_trigger", r"^stacktrace_trigger",
    r"^trace_buffer_", r"^trace_call_bpf", r"^_*ring_buffer_",
])

MAX_GAP = 16
NEXT_PAGE_MAX = 32     # 16-byte page header + MAX_GAP

PAGE_EVENTS = ("mm_page_alloc", "mm_page_free", "mm_page_free_batched",
               "mm_page_alloc_zone_locked", "mm_page_pcpu_drain",
               "mm_page_alloc_extfrag", "mm_page_free_direct",
               "mm_pagevec_free")
MT_NAMES = ("Unmovable", "Reclaimable", "Movable", "Special")

run = kmem_ref.run


def start(args):
    """trace-cmd ARGS started in the background (see finish())."""
    env = dict(os.environ)
    env.pop("TRACEEVENT_PLUGIN_DIR", None)    # -N anyway; be sure
    return (args, subprocess.Popen([kmem_ref.TRACE_CMD] + args,
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, env=env))


def finish(job):
    args, p = job
    out, err = p.communicate()
    if p.returncode != 0:
        raise RuntimeError("trace-cmd %s failed: %s" % (
            " ".join(args), err.decode(errors="replace")[-500:]))
    return out.decode("utf-8", errors="replace")


def die(msg):
    sys.stderr.write("kmem_page_ref: %s\n" % msg)
    sys.exit(2)


def warn(msg):
    sys.stderr.write("kmem_page_ref: warning: %s\n" % msg)


# ---------------------------------------------------------------- C expressions

TOKEN_RE = re.compile(r"""
    \s*(?:
      (?P<num>0[xX][0-9a-fA-F]+|\d+)(?P<suf>[uUlL]*)
    | (?P<str>"(?:[^"\\]|\\.)*")
    | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<op><<|>>|<=|>=|==|!=|&&|\|\||->|[-+*/%&|^~!<>?:(),{}\[\].])
    )""", re.X)

TYPE_WORDS = {"unsigned", "signed", "int", "long", "short", "char", "void",
              "gfp_t", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
              "size_t", "__u32", "__u64", "bool", "const", "struct", "page"}


def tokenize(text):
    out = []
    pos = 0
    while pos < len(text):
        m = TOKEN_RE.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ValueError("cannot tokenize %r" % text[pos:pos + 30])
        pos = m.end()
        if m.group("num") is not None:
            out.append(("num", int(m.group("num"), 0)
                        if not re.match(r"0\d", m.group("num"))
                        else int(m.group("num"), 8)))
        elif m.group("str") is not None:
            out.append(("str", m.group("str")[1:-1]))
        elif m.group("id") is not None:
            out.append(("id", m.group("id")))
        elif m.group("op") is not None:
            out.append(("op", m.group("op")))
    return out


class Expr:
    """Evaluates a C integer constant expression (casts, arithmetic,
    shifts, comparisons, ?:) as found in tracepoint print fmts.  REC->x
    is looked up in rec (a dict) when given."""

    def __init__(self, text, long_bits=64, rec=None):
        self.t = tokenize(text)
        self.i = 0
        self.mask = (1 << long_bits) - 1
        self.long_bits = long_bits
        self.rec = rec

    def peek(self, k=0):
        j = self.i + k
        return self.t[j] if j < len(self.t) else (None, None)

    def take(self, want=None):
        tok = self.peek()
        if want is not None and tok != ("op", want):
            raise ValueError("expected %r, got %r" % (want, tok))
        self.i += 1
        return tok

    def evaluate(self):
        v = self.ternary()
        if self.i != len(self.t):
            raise ValueError("trailing tokens %r" % (self.t[self.i:],))
        return v

    def ternary(self):
        c = self.binary(0)
        if self.peek() == ("op", "?"):
            self.take("?")
            a = self.ternary()
            self.take(":")
            b = self.ternary()
            return a if c else b
        return c

    LEVELS = [("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="),
              ("<", ">", "<=", ">="), ("<<", ">>"), ("+", "-"),
              ("*", "/", "%")]

    def binary(self, lvl):
        if lvl == len(self.LEVELS):
            return self.unary()
        v = self.binary(lvl + 1)
        while True:
            tok = self.peek()
            if tok[0] != "op" or tok[1] not in self.LEVELS[lvl]:
                return v
            op = self.take()[1]
            w = self.binary(lvl + 1)
            v = self.apply(op, v, w)

    def apply(self, op, a, b):
        m = self.mask
        if op == "||":
            return int(bool(a) or bool(b))
        if op == "&&":
            return int(bool(a) and bool(b))
        if op == "|":
            return (a | b) & m
        if op == "^":
            return (a ^ b) & m
        if op == "&":
            return (a & b) & m
        if op == "==":
            return int(a == b)
        if op == "!=":
            return int(a != b)
        if op == "<":
            return int(a < b)
        if op == ">":
            return int(a > b)
        if op == "<=":
            return int(a <= b)
        if op == ">=":
            return int(a >= b)
        if op == "<<":
            return (a << b) & m
        if op == ">>":
            return (a & m) >> b
        if op == "+":
            return (a + b) & m
        if op == "-":
            return (a - b) & m
        if op == "*":
            return (a * b) & m
        if op == "/":
            return a // b
        if op == "%":
            return a % b
        raise ValueError(op)

    def cast_ahead(self):
        """A cast '(' type-words '*'* ')' at the current position: the
        number of tokens and the type words, or None."""
        if self.peek() != ("op", "("):
            return None
        j = 1
        words = []
        while self.peek(j)[0] == "id" and self.peek(j)[1] in TYPE_WORDS:
            words.append(self.peek(j)[1])
            j += 1
        if not words:
            return None
        while self.peek(j) == ("op", "*"):
            words.append("*")
            j += 1
        if self.peek(j) != ("op", ")"):
            return None
        return j + 1, words

    def unary(self):
        tok = self.peek()
        if tok[0] == "op" and tok[1] in ("-", "~", "!", "+"):
            self.take()
            v = self.unary()
            if tok[1] == "-":
                return (-v) & self.mask
            if tok[1] == "~":
                return (~v) & self.mask
            if tok[1] == "!":
                return int(not v)
            return v
        c = self.cast_ahead()
        if c is not None:
            n, words = c
            self.i += n
            v = self.unary()
            if "*" in words:
                return v & self.mask
            if "long" in words or "u64" in words or "s64" in words or \
                    "size_t" in words:
                return v & self.mask
            if "short" in words:
                v &= 0xffff
                return v - 0x10000 if ("unsigned" not in words and
                                       v & 0x8000) else v
            if "char" in words:
                return v & 0xff
            # int, unsigned int, gfp_t (an unsigned int in the kernel)
            v &= 0xffffffff
            if "unsigned" not in words and "int" in words and v & 0x80000000:
                v -= 1 << 32
            return v
        return self.postfix()

    def postfix(self):
        tok = self.take()
        if tok[0] == "num":
            return tok[1]
        if tok == ("op", "("):
            v = self.ternary()
            self.take(")")
            return v
        if tok == ("id", "REC"):
            self.take("->")
            name = self.take()[1]
            if self.rec is None or name not in self.rec:
                raise ValueError("REC->%s has no value here" % name)
            return self.rec[name]
        raise ValueError("unexpected token %r" % (tok,))


def split_top(text, sep=","):
    """Split text at top-level separators (outside (), {}, [] and
    string literals)."""
    out, depth, cur, i = [], 0, [], 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            j = i + 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            cur.append(text[i:j + 1])
            i = j + 1
            continue
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    out.append("".join(cur))
    return [s.strip() for s in out]


def print_fmt_parts(pf):
    """(format string, [argument texts]) of a print fmt."""
    parts = split_top(pf)
    fmt = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', parts[0]))
    return fmt, parts[1:]


def conversions(fmt):
    """The names before each % conversion of a format ("x=%d" -> x)."""
    out = []
    for m in re.finditer(r"(?:([A-Za-z_][A-Za-z0-9_]*)=)?%[-#0 +]*\d*"
                         r"(?:\.\d+)?(?:hh|h|ll|l|z)?([a-zA-Z%])", fmt):
        if m.group(2) == "%":
            continue
        out.append(m.group(1))
    return out


# ---------------------------------------------------------------- formats

class Format:
    def __init__(self, name, eid, fields, print_fmt):
        self.name = name
        self.id = eid
        self.fields = fields      # name -> (offset, size, signed, type)
        self.print_fmt = print_fmt


FIELD_RE = re.compile(r"^\s*field:(?P<decl>[^;]*);\s*offset:(?P<off>\d+);"
                      r"\s*size:(?P<size>\d+);\s*signed:(?P<sig>\d+);")


def parse_formats(text):
    fmts = {}
    cur = None
    for line in text.splitlines():
        if line.startswith("name: "):
            cur = Format(line[6:].strip(), None, {}, "")
            continue
        if cur is None:
            continue
        if line.startswith("ID: "):
            cur.id = int(line[4:])
            fmts[cur.id] = cur
            continue
        m = FIELD_RE.match(line)
        if m:
            decl = m.group("decl").strip()
            name = re.sub(r"\[.*$", "", decl.split()[-1])
            cur.fields[name] = (int(m.group("off")), int(m.group("size")),
                                int(m.group("sig")), decl)
            continue
        if line.startswith("print fmt: "):
            cur.print_fmt = line[len("print fmt: "):]
    return fmts


def gfp_table(fmt, long_bits):
    """([(value, name)], zero_name) from mm_page_alloc's print fmt."""
    pf = fmt.print_fmt
    k = pf.find("__print_flags(")
    if k < 0:
        return None, None
    start = k + len("__print_flags(")
    depth, j = 1, start
    while depth and j < len(pf):
        if pf[j] == "(":
            depth += 1
        elif pf[j] == ")":
            depth -= 1
        j += 1
    args = split_top(pf[start:j - 1])
    table = []
    for ent in args[2:]:
        ent = ent.strip()
        if not (ent.startswith("{") and ent.endswith("}")):
            raise ValueError("bad __print_flags entry %r" % ent[:60])
        val, name = split_top(ent[1:-1])
        nm = re.match(r'^"(.*)"$', name.strip())
        if not nm:
            continue        # the { 0, NULL } terminator
        table.append((Expr(val, long_bits).evaluate(), nm.group(1)))
    # "(REC->gfp_flags) ? __print_flags(...) : "none""
    zero = None
    tail = pf[j:]
    m = re.match(r'\s*:\s*"((?:[^"\\]|\\.)*)"', tail)
    if m:
        zero = m.group(1)
    return table, zero


def gfp_name(value, table, zero):
    if value == 0 and zero is not None:
        return zero
    names = []
    v = value
    for fval, name in table:
        if fval > 0 and (v & fval) == fval:
            names.append(name)
            v &= ~fval
    if v:
        names.append("0x%x" % v)
    return "|".join(names)


# ---------------------------------------------------------------- ring buffer

class Rec:
    __slots__ = ("cpu", "idx", "eid", "data", "start", "end", "pos")

    def __init__(self, cpu, idx, eid, data, start, end, pos):
        self.cpu = cpu
        self.idx = idx
        self.eid = eid
        self.data = data
        self.start = start      # stream offset of the data
        self.end = end          # stream offset after the data
        self.pos = pos          # stream offset of the event header


def summary_info(path):
    txt = run(["dump", "--summary", "-i", path])
    big = "[Big endian]" in txt
    m = re.search(r"(\d+)\s*\[Bytes in a long\]", txt)
    lsize = int(m.group(1)) if m else 8
    m = re.search(r"(\d+)\s*\[Page size, bytes\]", txt)
    psize = int(m.group(1)) if m else 4096
    return big, lsize, psize


def kernel_long(path, default):
    """The kernel's long: the size of the header page's commit field."""
    hp = run(["dump", "--head-page", "-i", path])
    m = re.search(r"field:[^;]*\bcommit;\s*offset:\d+;\s*size:(\d+);", hp)
    return int(m.group(1)) if m else default


def read_buffers(v6, big, lsize, page_size):
    """{cpu: [Rec]} from the flyrecord data of a version 6 file."""
    txt = run(["dump", "--flyrecord", "-i", v6])
    cpus = [(int(c), int(o), int(s)) for o, s, c in re.findall(
        r"(\d+)\s+(\d+)\s+\[offset, size of cpu (\d+)\]", txt)]
    hp = run(["dump", "--head-page", "-i", v6])
    commit_off, commit_size, data_off = 8, lsize, 8 + lsize
    for m in re.finditer(r"field:\s*(.*?);\s*offset:(\d+);\s*size:(\d+);",
                         hp):
        name = m.group(1).split()[-1]
        if name == "commit":
            commit_off, commit_size = int(m.group(2)), int(m.group(3))
        elif name == "data":
            data_off = int(m.group(2))
    e = ">" if big else "<"
    out = {}
    with open(v6, "rb") as f:
        blob = f.read()
    for cpu, off, size in cpus:
        recs = []
        for p in range(0, size, page_size):
            page = blob[off + p: off + p + page_size]
            if len(page) < data_off:
                break
            commit = int.from_bytes(page[commit_off:commit_off + commit_size],
                                    "big" if big else "little")
            dsize = commit & ((1 << 27) - 1)
            i = 0
            while i + 4 <= dsize:
                w = struct.unpack_from(e + "I", page, data_off + i)[0]
                if big:
                    tl, delta = w >> 27, w & ((1 << 27) - 1)
                else:
                    tl, delta = w & 0x1f, w >> 5
                if tl == 29:                   # padding
                    if delta == 0:
                        break
                    n = struct.unpack_from(e + "I", page, data_off + i + 4)[0]
                    i += 4 + n
                    continue
                if tl in (30, 31):             # time extend / stamp
                    i += 8
                    continue
                if tl == 0:
                    n = struct.unpack_from(e + "I", page, data_off + i + 4)[0]
                    n = ((n - 4) + 3) & ~3
                    ds = data_off + i + 8
                else:
                    n = tl * 4
                    ds = data_off + i + 4
                data = page[ds:ds + n]
                if len(data) < 2:
                    break
                eid = struct.unpack_from(e + "H", data, 0)[0]
                recs.append(Rec(cpu, len(recs), eid, data, p + ds, p + ds + n,
                                p + data_off + i))
                i = ds - data_off + n
        out[cpu] = recs
    return out


def field(fmt, rec, name, e):
    off, size, sig, _ = fmt.fields[name]
    b = rec.data[off:off + size]
    if len(b) < size:
        raise ValueError("record too short for %s.%s" % (fmt.name, name))
    return int.from_bytes(b, "big" if e == ">" else "little", signed=bool(sig))


# ---------------------------------------------------------------- listing

FRAME_RE = tclisting.FRAME_RE


def listing(text):
    """[('drop', cpu, count|None) | ('ev', cpu, event, text, [frames])]
    in the printed order (`trace-cmd report -N -t`); frames are the
    '=> name' lines after a kernel_stack line."""
    out = []
    last = None
    drop_re = tclisting.DROP_RE
    for line in text.splitlines():
        if line.startswith("\t=> "):
            if last is not None:
                last[4].append(line[4:].split(" ", 1)[0])
            continue
        if "EVENTS DROPPED" in line:
            m = drop_re.match(line.strip())
            if m:
                out.append(("drop", int(m.group(1)),
                            int(m.group(2)) if m.group(2) is not None
                            else None))
                last = None
                continue
        r = tclisting.parse_line(line)
        if r is not None:
            rest = r.rest
            frames = []
            fm = FRAME_RE.match(rest)
            if fm:
                frames.append(fm.group(1))
            last = ("ev", r.cpu, r.event, rest, frames, r.ts)
            out.append(last)
            continue
        fm = FRAME_RE.match(line)
        if fm and last is not None:
            last[4].append(fm.group(1))
    return out


TEXT_FIELD_RE = {}


def text_field(text, name):
    r = TEXT_FIELD_RE.get(name)
    if r is None:
        r = TEXT_FIELD_RE[name] = re.compile(r"(?:^|\s)%s=(\S*)"
                                             % re.escape(name))
    m = r.search(text)
    return m.group(1) if m else None


class Symbols:
    """The functions in the trace's kallsyms (`trace-cmd report -f`),
    looked up as libtraceevent does (kmem_ref.Symbols, parsed faster)."""

    def __init__(self, text):
        byaddr = {}
        for a, name in re.findall(r"^([0-9a-fA-F]+) (\S+)", text, re.M):
            lst = byaddr.setdefault(int(a, 16), [])
            if name not in lst:
                lst.append(name)
        self.byaddr = byaddr
        self.addrs = sorted(byaddr)

    lookup = kmem_ref.Symbols.lookup


# ---------------------------------------------------------------- statistics

class PageTimeline(Lines):
    """The page lines of the timeline (timeline_rec.py).  The total
    changes at each allocation and free.  An allocation counts for its
    call site once the site is known (kmem-stat-definitions.txt,
    "Timeline"): at the next kernel_stack or mm_page_alloc record on its
    CPU (its stack record, when it has one), when its page is allocated
    again, or at the end of the trace; one freed before that never
    counts for its call site."""

    def __init__(self, rec):
        super().__init__(rec, "page", "page allocator")

    def allocated(self, obj, cpu, caddr, cnames, ts):
        obj["_cpu"], obj["_site"], obj["_live"] = cpu, caddr, True
        self.names[("site", caddr)] = ("page_callsite", caddr, cnames[0])
        self.pending[cpu] = obj
        self.total += obj["bytes"]
        self.changed.add("page")

    def _attach(self, obj, ts):
        obj["_attached"] = True
        if obj["_live"]:
            k = obj["_site"]
            self.sites[k] = self.sites.get(k, 0) + obj["bytes"]
            self.changed.add(("site", k))

    def site_known(self, cpu, ts):
        obj = self.pending.pop(cpu, None)
        if obj is not None:
            self._attach(obj, ts)

    def pfn_reused(self, old, ts):
        if self.pending.get(old["_cpu"]) is old:
            self.site_known(old["_cpu"], ts)

    def gone(self, obj, ts):
        obj["_live"] = False
        self.total -= obj["bytes"]
        self.changed.add("page")
        if obj.get("_attached"):
            k = obj["_site"]
            self.sites[k] -= obj["bytes"]
            self.changed.add(("site", k))

    def finish(self):
        self.record(self.rec.end)
        for cpu in sorted(self.pending):
            self._attach(self.pending[cpu], self.rec.end)
        self.pending = {}
        self.flush()

    def result(self):
        return self.rec.result(self.names)


class Page:
    def __init__(self, path, skip_re):
        self.path = path
        self.skip = re.compile(skip_re)
        self.problems = []          # self-check failures (exit 3)
        self.gaps = {}              # gap -> count (alloc -> next record)

    def check(self, msg):
        if len(self.problems) < 20:
            sys.stderr.write("kmem_page_ref: self-check: %s\n" % msg)
        self.problems.append(msg)

    # ---- symbols
    def lookup(self, addr):
        r = self.lookup_cache.get(addr, False)
        if r is False:
            r = self.lookup_cache[addr] = self.syms.lookup(addr)
        return r

    def func(self, addr):
        """(function address, [names]) of a frame; names[0] canonical."""
        r = self.lookup(addr)
        if r is None:
            return addr, ["0x%x" % addr]
        a, names = r
        pref = self.printed.get(a)
        if pref in names and names[0] != pref:
            names = [pref] + [n for n in names if n != pref]
        return a, names

    def site(self, addr):
        """(return address, [names as symbol+0xoffset]) of a frame."""
        a, names = self.func(addr)
        if names[0].startswith("0x"):
            return addr, names
        return addr, ["%s+0x%x" % (n, addr - a) for n in names]

    def callsite(self, frames):
        """(return address, [symbol+0xoffset names]) of the call site of
        a stack: its first frame not skipped (the skip rules match the
        function's name), else its last."""
        if not frames:
            return 0, ["(no stack)"]
        for addr in frames:
            a, names = self.func(addr)
            skips = {bool(self.skip.search(n)) for n in names}
            if len(skips) > 1:
                warn("the names of 0x%x (%s) disagree on the skip rule"
                     % (a, ", ".join(names)))
            if not self.skip.search(names[0]):
                return self.site(addr)
        return self.site(frames[-1])

    def run(self):
        path = self.path
        tmpdir = tempfile.TemporaryDirectory(prefix="kmem_page_ref.")
        v6 = os.path.join(tmpdir.name, "v6.dat")
        jobs = [start(["convert", "-i", path, "-o", v6,
                       "--file-version", "6"]),
                start(["report", "-N", "-t", "-i", path]),
                start(["report", "-f", "-i", path]),
                start(["dump", "--events", "-i", path]),
                start(["dump", "--ftrace-events", "-i", path])]
        big, lsize, page_size = summary_info(path)
        self.page_size = page_size
        e = ">" if big else "<"
        # all jobs are collected (and so waited for) before any error
        outs, err = [], None
        for j in jobs:
            try:
                outs.append(finish(j))
            except RuntimeError as ex:
                outs.append(None)
                err = err or ex
        if err:
            tmpdir.cleanup()
            raise err
        _, list_text, syms_text, ev_text, ftrace_text = outs
        fmts = parse_formats(ev_text)
        fmts.update(parse_formats(ftrace_text))
        byname = {}
        for f in fmts.values():
            byname.setdefault(f.name, f)
        self.syms = Symbols(syms_text)
        self.lookup_cache = {}
        self.printed = {}

        # GFP names and migratetype numbering
        table, zero = None, None
        if "mm_page_alloc" in byname:
            table, zero = gfp_table(byname["mm_page_alloc"], lsize * 8)
        self.gfp_table, self.gfp_zero = table or [], zero
        self.new_numbering = any(v == 0x10 and n == "__GFP_RECLAIMABLE"
                                 for v, n in (table or []))
        # pageblock order from mm_page_alloc_extfrag's print fmt
        self.pageblock_order = None
        if "mm_page_alloc_extfrag" in byname:
            fmt, args = print_fmt_parts(byname["mm_page_alloc_extfrag"]
                                        .print_fmt)
            names = conversions(fmt)
            if "pageblock_order" in names and len(args) == len(names):
                self.pageblock_order = Expr(
                    args[names.index("pageblock_order")],
                    lsize * 8).evaluate()

        try:
            bufs = read_buffers(v6, big, lsize, page_size)
        finally:
            tmpdir.cleanup()
        lst = listing(list_text)

        # The i-th listed record of a CPU is its i-th buffer record.
        nxt = {c: 0 for c in bufs}
        seq = []
        for item in lst:
            if item[0] == "drop":
                seq.append(item)
                continue
            _, cpu, event, text, frames, ts = item
            recs = bufs.get(cpu, [])
            i = nxt.get(cpu, 0)
            if i >= len(recs):
                die("the listing has more records on CPU %d than its buffer"
                    % cpu)
            rec = recs[i]
            nxt[cpu] = i + 1
            fmt = fmts.get(rec.eid)
            if fmt is None or fmt.name != event:
                die("CPU %d record %d: listing says %s, buffer has id %d (%s)"
                    % (cpu, i, event, rec.eid, fmt.name if fmt else "?"))
            seq.append(("ev", rec, fmt, text, frames, ts))
        for c, recs in bufs.items():
            if nxt.get(c, 0) != len(recs):
                die("CPU %d: %d buffer records, %d listed"
                    % (c, len(recs), nxt.get(c, 0)))

        self.fmts = fmts
        self.bufs = bufs
        self.e = e
        self.lsize = lsize
        self.klsize = kernel_long(path, lsize)
        self.seq = seq
        self.aggregate(seq)

    def with_skip(self, skip_re):
        """The document for -O kmem:skip=SKIP_RE (same trace)."""
        saved = (self.skip, self.doc, self.gaps, self.problems)
        self.skip = re.compile(skip_re)
        self.gaps, self.problems = {}, []
        try:
            self.aggregate(self.seq)
            return self.doc
        finally:
            self.skip, self.doc, self.gaps, self.problems = saved

    # ---- stacks
    def frames_of(self, rec, fmt):
        e = self.e
        off, size, _, _ = fmt.fields["caller"]
        n = field(fmt, rec, "size", e) if "size" in fmt.fields else None
        # frames are kernel longs: the header page's commit word, which
        # the file header's long (trace-cmd's user space) need not be
        lsize = self.klsize
        avail = (len(rec.data) - off) // lsize
        if n is None or n > avail:
            if n is not None:
                self.check("kernel_stack on CPU %d says size=%d, the record "
                           "holds %d frames" % (rec.cpu, n, avail))
            n = avail
        out = []
        for k in range(n):
            a = int.from_bytes(rec.data[off + k * lsize:
                                        off + (k + 1) * lsize],
                               "big" if e == ">" else "little")
            if a == (1 << (8 * lsize)) - 1:
                break
            out.append(a)
        return out

    def check_frame_names(self, rec, fmt, frames_txt, bad):
        """The names the listing printed for a kernel_stack record's
        first frames are among kallsyms' names at those addresses
        (libtraceevent's choice among aliases is kept in self.printed).
        BAD mismatches were seen before (only the first 5 are said);
        returns the new count."""
        fr = self.frames_of(rec, fmt)
        for k, nm in enumerate(frames_txt[:len(fr)]):
            r = self.lookup(fr[k])
            if r is None:
                continue
            a, names = r
            if nm not in names:
                if bad < 5:
                    self.check("frame 0x%x printed as %s, kallsyms "
                               "has %s" % (fr[k], nm, names))
                bad += 1
            elif len(names) > 1:
                self.printed.setdefault(a, nm)
        return bad

    def stack_after(self, rec):
        """The frames of the kernel_stack record directly following rec
        in its CPU's buffer, or None."""
        recs = self.bufs[rec.cpu]
        if rec.idx + 1 >= len(recs):
            return None
        nx = recs[rec.idx + 1]
        fmt = self.fmts.get(nx.eid)
        gap = nx.start - rec.end
        if fmt is not None and fmt.name == "kernel_stack":
            self.gaps[gap] = self.gaps.get(gap, 0) + 1
        if fmt is None or fmt.name != "kernel_stack":
            return None
        # within MAX_GAP bytes, or at the start of the next ring-buffer
        # page (its header and the record's own headers before it)
        ps = self.page_size
        next_page = (nx.start // ps == (rec.end - 1) // ps + 1 and
                     nx.start % ps <= NEXT_PAGE_MAX)
        if gap > MAX_GAP and not next_page:
            return None
        return self.frames_of(nx, fmt)

    def mtname(self, mt):
        if mt == 0:
            return "Unmovable"
        if mt in (1, 2):
            if self.new_numbering:
                return "Movable" if mt == 1 else "Reclaimable"
            return "Reclaimable" if mt == 1 else "Movable"
        return "Special"

    # ---- the statistics
    def aggregate(self, seq, tl=None):
        e = self.e
        s = dict(allocs=0, alloc_bytes=0, frees=0, batched=0, fail_count=0,
                 fail_bytes=0, af_count=0, af_bytes=0, fo_count=0,
                 fo_bytes=0, missed_count=0, missed_bytes=0, double=0,
                 zone_locked=0, pcpu_refills=0, pcpu_drains=0, stacks=0,
                 events=0, events_lost=0, lost_unknown=0, idle=0)
        seen = set()        # the page events with a record
        state = {}          # pfn -> live allocation dict, or None (freed)
        callsites = {}      # key -> row
        pages = {}          # pfn -> row
        order_mt = {}       # (order, name) -> count
        extfrag = {}        # (req name, fallback name) -> row
        unmatched_stack_check = 0
        checked = set()
        for item in seq:
            if item[0] == "drop":
                if item[2] is None:
                    s["lost_unknown"] += 1
                else:
                    s["events_lost"] += item[2]
                continue
            _, rec, fmt, text, frames_txt, ts = item
            name = fmt.name
            if tl is not None:
                tl.record(ts)
            if tl is not None and name in ("kernel_stack", "mm_page_alloc"):
                tl.site_known(rec.cpu, ts)
            if name == "kernel_stack":
                # the listing's %ps names of the first 8 frames
                ck = (rec.data[8:], tuple(frames_txt))
                if ck in checked:
                    continue
                checked.add(ck)
                unmatched_stack_check = self.check_frame_names(
                    rec, fmt, frames_txt, unmatched_stack_check)
                continue
            if name in kmem_ref.ALLOCATOR_EVENTS and \
                    "common_pid" in fmt.fields and \
                    field(fmt, rec, "common_pid", e) == 0:
                s["idle"] += 1
            if name not in PAGE_EVENTS:
                continue
            s["events"] += 1
            seen.add(name)

            def fv(n, default=None):
                if n in fmt.fields:
                    return field(fmt, rec, n, e)
                if default is not None:
                    return default
                raise KeyError("%s has no field %s" % (name, n))

            if "pfn" in fmt.fields:
                pfn_raw = fv("pfn")
                fsize = fmt.fields["pfn"][1]
                failed = pfn_raw == (1 << (8 * fsize)) - 1 or \
                    (fmt.fields["pfn"][2] and pfn_raw == -1)
                pfn = pfn_raw
                tp = text_field(text, "pfn")
                if not failed and tp is not None and int(tp, 16) != pfn:
                    self.check("%s pfn: listing %s, buffer 0x%x"
                               % (name, tp, pfn))
            else:
                pfn = fv("page")
                failed = pfn == 0
            order = fv("order", 0) if "order" in fmt.fields else 0
            to = text_field(text, "order")
            if "order" in fmt.fields and to is not None and \
                    int(to) != order:
                self.check("%s order: listing %s, buffer %d"
                           % (name, to, order))
            nbytes = self.page_size << order

            if name == "mm_page_alloc":
                mt = fv("migratetype")
                gfp = fv("gfp_flags")
                gname = gfp_name(gfp, self.gfp_table, self.gfp_zero)
                tg = text_field(text, "gfp_flags")
                if tg is not None and tg != gname:
                    self.check("gfp_flags 0x%x: listing %s, reference %s"
                               % (gfp, tg, gname))
                tm = text_field(text, "migratetype")
                if tm is not None and int(tm) != mt:
                    self.check("migratetype: listing %s, buffer %d"
                               % (tm, mt))
                if failed:
                    s["fail_count"] += 1
                    s["fail_bytes"] += nbytes
                    continue
                frames = self.stack_after(rec)
                if frames is not None:
                    s["stacks"] += 1
                caddr, cnames = self.callsite(frames or [])
                s["allocs"] += 1
                s["alloc_bytes"] += nbytes
                mtn = self.mtname(mt)
                order_mt[(order, mtn)] = order_mt.get((order, mtn), 0) + 1
                key = (caddr, order, mt, gfp)
                row = callsites.get(key)
                if row is None:
                    row = callsites[key] = dict(
                        callsite=cnames[0], address="0x%x" % caddr,
                        hits=0, bytes=0, order=order, migratetype=mtn,
                        gfp=gname, gfp_value="0x%x" % gfp, live_count=0,
                        live_bytes=0, _address=caddr, _migratetype=mt,
                        _gfp=gfp, _seq=len(callsites))
                    if len(cnames) > 1:
                        row["_callsite_aliases"] = cnames
                row["hits"] += 1
                row["bytes"] += nbytes
                old = state.get(pfn)
                if tl is not None and old is not None:
                    tl.pfn_reused(old, ts)
                if old is not None:
                    s["missed_count"] += 1
                    s["missed_bytes"] += old["bytes"]
                    self.unlive(old, callsites, pages, pfn)
                    if tl is not None:
                        tl.gone(old, ts)
                state[pfn] = dict(bytes=nbytes, key=key)
                if tl is not None:
                    tl.allocated(state[pfn], rec.cpu, caddr, cnames, ts)
                row["live_count"] += 1
                row["live_bytes"] += nbytes
                pr = pages.get(pfn)
                if pr is None:
                    pr = pages[pfn] = dict(pfn="0x%x" % pfn, hits=0,
                                           bytes=0, frees=0, _pfn=pfn,
                                           _seq=len(pages))
                pr["hits"] += 1
                pr["bytes"] += nbytes
                pr.update(order=order, migratetype=mtn, gfp=gname,
                          callsite=cnames[0], live=True,
                          _live_bytes=nbytes, _address=caddr,
                          _migratetype=mt, _gfp=gfp)
                if len(cnames) > 1:
                    pr["_callsite_aliases"] = cnames
                else:
                    pr.pop("_callsite_aliases", None)
            elif name in ("mm_page_free", "mm_page_free_direct",
                          "mm_pagevec_free"):
                if name == "mm_pagevec_free":
                    s["batched"] += 1
                s["frees"] += 1
                if pfn not in state:
                    s["fo_count"] += 1
                    s["fo_bytes"] += nbytes
                    state[pfn] = None
                    continue
                obj = state[pfn]
                if obj is None:
                    s["double"] += 1
                    continue
                s["af_count"] += 1
                s["af_bytes"] += obj["bytes"]
                self.unlive(obj, callsites, pages, pfn)
                if tl is not None:
                    tl.gone(obj, ts)
                pages[pfn]["frees"] += 1
                state[pfn] = None
            elif name == "mm_page_free_batched":
                s["batched"] += 1
            elif name == "mm_page_alloc_zone_locked":
                s["zone_locked"] += 1
                if fv("percpu_refill", 0):
                    s["pcpu_refills"] += 1
            elif name == "mm_page_pcpu_drain":
                s["pcpu_drains"] += 1
            elif name == "mm_page_alloc_extfrag":
                req = self.mtname(fv("alloc_migratetype"))
                fb = self.mtname(fv("fallback_migratetype"))
                row = extfrag.get((req, fb))
                if row is None:
                    row = extfrag[(req, fb)] = dict(
                        requested=req, fallback=fb, fallbacks=0,
                        fragmenting=0, ownership_changes=0,
                        _seq=len(extfrag))
                row["fallbacks"] += 1
                if self.pageblock_order is None:
                    die("mm_page_alloc_extfrag without pageblock_order in "
                        "its print fmt")
                if fv("fallback_order") < self.pageblock_order:
                    row["fragmenting"] += 1
                # kernels without the field printed it as requested
                # type == fallback type (kmem-stat-definitions.txt)
                if "change_ownership" in fmt.fields:
                    own = fv("change_ownership")
                else:
                    own = fv("alloc_migratetype") == fv("fallback_migratetype")
                if own:
                    row["ownership_changes"] += 1

        if tl is not None:
            tl.finish()
        live = [o for o in state.values() if o]
        freed = bool(seen & {"mm_page_free", "mm_page_free_direct",
                             "mm_pagevec_free"})
        summary = {
            "allocs": s["allocs"], "alloc_bytes": s["alloc_bytes"],
            "frees": s["frees"],
            "free_bytes": s["af_bytes"] + s["fo_bytes"],
            "batched_frees": s["batched"],
            "failures": {"count": s["fail_count"], "bytes": s["fail_bytes"]},
            "alloc_freed": {"count": s["af_count"], "bytes": s["af_bytes"]},
            "alloc_only": {"count": s["allocs"] - s["af_count"],
                           "bytes": s["alloc_bytes"] - s["af_bytes"]},
            "free_only": {"count": s["fo_count"], "bytes": s["fo_bytes"]},
            "live": {"count": len(live),
                     "bytes": sum(o["bytes"] for o in live)},
            "missed_frees": {"count": s["missed_count"],
                             "bytes": s["missed_bytes"]},
            "double_frees": s["double"], "zone_locked": s["zone_locked"],
            "pcpu_refills": s["pcpu_refills"],
            "pcpu_drains": s["pcpu_drains"], "stacks": s["stacks"],
            "events_lost": s["events_lost"],
        }
        # what the trace holds no record of is null (kmem-stat-
        # definitions(7), "Figures of events the trace does not hold")
        unknown = []
        if not freed:
            unknown += ["frees", "free_bytes", "alloc_freed", "alloc_only",
                        "free_only", "live", "missed_frees"]
        if "mm_page_free_batched" not in seen and not s["batched"]:
            unknown.append("batched_frees")
        if "mm_page_alloc_zone_locked" not in seen:
            unknown += ["zone_locked", "pcpu_refills"]
        if "mm_page_pcpu_drain" not in seen:
            unknown.append("pcpu_drains")
        for k in unknown:
            summary[k] = None
        # double frees or repeated frees (kmem_ref.free_doubt())
        if s["events_lost"] or s["lost_unknown"]:
            doubt = "the ring buffer lost events"
        elif "mm_page_alloc" not in seen:
            doubt = "no allocation was recorded"
        elif not s["idle"]:
            doubt = "no pid 0 record: likely only chosen tasks were traced"
        else:
            doubt = None
        summary["double_frees_doubt"] = doubt
        max_order = max([10] + [o for o, _ in order_mt])
        cells = []
        for o in range(max_order + 1):
            for mtn in MT_NAMES:
                if order_mt.get((o, mtn)):
                    cells.append({"order": o, "migratetype": mtn,
                                  "count": order_mt[(o, mtn)]})
        self.doc = {
            "file": kmem_ref.display_path(self.path),
            "events_lost": s["events_lost"],
            "lost_unknown": s["lost_unknown"],
            "page": {
                "events": s["events"],
                "complete": not (s["events_lost"] or s["lost_unknown"]),
                "summary": summary,
                "order_migratetype": cells,
                "callsites": list(callsites.values()),
                "pages": list(pages.values()),
                "extfrag": list(extfrag.values()),
                "_page_size": self.page_size,
                "_new_numbering": self.new_numbering,
                "_pageblock_order": self.pageblock_order,
                "_gaps": {str(k): v for k, v in sorted(self.gaps.items())},
            },
        }
        if s["events"] == 0:
            self.doc["page"]["_no_records"] = True

    def unlive(self, obj, callsites, pages, pfn):
        row = callsites[obj["key"]]
        row["live_count"] -= 1
        row["live_bytes"] -= obj["bytes"]
        pr = pages[pfn]
        pr["live"] = False
        pr["_live_bytes"] = 0


# ---------------------------------------------------------------- views

PAGE_SORT_KEYS = ("page", "callsite", "order", "migtype", "gfp", "bytes",
                  "hit", "live")
OTHER_SORT_KEYS = ("ptr", "pingpong", "frag", "peak")


def view(page, keys, live):
    """The call site and page rows the plugin shows for sort=KEYS and
    kmem:live, in table order."""
    cs = []
    for r in page["callsites"]:
        r = dict(r)
        if live:
            if not r["live_count"]:
                continue
            r["hits"], r["bytes"] = r["live_count"], r["live_bytes"]
        cs.append(r)
    pg = []
    for r in page["pages"]:
        r = dict(r)
        if live:
            if not r["live"]:
                continue
            r["bytes"] = r["_live_bytes"]
        pg.append(r)

    def fn(table, k):
        if k == "page":
            return (lambda r: r["_pfn"]) if table == "pages" else None
        if k == "callsite":
            return lambda r: r["_address"]
        if k == "order":
            return lambda r: r["order"]
        if k == "migtype":
            return lambda r: r["_migratetype"]
        if k == "gfp":
            return lambda r: r["_gfp"]
        if k == "bytes":
            return lambda r: -r["bytes"]
        if k == "hit":
            return lambda r: -r["hits"]
        if k == "live":
            if table == "pages":
                return lambda r: -r["_live_bytes"]
            return lambda r: -r["live_bytes"]
        return None     # a key of the slab tables: ignored here

    def srt(table, rows):
        fns = [f for f in (fn(table, k) for k in table_keys(keys)) if f]
        return sorted(rows, key=lambda r: tuple(f(r) for f in fns) +
                      (r["_seq"],))

    return srt("callsites", cs), srt("pages", pg)


def table_keys(keys):
    """The keys a table sorts by: sort=KEYS (each once, the first place),
    then its defaults bytes and hit where KEYS did not name them (those
    the table has not are passed over where the keys are used)."""
    out = []
    for k in list(keys) + ["bytes", "hit"]:
        if k not in out:
            out.append(k)
    return out


def sort_tuple(table, r, keys):
    """The reference's sort value of a plugin row (for order checks)."""
    out = []
    for k in table_keys(keys):
        if k == "page" and table == "pages":
            out.append(r["_pfn"])
        elif k == "callsite":
            out.append(r["_address"])
        elif k == "order":
            out.append(r["order"])
        elif k == "migtype":
            out.append(r["_migratetype"])
        elif k == "gfp":
            out.append(r["_gfp"])
        elif k == "bytes":
            out.append(-r["bytes"])
        elif k == "hit":
            out.append(-r["hits"])
        elif k == "live":
            out.append(-(r["_live_bytes"] if table == "pages"
                         else r["live_bytes"]))
    return tuple(out)


# ---------------------------------------------------------------- compare

MAX_DETAIL = 25
failed = False


def report(name, problems, what=""):
    global failed
    if not problems:
        print("PASS %s%s" % (name, (" (%s)" % what) if what else ""))
        return
    failed = True
    print("FAIL %s: %d mismatch(es): %s%s" % (
        name, len(problems), "; ".join(problems[:2]),
        " ..." if len(problems) > 2 else ""))
    for p in problems[:MAX_DETAIL]:
        print("    " + p)
    if len(problems) > MAX_DETAIL:
        print("    ... %d more" % (len(problems) - MAX_DETAIL))


def same(got, want):
    if isinstance(want, bool) or isinstance(got, bool):
        return got is want
    return got == want and type(got) is type(want)


def flat(d, prefix=""):
    out = {}
    for k, v in d.items():
        if k.startswith("_"):
            continue
        if isinstance(v, dict):
            out.update(flat(v, prefix + k + "."))
        else:
            out[prefix + k] = v
    return out


def order_problems(table, got, want, key, label, keys):
    """Rows of the plugin's array (got) that are not where the
    reference's sort puts them, over the rows both have."""
    wk = {key(r): r for r in want}
    gk = {key(r) for r in got}
    g = [r for r in got if key(r) in wk]
    w = [r for r in want if key(r) in gk]
    probs = []
    for i, (gr, wr) in enumerate(zip(g, w)):
        if key(gr) == key(wr):
            continue
        wg = wk[key(gr)]
        sg, sw = sort_tuple(table, wg, keys), sort_tuple(table, wr, keys)
        probs.append("position %d%s: plugin %s (sort values %s), reference "
                     "%s (sort values %s)%s" % (
                         i, "" if len(g) == len(got) == len(want) else
                         " of the rows both have", label(gr), sg,
                         label(wr), sw,
                         "; equal sort values: the order of first "
                         "appearance decides" if sg == sw else ""))
        if len(probs) >= 5:
            probs.append("(only the first 5 displaced rows are listed)")
            break
    return probs


def compare(ref, got, name, keys, live):
    rp = ref["page"]
    if "page" not in got:
        report(name + ":page-section", ["the plugin's document has no "
                                        "\"page\" member"])
        return
    gp = got["page"]

    # top members
    probs = []
    for k in ("events", "complete"):
        if k not in gp:
            probs.append("page.%s missing (reference %s)"
                         % (k, json.dumps(rp[k])))
        elif not same(gp[k], rp[k]):
            probs.append("page.%s: plugin %s, reference %s"
                         % (k, json.dumps(gp[k]), json.dumps(rp[k])))
    for k in ("events_lost", "lost_unknown"):
        if not same(got.get(k), ref[k]):
            probs.append("%s: plugin %s, reference %s"
                         % (k, json.dumps(got.get(k)), json.dumps(ref[k])))
    report(name + ":top", probs)

    # summary
    want = flat(rp["summary"])
    have = flat(gp.get("summary", {}))
    probs = []
    for k, v in want.items():
        if k not in have:
            probs.append("summary.%s missing (reference %s)" % (k, v))
        elif not same(have[k], v):
            probs.append("summary.%s: plugin %s, reference %s"
                         % (k, json.dumps(have[k]), json.dumps(v)))
    for k in have:
        if k not in want:
            probs.append("summary.%s: unexpected member (plugin %s)"
                         % (k, json.dumps(have[k])))
    s = have
    if all(isinstance(s.get(k), int)
           for k in ("allocs", "alloc_freed.count", "alloc_only.count")) and \
            s["allocs"] != s["alloc_freed.count"] + s["alloc_only.count"]:
        probs.append("plugin breaks allocs = alloc_freed + alloc_only")
    if all(isinstance(s.get(k), int)
           for k in ("frees", "alloc_freed.count", "free_only.count",
                     "double_frees")) and \
            s["frees"] != s["alloc_freed.count"] + s["free_only.count"] + \
            s["double_frees"]:
        probs.append("plugin breaks frees = alloc_freed + free_only + "
                     "double_frees")
    report(name + ":summary", probs, "%d members" % len(want))

    # order x migration type
    probs = []
    wc = [(c["order"], c["migratetype"], c["count"])
          for c in rp["order_migratetype"]]
    gc = [(c.get("order"), c.get("migratetype"), c.get("count"))
          for c in gp.get("order_migratetype", [])]
    wd = {(o, m): n for o, m, n in wc}
    gd = {(o, m): n for o, m, n in gc}
    for k in sorted(set(wd) | set(gd), key=lambda k: (k[0], str(k[1]))):
        if wd.get(k) != gd.get(k):
            probs.append("order %s %s: plugin %s, reference %s"
                         % (k[0], k[1], gd.get(k, "(none)"),
                            wd.get(k, "(none)")))
    if not probs and wc != gc:
        probs.append("cells in another order: plugin %s, reference %s"
                     % (gc, wc))
    report(name + ":order_migratetype", probs, "%d cells" % len(wc))

    wcs, wpg = view(rp, keys, live)

    # call sites, by key
    def ckey(r):
        return (int(r.get("address", "0x0"), 16), r.get("order"),
                r.get("migratetype"), int(r.get("gfp_value", "0x0"), 16))

    def label(r):
        return "callsite %s order %s %s gfp %s" % (
            r.get("callsite"), r.get("order"), r.get("migratetype"),
            r.get("gfp_value"))
    probs = []
    wmap = {}
    for r in wcs:
        wmap[ckey(r)] = r
    gcs = gp.get("callsites", [])
    seen = set()
    for r in gcs:
        k = ckey(r)
        if k in seen:
            probs.append("%s: duplicate row" % label(r))
            continue
        seen.add(k)
        w = wmap.get(k)
        if w is None:
            probs.append("%s: row not in the reference (plugin hits %s "
                         "bytes %s)" % (label(r), r.get("hits"),
                                        r.get("bytes")))
            continue
        for f in ("callsite", "address", "hits", "bytes", "order",
                  "migratetype", "gfp", "gfp_value", "live_count",
                  "live_bytes"):
            if f not in r:
                probs.append("%s: %s missing" % (label(w), f))
            elif f == "callsite" and r[f] in w.get("_callsite_aliases", ()):
                continue
            elif not same(r[f], w[f]):
                probs.append("%s: %s: plugin %s, reference %s"
                             % (label(w), f, json.dumps(r[f]),
                                json.dumps(w[f])))
    for k, w in wmap.items():
        if k not in seen:
            probs.append("%s: row missing (reference hits %d bytes %d "
                         "live %d)" % (label(w), w["hits"], w["bytes"],
                                       w["live_count"]))
    report(name + ":callsites", probs, "%d rows" % len(wcs))

    report(name + ":callsites-order",
           order_problems("callsites", gcs, wcs, ckey, label, keys))

    # pages, by pfn
    probs = []
    wmap = {r["pfn"]: r for r in wpg}
    gpg = gp.get("pages", [])
    seen = set()
    for r in gpg:
        k = r.get("pfn")
        if k in seen:
            probs.append("pfn %s: duplicate row" % k)
            continue
        seen.add(k)
        w = wmap.get(k)
        if w is None:
            probs.append("pfn %s: row not in the reference (plugin hits "
                         "%s bytes %s live %s)" % (k, r.get("hits"),
                                                   r.get("bytes"),
                                                   r.get("live")))
            continue
        for f in ("hits", "bytes", "frees", "order", "migratetype", "gfp",
                  "callsite", "live"):
            if f not in r:
                probs.append("pfn %s: %s missing" % (k, f))
            elif f == "callsite" and r[f] in w.get("_callsite_aliases", ()):
                continue
            elif not same(r[f], w[f]):
                probs.append("pfn %s: %s: plugin %s, reference %s"
                             % (k, f, json.dumps(r[f]), json.dumps(w[f])))
    for k, w in wmap.items():
        if k not in seen:
            probs.append("pfn %s: row missing (reference hits %d bytes %d "
                         "live %s)" % (k, w["hits"], w["bytes"], w["live"]))
    report(name + ":pages", probs, "%d rows" % len(wpg))

    report(name + ":pages-order",
           order_problems("pages", gpg, wpg, lambda r: r.get("pfn"),
                          lambda r: "pfn %s" % r.get("pfn"), keys))

    # extfrag, as a set
    probs = []
    wx = {(r["requested"], r["fallback"]): r for r in rp["extfrag"]}
    gx = {}
    for r in gp.get("extfrag", []):
        gx[(r.get("requested"), r.get("fallback"))] = r
    for k in set(wx) | set(gx):
        w, g = wx.get(k), gx.get(k)
        if w is None or g is None:
            probs.append("%s -> %s: plugin %s, reference %s" % (
                k[0], k[1], json.dumps(g), json.dumps(
                    {f: v for f, v in w.items() if not f.startswith("_")}
                    if w else None)))
            continue
        for f in ("fallbacks", "fragmenting", "ownership_changes"):
            if not same(g.get(f), w[f]):
                probs.append("%s -> %s: %s: plugin %s, reference %s"
                             % (k[0], k[1], f, json.dumps(g.get(f)),
                                json.dumps(w[f])))
    report(name + ":extfrag", probs, "%d rows" % len(wx))


# ---------------------------------------------------------------- main

def main(argv):
    skip = DEFAULT_SKIP
    refp = savep = None
    name = None
    timeline = None
    cases = []
    files = []
    it = iter(argv)
    for a in it:
        if a == "--ref":
            refp = next(it, None)
        elif a == "--save":
            savep = next(it, None)
        elif a == "--name":
            name = next(it, None)
        elif a == "--skip":
            skip = next(it, skip)
        elif a == "--case":
            c = [next(it, None) for _ in range(5)]
            if None in c:
                die("--case needs NAME PLUGIN.json KEYS LIVE SKIP")
            keys = c[2].split(",") if c[2] else ["bytes", "hit"]
            for k in keys:
                if k not in PAGE_SORT_KEYS + OTHER_SORT_KEYS:
                    die("unknown sort key %r" % k)
            cases.append((c[0], c[1], keys, c[3] == "1", c[4]))
        elif a.startswith("--timeline="):
            timeline = a[len("--timeline="):]
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            files.append(a)
    if timeline:
        if len(files) != 1:
            die("--timeline=PLOT.json needs FILE.dat")
        p = Page(files[0], skip)
        try:
            p.run()
            tl = PageTimeline(Recorder(timeline))
            p.aggregate(p.seq, tl)
        except (RuntimeError, ValueError, KeyError) as e:
            die(str(e))
        sys.stdout.write(json.dumps(tl.result()) + "\n")
        return 0
    problems = []
    if refp:
        if files:
            die("give FILE.dat or --ref REF.json, not both")
        with open(refp) as f:
            ref = json.load(f)
    else:
        if len(files) != 1:
            die("usage: kmem_page_ref.py [--skip REGEX] FILE.dat "
                "(see --help)")
        p = Page(files[0], skip)
        try:
            p.run()
        except (RuntimeError, ValueError, KeyError) as e:
            die(str(e))
        ref = p.doc
        problems = p.problems
        if savep:
            with open(savep, "w") as f:
                json.dump(ref, f)
    if not cases:
        sys.stdout.write(json.dumps(ref) + "\n")
        return 3 if problems else 0
    if problems:
        report("%s:reference-self-check" % (name or "reference"), problems)
    for cname, path, keys, live, cskip in cases:
        try:
            with open(path) as f:
                got = json.load(f)
        except (OSError, ValueError) as e:
            report(cname + ":json", ["cannot read the plugin's document: "
                                     "%s" % e])
            continue
        cref = ref
        if cskip:
            if refp:
                die("a case with a skip regex needs FILE.dat, not --ref")
            cref = p.with_skip(cskip)
        compare(cref, got, cname, keys, live)
    far = sum(n for g, n in ref["page"].get("_gaps", {}).items()
              if int(g) > MAX_GAP)
    if far:
        print("    note: %s: %d allocation(s) have their kernel_stack first "
              "on the next ring-buffer page (more than %d bytes away)"
              % (name or "reference", far, MAX_GAP))
    return 1 if failed else 0


if __name__ == "__main__":
    import refcache  # noqa: E402  (tests/run.sh's cache of results)
    refcache.main(main, sys.argv[1:])
