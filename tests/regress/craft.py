#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""craft.py OUTDIR: the reproducers of tests/regress/corpus/, remade.
craft.py --generated OUTDIR: the ones too big to keep (MANIFEST's
generated/ files), written at run time.

One small trace is written with tests/tdat/tdat_writer.py (Linux 6.18
x86_64 slab formats, two CPUs, a few dozen records), and each defect of
issue 9 is made from it, the way the mutated file that found it was
damaged (see MANIFEST for what each one is and what must happen).
Deterministic: the same bytes every run.  Python 3, standard library.
"""
import importlib.util
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(TOP, "tests", "lib"))
import tdat_layout  # noqa: E402

WRITER = os.path.join(TOP, "tests", "tdat", "tdat_writer.py")
FORMATS = os.path.join(TOP, "tests", "formats", "linux-6.18-x86_64.txt")

KALLSYMS = """ffffffff81000000 T _stext
ffffffff81200000 T alloc_inode
ffffffff81200400 T destroy_inode
ffffffff81300000 T seq_open
ffffffff81300400 T seq_release
ffffffff81400000 T _etext
"""


# page and slab records for the ppc32 formats (format-number-size-9-be.dat)
PAGE_SIZE9_SPEC = """[cmdlines]
100 worker
[buffer]
0 1000 mm_page_alloc pid=100 pfn=0x1000 order=0 gfp_flags=0xcc0 migratetype=0
1 2000 mm_page_alloc pid=100 pfn=0x1001 order=1 gfp_flags=0x400dc0 migratetype=1
0 3000 mm_page_free pid=100 pfn=0x1000 order=0
1 4000 kmalloc pid=100 call_site=0xc0100000 ptr=0xc1000000 bytes_req=40 bytes_alloc=64 gfp_flags=0xcc0
"""


def spec(cmdlines=("100 worker", "101 helper"), instance=False, n=40):
    out = ["[kallsyms]", KALLSYMS.rstrip("\n"), "[cmdlines]"] + list(cmdlines)
    out.append("[buffer]")
    ts = 1000
    for i in range(n):
        cpu = i % 2
        ptr = 0xffff888100001000 + (i % 10) * 0x40
        if i % 4 < 2:
            out.append("%d %d kmalloc pid=100 call_site=0xffffffff81300010 ptr=%#x "
                       "bytes_req=%d bytes_alloc=64 gfp_flags=0xcc0 node=-1" % (cpu, ts, ptr, 40 + i))
        else:
            out.append("%d %d kfree pid=101 call_site=0xffffffff81300410 ptr=%#x" % (cpu, ts, ptr - 0x80))
        ts += 1000
    if instance:
        out.append("[buffer inst]")
        for i in range(10):
            out.append("0 %d kmalloc pid=100 call_site=0xffffffff81200010 ptr=%#x "
                       "bytes_req=24 bytes_alloc=32 gfp_flags=0xcc0 node=-1" % (ts, 0xffff888200000000 + i * 32))
            ts += 1000
    return "\n".join(out) + "\n"


def write(path, text, formats=FORMATS, *args):
    with tempfile.NamedTemporaryFile("w", suffix=".spec", delete=False) as f:
        f.write(text)
    try:
        subprocess.run([sys.executable, WRITER, "--spec", f.name, "-o", path,
                        "--formats", formats] + list(args), check=True)
    finally:
        os.unlink(f.name)
    return bytearray(open(path, "rb").read())


def write_damaged(path, text, *args, length=None):
    """write(), tdat_writer run here with its pages damaged before they
    are compressed: the last record of the first page of CPU 0 gets
    type_len 0 and a length word of a whole page (or length(its offset
    in the page, the page size)), so that it runs past the end of its
    page (its size, 4092, is no larger than one); its data still starts
    with its event's type."""
    sp = importlib.util.spec_from_file_location("tdat_writer", WRITER)
    tw = importlib.util.module_from_spec(sp)
    sp.loader.exec_module(tw)
    plain = tw.page_bytes
    victim = []

    def damaged(page, enc, page_size):
        out = bytearray(plain(page, enc, page_size))
        if not victim and page.records and page.records[0]["cpu"] == 0:
            victim.append(page)
        if victim[:1] == [page]:
            at = page.records[-1]["layout"]["off"]
            word = struct.unpack_from("<I", out, at)[0] & ~0x1f
            etype = bytes(out[at + 4:at + 6])     # still its event's record
            n = length(at, page_size) if length else page_size
            out[at:at + 10] = le("I", word) + le("I", n) + etype
        return bytes(out)

    tw.page_bytes = damaged
    with tempfile.NamedTemporaryFile("w", suffix=".spec", delete=False) as f:
        f.write(text)
    try:
        if tw.main(["--spec", f.name, "-o", path, "--formats", FORMATS] + list(args)):
            raise SystemExit("tdat_writer failed")
    finally:
        os.unlink(f.name)
    return bytearray(open(path, "rb").read())


def le(fmt, v):
    return struct.pack("<" + fmt, v)


def formats_with_id(tmp, name, new_id):
    """The format file with @name's "ID:" line changed."""
    text = open(FORMATS).read()
    head = "name: %s\nID: " % name
    at = text.index(head) + len(head)
    end = text.index("\n", at)
    path = os.path.join(tmp, "formats-%s-%d.txt" % (name, new_id))
    open(path, "w").write(text[:at] + str(new_id) + text[end:])
    return path


def formats_with_field(tmp, name, old, new):
    """The format file with one field line of @name's format changed:
    the text @old (in that format) made @new."""
    text = open(FORMATS).read()
    at = text.index("name: %s\n" % name)
    end = text.index("print fmt:", at)
    block = text[at:end]
    assert old in block
    path = os.path.join(tmp, "formats-%s-%s.txt" % (name, new.replace(";", "").replace(":", "-")))
    open(path, "w").write(text[:at] + block.replace(old, new, 1) + text[end:])
    return path


