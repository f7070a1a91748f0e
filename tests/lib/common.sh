# Sourced by tests/e2e/*.sh.  Result lines: PASS/FAIL/SKIP name.
# shellcheck shell=bash
: "${TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${PLUGIN_DIR:=$TOP/build/plugins}"
export TOP PLUGIN_DIR
# tests/lib/jsondocs.py and the other python helpers
export PYTHONPATH="$TOP/tests/lib${PYTHONPATH:+:$PYTHONPATH}"
failures=0

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failures=$((failures + 1)); }
skip() { echo "SKIP $1: $2"; }
# check NAME COMMAND...: PASS if the command succeeds
check() {
	local name=$1; shift
	if "$@"; then pass "$name"; else fail "$name" "$*"; fi
}
finish() { [ "$failures" -eq 0 ]; exit $?; }

WORK=$(mktemp -d /tmp/kmem-test.XXXXXX)
# (the references' cache takes it out of its keys: tests/ref/refcache.py)
export TRACE_KMEM_TEST_WORK=$WORK
trap 'rm -rf "$WORK"' EXIT
# A HOME of our own, so no ~/.local plugin of the user's interferes.
export HOME=$WORK/home
mkdir -p "$HOME"

# The sample traces, smallest first.
# KMEM_SAMPLES (a list of files) overrides, for trying other traces.
samples() {
	if [ -n "${KMEM_SAMPLES:-}" ]; then
		ls -S -r $KMEM_SAMPLES
	else
		ls -S -r "$TOP"/sample-data/*.dat 2>/dev/null
	fi
}
# has_instances FILE: does the trace hold a buffer instance?
has_instances() {
	trace-cmd dump --options -i "$1" 2>/dev/null | grep -q '^"[^"]\+" \[name\]'
}
# san_samples N: samples(), or under the sanitizers every Nth of them
# by size from the smallest, for a test that runs the same code on each
# sample again to compare two ways of reading it: the sanitizers look
# for memory errors in that code, make check compares every sample.
san_samples() {
	if [ -n "$SANITIZED" ]; then
		samples | awk -v n="$1" 'NR % n == 1 || n == 1'
	else
		samples
	fi
}
# ks_samples: samples(), or under the sanitizers those the KernelShark
# tests' checks name (one of each allocator, ping-pong, vmalloc): the
# plugin's code is the same on the others, which make check compares
ks_samples() {
	if [ -n "$SANITIZED" ]; then
		samples | grep -E '/(slab-fork-exec|slab-pingpong|page-stacktrace|percpu-netns|percpu-slab-netns|vmalloc-fork)\.dat$'
	else
		samples
	fi
}
smallest_sample() {
	samples | head -n 1
}

# in_parallel FUNC FILE...: FUNC INDEX FILE for each file, 2 to 4 at a
# time (as many as there are CPUs); returns when all are done.
in_parallel() {
	local fn=$1 max i pids=()
	shift
	max=$(nproc 2>/dev/null || echo 2)
	[ "$max" -gt 4 ] && max=4
	[ "$max" -lt 2 ] && max=2
	for ((i = 1; i <= $#; i++)); do
		while [ "$(jobs -rp | wc -l)" -ge "$max" ]; do
			wait -n
		done
		"$fn" "$((i - 1))" "${!i}" &
		pids+=($!)
	done
	wait "${pids[@]}"
}

# gather NAME...: after in_parallel, the log $WORK/I.log of each job I
# printed and its FAIL lines counted; a log with no result is a failure
# of the job's NAME.
gather() {
	local i=0 name n
	for name; do
		cat "$WORK/$i.log"
		n=$(grep -c '^FAIL ' "$WORK/$i.log")
		failures=$((failures + n))
		grep -qE '^(PASS|FAIL|SKIP) ' "$WORK/$i.log" ||
			fail "$name" "no result (see above)"
		i=$((i + 1))
	done
}

# report [trace-cmd report args...]: with only our build's plugin dir added
report() {
	TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report "$@"
}

# trace-kmem built with SANITIZE=1: libtraceevent's own small leaks are
# not ours (tests/lsan.supp).
export LSAN_OPTIONS="suppressions=$TOP/tests/lsan.supp:print_suppressions=0"

# A plugin built with SANITIZE=1 needs the sanitizer runtimes loaded
# first in trace-cmd.  trace-cmd and libtraceevent leak a little at exit
# on their own, so LeakSanitizer is off there; tests/e2e/leaks.sh checks
# the plugin's own allocations with valgrind in the normal build.
# SAN_HOST: AddressSanitizer's options in a program not ours that runs
# our sanitized code (trace-cmd with the plugin, the KernelShark tools):
# its freed memory is held 16 MB deep, not 256: trace-cmd's and
# libkshark's own allocations (one a record) filled the default's
# quarantine, 4.9 s of CPU for a sample's report instead of 2.1, 520 MB
# instead of 116; a use after free of ours is still caught while the
# memory is among the last 16 MB freed.
SANITIZED=
SAN_HOST=detect_leaks=0:quarantine_size_mb=16
# LIVE_LIMIT: seconds a trace-kmem live run that should end by itself is
# given.  Sanitized, live's start takes long: libtracefs reads
# /proc/kallsyms (5 MB here) into a buffer it grows 8 KB at a time, and
# ASan's realloc copies the whole buffer each time (glibc's moves the
# pages): 18-28 s for live -d 2.4 against 2.6 s unsanitized, and past
# 60 s on a machine busy with the other tests.
LIVE_LIMIT=60
if nm -D "$PLUGIN_DIR/plugin_kmem.so" 2>/dev/null | grep -q __asan_init; then
	SANITIZED=1
	LIVE_LIMIT=300
	SAN_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
	trace-cmd() {
		ASAN_OPTIONS=$SAN_HOST:abort_on_error=1 \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		LD_PRELOAD="$SAN_PRELOAD" command trace-cmd "$@"
	}
fi

# tracefs_lock: from here to the end of the script, no other test uses
# tracefs (the kernel has one top-level buffer and one set of instances
# for every test, this checkout's, another's, or a chroot's).  flock on
# the tracefs root holds across its mounts.  Tests that record call it
# before they start.
tracefs_lock() {
	local t=/sys/kernel/tracing
	[ -d "$t/instances" ] || return 0
	exec {TRACEFS_LOCK_FD}<"$t"
	flock "$TRACEFS_LOCK_FD"
}
