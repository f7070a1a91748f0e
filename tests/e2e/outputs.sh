#!/bin/bash
# Where reports go (lib/output.c): files are written to a temporary file
# beside them and renamed at the end, so a full disk leaves the old file
# (or none) and no half file; every output is opened before any input is
# read, so a bad path costs one line and nothing else; /dev/stdout,
# /dev/fd/N and the file stdout already writes go through the open
# stream and are never truncated under it (trace-cmd report's listing).
set -u
. "$(dirname "$0")/../lib/common.sh"
tracefs_lock

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
f=$(smallest_sample)
[ -n "$f" ] || { fail outputs "no sample-data/*.dat"; finish; }

# one_error NAME WANT CMD...: exit 2, nothing on stdout, one line with WANT
one_error() {
	local name=$1 want=$2 rc
	shift 2
	"$@" >"$WORK/e.out" 2>"$WORK/e.err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ ! -s "$WORK/e.out" ] && [ "$(wc -l <"$WORK/e.err")" -eq 1 ] &&
		grep -q -- "$want" "$WORK/e.err"; then
		pass "$name"
	else
		fail "$name" "exit $rc: $(head -c 300 "$WORK/e.out" "$WORK/e.err")"
	fi
}

# --- a path that cannot be written: before anything is read or printed
one_error outputs-bad-json "cannot write JSON '/proc/nope/x.json'" \
	"$TK" stat --json=/proc/nope/x.json "$f"
one_error outputs-bad-output "cannot write output '/proc/nope/x'" \
	"$TK" stat -o /proc/nope/x "$f"
# the plugin cannot stop trace-cmd: a JSON path it cannot write is said,
# and the tables still come (a bad output= path has nowhere to put them)
TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -i "$f" -O kmem:stat \
	-O kmem:json=/proc/nope/x.json >"$WORK/pj.out" 2>"$WORK/pj.err"
check outputs-plugin-bad-json-said grep -q "^kmem: cannot write JSON '/proc/nope/x.json'" "$WORK/pj.err"
check outputs-plugin-bad-json-tables grep -q '^ kmem statistics' "$WORK/pj.out"
# ... checked before the inputs: no input is even opened
strace -f -e trace=openat -o "$WORK/st.log" "$TK" stat --json=/proc/nope/x "$f" >/dev/null 2>&1
check outputs-bad-path-no-input-read bash -c "! grep -q '$(basename "$f")' '$WORK/st.log'"
if [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing/instances ]; then
	one_error outputs-live-bad-output "cannot write output '/proc/nope/x'" \
		"$TK" live -d 30 -o /proc/nope/x
else
	skip outputs-live-bad-output "needs root and tracefs"
fi

