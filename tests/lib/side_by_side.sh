# Sourced by tests/e2e/perf_compare.sh and perf_page_compare.sh, after
# common.sh: records one workload with tracefs (set_event_pid +
# options/event-fork, then trace-cmd extract, the way sample-data/record.sh
# does) and with `perf record -p` at the same time, so that both recordings
# hold the same events.  The method is described in perf_compare.sh.
#
# The test sets, before calling these:
#   name   its result name (skip_out and die_fail report under it)
#   T      the tracefs mount, /sys/kernel/tracing
#   WORK   (common.sh) where everything is written
# and calls, in this order:
#   sbs_events SYSTEM EVENT...    the tracefs events both record
#   sbs_check_tracefs             SKIPs unless root, perf, trace-cmd,
#                                 python3, tracefs and the events are there
#   (its own check that nobody else is using tracefs)
#   sbs_check_perf                SKIPs unless perf record has --control
#                                 and can record SYSTEM:(first EVENT)
#   sbs_prepare KEEPVAR           saves the tracefs state it changes and
#                                 restores it on every exit path (EXIT, INT
#                                 and TERM traps), which also kill what was
#                                 started and, if the environment variable
#                                 named KEEPVAR is set, copy $WORK there;
#                                 sets up tracefs and the fifos (file
#                                 descriptors 8 and 9 stay open on them;
#                                 sbs_record uses 7 too)
#   (writes its workload: each process of it writes one line to
#   $WORK/ready when done, then blocks in open($WORK/end) and ends when
#   that opens)
#   sbs_start_workload ARG...     starts `sh ARG...` (in its own process
#                                 group), held on a gate, and perf record
#                                 -p on it, events disabled
#   sbs_record NREADY TIMEOUT     enables perf, then tracefs, releases the
#                                 workload, waits (TIMEOUT seconds at most
#                                 each) for NREADY lines on $WORK/ready,
#                                 stops both recorders, extracts
#                                 $WORK/trace.dat, lets the workload go,
#                                 reaps it and perf ($WORK/perf.data), and
#                                 fails if either recorder lost events
# shellcheck shell=bash disable=SC2154  # name, T: set by the test

skip_out() { skip "$name" "$1"; exit 0; }
die_fail() { fail "$name" "$1"; finish; }

# sbs_events SYSTEM EVENT...
sbs_events() {
	sbs_system=$1
	shift
	sbs_event_names=("$@")
}

sbs_check_tracefs() {
	local e
	[ "$(id -u)" -eq 0 ] || skip_out "not root"
	command -v perf >/dev/null || skip_out "perf not installed"
	command -v trace-cmd >/dev/null || skip_out "trace-cmd not installed"
	command -v python3 >/dev/null || skip_out "python3 not installed"
	if [ ! -w "$T/tracing_on" ]; then
		mount -t tracefs nodev "$T" 2>/dev/null || true
		[ -w "$T/tracing_on" ] || skip_out "tracefs not usable at $T"
	fi
	for e in "${sbs_event_names[@]}"; do
		[ -w "$T/events/$sbs_system/$e/enable" ] || skip_out "no tracefs event $sbs_system/$e"
	done
}

sbs_check_perf() {
	local ev=$sbs_system:${sbs_event_names[0]}
	perf record -h 2>&1 | grep -q -- '--control' ||
		skip_out "this perf record has no --control (perf 5.10 or later needed)"
	perf record -q --no-buildid -o "$WORK/probe.data" -e "$ev" -- true \
		>"$WORK/probe.log" 2>&1 ||
		skip_out "perf record -e $ev does not work: $(head -n 1 "$WORK/probe.log")"
}

# sbs_prepare KEEPVAR
sbs_prepare() {
	local e
	sbs_keep_var=$1
	# tracefs state we change, and its restoration on every exit path.
	sbs_old_on=$(cat "$T/tracing_on")
	sbs_old_fork=$(cat "$T/options/event-fork")
	sbs_old_buf=$(cat "$T/buffer_size_kb")
	case $sbs_old_buf in
	*expanded:*) sbs_old_buf=${sbs_old_buf##*expanded: }; sbs_old_buf=${sbs_old_buf%%)*} ;;
	*[!0-9]*) sbs_old_buf= ;;	# per-CPU sizes differ: leave them
	esac
	declare -gA sbs_old_en=()
	for e in "${sbs_event_names[@]}"; do
		sbs_old_en[$e]=$(cat "$T/events/$sbs_system/$e/enable")
	done
	sbs_wpid='' sbs_ppid=''
	trap sbs_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM

	echo 0 >"$T/tracing_on"
	: >"$T/trace"
	echo 20000 >"$T/buffer_size_kb" || die_fail "cannot set buffer_size_kb"
	: >"$T/set_event_pid"

	mkfifo "$WORK/gate" "$WORK/ready" "$WORK/end" "$WORK/ctl" "$WORK/ack"
	exec 8<>"$WORK/ready" 9<>"$WORK/ack"
}

