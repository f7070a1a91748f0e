#!/bin/bash
# test: slow
# Memory running out, at every allocation trace-kmem and the plugin make
# themselves: tests/tools/failalloc.c (preloaded) fails the Nth one, for
# each N a run makes (every Nth when there are more than a scenario's
# share).  A run must then either give the same outputs as the run where
# nothing fails, or say "out of memory" (in one line on stderr, or in
# the report where a table or count is left out) and, when it exits
# non-zero, say it on stderr; never a crash, a hang, or output that
# differs in silence.  libtraceevent's and libtracecmd's own allocations
# are not failed (their parsers crash on some: not ours to test).
# Scenarios: the native reader on a v7 file with folded stacks and CSV,
# with page stacks, pprof and JSON, a merged summary of two files,
# --reader=libtracecmd, plot, diff, a v6 file (the pipeline's blocks),
# the plugin inside trace-cmd report, and the KernelShark plugin in
# libkshark.
# make check runs a share of each scenario's allocations, evenly spread
# (about 180 runs: the test runs beside the others, and in CI beside the
# Debian 13 leg); TRACE_KMEM_OOM_RUNS=all fails every allocation of
# every scenario (about 17,400 runs), =N runs about N a scenario.
# sanitizers: skip (failalloc.so replaces malloc, which the sanitizers' runtime owns)
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
SO=$(dirname "$PLUGIN_DIR")/tools/failalloc.so
[ -x "$TK" ] || { fail oom "no $TK (run make)"; finish; }
[ -f "$SO" ] || { fail oom "no $SO (run make tests)"; finish; }
export TRACE_KMEM_CONVERT=never
S=$TOP/sample-data

# same DIR: the outputs of the run in DIR/ equal those in DIR/base/
same() {
	local x b
	for x in "$1"/base/*; do
		b=$(basename "$x")
		case $b in
		*.gz) cmp -s <(zcat "$x") <(zcat "$1/$b" 2>/dev/null) || return 1 ;;
		*) cmp -s "$x" "$1/$b" || return 1 ;;
		esac
	done
}

RUNS=${TRACE_KMEM_OOM_RUNS:-}

# sweep NAME RUNS [VAR=VALUE...] -- COMMAND...: @D in COMMAND is the
# run's output directory (files named f.*), stdout goes to @D/out
sweep() {
	local name=$1 most=$2 d=$WORK/$1 env=() cmd n step i rc runs=0 said=0
	local bad=()
	shift 2
	case $RUNS in
	all) most=1000000000 ;;
	'' | *[!0-9]*) ;;
	*) most=$RUNS ;;
	esac
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	mkdir -p "$d/base"
	cmd=("${@//@D/$d}")
	if ! env "${env[@]}" "${cmd[@]}" >"$d/out" 2>"$d/err"; then
		fail "oom-$name" "the run without a failure failed: $(head -c 300 "$d/err")"
		return
	fi
	cp "$d"/out "$d"/f.* "$d/base/" 2>/dev/null
	n=$(env "${env[@]}" FAILALLOC_COUNT=1 LD_PRELOAD="$SO" "${cmd[@]}" \
		2>&1 >/dev/null | sed -n 's/^failalloc: \([0-9]*\) calls$/\1/p')
	if [ -z "$n" ] || [ "$n" -lt 5 ]; then
		fail "oom-$name" "failalloc.so counted ${n:-no} allocations"
		return
	fi
	step=$(((n + most - 1) / most))
	for ((i = 1; i <= n + 1; i += step)); do
		rm -f "$d"/f.* "$d/out"
		env "${env[@]}" FAILALLOC_AT=$i LD_PRELOAD="$SO" \
			timeout 120 "${cmd[@]}" >"$d/out" 2>"$d/err"
		rc=$?
		runs=$((runs + 1))
		if [ $rc -ge 124 ]; then
			bad+=("allocation $i: exit $rc (a crash or a hang): $(tail -c 200 "$d/err" | tr '\n' ' ')")
		elif grep -qE 'out of memory|Cannot allocate memory' "$d/err"; then
			said=$((said + 1))
		elif [ $rc -ne 0 ]; then
			bad+=("allocation $i: exit $rc, no line says out of memory: $(head -c 200 "$d/err" | tr '\n' ' ')")
		elif ! same "$d"; then
			if grep -qs 'out of memory' "$d/out" "$d"/f.*; then
				said=$((said + 1))
			else
				bad+=("allocation $i: output differs, nothing says out of memory")
			fi
		fi
	done
	if [ ${#bad[@]} -eq 0 ]; then
		pass "oom-$name ($runs runs of $n allocations; $said said out of memory, the others unchanged)"
	else
		fail "oom-$name" "${#bad[@]} of $runs runs: ${bad[*]:0:3}"
	fi
}

sweep native 40 -- "$TK" stat --all --leaks --live --folded=@D/f.folded \
	--csv @D/f.csv "$S/slab-fork-exec.dat"
sweep stacks 25 -- "$TK" stat --all --leaks --folded=@D/f.folded \
	--pprof @D/f.pb.gz --json=@D/f.json "$S/page-stacktrace.dat"
sweep merged 20 -- "$TK" stat --merge --json=@D/f.json "$S/percpu-netns.dat" \
	"$S/vmalloc-fork.dat"
sweep libtracecmd 12 -- "$TK" stat --reader=libtracecmd --all \
	"$S/slab-lost-events.dat"
sweep plot 20 -- "$TK" plot -o @D/f.svg --json=@D/f.json \
	"$S/page-stacktrace.dat"
sweep diff 15 -- "$TK" diff --json=@D/f.json "$S/slab-fork-exec.dat" \
	"$S/slab-pingpong.dat"

# a version 6 file: uncompressed, read on a second thread in blocks
python3 - "$TOP" "$WORK/v6.dat" <<'PY' || fail oom-v6 "tdat_writer failed"
import os, sys
top, out = sys.argv[1:3]
sys.path.insert(0, os.path.join(top, "tests", "regress"))
sys.path.insert(0, os.path.join(top, "tests", "lib"))
import craft
craft.write(out, craft.spec(n=3000), craft.FORMATS, "--version", "6")
PY
[ -s "$WORK/v6.dat" ] &&
	sweep v6 20 -- "$TK" stat --all "$WORK/v6.dat"

# the KernelShark plugin, in libkshark (tests/kshark/kshark_kmem.c)
KK=$(dirname "$PLUGIN_DIR")/kshark/kshark_kmem
KP=$(dirname "$PLUGIN_DIR")/kernelshark/plugin-kmem.so
if [ -x "$KK" ] && [ -f "$KP" ]; then
	mkdir -p "$WORK/khome"
	sweep kshark 15 HOME="$WORK/khome" FAILALLOC_IN=plugin-kmem.so -- \
		"$KK" "$KP" "$S/slab-fork-exec.dat"
else
	skip oom-kshark "no $KK or $KP (libkshark-dev; make tests)"
fi

if command -v trace-cmd >/dev/null; then
	sweep plugin 10 TRACEEVENT_PLUGIN_DIR="$PLUGIN_DIR" \
		FAILALLOC_IN=plugin_kmem.so -- trace-cmd report -O kmem:stat \
		-i "$S/slab-fork-exec.dat"
else
	skip oom-plugin "no trace-cmd"
fi
finish
