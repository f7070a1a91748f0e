#!/bin/bash
# record-instance.sh - a trace.dat with a buffer instance, for trace-kmem's
# per-instance reports: the page allocator events go to the top-level
# buffer, the slab events to the instance "kmemslab", both following the
# same workload's process tree (set_event_pid + options/event-fork in each
# buffer); `trace-cmd extract -t -B kmemslab` saves both buffers into one
# file.  (`trace-cmd record` gets EPERM on the machine these samples come
# from; see record.sh.)
#
# Usage: record-instance.sh OUT.dat [WORKLOAD...]
#   default workload: 100 x `sh -c 'cat /etc/os-release >/dev/null'`
# Needs root and tracefs; refuses to run if an instance "kmemslab" exists.
set -eu

out=${1:?usage: record-instance.sh OUT.dat [WORKLOAD...]}
shift
[ $# -gt 0 ] || set -- sh -c 'for i in $(seq 100); do sh -c "cat /etc/os-release >/dev/null"; done'
T=/sys/kernel/tracing
I=$T/instances/kmemslab
[ "$(id -u)" -eq 0 ] || { echo "record-instance.sh: needs root" >&2; exit 2; }
[ -w $T/tracing_on ] || mount -t tracefs nodev $T
[ ! -e $I ] || { echo "record-instance.sh: $I exists" >&2; exit 2; }
grep -q 1 $T/events/kmem/enable 2>/dev/null &&
	{ echo "record-instance.sh: kmem events already enabled at top level" >&2; exit 2; }

tmp=$(mktemp -d)
old_event_fork=$(grep -c '^event-fork' $T/trace_options || true)
old_size=$(cat $T/buffer_size_kb)
cleanup() {
	echo 0 > $T/tracing_on
	for e in mm_page_alloc mm_page_free mm_page_free_batched; do
		echo 0 > $T/events/kmem/$e/enable
	done
	echo > $T/set_event_pid
	[ "$old_event_fork" = 1 ] || echo 0 > $T/options/event-fork
	echo "$old_size" > $T/buffer_size_kb
	echo > $T/trace
	[ ! -d $I ] || rmdir $I
	rm -rf "$tmp"
	echo 1 > $T/tracing_on
}
trap cleanup EXIT

mkfifo "$tmp/gate"
sh -c 'read _ < "$0"; exec "$@"' "$tmp/gate" "$@" &
pid=$!
mkdir $I
echo 0 > $T/tracing_on
echo 0 > $I/tracing_on
echo 20000 > $T/buffer_size_kb
echo 20000 > $I/buffer_size_kb
echo > $T/trace
for b in $T $I; do
	echo $pid > $b/set_event_pid
	echo 1 > $b/options/event-fork
done
for e in mm_page_alloc mm_page_free mm_page_free_batched; do
	echo 1 > $T/events/kmem/$e/enable
done
for e in kmalloc kfree kmem_cache_alloc kmem_cache_free; do
	echo 1 > $I/events/kmem/$e/enable
done
echo 1 > $T/tracing_on
echo 1 > $I/tracing_on
echo go > "$tmp/gate"
wait $pid
echo 0 > $I/tracing_on
echo 0 > $T/tracing_on
trace-cmd extract -t -B kmemslab -o "$out" > "$tmp/extract.log" 2>&1 ||
	{ cat "$tmp/extract.log" >&2; exit 2; }
if grep -i "lost" "$tmp/extract.log"; then
	echo "record-instance.sh: events were lost" >&2
	exit 2
fi
ls -l "$out"