sbs_cleanup() {
	local rc=$? e
	set +e
	echo 0 >"$T/tracing_on"
	for e in "${!sbs_old_en[@]}"; do
		case ${sbs_old_en[$e]} in 1) echo 1 ;; *) echo 0 ;; esac >"$T/events/$sbs_system/$e/enable"
	done
	: >"$T/set_event_pid"
	echo "$sbs_old_fork" >"$T/options/event-fork"
	: >"$T/trace"
	[ -z "$sbs_old_buf" ] || echo "$sbs_old_buf" >"$T/buffer_size_kb"
	echo "$sbs_old_on" >"$T/tracing_on"
	# only what we started: the workload's process group, perf
	[ -z "$sbs_wpid" ] || kill -KILL -- -"$sbs_wpid" 2>/dev/null
	[ -z "$sbs_ppid" ] || kill -INT "$sbs_ppid" 2>/dev/null
	[ -z "$sbs_ppid" ] || wait "$sbs_ppid" 2>/dev/null
	if [ -n "${!sbs_keep_var:-}" ]; then
		mkdir -p "${!sbs_keep_var}" && cp -r "$WORK"/. "${!sbs_keep_var}"/
	fi
	rm -rf "$WORK"
	exit $rc
}

# sbs_start_workload ARG...: `sh ARG...`, once $WORK/gate is written
sbs_start_workload() {
	local ev='' e
	set -m	# own process group for the workload: cleanup can kill it all
	sh -c 'read -r _ <"$1"; shift; exec sh "$@"' gate "$WORK/gate" "$@" &
	sbs_wpid=$!
	set +m

	for e in "${sbs_event_names[@]}"; do ev=$ev${ev:+,}$sbs_system:$e; done
	perf record -q --no-buildid --no-buildid-cache -m 4096 -o "$WORK/perf.data" \
		-e "$ev" \
		-p "$sbs_wpid" -D -1 --control "fifo:$WORK/ctl,$WORK/ack" \
		>"$WORK/perf.log" 2>&1 &
	sbs_ppid=$!
}

# sbs_record NREADY TIMEOUT
sbs_record() {
	local nready=$1 wait_s=$2 ack e f n lost plost

	# enable perf and wait for its acknowledgement
	timeout 10 sh -c 'echo enable >"$1"' sh "$WORK/ctl" || die_fail "perf did not open its control fifo: $(head -n 3 "$WORK/perf.log")"
	read -r -t 10 ack <&9 || die_fail "perf did not acknowledge enable: $(head -n 3 "$WORK/perf.log")"
	[ "$ack" = ack ] || die_fail "perf answered '$ack' to enable"

	echo 1 >"$T/options/event-fork"
	echo "$sbs_wpid" >"$T/set_event_pid"
	for e in "${sbs_event_names[@]}"; do echo 1 >"$T/events/$sbs_system/$e/enable"; done
	echo 1 >"$T/tracing_on"

	echo go >"$WORK/gate"	# release the workload
	n=0
	while [ $n -lt "$nready" ]; do
		read -r -t "$wait_s" _ <&8 || die_fail "workload did not finish (got $n of $nready ready)"
		n=$((n + 1))
	done
	# the last "ready" writer still has to close the fifo and block in open(end)
	sleep 0.5

	# stop both recorders while every process of the workload is blocked
	echo disable >"$WORK/ctl"
	read -r -t 10 ack <&9 || die_fail "perf did not acknowledge disable"
	echo 0 >"$T/tracing_on"
	for e in "${sbs_event_names[@]}"; do echo 0 >"$T/events/$sbs_system/$e/enable"; done

	lost=0
	for f in "$T"/per_cpu/cpu*/stats; do
		n=$(awk '/^overrun:/ { o = $2 } /^dropped events:/ { d = $3 } END { print o + d }' "$f")
		lost=$((lost + n))
	done
	trace-cmd extract -o "$WORK/trace.dat" >"$WORK/extract.log" 2>&1 ||
		die_fail "trace-cmd extract failed: $(tail -n 3 "$WORK/extract.log")"

	# let the workload go: opening end (read-write: never blocks) frees the
	# processes blocked in open (a sh `read <end` then reads EOF when it is
	# closed); then perf sees its target exit and ends.
	exec 7<>"$WORK/end"
	exec 7>&-
	wait "$sbs_wpid" 2>/dev/null
	sbs_wpid=
	for _ in $(seq 50); do kill -0 "$sbs_ppid" 2>/dev/null || break; sleep 0.1; done
	kill -INT "$sbs_ppid" 2>/dev/null
	wait "$sbs_ppid" 2>/dev/null
	sbs_ppid=

	[ "$lost" -eq 0 ] || die_fail "tracefs lost $lost events (buffer too small?)"

	perf report -i "$WORK/perf.data" --stats >"$WORK/perf.stats" 2>&1
	plost=$(awk '/LOST(_SAMPLES)? events:/ { for (i = 1; i < NF; i++) if ($i == "events:") s += $(i + 1) }
		END { print s + 0 }' "$WORK/perf.stats")
	[ "$plost" -eq 0 ] || die_fail "perf lost $plost events"
}

# sbs_within WHAT NAME1 A NAME2 B: PASS if A and B (A not 0) agree within
# 0.1% (|A - B| * 1000 <= max(A, B)), else FAIL, naming both.
sbs_within() {
	local what=$1 n1=$2 a=$3 n2=$4 b=$5 d m
	d=$((a > b ? a - b : b - a))
	m=$((a > b ? a : b))
	if [ "$a" -eq 0 ]; then
		fail "$name-$what" "$n1 counted nothing ($n1 $a, $n2 $b)"
	elif [ $((d * 1000)) -le "$m" ]; then
		pass "$name-$what $n1 $a $n2 $b"
	else
		fail "$name-$what" "$n1 $a $n2 $b differ by more than 0.1%"
	fi
}
