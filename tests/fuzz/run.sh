#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1
#
# tests/fuzz/run.sh [SECONDS]: build the fuzz targets (make fuzz-build),
# make the seed corpora (make_seeds.sh, once), replay the committed
# regression corpus (tests/fuzz/corpus/TARGET/: every file must run
# clean), then fuzz each target for SECONDS (default: $FUZZ_SECONDS, or
# 60) with -timeout=10 -rss_limit_mb=2048.
#
# Prints PASS/FAIL/SKIP lines (tests/lib/common.sh's conventions), for
# each target a line "fuzz_TARGET: N runs in S s, corpus C, found:
# nothing" (N from libFuzzer's final statistics; or the reproducers it
# wrote, or its exit status), and ends
# with "N passed, N failed, N skipped"; exits non-zero when a
# replayed file or the fuzzing found a crash, leak, timeout or OOM.
# Without clang's libFuzzer it prints a SKIP line and exits 0.
#
# Environment:
#   FUZZ_CC          the compiler (clang)
#   FUZZ_WORK        the work directory (build-fuzz/work): per target, the
#                    corpus the fuzzing grew (corpus/), the reproducers
#                    it wrote (crash-*, leak-*, timeout-*, oom-*) and its
#                    log (fuzz.log); kept between runs
#   FUZZ_TARGETS     which targets (default "reader records strings copy")
#   FUZZ_JOBS        fuzzing processes per target (default 1)
#   FUZZ_MAX_LEN_READER, FUZZ_MAX_LEN_RECORDS
#                    -max_len (default 262144: every reader seed is
#                    shorter; and 65536)
#   FUZZ_MAX_LEN_STRINGS, FUZZ_MAX_LEN_COPY
#                    -max_len of fuzz_strings and fuzz_copy (4096 each)
#   FUZZ_ARGS        more libFuzzer flags
#   FUZZ_RESEED=1    make the seeds again
set -u
cd "$(dirname "$0")/../.." || exit 2
TOP=$PWD
SECS=${1:-${FUZZ_SECONDS:-60}}
FZ=build-fuzz
CC=${FUZZ_CC:-clang}
WORK=${FUZZ_WORK:-$FZ/work}
case $WORK in /*) ;; *) WORK=$TOP/$WORK ;; esac
TARGETS=${FUZZ_TARGETS:-reader records strings copy}
JOBS=${FUZZ_JOBS:-1}
FLAGS="-timeout=10 -rss_limit_mb=2048"

pass=0 fail=0 skip=0
pass() { echo "PASS $1"; pass=$((pass + 1)); }
fail() { echo "FAIL $1: ${*:2}"; fail=$((fail + 1)); }
skip() { echo "SKIP $1: ${*:2}"; skip=$((skip + 1)); }
finish() {
	echo "$pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
	exit $?
}

# libtraceevent's own small leaks are not ours (tests/lsan.supp)
export LSAN_OPTIONS="suppressions=$TOP/tests/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"

# --- can we build libFuzzer targets at all? --------------------------
probe=$(mktemp -d /tmp/kmem-fuzz-probe.XXXXXX)
trap 'rm -rf "$probe"' EXIT
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
	'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
	'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
	'{ return d && n > 1000000; }' >"$probe/p.c"
if ! command -v "$CC" >/dev/null 2>&1; then
	skip fuzz "no $CC (libFuzzer needs clang)"
	finish
fi
if ! "$CC" -fsanitize=fuzzer,address,undefined -o "$probe/p" "$probe/p.c" \
	>"$probe/log" 2>&1 || ! "$probe/p" -runs=1 >>"$probe/log" 2>&1; then
	skip fuzz "$CC cannot build or run a libFuzzer target" \
		"($(head -n 1 "$probe/log"))"
	finish
fi

# --- build -----------------------------------------------------------
if make -s FUZZ_CC="$CC" fuzz-build >"$probe/build.log" 2>&1; then
	pass "fuzz-build"
else
	fail "fuzz-build" "make fuzz-build failed:" \
		"$(tail -n 3 "$probe/build.log")"
	finish
fi

# --- seeds -----------------------------------------------------------
if [ "${FUZZ_RESEED:-0}" = 1 ] || [ ! -d "$FZ/seeds/reader" ] ||
	[ -z "$(ls -A "$FZ/seeds/reader" 2>/dev/null)" ]; then
	rm -rf "$FZ/seeds"
	tests/fuzz/make_seeds.sh "$FZ/seeds" >"$probe/seeds.log" 2>&1
fi
for t in $TARGETS; do
	case $t in strings | copy) continue ;; esac	# seeds committed
	n=$(find "$FZ/seeds/$t" -type f 2>/dev/null | wc -l)
	if [ "$n" -gt 0 ]; then
		pass "seeds $t ($n files)"
	else
		skip "seeds $t" "none made (no tests/tdat/, trace-cmd or" \
			"python3); fuzzing from the regression corpus alone"
	fi
done

# --- the regression corpus -------------------------------------------
# replay TARGET DIR: every file once, each in a process of its own
replay() {
	local t=$1 dir=$2 f bad=0 n=0 log
	log=$WORK/$t/replay.log
	: >"$log"
	for f in "$dir"/*; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		# shellcheck disable=SC2086
		if ! ("$FZ/fuzz_$t" $FLAGS "$f") >>"$log" 2>&1; then
			fail "replay $t $(basename "$f")" "see $log"
			bad=$((bad + 1))
		fi
	done
	if [ "$n" -eq 0 ]; then
		skip "replay $t" "no file in $dir"
	elif [ "$bad" -eq 0 ]; then
		pass "replay $t ($n files of $dir)"
	fi
}
for t in $TARGETS; do
	mkdir -p "$WORK/$t/corpus"
	replay "$t" "tests/fuzz/corpus/$t"
done

# --- fuzzing ---------------------------------------------------------
final_stat() {	# LOG NAME: a sum of libFuzzer's -print_final_stats NAME
	sed -n "s/^stat::$2: *//p" "$1" | awk '{ s += $1 } END { print s + 0 }'
}
for t in $TARGETS; do
	case $t in
	reader) max=${FUZZ_MAX_LEN_READER:-262144} ;;
	strings) max=${FUZZ_MAX_LEN_STRINGS:-4096} ;;
	copy) max=${FUZZ_MAX_LEN_COPY:-4096} ;;
	*) max=${FUZZ_MAX_LEN_RECORDS:-65536} ;;
	esac
	dir=$WORK/$t
	log=$dir/fuzz.log
	touch "$dir/.start"
	seeds=
	[ -d "$FZ/seeds/$t" ] && seeds="$TOP/$FZ/seeds/$t"
	[ -d "tests/fuzz/corpus/$t" ] &&
		seeds="$seeds $TOP/tests/fuzz/corpus/$t"
	jobs=
	[ "$JOBS" -gt 1 ] && jobs="-jobs=$JOBS -workers=$JOBS"
	# in the work directory, where -jobs leaves its fuzz-N.log
	# shellcheck disable=SC2086
	(cd "$dir" && "$TOP/$FZ/fuzz_$t" $FLAGS -max_len="$max" \
		-max_total_time="$SECS" -print_final_stats=1 \
		-artifact_prefix="$dir/" $jobs ${FUZZ_ARGS:-} "$dir/corpus" \
		$seeds) >"$log" 2>&1
	rc=$?
	if [ -n "$jobs" ]; then
		cat "$dir"/fuzz-*.log >>"$log" 2>/dev/null
		rm -f "$dir"/fuzz-*.log
	fi
	found=$(find "$dir" -maxdepth 1 -newer "$dir/.start" \
		\( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
		-o -name 'oom-*' \) -printf '%f ')
	execs=$(final_stat "$log" number_of_executed_units)
	rate=$(final_stat "$log" average_exec_per_sec)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
	summary="${SECS}s, $execs execs, $rate exec/s, cov ${cov:-?},"
	ncorp=$(find "$dir/corpus" -type f | wc -l)
	summary="$summary corpus $ncorp files"
	what=${found:-nothing}
	[ "$rc" -ne 0 ] && [ -z "$found" ] && what="exit $rc"
	echo "fuzz_$t: $execs runs in $SECS s, corpus $ncorp, found: ${what% }"
	if [ "$rc" -eq 0 ] && [ -z "$found" ]; then
		pass "fuzz $t ($summary)"
	else
		fail "fuzz $t" "exit $rc, $summary; found:" \
			"$found in $dir (log $log)"
		grep -m 3 -E '^==[0-9]+==ERROR|SUMMARY|runtime error' "$log" |
			sed 's/^/    /'
	fi
done
finish
