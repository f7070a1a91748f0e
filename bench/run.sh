#!/bin/bash
# bench/run.sh - `make bench`: how fast is `trace-kmem stat`, against
# `perf kmem stat`, `trace-cmd mem` and a bare libtracecmd loop
# (bench/bare_loop.c, the floor for anything built on libtracecmd), on one
# workload recorded on this machine; what the plugin adds to `trace-cmd
# report` (callgrind instruction counts); and how much memory trace-kmem
# needs on a ~10-million-event trace.
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
# The trace.dat that extract writes (version 7, zstd-compressed) is also
# converted to an uncompressed version 6 file; tools that read trace.dat
# files are timed on both.  Each contender runs BENCH_RUNS times,
# interleaved (a different order each round), after one untimed warm-up
# round; medians are reported.  Peak RSS is the largest over the runs.
#
# Environment:
#   B                  build directory (default build)
#   BENCH_RUNS         timed runs per contender (default 5)
#   BENCH_ITER         workload iterations per process (default 270000:
#                      about 10 million events)
#   BENCH_BUFFER_KB    tracefs buffer per CPU in KB (default 600000)
#   BENCH_PROFILE=0    skip the callgrind profile of trace-kmem stat
#   BENCH_PROFILE_EVENTS  records in the profiled trace, also used for the
#                      memory growth comparison (default 1000000)
#   BENCH_KEEP         keep the work directory (it is printed)
#
# Needs root, tracefs, trace-cmd, perf, python3, cc, pkg-config; valgrind
# for the instruction counts; with the defaults ~1.2 GB of RAM for the ring
# buffers and ~1.8 GB in ${TMPDIR:-/tmp}.  tracefs state is saved and
# restored on every exit path.  Takes about 15 minutes on 2 cores.
# Results and their analysis: bench/RESULTS.md.
set -eu

prog=bench
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$TOP/$B ;; esac
RUNS=${BENCH_RUNS:-5}
ITER=${BENCH_ITER:-270000}
BUFKB=${BENCH_BUFFER_KB:-600000}
PROFILE=${BENCH_PROFILE:-1}
PROFILE_EVENTS=${BENCH_PROFILE_EVENTS:-1000000}
SMALL=$TOP/sample-data/slab-fork-exec.dat
T=/sys/kernel/tracing
EVENTS="kmalloc kfree kmem_cache_alloc kmem_cache_free mm_page_alloc mm_page_free"
RSS_LIMIT_MB=64
# trace-kmem stat's own choice of reading compressed files (see
# cli/uncompress.c), not the caller's
unset TRACE_KMEM_CONVERT

die() {
	echo "$prog: $*" >&2
	exit 1
}

for v in RUNS ITER BUFKB PROFILE_EVENTS; do
	case ${!v} in '' | *[!0-9]*) die "BENCH_$v must be a number" ;; esac
done
[ "$RUNS" -ge 1 ] || die "BENCH_RUNS must be at least 1"

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

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kmem-bench.XXXXXX")
export HOME=$WORK/home	# no ~/.local plugin of the user's
mkdir -p "$HOME"

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

# --- the workload: two processes, each ITER iterations of: open, read
# and close a file; a 200-byte message over a socketpair (an skb
# allocated by one, freed by the other); every 16th iteration, 256 KB of
# anonymous memory touched and unmapped (page allocations and frees).
# Then "ready" and block in open(end) until both recorders are stopped.
find /usr/share/doc /usr/share/common-licenses /etc -maxdepth 3 -type f \
	-readable -size -64k 2>/dev/null | head -n 2000 >"$WORK/files"
