#!/bin/bash
# record.sh - record slab allocator events (kmalloc, kfree, kmem_cache_alloc,
# kmem_cache_free) of one workload into a trace-cmd .dat file, for the kmem
# plugin (trace-cmd report -O kmem:stat).  The files in sample-data/ were
# made with it; see sample-data/README.md.
#
# WHY NOT `trace-cmd record`: on machines like the one these samples were
# recorded on (a VM/container running Linux 6.18, even as root),
# `trace-cmd record` FAILS with EPERM writing tracefs set_ftrace_pid and
# /proc/sys/kernel/ftrace_enabled.  This script therefore does by hand what
# record would do: it enables the events by writing tracefs files
# (events/kmem/NAME/enable, buffer_size_kb, set_event_pid, options/event-fork,
# tracing_on), runs the workload, stops tracing, and saves the ring buffer
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
# set_event_pid set, a tracer set) unless -f is given.  On every exit it
# restores what it changed: the events it enabled are disabled again,
# tracing_on, buffer_size_kb, set_event_pid and options/event-fork get their
# old values, and the buffer is cleared.
#
# Needs root, tracefs, trace-cmd (3.x writes a zstd-compressed v7 file; the
# stored kallsyms then take ~1.1 MB).
set -eu

prog=${0##*/}

usage() {
	cat <<EOF
Usage: $prog [-o OUT.dat] [-b BUFFER_KB] [-e EVENTS] [-a] [-f] WORKLOAD [ARG...]
       $prog -h | --help

Record slab allocator events of WORKLOAD into OUT.dat (default: slab.dat).

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

Options:
  -o OUT.dat     output file (default slab.dat)
  -b BUFFER_KB   per-CPU ring buffer size in KB (default 20000); too small
                 a buffer loses events (the count is printed at the end)
  -e EVENTS      comma-separated kmem events to enable (default
                 kmalloc,kfree,kmem_cache_alloc,kmem_cache_free; also
                 kmalloc_node,kmem_cache_alloc_node on kernels before 6.1)
  -a             record all processes, not just the workload's tree
  -f             proceed even if the tracefs buffer looks in use
  -h, --help     this text

Must run as root.  tracefs state is restored on exit (see the script's
header comment).
EOF
}

die() {
	echo "$prog: $*" >&2
	exit 1
}

out=slab.dat
bufkb=20000
events=kmalloc,kfree,kmem_cache_alloc,kmem_cache_free
allpids=0
force=0

while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-o) [ $# -ge 2 ] || die "-o needs an argument"; out=$2; shift 2 ;;
	-b) [ $# -ge 2 ] || die "-b needs an argument"; bufkb=$2; shift 2 ;;
	-e) [ $# -ge 2 ] || die "-e needs an argument"; events=$2; shift 2 ;;
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

evlist=()
IFS=, read -r -a evnames <<<"$events"
for e in "${evnames[@]}"; do
	[ -n "$e" ] || continue
	e=${e#kmem:}
	e=${e#kmem/}
	[ -f "$T/events/kmem/$e/enable" ] || die "no such event: kmem/$e"
	evlist+=("$e")
done
[ ${#evlist[@]} -gt 0 ] || die "no events given"

if [ "$force" -eq 0 ]; then
	busy=
	[ -z "$(cat "$T/set_event")" ] || busy="events enabled: $(tr '\n' ' ' <"$T/set_event")"
	[ -z "$(cat "$T/set_event_pid")" ] || busy="$busy set_event_pid set;"
	[ "$(cat "$T/current_tracer")" = nop ] || busy="$busy current_tracer is $(cat "$T/current_tracer");"
	[ -z "$busy" ] ||
		die "tracefs buffer looks in use ($busy); stop that first or use -f"
fi

# Save the state we touch.
old_on=$(cat "$T/tracing_on")
old_fork=$(cat "$T/options/event-fork")
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
	old_en[$e]=$(cat "$T/events/kmem/$e/enable")
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/record-slab.XXXXXX")
wpid=

restore() {
	local rc=$? e f
	set +e
	echo 0 >"$T/tracing_on"
	for e in "${!old_en[@]}"; do
		# "X" (partly enabled) cannot be written back; leave it disabled
		case ${old_en[$e]} in 0 | 1) echo "${old_en[$e]}" ;; *) echo 0 ;; esac \
			>"$T/events/kmem/$e/enable"
	done
	: >"$T/set_event_pid"
	for p in $old_pids; do echo "$p" >>"$T/set_event_pid"; done
	echo "$old_fork" >"$T/options/event-fork"
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
for e in "${evlist[@]}"; do echo 0 >"$T/events/kmem/$e/enable"; done

# Start the workload, blocked on the fifo.
mkfifo "$tmp/gate"
sh -c 'read _ <"$1"; shift; exec "$@"' gate "$tmp/gate" "$@" &
wpid=$!

if [ "$allpids" -eq 0 ]; then
	echo 1 >"$T/options/event-fork"
	echo "$wpid" >"$T/set_event_pid"
fi
for e in "${evlist[@]}"; do echo 1 >"$T/events/kmem/$e/enable"; done
echo 1 >"$T/tracing_on"

start=$(date +%s.%N)
echo go >"$tmp/gate"
wrc=0
wait "$wpid" || wrc=$?
wpid=
echo 0 >"$T/tracing_on"
end=$(date +%s.%N)
for e in "${evlist[@]}"; do echo 0 >"$T/events/kmem/$e/enable"; done
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

nrec=$(trace-cmd report -N "$out" 2>/dev/null |
	grep -cE ' (kmalloc|kmalloc_node|kfree|kmem_cache_alloc|kmem_cache_alloc_node|kmem_cache_free): ' || true)
printf '%s: %s: workload ran %.2f s, %s slab records, %s KB, events lost: %s\n' \
	"$prog" "$out" "$(awk "BEGIN { print $end - $start }")" "$nrec" "$(du -k "$out" | cut -f1)" "$lost"