# --- an output that names the input (or another name of it): refused,
# the trace untouched; every output option, trace-kmem and the plugin
cp "$f" "$WORK/in.dat"
ln -s "$WORK/in.dat" "$WORK/in-link.dat"
for o in "output|-o $WORK/in.dat" "json|--json=$WORK/in.dat" "csv|--csv $WORK/in.dat" \
	"folded|--folded=$WORK/in.dat" "pprof|--pprof $WORK/in.dat" "rows|--rows $WORK/in.dat" \
	"symlink|-o $WORK/in-link.dat"; do
	# shellcheck disable=SC2086
	one_error "outputs-over-input-${o%%|*}" "is the input file '$WORK/in.dat': it would be overwritten" \
		"$TK" stat ${o#*|} "$WORK/in.dat"
done
one_error outputs-over-input-diff "is the input file" "$TK" diff -o "$WORK/in.dat" "$f" "$WORK/in.dat"
one_error outputs-over-input-plot "is the input file" "$TK" plot -o "$WORK/in.dat" "$WORK/in.dat"
for o in output json csv rows; do
	TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -i "$WORK/in.dat" -O kmem:stat \
		-O "kmem:$o=$WORK/in.dat" >/dev/null 2>"$WORK/p.err"
	check "outputs-over-input-plugin-$o" grep -q "^kmem: $o '$WORK/in.dat' is the input file" "$WORK/p.err"
done
# ... the second of two inputs: the first input's outputs are opened
# before the second is, and were renamed over it
cp "$f" "$WORK/in2.dat"
TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -i "$WORK/in.dat" -i "$WORK/in2.dat" \
	-O kmem:stat -O "kmem:output=$WORK/in2.dat" >/dev/null 2>"$WORK/p.err"
check outputs-over-second-input-plugin-said grep -q "^kmem: output '$WORK/in2.dat' is the input file" "$WORK/p.err"
check outputs-over-second-input-plugin-once test "$(wc -l <"$WORK/p.err")" -eq 1
check outputs-over-second-input-untouched cmp -s "$f" "$WORK/in2.dat"
check outputs-over-input-untouched cmp -s "$f" "$WORK/in.dat"

# --- two outputs naming one file: refused (the last renamed won), but
# stdout may take two
one_error outputs-two-to-one-file "json and csv both name '$WORK/two.out'" \
	"$TK" stat --json="$WORK/two.out" --csv="$WORK/two.out" "$f"
one_error outputs-two-to-one-file-plot "output and json both name" \
	"$TK" plot -o "$WORK/two.svg" --json="$WORK/two.svg" "$f"
check outputs-two-to-one-file-none-written test ! -e "$WORK/two.out" -a ! -e "$WORK/two.svg"
"$TK" stat -o - --json=- "$f" >/dev/null
check outputs-two-to-stdout test $? -eq 0
TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -i "$f" -O kmem:stat -O "kmem:json=$WORK/two.out" \
	-O "kmem:csv=$WORK/two.out" >/dev/null 2>"$WORK/p.err"
check outputs-two-to-one-file-plugin grep -q "^kmem: json and csv both name" "$WORK/p.err"

# --- a file name with an escape sequence: '?' in the title (trace-kmem
# and the plugin), nothing for a terminal to act on
cp "$f" "$WORK/$(printf 'e\033[31mx.dat')"
"$TK" stat "$WORK/$(printf 'e\033[31mx.dat')" >"$WORK/esc.out"
check outputs-escape-in-name-title grep -q '^ kmem statistics: .*e?\[31mx.dat$' "$WORK/esc.out"
TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -i "$WORK/$(printf 'e\033[31mx.dat')" \
	-O kmem:stat 2>/dev/null | grep 'kmem statistics' >"$WORK/esc-p.out"
check outputs-escape-in-name-plugin-title grep -q 'e?\[31mx.dat$' "$WORK/esc-p.out"

# --- a closed stdout or stderr: no output file takes its descriptor
"$TK" stat --json="$WORK/closed.json" "$f" >&- 2>"$WORK/closed.err"
check outputs-closed-stdout-exit-2 test $? -eq 2
check outputs-closed-stdout-said grep -q "error writing output '-'" "$WORK/closed.err"
check outputs-closed-stdout-no-file test ! -e "$WORK/closed.json"
cp "$TOP/sample-data/slab-pingpong.dat" "$WORK/cut.dat"
truncate -s $(($(stat -c %s "$WORK/cut.dat") - 3000)) "$WORK/cut.dat"
"$TK" stat --json="$WORK/cut.json" -o /dev/null "$WORK/cut.dat" 2>&-
check outputs-closed-stderr-exit-0 test $? -eq 0
check outputs-closed-stderr-json-whole python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$WORK/cut.json"
"$TK" topology >&-
check outputs-topology-closed-stdout-exit-2 test $? -eq 2
"$TK" topology -o - >"$WORK/topo.out"
check outputs-topology-dash-is-stdout grep -q '^# trace-kmem topology' "$WORK/topo.out"
(echo BEFORE; "$TK" topology -o /dev/stdout; echo AFTER) >"$WORK/topo2.out"
check outputs-topology-dev-stdout-not-truncated sh -c "head -1 '$WORK/topo2.out' | grep -qx BEFORE && tail -1 '$WORK/topo2.out' | grep -qx AFTER"
"$TK" topology -o /dev/full 2>"$WORK/topo.err"
check outputs-topology-full-said sh -c "test $? -eq 2 && grep -q 'error writing topology' '$WORK/topo.err'"

# held CMD...: run CMD with its standard output to a FIFO nobody reads,
# until it is held writing its tables (a full pipe: it is writing its
# report, its outputs open); $pid is then its pid ("" if it never was),
# and release() drains the FIFO, waits, and leaves its status in
# $WORK/held.rc as python3 gives it (-N: ended by signal N)
mkfifo "$WORK/fifo"
held() {
	python3 -c 'import subprocess, sys
r = subprocess.run(sys.argv[2:]).returncode
open(sys.argv[1], "w").write(str(r))' "$WORK/held.rc" "$@" >"$WORK/fifo" \
		2>"$WORK/held.err" &
	exec 3<"$WORK/fifo"
	for i in $(seq 300); do
		pid=$(pgrep -f "^$1 $2 $3 $4" | head -n 1)
		[ -n "$pid" ] && grep -q pipe_write "/proc/$pid/wchan" 2>/dev/null && return
		sleep 0.1
	done
	pid=
}
release() {
	cat <&3 >/dev/null
	exec 3<&-
	wait
}

# --- ^C (TERM) while the report is written: no temporary file left
# beside the outputs, an old output as it was, and the signal's status
mkdir -p "$WORK/sig"
echo old >"$WORK/sig/old.json"
for s in INT TERM; do
	held "$TK" stat --alloc --lines=0 --json="$WORK/sig/old.json" \
		--csv="$WORK/sig/new.csv" "$TOP/sample-data/slab-fork-exec.dat"
	if [ -z "$pid" ]; then
		release
		skip "outputs-sig$s" "no process held in pipe_write (/proc/PID/wchan)"
		continue
	fi
	check "outputs-sig$s-temporaries-there" test -n "$(find "$WORK/sig" -name '.*' -type f)"
	kill -$s "$pid"
	release
	check "outputs-sig$s-exit" test "$(cat "$WORK/held.rc")" -eq -$(kill -l $s)
	check "outputs-sig$s-no-temporary" test -z "$(find "$WORK/sig" -name '.*' -type f)"
	check "outputs-sig$s-old-kept" test "$(cat "$WORK/sig/old.json")" = old
done

# --- a fault while the report is written (SIGSEGV while held):
# trace-kmem's own defect, said as such, the signal's own end (-11, not
# an exit status 139); not "truncated or corrupt file"
held "$TK" stat --alloc --lines=0 "$TOP/sample-data/slab-fork-exec.dat"
if [ -n "$pid" ]; then
	kill -SEGV "$pid"
	release
	check outputs-report-fault-status test "$(cat "$WORK/held.rc")" -eq -11
	check outputs-report-fault-said sh -c "test \$(wc -l <'$WORK/held.err') -eq 1 &&
		grep -qx 'trace-kmem: .*slab-fork-exec.dat: crashed writing the report, after reading the trace: a defect of trace-kmem; please report it' '$WORK/held.err'"
else
	release
	skip outputs-report-fault "no process held in pipe_write (/proc/PID/wchan)"
fi

# --- a fault while the native reader's records are counted
# ($TRACE_KMEM_TEST_FAULT=count raises SIGSEGV as counting starts):
# trace-kmem's own defect as well (the reader checks what it reads and
# skips damage), said as such, with the signal's end and nothing on
# stdout; "truncated or corrupt file" would let a damaged-file test
# pass on a crash of ours.  libtracecmd's runs count nothing natively.
for c in stat plot diff; do
	case $c in
	stat) set -- stat "$f" ;;
	plot) set -- plot -o "$WORK/fault.svg" "$f" ;;
	diff) set -- diff "$f" "$TOP/sample-data/slab-fork-exec.dat" ;;
	esac
	(ulimit -c 0; TRACE_KMEM_TEST_FAULT=count exec "$TK" "$@") >"$WORK/fault.out" 2>"$WORK/fault.err"
	rc=$?
	check "outputs-count-fault-$c-status" test "$rc" -eq 139
	check "outputs-count-fault-$c-said" sh -c "test \$(wc -l <'$WORK/fault.err') -eq 1 &&
		grep -qx 'trace-kmem: .*$(basename "$f"): crashed counting the records: a defect of trace-kmem; please report it' '$WORK/fault.err'"
	check "outputs-count-fault-$c-no-output" test ! -s "$WORK/fault.out"
