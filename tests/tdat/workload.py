#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""workload.py: a made-up but plausible kmem workload, as a tdat_writer.py
spec (on stdout), for the event formats given.

    workload.py --formats [SYS:]FILE... [--long-size 4|8] [--cpus N]
                [--records N] [--seconds S] [--start S] [--seed N]
                [--lost N] [--instance NAME] [--instance-gets slab|page|all]
                [--empty-top] [--old-kernel]

What it makes, from the events the formats have:
- a kallsyms with kernel text symbols, two symbols at one address (an
  alias), one name at two addresses (load_elf_binary, as binfmt_elf and
  compat_binfmt_elf have it), data symbols, module symbols ("\t[mod]"),
  and call sites past the last symbol (unresolvable, like JIT code);
- saved cmdlines for most pids (one pid has none: "<...>"; pid 0 is
  "<idle>");
- slab records (kmalloc, kmem_cache_alloc and their *_node forms, kfree,
  kmem_cache_free): call sites inside the symbols, size classes, objects
  freed later (on the same CPU or another one), objects never freed,
  frees of objects allocated before the trace, frees whose record is
  missing (the address is reused: missed frees), a few double frees,
  kfree(NULL), kmalloc(0) (ZERO_SIZE_PTR) and failed allocations;
- page records (mm_page_alloc, each followed by its kernel_stack record,
  mm_page_free / mm_page_free_batched or the 2.6.32 mm_page_free_direct
  / mm_pagevec_free, mm_page_alloc_zone_locked before some allocations
  as rmqueue() traces it, mm_page_pcpu_drain, mm_page_alloc_extfrag):
  orders 0..4 and a few of 9, pfns reused, failures, frees of pages from
  before the trace, missed frees, double frees, stacks of 6 to 20 frames
  through kernel and module code (2.6.32: a fixed caller[8] ended by
  ULONG_MAX); nothing is recorded on any CPU between an allocation and
  its stack;
- timestamps over a few seconds from one clock for all CPUs (a free on
  another CPU comes after its allocation), with idle gaps of more than
  2^27 ns (time extends) and equal timestamps on a CPU;
- with --lost N: N "lost" lines (missed events on the next page of a
  CPU), a few of them without a stored count;
- with --instance NAME: the records of --instance-gets (default slab) go
  to buffer instance NAME, the others stay in the top-level buffer;
  --empty-top puts everything in the instance and leaves the top-level
  buffer empty.
