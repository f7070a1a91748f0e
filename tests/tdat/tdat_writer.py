#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""tdat_writer.py: write whole trace-cmd trace.dat files (format versions 6
and 7) for tests, for machines we do not have: either endianness, 32- or
64-bit longs, any ring-buffer page size, old kernels' event formats,
lost events, buffer instances, zlib/zstd compression.  Python 3, standard
library only (zstd through ctypes on libzstd.so.1 when it is there).

Written from trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5), checked
against how libtracecmd 1.3.1 (trace-cmd 3.1.6, lib/trace-cmd/trace-input.c)
and libtraceevent 1.7.1 (kbuffer-parse.c) read the files, and against
the bytes of real recordings: `trace-cmd convert --file-version 6` of a
format 7 file from here gives the format 6 file from here, byte for
byte, and trace-cmd's own zlib writer compresses the metadata sections
and the CPUs' chunks to the same bytes as here.

    tdat_writer.py --spec SPEC -o OUT.dat --formats [SYS:]FILE... [options]

Options
  --version 6|7             file format version (default 7)
  --compression none|zlib|zstd
                            v7 only (default none).  Every metadata section
                            (headers, formats, kallsyms, printk, cmdlines,
                            strings) is compressed as one block, the per-CPU
                            data in chunks of --chunk-pages pages, as
                            trace-cmd does; options sections stay plain
                            unless --compress-options.
  --chunk-pages N           pages per compressed chunk (default 10, trace-cmd's
                            PAGES_IN_CHUNK).  As trace-cmd does, the BUFFER
                            option gives a compressed CPU's size without the
                            4-byte chunk count that starts its data.
  --compress-options        compress the options sections too (the reader
                            allows it; trace-cmd never does it)
  --endian little|big       (default little)
  --long-size 4|8           userspace long, in the file header (default 8)
  --kernel-long-size 4|8    the kernel's long: header_page's commit field,
                            ring-buffer page header and lost-event count
                            (default: --long-size)
  --page-size N             ring-buffer page size (default 4096; a power of
                            two, 4096 or more)
  --formats [SYS:]FILE...   event format texts (/sys/kernel/tracing/events/
                            SYS/EVENT/format, several per file, each starting
                            with its "name:" line).  SYS defaults to "ftrace"
                            for kernel_stack and "kmem" for the others;
                            ftrace events go to the ftrace section.
  --align8                  RB_FORCE_8BYTE_ALIGNMENT (64-bit arches without
                            efficient unaligned access): every event has
                            type_len 0 and a length word, 8-byte aligned
  --pad-pages               old kernels (before 2.6.36): a page closed
                            because the next event does not fit ends with a
                            padding event and its commit covers the whole page
  --page-fill N             at most N bytes of events per page
  --page-ts-skew            page timestamps earlier than their first event
                            (nonzero first deltas; time extends can open a
                            page), as older kernels wrote them
  --abs-stamps              absolute TIME_STAMP events (type_len 31) instead
                            of TIME_EXTEND for deltas of 2^27 and more
  --discard N               before every Nth record (not kernel_stack), a
                            discarded event (padding with a time delta and a
                            length) where the time gap allows
  --old-header-event        header_event text without the time_stamp line
                            (kernels before 5.x)
  --add-signed              give field lines without "signed:" (before
                            2.6.33) the attribute, as later kernels print it:
                            the same binary layout, for readers that need it
  --clock NAME              trace clock (default local)
  --tsc2nsec MULT,SHIFT,OFFSET
                            TSC2NSEC option (id 14): report times are
                            ((raw * MULT) >> SHIFT) + OFFSET... as libtracecmd
                            computes them (the option's own offset is not
                            added by libtracecmd 1.3.1)
  --ts-offset N             OFFSET option (id 7): N ns added to every time
  --uname TEXT              UNAME option
  --only-buffer NAME        write only buffer NAME ("" the top), as the
                            top-level buffer (a single-buffer companion file)
  --truth FILE              also write the ground truth (JSON, see below)
  --seed N                  for --page-ts-skew and --discard choices

