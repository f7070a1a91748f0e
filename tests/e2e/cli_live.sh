#!/bin/bash
# trace-kmem live on this machine: known workloads found in the tables,
# signals and errors leave no tracefs instance behind, lost events are
# reported.  Skipped (SKIP lines) unless root with a usable tracefs and
# the kmem events.
#
#  - pages: a child maps N pages of shared anonymous memory (shmem) and
#    writes to each; with -T the call site shmem_alloc_folio must have
#    exactly N more allocations than with N = 0 (shmem THP off);
#  - slab: a child creates 500 pipes; alloc_pipe_info's hits must be 500
#    more than for a child creating none (the interpreter's own differ
#    by nothing between the two runs);
#  - SIGINT dumps the tables and exits 0, SIGTERM exits 143, a command
#    that cannot run exits 2, kill -9 leaves an instance that the next
#    run removes; every time the instance directory is checked;
#  - -d, --interval, --buffer-size (a 4 KB buffer loses events, and the
#    report says so), not root (exit 2, one line);
#  - live's tep handle (cli/live_formats.c) reads this machine as
#    libtracefs' tracefs_local_events_system() does (build/tools/live_tep:
#    events, sizes, CPUs, the symbols of every 31st kallsyms line).
set -u
. "$(dirname "$0")/../lib/common.sh"
tracefs_lock

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail cli-live "no $TK (run make)"; finish; }
T=/sys/kernel/tracing
skip_all() { skip cli-live "$1"; finish; }
[ "$(id -u)" -eq 0 ] || skip_all "not root"
if [ ! -w "$T/tracing_on" ]; then
	mount -t tracefs nodev "$T" 2>/dev/null || true
	[ -w "$T/tracing_on" ] || skip_all "tracefs not usable at $T"
fi
[ -d "$T/events/kmem/mm_page_alloc" ] && [ -d "$T/events/kmem/kmalloc" ] ||
	skip_all "no kmem events in $T/events"
[ -d "$T/instances" ] || skip_all "no tracefs instances"
command -v python3 >/dev/null || skip_all "python3 not installed"

LIVE_TEP=$(dirname "$PLUGIN_DIR")/tools/live_tep
if [ -x "$LIVE_TEP" ]; then
	if "$LIVE_TEP" >"$WORK/live_tep.out" 2>&1; then
		pass live-tep-as-libtracefs
	else
		fail live-tep-as-libtracefs "$(head -5 "$WORK/live_tep.out" | tr '\n' ' ')"
	fi
else
	fail live-tep-as-libtracefs "no $LIVE_TEP (run make tests)"
fi

instances() { ls "$T/instances" | grep -c '^trace-kmem-' || true; }
before=$(instances)
no_instance_left() { check "$1:no-instance-left" test "$(instances)" -eq "$before"; }

# value JSON PYTHON_EXPR: evaluates EXPR with d = the document
value() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
def site(sec, name):
    return sum(c["hits"] for c in d[sec]["callsites"] if c["callsite"].split("+")[0] == name)
print(eval(sys.argv[2]))' "$1" "$2"
}

cat >"$WORK/shm.py" <<'PY'
import mmap, sys
n = int(sys.argv[1])
if n:
    m = mmap.mmap(-1, n * mmap.PAGESIZE)
    for i in range(n):
        m[i * mmap.PAGESIZE] = 1
    m.close()
PY
cat >"$WORK/pipes.py" <<'PY'
import os, sys
p = [os.pipe() for _ in range(int(sys.argv[1]))]
PY

# ---- pages, with stacks: exactly N more at shmem_alloc_folio
N=3000
for n in 0 $N; do
	"$TK" live --page -T --json="$WORK/shm$n.json" -o /dev/null \
		--pprof="$WORK/shm$n.pb.gz" --rows="$WORK/shm$n.rows" -- python3 "$WORK/shm.py" $n \
		2>"$WORK/shm$n.err"
	check "live-page-$n-exit-0" test $? -eq 0
done
# live writes the profile and the rows as stat does: the JSON's
if command -v go >/dev/null; then
	HOME=$WORK go tool pprof -raw "$WORK/shm$N.pb.gz" >"$WORK/shm.raw" 2>/dev/null
	check live-pprof-is-the-json python3 "$TOP/tests/lib/pprof_vs_json.py" raw "$WORK/shm.raw" "$WORK/shm$N.json"
	check live-pprof-page-stacks grep -q 'page: samples by kernel stack' "$WORK/shm.raw"
else
	echo "SKIP live-pprof: no go (Debian's golang-go: make check-deps)"
fi
check live-rows-are-the-json python3 - "$WORK/shm$N.rows" "$WORK/shm$N.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[2]))
want = sum(len((d.get(a) or {}).get(t) or []) for a in ("slab", "page", "percpu", "vmalloc")
           for t in ("callsites", "caches", "order_migratetype"))
