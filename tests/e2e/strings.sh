#!/bin/bash
# A trace's strings are bytes: a crafted trace whose cache name, comm,
# file name and call-site symbol hold invalid UTF-8 (a lone 0xe5, 0xff,
# an overlong '/', a surrogate, a truncated sequence), control
# characters and markup.  The JSON (trace-kmem stat --json, the plugin's
# -O kmem:json), the SVG (trace-kmem plot) and the folded stacks
# (--folded) must pass Python's strict UTF-8, JSON and XML parsers, keep
# the valid characters and say U+FFFD for each bad byte.  The text
# reports (trace-kmem stat's tables and lines, the plugin's) keep the
# bytes but write each control character as '?'.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail strings "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never

# the damaged strings, and what each writer must make of them
cat >"$WORK/damaged.py" <<'PY'
import codecs
CACHE = b'c\xe5\xff\xc0\xaf\xed\xa0\x80\xe2\x82"<&>\'\x01\x1b\\\xc3\xa9\xe2\x82\xac;x'
SYM = b'sym\xe5;a\xff<b>&\x01"\xed\xa0\x80\xf4\x90\x80\x80z\xc3\xa9'
COMM = b'w\xe5 k\xff<&>"\x01;\xc3\xa9'
# one U+FFFD for each byte that starts no valid sequence
codecs.register_error("perbyte", lambda e: ("\ufffd", e.start + 1))


def text(b):
    return b.decode("utf-8", "perbyte")


def xml(b):			# and control characters U+FFFD
    return "".join("\ufffd" if ord(c) < 0x20 else c for c in text(b))


def frame(b):			# ';' ':', control characters '_'
    return "".join(":" if c == ";" else "_" if ord(c) < 0x20 else c for c in text(b))


def line(b):			# the text reports: bytes, control characters '?'
    return bytes(63 if c < 0x20 or c == 0x7f else c for c in b)
PY

# placeholders of the damaged strings' lengths, patched in after writing
PYTHONPATH=$WORK:$PYTHONPATH python3 - "$TOP" "$WORK" <<'PY' || { fail strings-craft "the trace was not written"; finish; }
import os, subprocess, sys
from damaged import CACHE, SYM, COMM
top, work = sys.argv[1], sys.argv[2]
ph = {k: (k.upper() * 40)[:len(v)] for k, v in (("q", CACHE), ("s", SYM), ("w", COMM))}
spec = "\n".join([
    "[kallsyms]", "ffffffff81000000 T _stext",
    "ffffffff81100000 T trace_event_raw_event_kmalloc",
    "ffffffff81200000 T %s" % ph["s"], "ffffffff81200400 T do_sys_open",
    "ffffffff81400000 T _etext",
    "[cmdlines]", "100 %s" % ph["w"],
    "[buffer]",
    "0 1.000001 kmem_cache_alloc pid=100 call_site=0xffffffff81200010 ptr=0xffff888100000100 "
    "name=%s bytes_req=40 bytes_alloc=64 gfp_flags=0xcc0 node=-1" % ph["q"],
    "0 1.000002 kernel_stack pid=100 size=3 caller=0xffffffff81100010,0xffffffff81200010,0xffffffff81200410",
    "0 1.000003 kmalloc pid=100 call_site=0xffffffff81200010 ptr=0xffff888100000200 "
    "bytes_req=40 bytes_alloc=64 gfp_flags=0xcc0 node=-1",
    "0 1.000004 mm_page_alloc pid=100 pfn=0x1000 order=0 gfp_flags=0xcc0 migratetype=0",
    "0 1.000005 kmem_cache_free pid=100 call_site=0xffffffff81200410 ptr=0xffff888100000100 name=%s" % ph["q"],
]) + "\n"
open(os.path.join(work, "s.spec"), "w").write(spec)
out = os.path.join(work, "s.dat")
subprocess.run([sys.executable, os.path.join(top, "tests/tdat/tdat_writer.py"), "--spec",
                os.path.join(work, "s.spec"), "-o", out, "--version", "6", "--formats",
                os.path.join(top, "tests/formats/linux-6.18-x86_64.txt"),
                os.path.join(top, "tests/formats/page-linux-6.18-x86_64.txt")],
               check=True, stdout=subprocess.DEVNULL)
