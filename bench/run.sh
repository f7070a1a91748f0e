#!/bin/bash
# bench/run.sh - `make bench`: how fast is `trace-kmem stat` (the native
# reader, reader/), against `perf kmem --slab --page stat`, `trace-kmem
# stat --reader=libtracecmd`, `trace-cmd mem` and a bare libtracecmd loop
# (bench/bare_loop.c, the floor for anything built on libtracecmd); how
# much memory it needs; what the plugin adds to `trace-cmd report`
# (callgrind instruction counts); where trace-kmem stat's time goes
# (perf record per thread, callgrind per record), and the instructions
# per record of --reader=libtracecmd over the bare loop's; how much longer
# KernelShark takes to load the 1m trace with the kmem KernelShark plugin
# (through libkshark: tests/kshark/kshark_kmem.c --load).
#
# Two recordings of one workload (BENCH_SIZES): "1m", about 1 million
# events (BENCH_ITER_SMALL iterations), and "10m", about 10 million
# (BENCH_ITER_BIG).  Then the workloads users meet (BENCH_WORKLOADS,
# issue 24), each at about 200k and 1M events, and a tiny trace for the
# fixed cost: "tar" (tar of /usr/share/doc through gzip, ls -R of
# /usr/lib), "fork" (sh -c true, again and again), "sock" (small files
# made and removed in a tmpfs, 200-byte messages over a socketpair),
# "page" (anonymous memory touched and unmapped, 1 MB at a time), and
# "tiny" (the first workload, a few thousand events).  Each is timed as
# `trace-cmd extract` writes it
# (trace.dat version 7, zstd-compressed) and as its uncompressed version 6
# copy (`trace-cmd convert --file-version 6`); perf kmem stat reads the
# perf.data recorded at the same time.  An empty command (/bin/true) is
# timed in the same rounds: the harness's own cost, which the tiny
# trace's fixed cost includes (about 2 ms on an idle host of this kind,
# 11 ms when its page faults and forks are slow).
#
# Recording: `trace-cmd record` fails on this kind of machine (EPERM on
# set_ftrace_pid), so, as sample-data/record.sh and tests/lib/side_by_side.sh
# do, the events are enabled through tracefs files and the buffer is saved
# with `trace-cmd extract`.  The workload (two python3 processes: file
# opens and reads, 200-byte messages over a socketpair, anonymous memory
# touched and unmapped) is held on a fifo; `perf record -p` attaches to it
# with its events off (-D -1) and is enabled through its --control fifo;
# then tracefs is set up for the same pid (set_event_pid +
# options/event-fork) and enabled; then the workload is let go.  Its
# processes say "ready" and block before exiting, both recorders are
# stopped, and only then do they exit (perf stops following a task early in
# do_exit, tracefs does not: see tests/e2e/perf_compare.sh), so both files
# hold the same events: kmem:kmalloc, kfree, kmem_cache_alloc,
# kmem_cache_free, mm_page_alloc, mm_page_free.  Lost events (ring buffer
# overruns, perf LOST records) make the run fail.
#
# Timing: for each recording, every contender runs BENCH_RUNS times,
# interleaved (the order rotates each round, so perf kmem stat and
# trace-kmem share the same stretch of machine time), after one untimed
# warm-up round; wall and CPU medians are reported, peak RSS is the
# largest over the timed runs.  The ratio against perf kmem stat is of
# events per second, both measured in the same rounds.  How busy the
# machine was meanwhile is printed: the load average, and the CPU time
# used by anything other than the timed commands (/proc/stat).
#
# Environment:
#   B                  build directory (default build)
#   BENCH_SIZES        recordings to make and time, in order (default
#                      "1m 10m")
#   BENCH_ITER_SMALL   workload iterations per process for "1m" (default
#                      27000: about 1.05 million events)
#   BENCH_ITER_BIG     the same for "10m" (default 270000: about 10.1
#                      million events; BENCH_ITER is the old name)
#   BENCH_WORKLOADS    the workloads' recordings after BENCH_SIZES (default
#                      "tiny tar-200k tar-1m fork-200k fork-1m sock-200k
#                      sock-1m page-200k page-1m"; "" for none): each is
#                      timed as the sizes are, and the worst ratio against
#                      perf kmem stat over all recordings is the headline
#   BENCH_BUFFER_KB    tracefs buffer per CPU in KB (default 600000)
#   BENCH_PERF_PAGES   perf record's buffer per CPU in pages (-m; default
#                      32768, 128 MB; perf lost events on 1m with 8192)
#   BENCH_RUNS         timed runs per contender (default 5)
#   BENCH_TINY_RUNS    the same on the tiny trace (default 21: a run is
#                      about 10 ms, and the machine's two speeds make a
#                      median of 5 land on either)
#   BENCH_PROFILE=0    no profiling: no valgrind (neither the plugin's
#                      instruction count, whose target is then SKIPPED, nor
#                      the per-record profile) and no perf record
#   BENCH_PROFILE_EVENTS  records in the callgrind-profiled trace (default
#                      1000000)
#   BENCH_SYSWIDE=1    also record every process (sample-data/record.sh -a,
#                      slab and page events) while BENCH_SYSWIDE_FILES
#                      files (default 120000) are made in a private tmpfs,
#                      half removed and the tmpfs unmounted: ~2.2 million
#                      events, ~500,000 distinct objects; report the peak
#                      RSS of trace-kmem stat and of the plugin in
#                      trace-cmd report on it (issue 9: under 64 MB)
#   BENCH_QUIET_CPU    before each recording is timed, wait until the
#                      rest of the machine uses at most this many CPUs over
#                      one second (default 0.15; /proc/stat) ...
#   BENCH_QUIET_WAIT   ... for at most this many seconds (default 120),
#                      then time anyway and say so
#   BENCH_KEEP         keep the work directory (it is printed)
#
# Needs root, tracefs, trace-cmd, perf, python3, cc, pkg-config; valgrind
# for the instruction counts; with the defaults ~1.2 GB of RAM for the ring
# buffers (and 128 MB a CPU for perf's) and ~1.9 GB in ${TMPDIR:-/tmp}.  tracefs state is saved and
# restored on every exit path.  Takes about 9 minutes on 2 idle cores
# (more on a busy machine; 4 with BENCH_SIZES=1m BENCH_PROFILE=0).
# Results and their analysis: bench/RESULTS.md.
set -eu

prog=bench
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$TOP/$B ;; esac
RUNS=${BENCH_RUNS:-5}
TINY_RUNS=${BENCH_TINY_RUNS:-21}
SIZES=${BENCH_SIZES-1m 10m}
WORKLOADS=${BENCH_WORKLOADS-tiny tar-200k tar-1m fork-200k fork-1m sock-200k sock-1m page-200k page-1m}
ITER_SMALL=${BENCH_ITER_SMALL:-27000}
ITER_BIG=${BENCH_ITER_BIG:-${BENCH_ITER:-270000}}
BUFKB=${BENCH_BUFFER_KB:-600000}
PERF_PAGES=${BENCH_PERF_PAGES:-32768}
PROFILE=${BENCH_PROFILE:-1}
PROFILE_EVENTS=${BENCH_PROFILE_EVENTS:-1000000}
SYSWIDE=${BENCH_SYSWIDE:-0}
QUIET_CPU=${BENCH_QUIET_CPU:-0.15}
QUIET_WAIT=${BENCH_QUIET_WAIT:-120}
SYS_FILES=${BENCH_SYSWIDE_FILES:-120000}
SMALL=$TOP/sample-data/slab-fork-exec.dat
T=/sys/kernel/tracing
EVENTS="kmalloc kfree kmem_cache_alloc kmem_cache_free mm_page_alloc mm_page_free"
# targets (issue 8)
PERF_X_V7=3
PERF_X_V6=5
# targets (issue 24): on every recording, and the fixed cost
WL_X_V7=4
WL_X_V6=6
STARTUP_MS=15
# instructions per record on v7 (run 13, bench/RESULTS.md): at most half
IR_V7_BEFORE=1282
# --reader=libtracecmd must not regress: its instructions per record (v6)
# over the bare loop's: 2,039 against 1,111 with 0d9761e (issue 24's
# start) on the 1M split of a bench recording of 2026-12-06 (RESULTS.md,
# run 56)
LIBTRACECMD_IR_X_BEFORE=1.84
RSS_LIMIT_MB=64
BIG_EVENTS=9500000	# the RSS target is about a ~10M-event trace
# the plugin's cost in trace-cmd report -O kmem:stat, as recorded in
# bench/RESULTS.md before the native reader (which the plugin does not use)
PLUGIN_PCT_BEFORE=0.79
PLUGIN_PCT_SLACK=0.10
# trace-kmem stat's own choice of reading compressed files (see
# cli/uncompress.c), not the caller's
unset TRACE_KMEM_CONVERT

die() {
	echo "$prog: $*" >&2
	exit 1
}

for v in RUNS TINY_RUNS ITER_SMALL ITER_BIG BUFKB PROFILE_EVENTS SYS_FILES; do
	case ${!v} in '' | *[!0-9]*) die "BENCH_$v must be a number" ;; esac
