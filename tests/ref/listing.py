# SPDX-License-Identifier: LGPL-2.1
"""Reading `trace-cmd report` listings of trace-cmd 3.1 and 3.3.

Every reference and listing check of the tests reads record lines with
this module (in Python, or through `python3 listing.py ...` from the
shell), so that a format change of trace-cmd is dealt with in one place.

A record line is parsed into a Record: comm, pid, cpu, ts (nanoseconds),
ts_text (the timestamp as printed), event, rest (the text after
"event:"), flags (the latency/flags column, or None) and instance (the
"NAME:" prefix of a buffer instance's line, or None).  fields(rest)
splits rest into name=value pairs; each value is a Value, a str holding
the text libtraceevent printed for the field without the address 3.3
appends to a %pS value, with that address (or None) as .addr.

What differs between trace-cmd 3.1.6 / libtraceevent 1.7.1 (Debian 12)
and trace-cmd 3.3.1 / libtraceevent 1.8.4 (Debian 13), seen on every
file of sample-data/ and the foreign traces of tests/tdat/:

 1. Raw listings (-R): 3.3 prints the record's common_flags as "-0x%x"
    straight after the CPU: "comm-pid [001]-0x0  1214.657812404: ...";
    3.1 prints "comm-pid [001]  1214.657812404: ...".
 2. Formatted listings (no -R): 3.3 prints the latency column (irqs-off,
    need-resched, hardirq/softirq, preempt depth, migrate-disable) after
    the CPU: "comm-pid [001] .....  1214.657812: kfree: ..."; 3.1 does
    not (without -l).  Its width follows the event's common_* fields:
    5 characters for recent kernels, 7 (".....00") with 2.6.32's
    formats (common_lock_depth).
 3. A %pS/%ps field (call_site) in a raw listing: 3.3 prints the symbol
    and then the address, "call_site=do_sys_openat2+0xa2
    (0xffffffff816d22d2)"; 3.1 prints "call_site=do_sys_openat2+0xa2"
    only, and the address must be recovered from the kallsyms (not
    uniquely: names repeat).  With no symbol for the address (kallsyms
    blanked, or none recorded) 3.3 prints "call_site= (0xffffffff816d22d2)"
    and 3.1 the bare "0xffffffff816d22d2" / "ffffffff816d22d2".
    Formatted listings (no -R) print the symbol only in both.
 4. Unchanged in both: the timestamp (-t: 9 decimals, else 6), the
    "CPU:N [EVENTS DROPPED]" / "CPU:N [COUNT EVENTS DROPPED]" lines, an
    instance's "NAME:" prefix, kernel stacks ("=> sym" lines after a
    kernel_stack record; "=> sym (ffffffff...)" without -N), numeric
    gfp_flags / accounted in -R, --cpu filters, `report -f`, `report
    --stat` and the `trace-cmd dump` outputs the tests read.
"""

import re
import sys
from collections import namedtuple

# One record line of either version: [instance:] comm-pid [cpu] (3.3:
# "-0xFLAGS" with -R, " FLAGS" latency column without) ts: event: rest
LINE_RE = re.compile(
    r"^\s*(?P<comm>.*?)-(?P<pid>-?\d+)\s+\[(?P<cpu>\d+)\]"
    r"(?:-0x(?P<rawflags>[0-9a-fA-F]+)|\s+(?P<lat>[.a-zA-Z0-9]{4,10})(?=\s))?"
    r"\s+(?P<ts>\d+(?:\.\d+)?):\s+(?P<event>[A-Za-z0-9_]+):\s?(?P<rest>.*)$")
DROP_RE = re.compile(r"^CPU:(\d+) \[(?:(\d+) )?EVENTS DROPPED\]$")
FIELD_SPLIT_RE = re.compile(r"\s+(?=[A-Za-z_][A-Za-z0-9_]*=)")
# 3.3's "symbol+0xoff (0xaddr)" (symbol empty when unknown)
ADDR_SUFFIX_RE = re.compile(r"^(?P<text>\S*)\s*\((?P<addr>0x[0-9a-fA-F]+)\)$")
FRAME_RE = re.compile(r"^\s*=> (\S+)")

Record = namedtuple("Record", "comm pid cpu ts ts_text event rest flags "
                              "instance")


