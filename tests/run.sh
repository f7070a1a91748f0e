#!/bin/bash
# Runs every test: the unit test programs in $B/tests/ (B=build) and the scripts
# in tests/e2e/.  Each prints "PASS name", "FAIL name" or "SKIP name: why"
# lines; a program that fails without saying FAIL counts as one failure.
# Ends with "N passed, N failed, N skipped"; exits non-zero on a failure.
set -u
cd "$(dirname "$0")/.." || exit 2
export TOP=$PWD
B=${B:-build}
case $B in /*) ;; *) B=$TOP/$B ;; esac
export PLUGIN_DIR=${PLUGIN_DIR:-$B/plugins}
mkdir -p tests/out

pass=0 fail=0 skip=0
run_one() {
	local name=$1; shift
	local log out rc
	log=tests/out/$(basename "$name").log
	"$@" >"$log" 2>&1
	rc=$?
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
	grep -E '^(PASS|FAIL|SKIP) ' "$log" | sed "s|^|$(basename "$name"): |"
	if [ "$f" -ne 0 ]; then
		echo "---- $log"
		grep -v '^PASS ' "$log" | tail -40
		echo "----"
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
}

for t in "$B"/tests/*; do
	[ -x "$t" ] && run_one "$t" "$t"
done
for t in tests/e2e/*.sh; do
	[ -f "$t" ] && run_one "$t" bash "$t"
done

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