done
[ "$RUNS" -ge 1 ] || die "BENCH_RUNS must be at least 1"
[ "$TINY_RUNS" -ge 1 ] || die "BENCH_TINY_RUNS must be at least 1"
# runs_of S: the timed runs of each contender on recording S
runs_of() { if [ "$1" = tiny ]; then echo "$TINY_RUNS"; else echo "$RUNS"; fi; }
# iterations per process of each recording, and its workload; those of
# the workloads were counted so that each gives about its size in events
declare -A iter_of=([1m]=$ITER_SMALL [10m]=$ITER_BIG [tiny]=150
	[tar-200k]=22 [tar-1m]=68 [fork-200k]=307 [fork-1m]=1534
	[sock-200k]=2364 [sock-1m]=11600 [page-200k]=191 [page-1m]=956)
declare -A kind_of=([1m]=mixed [10m]=mixed [tiny]=mixed)
sizes=()
for s in $SIZES $WORKLOADS; do
	[ -n "${iter_of[$s]:-}" ] ||
		die "BENCH_SIZES / BENCH_WORKLOADS: '$s' is not one of ${!iter_of[*]}"
	[ -n "${kind_of[$s]:-}" ] || kind_of[$s]=${s%-*}
	for o in "${sizes[@]}"; do [ "$o" != "$s" ] || die "BENCH_SIZES / BENCH_WORKLOADS: $s twice"; done
	sizes+=("$s")
done
[ ${#sizes[@]} -ge 1 ] || die "BENCH_SIZES and BENCH_WORKLOADS are empty"

# --- refuse early: root, tools, tracefs, nobody else on the top buffer
[ "$(id -u)" -eq 0 ] ||
	die "must run as root (it records with tracefs and perf); try: sudo make bench"
for c in trace-cmd perf python3 cc pkg-config make; do
	command -v "$c" >/dev/null || die "$c not found"
done
PY=$(command -v python3)
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
if [ ! -w "$T/tracing_on" ]; then
	mount -t tracefs nodev "$T" 2>/dev/null || true
	[ -w "$T/tracing_on" ] || die "tracefs not usable at $T"
fi
for e in $EVENTS; do
	[ -w "$T/events/kmem/$e/enable" ] || die "no tracefs event kmem/$e"
done
busy=
[ -z "$(cat "$T/set_event")" ] || busy="events enabled: $(tr '\n' ' ' <"$T/set_event")"
[ -z "$(cat "$T/set_event_pid")" ] || busy="$busy set_event_pid set;"
[ "$(cat "$T/current_tracer")" = nop ] || busy="$busy current_tracer is $(cat "$T/current_tracer");"
[ -z "$busy" ] || die "the top-level tracefs buffer is in use ($busy); not touching it"
perf record -h 2>&1 | grep -q -- '--control' ||
	die "this perf record has no --control (perf 5.10 or later needed)"
HAVE_VALGRIND=1
command -v valgrind >/dev/null || HAVE_VALGRIND=0
HAVE_TIME=1
[ -x /usr/bin/time ] || HAVE_TIME=0
HZ=$(getconf CLK_TCK 2>/dev/null || echo 100)

# --- build
echo "$prog: building in $B"
make -s -C "$TOP" B="$B" all >/dev/null
mkdir -p "$B/bench"
# shellcheck disable=SC2046
cc -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes $(pkg-config --cflags libtracecmd libtraceevent) \
	-o "$B/bench/bare_loop" "$TOP/bench/bare_loop.c" \
	$(pkg-config --libs libtracecmd libtraceevent)
TK=$B/trace-kmem
BARE=$B/bench/bare_loop
[ -x "$TK" ] || die "$TK was not built"
echo "$prog: trace-kmem at $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo '?')" \
	"($(git -C "$TOP" diff --shortstat HEAD 2>/dev/null | sed 's/^ *//' || true));" \
	"$(nproc) CPUs; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kmem-bench.XXXXXX")
export HOME=$WORK/home	# no ~/.local plugin of the user's
mkdir -p "$HOME"
T_START=$EPOCHREALTIME

# --- tracefs state, restored on every exit path
old_on=$(cat "$T/tracing_on")
old_fork=$(cat "$T/options/event-fork")
old_buf=$(cat "$T/buffer_size_kb")
declare -A old_cpu_buf=()
case $old_buf in
*expanded:*) old_buf=${old_buf##*expanded: }; old_buf=${old_buf%%)*} ;;
*[!0-9]*)
	old_buf=
	for f in "$T"/per_cpu/cpu*/buffer_size_kb; do old_cpu_buf[$f]=$(cat "$f"); done
	;;
esac
declare -A old_en=()
for e in $EVENTS; do old_en[$e]=$(cat "$T/events/kmem/$e/enable"); done
wpid='' ppid=''

