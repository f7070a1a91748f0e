#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""records_seeds.py: seed inputs for fuzz_records (see fuzz_records.c).

    records_seeds.py OUTDIR

For each layout of fuzz_records.c's table (the same format files, in
the same order), a plausible stream of kmem records made by
tests/tdat/workload.py and encoded field by field at the format's
offsets by tests/tdat/tdat_writer.py, written as fuzz_records reads
its inputs: layout byte, options byte, then (selector, size, payload)
records.  Prints nothing and writes nothing when tests/tdat/ is not
there.
"""

import io
import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
TDAT = os.path.join(TOP, "tests", "tdat")
FORMATS = os.path.join(TOP, "tests", "formats")
PAGE_FREE = os.path.join(TDAT, "formats", "page-free-linux-6.18-x86_64.txt")
PCPU_OLD = "percpu-linux-5.15-x86_64.txt"
PCPU = "percpu-linux-6.18-x86_64.txt"

# fuzz_records.c's layouts[]: files, long size, big-endian, per-CPU
# allocator events (not given to workload.py, which makes the others)
LAYOUTS = [
    (["linux-2.6.32-x86_64.txt", "page-linux-2.6.32-x86_64.txt"], 8, False,
     PCPU_OLD),
    (["linux-5.15-x86_64.txt", "page-linux-6.18-x86_64.txt", PAGE_FREE],
     8, False, PCPU_OLD),
    (["linux-6.0-x86_64.txt", "page-linux-6.18-x86_64.txt", PAGE_FREE],
     8, False, PCPU),
    (["linux-6.1-ppc32.txt",
      os.path.join(TDAT, "formats", "page-linux-6.1-ppc32.txt")], 4, True,
     PCPU),
    (["linux-6.18-x86_64.txt", "page-linux-6.18-x86_64.txt", PAGE_FREE],
     8, False, PCPU),
    (["linux-6.18-x86_64.txt", "page-linux-6.18-x86_64.txt", PAGE_FREE],
     8, True, PCPU),
    (["synthetic-rel_loc-x86_64.txt", "page-linux-6.18-x86_64.txt",
      PAGE_FREE], 8, False, PCPU),
]

# enum kmem_slot
SLOTS = ["kmalloc", "kmalloc_node", "kmem_cache_alloc",
         "kmem_cache_alloc_node", "kfree", "kmem_cache_free",
         "mm_page_alloc", "mm_page_free", "mm_page_free_batched",
         "mm_page_free_direct", "mm_pagevec_free",
         "mm_page_alloc_zone_locked", "mm_page_pcpu_drain",
         "mm_page_alloc_extfrag", "kernel_stack", "percpu_alloc_percpu",
         "percpu_free_percpu", "percpu_alloc_percpu_fail",
         "percpu_create_chunk", "percpu_destroy_chunk"]
LOST_SLOT = 31


def size_byte(n):
    """The size byte for n payload bytes, and the padded length."""
    if n < 192:
        return n, n
    b = min(255, 192 + (n - 192 + 15) // 16)
    return b, 192 + (b - 192) * 16


def stream(index, files, long_size, big, pcpu, records, seed, opts):
    sys.path.insert(0, TDAT)
    import tdat_writer
    paths = [f if os.path.isabs(f) else os.path.join(FORMATS, f)
             for f in files]
    paths = [p for p in paths if os.path.exists(p)]
    spec = subprocess.run(
        [sys.executable, os.path.join(TDAT, "workload.py"), "--formats"] +
        paths + ["--long-size", str(long_size), "--cpus", "3",
                 "--records", str(records), "--seed", str(seed),
                 "--lost", "2"],
        check=True, capture_output=True, text=True).stdout
    events = {}
    for p in paths + [os.path.join(FORMATS, pcpu)]:
        for ev in tdat_writer.parse_formats(p):
            events[ev.name] = ev
    sp = tdat_writer.read_spec(io.StringIO(spec))
    enc = tdat_writer.Enc(big, long_size)
    out = bytearray([index, opts])
    last_ts = None
    lost = set()
    for item in sp.buffers[""]["items"]:
        if item[0] == "lost":
            lost.add(item[1])
            continue
        _, cpu, ts, name, vals, _ = item
        if name not in SLOTS or name not in events:
            continue
        payload, _ = tdat_writer.encode_record(events[name], vals, enc)
        sb, n = size_byte(len(payload))
        payload = payload[:n].ljust(n, b"\0")
        sel = SLOTS.index(name) | (cpu & 1) << 5
        if cpu in lost:
            sel |= 0x40
            lost.discard(cpu)
        if last_ts is not None and ts - last_ts > 500000000:
            sel |= 0x80
        last_ts = ts
        out += bytes([sel, sb]) + payload
    out += percpu_records(events, enc, records // 4, seed)
    # a lost-events marker record
    out += bytes([LOST_SLOT, 8]) + (3).to_bytes(8, "big")
    return bytes(out)


def percpu_records(events, enc, n, seed):
    """n per-CPU allocator records: allocations, frees of most of them
    (some on the other CPU, one twice), failures and chunk events."""
    import random
    import tdat_writer
    rnd = random.Random(seed)
    out = bytearray()
    live = []

    def rec(name, cpu, vals):
        if name not in events:
            return
        ev = events[name]
        vals = {k: v for k, v in vals.items() if k in ev.byname}
        payload, _ = tdat_writer.encode_record(ev, vals, enc)
        sb, k = size_byte(len(payload))
        out.extend(bytes([SLOTS.index(name) | (cpu & 1) << 5, sb]))
        out.extend(payload[:k].ljust(k, b"\0"))

    for i in range(n):
        r = rnd.random()
        cpu = rnd.randrange(2)
        if r < 0.5 or not live:
            ptr = 0x60795bb00000 + 16 * rnd.randrange(64)
            size = rnd.choice((8, 16, 64, 320, 4352))
            rec("percpu_alloc_percpu", cpu, {
                "call_site": 0xffffffff81300000 + rnd.randrange(4) * 16,
                "reserved": int(rnd.random() < 0.1),
                "is_atomic": int(rnd.random() < 0.2), "size": size,
                "align": 8, "ptr": ptr, "bytes_alloc": size * 4,
                "gfp_flags": 0xcc0})
            live.append(ptr)
        elif r < 0.85:
            ptr = live.pop(rnd.randrange(len(live)))
            rec("percpu_free_percpu", cpu, {"ptr": ptr})
            if rnd.random() < 0.05:
                rec("percpu_free_percpu", cpu, {"ptr": ptr})
        elif r < 0.95:
            rec("percpu_alloc_percpu_fail", cpu, {
                "reserved": 0, "is_atomic": 1,
                "size": rnd.choice((4096, 32768)), "align": 4096})
        else:
            rec(rnd.choice(("percpu_create_chunk", "percpu_destroy_chunk")),
                cpu, {"base_addr": 0xffffe8ffffe00000})
    return bytes(out)


def main():
    outdir = sys.argv[1]
    if not os.path.exists(os.path.join(TDAT, "tdat_writer.py")) or \
            not os.path.exists(os.path.join(TDAT, "workload.py")):
        return
    os.makedirs(outdir, exist_ok=True)
    for i, (files, ls, big, pcpu) in enumerate(LAYOUTS):
        for records, seed, opts in ((60, 1, 0x00), (200, 2, 0xff),
                                    (400, 3, 0x2b)):
            data = stream(i, files, ls, big, pcpu, records, seed, opts)
            name = "layout%d-%d.bin" % (i, records)
            with open(os.path.join(outdir, name), "wb") as fh:
                fh.write(data)


if __name__ == "__main__":
    main()