done
TRACE_KMEM_TEST_FAULT=count "$TK" stat --reader=libtracecmd "$f" >"$WORK/fault.out" 2>"$WORK/fault.err"
check outputs-count-fault-libtracecmd-reads test $? -eq 0 -a ! -s "$WORK/fault.err"
check outputs-count-fault-libtracecmd-report grep -q 'kmem statistics' "$WORK/fault.out"

# --- a symlink stays one (the file it points to is replaced), and an
# existing file keeps its mode (a private report stays private)
echo old >"$WORK/target.json"
ln -s target.json "$WORK/link.json"
"$TK" stat --json="$WORK/link.json" -o /dev/null "$f"
check outputs-symlink-kept test -L "$WORK/link.json"
check outputs-symlink-target-written python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$WORK/target.json"
echo old >"$WORK/private.json"
chmod 600 "$WORK/private.json"
"$TK" stat --json="$WORK/private.json" -o /dev/null "$f"
check outputs-mode-kept test "$(stat -c %a "$WORK/private.json")" = 600

# --- written whole, with the mode of a new file
(umask 022 && "$TK" stat -o "$WORK/t.txt" --json="$WORK/t.json" "$f")
check outputs-files-written test -s "$WORK/t.txt" -a -s "$WORK/t.json"
check outputs-mode-644 test "$(stat -c %a "$WORK/t.json")" = 644
check outputs-no-temporary-left test -z "$(ls -A "$WORK" | grep '^\.t\.')"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/t.json"
check outputs-json-parses test $? -eq 0