cleanup() {
	local rc=$? e f
	set +e
	echo 0 >"$T/tracing_on"
	for e in "${!old_en[@]}"; do
		case ${old_en[$e]} in 1) echo 1 ;; *) echo 0 ;; esac >"$T/events/kmem/$e/enable"
	done
	: >"$T/set_event_pid"
	echo "$old_fork" >"$T/options/event-fork"
	: >"$T/trace"
	if [ -n "$old_buf" ]; then
		echo "$old_buf" >"$T/buffer_size_kb"
	else
		for f in "${!old_cpu_buf[@]}"; do echo "${old_cpu_buf[$f]}" >"$f"; done
	fi
	echo "$old_on" >"$T/tracing_on"
	# only what we started: the workload's process group, perf
	[ -z "$wpid" ] || kill -KILL -- -"$wpid" 2>/dev/null
	[ -z "$ppid" ] || kill -INT "$ppid" 2>/dev/null
	[ -z "$ppid" ] || wait "$ppid" 2>/dev/null
	if [ -n "${BENCH_KEEP:-}" ]; then
		echo "$prog: work files kept in $WORK"
	else
		rm -rf "$WORK"
	fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the workloads: one process says "ready" once started (the
# interpreter's own start is not recorded) and blocks in open(go) until
# both recorders are enabled; then it forks (perf follows a child forked
# while it is enabled, not one forked before), and the two processes run
# ITER iterations each of their kind's step, say "ready" and block in
# open(end) until both recorders are stopped.  mixed: open, read and close a file; a 200-byte message over
# a socketpair (an skb allocated by one, freed by the other); every 16th
# iteration, 256 KB of anonymous memory touched and unmapped.  tar: tar
# of a directory of /usr/share/doc through gzip -1, and ls -R of a
# directory of /usr/lib.  fork: sh -c true.  sock: a 1 KB file made in a
# tmpfs directory of its own (all removed every 64), and 7 messages.
# page: 1 MB of anonymous memory touched and unmapped.
find /usr/share/doc /usr/share/common-licenses /etc -maxdepth 3 -type f \
	-readable -size -64k 2>/dev/null | head -n 2000 >"$WORK/files"
[ "$(wc -l <"$WORK/files")" -ge 100 ] || die "too few files for the workload"
find /usr/share/doc -mindepth 1 -maxdepth 1 -type d 2>/dev/null | head -n 400 >"$WORK/docdirs"
find /usr/lib -mindepth 1 -maxdepth 1 -type d 2>/dev/null | head -n 400 >"$WORK/libdirs"
[ -s "$WORK/docdirs" ] && [ -s "$WORK/libdirs" ] || die "no directories under /usr/share/doc, /usr/lib"
cat >"$WORK/workload.py" <<'EOF'
import mmap, os, shutil, socket, subprocess, sys, tempfile
kind, n, ready, end = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
go = sys.argv[5]
files = [l.rstrip("\n") for l in open(sys.argv[6])]
docdirs = [l.rstrip("\n") for l in open(sys.argv[7])]
libdirs = [l.rstrip("\n") for l in open(sys.argv[8])]
a, b = socket.socketpair()
msg = b"x" * 200
null = subprocess.DEVNULL
def ping(s, role):
    if role == 0:
        s.send(msg)
        s.recv(4096)
    else:
        s.recv(4096)
        s.send(msg)
def touch(size):
    m = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    for j in range(0, size, mmap.PAGESIZE):
        m[j] = 1
    m.close()
def mixed(s, role, i):
    try:
        fd = os.open(files[(2 * i + role) % len(files)], os.O_RDONLY)
        os.read(fd, 4096)
        os.close(fd)
    except OSError:
        pass
    ping(s, role)
    if i % 16 == role * 8:
        touch(256 << 10)
def tar(s, role, i):
    d = docdirs[(2 * i + role) % len(docdirs)]
    subprocess.call("tar cf - -C / %s 2>/dev/null | gzip -1 >/dev/null" % d[1:],
                    shell=True, stdout=null, stderr=null)
    subprocess.call(["ls", "-R", libdirs[(2 * i + role) % len(libdirs)]],
                    stdout=null, stderr=null)
def fork(s, role, i):
    subprocess.call(["/bin/sh", "-c", "true"])
tmp = None
def sock(s, role, i):
    global tmp
    if tmp is None or i % 64 == 0:
        if tmp:
            shutil.rmtree(tmp)
        tmp = tempfile.mkdtemp(dir="/dev/shm")
    with open("%s/f%d" % (tmp, i), "wb") as f:
        f.write(b"y" * 1024)
    for _ in range(7):
        ping(s, role)
def page(s, role, i):
    touch(1 << 20)
step = {"mixed": mixed, "tar": tar, "fork": fork, "sock": sock, "page": page}[kind]
def say(fifo):
    with open(fifo, "w") as f:
        f.write("r\n")
def work(s, role):
    for i in range(n):
        step(s, role, i)
    if tmp:
        shutil.rmtree(tmp)
    say(ready)
    open(end).close()
say(ready)      # started: the recorders are enabled, then go
open(go).close()
if os.fork() == 0:  # after go: perf follows the child only from here
    a.close()
    work(b, 1)
    os._exit(0)
b.close()
work(a, 0)
os.wait()
EOF

# record ITER DIR KIND: DIR/trace.dat and DIR/perf.data of the same
# process tree, KIND's workload; REC_WHY says why they cannot be used
# (events lost), empty when they can
record() {
	local iter=$1 d=$2 kind=$3 ev='' e f n lost plost ack t0 t1 got

	echo 0 >"$T/tracing_on"
	for e in $EVENTS; do echo 0 >"$T/events/kmem/$e/enable"; done
	: >"$T/trace"
	echo "$BUFKB" >"$T/buffer_size_kb" || die "cannot set buffer_size_kb to $BUFKB"
	got=$(cat "$T/buffer_size_kb")
	case $got in
	'' | *[!0-9]*) die "buffer_size_kb reads '$got' after writing $BUFKB" ;;
	esac
	[ "$got" -ge "$BUFKB" ] || die "buffer_size_kb is $got, not $BUFKB (out of memory?)"
	: >"$T/set_event_pid"
	rm -f "$WORK/gate" "$WORK/ready" "$WORK/go" "$WORK/end" "$WORK/ctl" "$WORK/ack"
	mkfifo "$WORK/gate" "$WORK/ready" "$WORK/go" "$WORK/end" "$WORK/ctl" "$WORK/ack"
	exec 8<>"$WORK/ready" 9<>"$WORK/ack"

	set -m	# own process group: cleanup can kill it all
	sh -c 'read -r _ <"$1"; shift; exec "$@"' gate "$WORK/gate" \
		"$PY" "$WORK/workload.py" "$kind" "$iter" "$WORK/ready" "$WORK/end" "$WORK/go" \
		"$WORK/files" "$WORK/docdirs" "$WORK/libdirs" &
	wpid=$!
	set +m
	for e in $EVENTS; do ev=$ev${ev:+,}kmem:$e; done
	perf record -q --no-buildid --no-buildid-cache -m "$PERF_PAGES" -o "$d/perf.data" \
		-e "$ev" -p "$wpid" -D -1 --control "fifo:$WORK/ctl,$WORK/ack" \
		>"$d/perf.log" 2>&1 &
	ppid=$!

	# tracefs follows the workload from its start (set_event_pid and
	# event-fork), but records nothing until both its processes have
	# started; perf, attached with its events off, is enabled then too
	echo 1 >"$T/options/event-fork"
	echo "$wpid" >"$T/set_event_pid"
	for e in $EVENTS; do echo 1 >"$T/events/kmem/$e/enable"; done
	echo go >"$WORK/gate"
	read -r -t 120 _ <&8 || die "the workload did not start"
	# shellcheck disable=SC2016
	timeout 10 sh -c 'echo enable >"$1"' sh "$WORK/ctl" ||
		die "perf did not open its control fifo: $(head -n 3 "$d/perf.log")"
	read -r -t 10 ack <&9 || die "perf did not acknowledge enable: $(head -n 3 "$d/perf.log")"
	[ "$ack" = ack ] || die "perf answered '$ack' to enable"
	echo 1 >"$T/tracing_on"
	sleep 0.2	# having said "ready", it is in open(go) by now

	t0=$EPOCHREALTIME
	exec 6<>"$WORK/go"
	exec 6>&-
	for n in 1 2; do
		read -r -t 1800 _ <&8 || die "the workload did not finish"
	done
	t1=$EPOCHREALTIME
	sleep 0.5	# the last writer closes "ready" and blocks in open(end)
	echo disable >"$WORK/ctl"
	read -r -t 10 ack <&9 || die "perf did not acknowledge disable"
	echo 0 >"$T/tracing_on"
	for e in $EVENTS; do echo 0 >"$T/events/kmem/$e/enable"; done
	: >"$T/set_event_pid"

	lost=0
	for f in "$T"/per_cpu/cpu*/stats; do
		n=$(awk '/^overrun:/ { o = $2 } /^dropped events:/ { d = $3 } END { print o + d }' "$f")
		lost=$((lost + n))
	done
	trace-cmd extract -o "$d/trace.dat" >"$d/extract.log" 2>&1 ||
		die "trace-cmd extract failed: $(tail -n 3 "$d/extract.log")"
	: >"$T/trace"

	# let the workload go; perf ends when its target does
	exec 7<>"$WORK/end"
	exec 7>&-
	wait "$wpid" 2>/dev/null || true
	wpid=
	for _ in $(seq 100); do kill -0 "$ppid" 2>/dev/null || break; sleep 0.1; done
	kill -INT "$ppid" 2>/dev/null || true
	wait "$ppid" 2>/dev/null || true
	ppid=
	exec 8<&- 9<&-

	REC_WHY=
	perf report -i "$d/perf.data" --stats >"$d/perf.stats" 2>&1 ||
		die "perf report --stats failed: $(tail -n 3 "$d/perf.stats")"
	plost=$(awk '/LOST(_SAMPLES)? events:/ { for (i = 1; i < NF; i++) if ($i == "events:") s += $(i + 1) }
		END { print s + 0 }' "$d/perf.stats")
	[ "$plost" -eq 0 ] || REC_WHY="perf lost $plost events (raise BENCH_PERF_PAGES)"
	[ "$lost" -eq 0 ] || REC_WHY="tracefs lost $lost events (raise BENCH_BUFFER_KB)"
	WORKLOAD_S=$(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }")
}

# tk_json FILE [OPTIONS]: "SLAB PAGE LOST LIVE PLIVE CALLSITES PCALLSITES PTRS"
# from trace-kmem stat's JSON
tk_json() {
	local f=$1
	shift
	"$TK" stat --slab --page --json-rows=all "$@" --json="$WORK/tk.json" "$f" >/dev/null 2>"$WORK/tk.err" ||
		die "trace-kmem stat --json $f failed: $(tail -n 3 "$WORK/tk.err")"
	! grep -q 'read with libtracecmd' "$WORK/tk.err" ||
		die "the native reader left $f to libtracecmd: $(head -n 1 "$WORK/tk.err")"
	"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
s, p = d["slab"], d["page"]
print(s["events"], p["events"], d["events_lost"] + d["lost_unknown"],
      s["summary"]["live"]["count"], p["summary"]["live"]["count"],
      len(s["callsites"]), len(p["callsites"]), len(s["allocs"]))' "$WORK/tk.json"
}

# measure CMD...: run it once, output discarded; sets M_SECS (wall), M_CPU
# (user + system seconds, children included), M_RSS (peak RSS, KB) and M_RC
measure() {
	local t0 t1
	M_RC=0
	t0=$EPOCHREALTIME
	if [ "$HAVE_TIME" -eq 1 ]; then
		/usr/bin/time -f '%U %S %M' -o "$WORK/rss" "$@" >/dev/null 2>"$WORK/err" || M_RC=$?
	else
		"$PY" -c '
import os, resource, subprocess, sys
r = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%.2f %.2f %d\n" % (u.ru_utime, u.ru_stime, u.ru_maxrss))
sys.exit(r)' "$WORK/rss" "$@" 2>"$WORK/err" || M_RC=$?
	fi
	t1=$EPOCHREALTIME
	M_SECS=$(awk "BEGIN { printf \"%.4f\", $t1 - $t0 }")
	read -r M_USR M_SYS M_RSS < <(tail -n 1 "$WORK/rss")
	M_CPU=$(awk -v u="$M_USR" -v s="$M_SYS" 'BEGIN { printf "%.2f", u + s }')
}

# cpu_stat: "BUSY STEAL" seconds of all CPUs since boot (/proc/stat)
cpu_stat() {
	awk -v hz="$HZ" '$1 == "cpu" { printf "%.2f %.2f\n", ($2 + $3 + $4 + $7 + $8) / hz, $9 / hz; exit }' /proc/stat
}

verdict() {	# verdict OK|skip TEXT...
	local ok=$1
	shift
	case $ok in
	1) echo "MET      $*" ;;
	skip) echo "SKIPPED  $*" ;;
	*) echo "NOT MET  $*" ;;
	esac
}
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }' && echo 1 || echo 0; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }' && echo 1 || echo 0; }
# settle S: wait for the machine to be quiet before S is timed: a run that
# starts while other work (the recording just made, tests) still runs
# times that work too, most of all the fixed cost of the tiny trace.
settle() {
	local t0=$EPOCHREALTIME c0 c1 st busy waited
	while :; do
		read -r c0 st < <(cpu_stat)
		sleep 1
		read -r c1 st < <(cpu_stat)
		busy=$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.2f", b - a }')
		waited=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
		if [ "$(le "$busy" "$QUIET_CPU")" = 1 ]; then
			echo "$prog: $1: the machine is quiet ($busy CPUs busy) after $waited s"
			return
		fi
		if [ "$waited" -ge "$QUIET_WAIT" ]; then
			echo "$prog: $1: warning: still $busy CPUs busy after $waited s; timing anyway"
			return
		fi
	done
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
kb2mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

# --- the contenders, per recording S: cmd[S.ID]
ids=(tk tk6 tkpp tkrows tkl tkl6 bare bare6 perf tcmem tcmem6 floor)
declare -A label input
label[tk]="trace-kmem stat"; input[tk]="trace.dat v7 zstd"
label[tk6]="trace-kmem stat"; input[tk6]="trace.dat v6"
label[tkpp]="trace-kmem stat --pprof"; input[tkpp]="trace.dat v7 zstd"
label[tkrows]="trace-kmem stat --rows"; input[tkrows]="trace.dat v7 zstd"
label[tkl]="trace-kmem --reader=libtracecmd"; input[tkl]="trace.dat v7 zstd"
label[tkl6]="trace-kmem --reader=libtracecmd"; input[tkl6]="trace.dat v6"
label[bare]="bare libtracecmd loop"; input[bare]="trace.dat v7 zstd"
label[bare6]="bare libtracecmd loop"; input[bare6]="trace.dat v6"
label[perf]="perf kmem stat"; input[perf]="perf.data"
label[tcmem]="trace-cmd mem"; input[tcmem]="trace.dat v7 zstd"
label[tcmem6]="trace-cmd mem"; input[tcmem6]="trace.dat v6"
# the harness's own cost: an empty command, timed the same way (the
# fixed cost below is read against it)
label[floor]="an empty command (/bin/true)"; input[floor]="-"
declare -A cmd nev med cpu rss rng eps vsperf n_trace n_perf mb_v7 mb_v6 mb_perf
declare -A live_s live_p cs_s cs_p ptrs
native() { case $1 in tk | tk6 | tkpp | tkrows) return 0 ;; esac; return 1; }

