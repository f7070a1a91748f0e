#!/bin/bash
# test: slow
# Damaged files, many of them: tests/mutate/mutate.py makes $MUTATIONS
# (default 200) seeded, reproducible damaged copies of small whole
# traces (tests/tdat/make_cases.sh: v6, v7 zstd, big-endian 32-bit,
# instances in v6, v7 zstd and big-endian v7 zlib, 2.6.32 formats) and
# each goes through trace-kmem stat with both readers (every table, and
# JSON, pprof, rows, CSV and folded stacks at once) and through the
# plugin inside trace-cmd report.
#
# trace-kmem must end with 0 and a report, or 2 and one line; never a
# crash, a hang, a sanitizer report, or a half report (exit 2 with
# tables).  The plugin run counts what trace-cmd does: a crash with the
# plugin's own frames on top fails; a crash inside trace-cmd's libraries
# (libtracecmd, libtraceevent) is counted and reported, not failed.
# Where libtracecmd asks AddressSanitizer for an allocation larger than
# it gives (a lying size in the file: glibc's malloc() returns NULL, and
# libtracecmd reads on), the run is judged again with
# allocator_may_return_null=1, and counted.
# Every failing input is kept in tests/out/mutations/ with its
# description; $MUTATION_SEED (default 1) picks another set.  Under the
# sanitizers the default is 60 other inputs (seed 2): make check and
# make SANITIZE=1 check then read 260 damaged files between them (the
# fuzz targets read many more), and the sanitized leg, where a run takes
# twice as long (11 minutes for 100 inputs, the leg's longest test),
# under a third of its time.
set -u
. "$(dirname "$0")/../lib/common.sh"
export PYTHONDONTWRITEBYTECODE=1

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
if [ -n "$SANITIZED" ]; then
	N=${MUTATIONS:-60} SEED=${MUTATION_SEED:-2}
else
	N=${MUTATIONS:-200} SEED=${MUTATION_SEED:-1}
