#!/bin/bash
# Runs every test: the unit test programs in $B/tests/ (B=build) and the
# scripts in tests/e2e/, TEST_JOBS at a time (default: twice the number
# of CPUs: many wait on I/O or sleep).  Each prints "PASS name", "FAIL
# name" or "SKIP name: why" lines; a program that fails without saying
# FAIL counts as one failure.  Tests that record take tracefs_lock
# (tests/lib/common.sh) and so run one at a time.
# A script whose header has a line "# test: exclusive" changes the
# system (installs into libtraceevent's plugin directory, ...) and runs
# alone, after the others; "# test: slow" ones start first.  With a
# sanitized build (make SANITIZE=1 check), one whose header says
# "# sanitizers: skip (WHY)" is not run but reported as one SKIP line:
# the byte-identity matrices, which run the same code over every sample
# and option set again, code the other tests already run sanitized.
#
# Each test's lines are printed when it ends, with its time; then each
# failure's log, the slowest tests, and "N passed, N failed, N skipped".
# Exits non-zero on a failure.
#
#   tests/run.sh [NAME...]     only the tests whose names are given
#                              (foreign, cli_stat, unit_slab, ...)
set -u
cd "$(dirname "$0")/.." || exit 2
export TOP=$PWD
B=${B:-build}
case $B in /*) ;; *) B=$TOP/$B ;; esac
export PLUGIN_DIR=${PLUGIN_DIR:-$B/plugins}
# a sanitized build: the leaks of the libraries, not ours, suppressed for
# the unit programs too (the scripts set it again in tests/lib/common.sh);
# test_cmdlines calls libtraceevent's own parser, which leaks a comm
export LSAN_OPTIONS="suppressions=$TOP/tests/lsan.supp:print_suppressions=0"
OUT=$TOP/tests/out
mkdir -p "$OUT"
# The tests start python thousands of times and need only its standard
# library: the system's /usr/bin/python3 when there is one (a version
# manager's interpreter may run site hooks at each start: 0.1 s of CPU
# apiece here, 3 times Debian's), else python3 itself, not a version
# manager's shim (pyenv's runs shell scripts before each python).
# PYTHON=/path/to/python3 chooses another.
py=${PYTHON:-}
if [ -z "$py" ] && [ -x /usr/bin/python3 ]; then
	py=/usr/bin/python3
elif [ -z "$py" ]; then
	py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
fi
if [ -n "$py" ] && [ -x "$py" ]; then
	mkdir -p "$OUT/.bin"
	ln -sf "$py" "$OUT/.bin/python3"
	export PATH="$OUT/.bin:$PATH"
fi
# The references' results, kept across runs and make clean (the
# sanitized run and every test after the first ask for the same ones):
# tests/ref/refcache.py.  TRACE_KMEM_REFCACHE= (empty) turns it off.
export TRACE_KMEM_REFCACHE=${TRACE_KMEM_REFCACHE-$TOP/tests/.refcache}
if [ -n "$TRACE_KMEM_REFCACHE" ] && [ -d "$TRACE_KMEM_REFCACHE" ]; then
	find "$TRACE_KMEM_REFCACHE" -type f -mtime +14 -delete 2>/dev/null
fi
jobs=${TEST_JOBS:-$((2 * $(nproc 2>/dev/null || echo 1)))}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1

# name, command: every test
names=() cmds=() tags=()
add() { # add NAME TAG COMMAND...
	local n=$1 t=$2
	shift 2
	if [ ${#only[@]} -gt 0 ]; then
		case " ${only[*]} " in *" $n "*) ;; *) return ;; esac
	fi
	names+=("$n") tags+=("$t") cmds+=("$*")
}
only=("$@")
for t in "$B"/tests/*; do
	[ -f "$t" ] && [ -x "$t" ] && add "$(basename "$t")" "" "$t"
done
sanitized=
nm -D "$PLUGIN_DIR/plugin_kmem.so" 2>/dev/null | grep -q __asan_init && sanitized=1
for t in tests/e2e/*.sh; do
	n=$(basename "$t" .sh)
	tag=$(sed -n '1,30s/^# test: \([a-z]*\).*/\1/p' "$t" | head -n 1)
	why=$(sed -n '1,30s/^# sanitizers: skip (\(.*\))$/\1/p' "$t" | head -n 1)
	if [ -n "$sanitized" ] && [ -n "$why" ]; then
		add "$n" "" echo "SKIP $n: not under the sanitizers: $why; make check runs it"
		continue
	fi
	add "$n" "$tag" bash "$t"
done
if [ ${#names[@]} -eq 0 ]; then
	echo "run.sh: no test to run${only[*]:+ named ${only[*]}}" >&2
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi

# run_one I: test I, its log in $OUT/NAME.log, its result in NAME.res
run_one() {
	local i=$1 name=${names[$1]} log rc start end
	log=$OUT/$name.log
	start=$EPOCHREALTIME
	# shellcheck disable=SC2086
	${cmds[$i]} >"$log" 2>&1 </dev/null
	rc=$?
	end=$EPOCHREALTIME
	local p f s
	p=$(grep -c '^PASS ' "$log")
	f=$(grep -c '^FAIL ' "$log")
	s=$(grep -c '^SKIP ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name (exit $rc, no FAIL line; see $log)" >>"$log"
		f=1
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
		echo "FAIL $name (reported no result; see $log)" >>"$log"
		f=1
	fi
	echo "$p $f $s $(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" >"$OUT/$name.res"
}

# report I: its lines, as they end (a test whose runner died without a
# result counts as one failure)
report() {
	local name=${names[$1]} p f s t
	[ -s "$OUT/$name.res" ] || echo "0 1 0 0" >"$OUT/$name.res"
	read -r p f s t <"$OUT/$name.res"
	grep -E '^(PASS|FAIL|SKIP) ' "$OUT/$name.log" | sed "s|^|$name: |"
	printf '%s: %d passed, %d failed, %d skipped in %.1f s\n' "$name" "$p" "$f" "$s" "$t"
}

rm -f "$OUT"/*.res
order=()
for i in "${!names[@]}"; do [ "${tags[$i]}" = slow ] && order+=("$i"); done
for i in "${!names[@]}"; do
	case ${tags[$i]} in slow | exclusive) ;; *) order+=("$i") ;; esac
done
declare -A running=()
reap() { # reap: wait for one running test to end and report it
	local pid i
	wait -n -p pid
	for i in "${!running[@]}"; do
		if [ "${running[$i]}" = "$pid" ]; then
			report "$i"
			unset "running[$i]"
		fi
	done
}
for i in "${order[@]}"; do
	while [ ${#running[@]} -ge "$jobs" ]; do reap; done
	run_one "$i" &
	running[$i]=$!
done
while [ ${#running[@]} -gt 0 ]; do reap; done
for i in "${!names[@]}"; do
	if [ "${tags[$i]}" = exclusive ]; then
		run_one "$i"
		report "$i"
	fi
done

pass=0 fail=0 skip=0
for i in "${!names[@]}"; do
	read -r p f s t <"$OUT/${names[$i]}.res"
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	if [ "$f" -ne 0 ]; then
		echo "---- $OUT/${names[$i]}.log"
		grep -v '^PASS ' "$OUT/${names[$i]}.log" | tail -40
		echo "----"
	fi
done
echo "slowest:"
for i in "${!names[@]}"; do
	read -r p f s t <"$OUT/${names[$i]}.res"
	echo "$t ${names[$i]}"
done | sort -rn | head -n 8 | awk '{ printf "  %7.1f s  %s\n", $1, $2 }'
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