"""

import argparse
import os
import random
import sys

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tdat_writer  # noqa: E402

PIDS = [(1, "systemd"), (412, "sshd"), (1377, "bash"), (2051, "python3"),
        (2099, "make"), (2100, "cc1"), (2101, "as"), (88, "kworker/1:2"),
        (15, "rcu_preempt"), (3001, "find"), (3002, "xargs"),
        (4242, None), (0, None)]

# slab call sites: (function, offset, event kind, cache or None, bytes_req
# choices, gfp, free site, lifetime: "short" | "long" | "leak")
SLAB_SITES = [
    ("alloc_bprm", 0x45, "kmalloc", None, [408], 0xdc0, "free_bprm", "short"),
    ("getname_flags", 0x24, "cache", "names_cache", [4096], 0xcc0,
     "putname", "short"),
    ("copy_process", 0x1a5, "cache", "task_struct", [5824], 0xcc0,
     "free_task", "long"),
    ("vm_area_alloc", 0x1a, "cache", "vm_area_struct", [176], 0xcc0,
     "vm_area_free", "long"),
    ("mas_alloc_nodes", 0x442, "cache", "maple_node", [256], 0xcc0,
     "mt_free_rcu", "long"),
    ("load_elf_phdrs", 0x49, "kmalloc", None, [728, 504, 392], 0xcc0,
     "load_elf_binary", "short"),
    ("lsm_blob_alloc", 0x3b, "kmalloc", None, [11, 24, 40], 0x400dc0,
     "security_cred_free", "long"),
    ("alloc_pipe_info", 0x8e, "kmalloc", None, [640, 1024], 0x400cc0,
     "free_pipe_info", "short"),
    ("d_alloc", 0x2d, "cache", "dentry", [192], 0xcc0, "__d_free", "leak"),
    ("alloc_empty_file", 0x5f, "cache", "filp", [256], 0xcc0, "__fput",
     "short"),
    ("load_elf_binary", 0x1f3, "kmalloc", None, [30, 48], 0xcc0,
     "load_elf_binary", "short"),
    ("load_elf_binary@compat", 0x1e1, "kmalloc", None, [28], 0xcc0,
     "load_elf_binary", "short"),
    ("do_sys_openat2", 0x71, "kmalloc", None, [96, 100], 0xcc0,
     "do_sys_openat2", "short"),
    ("kmem_cache_alloc_wrapper", 0x10, "cache", "kmalloc_wrap", [64], 0xcc0,
     "kfree_wrapper", "short"),
    ("ext4_htree_store_dirent@ext4", 0x34, "kmalloc", None, [59, 71, 120],
     0xcc0, "ext4_htree_free_dir_info@ext4", "short"),
    ("xfs_inode_alloc@xfs", 0x2e, "cache", "xfs_inode", [1024], 0x2800,
     "xfs_inode_free_callback@xfs", "long"),
    ("nf_conntrack_alloc@nf_conntrack", 0x9a, "cache", "nf_conntrack",
     [320], 0x820, "nf_conntrack_free@nf_conntrack", "leak"),
    ("@jit", 0x1c, "kmalloc", None, [32], 0x820, "@jit", "short"),
]

KMALLOC_CLASSES = [8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096,
                   8192]
CACHE_OBJ = {"names_cache": 4096, "task_struct": 5888, "vm_area_struct": 176,
             "maple_node": 256, "dentry": 192, "filp": 256,
             "kmalloc_wrap": 64, "xfs_inode": 1024, "nf_conntrack": 320}

ALLOC_STACKS = [
    ["trace_event_raw_event_mm_page_alloc", "__alloc_frozen_pages_noprof",
     "alloc_pages_mpol", "vma_alloc_folio_noprof", "do_anonymous_page",
     "__handle_mm_fault", "handle_mm_fault", "do_user_addr_fault",
     "exc_page_fault", "asm_exc_page_fault"],
    ["trace_event_raw_event_mm_page_alloc", "__alloc_frozen_pages_noprof",
     "alloc_pages_mpol", "folio_alloc_noprof", "page_cache_ra_unbounded",
     "filemap_get_pages", "filemap_read", "xfs_file_buffered_read@xfs",
     "xfs_file_read_iter@xfs", "vfs_read", "ksys_read", "do_syscall_64",
     "entry_SYSCALL_64_after_hwframe"],
    ["trace_event_raw_event_mm_page_alloc", "__alloc_frozen_pages_noprof",
     "alloc_pages_noprof", "allocate_slab", "___slab_alloc",
     "__kmalloc_cache_noprof", "alloc_bprm", "do_execveat_common",
     "__x64_sys_execve", "do_syscall_64", "entry_SYSCALL_64_after_hwframe"],
    ["trace_event_raw_event_mm_page_alloc", "__alloc_frozen_pages_noprof",
     "alloc_pages_noprof", "pte_alloc_one", "__pte_alloc",
     "do_anonymous_page", "__handle_mm_fault", "handle_mm_fault",
     "do_user_addr_fault", "exc_page_fault", "asm_exc_page_fault",
     "copy_process", "kernel_clone", "__do_sys_clone", "do_syscall_64",
     "entry_SYSCALL_64_after_hwframe", "load_elf_binary", "exec_binprm",
     "bprm_execve", "do_execveat_common"],
    ["trace_event_raw_event_mm_page_alloc", "__alloc_frozen_pages_noprof",
     "kswapd_alloc", "kthread", "ret_from_fork", "ret_from_fork_asm"],
    ["trace_event_raw_event_mm_page_alloc", "__alloc_frozen_pages_noprof",
     "alloc_pages_mpol", "nf_conntrack_alloc@nf_conntrack",
     "nf_conntrack_in@nf_conntrack", "nf_hook_slow", "ip_rcv",
     "__netif_receive_skb_one_core", "process_backlog", "net_rx_action",
     "handle_softirqs", "do_softirq"],
]
FREE_STACKS = [
    ["trace_event_raw_event_mm_page_free", "free_unref_folios",
     "folios_put_refs", "release_pages", "tlb_batch_pages_flush",
     "tlb_finish_mmu", "exit_mmap", "__mmput", "do_exit", "do_group_exit"],
    ["trace_event_raw_event_mm_page_free", "__free_frozen_pages",
     "__folio_put", "pipe_release", "__fput", "task_work_run",
     "syscall_exit_to_user_mode", "do_syscall_64",
     "entry_SYSCALL_64_after_hwframe"],
]
OLD_ALLOC_STACKS = [
    ["__alloc_pages_nodemask", "alloc_pages_vma", "do_anonymous_page",
     "handle_mm_fault", "do_page_fault", "page_fault"],
    ["__alloc_pages_nodemask", "alloc_pages_current", "__page_cache_alloc",
     "__do_page_cache_readahead", "ra_submit", "generic_file_aio_read",
     "do_sync_read", "vfs_read", "sys_read", "system_call_fastpath"],
    ["__alloc_pages_nodemask", "alloc_pages_current", "new_slab",
     "__slab_alloc", "kmem_cache_alloc", "copy_process", "do_fork"],
]

FILLER = ["_text", "startup_64", "do_one_initcall", "schedule", "__schedule",
          "mutex_lock", "memcpy", "memset", "strlen", "printk", "vprintk",
          "tick_sched_timer", "hrtimer_interrupt", "rcu_core",
          "irq_exit_rcu", "sysvec_apic_timer_interrupt"]

DATA_SYMS = [("init_task", "D"), ("jiffies", "D"), ("kmalloc_caches", "D"),
             ("__per_cpu_offset", "R"), ("idt_table", "d"), ("bss_end", "b")]

MODULES = {"ext4": ["ext4_htree_store_dirent", "ext4_htree_free_dir_info",
                    "ext4_readdir", "ext4_lookup"],
           "xfs": ["xfs_inode_alloc", "xfs_inode_free_callback",
                   "xfs_file_buffered_read", "xfs_file_read_iter",
                   "xfs_buf_alloc_pages"],
           "nf_conntrack": ["nf_conntrack_alloc", "nf_conntrack_free",
                            "nf_conntrack_in"]}


class Kallsyms:
    def __init__(self, long_size, rng):
        self.rng = rng
        self.long_size = long_size
        self.sym = {}           # key ("name" or "name@mod") -> (addr, size)
        self.lines = []
        if long_size == 8:
            text, mod, jit = 0xffffffff81000000, 0xffffffffc0200000, \
                0xffffffffc8000000
        else:
            # ppc32: modules below the kernel, JIT above the last symbol
            text, mod, jit = 0xc0000000, 0xbe000000, 0xc9000000
        self.jit = jit
        names = []
        for s in SLAB_SITES:
            names += [s[0], s[6]]
        for st in ALLOC_STACKS + FREE_STACKS + OLD_ALLOC_STACKS:
            names += st
        kernel = []
        modsyms = {m: list(v) for m, v in MODULES.items()}
        for n in names + FILLER + ["putname", "free_bprm", "free_task",
                                   "vm_area_free", "mt_free_rcu",
                                   "security_cred_free", "free_pipe_info",
                                   "__d_free", "__fput", "kfree_wrapper"]:
            if n.startswith("@"):
                continue
            if "@" in n:
                base, m = n.split("@")
                if m == "compat":
                    continue
                if base not in modsyms.setdefault(m, []):
                    modsyms[m].append(base)
            elif n not in kernel:
                kernel.append(n)
        rng.shuffle(kernel)
        a = text
        self.add(a, "T", "_stext", 0)
        a += 0x1000
        for n in kernel:
            size = rng.choice([0x80, 0x100, 0x180, 0x240, 0x400, 0x800,
                               0x1200])
            t = rng.choice("TTTt")
            self.add(a, t, n, size)
            if n == "do_sys_openat2":
                # an alias: a second name at the same address
                self.lines.append("%0*x %s %s" % (2 * long_size, a, "T",
                                                 "__do_sys_openat2_alias"))
            a += size
        # the second load_elf_binary (compat_binfmt_elf)
        size = 0x900
        self.add(a, "t", "load_elf_binary", size, key="load_elf_binary@compat")
        a += size
        self.add(a, "T", "_etext", 0)
        a += 0x200000
        for n, t in DATA_SYMS:
            self.add(a, t, n, 0x40)
            a += 0x40
        # modules (sorted by address in kallsyms order does not matter)
        ma = mod
        for m in sorted(modsyms):
            for n in modsyms[m]:
                size = rng.choice([0x100, 0x200, 0x400])
                self.add(ma, rng.choice("tT"), n, size, mod=m)
                ma += size
            ma += 0x10000
        if long_size == 8:
            # module symbols above the kernel: the last symbol of all is a
            # module's; nothing resolves past its exact address
            pass

    def add(self, addr, t, name, size, mod=None, key=None):
        line = "%0*x %s %s" % (2 * self.long_size, addr, t, name)
        if mod:
            line += "\t[%s]" % mod
        self.lines.append(line)
        k = key or (name + ("@" + mod if mod else ""))
        if k not in self.sym:
            self.sym[k] = (addr, size)

    def addr(self, key, off=None):
        if key.startswith("@jit"):
            return self.jit + (off if off is not None else
                               self.rng.randrange(0, 0x800, 4))
        a, size = self.sym[key]
        if off is None:
            off = self.rng.randrange(1, max(2, size)) if size else 0
        return a + min(off, max(size - 1, 0))

    def text(self):
        return "\n".join(self.lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--formats", nargs="+", action="extend", required=True)
    ap.add_argument("--long-size", type=int, choices=(4, 8), default=8)
    ap.add_argument("--cpus", type=int, default=4)
    ap.add_argument("--records", type=int, default=3000)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--start", type=float, default=1214.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lost", type=int, default=0)
    ap.add_argument("--instance")
    ap.add_argument("--instance-gets", choices=("slab", "page", "all"),
                    default="slab")
    ap.add_argument("--empty-top", action="store_true")
    opt = ap.parse_args(argv)
    rng = random.Random(opt.seed)
    events = {}
    for f in opt.formats:
        sysname = None
        if ":" in f and not f.startswith("/") and \
                f.split(":", 1)[0].isidentifier():
            sysname, f = f.split(":", 1)
        for ev in tdat_writer.parse_formats(f, sysname):
            events[ev.name] = ev
    ls = opt.long_size
    ulong_max = (1 << (8 * ls)) - 1
    ks = Kallsyms(ls, rng)
    old = "mm_page_free_direct" in events or (
        "mm_page_alloc" in events and "page" in events["mm_page_alloc"].byname)

    out = []            # (ts, cpu, seq, text)
    seq = [0]

    def emit(ts, cpu, ev, pid, **vals):
        if ev not in events:
            return False
        e = events[ev]
        parts = ["%d" % cpu, "%d" % ts, ev, "pid=%d" % pid]
        for k, v in vals.items():
            if k not in e.byname:
                continue
            if isinstance(v, list):
                parts.append("%s=%s" % (k, ",".join("0x%x" % x for x in v)))
            elif isinstance(v, str):
                parts.append('%s=%s' % (k, v))
            else:
                parts.append("%s=%s" % (k, ("0x%x" % v) if v > 4096 else v))
        seq[0] += 1
        out.append((ts, cpu, seq[0], " ".join(parts), ev))
        return True

    # ---- who runs where
    pids = [p for p, _ in PIDS]
    home = {p: rng.randrange(opt.cpus) for p in pids}
    has_slab = any(e in events for e in ("kmalloc", "kmem_cache_alloc"))
    has_page = "mm_page_alloc" in events
    n_page = opt.records // 3 if has_page else 0
    if not has_slab:
        n_page = opt.records
    n_slab = opt.records - n_page if has_slab else 0
    t0 = int(opt.start * 1e9) + rng.randrange(10 ** 9)
    span = int(opt.seconds * 1e9)

    clock = Clock(opt, rng, t0, span)
    tick = clock.tick

    # ---- slab
    if n_slab:
        gen_slab(opt, rng, ks, events, emit, tick, pids, home, n_slab,
                 ulong_max, ls)
    if n_page:
        gen_page(opt, rng, ks, events, emit, tick, pids, home, n_page,
                 ulong_max, ls, old)

    out.sort(key=lambda x: (x[1], x[0], x[2]))   # per CPU, in time order
    lines = ["# made by workload.py --seed %d" % opt.seed, "[kallsyms]"]
    lines.append(ks.text().rstrip("\n"))
    lines.append("[cmdlines]")
    for p, c in PIDS:
        if c:
            lines.append("%d %s" % (p, c))

    def is_slab(ev):
        return ev in ("kmalloc", "kmalloc_node", "kmem_cache_alloc",
                      "kmem_cache_alloc_node", "kfree", "kmem_cache_free")

    def in_instance(ev):
        if opt.empty_top or opt.instance_gets == "all":
            return True
        if opt.instance_gets == "slab":
            return is_slab(ev)
        return not is_slab(ev)

    bufs = {"": [], opt.instance or "": []}
    for ts, cpu, _, text, ev in out:
        b = opt.instance if (opt.instance and in_instance(ev)) else ""
        bufs[b].append((cpu, ts, text))
    # lost events: before a record, well inside a CPU's stream, never
    # between an allocation and its kernel_stack
    for b in bufs:
        recs = bufs[b]
        if not opt.lost or not recs:
            continue
        picks = set()
        tries = 0
        while len(picks) < opt.lost and tries < 1000:
            tries += 1
            i = rng.randrange(len(recs) // 10, max(len(recs) // 10 + 1,
                                                  len(recs) - 5))
            if " kernel_stack " in recs[i][2]:
                continue
            picks.add(i)
        newrecs = []
        for i, r in enumerate(recs):
            if i in picks:
                n = "?" if rng.random() < 0.25 else str(rng.randrange(1, 5000))
                newrecs.append((r[0], r[1], "lost %d %s" % (r[0], n)))
            newrecs.append(r)
        bufs[b] = newrecs
    lines.append("[buffer]")
    lines.append("cpus %d" % opt.cpus)
    if opt.empty_top and opt.instance:
        pass
    else:
        lines += [t for _, _, t in bufs[""]]
    if opt.instance:
        lines.append("[buffer %s]" % opt.instance)
        lines += [t for _, _, t in bufs[opt.instance]]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


class Clock:
    """One clock for all CPUs (a global trace clock: a free on another CPU
    comes after its allocation); each event advances it.  Now and then the
    machine idles for longer than 2^27 ns, so that the next event of every
    CPU needs a time extend."""

    def __init__(self, opt, rng, t0, span):
        self.rng = rng
        self.t = t0
        self.last = None
        self.mean = max(1, span // max(1, opt.records))

    def tick(self, cpu):
        r = self.rng.random()
        if r < 0.004:
            g = self.rng.randrange(1 << 27, 1 << 29)   # idle: time extends
        elif r < 0.05 and cpu == self.last:
            g = 0       # same timestamp (on one CPU only: across CPUs a
            #             tie would order a free before its allocation)
        else:
            g = int(self.rng.expovariate(1.0 / self.mean)) + 1
        self.t += g
        self.last = cpu
        return self.t

    def bump(self, cpu, ts):
        """After a record at ts (a kernel_stack): later records come after
        it, whatever their CPU."""
        if self.t <= ts:
            self.t = ts + 1
        self.last = None


def kmalloc_class(n):
    for c in KMALLOC_CLASSES:
        if n <= c:
            return c
    return 1 << (n - 1).bit_length()


def gen_slab(opt, rng, ks, events, emit, tick, pids, home, n, ulong_max, ls):
    if ls == 8:
        heap = 0xffff888100000000
        old_heap = 0xffff888040000000
    else:
        heap = 0xc1000000
        old_heap = 0xc0800000
    regions = {}
    freelists = {}
    nexti = {}

    def new_ptr(cls):
        fl = freelists.setdefault(cls, [])
        if fl and rng.random() < 0.85:
            return fl.pop()             # LIFO reuse, as SLUB does
        if cls not in regions:
            regions[cls] = heap + len(regions) * (0x1000000 if ls == 8
                                                  else 0x100000)
        i = nexti.get(cls, 0)
        nexti[cls] = i + 1
        size = CACHE_OBJ.get(cls, cls if isinstance(cls, int) else 64)
        return regions[cls] + i * size

    def site_addr(key, off):
        if key == "@jit":
            return ks.addr("@jit", off)
        return ks.addr(key, off)

    live = []           # [ptr, site, cls, cpu, event]
    ev_k = [e for e in ("kmalloc", "kmalloc_node") if e in events]
    ev_c = [e for e in ("kmem_cache_alloc", "kmem_cache_alloc_node")
            if e in events]
    weights = [6, 5, 2, 5, 4, 3, 3, 3, 2, 4, 2, 1, 3, 2, 3, 2, 1, 1]
    done = 0
    double_left = 3
    while done < n:
        pid = rng.choice(pids[:-1] if rng.random() < 0.97 else pids)
        cpu = home[pid] if rng.random() < 0.9 else rng.randrange(opt.cpus)
        r = rng.random()
        ts = tick(cpu)
        if live and (r < 0.42 or len(live) > 400):
            # free something: recent objects first
            if rng.random() < 0.6:
                k = len(live) - 1 - min(len(live) - 1,
                                        int(rng.expovariate(0.3)))
            else:
                k = rng.randrange(len(live))
            ptr, site, cls, acpu, aev, apid = live[k]
            life = site[7]
            if life == "leak" and rng.random() < 0.9:
                continue
            if life == "long" and rng.random() < 0.5:
                continue
            live.pop(k)
            # mostly the allocating task frees it, on its CPU; sometimes
            # RCU or a kworker on another CPU (cross-CPU frees)
            fcpu, fpid = acpu, apid
            if rng.random() < 0.12:
                fpid = 88 if rng.random() < 0.5 else 15
                fcpu = (acpu + 1 + rng.randrange(max(1, opt.cpus - 1))) \
                    % opt.cpus
            ts = tick(fcpu)
            freelists.setdefault(cls, []).append(ptr)
            if rng.random() < 0.03:
                continue        # the free record is missing: a missed free
            fsite = site_addr(site[6], None)
            if site[2] == "cache" and "kmem_cache_free" in events:
                emit(ts, fcpu, "kmem_cache_free", fpid, call_site=fsite,
                     ptr=ptr, name=site[3])
            else:
                emit(ts, fcpu, "kfree", fpid, call_site=fsite, ptr=ptr)
            done += 1
            if double_left and rng.random() < 0.01:
                double_left -= 1
                emit(tick(fcpu), fcpu, "kfree", fpid, call_site=fsite,
                     ptr=ptr)
                done += 1
            continue
        if r < 0.47:
            # specials
            k = rng.random()
            site = rng.choice(SLAB_SITES)
            csite = site_addr(site[0], site[1])
            if k < 0.3:
                emit(ts, cpu, "kfree", pid, call_site=site_addr(site[6], None),
                     ptr=0)
            elif k < 0.45:
                if ev_k:
                    emit(ts, cpu, ev_k[0], pid, call_site=csite, ptr=0x10,
                         bytes_req=0, bytes_alloc=0, gfp_flags=site[5],
                         node=-1)
            elif k < 0.5:
                if ev_k:
                    emit(ts, cpu, ev_k[0], pid, call_site=csite, ptr=0,
                         bytes_req=1 << 22, bytes_alloc=1 << 22,
                         gfp_flags=site[5] | 0x2000, node=-1)
            elif k < 0.55:
                emit(ts, cpu, "kfree", pid, call_site=csite, ptr=0x10)
            else:
                # an object allocated before the trace
                cls = rng.choice(list(CACHE_OBJ))
                p = old_heap + rng.randrange(0, 0x100000) * 64
                if "kmem_cache_free" in events and rng.random() < 0.5:
                    emit(ts, cpu, "kmem_cache_free", pid,
                         call_site=site_addr(site[6], None), ptr=p, name=cls)
                else:
                    emit(ts, cpu, "kfree", pid,
                         call_site=site_addr(site[6], None), ptr=p)
            done += 1
            continue
        site = rng.choices(SLAB_SITES, weights)[0]
        req = rng.choice(site[4])
        csite = site_addr(site[0], site[1])
        node = -1 if rng.random() < 0.8 else rng.randrange(2)
        if site[2] == "cache" and ev_c:
            cls = site[3]
            got = CACHE_OBJ[cls]
            ptr = new_ptr(cls)
            ev = ev_c[0] if len(ev_c) == 1 or node < 0 else ev_c[1]
            emit(ts, cpu, ev, pid, call_site=csite, ptr=ptr, name=cls,
                 bytes_req=req, bytes_alloc=got, gfp_flags=site[5], node=node,
                 accounted=1 if site[5] & 0x400000 else 0)
        else:
            got = kmalloc_class(req)
            cls = got
            ptr = new_ptr(cls)
            ev = ev_k[0] if len(ev_k) == 1 or node < 0 else ev_k[1]
            emit(ts, cpu, ev, pid, call_site=csite, ptr=ptr, bytes_req=req,
                 bytes_alloc=got, gfp_flags=site[5], node=node,
                 accounted=1 if site[5] & 0x400000 else 0)
        live.append([ptr, site, cls, cpu, ev, pid])
        done += 1


def gen_page(opt, rng, ks, events, emit, tick, pids, home, n, ulong_max, ls,
             old):
    ks_fmt = events.get("kernel_stack")
    has_size = ks_fmt is not None and "size" in ks_fmt.byname
    nframes_decl = 8
    if ks_fmt is not None and "caller" in ks_fmt.byname:
        nframes_decl = ks_fmt.byname["caller"].arraylen or 8
    pfn_base = 0x100000 if ls == 8 else 0x1000
    free_pfns = {}
    next_pfn = [pfn_base]
    live = []           # (pfn, order, cpu)

    def get_pfn(order):
        fl = free_pfns.setdefault(order, [])
        if fl and rng.random() < 0.7:
            return fl.pop()
        step = 1 << order
        p = (next_pfn[0] + step - 1) // step * step
        next_pfn[0] = p + step + rng.randrange(0, 64)
        return p

    def pageval(pfn):
        if old:
            base = 0xffffea0000000000 if ls == 8 else 0xc1000000
            return base + pfn * (0x38 if ls == 8 else 0x20)
        return pfn

    def stack(frames_keys):
        frames = [ks.addr(k) for k in frames_keys]
        if has_size:
            return {"size": len(frames), "caller": frames}
        # 2.6.32: caller[8], ULONG_MAX after the last frame
        f = frames[:nframes_decl]
        if len(f) < nframes_decl:
            f = f + [ulong_max] + [0] * (nframes_decl - len(f) - 1)
        return {"caller": f}

    pkey = "page" if old else "pfn"
    free_ev = "mm_page_free_direct" if "mm_page_free_direct" in events \
        else "mm_page_free"
    batch_ev = "mm_pagevec_free" if "mm_pagevec_free" in events \
        else "mm_page_free_batched"
    gfps = ([0x200da, 0xd0, 0x20, 0x80d0] if old else
            [0x140dca, 0xcc0, 0x2800, 0x440dc0, 0x400cc0, 0x152c4a, 0x8c40])
    done = 0
    last_ts = {}
    while done < n:
        pid = rng.choice(pids[:-1])
        cpu = home[pid] if rng.random() < 0.9 else rng.randrange(opt.cpus)
        ts = tick(cpu)
        r = rng.random()
        if r < 0.5 or not live:
            order = rng.choices([0, 1, 2, 3, 4, 9], [80, 8, 6, 3, 2, 1])[0]
            gfp = rng.choice(gfps)
            if old:
                mt = 2 if gfp & 0x2 and gfp & 0x8 else (1 if gfp & 0x80000
                                                        else 0)
            else:
                mt = 1 if gfp & 0x8 else (2 if gfp & 0x10 else 0)
            fail = rng.random() < 0.01
            pfn = get_pfn(order)
            val = (0 if old else ulong_max) if fail else pageval(pfn)
            if not fail and rng.random() < 0.05 and \
                    "mm_page_alloc_zone_locked" in events:
                # rmqueue() takes it from the zone, under the zone lock,
                # before __alloc_pages() traces the allocation
                emit(ts, cpu, "mm_page_alloc_zone_locked", pid,
                     pfn=pfn, order=order, migratetype=mt,
                     percpu_refill=1 if order == 0 else 0)
                done += 1
                ts = tick(cpu)
            emit(ts, cpu, "mm_page_alloc", pid, order=order, gfp_flags=gfp,
                 migratetype=mt, **{pkey: val})
            done += 1
            if not fail:
                live.append((pfn, order, cpu))
            # its stack, directly after it (the stacktrace trigger)
            if ks_fmt is not None:
                tmpl = rng.choice(OLD_ALLOC_STACKS if old else ALLOC_STACKS)
                if not old and len(tmpl) < 8 and \
                        late_in_trace(ts, opt):
                    tmpl = ALLOC_STACKS[0]
                st = stack(tmpl)
                sts = ts + rng.randrange(200, 3000)
                if not emit(sts, cpu, "kernel_stack", pid, **st):
                    pass
                else:
                    done += 1
                # keep the CPU's clock past the stack
                tick.__self__.bump(cpu, sts)
            if rng.random() < 0.02 and "mm_page_alloc_extfrag" in events:
                emit(tick(cpu), cpu, "mm_page_alloc_extfrag", pid,
                     alloc_order=order, fallback_order=rng.choice([0, 3, 10]),
                     alloc_migratetype=mt,
                     fallback_migratetype=rng.choice([0, 1, 2]),
                     change_ownership=rng.randrange(2),
                     **{pkey: pageval(get_pfn(0))})
                done += 1
            continue
        if r < 0.9:
            k = rng.randrange(len(live))
            pfn, order, acpu = live.pop(k)
            free_pfns.setdefault(order, []).append(pfn)
            if rng.random() < 0.03:
                continue        # free not recorded: a missed free later
            if order == 0 and rng.random() < 0.4 and batch_ev in events:
                emit(ts, cpu, batch_ev, pid, cold=0, order=0,
                     **{pkey: pageval(pfn)})
            else:
                emit(ts, cpu, free_ev, pid, order=order,
                     **{pkey: pageval(pfn)})
            done += 1
            if ks_fmt is not None and not old and rng.random() < 0.3:
                st = stack(rng.choice(FREE_STACKS))
                sts = ts + rng.randrange(200, 3000)
                emit(sts, cpu, "kernel_stack", pid, **st)
                tick.__self__.bump(cpu, sts)
                done += 1
            continue
        if r < 0.94:
            # a page allocated before the trace
            emit(ts, cpu, free_ev, pid, order=0,
                 **{pkey: pageval(pfn_base // 2 + rng.randrange(0x10000))})
        elif r < 0.97 and "mm_page_pcpu_drain" in events:
            emit(ts, cpu, "mm_page_pcpu_drain", pid, pfn=get_pfn(0), order=0,
                 migratetype=rng.randrange(3))
        elif live and rng.random() < 0.3:
            # a double free
            pfn, order, _ = live[-1]
            emit(ts, cpu, free_ev, pid, order=order, **{pkey: pageval(pfn)})
            emit(tick(cpu), cpu, free_ev, pid, order=order,
                 **{pkey: pageval(pfn)})
            live.pop()
            done += 1
        done += 1


def late_in_trace(ts, opt):
    """Short stacks (fewer than the 8 frames libtraceevent prints) only in
    the first part of the trace: libtraceevent reads a kernel_stack's
    caller[8] in full, past a short record, and the last record of a
    CPU's data could be at the very end of the mapped file."""
    return ts > int(opt.start * 1e9) + int(opt.seconds * 1e9 * 0.4)


if __name__ == "__main__":
    sys.exit(main())