[ "$(wc -l <"$WORK/files")" -ge 100 ] || die "too few files for the workload"
cat >"$WORK/workload.py" <<'EOF'
import mmap, os, socket, sys
n, ready, end = int(sys.argv[1]), sys.argv[2], sys.argv[3]
files = [l.rstrip("\n") for l in open(sys.argv[4])]
a, b = socket.socketpair()
msg = b"x" * 200
anon = 256 << 10
def work(s, role):
    nf = len(files)
    for i in range(n):
        try:
            fd = os.open(files[(2 * i + role) % nf], os.O_RDONLY)
            os.read(fd, 4096)
            os.close(fd)
        except OSError:
            pass
        if role == 0:
            s.send(msg)
            s.recv(4096)
        else:
            s.recv(4096)
            s.send(msg)
        if i % 16 == role * 8:
            m = mmap.mmap(-1, anon, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            for j in range(0, anon, mmap.PAGESIZE):
                m[j] = 1
            m.close()
    with open(ready, "w") as f:
        f.write("r\n")
    open(end).close()
if os.fork() == 0:
    a.close()
    work(b, 1)
    os._exit(0)
b.close()
work(a, 0)
os.wait()
EOF

# record ITER: $WORK/trace.dat and $WORK/perf.data of the same process tree
record() {
	local iter=$1 ev='' e f n lost plost ack t0 t1 got

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
	rm -f "$WORK/gate" "$WORK/ready" "$WORK/end" "$WORK/ctl" "$WORK/ack"
	mkfifo "$WORK/gate" "$WORK/ready" "$WORK/end" "$WORK/ctl" "$WORK/ack"
	exec 8<>"$WORK/ready" 9<>"$WORK/ack"

	set -m	# own process group: cleanup can kill it all
	sh -c 'read -r _ <"$1"; shift; exec "$@"' gate "$WORK/gate" \
		"$PY" "$WORK/workload.py" "$iter" "$WORK/ready" "$WORK/end" "$WORK/files" &
	wpid=$!
	set +m
	for e in $EVENTS; do ev=$ev${ev:+,}kmem:$e; done
	perf record -q --no-buildid --no-buildid-cache -m 8192 -o "$WORK/perf.data" \
		-e "$ev" -p "$wpid" -D -1 --control "fifo:$WORK/ctl,$WORK/ack" \
		>"$WORK/perf.log" 2>&1 &
	ppid=$!

	# shellcheck disable=SC2016
	timeout 10 sh -c 'echo enable >"$1"' sh "$WORK/ctl" ||
		die "perf did not open its control fifo: $(head -n 3 "$WORK/perf.log")"
	read -r -t 10 ack <&9 || die "perf did not acknowledge enable: $(head -n 3 "$WORK/perf.log")"
	[ "$ack" = ack ] || die "perf answered '$ack' to enable"
	echo 1 >"$T/options/event-fork"
	echo "$wpid" >"$T/set_event_pid"
	for e in $EVENTS; do echo 1 >"$T/events/kmem/$e/enable"; done
	echo 1 >"$T/tracing_on"

	t0=$EPOCHREALTIME
	echo go >"$WORK/gate"
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
	trace-cmd extract -o "$WORK/trace.dat" >"$WORK/extract.log" 2>&1 ||
		die "trace-cmd extract failed: $(tail -n 3 "$WORK/extract.log")"
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

	[ "$lost" -eq 0 ] || die "tracefs lost $lost events (raise BENCH_BUFFER_KB)"
	perf report -i "$WORK/perf.data" --stats >"$WORK/perf.stats" 2>&1 ||
		die "perf report --stats failed: $(tail -n 3 "$WORK/perf.stats")"
	plost=$(awk '/LOST(_SAMPLES)? events:/ { for (i = 1; i < NF; i++) if ($i == "events:") s += $(i + 1) }
		END { print s + 0 }' "$WORK/perf.stats")
	[ "$plost" -eq 0 ] || die "perf lost $plost events"
	WORKLOAD_S=$(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }")
}

echo "$prog: recording $((2 * ITER)) workload iterations with tracefs and perf side by side"
record "$ITER"
echo "$prog: converting trace.dat to an uncompressed version 6 file"
trace-cmd convert -i "$WORK/trace.dat" -o "$WORK/trace-v6.dat" --file-version 6 \
	>"$WORK/convert.log" 2>&1 || die "trace-cmd convert failed: $(tail -n 3 "$WORK/convert.log")"
trace-cmd split -i "$WORK/trace.dat" -o "$WORK/mid.dat" -e "$PROFILE_EVENTS" \
	>"$WORK/split.log" 2>&1 || die "trace-cmd split failed: $(tail -n 3 "$WORK/split.log")"
mid=
for f in "$WORK"/mid.dat*; do mid=$f; break; done
[ -f "$mid" ] || die "trace-cmd split wrote no $WORK/mid.dat*"
trace-cmd convert -i "$mid" -o "$WORK/mid-v6.dat" --file-version 6 >/dev/null 2>&1 ||
	die "trace-cmd convert of the first $PROFILE_EVENTS records failed"

# --- event counts
N_TRACE=$("$BARE" "$WORK/trace.dat" | awk '{ print $1 }')
N_TRACE6=$("$BARE" "$WORK/trace-v6.dat" | awk '{ print $1 }')
[ "$N_TRACE" = "$N_TRACE6" ] || die "trace.dat has $N_TRACE records, its v6 copy $N_TRACE6"
N_PERF=$(awk '/^ *SAMPLE events:/ { print $3; exit }' "$WORK/perf.stats")
"$TK" stat --slab --page --json="$WORK/tk.json" "$WORK/trace.dat" >/dev/null 2>"$WORK/tk.err" ||
	die "trace-kmem stat --json failed: $(tail -n 3 "$WORK/tk.err")"
read -r TK_SLAB TK_PAGE TK_LOST TK_LIVE TK_PLIVE TK_CS TK_PCS TK_PTRS < <("$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
s, p = d["slab"], d["page"]
print(s["events"], p["events"], d["events_lost"] + d["lost_unknown"],
      s["summary"]["live"]["count"], p["summary"]["live"]["count"],
      len(s["callsites"]), len(p["callsites"]), len(s["allocs"]))' "$WORK/tk.json")
echo
echo "Recording: workload ran ${WORKLOAD_S}s; $N_TRACE records in trace.dat" \
	"(trace-kmem: slab $TK_SLAB, page $TK_PAGE, lost $TK_LOST), $N_PERF samples in perf.data"
for e in $EVENTS; do
	printf '  kmem:%-18s perf %s\n' "$e" "$(awk -v n="kmem:$e" '$1 == n && $2 == "stats:" { getline; print $3; exit }' "$WORK/perf.stats")"
done
printf 'Sizes: trace.dat %s MB (v7, zstd), trace-v6.dat %s MB (v6, uncompressed), perf.data %s MB\n' \
	"$(du -m "$WORK/trace.dat" | cut -f1)" "$(du -m "$WORK/trace-v6.dat" | cut -f1)" \
	"$(du -m "$WORK/perf.data" | cut -f1)"
d=$((N_TRACE > N_PERF ? N_TRACE - N_PERF : N_PERF - N_TRACE))
[ $((d * 100)) -le "$N_TRACE" ] ||
	echo "$prog: warning: trace.dat and perf.data differ by more than 1% ($N_TRACE, $N_PERF)"

# --- timing
# contender: id, label, input label, number of events, command
ids=(tk tk6 bare bare6 perf tcmem tcmem6)
declare -A label input nev cmd
label[tk]="trace-kmem stat"; input[tk]="trace.dat v7 zstd"; nev[tk]=$N_TRACE
cmd[tk]="$TK stat --slab --page -o /dev/null $WORK/trace.dat"
label[tk6]="trace-kmem stat"; input[tk6]="trace.dat v6"; nev[tk6]=$N_TRACE
cmd[tk6]="$TK stat --slab --page -o /dev/null $WORK/trace-v6.dat"
label[bare]="bare libtracecmd loop"; input[bare]="trace.dat v7 zstd"; nev[bare]=$N_TRACE
cmd[bare]="$BARE $WORK/trace.dat"
label[bare6]="bare libtracecmd loop"; input[bare6]="trace.dat v6"; nev[bare6]=$N_TRACE
cmd[bare6]="$BARE $WORK/trace-v6.dat"
label[perf]="perf kmem stat"; input[perf]="perf.data"; nev[perf]=$N_PERF
cmd[perf]="perf kmem --slab --page -i $WORK/perf.data stat"
label[tcmem]="trace-cmd mem"; input[tcmem]="trace.dat v7 zstd"; nev[tcmem]=$N_TRACE
cmd[tcmem]="trace-cmd mem -i $WORK/trace.dat"
label[tcmem6]="trace-cmd mem"; input[tcmem6]="trace.dat v6"; nev[tcmem6]=$N_TRACE
cmd[tcmem6]="trace-cmd mem -i $WORK/trace-v6.dat"

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

# run_one ID: one run; appends "ID SECONDS RSS_KB CPU_SECONDS" to $WORK/times
run_one() {
	local id=$1
	# shellcheck disable=SC2086
	measure ${cmd[$id]}
	[ "$M_RC" -eq 0 ] || die "${label[$id]} (${input[$id]}) failed with status $M_RC: $(tail -n 3 "$WORK/err")"
	echo "$id $M_SECS $M_RSS $M_CPU" >>"$WORK/times"
}

echo
echo "$prog: timing ${#ids[@]} contenders, $RUNS runs each (after one warm-up round)"
for id in "${ids[@]}"; do run_one "$id"; done
: >"$WORK/times"
for ((r = 0; r < RUNS; r++)); do
	for ((k = 0; k < ${#ids[@]}; k++)); do
		run_one "${ids[$(((k + r) % ${#ids[@]}))]}"
	done
	printf '.'
done
echo

median() {	# median ID: the median of ID's times
	awk -v id="$1" '$1 == id { print $2 }' "$WORK/times" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
maxrss() {	# maxrss ID: the largest peak RSS of ID's runs, KB
	awk -v id="$1" '$1 == id && $3 > m { m = $3 } END { print m + 0 }' "$WORK/times"
}
cpu_median() {	# cpu_median ID: the median of ID's CPU times
	awk -v id="$1" '$1 == id { print $4 }' "$WORK/times" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
declare -A med rss cpu
for id in "${ids[@]}"; do
	med[$id]=$(median "$id")
	cpu[$id]=$(cpu_median "$id")
	rss[$id]=$(maxrss "$id")
done
range() {	# range ID: min-max of ID's times
	awk -v id="$1" '$1 == id { if (n++ == 0 || $2 < lo) lo = $2; if ($2 > hi) hi = $2 }
		END { printf "%.2f-%.2f", lo, hi }' "$WORK/times"
}

echo
printf '%-22s %-18s %11s %9s %13s %12s %11s %8s %9s\n' tool input events "median s" "range s" "M events/s" \
	"tk speedup" "CPU s" "RSS MB"
for id in "${ids[@]}"; do
	ref=tk
	case ${input[$id]} in *v6*) ref=tk6 ;; esac
	[ "$id" = perf ] && ref=tk
	awk -v l="${label[$id]}" -v i="${input[$id]}" -v n="${nev[$id]}" -v t="${med[$id]}" \
		-v rg="$(range "$id")" -v tn="${nev[$ref]}" -v tt="${med[$ref]}" -v m="${rss[$id]}" \
		-v c="${cpu[$id]}" 'BEGIN {
		printf "%-22s %-18s %11d %9.3f %13s %12.2f %10.2fx %8.2f %9.1f\n",
			l, i, n, t, rg, n / t / 1e6, (tn / tt) / (n / t), c, m / 1024 }'
done
echo "(median s: wall time; tk speedup: trace-kmem stat's events/s over the row's, on the same"
echo " kind of input; perf kmem stat is compared with trace-kmem on the compressed trace.dat;"
echo " CPU s: median user + system time, all threads and child processes)"

# --- targets
echo
verdict() {	# verdict OK TEXT
	if [ "$1" -eq 1 ]; then echo "MET      $2"; else echo "NOT MET  $2"; fi
}
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }' && echo 1 || echo 0; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }' && echo 1 || echo 0; }
eps() { awk -v n="${nev[$1]}" -v t="${med[$1]}" 'BEGIN { printf "%.4f", n / t / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "Targets:"
for ref in tk tk6; do
	for o in perf tcmem; do
		[ "$o" = tcmem ] && [ "$ref" = tk6 ] && o=tcmem6
		r=$(ratio "$(eps "$ref")" "$(eps "$o")")
		verdict "$(ge "$r" 1.5)" "trace-kmem stat (${input[$ref]}) >= 1.5x the events/s of ${label[$o]} (${input[$o]}): ${r}x"
	done
done
for p in "tk bare" "tk6 bare6"; do
	read -r a b <<<"$p"
	r=$(ratio "${med[$a]}" "${med[$b]}")
	verdict "$(le "$r" 1.2)" "trace-kmem stat within 1.2x of the bare libtracecmd loop's time (${input[$a]}): ${r}x"
	awk -v a="${med[$a]}" -v b="${med[$b]}" -v n="$N_TRACE" 'BEGIN {
		if (a < b)
			printf "         (the bare loop is the slower one here: libtracecmd'"'"'s own reading dominates both)\n"
		else
			printf "         (trace-kmem'"'"'s own work: %.0f ns per record above the floor)\n", (a - b) * 1e9 / n }'
done

# --- memory: peak RSS of trace-kmem stat on this trace and on its first
# PROFILE_EVENTS records; the bare loop's is libtracecmd's own floor
nmid=$("$BARE" "$mid" | awk '{ print $1 }')
declare -A rss_mid
for id in tk tk6 bare bare6; do
	f=$mid
	case ${input[$id]} in *v6*) f=$WORK/mid-v6.dat ;; esac
	# shellcheck disable=SC2086
	measure ${cmd[$id]%" "*} "$f"
	[ "$M_RC" -eq 0 ] || die "${label[$id]} on $f failed: $(tail -n 3 "$WORK/err")"
	rss_mid[$id]=$M_RSS
done
kb2mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
echo
printf 'Peak RSS, MB:                                %18s %18s\n' "first $nmid" "all $N_TRACE"
printf '                                             %18s %18s\n' "records ($(du -m "$mid" | cut -f1) MB v7)" \
	"records ($(du -m "$WORK/trace.dat" | cut -f1) MB v7)"
for id in tk tk6 bare bare6; do
	printf '  %-42s %18s %18s\n' "${label[$id]} (${input[$id]})" "$(kb2mb "${rss_mid[$id]}")" \
		"$(kb2mb "${rss[$id]}")"
done
echo "  at the end of the trace: $TK_LIVE live slab objects, $TK_PLIVE live pages," \
	"$TK_CS slab + $TK_PCS page call sites, $TK_PTRS slab pointers in the allocation table"
echo "  (the bare loop's peak RSS is libtracecmd's: the pages it maps from a v6 file, the"
echo "   chunks it decompresses from a v7 one, all kept to the end)"
for id in tk tk6; do
	[ "${rss_mid[$id]}" -lt $((RSS_LIMIT_MB * 1024)) ] ||
		echo "NOTE     trace-kmem stat (${input[$id]}) peak RSS on the first $nmid records:" \
			"$(kb2mb "${rss_mid[$id]}") MB, over $RSS_LIMIT_MB MB"
done
mb=$(kb2mb "${rss[tk]}")
mb6=$(kb2mb "${rss[tk6]}")
big=$(awk -v n="$N_TRACE" 'BEGIN { print (n >= 9500000) }')
verdict "$(awk -v a="${rss[tk]}" -v b="${rss[tk6]}" -v big="$big" -v l=$RSS_LIMIT_MB \
	'BEGIN { print (big && a < l * 1024 && b < l * 1024) ? 1 : 0 }')" \
	"trace-kmem stat peak RSS under $RSS_LIMIT_MB MB on a $N_TRACE-event trace: $mb MB (v7), $mb6 MB (v6)$([ "$big" -eq 1 ] || echo "; trace has fewer than ~10M events: raise BENCH_ITER")"

# --- instruction counts: trace-cmd report without and with the plugin
callgrind_ir() {	# callgrind_ir OUT CMD...: instructions counted
	local out=$1
	shift
	valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>"$out.log" ||
		die "valgrind $* failed: $(tail -n 3 "$out.log")"
	awk '/Collected :/ { print $NF }' "$out.log"
}
if [ "$HAVE_VALGRIND" -eq 1 ]; then
	echo
	echo "Instructions (valgrind --tool=callgrind) of trace-cmd report on ${SMALL#"$TOP"/}" \
		"($("$BARE" "$SMALL" | awk '{ print $1 }') records):"
	ir0=$(callgrind_ir "$WORK/cg.stock" trace-cmd report -i "$SMALL")
	ir1=$(TRACEEVENT_PLUGIN_DIR=$B/plugins callgrind_ir "$WORK/cg.listing" trace-cmd report -i "$SMALL")
	ir2=$(TRACEEVENT_PLUGIN_DIR=$B/plugins callgrind_ir "$WORK/cg.stat" \
		trace-cmd report -i "$SMALL" -O kmem:stat)
	pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f", (a - b) * 100 / b }'; }
	printf '  %-58s %15d\n' "trace-cmd report (stock plugins)" "$ir0"
	printf '  %-58s %15d  %s%%\n' "trace-cmd report, this plugin (listing only)" "$ir1" "$(pct "$ir1" "$ir0")"
	printf '  %-58s %15d  %s%%\n' "trace-cmd report -O kmem:stat, this plugin" "$ir2" "$(pct "$ir2" "$ir0")"
	verdict "$(awk -v a="$ir2" -v b="$ir0" 'BEGIN { print (a <= b * 1.05) }')" \
		"the plugin adds at most 5% instructions to trace-cmd report (-O kmem:stat): $(pct "$ir2" "$ir0")%"
else
	echo "$prog: valgrind not installed: no instruction counts (apt-get install valgrind)"
fi

# --- where trace-kmem stat's time goes, per record: callgrind (all
# threads) on the first PROFILE_EVENTS records and on the first
# PROFILE_SMALL; the difference, divided by the difference in records, is
# the cost of a record without opening the file (parsing the formats and
# the stored kallsyms) or printing.  The compressed file is read directly
# (TRACE_KMEM_CONVERT=never: valgrind does not follow trace-cmd convert).
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
	local big=$1 small=$2 n=$3
	shift 3
	join -t "$(printf '\t')" -1 2 -2 2 -a 1 -e 0 -o 1.1,2.1,0 \
		<(fn_costs "$big" "$@" | sort -t "$(printf '\t')" -k 2,2) \
		<(fn_costs "$small" "$@" | sort -t "$(printf '\t')" -k 2,2) |
		awk -F '\t' -v n="$n" '{ d = ($1 - $2) / n; if (d > 0) printf "%.1f\t%s\n", d, $3 }' |
		sort -t "$(printf '\t')" -k 1,1 -g -r |
		grep -v -e 'libc-start\|libc_start_call_main\|(below main)\|trace-kmem.c:main\|ld-linux' \
			-e 'bare_loop.c:main\|clone.S\|start_thread' |
		sed -E 's#\[[^]]*/([^]/]+)\]#[\1]#; s#^([0-9.]+\t)[^ \t]*/([^/: ]+:)#\1\2#'
}
if [ "$PROFILE" = 1 ] && [ "$HAVE_VALGRIND" -eq 1 ] && command -v callgrind_annotate >/dev/null; then
	trace-cmd split -i "$WORK/trace.dat" -o "$WORK/small.dat" -e "$PROFILE_SMALL" \
		>"$WORK/split-small.log" 2>&1 || die "trace-cmd split failed: $(tail -n 3 "$WORK/split-small.log")"
	small=
	for f in "$WORK"/small.dat*; do small=$f; break; done
	[ -f "$small" ] || die "trace-cmd split wrote no $WORK/small.dat*"
	trace-cmd convert -i "$small" -o "$WORK/small-v6.dat" --file-version 6 >/dev/null 2>&1 ||
		die "trace-cmd convert of the first $PROFILE_SMALL records failed"
	nsmall=$("$BARE" "$small" | awk '{ print $1 }')
	nd=$((nmid - nsmall))
	export TRACE_KMEM_CONVERT=never
	echo
	echo "Profile (callgrind, all threads): instructions on the first $nmid and the first" \
		"$nsmall records, and per record"
	printf '  %-6s %-32s %15s %15s %11s\n' input program "$nmid rec." "$nsmall rec." "per record"
	declare -A ir_per
	for v in v7 v6; do
		fb=$mid fs=$small
		[ $v = v6 ] && fb=$WORK/mid-v6.dat fs=$WORK/small-v6.dat
		for prog_id in tk bare; do
			if [ $prog_id = tk ]; then
				set -- "$TK" stat --slab --page -o /dev/null
				name="trace-kmem stat --slab --page"
			else
				set -- "$BARE"
				name="bare libtracecmd loop"
			fi
			irb=$(callgrind_ir "$WORK/cg.$prog_id.$v.big" "$@" "$fb")
			irs=$(callgrind_ir "$WORK/cg.$prog_id.$v.small" "$@" "$fs")
			ir_per[$prog_id.$v]=$(awk -v a="$irb" -v b="$irs" -v n="$nd" 'BEGIN { printf "%.0f", (a - b) / n }')
			printf '  %-6s %-32s %15d %15d %11s\n' "$v" "$name" "$irb" "$irs" "${ir_per[$prog_id.$v]}"
		done
	done
	unset TRACE_KMEM_CONVERT
	for v in v6 v7; do
		echo "  trace-kmem stat ($v): ${ir_per[tk.$v]} instructions per record" \
			"(bare loop: ${ir_per[bare.$v]}); top functions by self cost per record:"
		per_record "$WORK/cg.tk.$v.big" "$WORK/cg.tk.$v.small" "$nd" | head -n 12 |
			awk -F '\t' -v t="${ir_per[tk.$v]}" '{ printf "    %7.1f %5.1f%%  %s\n", $1, $1 * 100 / t, $2 }'
		echo "  trace-kmem stat ($v): top functions by inclusive cost per record:"
		per_record "$WORK/cg.tk.$v.big" "$WORK/cg.tk.$v.small" "$nd" --inclusive=yes |
			grep -v 'stat.c:tk_stat\|stat.c:analyse' |
		awk -F '\t' '{ k = $1 "|" $2; sub(/ \[[^]]*\]$/, "", k) } !seen[k]++' | head -n 16 |
			awk -F '\t' -v t="${ir_per[tk.$v]}" '{ printf "    %7.1f %5.1f%%  %s\n", $1, $1 * 100 / t, $2 }'
	done
	echo "  bare loop (v6): top functions by self cost per record:"
	per_record "$WORK/cg.bare.v6.big" "$WORK/cg.bare.v6.small" "$nd" | head -n 8 |
		awk -F '\t' -v t="${ir_per[bare.v6]}" '{ printf "    %7.1f %5.1f%%  %s\n", $1, $1 * 100 / t, $2 }'
fi