The spec (SPEC, "-" for stdin)
  Line oriented; "#" starts a comment line; blank lines are ignored.
  [kallsyms]          the following lines verbatim: /proc/kallsyms
                      ("ADDR TYPE NAME" or "ADDR TYPE NAME<TAB>[MODULE]")
  [cmdlines]          the following lines verbatim: saved_cmdlines
                      ("PID COMM")
  [printk]            the following lines verbatim: printk_formats
  [buffer]            the records that follow go to the top-level buffer
  [buffer NAME]       ... to the buffer instance NAME (v6: BUFFER option
                      and its own flyrecord data; v7: BUFFER option and
                      section).  A buffer named but given no record is
                      written empty.  Records before any [buffer] line go
                      to the top-level buffer.
  cpus N              (in a buffer) the buffer's CPU count; the file's is
                      the largest (default: highest CPU used + 1)
  CPU TS EVENT [FIELD=VALUE...]
                      one record: TS is the ring-buffer timestamp (integer,
                      or SECONDS.NANOSECONDS); EVENT a name from --formats;
                      each FIELD is written at its offset and size in the
                      file's endianness.  VALUE: an integer (decimal, 0x...,
                      negative); a string for char arrays, __data_loc and
                      __rel_loc fields (bare, or "quoted" with \\ \" \\n
                      escapes); comma-separated integers for arrays.  An
                      array given fewer or more elements than declared,
                      when it is the last field, makes the record that long
                      (kernel_stack's caller[]: "size" frames).  pid=N is
                      common_pid; fields not given are 0.  Records of a CPU
                      must not go back in time.
  lost CPU N|?        the next page of CPU starts with the missed-events
                      flag, N stored at the end of its data (the kernel's
                      RB_MISSED_STORED), or "?": not stored (unknown count)
  page CPU            the next record of CPU opens a new page, and may be
                      stamped before the record ahead of it (the kernel's
                      page boundaries: a page's last event can carry a
                      later time than the next page's first; or damage)

The ground truth (--truth FILE, JSON)
  {"version", "compression", "endian", "long_size", "kernel_long_size",
   "page_size", "clock", "cpus", "ts_offset", "tsc2nsec": [M, S, O] | null,
   "events": {NAME: {"id", "system", "print_fmt", "fields": [{"name",
              "type", "offset", "size", "signed"}...]}},
   "kallsyms": TEXT, "cmdlines": {PID: COMM},
   "buffers": [{"name", "cpus", "cpus_with_data", "pages": {CPU: N},
                "records": [{"cpu", "ts", "raw_ts", "event", "pid", "comm",
                "fields": {NAME: VALUE}, "layout": {...}, and
                "lost_before": N or -1 when the record opens a page with
                missed events}]}]}
  "records" are in the order libtracecmd reads them (by "ts", then CPU,
  then position); "ts" is the time trace-cmd report prints (after
  TSC2NSEC and OFFSET), "raw_ts" the ring buffer's.  "layout" is where
  the record is: "off" (its event header's offset in the ring-buffer
  page, page header included), "size" (the payload, as libtracecmd's
  record->size), "delta" (the header's time delta), "page_ts" (the page's
  timestamp, for the first record of a page) and "after" (the padding,
  time-extend and time-stamp events between it and the next record of
  the page: [KIND, DELTA or TIMESTAMP, LENGTH]), what `trace-cmd report
  --debug` shows.

Byte layout notes (what the readers must get right)
  - All numbers are in the file's byte order, the event header too: a
    32-bit word whose type_len (5 bits) and time_delta (27 bits) are the
    low and high bits on little-endian machines, the high and low ones on
    big-endian machines (C bitfields are allocated from the other end).
  - The ring-buffer page header is a u64 timestamp and a "commit" of the
    kernel's long size (header_page's commit field; the file header's
    long size is userspace's and may differ); commit bit 31 says events
    were lost before the page, bit 30 that their count (a kernel long) is
    stored right after the page's data; the low 27 bits are the data size.
  - An event of more than 112 bytes (or every event, with
    RB_FORCE_8BYTE_ALIGNMENT) has type_len 0 and a length word, which
    counts itself; payloads are rounded up to 4 bytes (8 with --align8),
    and a 12-byte event becomes 16.
  - A delta of 2^27 or more takes a TIME_EXTEND (type_len 30: low 27 bits
    in the header, the rest in the next word) before the event, whose own
    delta is then 0; TIME_STAMP (31) holds an absolute time the same way.
    libtracecmd's time for a record is the page timestamp plus every
    delta up to it (padding events' deltas included), then TSC2NSEC's
    ((t * mult) >> shift, its offset unused) and OFFSET's addition.
  - libtracecmd's record offset is the file offset of the page plus the
    offset of the event header in it.  For compressed data it is a
    made-up offset: the CPUs' decompressed data one after the other from
    page_size on, each starting page aligned.
  - v7 compressed: a metadata section's data is u32 compressed size, u32
    size, then the block (zlib: RFC 1950, compress2() level 9; zstd: a
    frame); a CPU's data is u32 chunk count, then per chunk the same two
    sizes and the block, 10 pages per chunk by default.

--mutate KIND (not in --help) writes deliberately wrong files, for the
tests' check that a wrong writer is caught: bitfield, delta, dataloc,
field-endian, commit, lost, page-ts, kallsyms.
"""

import argparse
import ctypes
import ctypes.util
import json
import random
import re
import struct
import sys
import zlib

MAGIC = b"\x17\x08\x44tracing"

# ring buffer event types (include/linux/ring_buffer.h)
RB_PADDING = 29
RB_TIME_EXTEND = 30
RB_TIME_STAMP = 31
RB_MAX_SMALL_DATA = 28 * 4
TS_BITS = 27
TS_MASK = (1 << TS_BITS) - 1
MISSED_EVENTS = 1 << 31      # commit flags (RB_MISSED_EVENTS, RB_MISSED_STORED)
MISSED_STORED = 1 << 30

# v7 section / option ids (trace-cmd.h enum tracecmd_option_id)
OPT_DONE = 0
OPT_DATE = 1
OPT_CPUSTAT = 2
OPT_BUFFER = 3
OPT_TRACECLOCK = 4
OPT_UNAME = 5
OPT_HOOK = 6
OPT_OFFSET = 7
OPT_CPUCOUNT = 8
OPT_VERSION = 9
OPT_TSC2NSEC = 14
OPT_STRINGS = 15
OPT_HEADER_INFO = 16
OPT_FTRACE_EVENTS = 17
OPT_EVENT_FORMATS = 18
OPT_KALLSYMS = 19
OPT_PRINTK = 20
OPT_CMDLINES = 21
SEC_FL_COMPRESS = 1

# --mutate KIND: deliberately wrong output, for the tests' check that a
# wrong writer is caught (never for real cases)
MUTATE = None
MUTATIONS = ("bitfield", "delta", "dataloc", "field-endian", "commit", "lost",
             "page-ts", "kallsyms")

FTRACE_EVENTS = {"kernel_stack", "user_stack", "function", "funcgraph_entry",
                 "funcgraph_exit", "print", "bprint", "bputs", "context_switch",
                 "wakeup", "raw_data", "branch", "hwlat", "osnoise",
                 "timerlat", "func_repeats", "mmiotrace_rw", "mmiotrace_map"}

CLOCKS = ["local", "global", "counter", "uptime", "perf", "mono", "mono_raw",
          "boot", "tai", "x86-tsc"]


class SpecError(Exception):
    pass


# ---------------------------------------------------------------- formats

class Field:
    __slots__ = ("name", "type", "offset", "size", "signed", "arraylen",
                 "elem", "dyn", "is_char", "line")

    def __repr__(self):
        return "Field(%s %s @%d/%d)" % (self.type, self.name, self.offset,
                                       self.size)


class Event:
    def __init__(self, name, eid, text, fields, print_fmt, system):
        self.name = name
        self.id = eid
        self.text = text
        self.fields = fields            # common fields first, in text order
        self.byname = {f.name: f for f in fields}
        self.print_fmt = print_fmt
        self.system = system


FIELD_RE = re.compile(r"^\s*field:(?P<decl>[^;]*);\s*offset:(?P<off>\d+);"
                      r"\s*size:(?P<size>\d+);(?:\s*signed:(?P<sig>\d+);)?")


def parse_field(line):
    m = FIELD_RE.match(line)
    if not m:
        return None
    decl = m.group("decl").strip()
    f = Field()
    f.line = line
    f.offset = int(m.group("off"))
    f.size = int(m.group("size"))
    f.arraylen = None
    f.dyn = None
    am = re.match(r"^(?P<type>.*?)\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
                  r"\s*(?:\[(?P<len>[^\]]*)\])?$", decl)
    if not am:
        raise SpecError("cannot parse field %r" % line)
    ftype, name, alen = am.group("type").strip(), am.group("name"), \
        am.group("len")
    if ftype.startswith("__data_loc"):
        f.dyn = "data_loc"
        ftype = ftype[len("__data_loc"):].strip()
    elif ftype.startswith("__rel_loc"):
        f.dyn = "rel_loc"
        ftype = ftype[len("__rel_loc"):].strip()
    # "char[] name" style: the brackets belong to the type
    tm = re.match(r"^(.*?)\s*\[(\d*)\]$", ftype)
    if tm:
        ftype = tm.group(1)
        alen = tm.group(2) if alen is None else alen
    f.name = name
    f.type = ftype
    if alen is not None and f.dyn is None:
        try:
            f.arraylen = int(alen, 0) if alen else 0
        except ValueError:
            f.arraylen = 0
    if m.group("sig") is not None:
        f.signed = int(m.group("sig"))
    else:       # before 2.6.33 formats have no "signed:"
        f.signed = 0 if ("unsigned" in ftype or "*" in ftype) else \
            int(bool(re.search(r"\b(int|long|short|s8|s16|s32|s64)\b",
                               ftype)) and "char" not in ftype)
    f.is_char = bool(re.search(r"\bchar\b", ftype)) and "*" not in ftype
    if f.arraylen:
        f.elem = f.size // f.arraylen
    elif f.dyn:
        f.elem = 1 if f.is_char else None
    else:
        f.elem = f.size
    return f


def add_signed(text):
    """Give every field line without "signed:" one, as kernels since
    2.6.33 print it (is_signed_type() of the field's type)."""
    def fix(m):
        line = m.group(0)
        if "signed:" in line:
            return line
        f = parse_field(line)
        return line.rstrip() + "\tsigned:%d;" % f.signed
    return re.sub(r"(?m)^\s*field:.*$", fix, text)


def parse_formats(path, system=None, with_signed=False):
    with open(path) as fh:
        text = fh.read()
    if with_signed:
        text = add_signed(text)
    out = []
    for chunk in re.split(r"(?m)^(?=name: )", text):
        if not chunk.strip():
            continue
        if not chunk.endswith("\n"):
            chunk += "\n"
        m = re.match(r"name: (\S+)\nID: (\d+)\n", chunk)
        if not m:
            raise SpecError("%s: event text without name:/ID: lines" % path)
        fields = []
        pf = ""
        for line in chunk.splitlines():
            if line.startswith("print fmt: "):
                pf = line[len("print fmt: "):]
            f = parse_field(line)
            if f is not None:
                fields.append(f)
        name = m.group(1)
        sysname = system or ("ftrace" if name in FTRACE_EVENTS else "kmem")
        out.append(Event(name, int(m.group(2)), chunk, fields, pf, sysname))
    return out


# ---------------------------------------------------------------- spec

def parse_value(tok):
    """An integer, a list of integers, or a string."""
    if tok.startswith('"'):
        if len(tok) < 2 or not tok.endswith('"'):
            raise SpecError("unterminated string %r" % tok)
        s = tok[1:-1]
        return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(
            m.group(1), m.group(1)), s)
    if "," in tok:
        try:
            return [int(x, 0) for x in tok.split(",") if x != ""]
        except ValueError:
            return tok
    try:
        return int(tok, 0)
    except ValueError:
        return tok


TOKEN_RE = re.compile(r'(?:[^\s"]+|"(?:[^"\\]|\\.)*")+')


def parse_ts(tok):
    if "." in tok:
        sec, frac = tok.split(".", 1)
        if len(frac) > 9:
            raise SpecError("timestamp %r: more than 9 decimals" % tok)
        return int(sec) * 10 ** 9 + int(frac.ljust(9, "0"))
    return int(tok, 0)


class Spec:
    def __init__(self):
        self.kallsyms = ""
        self.cmdlines = ""
        self.printk = ""
        self.buffers = {"": {"cpus": None, "items": []}}
        self.order = [""]


def read_spec(fh):
    sp = Spec()
    section = "buffer"
    buf = sp.buffers[""]
    raw = {"kallsyms": [], "cmdlines": [], "printk": []}
    for lineno, line in enumerate(fh, 1):
        line = line.rstrip("\n")
        st = line.strip()
        m = re.match(r"^\[(kallsyms|cmdlines|printk|buffer)(?:\s+(.*))?\]$", st)
        if m:
            section = m.group(1)
            if section == "buffer":
                name = (m.group(2) or "").strip()
                if name not in sp.buffers:
                    sp.buffers[name] = {"cpus": None, "items": []}
                    sp.order.append(name)
                buf = sp.buffers[name]
            continue
        if section in raw:
            if st.startswith("#") and section != "kallsyms":
                continue
            if st == "":
                continue
            raw[section].append(line)
            continue
        if st == "" or st.startswith("#"):
            continue
        toks = TOKEN_RE.findall(st)
        try:
            if toks[0] == "cpus":
                buf["cpus"] = int(toks[1])
            elif toks[0] == "lost":
                n = None if toks[2] == "?" else int(toks[2], 0)
                buf["items"].append(("lost", int(toks[1]), n, lineno))
            elif toks[0] == "page":
                buf["items"].append(("page", int(toks[1]), None, lineno))
            else:
                cpu, ts, ev = int(toks[0]), parse_ts(toks[1]), toks[2]
                vals = {}
                for t in toks[3:]:
                    k, sep, v = t.partition("=")
                    if not sep:
                        raise SpecError("%r is not FIELD=VALUE" % t)
                    if k == "pid":
                        k = "common_pid"
                    vals[k] = parse_value(v)
                buf["items"].append(("rec", cpu, ts, ev, vals, lineno))
        except (IndexError, ValueError) as e:
            raise SpecError("spec line %d: %s: %r" % (lineno, e, line))
    for k in raw:
        setattr(sp, k, "".join(x + "\n" for x in raw[k]))
    return sp


# ---------------------------------------------------------------- encoding

class Enc:
    """Numbers in the file's endianness."""

    def __init__(self, big, klong):
        self.e = ">" if big else "<"
        self.big = big
        self.klong = klong

    def u16(self, v):
        return struct.pack(self.e + "H", v & 0xffff)

    def u32(self, v):
        return struct.pack(self.e + "I", v & 0xffffffff)

    def u64(self, v):
        return struct.pack(self.e + "Q", v & 0xffffffffffffffff)

    def num(self, v, size):
        if size not in (1, 2, 4, 8):
            raise SpecError("number of %d bytes" % size)
        return (v & ((1 << (8 * size)) - 1)).to_bytes(
            size, "big" if self.big else "little")

    def header_word(self, type_len, delta):
        """The 32-bit event header: struct ring_buffer_event {u32
        type_len:5, time_delta:27;}.  The compiler allocates bitfields from
        the least significant bit on little-endian machines and from the
        most significant bit on big-endian ones."""
        big = self.big
        if MUTATE == "bitfield":
            big = not big
        if big:
            w = (type_len << 27) | (delta & TS_MASK)
        else:
            w = ((delta & TS_MASK) << 5) | type_len
        return self.u32(w)


def struct_align(ev):
    a = 1
    for f in ev.fields:
        el = f.elem if f.elem else 4
        a = max(a, min(el, 8))
    return a


def encode_record(ev, vals, enc):
    """The event's payload (what follows the ring-buffer event header)."""
    for k in vals:
        if k not in ev.byname:
            raise SpecError("%s has no field %s" % (ev.name, k))
    last = max(ev.fields, key=lambda f: f.offset)
    fixed_end = max(f.offset + f.size for f in ev.fields)
    al = struct_align(ev)
    size = (fixed_end + al - 1) // al * al
    data = bytearray(size)
    dyn_tail = bytearray()
    written = {}
    length = None          # a trailing array of another length
    for f in ev.fields:
        if f.name == "common_type":
            v = ev.id
        else:
            v = vals.get(f.name, 0)
        if f.dyn:
            if isinstance(v, int):
                v = "" if v == 0 else str(v)
            if isinstance(v, str):
                b = v.encode() + b"\0"
            else:
                b = b"".join(enc.num(x, f.elem or 1) for x in v)
            off = size + len(dyn_tail)
            dyn_tail += b
            if f.dyn == "rel_loc":
                loc = off - (f.offset + f.size)
            else:
                loc = off
            if MUTATE == "dataloc":
                loc += 1
            word = (len(b) << 16) | loc
            if f.size == 4:
                data[f.offset:f.offset + 4] = enc.u32(word)
            elif f.size == 2:       # ancient 2-byte offset-only strings
                data[f.offset:f.offset + 2] = enc.u16(off)
            else:
                raise SpecError("%s.%s: dynamic field of %d bytes"
                                % (ev.name, f.name, f.size))
            written[f.name] = v
        elif f.arraylen is not None:
            if f.is_char and f.elem == 1:
                if isinstance(v, int):
                    v = "" if v == 0 else str(v)
                b = v.encode() if isinstance(v, str) else bytes(v)
                b = b[:f.size].ljust(f.size, b"\0")
                data[f.offset:f.offset + f.size] = b
                written[f.name] = v
                continue
            if isinstance(v, int):
                v = [v] if v else []
            b = b"".join(enc.num(x, f.elem) for x in v)
            if f is last and len(v) != f.arraylen:
                # a dynamic trailing array: the record holds len(v) items
                length = f.offset + len(b)
                del data[f.offset:]
                data[f.offset:] = b
            else:
                if len(v) > f.arraylen:
                    raise SpecError("%s.%s: %d elements, %d declared"
                                    % (ev.name, f.name, len(v), f.arraylen))
                data[f.offset:f.offset + f.size] = b.ljust(f.size, b"\0")
            written[f.name] = list(v)
        else:
            if not isinstance(v, int):
                raise SpecError("%s.%s: %r is not a number"
                                % (ev.name, f.name, v))
            b = enc.num(v, f.size)
            if MUTATE == "field-endian" and not f.name.startswith("common_"):
                b = b[::-1]
            data[f.offset:f.offset + f.size] = b
            written[f.name] = v
    if length is not None:
        if dyn_tail:
            raise SpecError("%s: a trailing array and dynamic fields"
                            % ev.name)
        data = data[:length]
    data += dyn_tail
    return bytes(data), written


def event_bytes(payload, delta, enc, align8):
    """Header (and length word) + payload, as rb_update_event() lays out an
    event of len(payload) data bytes."""
    n = len(payload) or 1
    align = 8 if align8 else 4
    length = n
    if n > RB_MAX_SMALL_DATA or align8:
        length += 4
    length += 4
    length = (length + align - 1) // align * align
    if length == 12:                # RB_LEN_TIME_EXTEND + RB_ALIGNMENT
        length += 4
    body = length - 4
    if body > RB_MAX_SMALL_DATA or align8:
        hdr = enc.header_word(0, delta) + enc.u32(body)
        room = body - 4
    else:
        hdr = enc.header_word((body + 3) // 4, delta)
        room = body
    return hdr + payload.ljust(room, b"\0")


def time_extend(delta, enc, absolute=False):
    t = RB_TIME_STAMP if absolute else RB_TIME_EXTEND
    return enc.header_word(t, delta & TS_MASK) + enc.u32(delta >> TS_BITS)


class Page:
    def __init__(self, ts):
        self.ts = ts
        self.data = bytearray()
        self.last = ts
        self.lost = 0          # 0, a count, or -1 (not stored)
        self.records = []


def build_pages(items, enc, opt, rng, cap_base):
    """[Page] of one CPU from its items (("lost", n) / records with
    payload and ts), laid out as the kernel's ring buffer does.  Every
    record gets "layout": where libtracecmd finds it (offset of its event
    header in the page, payload size, header time delta) and the non-data
    events that follow it on the page (as `trace-cmd report --debug`
    lists them)."""
    pages = []
    cur = None
    pending_lost = None
    prev_ts = None
    back_ok = False            # a "page" item: the next may go back
    nrec = 0
    hdr = 8 + enc.klong

    def cap(page):
        c = cap_base
        if page.lost and page.lost > 0:
            c -= enc.klong     # room for the stored count
        return c

    def te(delta_or_ts):
        if opt.abs_stamps:
            return ("TIME STAMP", delta_or_ts, 0,
                    time_extend(delta_or_ts, enc, True))
        return ("TIME EXTEND", delta_or_ts, 0, time_extend(delta_or_ts, enc))

    def place(page, pre, payload, delta, rec):
        """Append pre items and the event; False if it does not fit."""
        if opt.mutate == "delta" and len(page.records) == 3:
            delta += 1          # (a wrong writer, for the tests' self-check)
        ev = event_bytes(payload, delta, enc, opt.align8)
        if len(page.data) + sum(len(p[3]) for p in pre) + len(ev) > cap(page):
            return False
        if page.records:
            after = page.records[-1]["layout"]["after"]
            after += [[p[0], p[1], p[2]] for p in pre]
        for p in pre:
            page.data += p[3]
        off = hdr + len(page.data)
        body = len(ev) - 4
        size = body - 4 if (body > RB_MAX_SMALL_DATA or opt.align8) else body
        rec["layout"] = {"off": off, "size": size, "delta": delta,
                         "after": []}
        if not page.records:
            rec["layout"]["page_ts"] = page.ts
        page.data += ev
        page.last = rec["raw_ts"]
        page.records.append(rec)
        return True

    for it in items:
        if it[0] == "lost":
            pending_lost = -1 if it[1] is None else it[1]
            if cur is not None:
                cur = None
            continue
        if it[0] == "page":
            if cur is not None:
                close_page(cur, enc, opt, cap(cur))
                cur = None
            back_ok = True
            continue
        _, ts, payload, rec, is_stack = it
        if prev_ts is not None and ts < prev_ts and not back_ok:
            raise SpecError("spec line %d: time goes back on CPU %d"
                            % (rec["_line"], rec["cpu"]))
        nrec += 1
        placed = False
        if cur is not None and pending_lost is None:
            delta = ts - cur.last
            pre = []
            # a discarded event before this one (filtered out): padding
            # with a time delta and a length (rb_event_discard())
            if opt.discard and not is_stack and nrec % opt.discard == 0 \
                    and 2 <= delta <= TS_MASK:
                d1 = rng.randint(1, delta - 1)
                ln = 4 * rng.randint(3, 20)
                if opt.align8 and (ln + 4) % 8:
                    ln += 4     # events stay 8-byte aligned
                pre.append(("PADDING", d1, ln, enc.header_word(RB_PADDING, d1)
                            + enc.u32(ln) + bytes(ln - 4)))
                delta -= d1
            if delta > TS_MASK:
                pre.append(te(ts if opt.abs_stamps else delta))
                delta = 0
            placed = place(cur, pre, payload, delta, rec)
            if not placed:
                close_page(cur, enc, opt, cap(cur))
        if not placed:
            page_ts = ts
            if opt.page_ts_skew and pending_lost is None:
                lo = min(prev_ts, ts) if prev_ts is not None \
                    else max(0, ts - (1 << 30))
                if rng.random() < 0.5:
                    page_ts = rng.randint(lo, ts)
            if opt.mutate == "page-ts":
                page_ts += 1000
            cur = Page(page_ts)
            if pending_lost is not None:
                cur.lost = pending_lost
                pending_lost = None
            pages.append(cur)
            delta = ts - page_ts
            pre = []
            if delta > TS_MASK:
                pre.append(te(ts if opt.abs_stamps else delta))
                delta = 0
            if not place(cur, pre, payload, delta, rec):
                raise SpecError("a record of %d bytes does not fit a page"
                                % len(payload))
            if cur.lost:
                rec["lost_before"] = cur.lost
        prev_ts = ts
        back_ok = False
    if pending_lost is not None:
        # lost events after the last record: an empty page that says so
        p = Page(prev_ts or 0)
        p.lost = pending_lost
        pages.append(p)
    return pages


def close_page(page, enc, opt, cap):
    """A page left because the next event does not fit."""
    if opt.pad_pages:
        left = cap - len(page.data)
        if left >= 8:
            # rb_reset_tail(): a discarded event to the end of the page,
            # time delta 1, and the commit covers it
            page.data += enc.header_word(RB_PADDING, 1) + enc.u32(left - 4) \
                + bytes(left - 8)
            if page.records:
                page.records[-1]["layout"]["after"].append(
                    ["PADDING", 1, left - 4])


def page_bytes(page, enc, page_size):
    hdr = 8 + enc.klong
    commit = len(page.data)
    data = bytes(page.data)
    flags = 0
    if page.lost:
        flags |= MISSED_EVENTS
        if page.lost > 0:
            data += enc.num(page.lost, enc.klong)
            flags |= MISSED_STORED
    if MUTATE == "commit" and commit > 8:
        commit -= 4
    if MUTATE == "lost":
        flags = 0
    out = enc.u64(page.ts) + enc.num(commit | flags, enc.klong) + data
    if len(out) > page_size:
        raise SpecError("page overflow")
    return out + bytes(page_size - len(out))


# ---------------------------------------------------------------- compression

class Zstd:
    def __init__(self):
        name = ctypes.util.find_library("zstd") or "libzstd.so.1"
        try:
            lib = ctypes.CDLL("libzstd.so.1")
        except OSError:
            lib = ctypes.CDLL(name)
        lib.ZSTD_compressBound.restype = ctypes.c_size_t
        lib.ZSTD_compressBound.argtypes = [ctypes.c_size_t]
        lib.ZSTD_compress.restype = ctypes.c_size_t
        lib.ZSTD_compress.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                      ctypes.c_void_p, ctypes.c_size_t,
                                      ctypes.c_int]
        lib.ZSTD_isError.restype = ctypes.c_uint
        lib.ZSTD_isError.argtypes = [ctypes.c_size_t]
        lib.ZSTD_versionString.restype = ctypes.c_char_p
        self.lib = lib
        self.version = lib.ZSTD_versionString().decode()

    def compress(self, data):
        cap = self.lib.ZSTD_compressBound(len(data))
        out = ctypes.create_string_buffer(cap)
        src = ctypes.create_string_buffer(bytes(data), len(data))
        n = self.lib.ZSTD_compress(out, cap, src, len(data), 15)
        if self.lib.ZSTD_isError(n):
            raise SpecError("zstd compression failed")
        return out.raw[:n]


def zstd_available():
    try:
        Zstd()
        return True
    except (OSError, AttributeError):
        return False


class Compressor:
    def __init__(self, name):
        self.name = name
        if name == "none":
            self.version = ""
            self.fn = None
        elif name == "zlib":
            # trace-cmd's zlib plugin: compress2(Z_BEST_COMPRESSION),
            # uncompress(): the zlib format (RFC 1950), no other framing
            self.version = zlib.ZLIB_VERSION
            self.fn = lambda d: zlib.compress(bytes(d), 9)
        elif name == "zstd":
            z = Zstd()
            self.version = z.version
            self.fn = z.compress
        else:
            raise SpecError("unknown compression %s" % name)

    def block(self, enc, data):
        """One compressed block: u32 compressed size, u32 size, data."""
        c = self.fn(data)
        return enc.u32(len(c)) + enc.u32(len(data)) + c

    def chunks(self, enc, data, chunk):
        """Per-CPU data: u32 count, then per chunk u32 compressed size, u32
        size (a multiple of the page size), data."""
        parts = [bytes(data[i:i + chunk]) for i in range(0, len(data), chunk)]
        out = bytearray(enc.u32(len(parts)))
        for p in parts:
            out += self.block(enc, p)
        return bytes(out)


# ---------------------------------------------------------------- file pieces

def header_page_text(klong, page_size):
    hdr = 8 + klong
    return ("\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
            "\tfield: local_t commit;\toffset:8;\tsize:%d;\tsigned:1;\n"
            "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
            "\tfield: char data;\toffset:%d;\tsize:%d;\tsigned:0;\n"
            % (klong, hdr, page_size - hdr))


def header_event_text(old):
    t = ("# compressed entry header\n"
         "\ttype_len    :    5 bits\n"
         "\ttime_delta  :   27 bits\n"
         "\tarray       :   32 bits\n"
         "\n"
         "\tpadding     : type == 29\n"
         "\ttime_extend : type == 30\n")
    if not old:
        t += "\ttime_stamp : type == 31\n"
    return t + "\tdata max type_len  == 28\n"


def mul_u64_u32_shr(a, mul, shift):
    """libtracecmd's mul_u64_u32_shr(), with its 64-bit arithmetic."""
    m64 = (1 << 64) - 1
    al, ah = a & 0xffffffff, (a >> 32) & 0xffffffff
    ret = ((al * mul) & m64) >> shift
    if ah:
        ret = (ret + (((ah * mul) & m64) << (32 - shift))) & m64
    return ret


class Writer:
    def __init__(self, opt, spec, events):
        self.opt = opt
        self.spec = spec
        self.events = events
        self.byname = {}
        for ev in events:
            if ev.name in self.byname:
                raise SpecError("event %s given twice" % ev.name)
            self.byname[ev.name] = ev
        self.enc = Enc(opt.endian == "big", opt.kernel_long_size)
        self.fenc = self.enc
        self.rng = random.Random(opt.seed)
        self.comp = Compressor(opt.compression if opt.version >= 7
                               else "none")

    # ---- buffers
    def make_buffers(self):
        opt = self.opt
        names = list(self.spec.order)
        if opt.only_buffer is not None:
            if opt.only_buffer not in self.spec.buffers:
                raise SpecError("no buffer %r in the spec" % opt.only_buffer)
            names = [opt.only_buffer]
        maxcpu = -1
        for n in self.spec.order:
            b = self.spec.buffers[n]
            for it in b["items"]:
                maxcpu = max(maxcpu, it[1])
            if b["cpus"]:
                maxcpu = max(maxcpu, b["cpus"] - 1)
        self.cpus = maxcpu + 1 if maxcpu >= 0 else 1
        cap = opt.page_size - 8 - self.enc.klong
        if opt.page_fill:
            cap = min(cap, opt.page_fill)
        self.buffers = []
        cmd = {}
        for line in self.spec.cmdlines.splitlines():
            p = line.split(None, 1)
            if len(p) == 2:
                try:
                    cmd[int(p[0])] = p[1].strip()
                except ValueError:
                    pass
        self.cmdmap = cmd
        for n in names:
            b = self.spec.buffers[n]
            percpu = {}
            for it in b["items"]:
                cpu = it[1]
                lst = percpu.setdefault(cpu, [])
                if it[0] in ("lost", "page"):
                    lst.append((it[0], it[2]))
                    continue
                _, cpu, ts, evname, vals, line = it
                ev = self.byname.get(evname)
                if ev is None:
                    raise SpecError("spec line %d: no format for event %s"
                                    % (line, evname))
                try:
                    payload, written = encode_record(ev, vals, self.enc)
                except SpecError as e:
                    raise SpecError("spec line %d: %s" % (line, e))
                pid = vals.get("common_pid", 0)
                rec = {"cpu": cpu, "ts": self.report_ts(ts), "raw_ts": ts,
                       "event": evname, "pid": pid,
                       "comm": self.comm(pid),
                       "fields": {k: v for k, v in written.items()
                                  if not k.startswith("common_")},
                       "_line": line}
                lst.append(("rec", ts, payload, rec, evname == "kernel_stack"))
            pages = {}
            for cpu, lst in percpu.items():
                pages[cpu] = build_pages(lst, self.enc, opt, self.rng, cap)
            self.buffers.append({"name": n if opt.only_buffer is None else "",
                                 "orig": n, "pages": pages})

    def comm(self, pid):
        if pid == 0:
            return "<idle>"
        return self.cmdmap.get(pid, "<...>")

    def report_ts(self, ts):
        opt = self.opt
        if opt.tsc2nsec:
            m, s, _ = opt.tsc2nsec
            ts = mul_u64_u32_shr(ts, m, s)
        return ts + (opt.ts_offset or 0)

    def cpu_blob(self, buf, cpu):
        pages = buf["pages"].get(cpu)
        if not pages:
            return b""
        return b"".join(page_bytes(p, self.enc, self.opt.page_size)
                        for p in pages)

    # ---- metadata pieces (format version independent)
    def header_info(self):
        e = self.fenc
        hp = header_page_text(self.enc.klong, self.opt.page_size).encode()
        he = header_event_text(self.opt.old_header_event).encode()
        return (b"header_page\0" + e.u64(len(hp)) + hp +
                b"header_event\0" + e.u64(len(he)) + he)

    def ftrace_events(self):
        e = self.fenc
        evs = [ev for ev in self.events if ev.system == "ftrace"]
        out = bytearray(e.u32(len(evs)))
        for ev in evs:
            t = ev.text.encode()
            out += e.u64(len(t)) + t
        return bytes(out)

    def event_formats(self):
        e = self.fenc
        systems = []
        for ev in self.events:
            if ev.system != "ftrace" and ev.system not in systems:
                systems.append(ev.system)
        out = bytearray(e.u32(len(systems)))
        for s in systems:
            evs = [ev for ev in self.events if ev.system == s]
            out += s.encode() + b"\0" + e.u32(len(evs))
            for ev in evs:
                t = ev.text.encode()
                out += e.u64(len(t)) + t
        return bytes(out)

    def kallsyms(self):
        t = self.spec.kallsyms
        if MUTATE == "kallsyms":
            # every symbol 0x10 higher: the call sites print other offsets
            t = re.sub(r"(?m)^([0-9a-f]+)", lambda m: "%0*x" % (
                len(m.group(1)), int(m.group(1), 16) + 0x10), t)
        t = t.encode()
        return self.fenc.u32(len(t)) + t

    def printk(self):
        t = self.spec.printk.encode()
        return self.fenc.u32(len(t)) + t

    def cmdlines(self):
        t = self.spec.cmdlines.encode()
        return self.fenc.u64(len(t)) + t

    def clock_option(self):
        clocks = list(CLOCKS)
        if self.opt.clock not in clocks:
            clocks.append(self.opt.clock)
        return (" ".join("[%s]" % c if c == self.opt.clock else c
                         for c in clocks) + "\n\0").encode()

    def misc_options(self):
        """(id, data) of the options both versions carry."""
        e = self.fenc
        opts = [(OPT_TRACECLOCK, self.clock_option()),
                (OPT_UNAME, (self.opt.uname + "\0").encode()),
                (OPT_VERSION, b"tdat_writer 1\0"),
                (OPT_CPUCOUNT, e.u32(self.cpus))]
        if self.opt.tsc2nsec:
            m, s, o = self.opt.tsc2nsec
            opts.append((OPT_TSC2NSEC, e.u32(m) + e.u32(s) + e.u64(o)))
        if self.opt.ts_offset:
            opts.append((OPT_OFFSET, ("%d\0" % self.opt.ts_offset).encode()))
        return opts

    def option(self, oid, data):
        return self.fenc.u16(oid) + self.fenc.u32(len(data)) + data

    def initial(self):
        e = self.fenc
        return (MAGIC + b"%d\0" % self.opt.version +
                bytes([1 if e.big else 0, self.opt.long_size]) +
                e.u32(self.opt.page_size))

    # ---- version 6
    def write_v6(self):
        e = self.fenc
        ps = self.opt.page_size
        out = bytearray(self.initial())
        out += self.header_info()
        out += self.ftrace_events()
        out += self.event_formats()
        out += self.kallsyms()
        out += self.printk()
        out += self.cmdlines()
        out += e.u32(self.cpus)
        out += b"options  \0"
        for oid, data in self.misc_options():
            out += self.option(oid, data)
        inst_patch = {}
        for b in self.buffers[1:]:
            out += e.u16(OPT_BUFFER) + e.u32(8 + len(b["name"]) + 1)
            inst_patch[b["name"]] = len(out)
            out += e.u64(0) + b["name"].encode() + b"\0"
        out += e.u16(OPT_DONE)
        clock = ("[%s]" % self.opt.clock).encode()
        for i, b in enumerate(self.buffers):
            if i:
                out[inst_patch[b["name"]]:inst_patch[b["name"]] + 8] = \
                    e.u64(len(out))
            out += b"flyrecord\0"
            table = len(out)
            out += bytes(16 * self.cpus)
            out += e.u64(len(clock)) + clock
            for cpu in range(self.cpus):
                blob = self.cpu_blob(b, cpu)
                off = (len(out) + ps - 1) // ps * ps
                out += bytes(off - len(out))
                out[table + 16 * cpu:table + 16 * cpu + 16] = \
                    e.u64(off) + e.u64(len(blob))
                out += blob
        return bytes(out)

    # ---- version 7
    def write_v7(self):
        e = self.fenc
        ps = self.opt.page_size
        comp = self.comp
        compressing = comp.fn is not None
        strings = bytearray()

        def add_string(s):
            # trace-cmd adds every description anew
            i = len(strings)
            strings.extend(s.encode() + b"\0")
            return i

        out = bytearray(self.initial())
        out += comp.name.encode() + b"\0" + comp.version.encode() + b"\0"
        opt_start_at = len(out)
        out += e.u64(0)

        def section(sid, desc, payload, compress):
            start = len(out)
            flags = SEC_FL_COMPRESS if (compress and compressing) else 0
            if flags:
                payload = comp.block(e, payload)
            out.extend(e.u16(sid) + e.u16(flags) + e.u32(add_string(desc)) +
                       e.u64(len(payload)))
            out.extend(payload)
            return start

        offsets = {}
        offsets[OPT_HEADER_INFO] = section(OPT_HEADER_INFO, "headers",
                                           self.header_info(), True)
        offsets[OPT_FTRACE_EVENTS] = section(OPT_FTRACE_EVENTS,
                                             "ftrace events",
                                             self.ftrace_events(), True)
        offsets[OPT_EVENT_FORMATS] = section(OPT_EVENT_FORMATS,
                                             "events format",
                                             self.event_formats(), True)
        offsets[OPT_KALLSYMS] = section(OPT_KALLSYMS, "kallsyms",
                                        self.kallsyms(), True)
        offsets[OPT_PRINTK] = section(OPT_PRINTK, "printk", self.printk(),
                                      True)
        offsets[OPT_CMDLINES] = section(OPT_CMDLINES, "command lines",
                                        self.cmdlines(), True)

        # The first options section (the metadata sections' offsets and
        # the other options), then the buffer sections, then a second
        # options section with the BUFFER options, as trace-cmd record
        # lays them out.  The first section's DONE option holds the offset
        # of the second, which depends on the first's size: compressed,
        # that size depends on the offset, so iterate until it settles.
        opts1 = [(k, e.u64(v)) for k, v in sorted(offsets.items())]
        opts1 += self.misc_options()
        sec1_start = len(out)
        out[opt_start_at:opt_start_at + 8] = e.u64(sec1_start)
        body1 = self.options_body(opts1)
        next1 = 0
        for _ in range(8):
            enc1 = self.options_payload(body1, next1)
            sec1_len = 16 + len(enc1)
            buf_start = sec1_start + sec1_len
            layout = self.layout_buffers(buf_start)
            opts2_start = layout["end"]
            if opts2_start == next1:
                break
            next1 = opts2_start
        else:
            raise SpecError("options layout did not settle")
        out.extend(e.u16(OPT_DONE) + e.u16(self.options_flags()) +
                   e.u32(add_string("options")) + e.u64(len(enc1)))
        out.extend(enc1)
        assert len(out) == buf_start
        # the buffer sections
        bopts = []
        for b, (sec_at, cpudata) in zip(self.buffers, layout["buffers"]):
            assert len(out) == sec_at
            desc = "buffer flyrecord %s" % b["name"]
            hdr_at = len(out)
            flags = SEC_FL_COMPRESS if compressing else 0
            out.extend(e.u16(OPT_BUFFER) + e.u16(flags) +
                       e.u32(add_string(desc)) + e.u64(0))
            cpus = []
            for cpu, off, blob in cpudata:
                out.extend(bytes(off - len(out)))
                out.extend(blob)
                # trace-cmd's tracecmd_compress_copy_from() counts the
                # chunks' bytes, not the 4-byte chunk count before them:
                # real files give each CPU 4 bytes less than it has
                cpus.append((cpu, off, len(blob) - 4 if compressing
                             else len(blob)))
            out[hdr_at + 8:hdr_at + 16] = e.u64(len(out) - hdr_at - 16)
            data = (e.u64(sec_at) + b["name"].encode() + b"\0" +
                    self.opt.clock.encode() + b"\0" + e.u32(ps) +
                    e.u32(len(cpus)))
            for cpu, off, size in cpus:
                data += e.u32(cpu) + e.u64(off) + e.u64(size)
            bopts.append((OPT_BUFFER, data))
        assert len(out) == opts2_start
        enc2 = self.options_payload(self.options_body(bopts), 0)
        out.extend(e.u16(OPT_DONE) + e.u16(self.options_flags()) +
                   e.u32(add_string("options")) + e.u64(len(enc2)))
        out.extend(enc2)
        # the strings, last (their own description included)
        sid = add_string("strings")
        payload = bytes(strings)
        flags = 0
        if compressing:
            flags = SEC_FL_COMPRESS
            payload = comp.block(e, payload)
        out.extend(e.u16(OPT_STRINGS) + e.u16(flags) + e.u32(sid) +
                   e.u64(len(payload)))
        out.extend(payload)
        return bytes(out)

    def options_flags(self):
        if self.opt.compress_options and self.comp.fn is not None:
            return SEC_FL_COMPRESS
        return 0

    def options_body(self, opts):
        body = bytearray()
        for oid, data in opts:
            body += self.option(oid, data)
        return bytes(body)

    def options_payload(self, body, next_off):
        e = self.fenc
        p = body + e.u16(OPT_DONE) + e.u32(8) + e.u64(next_off)
        if self.options_flags():
            p = self.comp.block(e, p)
        return p

    def layout_buffers(self, start):
        """Positions of the buffer sections from @start: per buffer the
        section header offset and (cpu, data offset, bytes) of every CPU
        with data (page aligned, as trace-cmd writes them)."""
        ps = self.opt.page_size
        pos = start
        res = []
        chunk = ps * self.opt.chunk_pages
        for b in self.buffers:
            sec_at = pos
            pos += 16
            cpudata = []
            for cpu in range(self.cpus):
                blob = b.get("_blob%d" % cpu)
                if blob is None:
                    raw = self.cpu_blob(b, cpu)
                    if raw and self.comp.fn is not None:
                        blob = self.comp.chunks(self.fenc, raw, chunk)
                    else:
                        blob = raw
                    b["_blob%d" % cpu] = blob
                if not blob:
                    continue
                off = (pos + ps - 1) // ps * ps
                cpudata.append((cpu, off, blob))
                pos = off + len(blob)
            res.append((sec_at, cpudata))
        return {"buffers": res, "end": pos}

    # ---- truth
    def truth(self):
        opt = self.opt
        evs = {}
        for ev in self.events:
            evs[ev.name] = {
                "id": ev.id, "system": ev.system, "print_fmt": ev.print_fmt,
                "fields": [{"name": f.name, "type": f.type,
                            "offset": f.offset, "size": f.size,
                            "signed": f.signed,
                            "array": f.arraylen, "dynamic": f.dyn}
                           for f in ev.fields]}
        bufs = []
        for b in self.buffers:
            recs = []
            for cpu, pages in b["pages"].items():
                pos = 0
                for p in pages:
                    for r in p.records:
                        recs.append((r["ts"], cpu, pos, r))
                        pos += 1
            recs.sort(key=lambda x: (x[0], x[1], x[2]))
            out = []
            for _, _, _, r in recs:
                r = dict(r)
                r.pop("_line", None)
                out.append(r)
            cpus_with = sorted(b["pages"])
            bufs.append({"name": b["name"], "cpus": self.cpus,
                         "cpus_with_data": cpus_with,
                         "pages": {str(c): len(p)
                                   for c, p in sorted(b["pages"].items())},
                         "records": out})
        return {"version": opt.version,
                "compression": self.comp.name,
                "endian": opt.endian, "long_size": opt.long_size,
                "kernel_long_size": opt.kernel_long_size,
                "page_size": opt.page_size, "clock": opt.clock,
                "cpus": self.cpus, "ts_offset": opt.ts_offset or 0,
                "tsc2nsec": list(opt.tsc2nsec) if opt.tsc2nsec else None,
                "events": evs, "kallsyms": self.spec.kallsyms,
                "cmdlines": {str(k): v for k, v in self.cmdmap.items()},
                "buffers": bufs}


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spec", required=True)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--formats", nargs="+", action="extend", required=True)
    ap.add_argument("--version", type=int, choices=(6, 7), default=7)
    ap.add_argument("--compression", choices=("none", "zlib", "zstd"),
                    default="none")
    ap.add_argument("--chunk-pages", type=int, default=10)
    ap.add_argument("--compress-options", action="store_true")
    ap.add_argument("--endian", choices=("little", "big"), default="little")
    ap.add_argument("--long-size", type=int, choices=(4, 8), default=8)
    ap.add_argument("--kernel-long-size", type=int, choices=(4, 8))
    ap.add_argument("--page-size", type=int, default=4096)
    ap.add_argument("--align8", action="store_true")
    ap.add_argument("--pad-pages", action="store_true")
    ap.add_argument("--page-fill", type=int)
    ap.add_argument("--page-ts-skew", action="store_true")
    ap.add_argument("--abs-stamps", action="store_true")
    ap.add_argument("--discard", type=int, default=0)
    ap.add_argument("--old-header-event", action="store_true")
    ap.add_argument("--add-signed", action="store_true")
    ap.add_argument("--clock", default="local")
    ap.add_argument("--tsc2nsec")
    ap.add_argument("--ts-offset", type=int, default=0)
    ap.add_argument("--uname", default="Linux tdat 6.18.0 x86_64")
    ap.add_argument("--only-buffer")
    ap.add_argument("--truth")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mutate", choices=MUTATIONS, help=argparse.SUPPRESS)
    opt = ap.parse_args(argv)
    global MUTATE
    MUTATE = opt.mutate
    if opt.kernel_long_size is None:
        opt.kernel_long_size = opt.long_size
    ps = opt.page_size
    if ps < 4096 or ps & (ps - 1):
        ap.error("--page-size must be a power of two, 4096 or more "
                 "(libtracecmd mmaps the pages)")
    if opt.version == 6 and opt.compression != "none":
        ap.error("compression needs --version 7")
    if opt.tsc2nsec:
        try:
            m, s, o = (int(x, 0) for x in opt.tsc2nsec.split(","))
        except ValueError:
            ap.error("--tsc2nsec MULT,SHIFT,OFFSET")
        if not 0 < s < 32:
            ap.error("--tsc2nsec: SHIFT must be 1..31")
        opt.tsc2nsec = (m, s, o)
    try:
        events = []
        for f in opt.formats:
            sysname = None
            if re.match(r"^[A-Za-z0-9_]+:", f) and not f.startswith("/"):
                sysname, f = f.split(":", 1)
            events += parse_formats(f, sysname, opt.add_signed)
        if opt.spec == "-":
            spec = read_spec(sys.stdin)
        else:
            with open(opt.spec) as fh:
                spec = read_spec(fh)
        w = Writer(opt, spec, events)
        w.make_buffers()
        data = w.write_v6() if opt.version == 6 else w.write_v7()
    except (SpecError, OSError) as e:
        sys.stderr.write("tdat_writer: %s\n" % e)
        return 2
    with open(opt.output, "wb") as fh:
        fh.write(data)
    if opt.truth:
        with open(opt.truth, "w") as fh:
            fh.write(json.dumps(w.truth()))     # (dumps: the C encoder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