# run_one S ID: one run; appends "ID SECONDS RSS_KB CPU_SECONDS" to
# $WORK/S/times; adds its CPU time to OUR_CPU
run_one() {
	local s=$1 id=$2
	# shellcheck disable=SC2086
	measure ${cmd[$s.$id]}
	[ "$M_RC" -eq 0 ] ||
		die "${label[$id]} (${input[$id]}, $s) failed with status $M_RC: $(tail -n 3 "$WORK/err")"
	if native "$id" && grep -q 'read with libtracecmd' "$WORK/err"; then
		die "the native reader left the $s ${input[$id]} to libtracecmd: $(head -n 1 "$WORK/err")"
	fi
	echo "$id $M_SECS $M_RSS $M_CPU" >>"$WORK/$s/times"
	OUR_CPU=$(awk -v a="$OUR_CPU" -v b="$M_CPU" 'BEGIN { printf "%.2f", a + b }')
}

# stats S ID: med, cpu, rss, rng, eps, vsperf (after perf's) of ID
col_median() {	# col_median FILE ID COLUMN
	awk -v id="$2" -v c="$3" '$1 == id { print $c }' "$1" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
stats() {
	local s=$1 id=$2 f=$WORK/$1/times
	med[$s.$id]=$(col_median "$f" "$id" 2)
	cpu[$s.$id]=$(col_median "$f" "$id" 4)
	rss[$s.$id]=$(awk -v id="$id" '$1 == id && $3 > m { m = $3 } END { print m + 0 }' "$f")
	rng[$s.$id]=$(awk -v id="$id" '$1 == id { if (n++ == 0 || $2 < lo) lo = $2; if ($2 > hi) hi = $2 }
		END { printf "%.2f-%.2f", lo, hi }' "$f")
	eps[$s.$id]=$(awk -v n="${nev[$s.$id]}" -v t="${med[$s.$id]}" 'BEGIN { printf "%.4f", n / t / 1e6 }')
	vsperf[$s.$id]=$(ratio "${eps[$s.$id]}" "${eps[$s.perf]}")
}

# bench_size S: record, convert, count, time every contender
bench_size() {
	local s=$1 d=$WORK/$1 iter=${iter_of[$1]} id r k c0 c1 t0 t1 la0 la1 dn
	mkdir -p "$d"
	echo
	echo "=== $s: recording $((2 * iter)) ${kind_of[$s]} workload iterations with tracefs and perf side by side"
	# A recording that lost events is made again, and so is one perf
	# kmem stat cannot read (some of perf's recordings of fork-1m:
	# "failed to process type: 68 [Cannot allocate memory]", perf 6.1,
	# 2026-12-03; the next recording read).  perf fell behind on 1m and
	# fork-1m in three runs of 2026-12-04, an hour after a run without.
	for r in 1 2 3; do
		record "$iter" "$d" "${kind_of[$s]}"
		if [ -z "$REC_WHY" ]; then
			perf kmem --slab --page -i "$d/perf.data" stat >/dev/null 2>"$WORK/err" && break
			REC_WHY="perf kmem stat cannot read this perf.data ($(tail -n 1 "$WORK/err"))"
		fi
		[ "$r" -lt 3 ] || die "$s: three recordings could not be used; the last: $REC_WHY"
		echo "$prog: $s: $REC_WHY: recording again ($((r + 1)) of 3)"
	done
	trace-cmd convert -i "$d/trace.dat" -o "$d/trace-v6.dat" --file-version 6 \
		>"$d/convert.log" 2>&1 || die "trace-cmd convert failed: $(tail -n 3 "$d/convert.log")"

	n_trace[$s]=$("$BARE" "$d/trace-v6.dat" | awk '{ print $1 }')
	n_perf[$s]=$(awk '/^ *SAMPLE events:/ { print $3; exit }' "$d/perf.stats")
	local TK_SLAB TK_PAGE TK_LOST a6 b6
	local j
	j=$(tk_json "$d/trace.dat")
	read -r TK_SLAB TK_PAGE TK_LOST _ <<<"$j"
	read -r _ _ _ live_s["$s"] live_p["$s"] cs_s["$s"] cs_p["$s"] ptrs["$s"] <<<"$j"
	read -r a6 b6 _ < <(tk_json "$d/trace-v6.dat")
	[ $((TK_SLAB + TK_PAGE)) -eq "${n_trace[$s]}" ] ||
		die "$s: trace-kmem stat counts $((TK_SLAB + TK_PAGE)) events in trace.dat, the bare loop ${n_trace[$s]} in its v6 copy"
	[ "$a6 $b6" = "$TK_SLAB $TK_PAGE" ] ||
		die "$s: trace-kmem stat counts slab $TK_SLAB page $TK_PAGE in v7, slab $a6 page $b6 in v6"
	mb_v7[$s]=$(du -m "$d/trace.dat" | cut -f1)
	mb_v6[$s]=$(du -m "$d/trace-v6.dat" | cut -f1)
	mb_perf[$s]=$(du -m "$d/perf.data" | cut -f1)
	echo "Recording $s: workload ran ${WORKLOAD_S}s; ${n_trace[$s]} records in trace.dat" \
		"(trace-kmem: slab $TK_SLAB, page $TK_PAGE, lost $TK_LOST; v6 copy the same)," \
		"${n_perf[$s]} samples in perf.data; lost: 0 (tracefs), 0 (perf)"
	for e in $EVENTS; do
		printf '  kmem:%-18s perf %s\n' "$e" "$(awk -v n="kmem:$e" '$1 == n && $2 == "stats:" { getline; print $3; exit }' "$d/perf.stats")"
	done
	echo "Sizes: trace.dat ${mb_v7[$s]} MB (v7, zstd), trace-v6.dat ${mb_v6[$s]} MB (v6," \
		"uncompressed), perf.data ${mb_perf[$s]} MB"
	dn=$((n_trace[$s] > n_perf[$s] ? n_trace[$s] - n_perf[$s] : n_perf[$s] - n_trace[$s]))
	[ $((dn * 100)) -le "${n_trace[$s]}" ] ||
		echo "$prog: warning: trace.dat and perf.data differ by more than 1% (${n_trace[$s]}, ${n_perf[$s]})"

	cmd[$s.tk]="$TK stat --slab --page -o /dev/null $d/trace.dat"
	cmd[$s.tk6]="$TK stat --slab --page -o /dev/null $d/trace-v6.dat"
	cmd[$s.tkpp]="$TK stat --slab --page -o /dev/null --pprof=$d/profile.pb.gz $d/trace.dat"
	cmd[$s.tkrows]="$TK stat --slab --page -o /dev/null --rows=$d/rows.ndjson $d/trace.dat"
	cmd[$s.tkl]="$TK stat --reader=libtracecmd --slab --page -o /dev/null $d/trace.dat"
	cmd[$s.tkl6]="$TK stat --reader=libtracecmd --slab --page -o /dev/null $d/trace-v6.dat"
	cmd[$s.bare]="$BARE $d/trace.dat"
	cmd[$s.bare6]="$BARE $d/trace-v6.dat"
	cmd[$s.perf]="perf kmem --slab --page -i $d/perf.data stat"
	cmd[$s.tcmem]="trace-cmd mem -i $d/trace.dat"
	cmd[$s.tcmem6]="trace-cmd mem -i $d/trace-v6.dat"
	cmd[$s.floor]="/bin/true"
	for id in "${ids[@]}"; do nev[$s.$id]=${n_trace[$s]}; done
	nev[$s.perf]=${n_perf[$s]}

	settle "$s"
	echo "$prog: $s: timing ${#ids[@]} contenders, $(runs_of "$s") runs each (after one warm-up round)"
	OUR_CPU=0
	read -r c0 st0 < <(cpu_stat)
	t0=$EPOCHREALTIME
	la0=$(cut -d' ' -f1 /proc/loadavg)
	: >"$d/times"
	for id in "${ids[@]}"; do run_one "$s" "$id"; done
	: >"$d/times"
	for ((r = 0; r < $(runs_of "$s"); r++)); do
		for ((k = 0; k < ${#ids[@]}; k++)); do
			run_one "$s" "${ids[$(((k + r) % ${#ids[@]}))]}"
		done
		printf '.'
	done
	echo
	t1=$EPOCHREALTIME
	la1=$(cut -d' ' -f1 /proc/loadavg)
	read -r c1 st1 < <(cpu_stat)
	NOISE[$s]=$(awk -v c0="$c0" -v c1="$c1" -v s0="$st0" -v s1="$st1" -v o="$OUR_CPU" \
		-v t0="$t0" -v t1="$t1" -v a="$la0" -v b="$la1" -v n="$(nproc)" 'BEGIN {
		w = t1 - t0; other = (c1 - c0 - o) / w; if (other < 0) other = 0
		printf "timing took %.0f s; load average %s at the start, %s at the end; CPU used by other work than the timed commands: %.2f of %d CPUs on average; steal %.1f%%",
			w, a, b, other, n, (s1 - s0) * 100 / (w * n) }')
	echo "Machine during the $s timing: ${NOISE[$s]}"

	stats "$s" perf
	for id in "${ids[@]}"; do stats "$s" "$id"; done
	print_table "$s"
}
declare -A NOISE

print_table() {
	local s=$1 id
	echo
	echo "Timings, $s (${n_trace[$s]} events; $(runs_of "$s") interleaved runs, medians):"
	printf '  %-32s %-18s %9s %12s %8s %11s %8s %8s\n' tool input "wall s" "range s" "CPU s" \
		"M events/s" "vs perf" "RSS MB"
	for id in "${ids[@]}"; do
		if [ "$id" = floor ]; then	# reads no events: no rate
			printf '  %-32s %-18s %9.3f %12s %8.2f %11s %8s %8.1f\n' "${label[$id]}" "${input[$id]}" \
				"${med[$s.$id]}" "${rng[$s.$id]}" "${cpu[$s.$id]}" - - "$(kb2mb "${rss[$s.$id]}")"
			continue
		fi
		printf '  %-32s %-18s %9.3f %12s %8.2f %11.2f %7.2fx %8.1f\n' "${label[$id]}" "${input[$id]}" \
			"${med[$s.$id]}" "${rng[$s.$id]}" "${cpu[$s.$id]}" "${eps[$s.$id]}" "${vsperf[$s.$id]}" \
			"$(kb2mb "${rss[$s.$id]}")"
	done
	echo "  (wall s: median wall time; CPU s: median user + system time of all threads and"
	echo "   child processes; vs perf: events/s over perf kmem stat's, same rounds;"
	echo "   RSS MB: largest peak RSS of the timed runs)"
	echo "  native / bare libtracecmd loop, wall: $(ratio "${med[$s.tk]}" "${med[$s.bare]}")x (v7)," \
		"$(ratio "${med[$s.tk6]}" "${med[$s.bare6]}")x (v6)"
	echo "  native speedup over --reader=libtracecmd: $(ratio "${med[$s.tkl]}" "${med[$s.tk]}")x (v7)," \
		"$(ratio "${med[$s.tkl6]}" "${med[$s.tk6]}")x (v6)"
	echo "  --reader=libtracecmd / bare loop, wall: $(ratio "${med[$s.tkl]}" "${med[$s.bare]}")x (v7)," \
		"$(ratio "${med[$s.tkl6]}" "${med[$s.bare6]}")x (v6)"
	echo "  at the end of the trace: ${live_s[$s]} live slab objects, ${live_p[$s]} live pages," \
		"${cs_s[$s]} slab + ${cs_p[$s]} page call sites, ${ptrs[$s]} slab pointers in the allocation table"
}

for s in "${sizes[@]}"; do bench_size "$s"; done

# --- every recording at a glance (issue 24): trace-kmem stat against
# perf kmem stat in the same rounds; the worst ratio is the headline
echo
echo "Every recording (issue 24): trace-kmem stat, medians of $RUNS interleaved runs ($TINY_RUNS on tiny):"
printf '  %-10s %9s %10s %7s %8s %10s %8s %8s\n' recording events "v7 wall s" "CPU s" \
	"vs perf" "v6 wall s" "vs perf" "RSS MB"
worst7='' worst6='' w7s='' w6s=''
for s in "${sizes[@]}"; do
	printf '  %-10s %9d %10.3f %7.2f %7.2fx %10.3f %7.2fx %8.1f\n' "$s" "${n_trace[$s]}" \
		"${med[$s.tk]}" "${cpu[$s.tk]}" "${vsperf[$s.tk]}" "${med[$s.tk6]}" \
		"${vsperf[$s.tk6]}" "$(kb2mb "${rss[$s.tk]}")"
	[ "$s" != tiny ] || continue	# the fixed cost, not a rate
	if [ -z "$worst7" ] || [ "$(le "${vsperf[$s.tk]}" "$worst7")" = 1 ]; then
		worst7=${vsperf[$s.tk]} w7s=$s
	fi
	if [ -z "$worst6" ] || [ "$(le "${vsperf[$s.tk6]}" "$worst6")" = 1 ]; then
		worst6=${vsperf[$s.tk6]} w6s=$s
	fi
done
[ -z "$worst7" ] ||
	echo "  worst against perf kmem stat: ${worst7}x ($w7s) on v7 zstd, ${worst6}x ($w6s) on v6"

# --- system-wide recording (issue 9): memory per object.  Every process
# is recorded while a workload makes many distinct objects: files in a
# private tmpfs (an inode, a dentry and their kmallocs each, a page of
# data), half of them removed, then the whole tmpfs unmounted.
SYS_RSS_LIMIT_MB=64
SYS_MIN_OBJECTS=400000	# slab addresses + pages the target is about
if [ "$SYSWIDE" = 1 ]; then
	d=$WORK/sys
	mkdir -p "$d/fs"
	cat >"$d/objects.sh" <<EOF_OBJ
#!/bin/sh
mount -t tmpfs none "$d/fs" || exit 1
"$PY" -c '
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
blk = b"x" * 4096
for i in range(n):
    with open("%s/f%d" % (d, i), "wb") as f:
        f.write(blk)
for i in range(0, n, 2):
    os.unlink("%s/f%d" % (d, i))
' "$d/fs" "$SYS_FILES"
umount "$d/fs"
EOF_OBJ
	chmod +x "$d/objects.sh"
	echo
	echo "=== system-wide: sample-data/record.sh -a -e slab,page while $SYS_FILES files are made" \
		"in a tmpfs, half removed, the tmpfs unmounted"
	"$TOP/sample-data/record.sh" -a -e slab,page -b "$BUFKB" -o "$d/trace.dat" "$d/objects.sh" \
		>"$d/record.log" 2>&1 || die "sample-data/record.sh -a failed: $(tail -n 3 "$d/record.log")"
	tail -n 1 "$d/record.log"
	sys_lost=$(sed -n 's/.*events lost: \([0-9]*\).*/\1/p' "$d/record.log" | tail -n 1)
	[ "${sys_lost:-0}" -eq 0 ] ||
		echo "$prog: warning: the system-wide recording lost $sys_lost events (raise BENCH_BUFFER_KB)"
	trace-cmd convert -i "$d/trace.dat" -o "$d/trace-v6.dat" --file-version 6 \
		>"$d/convert.log" 2>&1 || die "trace-cmd convert failed: $(tail -n 3 "$d/convert.log")"
	n_sys=$("$BARE" "$d/trace-v6.dat" | awk '{ print $1 }')
	"$TK" stat --json="$d/tk.json" -o /dev/null "$d/trace.dat" || die "trace-kmem stat --json failed"
	read -r n_addr n_pfn sys_ls sys_lp < <("$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
s, p = d.get("slab", {}), d.get("page", {})
print(len(s.get("allocs") or []), len(p.get("pages") or []),
      s.get("summary", {}).get("live", {}).get("count", 0),
      p.get("summary", {}).get("live", {}).get("count", 0))' "$d/tk.json")
	n_obj=$((n_addr + n_pfn))
	echo "System-wide: $n_sys records, trace.dat $(du -m "$d/trace.dat" | cut -f1) MB v7," \
		"$(du -m "$d/trace-v6.dat" | cut -f1) MB v6; $n_addr distinct slab addresses and $n_pfn" \
		"page frames allocated; at the end $sys_ls live slab objects, $sys_lp live pages"
	# the target is about --all: every table, per-address rows kept
	ids_sys=(tk tk6 tkd tkj tkl rep repk)
	declare -A sys_cmd=(
		[tk]="$TK stat --all -o /dev/null $d/trace.dat"
		[tk6]="$TK stat --all -o /dev/null $d/trace-v6.dat"
		[tkd]="$TK stat -o /dev/null $d/trace.dat"
		[tkj]="$TK stat --json=/dev/null -o /dev/null $d/trace.dat"
		[tkl]="$TK stat --reader=libtracecmd -o /dev/null $d/trace.dat"
		[rep]="env TRACEEVENT_PLUGIN_DIR=$B/plugins trace-cmd report -i $d/trace-v6.dat"
		[repk]="env TRACEEVENT_PLUGIN_DIR=$B/plugins trace-cmd report -i $d/trace-v6.dat -O kmem:stat -O kmem:all")
	declare -A sys_label=(
		[tk]="trace-kmem stat --all (v7 zstd)"
		[tk6]="trace-kmem stat --all (v6)"
		[tkd]="trace-kmem stat, default report (v7)"
		[tkj]="trace-kmem stat --json (v7)"
		[tkl]="trace-kmem --reader=libtracecmd (v7)"
		[rep]="trace-cmd report, this plugin (v6)"
		[repk]="trace-cmd report -O kmem:stat -O kmem:all (v6)")
	: >"$d/times"
	for ((r = 0; r < RUNS; r++)); do
		for ((k = 0; k < ${#ids_sys[@]}; k++)); do
			id=${ids_sys[$(((k + r) % ${#ids_sys[@]}))]}
			# shellcheck disable=SC2086
			measure ${sys_cmd[$id]}
			[ "$M_RC" -eq 0 ] || die "${sys_label[$id]} failed: $(tail -n 3 "$WORK/err")"
			echo "$id $M_SECS $M_RSS $M_CPU" >>"$d/times"
		done
	done
	declare -A sys_rss=()
	printf '  %-44s %9s %8s %8s\n' "" "wall s" "CPU s" "RSS MB"
	for id in "${ids_sys[@]}"; do
		sys_rss[$id]=$(awk -v id="$id" '$1 == id && $3 > m { m = $3 } END { print m + 0 }' "$d/times")
		printf '  %-44s %9.3f %8.2f %8.1f\n' "${sys_label[$id]}" "$(col_median "$d/times" "$id" 2)" \
			"$(col_median "$d/times" "$id" 4)" "$(kb2mb "${sys_rss[$id]}")"
	done
	echo "  ($RUNS runs each, medians, largest peak RSS)"
	echo "  the plugin's share of trace-cmd's RSS: $(kb2mb $((sys_rss[repk] - sys_rss[rep]))) MB," \
		"$(awk -v a="${sys_rss[repk]}" -v b="${sys_rss[rep]}" -v n="$n_obj" \
			'BEGIN { printf "%.0f", n ? (a - b) * 1024 / n : 0 }') bytes per object"
	echo "  trace-kmem stat: $(awk -v a="${sys_rss[tk]}" -v n="$n_obj" \
		'BEGIN { printf "%.0f", n ? a * 1024 / n : 0 }') bytes of peak RSS per object, all included"
fi

# --- instruction counts: trace-cmd report without and with the plugin
callgrind_ir() {	# callgrind_ir OUT CMD...: instructions counted
	local out=$1
	shift
	valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>"$out.log" ||
		die "valgrind $* failed: $(tail -n 3 "$out.log")"
	awk '/Collected :/ { print $NF }' "$out.log"
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f", (a - b) * 100 / b }'; }
plugin_ok=skip plugin_line="(BENCH_PROFILE=0 or no valgrind: not measured)"
if [ "$PROFILE" = 1 ] && [ "$HAVE_VALGRIND" -eq 1 ]; then
	echo
	echo "Instructions (valgrind --tool=callgrind) of trace-cmd report on ${SMALL#"$TOP"/}" \
		"($("$BARE" "$SMALL" | awk '{ print $1 }') records):"
	ir0=$(callgrind_ir "$WORK/cg.stock" trace-cmd report -i "$SMALL")
	ir1=$(TRACEEVENT_PLUGIN_DIR=$B/plugins callgrind_ir "$WORK/cg.listing" trace-cmd report -i "$SMALL")
	ir2=$(TRACEEVENT_PLUGIN_DIR=$B/plugins callgrind_ir "$WORK/cg.stat" \
		trace-cmd report -i "$SMALL" -O kmem:stat)
	printf '  %-58s %15d\n' "trace-cmd report (stock plugins)" "$ir0"
	printf '  %-58s %15d  %s%%\n' "trace-cmd report, this plugin (listing only)" "$ir1" "$(pct "$ir1" "$ir0")"
	printf '  %-58s %15d  %s%%\n' "trace-cmd report -O kmem:stat, this plugin" "$ir2" "$(pct "$ir2" "$ir0")"
	p=$(pct "$ir2" "$ir0")
	plugin_ok=$(awk -v p="$p" -v b="$PLUGIN_PCT_BEFORE" -v e="$PLUGIN_PCT_SLACK" 'BEGIN { print (p <= b + e) ? 1 : 0 }')
	plugin_line="$p% (recorded before the native reader: +$PLUGIN_PCT_BEFORE%; budget: at most +$(awk -v b="$PLUGIN_PCT_BEFORE" -v e="$PLUGIN_PCT_SLACK" 'BEGIN { printf "%.2f", b + e }')%)"
elif [ "$PROFILE" = 1 ]; then
	echo "$prog: valgrind not installed: no instruction counts (apt-get install valgrind)"
fi

# --- the targets
has_size() { local o; for o in "${sizes[@]}"; do [ "$o" = "$1" ] && return 0; done; return 1; }
echo
echo "Targets (issue 8):"
for s in 1m 10m; do
	if has_size "$s"; then
		verdict "$(ge "${vsperf[$s.tk]}" $PERF_X_V7)" \
			"$s: trace-kmem stat >= ${PERF_X_V7}x perf kmem stat's events/s, trace.dat v7 zstd: ${vsperf[$s.tk]}x" \
			"($(printf %.2f "${eps[$s.tk]}") vs $(printf %.2f "${eps[$s.perf]}") M events/s)"
		verdict "$(ge "${vsperf[$s.tk6]}" $PERF_X_V6)" \
			"$s: trace-kmem stat >= ${PERF_X_V6}x perf kmem stat's events/s, trace.dat v6: ${vsperf[$s.tk6]}x" \
			"($(printf %.2f "${eps[$s.tk6]}") vs $(printf %.2f "${eps[$s.perf]}") M events/s)"
	else
		verdict skip "$s: trace-kmem stat >= ${PERF_X_V7}x / ${PERF_X_V6}x perf kmem stat (v7 / v6): not in BENCH_SIZES"
	fi
done
# issue 23: the exports may not double the run time
for s in 1m 10m; do
	has_size "$s" || continue
	for id in tkpp tkrows; do
		r=$(ratio "${med[$s.$id]}" "${med[$s.tk]}")
		f=$WORK/$s/profile.pb.gz
		[ "$id" = tkpp ] || f=$WORK/$s/rows.ndjson
		verdict "$(le "$r" 2)" "$s: ${label[$id]} under 2x the time of trace-kmem stat:" \
			"${r}x (${med[$s.$id]} s vs ${med[$s.tk]} s; peak RSS $(kb2mb "${rss[$s.$id]}")" \
			"vs $(kb2mb "${rss[$s.tk]}") MB; $(du -k "$f" | cut -f1) KB written)"
	done
done
if has_size 10m; then
	ok=$(awk -v a="${rss[10m.tk]}" -v b="${rss[10m.tk6]}" -v n="${n_trace[10m]}" -v big=$BIG_EVENTS \
		-v l=$RSS_LIMIT_MB 'BEGIN { print (n >= big && a < l * 1024 && b < l * 1024) ? 1 : 0 }')
	note=
	[ "${n_trace[10m]}" -ge $BIG_EVENTS ] || note="; fewer than $BIG_EVENTS events: raise BENCH_ITER_BIG"
	verdict "$ok" "10m: trace-kmem stat peak RSS under $RSS_LIMIT_MB MB on the ${n_trace[10m]}-event trace:" \
		"$(kb2mb "${rss[10m.tk]}") MB (v7), $(kb2mb "${rss[10m.tk6]}") MB (v6)$note"
else
	verdict skip "10m: trace-kmem stat peak RSS under $RSS_LIMIT_MB MB: 10m not in BENCH_SIZES"
fi
verdict "$plugin_ok" "the plugin's instruction overhead in trace-cmd report -O kmem:stat unchanged: $plugin_line"
echo "Targets (issue 9):"
if [ "$SYSWIDE" = 1 ]; then
	ok=$(awk -v a="${sys_rss[tk]}" -v b="${sys_rss[tk6]}" -v n="$n_obj" -v min=$SYS_MIN_OBJECTS \
		-v l=$SYS_RSS_LIMIT_MB 'BEGIN { print (n >= min && a < l * 1024 && b < l * 1024) ? 1 : 0 }')
	note=
	[ "$n_obj" -ge $SYS_MIN_OBJECTS ] || note="; fewer than $SYS_MIN_OBJECTS objects: raise BENCH_SYSWIDE_FILES"
	verdict "$ok" "system-wide: trace-kmem stat --all peak RSS under $SYS_RSS_LIMIT_MB MB with $n_obj objects:" \
		"$(kb2mb "${sys_rss[tk]}") MB (v7), $(kb2mb "${sys_rss[tk6]}") MB (v6)$note"
else
	verdict skip "system-wide: trace-kmem stat peak RSS under $SYS_RSS_LIMIT_MB MB: BENCH_SYSWIDE=1 not set"
fi
echo "Targets (issue 24):"
for s in "${sizes[@]}"; do
	if [ "$s" = tiny ]; then
		ms=$(awk -v t="${med[tiny.tk]}" 'BEGIN { printf "%.1f", t * 1000 }')
		verdict "$(le "$ms" $STARTUP_MS)" "tiny: the fixed cost, trace-kmem stat on ${n_trace[tiny]}" \
			"events under $STARTUP_MS ms (v7 zstd): $ms ms (v6: $(awk -v t="${med[tiny.tk6]}" \
			'BEGIN { printf "%.1f", t * 1000 }') ms; an empty command timed the same way:" \
			"$(awk -v t="${med[tiny.floor]}" 'BEGIN { printf "%.1f", t * 1000 }') ms)"
		continue
	fi
	verdict "$(ge "${vsperf[$s.tk]}" $WL_X_V7)" "$s: trace-kmem stat >= ${WL_X_V7}x perf kmem stat's" \
		"events/s, v7 zstd: ${vsperf[$s.tk]}x"
	verdict "$(ge "${vsperf[$s.tk6]}" $WL_X_V6)" "$s: trace-kmem stat >= ${WL_X_V6}x perf kmem stat's" \
		"events/s, v6: ${vsperf[$s.tk6]}x"
done
has_size tiny || verdict skip "tiny: the fixed cost under $STARTUP_MS ms: tiny not in BENCH_WORKLOADS"
echo "Other checks (the libtracecmd path, kept from before the native reader):"
for s in "${sizes[@]}"; do
	r=$(ratio "${med[$s.tkl6]}" "${med[$s.bare6]}")
	verdict "$(le "$r" 1.2)" "$s: trace-kmem --reader=libtracecmd within 1.2x of the bare libtracecmd loop's time, v6: ${r}x" \
		"($(awk -v a="${med[$s.tkl6]}" -v b="${med[$s.bare6]}" -v n="${n_trace[$s]}" 'BEGIN { printf "%.0f", (a - b) * 1e9 / n }') ns per record above the floor)"
	[ "$s" = 10m ] || for id in tk tk6; do
		[ "${rss[$s.$id]}" -lt $((RSS_LIMIT_MB * 1024)) ] ||
			echo "NOTE     $s: trace-kmem stat (${input[$id]}) peak RSS $(kb2mb "${rss[$s.$id]}") MB, over $RSS_LIMIT_MB MB"
	done
done

# --- KernelShark (issue 13): what KernelShark does with the 1m trace
# before it first draws, through libkshark (tests/kshark/kshark_kmem.c
# --load): load its entries without the kmem plugin, and with it (its
# event handler while loading, then its follow pass).  Interleaved, the
# order alternating, medians after one warm-up round.
KSK=$B/kshark/kshark_kmem
KSP=$B/kernelshark/plugin-kmem.so
echo "Targets (issue 13):"
if has_size 1m && [ -x "$KSK" ] && [ -f "$KSP" ]; then
	: >"$WORK/ks.times"
	for ((r = 0; r <= RUNS; r++)); do
		for k in 0 1; do
			id=ks plug=none
			[ $(((k + r) % 2)) -eq 1 ] && id=ksk plug=$KSP
			measure "$KSK" --load "$plug" "$WORK/1m/trace.dat"
			[ "$M_RC" -eq 0 ] || die "kshark_kmem --load $plug failed: $(tail -n 3 "$WORK/err")"
			[ "$r" -eq 0 ] || echo "$id $M_SECS $M_RSS $M_CPU" >>"$WORK/ks.times"
		done
	done
	ka=$(col_median "$WORK/ks.times" ks 2)
	kb=$(col_median "$WORK/ks.times" ksk 2)
	kr=$(ratio "$kb" "$ka")
	ra=$(awk '$1 == "ks" && $3 > m { m = $3 } END { print m + 0 }' "$WORK/ks.times")
	rb=$(awk '$1 == "ksk" && $3 > m { m = $3 } END { print m + 0 }' "$WORK/ks.times")
	verdict "$(le "$kr" 1.5)" "1m: loading in KernelShark (libkshark) with the kmem plugin within 1.5x of" \
		"without: ${kr}x ($(printf %.3f "$kb") s vs $(printf %.3f "$ka") s, trace.dat v7; peak RSS" \
		"$(kb2mb "$rb") MB vs $(kb2mb "$ra") MB)"
else
	verdict skip "1m: loading in KernelShark with the kmem plugin: needs 1m in BENCH_SIZES and $KSK, $KSP"
fi

# --- what trace-kmem stat's peak RSS is made of: /proc/PID/smaps_rollup
# sampled every 5 ms during one run (file-backed: the mapped trace.dat
# and the libraries; anonymous: the heap, the blocks, the tables)
rss_split() {	# rss_split CMD...: "PEAK_RSS_KB ANON_KB FILE_KB" at the sampled peak
	"$PY" -c '
import subprocess, sys, time
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
best = (0, 0)
while p.poll() is None:
    try:
        v = {}
        for l in open("/proc/%d/smaps_rollup" % p.pid):
            f = l.split()
            if f[0] in ("Rss:", "Anonymous:"):
                v[f[0]] = int(f[1])
        if v.get("Rss:", 0) > best[0]:
            best = (v["Rss:"], v.get("Anonymous:", 0))
    except (OSError, ValueError, KeyError, IndexError):
        pass
    time.sleep(0.005)
sys.exit(p.returncode) if p.returncode else print(best[0], best[1], best[0] - best[1])' "$@"
}
echo
echo "Peak RSS of trace-kmem stat, sampled (smaps_rollup every 5 ms, one run each), MB:"
printf '  %-5s %-18s %11s %10s %12s %16s
' size input "peak RSS" anonymous "file-backed" "trace file MB"
for s in "${sizes[@]}"; do
	for id in tk tk6; do
		f=$WORK/$s/trace.dat fm=${mb_v7[$s]}
		[ $id = tk6 ] && f=$WORK/$s/trace-v6.dat fm=${mb_v6[$s]}
		read -r r a fb < <(rss_split "$TK" stat --slab --page -o /dev/null "$f") ||
			die "trace-kmem stat on $f failed"
		printf '  %-5s %-18s %11s %10s %12s %16s
' "$s" "${input[$id]}" "$(kb2mb "$r")" "$(kb2mb "$a")" \
			"$(kb2mb "$fb")" "$fm"
	done
done
echo "  (the largest of the timed runs, /usr/bin/time, is in the tables above; sampling can miss"
echo "   a short peak)"

# --- where trace-kmem stat's time goes
if [ "$PROFILE" != 1 ]; then
	echo
	echo "$prog: BENCH_PROFILE=0: no profiles"
	echo "$prog: done in $(awk -v a="$T_START" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }') s;" \
		"load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
	exit 0
fi

# perf record of the native reader on the largest recording: the top
# functions of each thread.  The main thread (tid = pid) counts (lib/);
# it also opens the file and prints the tables.  The other one reads.
# Functions of libraries without symbols (libzstd) are summed per library.
perf_threads() {	# perf_threads PERF.DATA TOTAL_CPU_S
	local main
	main=$(perf script -i "$1" -F comm,pid,tid 2>/dev/null |
		awk '$1 == "trace-kmem" { split($2, a, "/"); print a[1]; exit }')
	perf report -i "$1" --stdio --comms trace-kmem --sort pid,dso,sym 2>/dev/null |
		awk -v cpu="$2" -v main="$main" '
		/^#/ || NF < 5 || $1 !~ /%$/ { next }
		{
			p = $1; sub(/%$/, "", p)
			split($2, a, ":"); tid = a[1]; dso = $3; gsub(/^\[|\]$/, "", dso)
			sym = $5; for (i = 6; i <= NF; i++) sym = sym " " $i
			if (sym ~ /^0x/) sym = "(" dso ", no symbols)"
			else sym = sym " [" dso "]"
			s[tid, sym] += p; t[tid] += p
		}
		END {
			for (tid in t) {
				name = (tid == main) ? "counting thread (main; also opens and prints)" : "reading thread"
				printf "  %s, tid %s: %.1f%% of the samples (%.2f s of CPU)\n", name, tid, t[tid], t[tid] * cpu / 100
				n = 0
				for (k in s) { split(k, b, SUBSEP); if (b[1] == tid) { v[++n] = s[k]; w[n] = b[2] } }
				for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] > v[i]) {
					x = v[i]; v[i] = v[j]; v[j] = x; y = w[i]; w[i] = w[j]; w[j] = y }
				for (i = 1; i <= n && i <= 10; i++)
					printf "    %5.1f%% %5.1f%% of thread  %s\n", v[i], v[i] * 100 / t[tid], w[i]
				delete v; delete w
			}
		}'
}
big=${sizes[$((${#sizes[@]} - 1))]}
for s in "${sizes[@]}"; do [ "$s" != 1m ] || big=1m; done
for s in "${sizes[@]}"; do [ "$s" != 10m ] || big=10m; done
echo
echo "Profile (perf record -e cpu-clock -F 999) of trace-kmem stat --slab --page, $big recording," \
	"per thread (% of all samples, % of the thread's):"
for v in v7 v6; do
	f=$WORK/$big/trace.dat
	[ $v = v6 ] && f=$WORK/$big/trace-v6.dat
	perf record -q -e cpu-clock -F 999 -o "$WORK/prof.$v.data" -- \
		/usr/bin/time -f '%e %U %S %M' -o "$WORK/prof.$v.time" \
		"$TK" stat --slab --page -o /dev/null "$f" >/dev/null 2>"$WORK/prof.$v.log" ||
		die "perf record of trace-kmem stat failed: $(tail -n 3 "$WORK/prof.$v.log")"
	read -r el u sy _ < <(tail -n 1 "$WORK/prof.$v.time")
	c=$(awk -v u="$u" -v s="$sy" 'BEGIN { printf "%.2f", u + s }')
	echo " $v ($( [ $v = v7 ] && echo 'trace.dat v7 zstd' || echo 'trace.dat v6')):" \
		"$el s wall, $c s CPU (trace-kmem stat alone, under perf record)"
	perf_threads "$WORK/prof.$v.data" "$c"
done

# callgrind (all threads) on the first PROFILE_EVENTS records and on the
# first PROFILE_SMALL of the smallest recording; the difference, divided
# by the difference in records, is the cost of a record without opening
# the file (the event formats, kallsyms) or printing.
PROFILE_SMALL=10000
# fn_costs FILE [--inclusive=yes]: "COST<TAB>FUNCTION" for every function
fn_costs() {
	local f=$1
	shift
	callgrind_annotate --auto=no --threshold=100 "$@" "$f" 2>/dev/null |
		awk '/^-+$/ { s++; next }
		/PROGRAM TOTALS/ { t = s }
		t && s == t + 2 && $1 ~ /^[0-9,]+$/ {
			c = $1; gsub(",", "", c)
			sub(/^ *[0-9,]+ +\( *[0-9.]+%\) +/, "")
			print c "\t" $0 }'
}
# per_record BIG SMALL N [--inclusive=yes]: top functions by cost per record
per_record() {
	local bg=$1 sm=$2 n=$3
	shift 3
	join -t "$(printf '\t')" -1 2 -2 2 -a 1 -e 0 -o 1.1,2.1,0 \
		<(fn_costs "$bg" "$@" | sort -t "$(printf '\t')" -k 2,2) \
		<(fn_costs "$sm" "$@" | sort -t "$(printf '\t')" -k 2,2) |
		awk -F '\t' -v n="$n" '{ d = ($1 - $2) / n; if (d > 0) printf "%.1f\t%s\n", d, $3 }' |
		sort -t "$(printf '\t')" -k 1,1 -g -r |
		grep -v -e 'libc-start\|libc_start_call_main\|(below main)\|trace-kmem.c:main\|ld-linux' \
			-e 'bare_loop.c:main\|clone.S\|start_thread' |
		sed -E 's#\[[^]]*/([^]/]+)\]#[\1]#; s#^([0-9.]+\t)[^ \t]*/([^/: ]+:)#\1\2#'
}
if [ "$HAVE_VALGRIND" -eq 1 ] && command -v callgrind_annotate >/dev/null; then
	src=$WORK/${sizes[0]}/trace.dat
	trace-cmd split -i "$src" -o "$WORK/mid.dat" -e "$PROFILE_EVENTS" \
		>"$WORK/split.log" 2>&1 || die "trace-cmd split failed: $(tail -n 3 "$WORK/split.log")"
	trace-cmd split -i "$src" -o "$WORK/small.dat" -e "$PROFILE_SMALL" \
		>"$WORK/split-small.log" 2>&1 || die "trace-cmd split failed: $(tail -n 3 "$WORK/split-small.log")"
	mid='' small=
	for f in "$WORK"/mid.dat*; do mid=$f; break; done
	for f in "$WORK"/small.dat*; do small=$f; break; done
	{ [ -f "$mid" ] && [ -f "$small" ]; } || die "trace-cmd split wrote no $WORK/mid.dat* or small.dat*"
	trace-cmd convert -i "$mid" -o "$WORK/mid-v6.dat" --file-version 6 >/dev/null 2>&1 ||
		die "trace-cmd convert of the first $PROFILE_EVENTS records failed"
	trace-cmd convert -i "$small" -o "$WORK/small-v6.dat" --file-version 6 >/dev/null 2>&1 ||
		die "trace-cmd convert of the first $PROFILE_SMALL records failed"
	nmid=$("$BARE" "$WORK/mid-v6.dat" | awk '{ print $1 }')
	nsmall=$("$BARE" "$WORK/small-v6.dat" | awk '{ print $1 }')
	nd=$((nmid - nsmall))
	echo
	echo "Profile (callgrind, all threads): instructions on the first $nmid and the first" \
		"$nsmall records of the ${sizes[0]} recording, and per record"
	printf '  %-6s %-32s %15s %15s %11s\n' input program "$nmid rec." "$nsmall rec." "per record"
	declare -A ir_per
	for v in v7 v6; do
		fb=$mid fs=$small
		[ $v = v6 ] && fb=$WORK/mid-v6.dat fs=$WORK/small-v6.dat
		for prog_id in tk tkl bare; do
			# libtracecmd's zstd path: see RESULTS.md
			[ $prog_id != tk ] && [ $v = v7 ] && continue
			case $prog_id in
			tk)
				set -- "$TK" stat --slab --page -o /dev/null
				name="trace-kmem stat --slab --page" ;;
			tkl)
				set -- "$TK" stat --reader=libtracecmd --slab --page -o /dev/null
				name="trace-kmem --reader=libtracecmd" ;;
			*)
				set -- "$BARE"
				name="bare libtracecmd loop" ;;
			esac
			irb=$(callgrind_ir "$WORK/cg.$prog_id.$v.big" "$@" "$fb")
			irs=$(callgrind_ir "$WORK/cg.$prog_id.$v.small" "$@" "$fs")
			ir_per[$prog_id.$v]=$(awk -v a="$irb" -v b="$irs" -v n="$nd" 'BEGIN { printf "%.0f", (a - b) / n }')
			printf '  %-6s %-32s %15d %15d %11s\n' "$v" "$name" "$irb" "$irs" "${ir_per[$prog_id.$v]}"
		done
	done
	for v in v6 v7; do
		echo "  trace-kmem stat ($v): ${ir_per[tk.$v]} instructions per record" \
			"(bare loop, v6: ${ir_per[bare.v6]}); top functions by self cost per record:"
		per_record "$WORK/cg.tk.$v.big" "$WORK/cg.tk.$v.small" "$nd" | head -n 12 |
			awk -F '\t' -v t="${ir_per[tk.$v]}" '{ printf "    %7.1f %5.1f%%  %s\n", $1, $1 * 100 / t, $2 }'
		echo "  trace-kmem stat ($v): top functions by inclusive cost per record:"
		per_record "$WORK/cg.tk.$v.big" "$WORK/cg.tk.$v.small" "$nd" --inclusive=yes |
			grep -v 'stat.c:tk_stat\|stat.c:analyse' |
			awk -F '\t' '{ k = $1 "|" $2; sub(/ \[[^]]*\]$/, "", k) } !seen[k]++' | head -n 16 |
			awk -F '\t' -v t="${ir_per[tk.$v]}" '{ printf "    %7.1f %5.1f%%  %s\n", $1, $1 * 100 / t, $2 }'
	done
	# libzstd's part of v7 (its functions have no symbols: summed by
	# library), and what is left: the same work as v6 without the reading
	zstd_per=$(per_record "$WORK/cg.tk.v7.big" "$WORK/cg.tk.v7.small" "$nd" |
		awk -F '\t' '$2 ~ /libzstd/ { s += $1 } END { printf "%.0f", s }')
	echo "  trace-kmem stat (v7): ${ir_per[tk.v7]} instructions per record: libzstd $zstd_per" \
		"(inflating the chunks), the rest $((${ir_per[tk.v7]} - zstd_per))"
	echo "Targets (issue 24), instructions:"
	verdict "$(le "${ir_per[tk.v7]}" $((IR_V7_BEFORE / 2)))" "trace-kmem stat (v7) at most half of" \
		"the $IR_V7_BEFORE instructions per record of run 13: ${ir_per[tk.v7]}" \
		"(libzstd $zstd_per, the rest $((${ir_per[tk.v7]} - zstd_per)))"
	tkl_x=$(ratio "${ir_per[tkl.v6]}" "${ir_per[bare.v6]}")
	verdict "$(le "$tkl_x" $LIBTRACECMD_IR_X_BEFORE)" "trace-kmem --reader=libtracecmd (v6) no more" \
		"instructions per record over the bare libtracecmd loop's than at issue 24's start" \
		"(${LIBTRACECMD_IR_X_BEFORE}x): ${tkl_x}x (${ir_per[tkl.v6]} vs ${ir_per[bare.v6]})"
	echo "  bare loop (v6): top functions by self cost per record:"
	per_record "$WORK/cg.bare.v6.big" "$WORK/cg.bare.v6.small" "$nd" | head -n 8 |
		awk -F '\t' -v t="${ir_per[bare.v6]}" '{ printf "    %7.1f %5.1f%%  %s\n", $1, $1 * 100 / t, $2 }'
fi
echo
echo "$prog: done in $(awk -v a="$T_START" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }') s;" \
	"load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