d = open(out, "rb").read()
for k, v in (("q", CACHE), ("s", SYM), ("w", COMM)):
    assert ph[k].encode() in d, k
    d = d.replace(ph[k].encode(), v)
# the file's own name is damaged too
open(os.path.join(work, b"t\xe5<&>.dat".decode("utf-8", "surrogateescape")), "wb").write(d)
PY
T=$WORK/$(printf 't\345<&>.dat')

# valid KIND FILE NAME...: strict UTF-8, then the format's own parser;
# each NAME (CACHE, SYM, COMM, FILE) as the format must write it
valid() {
	PYTHONPATH=$WORK:$PYTHONPATH python3 - "$@" <<'PY'
import json, sys, xml.etree.ElementTree as ET
import damaged
import jsondocs
kind, path = sys.argv[1], sys.argv[2]
want = [getattr(damaged, n, b"t\xe5<&>.dat") for n in sys.argv[3:]]
raw = open(path, "rb").read()
# strict: fails on any bad byte (text reports keep the trace's bytes)
text = raw.decode("utf-8") if kind != "text" else None
if kind == "json":
    strings = []

    def walk(v):
        if isinstance(v, dict):
            strings.extend(v)
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, str):
            strings.append(v)
    for d in jsondocs.parse(text):
        walk(d)
    for w in map(damaged.text, want):
        assert any(w in s for s in strings), (w, [s for s in strings if "\ufffd" in s])
elif kind == "text":		# bytes as they are, control characters '?'
    assert not any(c < 0x20 and c not in b"\n" or c == 0x7f for c in raw), \
        [l for l in raw.splitlines() if any(c < 0x20 or c == 0x7f for c in l)]
    for w in map(damaged.line, want):
        assert w in raw, (w, raw[:2000])
elif kind == "svg":
    texts = ["".join(e.itertext()) for e in ET.fromstring(raw).iter()]
    for w in map(damaged.xml, want):
        assert any(w in t for t in texts), (w, [t for t in texts if "\ufffd" in t])
else:				# folded: [ALLOCATOR];FRAME;FRAME... COUNT
    lines = text.splitlines()
    for line in lines:
        stack, count = line.rsplit(" ", 1)
        assert count.isdigit(), line
        frames = stack.split(";")
        assert frames[0] in ("[slab]", "[page]", "[vmalloc]"), line
        assert len(frames) <= 3 and all(f and not any(ord(c) < 0x20 for c in f)
                                         for f in frames), line
    for w in map(damaged.frame, want):
        assert "[slab];do_sys_open;%s 64" % w in lines, (w, lines)
PY
}

"$TK" stat --all --per-process --json="$WORK/o.json" -o /dev/null "$T" 2>"$WORK/e"
check strings-stat-json valid json "$WORK/o.json" CACHE SYM COMM FILE
report -i "$T" -O kmem:json="$WORK/p.json" >/dev/null 2>&1
check strings-plugin-json valid json "$WORK/p.json" CACHE SYM
"$TK" plot -o "$WORK/o.svg" "$T" 2>"$WORK/e"
check strings-plot-svg valid svg "$WORK/o.svg" SYM
"$TK" stat --folded="$WORK/o.folded" -o /dev/null "$T" 2>"$WORK/e"
check strings-folded valid folded "$WORK/o.folded" SYM
# the text reports: the tables, the lifetimes' and the anomalies' lines
"$TK" stat --all --per-process --lifetimes --caller --lines 0 -o "$WORK/o.txt" "$T" 2>"$WORK/e"
check strings-stat-text valid text "$WORK/o.txt" CACHE SYM COMM
report -i "$T" -O kmem:stat -O kmem:all -O kmem:lifetimes -O kmem:output="$WORK/p.txt" >/dev/null 2>&1
check strings-plugin-text valid text "$WORK/p.txt" CACHE SYM
finish