# --- a full disk: the old file stays, no temporary file, one line, exit 2
if [ "$(id -u)" -eq 0 ] && mkdir -p "$WORK/small" &&
	mount -t tmpfs -o size=16k tmpfs "$WORK/small" 2>/dev/null; then
	echo OLD >"$WORK/small/out.json"
	"$TK" stat --json="$WORK/small/out.json" --alloc --lines=0 "$f" >/dev/null 2>"$WORK/full.err"
	rc=$?
	check outputs-full-disk-exit-2 test "$rc" -eq 2
	check outputs-full-disk-old-file-kept test "$(cat "$WORK/small/out.json")" = OLD
	check outputs-full-disk-no-temporary test "$(ls -A "$WORK/small")" = out.json
	check outputs-full-disk-message grep -q "error writing JSON '$WORK/small/out.json'" "$WORK/full.err"
	umount "$WORK/small"
else
	skip outputs-full-disk "needs root to mount a small tmpfs"
fi

# --- the plugin's output=/dev/stdout, and output= the file stdout writes
lines=$(report -i "$f" | wc -l)
report -i "$f" -O kmem:stat -O kmem:output=/dev/stdout >"$WORK/all.txt" 2>/dev/null
check outputs-plugin-dev-stdout-keeps-listing test "$(grep -c '^ *[^ ]*-[0-9]* *\[[0-9]*\]' "$WORK/all.txt")" -ge "$((lines - 5))"
check outputs-plugin-dev-stdout-has-tables grep -q "kmem statistics" "$WORK/all.txt"
report -i "$f" -O kmem:stat -O "kmem:output=$WORK/same.txt" >"$WORK/same.txt" 2>/dev/null
check outputs-plugin-same-file-keeps-listing test "$(wc -l <"$WORK/same.txt")" -gt "$lines"
check outputs-plugin-same-file-has-tables grep -q "kmem statistics" "$WORK/same.txt"
# /dev/fd/N: through the descriptor, not reopened (that truncates)
{ echo FIRST; "$TK" stat -o /dev/fd/3 "$f" 3>&1; } >"$WORK/fd.txt"
check outputs-dev-fd-keeps-first-line test "$(head -1 "$WORK/fd.txt")" = FIRST
check outputs-dev-fd-has-tables grep -q "kmem statistics" "$WORK/fd.txt"
# --- a reader that goes away (| head): quiet, status 141 as from SIGPIPE
# (cat's convention), the same in stat and live; live removes its instance.
# The largest sample: its --alloc table (megabytes) cannot fit in the pipe
# buffer, so the writer is still writing when head exits.
big=$(samples | tail -n 1)
"$TK" stat --alloc -l 0 "$big" 2>"$WORK/pipe.err" | head -1 >/dev/null
rc=${PIPESTATUS[0]}
check outputs-stat-closed-pipe-141 test "$rc" -eq 141
check outputs-stat-closed-pipe-quiet test ! -s "$WORK/pipe.err"
"$TK" stat --json --alloc -l 0 "$big" 2>"$WORK/pipe.err" | head -c 10 >/dev/null
check outputs-stat-json-closed-pipe-141 test "${PIPESTATUS[0]}" -eq 141
if [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing/instances ]; then
	# another live run's instance (not ours) may be there before and after
	ls /sys/kernel/tracing/instances | grep "^trace-kmem-" >"$WORK/inst.before"
	timeout "$LIVE_LIMIT" "$TK" live -d 30 --interval 0.3 2>"$WORK/lpipe.err" | head -1 >/dev/null
	rc=${PIPESTATUS[0]}
	check outputs-live-closed-pipe-141 test "$rc" -eq 141
	check outputs-live-closed-pipe-quiet test ! -s "$WORK/lpipe.err"
	ls /sys/kernel/tracing/instances | grep "^trace-kmem-" >"$WORK/inst.after"
	check outputs-live-closed-pipe-instance-removed test -z "$(comm -13 "$WORK/inst.before" "$WORK/inst.after")"
else
	skip outputs-live-closed-pipe "needs root and tracefs"
fi
# two destinations on stdout (output=- and csv=-), a file of two buffers:
# the reports' parts in turn, the same bytes whichever reader read it
# (stdout is held while libtracecmd reads only when one destination is
# on it: holding two would group each one's parts)
im=$TOP/sample-data/instance-mixed.dat
"$TK" stat --output=- --csv=- "$im" >"$WORK/two-native.out" 2>/dev/null
"$TK" stat --reader=libtracecmd --output=- --csv=- "$im" >"$WORK/two-tc.out" 2>/dev/null
check outputs-two-on-stdout-readers-same \
	sh -c 'grep -q "kmem statistics" "$1" && grep -q "^table," "$1" &&
		cmp -s "$1" "$2"' _ \
	"$WORK/two-native.out" "$WORK/two-tc.out"

finish