fi
KEEP=$TOP/tests/out/mutations
[ -x "$TK" ] || { fail mutations "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never

bash "$TOP/tests/tdat/make_cases.sh" "$WORK/cases" >"$WORK/cases.log" 2>&1 ||
	{ fail mutations "make_cases.sh failed: $(tail -3 "$WORK/cases.log")"; finish; }
seeds=()
for c in le64-v6 le64-v7-zstd be32-ppc32-v6 le64-instance-v6 le64-2.6.32 le64-lost \
	le64-empty-top be64-instance-v7; do
	[ -f "$WORK/cases/$c.dat" ] && seeds+=("$WORK/cases/$c.dat")
done
[ ${#seeds[@]} -ge 3 ] || { fail mutations "too few seed traces"; finish; }
python3 "$TOP/tests/mutate/mutate.py" "$SEED" "$N" "$WORK/m" "${seeds[@]}" >"$WORK/m.list"

# ASan's fast unwinding: libtracecmd has no frame pointers, but its own
# leaks are still told apart (tests/lsan.supp) by the first frame, the
# caller of malloc(), or by glibc's scanf; slow unwinding made each run
# 2.3 times as long (20 s against 8.6 s for 40 inputs)
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
bad=0 tk_ok=0 tk_err=0 lib_crash=0 plugin_ok=0 lib_alloc=0
keep() {	# keep FILE WHY
	mkdir -p "$KEEP"
	cp "$1" "$KEEP/"
	grep "^$(basename "$1") " "$WORK/m.list" >>"$KEEP/README"
	echo "    $2" >>"$KEEP/README"
}
# every table and every output file of stat at once: what a damaged
# file reaches goes through each of them
outputs=(--all --page --percpu --vmalloc --lifetimes --leaks --json="$WORK/j"
	--json-rows all --pprof "$WORK/pb" --rows "$WORK/rows" --csv "$WORK/csv"
	--folded="$WORK/fo")
# run_tk FILE READER [ASAN_OPTIONS...]: one run; its stdout in $WORK/o,
# stderr in $WORK/e, status in $rc, and a sanitizer's report in
# $WORK/san.* (log_path: libtracecmd opens files while stderr goes to
# /dev/null, tk_stderr_quiet(), and a report there would be lost)
run_tk() {
	local f=$1 r=$2
	shift 2
	rm -f "$WORK"/san.*
	timeout 60 env ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$WORK/san${1:+:$1}" \
		UBSAN_OPTIONS="${UBSAN_OPTIONS:-}:log_path=$WORK/san" \
		"$TK" stat --reader="$r" "${outputs[@]}" "$f" >"$WORK/o" 2>"$WORK/e"
	rc=$?
	cat "$WORK"/san.* >>"$WORK/e" 2>/dev/null
}
# trace_kmem FILE READER: checks one run; counts
trace_kmem() {
	local f=$1 r=$2 rc name
	name=$(basename "$f")
	run_tk "$f" "$r"
	# libtracecmd asked for more than AddressSanitizer's allocator gives
	# (a lying size; glibc's malloc() returns NULL there, and libtracecmd
	# reads on): judged on a rerun whose allocator returns NULL too
	if grep -q 'AddressSanitizer: requested allocation size' "$WORK/e" &&
		grep -A3 'AddressSanitizer: requested allocation size' "$WORK/e" |
		grep -q '#1 .*libtracecmd\.so'; then
		lib_alloc=$((lib_alloc + 1))
		run_tk "$f" "$r" allocator_may_return_null=1
		sed -i '/WARNING: AddressSanitizer failed to allocate/d' "$WORK/e"
	fi
	if grep -q -e 'Sanitizer' -e 'runtime error:' "$WORK/e"; then
		echo "FAIL mutation:$name:$r: sanitizer: $(grep -m1 -e 'ERROR' -e 'runtime error' "$WORK/e")"
		keep "$f" "$r: sanitizer"
		bad=$((bad + 1))
	elif [ "$rc" -eq 0 ] && grep -q "kmem statistics\|No slab or page" "$WORK/o"; then
		tk_ok=$((tk_ok + 1))
	elif [ "$rc" -eq 2 ] && [ ! -s "$WORK/o" ] && [ "$(wc -l <"$WORK/e")" -le 2 ]; then
		tk_err=$((tk_err + 1))
	else
		echo "FAIL mutation:$name:$r: exit $rc, $(wc -l <"$WORK/o") lines out: $(head -c 200 "$WORK/e")"
		keep "$f" "$r: exit $rc"
		bad=$((bad + 1))
	fi
}
# trace-cmd with our plugin (a sanitizer build needs its runtimes first)
plugin_run() {
	if [ -n "$SANITIZED" ]; then
		timeout 60 env ASAN_OPTIONS=$SAN_HOST \
			UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
			LD_PRELOAD="$SAN_PRELOAD" TRACEEVENT_PLUGIN_DIR="$PLUGIN_DIR" \
			trace-cmd "$@"
	else
		timeout 60 env TRACEEVENT_PLUGIN_DIR="$PLUGIN_DIR" trace-cmd "$@"
	fi
}
for f in "$WORK"/m/*.dat; do
	trace_kmem "$f" native
	trace_kmem "$f" libtracecmd
	# the plugin: trace-cmd's own fate is not ours, the plugin's frames are
	plugin_run report -i "$f" -O kmem:stat -O kmem:all -O kmem:page \
		-O kmem:percpu -O kmem:vmalloc -O kmem:lifetimes -O kmem:leaks \
		-O kmem:output=/dev/null -O kmem:json="$WORK/pj" \
		-O kmem:pprof="$WORK/ppb" -O kmem:rows="$WORK/prows" \
		-O kmem:csv="$WORK/pcsv" -O kmem:folded="$WORK/pfo" \
		>/dev/null 2>"$WORK/pe"
	rc=$?
	if grep -q 'Sanitizer\|runtime error:' "$WORK/pe" &&
		grep -A8 'ERROR: AddressSanitizer\|runtime error:' "$WORK/pe" | grep -q 'plugin_kmem.so'; then
		echo "FAIL mutation:$(basename "$f"):plugin: $(grep -m1 'ERROR\|runtime error' "$WORK/pe")"
		keep "$f" "plugin: sanitizer in plugin_kmem.so"
		bad=$((bad + 1))
	elif [ "$rc" -ge 124 ] || grep -q 'Sanitizer' "$WORK/pe"; then
		lib_crash=$((lib_crash + 1))
	else
		plugin_ok=$((plugin_ok + 1))
	fi
done
echo "mutations: $N inputs (seed $SEED): trace-kmem $tk_ok reports, $tk_err one-line errors" \
	"($lib_alloc runs where libtracecmd asked AddressSanitizer for an impossible allocation, judged again with" \
	"allocator_may_return_null=1);" \
	"trace-cmd report with the plugin: $plugin_ok ran, $lib_crash died inside trace-cmd's libraries (not ours)"
if [ "$bad" -eq 0 ]; then
	pass "mutations-$N-inputs"
else
	failures=$((failures + bad))
fi
finish