PAGE_FORMATS = (FORMATS, os.path.join(TOP, "tests", "formats", "page-linux-6.18-x86_64.txt"),
                os.path.join(TOP, "tests", "tdat", "formats", "page-free-linux-6.18-x86_64.txt"))


def stack_spec(n=3000):
    """@n page allocations, each with its kernel_stack record, of three
    stacks (innermost first: tracing and allocator frames, then the
    caller): two with seq_open+0x10 as call site (one without
    get_page_from_freelist), order 0, one with pipe_write+0x10, order 1;
    every fifth page freed at the end.  For PAGE_FORMATS."""
    head = """ffffffff81000000 T _stext
ffffffff81100000 T trace_event_raw_event_mm_page_alloc
ffffffff81100400 T get_page_from_freelist
ffffffff81100800 T __alloc_pages_noprof
ffffffff81200000 T seq_open
ffffffff81200400 T do_sys_open
ffffffff81200800 T entry_SYSCALL_64
ffffffff81300000 T pipe_write
ffffffff81300400 T ksys_write
ffffffff81400000 T _etext"""
    tr, gp, ap = 0xffffffff81100010, 0xffffffff81100420, 0xffffffff81100830
    seq = [0xffffffff81200010, 0xffffffff81200420, 0xffffffff81200830]
    pipe = [0xffffffff81300010, 0xffffffff81300420, 0xffffffff81200830]
    stacks = [[tr, gp, ap] + seq, [tr, ap] + seq, [tr, gp, ap] + pipe]
    out = ["[kallsyms]", head, "[cmdlines]", "100 worker", "[buffer]"]
    ts = 1000000
    for i in range(n):
        s = stacks[i % 3]
        out.append("%d %d mm_page_alloc pid=100 pfn=%d order=%d gfp_flags=0xcc0 migratetype=0"
                   % (i % 2, ts, 0x1000 + i, i % 3 // 2))
        out.append("%d %d kernel_stack size=%d caller=%s"
                   % (i % 2, ts + 1, len(s), ",".join("%#x" % a for a in s)))
        ts += 1000
    for i in range(0, n, 5):
        out.append("%d %d mm_page_free pid=100 pfn=%d order=%d" % (i % 2, ts, 0x1000 + i, i % 3 // 2))
        ts += 1000
    return "\n".join(out) + "\n"


def big_kallsyms(size, head=KALLSYMS):
    """About @size bytes of /proc/kallsyms as a distribution kernel has it
    (text, data and module symbols, "ADDR t NAME" and "ADDR t NAME\t[MOD]"
    lines), with the few symbols of @head (the call sites, below
    0xffffffff81400010) in place."""
    n = 0
    line = "%016x %s %s_%07d\n"
    # the core kernel's symbols, after _etext (past the call sites)
    addr = 0xffffffff81400010
    chunk = []
    total = len(head)
    kinds = "tTtdDbrt"
    while total < size // 2:
        s = line % (addr, kinds[n % 8], "filler_function_name", n)
        chunk.append(s)
        total += len(s)
        addr += 0x40
        n += 1
    # modules: "\t[module]" after the name
    addr = 0xffffffffc0000000
    mline = "%016x %s %s_%07d\t[%s_%d]\n"
    while total < size:
        s = mline % (addr, kinds[n % 8], "module_symbol", n, "some_module", n // 500)
        chunk.append(s)
        total += len(s)
        addr += 0x40
        n += 1
    return head + "".join(chunk)


def write_big_kallsyms(path, size, *args, text=None, formats=(FORMATS,)):
    """spec()'s trace (or the spec @text, with the formats @formats) with
    big_kallsyms(@size) as its kallsyms, the spec's own [kallsyms] lines
    first, written by tdat_writer (the text is handed to it, not parsed
    from a spec)."""
    sp = importlib.util.spec_from_file_location("tdat_writer", WRITER)
    tw = importlib.util.module_from_spec(sp)
    sp.loader.exec_module(tw)
    plain = tw.read_spec
    body = text if text is not None else spec()
    ks = body.split("[kallsyms]\n", 1)[1].split("\n[", 1)[0] + "\n"
    text = big_kallsyms(size, ks)

    def read_spec(fh):
        s = plain(fh)
        s.kallsyms = text
        return s

    tw.read_spec = read_spec
    with tempfile.NamedTemporaryFile("w", suffix=".spec", delete=False) as f:
        f.write(body)
    try:
        if tw.main(["--spec", f.name, "-o", path, "--formats"] + list(formats) + list(args)):
            raise SystemExit("tdat_writer failed")
    finally:
        os.unlink(f.name)


def generated(out):
    """The files too big to keep in corpus/, written at run time."""
    os.makedirs(out, exist_ok=True)
    # kmalloc's print fmt of 1 MB: the format probes (lib/fmtprobe.c)
    # printed it once per GFP bit and per value shown (at 10 MB, for
    # minutes); 1 MB, as trace-cmd's own listing of such a record takes
    # seconds a megabyte
    text = open(FORMATS).read()
    at = text.index("accounted=%s", text.index("name: kmalloc\n")) + len("accounted=%s")
    f = os.path.join(out, "formats-huge.txt")
    open(f, "w").write(text[:at] + " pad=" + "x" * 1000000 + text[at:])
    one = spec()
    one = "\n".join(one.split("\n")[:one.split("\n").index("[buffer]") + 2]) + "\n"
    write(os.path.join(out, "kmalloc-fmt-1mb.dat"), one, f, "--version", "6")
    os.unlink(f)
    # a kallsyms section of 100 MB (v7 zstd, 6 MB in the file): the
    # native reader indexed every symbol (170 MB), libtracecmd parses
    # every one (about 4 times the section)
    write_big_kallsyms(os.path.join(out, "kallsyms-100mb.dat"), 100 << 20,
                       "--version", "7", "--compression", "zstd")


def upstream(tmp):
    """issue 20: the defects of stock libtracecmd and libkshark that
    damaged files reach (Documentation/upstream-defects.txt), each made
    of the small trace with one change."""
    files = {}
    b6 = write(os.path.join(tmp, "u6.dat"), spec(), FORMATS, "--version", "6")
    b7 = write(os.path.join(tmp, "u7.dat"), spec(), FORMATS, "--version", "7",
               "--compression", "zstd")
    lay7 = tdat_layout.layout(bytes(b7))
    chunk = lay7["cpus"][0]["chunks"][0]

    # 1. a zstd frame garbled (8 bytes of 0xff where its magic is):
    # tracecmd_init_data() fails in libkshark's kshark_tep_init_input(),
    # which then calls tracecmd_close(): a NULL list walked, SIGSEGV
    d = bytearray(b7)
    d[chunk["at"] + 8:chunk["at"] + 16] = b"\xff" * 8
    files["libkshark-close-after-failed-init.dat"] = d

    # 2. v7, no compression, the last options section's DONE option
    # pointing to that section: handle_option_done() and
    # handle_options() call each other until the stack runs out
    n7 = write(os.path.join(tmp, "n7.dat"), spec(), FORMATS, "--version", "7")
    lay = tdat_layout.layout(bytes(n7))
    d = bytearray(n7)
    d[lay["last_done_at"]:lay["last_done_at"] + 8] = le("Q", lay["option_sections"][-1]["at"])
    files["options-section-points-to-itself.dat"] = d

    # 3. the first zstd chunk of CPU 0 declares 1.5 GiB uncompressed
    # (0x60000000): libtracecmd allocates that much for it
    d = bytearray(b7)
    d[chunk["at"] + 4:chunk["at"] + 8] = le("I", 0x60000000)
    files["chunk-declares-1.5gb.dat"] = d

    # 4. v6, the first record of CPU 0 a length word (type_len 0) of
    # 0xfffffffc: its size is -8, kbuffer's next record is this one, and
    # tracecmd_peek_data() returns it for ever
    page0 = tdat_layout.layout(bytes(b6))["cpus"][0]["offset"]
    d = bytearray(b6)
    d[page0 + 16:page0 + 24] = le("I", 0) + le("I", 0xfffffffc)
    files["peek-data-endless-loop.dat"] = d
    return files


def main():
    if sys.argv[1] == "--generated":
        generated(sys.argv[2])
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    tmp = tempfile.mkdtemp()
    files = {}

    base6 = write(os.path.join(tmp, "b6.dat"), spec(), FORMATS, "--version", "6")
    lay6 = tdat_layout.layout(bytes(base6))
    page0 = lay6["cpus"][0]["offset"]

    # copy_record trusted libtracecmd's record sizes: a length word
    # (type_len 0) of 0 gives size -4, one of 0xffff8884 size -30592
    for name, length in (("record-size-minus-4", 0), ("record-size-minus-30592", 0xffff8884)):
        d = bytearray(base6)
        d[page0 + 16:page0 + 24] = le("I", 0) + le("I", length)
        files[name + ".dat"] = d

    # an event ID of 2^31-1 (nr_ids = max + 1 overflowed) and of 2^31-2
    # (a dense id map of 2 GB): kmalloc's format says so; its records
    # keep their old id and are not kmalloc's any more
    for n in (2147483647, 2147483646):
        f = formats_with_id(tmp, "kmalloc", n)
        files["event-id-%d.dat" % n] = write(os.path.join(tmp, "id.dat"), spec(), f, "--version", "6")

    # the plugin's "reported" marker lived in the pid -> comm table
    files["cmdline-forged-marker.dat"] = write(
        os.path.join(tmp, "c.dat"),
        spec(cmdlines=("100 worker", "101 helper", "-1073741823 kmem-stat-reported")),
        FORMATS, "--version", "6")

    # a damaged buffer-instance option: its data offset past the end
    inst = write(os.path.join(tmp, "i.dat"), spec(instance=True), FORMATS, "--version", "6")
    lay = tdat_layout.layout(bytes(inst))
    buf = [o for o in lay["options"] if o["id"] == 3][0]
    d = bytearray(inst)
    d[buf["at"] + 6:buf["at"] + 14] = le("Q", len(d) + 0x100000)
    files["instance-offset-past-end.dat"] = d
    # ... and its name not terminated (the option's size cut before the NUL)
    d = bytearray(inst)
    d[buf["at"] + 2:buf["at"] + 6] = le("I", 8 + 4)
    files["instance-name-unterminated.dat"] = d

    # a page size of 0 in the file header (SIGFPE in libtracecmd)
    for v in (6, 7):
        d = bytearray(base6) if v == 6 else write(os.path.join(tmp, "b7.dat"), spec(), FORMATS,
                                                   "--version", "7", "--compression", "zstd")
        d[14:18] = le("I", 0)
        files["page-size-0-v%d.dat" % v] = d

    # kmalloc's format damaged (a mutation found the first): its name
    # line ("jame:"; libtraceevent says it ran out of memory, and so did
    # trace-kmem), or a control byte in its fields; either way the format
    # is left out, as libtracecmd leaves it, and now that is said
    at = bytes(base6).index(b"name: kmalloc\n")
    d = bytearray(base6)
    d[at:at + 1] = b"j"
    files["format-name-damaged.dat"] = d
    d = bytearray(base6)
    d[bytes(base6).index(b"format:", at) + 1] = 1
    files["format-fields-damaged.dat"] = d

    # v7, the file cut inside the offset of the first options section:
    # libtracecmd's tracecmd_alloc_fd() frees the compression strings twice
    b7 = write(os.path.join(tmp, "b7.dat"), spec(), FORMATS, "--version", "7", "--compression", "zstd")
    at = 18
    for _ in range(2):		# compression name and version strings
        at = b7.index(b"\0", at) + 1
    files["v7-cut-in-options-offset.dat"] = b7[:at + 4]

    # v7, a CPU id of 2^31-1 in the BUFFER option (libtracecmd grew to
    # 23.5 GB; stock trace-cmd does the same)
    lay7 = tdat_layout.layout(bytes(b7))
    d = bytearray(b7)
    d[lay7["cpus"][1]["table_at"]:lay7["cpus"][1]["table_at"] + 4] = le("I", 0x7fffffff)
    files["v7-cpu-id-huge.dat"] = d

    # issue 20: a record that runs past the end of its page (size within
    # a page): libtracecmd hands it over, its data past the zstd chunk
    # buffer; and a trace of that one record (nothing left to plot)
    files["record-past-page-end.dat"] = write_damaged(
        os.path.join(tmp, "p7.dat"), spec(), "--version", "7", "--compression", "zstd")
    files["record-past-page-end-only.dat"] = write_damaged(
        os.path.join(tmp, "p1.dat"), spec(n=1), "--version", "7", "--compression", "zstd")

    # issue 20: a v7 file cut near its end was refused ("section 0 at
    # offset N is past the end of the file"): the options section after
    # the data, with the BUFFER option, was gone.  A zstd trace of many
    # one-page chunks, cut: at its last options section, inside the last
    # CPU's chunks, inside the first CPU's, in the strings at the end;
    # and one with an instance, cut inside the instance's data
    many = ("--version", "7", "--compression", "zstd", "--page-fill", "512", "--chunk-pages", "1")
    c7 = write(os.path.join(tmp, "c7.dat"), spec(n=160), FORMATS, *many)
    lay = tdat_layout.layout(bytes(c7))
    files["v7-cut-last-options.dat"] = c7[:lay["option_sections"][-1]["at"]]
    chunks = lay["cpus"][-1]["chunks"]
    files["v7-cut-in-last-cpu.dat"] = c7[:chunks[len(chunks) // 2]["at"] + 10]
    files["v7-cut-in-first-cpu.dat"] = c7[:lay["cpus"][0]["chunks"][2]["at"] + 10]
    files["v7-cut-in-strings.dat"] = c7[:len(c7) - 10]
    # the last options section's size 2^63 (a mutation found it):
    # v7_tail() made a pointer that far past the map (UBSan)
    last = lay7["option_sections"][-1]["at"]
    d = bytearray(b7)
    d[last + 8:last + 16] = le("Q", 1 << 63)
    files["v7-options-size-2pow63.dat"] = d
    # the file header's page size 65536 where the pages and the header
    # page format say 4096 (a mutation found it): both readers read one
    # page in 16 and counted a sixteenth of the records, without a word
    for v, args in (("7", ("--version", "7", "--compression", "zstd")),
                    ("6", ("--version", "6"))):
        d = write(os.path.join(tmp, "ps%s.dat" % v), spec(n=600), FORMATS, *args)
        d[14:18] = le("I", 65536)
        files["page-size-header-64k-v%s.dat" % v] = d
    # the first options section's DONE option pointing nowhere (0; a
    # mutation found it): the options after the data, with the BUFFER
    # option, were never reached, and both readers said there were no
    # allocator events in a trace of 600
    d = write(os.path.join(tmp, "dn.dat"), spec(n=600), FORMATS, "--version", "7",
              "--compression", "zstd")
    done = [o for o in tdat_layout.layout(bytes(d))["options"] if o["id"] == 0][0]
    d[done["data_at"]:done["data_at"] + 8] = le("Q", 0)
    files["v7-done-next-zero.dat"] = d
    # the top BUFFER option's CPU count lowered from 2 to 1 (a mutation
    # found it): trace-cmd lists only the CPUs with data, so CPU 1 was
    # taken for one without, and its 300 records were left unread
    d = write(os.path.join(tmp, "bc.dat"), spec(n=600), FORMATS, "--version", "7",
              "--compression", "zstd")
    opt = [o for o in tdat_layout.layout(bytes(d))["options"] if o["id"] == 3][0]
    at = d.index(b"\0", d.index(b"\0", opt["data_at"] + 8) + 1) + 1 + 4
    assert struct.unpack_from("<I", d, at)[0] == 2
    d[at:at + 4] = le("I", 1)
    files["v7-buffer-cpu-count-low.dat"] = d
    files.update(cpu_sizes_damaged(tmp))
    files.update(option_ids_damaged(tmp))
    files.update(page_size_doubled(tmp))
    files.update(kallsyms_damaged(tmp))
    # section options (found by a mutation run): EVENT_FORMATS given 16
    # bytes swallowed the KALLSYMS option after it, KALLSYMS given 0 was
    # passed over, and KALLSYMS's section flags 1 -> 2 (no such flag):
    # each printed call sites as addresses without a word
    base = write(os.path.join(tmp, "so.dat"), spec(n=600), FORMATS, "--version", "7",
                 "--compression", "zstd")
    opts = {o["id"]: o for o in tdat_layout.layout(bytes(base))["options"]}
    d = bytearray(base)
    d[opts[18]["at"] + 2:opts[18]["at"] + 6] = le("I", 16)
    files["v7-event-formats-option-16-bytes.dat"] = d
    d = bytearray(base)
    d[opts[19]["at"] + 2:opts[19]["at"] + 6] = le("I", 0)
    files["v7-kallsyms-option-0-bytes.dat"] = d
    d = bytearray(base)
    sec = struct.unpack_from("<Q", d, opts[19]["data_at"])[0]
    assert struct.unpack_from("<H", d, sec)[0] == 19
    d[sec + 2:sec + 4] = le("H", 2)
    files["v7-section-flags-unknown.dat"] = d
    # kmalloc's format with a field moved or resized (a mutation run
    # found both on the samples): ptr at 17, not 16, and call_site of 1
    # byte, not 8 (an unsigned long); the records were read from the
    # wrong bytes without a word (call sites off by 0x30, 45 live
    # objects fewer)
    for old, new, name in (("ptr;\toffset:16;", "ptr;\toffset:17;", "format-field-unaligned.dat"),
                           ("call_site;\toffset:8;\tsize:8;", "call_site;\toffset:8;\tsize:1;",
                            "format-field-type-size.dat")):
        f = formats_with_field(tmp, "kmalloc", old, new)
        files[name] = write(os.path.join(tmp, name), spec(n=600), f, "--version", "6")
    files["format-id-unused.dat"] = format_id_unused(tmp)
    # the same damage to the formats of a written file, each kind a
    # mutation run found silent: kmalloc's common_type of 0 bytes, kfree's
    # ptr of 4 (a 64-bit kernel's pointer), kmalloc's node moved past
    # the end of every kmalloc record (read as absent: no node asked)
    base = bytes(write(os.path.join(tmp, "fm.dat"), spec(n=600), FORMATS, "--version", "6"))
    for event, old, new, name in (
            ("kmalloc", b"common_type;\toffset:0;\tsize:2;", b"common_type;\toffset:0;\tsize:0;",
             "format-common-type-size.dat"),
            ("kfree", b"ptr;\toffset:16;\tsize:8;", b"ptr;\toffset:16;\tsize:4;",
             "format-pointer-size.dat"),
            ("kmalloc", b"node;\toffset:48;", b"node;\toffset:96;",
             "format-field-past-record.dat")):
        at = base.index(b"name: %s\nID:" % event.encode())
        at = base.index(old, at, base.index(b"print fmt:", at))
        files[name] = bytearray(base[:at] + new + base[at + len(old):])
    # kmalloc's print fmt naming a field its format lacks (a mutation run
    # made call_site xall_site): the native reader leaves such a print
    # fmt out (libtraceevent crashes on some), and with it the GFP names
    # and __GFP_ACCOUNT, which it now says; libtraceevent reads it
    at = base.index(b"name: kmalloc\nID:")
    at = base.index(b"(void *)REC->call_site", base.index(b"print fmt:", at))
    files["format-print-fmt-unknown-field.dat"] = bytearray(
        base[:at] + b"(void *)REC->xall_site" + base[at + 22:])
    # ... in a file with an instance too: said once, not once a buffer
    inst = bytes(write(os.path.join(tmp, "fmi.dat"), spec(n=600, instance=True),
                       FORMATS, "--version", "6"))
    at = inst.index(b"(void *)REC->call_site",
                    inst.index(b"print fmt:", inst.index(b"name: kmalloc\nID:")))
    files["format-print-fmt-unknown-field-instance.dat"] = bytearray(
        inst[:at] + b"(void *)REC->xall_site" + inst[at + 22:])
    # records a mutation run found read without a word: a kmalloc
    # record's id made kfree's (its 56 bytes, longer than any kfree
    # record, were counted as a free of its pointer); a discarded
    # event's padding (time delta 1) made to run past the page's data
    # (the rest of the page was dropped)
    for name, how in (("record-longer-than-event.dat", "relabel"),
                      ("padding-past-commit.dat", "padding")):
        d = bytearray(base)
        page = tdat_layout.layout(base)["cpus"][0]["offset"]
        at, data = first_page_records(d, 658)[1]
        if how == "relabel":
            d[data:data + 2] = le("H", 657)
        else:  # a padding of delta 1 whose length word runs past the data
            d[at:at + 4] = le("I", 29 | 1 << 5)
            d[at + 4:at + 8] = le("I", 4096)
        files[name] = d
    # a page's commit made 0 (a mutation run found its records dropped
    # without a word): the kernel gives a reader no empty page, and
    # trace-cmd writes none, so it is damage, skipped and said
    d = bytearray(base)
    cpu = tdat_layout.layout(base)["cpus"][0]
    page = cpu["offset"] + 4096
    if cpu["size"] < 2 * 4096:
        raise SystemExit("CPU 0 has one page")
    word = struct.unpack_from("<Q", d, page + 8)[0]
    d[page + 8:page + 16] = le("Q", word & ~0xfffff)
    files["page-commit-zero.dat"] = d
    # a page's time made 2^64 - 1 (a mutation run found its records'
    # times wrapped past 2^64 to tiny ones, read out of order without a
    # word): no clock is past 2^63, so it is damage
    d = bytearray(base)
    d[page:page + 8] = le("Q", 2**64 - 1)
    files["page-time-wraps.dat"] = d
    # a NUL in the saved command lines (a mutation run made a comm's '/'
    # one): libtraceevent ends the table there, and so does the reader,
    # the tasks after it named "<...>" without a word; now said
    d = bytearray(base)
    at = d.index(b"100 worker\n101 helper")
    d[at + 3] = 0
    files["cmdlines-nul.dat"] = d
    # ... but a NUL with nothing after it loses no comm: not said
    d = bytearray(base)
    d[d.index(b"100 worker\n101 helper\n") + 21] = 0
    files["cmdlines-trailing-nul.dat"] = d
    # a kmalloc record's id made that of another event, one of a fixed
    # length (sched_waking's records are 16 to 24 bytes, the kmalloc
    # record 56): a mutation run found its allocation lost
    # without a word; it is of an impossible size, skipped and said
    files["record-other-event-length.dat"] = other_event_length(tmp)
    # a v6 file's CPUCOUNT option made 0 (a mutation run found it; trace-cmd
    # writes it only for a count that is not 0): no CPU was read and the
    # report said the trace had no allocator events
    d = bytearray(base)
    o = [o for o in tdat_layout.layout(base)["options"] if o["id"] == 8][0]
    assert o["size"] == 4 and struct.unpack_from("<I", d, o["data_at"])[0] == 2
    d[o["data_at"]:o["data_at"] + 4] = le("I", 0)
    files["cpucount-zero-v6.dat"] = d
    ci = write(os.path.join(tmp, "ci.dat"), spec(n=160, instance=True), FORMATS, *many)
    lay = tdat_layout.layout(bytes(ci))
    inst = [c for c in lay["cpus"] if c["buffer"]][0]
    files["v7-cut-in-instance.dat"] = ci[:inst["chunks"][0]["at"] + 10]

    files.update(silent_damage(tmp))

    # v6, the commit size of CPU 0's first page 0xffffff: libtracecmd's
    # tracecmd_init_data() fails (trace-cmd report: "failed to init
    # data"), and tracecmd_close() after it faults (upstream defect 1);
    # the native reader skips the page.  --reader=libtracecmd said only
    # "truncated or corrupt file"; now the line names the damage
    d = write(os.path.join(tmp, "f6.dat"), spec(n=600), FORMATS, "--version", "6")
    first = tdat_layout.layout(bytes(d))["cpus"][0]["offset"]
    d[first + 8:first + 16] = le("Q", 0xffffff)
    files["page-commit-first-page.dat"] = d

    # v6 big-endian ppc32, mm_page_alloc's gfp_flags given "size:9" (a
    # mutation found it): probing the print format for __GFP_ACCOUNT and
    # friends wrote a 9-byte number with a shift of 64 bits (UBSan); the
    # field is read as absent, as libtraceevent reads it (gfp "none")
    ppc = os.path.join(TOP, "tests", "formats", "linux-6.1-ppc32.txt")
    ppc_page = os.path.join(TOP, "tests", "tdat", "formats", "page-linux-6.1-ppc32.txt")
    d = write(os.path.join(tmp, "p9.dat"), PAGE_SIZE9_SPEC, ppc, ppc_page, "--version", "6",
              "--endian", "big", "--long-size", "4", "--uname", "Linux tdat 6.1.0 ppc")
    key = b"\tfield:unsigned long gfp_flags;\toffset:16;\tsize:4;"
    at = bytes(d).index(b"name: mm_page_alloc\n")
    at = bytes(d).index(key, at) + len(key) - 2
    d[at:at + 1] = b"9"
    files["format-number-size-9-be.dat"] = d

    # v6, CPU 0's data moved to 64 bytes short of a page boundary (the
    # CPU table says so): libtracecmd cannot mmap there, reads each page
    # into a buffer of a page, and gives records offsets whose low bits
    # are no longer where they are in their page; a record 64 bytes past
    # its page passed the extent check (kmem_record_in_page()) and was
    # copied from past that buffer
    def past_by_64(at, page):
        return page + 60 - at

    d = write_damaged(os.path.join(tmp, "u6.dat"), spec(), "--version", "6",
                      length=past_by_64)
    lay = tdat_layout.layout(bytes(d))
    first = lay["cpus"][0]["offset"]
    shift = 4096 - 64
    for c in lay["cpus"]:
        if c["size"] and c["offset"] >= first:
            d[c["table_at"]:c["table_at"] + 8] = le("Q", c["offset"] + shift)
    d[first:first] = bytes(shift)
    files["cpu-data-not-page-aligned.dat"] = d

    # v7 zstd, the first chunk of the instance's CPU 0 garbled (its zstd
    # magic; a mutation found it): --reader=libtracecmd said libtracecmd's
    # own "mmap: Unknown error -22" and "Can not mmap file, will read
    # instead" above its line (tracecmd_buffer_instance_handle())
    d = write(os.path.join(tmp, "zi.dat"), spec(instance=True), FORMATS,
              "--version", "7", "--compression", "zstd")
    inst = [c for c in tdat_layout.layout(bytes(d))["cpus"] if c["buffer"]][0]
    d[inst["chunks"][0]["at"] + 8:inst["chunks"][0]["at"] + 16] = b"\xff" * 8
    files["instance-chunk-garbled.dat"] = d

    # sched_switch's format given kmalloc's ID (658): the native reader,
    # which parses only the formats it wants, took that id's records for
    # kmalloc's while libtracecmd and the plugin said the clash
    sched = os.path.join(tmp, "sched.txt")
    open(sched, "w").write(
        "name: sched_switch\nID: 658\nformat:\n"
        "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
        "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
        "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
        "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
        "\tfield:int prev_pid;\toffset:8;\tsize:4;\tsigned:1;\n\n"
        "print fmt: \"prev_pid=%d\", REC->prev_pid\n")
    files["event-id-shared-sched.dat"] = write(
        os.path.join(tmp, "s.dat"), spec(), FORMATS, "sched:" + sched, "--version", "6")

    files.update(upstream(tmp))

    for name, data in files.items():
        open(os.path.join(out, name), "wb").write(data)


def cpu_sizes_damaged(tmp):
    """A CPU's data size lowered (found by a mutation run), so that its
    last records were left unread without a word: in a v6 file CPU 0's
    by a page (a page between it and CPU 1 is no CPU's), in a v7
    uncompressed one the last CPU's halved (the rest of its section is
    no CPU's), in a v7 zstd one CPU 0's made 0 (trace-cmd lists only the
    CPUs with data); in a v6 file the top buffer's last CPU's by a page,
    with the end of the file after it, or an instance's data.
    spec(n=600): 4 pages a CPU."""
    files = {}
    for name, args, cpu, size_at, new in (
            ("cpu-size-minus-page-v6.dat", ("--version", "6"), 0, 8,
             lambda c: c["size"] - 4096),
            ("cpu-size-halved-v7u.dat", ("--version", "7", "--compression", "none"), -1, 12,
             lambda c: c["size"] // 2 // 4096 * 4096),
            ("cpu-size-zero-v7.dat", ("--version", "7", "--compression", "zstd"), 0, 12,
             lambda c: 0),
            ("cpu-size-last-minus-page-v6.dat", ("--version", "6"), -1, 8,
             lambda c: c["size"] - 4096),
            ("cpu-size-before-instance-v6.dat", ("--version", "6"), 1, 8,
             lambda c: c["size"] - 4096)):
        text = spec(n=600, instance="instance" in name)
        d = write(os.path.join(tmp, name), text, FORMATS, *args)
        c = [c for c in tdat_layout.layout(bytes(d))["cpus"] if not c["buffer"]][cpu]
        at = c["table_at"] + size_at
        assert struct.unpack_from("<Q", d, at)[0] == c["size"] and c["size"] >= 4 * 4096 or c["compressed"]
        d[at:at + 8] = le("Q", new(c))
        files[name] = d
    return files


def option_ids_damaged(tmp):
    """An option's id changed (found by a mutation run), which hid the
    section it named without a word: an instance's BUFFER option made
    255 (no such option: its data were not read) or 22 (BUFFER_TEXT:
    latency data, left to libtracecmd), CMDLINES made 4
    (TRACECLOCK: no comm names), FTRACE_EVENTS made 5 (UNAME: the
    kernel_stack format lost).  v7 zstd, options uncompressed."""
    files = {}
    base = write(os.path.join(tmp, "oi.dat"), spec(n=600, instance=True), FORMATS,
                 "--version", "7", "--compression", "zstd")
    opts = tdat_layout.layout(bytes(base))["options"]
    for name, old, new, nth in (("buffer-option-id-unknown.dat", 3, 255, -1),
                                ("buffer-option-id-text.dat", 3, 22, -1),
                                ("cmdlines-option-id-traceclock.dat", 21, 4, 0),
                                ("ftrace-events-option-id-uname.dat", 17, 5, 0)):
        o = [o for o in opts if o["id"] == old][nth]
        d = bytearray(base)
        assert struct.unpack_from("<H", d, o["at"])[0] == old
        d[o["at"]:o["at"] + 2] = le("H", new)
        files[name] = d
    return files


def page_size_doubled(tmp):
    """An instance's BUFFER option page size doubled, 4096 to 8192 (found
    by a mutation run): its data were read in pages of 8 KB, each page's
    second half unread without a word.  v7 zstd.  trace-cmd aligns each
    CPU's data to its buffer's page size, and its chunks hold whole
    pages: the first file's instance data start at an odd 4 KB page,
    the second's at an even one (the command lines move them), its one
    chunk a single 4 KB page."""
    files = {}
    for name, odd in (("buffer-page-size-doubled.dat", True),
                      ("buffer-page-size-doubled-aligned.dat", False)):
        for k in range(0, 3000, 250):
            # more command lines move the data (deterministic)
            cl = ("100 worker", "101 helper") + tuple("%d w%d" % (200 + i, i * 7919 % 10007)
                                                      for i in range(k))
            d = write(os.path.join(tmp, "psd.dat"), spec(cmdlines=cl, instance=True), FORMATS,
                      "--version", "7", "--compression", "zstd")
            lay = tdat_layout.layout(bytes(d))
            inst = [c for c in lay["cpus"] if c["buffer"]]
            if len(inst) == 1 and (inst[0]["offset"] % 8192 == 4096) == odd:
                break
        else:
            raise SystemExit("page_size_doubled: no layout found")
        assert [c["size"] for c in inst[0]["chunks"]] == [4096]
        o = [o for o in lay["options"] if o["id"] == 3 and
             b"inst\0" in d[o["data_at"]:o["data_at"] + o["size"]]][0]
        # its offset (8 bytes), "inst", the clock, the page size
        assert d[o["data_at"] + 8:o["data_at"] + 13] == b"inst\0"
        at = d.index(b"\0", o["data_at"] + 13) + 1
        assert struct.unpack_from("<I", d, at)[0] == 4096
        d[at:at + 4] = le("I", 8192)
        files[name] = d
    return files


def kallsyms_damaged(tmp):
    """The kallsyms section's text read with a wrong size (found by a
    mutation run: its flag cleared): compressed bytes read as the text,
    which holds no symbol, and every call site printed as an address
    without a word.  trace-cmd writes the size word and the text to the
    byte, in the section or in its compressed block.  v7 zstd (the
    kallsyms section compressed) or uncompressed."""
    files = {}
    args = ("--version", "7", "--compression", "zstd")
    d = write(os.path.join(tmp, "kf.dat"), spec(), FORMATS, *args)
    lay = tdat_layout.layout(bytes(d))
    o = [o for o in lay["options"] if o["id"] == 19][0]
    at = struct.unpack_from("<Q", d, o["data_at"])[0]
    assert struct.unpack_from("<HH", d, at) == (19, 1)
    d[at + 2:at + 4] = le("H", 0)
    files["kallsyms-section-flags-cleared.dat"] = d

    d = write(os.path.join(tmp, "ku.dat"), spec(), FORMATS, "--version", "7",
              "--compression", "none")
    o = [o for o in tdat_layout.layout(bytes(d))["options"] if o["id"] == 19][0]
    at = struct.unpack_from("<Q", d, o["data_at"])[0] + 16
    assert struct.unpack_from("<I", d, at)[0] == len(KALLSYMS)
    d[at:at + 4] = le("I", len(KALLSYMS) - 8)
    files["kallsyms-size-short-v7u.dat"] = d

    # the same in the compressed block: the writer's size word lowered
    sp = importlib.util.spec_from_file_location("tdat_writer", WRITER)
    tw = importlib.util.module_from_spec(sp)
    sp.loader.exec_module(tw)
    whole = tw.Writer.kallsyms
    tw.Writer.kallsyms = lambda self: le("I", len(KALLSYMS) - 8) + whole(self)[4:]
    path = os.path.join(tmp, "kz.dat")
    with tempfile.NamedTemporaryFile("w", suffix=".spec", delete=False) as f:
        f.write(spec())
    try:
        if tw.main(["--spec", f.name, "-o", path, "--formats", FORMATS] + list(args)):
            raise SystemExit("tdat_writer failed")
    finally:
        os.unlink(f.name)
    files["kallsyms-size-short-v7.dat"] = bytearray(open(path, "rb").read())
    return files


SCHED_WAKING = """name: sched_waking
ID: 320
format:
\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;
\tfield:int prio;\toffset:12;\tsize:4;\tsigned:1;

print fmt: "pid=%d prio=%d", REC->pid, REC->prio
"""


def other_event_length(tmp):
    """The v6 trace of spec(n=600) with the format of sched_waking (Linux
    6.18) too, its second kmalloc record's id (658) made that event's
    (320)."""
    sched = os.path.join(tmp, "waking.txt")
    open(sched, "w").write(SCHED_WAKING)
    base = write(os.path.join(tmp, "other.dat"), spec(n=600), FORMATS,
                 "sched:" + sched, "--version", "6")
    data = first_page_records(base, 658)[1][1]
    base[data:data + 2] = le("H", 320)
    return base


def first_page_records(d, event_id):
    """The (header offset, data offset) of each record of event id
    @event_id on the first page of CPU 0 of the v6 trace @d, at least
    two of them."""
    page = tdat_layout.layout(bytes(d))["cpus"][0]["offset"]
    commit = struct.unpack_from("<Q", d, page + 8)[0] & 0xfffff
    at, found = page + 16, []
    while at < page + 16 + commit:
        tl = struct.unpack_from("<I", d, at)[0] & 31
        if 1 <= tl <= 28:
            data, size = at + 4, tl * 4
        elif tl == 0:
            data, size = at + 8, struct.unpack_from("<I", d, at + 4)[0] - 4
        else:
            at += 8
            continue
        if struct.unpack_from("<H", d, data)[0] == event_id:
            found.append((at, data))
        at = data + size
    if len(found) < 2:
        raise SystemExit("fewer than two records of id %d on the first page"
                         % event_id)
    return found


def format_id_unused(tmp, others=0):
    """v6, spec(n=600) with kmalloc's format given an ID no record has
    (999; its records have 658, FORMATS' ID): its 300 records are of an
    id no format has.  @others: as many sched:sched_waking records too,
    an event with its format (not one of ours)."""
    text, formats = spec(n=600), [FORMATS]
    if others:
        path = os.path.join(tmp, "sched.txt")
        open(path, "w").write(SCHED_WAKING)
        formats.append("sched:" + path)
        text += "".join("%d %d sched_waking pid=%d prio=120\n" % (i % 2, 700000 + i * 10, 100 + i)
                        for i in range(others))
    b = write(os.path.join(tmp, "fid.dat"), text, formats[0], *formats[1:], "--version", "6")
    at = bytes(b).index(b"name: kmalloc\nID: 658\n") + len(b"name: kmalloc\nID: ")
    b[at:at + 3] = b"999"
    return b


def silent_damage(tmp):
    """Issue 20, point 5: damage libtracecmd reads past without a word.
    600 records, 300 a CPU, 4 pages a CPU; the second page of CPU 0 is
    damaged: in a v7 zstd file with one page a chunk, 16 bytes of its
    chunk flipped (it does not inflate: libtracecmd drops it and reads
    no more of CPU 0); in a v6 file, its commit size 0xffffff
    (libtracecmd stops reading CPU 0 there too), or 64 bytes of its
    records 0xff (libtracecmd hands over what it makes of them)."""
    files = {}
    text = spec(n=600)
    b = write(os.path.join(tmp, "s7.dat"), text, FORMATS, "--version", "7",
              "--compression", "zstd", "--chunk-pages", "1")
    c = tdat_layout.layout(bytes(b))["cpus"][0]["chunks"][1]
    at = c["at"] + 8 + c["zsize"] // 2
    for i in range(16):
        b[at + i] ^= 0xff
    files["chunk-not-inflating-v7.dat"] = b
    b6 = write(os.path.join(tmp, "s6.dat"), text, FORMATS, "--version", "6")
    page = tdat_layout.layout(bytes(b6))["cpus"][0]["offset"] + 4096
    d = bytearray(b6)
    d[page + 8:page + 16] = le("Q", 0xffffff)
    files["page-commit-huge.dat"] = d
    d = bytearray(b6)
    d[page + 16:page + 80] = b"\xff" * 64
    files["page-records-garbage.dat"] = d
    return files


if __name__ == "__main__":
    main()