rows = [json.loads(l) for l in open(sys.argv[1])]
assert want and len(rows) == want, (len(rows), want)
assert all(r["schema"] == "kmem-rows/1" and r["file"] == d["file"] for r in rows)
PY
check live-rows-this-machine test "$(python3 -c 'import json, sys
r = json.loads(open(sys.argv[1]).readline()); print(r["host"], r["kernel_release"])' "$WORK/shm$N.rows")" \
	= "$(uname -n) $(uname -r)"
a0=$(value "$WORK/shm0.json" 'site("page", "shmem_alloc_folio")')
a1=$(value "$WORK/shm$N.json" 'site("page", "shmem_alloc_folio")')
if grep -q '\[never\]' /sys/kernel/mm/transparent_hugepage/shmem_enabled 2>/dev/null ||
	[ ! -e /sys/kernel/mm/transparent_hugepage/shmem_enabled ]; then
	# exact but for one or two: a free sorted between an allocation and
	# its stack record no longer costs it its call site (lib/page.c),
	# but under load a rarer case still does (seen once in 5 CI runs:
	# 2999 of 3000), not understood yet
	check live-page-exact-count test $((a1 - a0)) -ge $((N - 2)) -a $((a1 - a0)) -le $N
else
	check live-page-count test $((a1 - a0)) -ge 1
fi
check live-page-stacks test "$(value "$WORK/shm$N.json" 'd["page"]["summary"]["stacks"]')" -gt 0
check live-page-label test "$(value "$WORK/shm$N.json" 'd["file"]')" = "live: python3"
no_instance_left live-page

# ---- slab: exactly 500 more at alloc_pipe_info
for n in 0 500; do
	"$TK" live --slab --json="$WORK/pipe$n.json" -o /dev/null -- python3 "$WORK/pipes.py" $n \
		2>"$WORK/pipe$n.err"
	check "live-slab-$n-exit-0" test $? -eq 0
done
p0=$(value "$WORK/pipe0.json" 'site("slab", "alloc_pipe_info")')
p1=$(value "$WORK/pipe500.json" 'site("slab", "alloc_pipe_info")')
check live-slab-exact-count test $((p1 - p0)) -eq 1000	# two kmallocs per pipe
no_instance_left live-slab

# ---- SIGINT: tables, exit 0, no instance; SIGTERM: exit 143; the other
# signals that end a process by default (QUIT, USR1, ALRM): 128 + N, the
# instance removed as well (it was left, tracing, with its buffers)
for sig in INT TERM QUIT USR1 ALRM; do
	"$TK" live -l 3 >"$WORK/sig.out" 2>"$WORK/sig.err" &
	pid=$!
	for _ in $(seq 600); do
		[ -d "$T/instances/trace-kmem-$pid" ] && break
		sleep 0.1
	done
	sleep 0.5
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	want=0
	[ "$sig" != INT ] && want=$((128 + $(kill -l "$sig")))
	check "live-sig$sig-exit" test "$rc" -eq "$want"
	check "live-sig$sig-tables" grep -q '^ kmem statistics: live: all tasks' "$WORK/sig.out"
	check "live-sig$sig-removed" test ! -d "$T/instances/trace-kmem-$pid"
done
no_instance_left live-signals

# ---- a command that cannot run
"$TK" live -- /nonexistent/command >"$WORK/nx.out" 2>"$WORK/nx.err"
check live-bad-command-exit-2 test $? -eq 2
check live-bad-command-one-line test "$(cat "$WORK/nx.err")" = \
	"trace-kmem: cannot run '/nonexistent/command': No such file or directory"
check live-bad-command-no-tables test ! -s "$WORK/nx.out"
no_instance_left live-bad-command

# ---- -T without the page allocator: a usage error, before anything
"$TK" live -T --slab -- touch "$WORK/ran" >"$WORK/held.out" 2>"$WORK/held.err"
check live-T-no-page-exit-1 test $? -eq 1
check live-T-no-page-one-line test "$(cat "$WORK/held.err")" = \
	"trace-kmem: -T follows page allocations, and the page allocator is not selected; add --page"
check live-T-no-page-not-run test ! -e "$WORK/ran"

# ---- setup failing after COMMAND was started (held): set_event_pid
# refused (a shim): one line, the command never run, and no instance
# left (the held command had the ring-buffer files open: removing the
# instance failed with EBUSY)
cat >"$WORK/nopid.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
struct tracefs_instance;
int tracefs_instance_file_write(struct tracefs_instance *i, const char *file,
				const char *str)
{
	static int (*real)(struct tracefs_instance *, const char *,
			   const char *);

	if (file && !strcmp(file, "set_event_pid")) {
		errno = EPERM;
		return -1;
	}
	if (!real)
		real = (int (*)(struct tracefs_instance *, const char *,
				const char *))dlsym(RTLD_NEXT,
						    "tracefs_instance_file_write");
	return real(i, file, str);
}
C
if cc -shared -fPIC -o "$WORK/nopid.so" "$WORK/nopid.c" -ldl 2>"$WORK/nopid.err"; then
	pre=$WORK/nopid.so
	nm -D "$TK" 2>/dev/null | grep -q __asan_init && pre="$SAN_PRELOAD $pre"
	LD_PRELOAD="$pre" "$TK" live -- touch "$WORK/ran" >"$WORK/held.out" 2>"$WORK/held.err"
	check live-held-setup-fails-exit-2 test $? -eq 2
	check live-held-setup-fails-one-line sh -c "test \$(wc -l <'$WORK/held.err') -eq 1 &&
		grep -q '^trace-kmem: cannot follow the command' '$WORK/held.err'"
	check live-held-command-not-run test ! -e "$WORK/ran"
	no_instance_left live-held-setup-fails