def parse_ts(ts):
    """Nanoseconds of a printed timestamp (seconds.fraction)."""
    if "." in ts:
        sec, frac = ts.split(".")
        if len(frac) > 9:
            raise ValueError("timestamp with more than 9 decimals: %s" % ts)
        return int(sec) * 10 ** 9 + int(frac.ljust(9, "0"))
    return int(ts)


def parse_line(line, instances=()):
    """The Record of a record line, or None.  Lines of a buffer instance
    start with "NAME:"; give the instance names to have the prefix taken
    off (else it stays part of comm, as trace-cmd 3.1 and 3.3 both print
    it in front of the comm column)."""
    inst = None
    for n in instances:
        if line.startswith(n + ":"):
            inst, line = n, line[len(n) + 1:]
            break
    m = LINE_RE.match(line)
    if not m:
        return None
    flags = m.group("rawflags")
    flags = int(flags, 16) if flags is not None else m.group("lat")
    return Record(m.group("comm"), int(m.group("pid")), int(m.group("cpu")),
                  parse_ts(m.group("ts")), m.group("ts"), m.group("event"),
                  m.group("rest"), flags, inst)


def parse_drop(line):
    """(cpu, count or None) of an EVENTS DROPPED line, or None."""
    m = DROP_RE.match(line.strip())
    if not m:
        return None
    return int(m.group(1)), int(m.group(2)) if m.group(2) is not None \
        else None


class Value(str):
    """A field's printed text (3.3's "(0xaddr)" suffix taken off); .addr
    is that address, or None when the listing gave none."""
    addr = None


def split_value(v):
    """(text, address or None) of a printed field value."""
    m = ADDR_SUFFIX_RE.match(v.strip())
    if m:
        return m.group("text"), int(m.group("addr"), 16)
    return v, None


def fields(rest):
    """{name: Value} of a record's name=value text."""
    out = {}
    for tok in FIELD_SPLIT_RE.split(rest.strip()):
        k, sep, v = tok.partition("=")
        if sep:
            text, addr = split_value(v)
            val = Value(text)
            val.addr = addr
            out[k] = val
    return out


def records(text, instances=()):
    """Yield ("drop", cpu, count|None) and ("ev", Record) in the printed
    order; other lines (stack frames, headers) are skipped."""
    for line in text.splitlines():
        d = parse_drop(line)
        if d is not None:
            yield ("drop",) + d
            continue
        r = parse_line(line, instances)
        if r is not None:
            yield ("ev", r)


def is_record_line(line):
    return parse_line(line) is not None


def count(text):
    """(records, drops, unparsed lines) of a listing: every line must be a
    record, an EVENTS DROPPED line, a kernel stack frame, a "cpus=" /
    "version =" header or empty.  A record's fields must split into
    name=value pairs (unless the event prints no such text)."""
    nrec = ndrop = 0
    bad = []
    for line in text.splitlines():
        if (not line.strip() or line.startswith("cpus=") or
                line.startswith("version = ") or FRAME_RE.match(line)):
            continue
        if parse_drop(line) is not None:
            ndrop += 1
            continue
        r = parse_line(line)
        if r is None:
            bad.append(line)
            continue
        nrec += 1
        if "=" in r.rest and not FRAME_RE.match(r.rest) and \
                not fields(r.rest):
            bad.append(line)
    return nrec, ndrop, bad


USAGE = """usage: listing.py COMMAND [FILE]
  tsv      one tab-separated line per record line of the listing (stdin
           or FILE): comm pid cpu ts_text event rest
  count    "records N drops N unparsed N" of the listing, then the first
           unparsed lines; exit 1 if any
"""


def main(argv):
    if len(argv) < 2 or argv[1] not in ("tsv", "count"):
        sys.stderr.write(USAGE)
        return 2
    f = open(argv[2], errors="replace") if len(argv) > 2 else sys.stdin
    out = sys.stdout
    if argv[1] == "count":
        nrec, ndrop, bad = count(f.read())
        out.write("records %d drops %d unparsed %d\n" % (nrec, ndrop,
                                                         len(bad)))
        for line in bad[:5]:
            out.write("  %s\n" % line[:200])
        return 1 if bad else 0
    for line in f:
        r = parse_line(line.rstrip("\n"))
        if r is not None:
            out.write("%s\t%d\t%d\t%s\t%s\t%s\n" % (
                r.comm.strip(), r.pid, r.cpu, r.ts_text, r.event, r.rest))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
