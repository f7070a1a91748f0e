#!/bin/bash
# record.sh - record kmem events of one workload into a trace-cmd .dat file,
# for the kmem plugin (trace-cmd report -O kmem:stat): by default the slab
# allocator events (kmalloc, kfree, kmem_cache_alloc, kmem_cache_free), with
# -e also or instead the page allocator events (mm_page_alloc, mm_page_free,
# mm_page_free_batched, mm_page_alloc_zone_locked, mm_page_pcpu_drain,
# mm_page_alloc_extfrag), the per-CPU allocator's (percpu_alloc_percpu,
# percpu_free_percpu, percpu_alloc_percpu_fail, percpu_create_chunk,
# percpu_destroy_chunk) or the vmalloc allocator's (vmap areas:
# alloc_vmap_area, free_vmap_area_noflush, purge_vmap_area_lazy),
# optionally with kernel stacks (-T: a kernel_stack record after every
# event; -t: after every allocation only, mm_page_alloc and/or
# alloc_vmap_area).  The files in sample-data/ were made with it; see
# sample-data/README.md.
#
# WHY NOT `trace-cmd record`: on machines like the one these samples were
# recorded on (a VM/container running Linux 6.18, even as root),
# `trace-cmd record` FAILS with EPERM writing tracefs set_ftrace_pid and
# /proc/sys/kernel/ftrace_enabled.  This script therefore does by hand what
# record would do: it enables the events by writing tracefs files
# (events/kmem/NAME/enable, events/percpu/NAME/enable,
# events/vmalloc/NAME/enable, buffer_size_kb, set_event_pid,
# options/event-fork, options/stacktrace, events/kmem/mm_page_alloc/trigger,
# events/vmalloc/alloc_vmap_area/trigger, tracing_on), runs
# the workload, stops tracing, and saves the ring buffer
# with `trace-cmd extract`, which also stores /proc/kallsyms (call sites then
# print as symbol+0xoff) and the event formats.
#
# Only the workload's process tree is recorded: the workload is started as
# `sh -c 'read _ <FIFO; exec WORKLOAD'`, blocked on a fifo; its pid goes into
# set_event_pid with options/event-fork on (children are followed), the
# events are enabled, and only then is the shell released.  With -a every
# process is recorded.
#
# The top-level tracefs buffer is used (trace-cmd 3.1 `extract -B INSTANCE`
# consumes the top-level buffer anyway, and removes the instance).  The
# script refuses to start if that buffer looks in use (events enabled,
# set_event_pid set, a tracer set, options/stacktrace on, a trigger on one
# of the events) unless -f is given.  On every exit it restores what it
# changed: the events it enabled are disabled again, the stacktrace trigger
# triggers it added are removed, tracing_on, buffer_size_kb, set_event_pid,
# options/event-fork and options/stacktrace get their old values, and the
# buffer is cleared.
#
# Needs root, tracefs, trace-cmd (3.x writes a zstd-compressed v7 file; the
# stored kallsyms then take ~1.1 MB).
set -eu

