#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""kallsyms_resolve.py: kallsyms made to be hard to resolve, and what
every call site must resolve to, computed here on its own.

    kallsyms_resolve.py write VARIANT OUT.dat [tdat_writer options...]
    kallsyms_resolve.py check VARIANT DOC.json

write: a trace whose kallsyms holds the hard cases (runs of symbols at
one address, lines out of order, module symbols, 'A'/'a' and '$'
symbols, empty lines, lines sscanf() reads but the fast path does not,
addresses below the first symbol and past the last), between filler
symbols so that the text crosses the readers' buffers, and one kmalloc
record per address to resolve (call_site=ADDR, bytes_alloc unique).
VARIANT: "main", "end" (a line that does not parse ends the table
early), "nul" (a NUL ends the text early), "end1" and "nul1" (the same
in the first half of the text), "big" (20 MB of filler: a compressed
section is read through a small buffer, not held), "held", "heldend"
and "heldnul" (11 MB of filler, held: its decompression outlasts the
counting of the records, and the pass follows it; the last two end the
table at two thirds of the text), "low" (the text of
"main", but no address wanted above a third of the filler: the symbol
after the last one wanted must bound it, not the text's last).  Every text has a
run of 200 symbols at one address across its middle, where a text in
memory is cut in two for two threads.

check: every call site of trace-kmem stat --slab --caller -l 0 --json is
what libtraceevent's rules give: the symbols are the lines up to the
first one that does not parse (or a NUL), less types 'A'/'a' and names
starting with '$'; sorted by address, and at one address the last line
first; an address resolves to the symbol bsearch() finds with
libtraceevent's comparison (at a symbol, or between it and the next;
nothing past the last), glibc's bsearch() midpoints.  Prints PASS or
FAIL lines; exit status 1 on a FAIL.
"""

import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, "..", "..")
WRITER = os.path.join(HERE, "tdat_writer.py")
FORMATS = os.path.join(TOP, "tests", "formats", "linux-6.18-x86_64.txt")

BASE = 0xffffffff81000000
MIDRUN = BASE + 0x980000   # the run across the middle of the text


def hard_lines():
    """The hard cases, as lines (no newline), in file order."""
    L = []
    L.append("%016x T _stext" % BASE)
    # runs at one address, of 2 to 7 symbols, spread over the text
    for r in range(24):
        a = BASE + 0x100000 + r * 0x20000
        for j in range(2 + r % 6):
            L.append("%016x %s run%d_%d" % (a, "tT"[j % 2], r, j))
    # out of order
    L.append("%016x t late_low" % (BASE + 0x80))
    L.append("%016x t late_mid" % (BASE + 0x100000 + 5 * 0x20000 + 0x10))
    # module symbols
    L.append("%016x t mod_a\t[mod_one]" % (BASE + 0x900000))
    L.append("%016x T mod_b\t[mod_one]" % (BASE + 0x900100))
    # left out: absolute symbols and '$' names
    L.append("%016x A abs_sym" % (BASE + 0x900080))
    L.append("%016x a abs_local" % (BASE + 0x9000c0))
    L.append("%016x t $x.1" % (BASE + 0x9000e0))
    # empty lines are skipped
    L.append("")
    L.append("")
    # lines the fast path leaves to sscanf
    L.append("  %016x t leading_space" % (BASE + 0x900200))
    L.append("%x t short_addr" % 0x1234)
    L.append("%016x  t two_spaces" % (BASE + 0x900400))
    L.append("%016X T upper_hex" % (BASE + 0x900500))
    L.append("%016x t name_then\ttab_tail" % (BASE + 0x900600))
    L.append("%016x T _etext" % (BASE + 0xa00000))
    return L


def filler(n, at):
    return ["%016x t filler_%07d" % (at + i * 0x40, i) for i in range(n)]


def text_of(variant):
    hard = hard_lines()
    nfill = {"big": 1000000, "held": 300000, "heldend": 300000,
             "heldnul": 300000}.get(variant, 60000)
    fill = filler(nfill, BASE + 0x1000000)
    # the hard lines spread through the filler
    lines = []
    step = max(1, len(fill) // len(hard))
    for i, h in enumerate(hard):
        lines.extend(fill[i * step:(i + 1) * step])
        lines.append(h)
    lines.extend(fill[len(hard) * step:])
    mid = len(lines) // 2
    lines[mid:mid] = ["%016x %s mid_run_%d" % (MIDRUN, "tT"[j % 2], j)
                      for j in range(200)]
    if variant in ("end", "end1", "heldend"):
        at = len(lines) * (1 if variant == "end1" else 2) // 3
        lines.insert(at, "this line does not parse")
    text = "\n".join(lines)		# no newline after the last line
    if variant in ("nul", "nul1", "heldnul"):
        at = len(text) * (1 if variant == "nul1" else 2) // 3
        text = text[:at] + "\0" + text[at:]
    return text


def queries(text, variant="main"):
    """The addresses to resolve: at, around and between the symbols;
    for "low", only those below a third of the filler's addresses, so
    that most symbols (the whole second half of the text) lie above the
    last address wanted."""
    syms = symbols(text)
    hard = set(a for a, _, _ in symbols("\n".join(hard_lines())))
    addrs = set()
    for a in hard | set(a for a, _, _ in syms[::2000]):
        addrs.update((a, a + 1, a + 0x10, a - 1))
    lo = min(a for a, _, _ in syms)
    hi = max(a for a, _, _ in syms)
    addrs.update((lo - 1, lo, hi, hi + 1, hi + 0x1000, BASE + 0x900080,
                  BASE + 0x9000c0, BASE + 0x9000e0, 1, MIDRUN - 1, MIDRUN,
                  MIDRUN + 1, MIDRUN + 0x10))
    top = BASE + 0x1000000 + 20000 * 0x40 if variant == "low" else 1 << 64
    return sorted(a for a in addrs if 0 < a < top)


LINE = re.compile(r"^[ \t\n\v\f\r]*([0-9a-fA-F]{1,16}+)[ \t\n\v\f\r]*"
                  r"([^ \t\n\v\f\r])[ \t\n\v\f\r]*([^ \t\n\v\f\r]+)")


def symbols(text):
    """(address, line number, name) of each symbol, in file order."""
    text = text.split("\0", 1)[0]
    out = []
    n = 0
    for line in text.split("\n"):
        if line == "":
            continue
        m = LINE.match(line)
        if not m:
            break
        n += 1
        addr, typ, name = int(m.group(1), 16), m.group(2), m.group(3)
        if typ in "Aa" or name.startswith("$"):
            continue
        out.append((addr, n, name))
    return out


def resolve_all(text, addrs):
    syms = sorted(symbols(text), key=lambda s: (s[0], -s[1]))
    arr = syms + [(0, 0, None)]		# the sentinel

    def cmp(key, i):
        a, b = arr[i][0], arr[i + 1][0]
        if key == a or (key > a and key < b):
            return 0
        return -1 if key < a else 1

    out = {}
    for key in addrs:
        lo, hi, found = 0, len(syms), None
        while lo < hi:			# glibc's bsearch()
            mid = (lo + hi) // 2
            c = cmp(key, mid)
            if c < 0:
                hi = mid
            elif c > 0:
                lo = mid + 1
            else:
                found = mid
                break
        if found is None or arr[found][0] > key:
            out[key] = "0x%x" % key
        else:
            out[key] = "%s+0x%x" % (arr[found][2], key - arr[found][0])
    return out


def write(variant, path, args):
    sys.path.insert(0, HERE)
    import importlib.util
    sp = importlib.util.spec_from_file_location("tdat_writer", WRITER)
    tw = importlib.util.module_from_spec(sp)
    sp.loader.exec_module(tw)
    text = text_of(variant)
    plain = tw.read_spec

    def read_spec(fh):
        s = plain(fh)
        s.kallsyms = text
        return s

    tw.read_spec = read_spec
    rec = ["[buffer]"]
    ts = 1000
    for i, a in enumerate(queries(text, variant)):
        rec.append("%d %d kmalloc pid=100 call_site=%#x ptr=%#x bytes_req=8 "
                   "bytes_alloc=%d gfp_flags=0xcc0 node=-1"
                   % (i % 2, ts, a, 0xffff888100000000 + i * 64, 8 + i))
        ts += 1000
    with tempfile.NamedTemporaryFile("w", suffix=".spec", delete=False) as f:
        f.write("\n".join(rec) + "\n")
    try:
        return tw.main(["--spec", f.name, "-o", path, "--formats", FORMATS]
                       + args)
    finally:
        os.unlink(f.name)


def check(variant, doc):
    text = text_of(variant)
    want = resolve_all(text, queries(text, variant))
    got = {}
    for row in json.load(open(doc))["slab"]["callsites"]:
        got[int(row["address"], 16)] = row["callsite"]
    bad = [a for a in want if got.get(a) != want[a]]
    name = "kallsyms-resolve:%s:%s" % (variant, os.path.basename(doc))
    if bad or len(got) != len(want):
        for a in bad[:5]:
            print("  %#x: got %s, want %s" % (a, got.get(a), want[a]))
        print("FAIL %s: %d of %d call sites resolved otherwise"
              % (name, len(bad), len(want)))
        return 1
    print("PASS %s (%d call sites)" % (name, len(want)))
    return 0


def main():
    if sys.argv[1] == "write":
        return write(sys.argv[2], sys.argv[3], sys.argv[4:])
    return check(sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    sys.exit(main())