else
	fail live-held-setup-fails "cannot build the shim: $(head -2 "$WORK/nopid.err")"
fi

# (the waits below allow 60 s for the instance to appear: a sanitized
# build takes seconds to parse the event formats and kallsyms)

# ---- kill -9 leaves an instance; the next run removes it
"$TK" live -o /dev/null >/dev/null 2>&1 &
pid=$!
for _ in $(seq 600); do
	[ -d "$T/instances/trace-kmem-$pid" ] && break
	sleep 0.1
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
check live-kill9-leaves-instance test -d "$T/instances/trace-kmem-$pid"
"$TK" live -d 0.3 -o /dev/null
check live-stale-instance-removed test ! -d "$T/instances/trace-kmem-$pid"

# a command that outlives trace-kmem: it inherits no descriptor of ours
# (trace_pipe_raw), so the instance is removed while it still runs
"$TK" live -d 1 -o /dev/null -- sh -c 'ls -l /proc/$$/fd >"$1"; exec sleep 4' sh "$WORK/fds.txt" \
	>/dev/null 2>"$WORK/outlive.err" &
pid=$!
wait "$pid"
check live-outliving-command-exit-0 test $? -eq 0
check live-outliving-command-removed test ! -d "$T/instances/trace-kmem-$pid"
check live-outliving-command-no-message test ! -s "$WORK/outlive.err"
check live-command-inherits-nothing bash -c "! grep -q -e trace_pipe_raw -e tracing '$WORK/fds.txt'"
no_instance_left live-kill9

# ---- -d and --interval: snapshots, then the final tables
# A round of reading can take long on a loaded machine under ASan: the
# duration is six intervals, and two snapshots are asked for; the start
# takes long there too (LIVE_LIMIT, tests/lib/common.sh).
t0=$EPOCHREALTIME
timeout "$LIVE_LIMIT" "$TK" live -d 2.4 --interval 0.4 -l 2 >"$WORK/iv.out" 2>"$WORK/iv.err"
rc=$?
check live-duration-exit-0 test $rc -eq 0
# (what it said and how far it came, should it not end in time)
if [ "$rc" -ne 0 ]; then
	took=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	echo "    live -d 2.4: exit $rc after $took s, load $(cut -d' ' -f1-3 /proc/loadavg)"
	sed 's/^/    stderr: /' "$WORK/iv.err"
	grep -n 'kmem statistics' "$WORK/iv.out" | sed 's/^/    /'
fi
check live-interval-snapshots test "$(grep -c '^ kmem statistics: live' "$WORK/iv.out")" -ge 3
# numbered, with the time since tracing began, a blank line before each
check live-interval-titles python3 - "$WORK/iv.out" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
snaps = [(i, l) for i, l in enumerate(lines) if "snapshot" in l]
assert len(snaps) >= 2, snaps
last = 0.0
for n, (i, l) in enumerate(snaps, 1):
    m = re.fullmatch(r" kmem statistics: live: all tasks, snapshot (\d+) at (\d+\.\d) s", l)
    assert m and int(m.group(1)) == n, l
    t = float(m.group(2))
    assert last < t <= 2.5, (last, t)
    last = t
    assert i == 0 or lines[i - 1] == "", lines[i - 1]
finals = [l for l in lines if l.startswith(" kmem statistics:") and "snapshot" not in l]
assert finals == [" kmem statistics: live: all tasks"], finals
PY

# ---- a 4 KB buffer under a busy workload loses events: reported
"$TK" live --slab --buffer-size 4 --json="$WORK/lost.json" -o /dev/null -- \
	sh -c 'find /usr/share -xdev >/dev/null 2>&1'
lost=$(value "$WORK/lost.json" 'd["events_lost"] + d["lost_unknown"]')
check live-lost-events-reported test "$lost" -gt 0
check live-lost-not-complete test "$(value "$WORK/lost.json" 'd["slab"]["complete"]')" = False
no_instance_left live-lost

# ---- not root: exit 2, one line
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$TK" live -d 1 >"$WORK/nr.out" 2>"$WORK/nr.err"
	check live-not-root-exit-2 test $? -eq 2
	check live-not-root-one-line test "$(wc -l <"$WORK/nr.err")" -eq 1
	check live-not-root-message grep -q 'needs root' "$WORK/nr.err"
else
	skip live-not-root "setpriv not installed"
fi
finish