prog=${0##*/}

usage() {
	cat <<EOF
Usage: $prog [-o OUT.dat] [-b BUFFER_KB] [-e EVENTS] [-T | -t] [-a] [-f]
              WORKLOAD [ARG...]
       $prog -h | --help

Record kmem events of WORKLOAD into OUT.dat: slab allocator events by
default, page allocator events with -e page, per-CPU allocator events with
-e percpu, vmalloc allocator (vmap area) events with -e vmalloc (or
several: -e slab,page,percpu,vmalloc).

NOTE: \`trace-cmd record\` fails on machines like the one this was written
on (EPERM writing set_ftrace_pid and /proc/sys/kernel/ftrace_enabled), so
this script enables the events itself through tracefs files and saves the
buffer with \`trace-cmd extract\` (which stores /proc/kallsyms too).

WORKLOAD is a command (run as given; it is exec'd by a gated sh whose pid
is put in set_event_pid with options/event-fork, so its whole process tree
and nothing else is recorded) or one of these built-in workloads:
  fs-walk     find /usr/share/doc -type f -print0 | head -z -n 2000 |
              xargs -0 cat >/dev/null
  fork-exec   a loop of \$N (default 200) \`sh -c true\` processes
  pingpong    two python3 processes pinned to CPU 0 and CPU 1 exchanging
              \$N (default 1500) 200-byte messages over a socketpair
              (socket buffers freed on the other CPU: cross-CPU frees)
  page-mix    page allocator: python3 maps \$MB (default 20) MB of
              anonymous memory, writes to every page and unmaps it; dd
              writes a \$FILE_MB (default 8) MB file in \${TMPDIR:-/tmp}
              and fsyncs it, drops it from the page cache (dd
              iflag=nocache count=0), reads it back into the page cache,
              and rm removes it (which frees that page cache)
  pipe-fill   page allocator: python3 fills \$N (default 64) pipes of 1 MB
              (F_SETPIPE_SZ) and exits: \$N MB of unmovable order-0 pages
              (pipe buffers) allocated and, at exit, freed.  Steals
              pageblocks from other migrate types (mm_page_alloc_extfrag)
              once the free pages of unmovable pageblocks (see
              /proc/pagetypeinfo) run out: run a larger pipe-fill outside
              the recording first to use them up (sample-data/README.md)
  netns       per-CPU allocator: \$N (default 40) network namespaces made
              and removed one after the other (\`unshare -n true\`: each
              netns's per-CPU SNMP and device counters), then \$HELD
              (default 150) held 2 s at once (\`unshare -n sleep 2\` in
              parallel: enough per-CPU memory for the allocator to add
              chunks), then \$SETTLE (default 2) s for the kernel's cleanup_net
              worker to free them (record with -a: the frees run in that
              worker, not in the workload)
  vmap-churn  vmalloc allocator: a loop of \$N (default 300) \`sh -c true\`
              (each fork vmallocs a 16 KB kernel stack unless it reuses
              one of the per-CPU cached stacks), then python3 attaches
              \$FILTERS (default 1700) classic BPF socket filters of 4096
              instructions to UDP sockets and closes them (bpf_prog_alloc:
              a 40 KB vmap area each), then \$SETTLE (default 2) s for
              the kernel to free them (record with -a: stacks and
              filters are freed by RCU callbacks and kworkers, not by
              the workload); once the lazily freed pages pass
              nr_lazy_max (16384 pages with 2 CPUs: 1700 filters pass
              it whatever the count before), a kworker purges them
              (purge_vmap_area_lazy)

Options:
  -o OUT.dat     output file (default slab.dat when only slab events are
                 recorded, page.dat when only page events, percpu.dat when
                 only per-CPU events, vmalloc.dat when only vmalloc
                 events, else kmem.dat)
  -b BUFFER_KB   per-CPU ring buffer size in KB (default 20000); too small
                 a buffer loses events (the count is printed at the end)
  -e EVENTS      comma-separated events to enable (default: slab), any
                 of kmalloc, kfree, kmem_cache_alloc, kmem_cache_free (also
                 kmalloc_node, kmem_cache_alloc_node on kernels before 6.1),
                 mm_page_alloc, mm_page_free, ... (see events/kmem in
                 tracefs), percpu:NAME (events/percpu), vmalloc:NAME
                 (events/vmalloc), or the shorthands
                   slab    kmalloc,kfree,kmem_cache_alloc,kmem_cache_free
                   page    mm_page_alloc,mm_page_free,mm_page_free_batched,
                           mm_page_alloc_zone_locked,mm_page_pcpu_drain,
                           mm_page_alloc_extfrag (those this kernel has)
                   percpu  percpu_alloc_percpu,percpu_free_percpu,
                           percpu_alloc_percpu_fail,percpu_create_chunk,
                           percpu_destroy_chunk (those this kernel has)
                   vmalloc alloc_vmap_area,free_vmap_area_noflush,
                           purge_vmap_area_lazy (those this kernel has)
                 e.g. -e page, -e slab,percpu, -e mm_page_alloc,mm_page_free,
                 -e slab,vmalloc
  -T             kernel stacks for every event: options/stacktrace, a
                 kernel_stack record after each recorded event (large:
                 ~100-300 bytes each; raise -b for long workloads)
  -t             kernel stacks for allocations only: a \`stacktrace\`
                 trigger on mm_page_alloc (page allocations) and/or on
                 alloc_vmap_area (vmap areas), on each of the two that
                 -e selects (needs at least one of them in -e)
  -a             record all processes, not just the workload's tree
  -f             proceed even if the tracefs buffer looks in use
  -h, --help     this text

Must run as root.  tracefs state is restored on exit (see the script's
header comment).  The summary line at the end counts slab, page, per-CPU,
vmalloc and kernel_stack records and the events the ring buffer lost.
EOF
}

die() {
	echo "$prog: $*" >&2
	exit 1
}

out=
bufkb=20000
events=slab
stack=0		# options/stacktrace (-T)
trig=0		# stacktrace trigger on mm_page_alloc / alloc_vmap_area (-t)
allpids=0
force=0

while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-o) [ $# -ge 2 ] || die "-o needs an argument"; out=$2; shift 2 ;;
	-b) [ $# -ge 2 ] || die "-b needs an argument"; bufkb=$2; shift 2 ;;
	-e) [ $# -ge 2 ] || die "-e needs an argument"; events=$2; shift 2 ;;
	-T) stack=1; shift ;;
	-t) trig=1; shift ;;
	-a) allpids=1; shift ;;
	-f) force=1; shift ;;
	--) shift; break ;;
	-*) usage >&2; die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { usage >&2; die "no workload given"; }
case $bufkb in
'' | *[!0-9]*) die "-b: not a number: $bufkb" ;;
esac
[ "$stack" -eq 0 ] || [ "$trig" -eq 0 ] ||
	die "-T and -t exclude each other (-T already stacks every event)"
[ "$(id -u)" -eq 0 ] || die "must run as root"
command -v trace-cmd >/dev/null || die "trace-cmd not found"

# Built-in workloads.
pyping='
import os, socket, sys
n = int(sys.argv[1])
a, b = socket.socketpair()
def pin(cpu):
    try:
        os.sched_setaffinity(0, {cpu % os.cpu_count()})
    except OSError:
        pass
msg = b"x" * 200
if os.fork() == 0:
    pin(1)
    a.close()
    for _ in range(n):
        b.recv(4096)
        b.send(msg)
    os._exit(0)
pin(0)
b.close()
for _ in range(n):
    a.send(msg)
    a.recv(4096)
os.wait()
'
pyanon='
import mmap, sys
n = int(sys.argv[1]) << 20
m = mmap.mmap(-1, n, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)	# no page yet
for i in range(0, n, mmap.PAGESIZE):
    m[i] = 1	# the first write to each page faults it in
m.close()	# munmap: the pages are freed
'
pypipes='
import fcntl, os, sys
F_SETPIPE_SZ = 1031	# linux/fcntl.h
n = int(sys.argv[1])
size = min(1 << 20, int(open("/proc/sys/fs/pipe-max-size").read()))
chunk = b"x" * 65536
pipes = []
for _ in range(n):
    r, w = os.pipe()
    fcntl.fcntl(w, F_SETPIPE_SZ, size)
    os.set_blocking(w, False)
    try:
        while True:
            os.write(w, chunk)	# one unmovable page per 4 KB
    except BlockingIOError:
        pass	# full
    pipes.append((r, w))	# held until exit, which frees them
'
pybpf='
import ctypes, socket, struct, sys
n = int(sys.argv[1])
SO_ATTACH_FILTER = 26	# asm-generic/socket.h
# 4095 x "ld #0" (BPF_LD|BPF_IMM), then "ret #-1" (BPF_RET|BPF_K): accept
code = (struct.pack("HBBI", 0x00, 0, 0, 0) * 4095 +
        struct.pack("HBBI", 0x06, 0, 0, 0xffffffff))
buf = ctypes.create_string_buffer(code, len(code))
prog = struct.pack("HL", 4096, ctypes.addressof(buf))	# struct sock_fprog
for _ in range(n):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, prog)	# vmalloc
    s.close()	# the filter is freed after an RCU grace period
'
case $1 in
fs-walk)
	[ $# -eq 1 ] || die "fs-walk takes no arguments"
	set -- sh -c 'find /usr/share/doc -type f -print0 | head -z -n 2000 | xargs -0 cat >/dev/null'
	;;
fork-exec)
	[ $# -eq 1 ] || die "fork-exec takes no arguments"
	set -- sh -c 'i=0; while [ $i -lt '"${N:-200}"' ]; do sh -c true; i=$((i + 1)); done'
	;;
pingpong)
	[ $# -eq 1 ] || die "pingpong takes no arguments"
	py=$(command -v python3) || die "pingpong needs python3"
	# a pyenv shim would fork a few helpers first; use the real binary
	[ -x /usr/bin/python3 ] && py=/usr/bin/python3
	set -- "$py" -c "$pyping" "${N:-1500}"
	;;
page-mix)
	[ $# -eq 1 ] || die "page-mix takes no arguments"
	py=$(command -v python3) || die "page-mix needs python3"
	[ -x /usr/bin/python3 ] && py=/usr/bin/python3
	mb=${MB:-20} fmb=${FILE_MB:-8}
	case $mb$fmb in '' | *[!0-9]*) die "page-mix: MB and FILE_MB must be numbers" ;; esac
	set -- sh -c '
		set -e
		"$1" -c "$2" "$3"
		f=$(mktemp "${TMPDIR:-/tmp}/page-mix.XXXXXX")
		dd if=/dev/zero of="$f" bs=1M count="$4" conv=fsync status=none
		dd if="$f" iflag=nocache count=0 status=none
		dd if="$f" of=/dev/null bs=1M status=none
		rm -f "$f"' page-mix "$py" "$pyanon" "$mb" "$fmb"
	;;
pipe-fill)
	[ $# -eq 1 ] || die "pipe-fill takes no arguments"
	py=$(command -v python3) || die "pipe-fill needs python3"
	[ -x /usr/bin/python3 ] && py=/usr/bin/python3
	case ${N:-64} in '' | *[!0-9]*) die "pipe-fill: N must be a number" ;; esac
	set -- "$py" -c "$pypipes" "${N:-64}"
	;;
netns)
	[ $# -eq 1 ] || die "netns takes no arguments"
	command -v unshare >/dev/null || die "netns needs unshare (util-linux)"
	case ${N:-40}${HELD:-150}${SETTLE:-2} in
	'' | *[!0-9]*) die "netns: N, HELD and SETTLE must be numbers" ;;
	esac
	set -- sh -c 'i=0; while [ $i -lt '"${N:-40}"' ]; do unshare -n true; i=$((i + 1)); done
		i=0; while [ $i -lt '"${HELD:-150}"' ]; do unshare -n sleep 2 & i=$((i + 1)); done
		wait; sleep '"${SETTLE:-2}"
	;;
vmap-churn)
	[ $# -eq 1 ] || die "vmap-churn takes no arguments"
	py=$(command -v python3) || die "vmap-churn needs python3"
	[ -x /usr/bin/python3 ] && py=/usr/bin/python3
	case ${N:-300}${FILTERS:-1700}${SETTLE:-2} in
	'' | *[!0-9]*) die "vmap-churn: N, FILTERS and SETTLE must be numbers" ;;
	esac
	set -- sh -c 'i=0; while [ $i -lt '"${N:-300}"' ]; do sh -c true; i=$((i + 1)); done
		"$1" -c "$2" '"${FILTERS:-1700}"'; sleep '"${SETTLE:-2}" vmap-churn "$py" "$pybpf"
	;;
esac

# tracefs
T=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	if [ -w "$d/tracing_on" ]; then T=$d; break; fi
done
mounted=0
if [ -z "$T" ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		die "tracefs not mounted and cannot be mounted on /sys/kernel/tracing"
	T=/sys/kernel/tracing
	mounted=1
fi

SLAB_EVENTS="kmalloc kfree kmem_cache_alloc kmem_cache_free"
PAGE_EVENTS="mm_page_alloc mm_page_free mm_page_free_batched mm_page_alloc_zone_locked mm_page_pcpu_drain mm_page_alloc_extfrag"
PERCPU_EVENTS="percpu_alloc_percpu percpu_free_percpu percpu_alloc_percpu_fail percpu_create_chunk percpu_destroy_chunk"
VMALLOC_EVENTS="alloc_vmap_area free_vmap_area_noflush purge_vmap_area_lazy"
# entries are SYSTEM/EVENT: kmem/kmalloc, percpu/percpu_alloc_percpu,
# vmalloc/alloc_vmap_area
evlist=()
declare -A seen=()
add_event() {
	[ -z "${seen[$1]:-}" ] || return 0
	seen[$1]=1
	evlist+=("$1")
}
IFS=, read -r -a evnames <<<"$events"
add_present() { # system, events...: those this kernel has
	local sys=$1 s
	shift
	for s in "$@"; do
		if [ -f "$T/events/$sys/$s/enable" ]; then
			add_event "$sys/$s"
		else
			echo "$prog: warning: this kernel has no $sys/$s; not recorded" >&2
		fi
	done
}
for e in "${evnames[@]}"; do
	case $e in
	percpu:* | percpu/*) sys=percpu e=${e#percpu[:/]} ;;
	vmalloc:* | vmalloc/*) sys=vmalloc e=${e#vmalloc[:/]} ;;
	*) sys=kmem e=${e#kmem[:/]} ;;
	esac
	case $e in
	'') ;;
	slab) for s in $SLAB_EVENTS; do add_event "kmem/$s"; done ;;
	page) add_present kmem $PAGE_EVENTS ;;
	percpu) add_present percpu $PERCPU_EVENTS ;;
	vmalloc) add_present vmalloc $VMALLOC_EVENTS ;;
	*)
		[ -f "$T/events/$sys/$e/enable" ] || die "no such event: $sys/$e"
		add_event "$sys/$e"
		;;
	esac
done
[ ${#evlist[@]} -gt 0 ] || die "no events given"
nslab=0 npage=0 npcpu=0 nvmal=0
for e in "${evlist[@]}"; do
	case $e in
	kmem/mm_*) npage=$((npage + 1)) ;;
	percpu/*) npcpu=$((npcpu + 1)) ;;
	vmalloc/*) nvmal=$((nvmal + 1)) ;;
	*) nslab=$((nslab + 1)) ;;
	esac
done
if [ -z "$out" ]; then
	if [ "$npage" -eq 0 ] && [ "$npcpu" -eq 0 ] && [ "$nvmal" -eq 0 ]; then out=slab.dat
	elif [ "$nslab" -eq 0 ] && [ "$npcpu" -eq 0 ] && [ "$nvmal" -eq 0 ]; then out=page.dat
	elif [ "$nslab" -eq 0 ] && [ "$npage" -eq 0 ] && [ "$nvmal" -eq 0 ]; then out=percpu.dat
	elif [ "$nslab" -eq 0 ] && [ "$npage" -eq 0 ] && [ "$npcpu" -eq 0 ]; then out=vmalloc.dat
	else out=kmem.dat
	fi
fi
# -t: a stacktrace trigger on each allocation event selected
TRIGS=()
if [ "$trig" -eq 1 ]; then
	for e in kmem/mm_page_alloc vmalloc/alloc_vmap_area; do
		[ -z "${seen[$e]:-}" ] || TRIGS+=("$T/events/$e/trigger")
	done
	[ ${#TRIGS[@]} -gt 0 ] ||
		die "-t needs mm_page_alloc or vmalloc:alloc_vmap_area among the events (-e)"
	for f in "${TRIGS[@]}"; do
		[ -w "$f" ] || die "no $f (event triggers need Linux 3.14 or later)"
	done
fi
[ -w "$T/options/stacktrace" ] || [ "$stack" -eq 0 ] ||
	die "no $T/options/stacktrace"

if [ "$force" -eq 0 ]; then
	busy=
	[ -z "$(cat "$T/set_event")" ] || busy="events enabled: $(tr '\n' ' ' <"$T/set_event")"
	[ -z "$(cat "$T/set_event_pid")" ] || busy="$busy set_event_pid set;"
	[ "$(cat "$T/current_tracer")" = nop ] || busy="$busy current_tracer is $(cat "$T/current_tracer");"
	[ "$(cat "$T/options/stacktrace" 2>/dev/null || echo 0)" = 0 ] || busy="$busy options/stacktrace on;"
	for e in "${evlist[@]}"; do
		[ -z "$(grep -v '^#' "$T/events/$e/trigger" 2>/dev/null)" ] ||
			busy="$busy a trigger on $e;"
	done
	[ -z "$busy" ] ||
		die "tracefs buffer looks in use ($busy); stop that first or use -f"
fi

# Save the state we touch.
old_on=$(cat "$T/tracing_on")
old_fork=$(cat "$T/options/event-fork")
old_stack=$(cat "$T/options/stacktrace" 2>/dev/null || true)
declare -A old_trig=()
for f in "${TRIGS[@]}"; do
	old_trig[$f]=$(grep -c '^stacktrace' "$f" || true)
done
old_pids=$(cat "$T/set_event_pid")
old_buf=$(cat "$T/buffer_size_kb")
declare -A old_cpu_buf=()
case $old_buf in
*expanded:*) old_buf=${old_buf##*expanded: }; old_buf=${old_buf%%)*} ;;
X)
	for f in "$T"/per_cpu/cpu*/buffer_size_kb; do
		old_cpu_buf[$f]=$(cat "$f")
	done
	;;
esac
declare -A old_en=()
for e in "${evlist[@]}"; do
	old_en[$e]=$(cat "$T/events/$e/enable")
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/record-kmem.XXXXXX")
wpid=

restore() {
	local rc=$? e f
	set +e
	echo 0 >"$T/tracing_on"
	# only the triggers we added: there was no stacktrace trigger before
	for f in "${!old_trig[@]}"; do
		if [ "${old_trig[$f]}" -eq 0 ] && grep -q '^stacktrace' "$f"; then
			echo '!stacktrace' >>"$f"
		fi
	done
	for e in "${!old_en[@]}"; do
		# "X" (partly enabled) cannot be written back; leave it disabled
		case ${old_en[$e]} in 0 | 1) echo "${old_en[$e]}" ;; *) echo 0 ;; esac \
			>"$T/events/$e/enable"
	done
	: >"$T/set_event_pid"
	for p in $old_pids; do echo "$p" >>"$T/set_event_pid"; done
	echo "$old_fork" >"$T/options/event-fork"
	[ -z "$old_stack" ] || echo "$old_stack" >"$T/options/stacktrace"
	: >"$T/trace"
	if [ ${#old_cpu_buf[@]} -gt 0 ]; then
		for f in "${!old_cpu_buf[@]}"; do echo "${old_cpu_buf[$f]}" >"$f"; done
	else
		echo "$old_buf" >"$T/buffer_size_kb"
	fi
	echo "$old_on" >"$T/tracing_on"
	if [ -n "$wpid" ] && kill -0 "$wpid" 2>/dev/null; then
		kill "$wpid" 2>/dev/null
	fi
	rm -rf "$tmp"
	[ "$mounted" -eq 0 ] || umount "$T"
	exit $rc
}
trap restore EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Prepare: tracing off, empty buffer of the wanted size, only our events.
echo 0 >"$T/tracing_on"
: >"$T/trace"
echo "$bufkb" >"$T/buffer_size_kb"
: >"$T/set_event_pid"
for e in "${evlist[@]}"; do echo 0 >"$T/events/$e/enable"; done
[ -z "$old_stack" ] || echo "$stack" >"$T/options/stacktrace"
for f in "${TRIGS[@]}"; do
	echo stacktrace >>"$f" || die "cannot set a stacktrace trigger in $f"
done

# Start the workload, blocked on the fifo.
mkfifo "$tmp/gate"
sh -c 'read _ <"$1"; shift; exec "$@"' gate "$tmp/gate" "$@" &
wpid=$!

if [ "$allpids" -eq 0 ]; then
	echo 1 >"$T/options/event-fork"
	echo "$wpid" >"$T/set_event_pid"
fi
for e in "${evlist[@]}"; do echo 1 >"$T/events/$e/enable"; done
echo 1 >"$T/tracing_on"

start=$(date +%s.%N)
echo go >"$tmp/gate"
wrc=0
wait "$wpid" || wrc=$?
wpid=
echo 0 >"$T/tracing_on"
end=$(date +%s.%N)
for e in "${evlist[@]}"; do echo 0 >"$T/events/$e/enable"; done
[ "$wrc" -eq 0 ] || echo "$prog: warning: workload exited with status $wrc" >&2

# Events the ring buffer lost: overwritten (overwrite mode) or dropped.
lost=0
for f in "$T"/per_cpu/cpu*/stats; do
	n=$(awk '/^overrun:/ { o = $2 } /^dropped events:/ { d = $3 } END { print o + d }' "$f")
	lost=$((lost + n))
done

trace-cmd extract -o "$out" >"$tmp/extract.log" 2>&1 || {
	cat "$tmp/extract.log" >&2
	die "trace-cmd extract failed"
}
[ -s "$out" ] || die "trace-cmd extract wrote no $out"
trace-cmd dump --summary "$out" 2>/dev/null | grep -q 'Kallsyms' ||
	echo "$prog: warning: $out holds no kallsyms; call sites will print as addresses" >&2

trace-cmd report -N "$out" >"$tmp/report" 2>/dev/null || true
nslabrec=$(grep -cE ' (kmalloc|kmalloc_node|kfree|kmem_cache_alloc|kmem_cache_alloc_node|kmem_cache_free): ' "$tmp/report" || true)
npagerec=$(grep -cE ' mm_page_[a-z_]+: ' "$tmp/report" || true)
npcpurec=$(grep -cE ' percpu_[a-z_]+: ' "$tmp/report" || true)
nvmalrec=$(grep -cE ' (alloc_vmap_area|free_vmap_area_noflush|purge_vmap_area_lazy): ' "$tmp/report" || true)
nstack=$(grep -cE ' kernel_stack: ' "$tmp/report" || true)
printf '%s: %s: workload ran %.2f s, %s slab records, %s page records, %s per-CPU records, %s vmalloc records, %s kernel_stack records, %s KB, events lost: %s\n' \
	"$prog" "$out" "$(awk "BEGIN { print $end - $start }")" "$nslabrec" "$npagerec" "$npcpurec" "$nvmalrec" "$nstack" \
	"$(du -k "$out" | cut -f1)" "$lost"
