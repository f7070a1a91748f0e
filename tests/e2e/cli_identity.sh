#!/bin/bash
# test: slow
# sanitizers: skip (a byte-identity matrix)
# trace-kmem stat and the plugin print the same tables and the same JSON,
# byte for byte, for the same trace and the same options: every sample
# trace (sample-data/*.dat, or $KMEM_SAMPLES) with every option set
# below, the plugin through `trace-cmd report -O kmem:NAME[=VALUE]`, the
# front end through `trace-kmem stat --NAME[=VALUE]`, both generated from
# one list.  Files with buffer instances are left out: trace-cmd gives
# the plugin one event parser for all buffers of a file, so it reports
# them together, where trace-kmem reports each buffer (cli_stat.sh).
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail cli-identity "no $TK (run make)"; finish; }

# A topology for the numa option set: this machine's.
"$TK" topology -o "$WORK/topo.txt" 2>"$WORK/topo.err" ||
	fail cli-identity-topology "trace-kmem topology: $(cat "$WORK/topo.err")"

# The option sets (tests/lib/optsets.sh): NAME[=VALUE] words, one set a
# line.
. "$(dirname "$0")/../lib/optsets.sh"

# check_file N FILE: every option set on one trace; output in $WORK/N.log
check_file() {
	local i=$1 f=$2 b set w k n=0 popts copts
	b=$(basename "$f" .dat)
	exec >"$WORK/$i.log" 2>&1
	if has_instances "$f"; then
		echo "SKIP $b:identity: buffer instances (the plugin counts them together)"
		return
	fi
	for set in "${optsets[@]}"; do
		n=$((n + 1))
		popts=() copts=()
		for w in $set; do
			popts+=(-O "kmem:$w")
			copts+=("--$w")
		done
		k=$WORK/$b.$n
		report -i "$f" -O kmem:stat -O "kmem:output=$k.p.txt" \
			-O "kmem:json=$k.p.json" "${popts[@]}" >/dev/null 2>"$k.p.err"
		"$TK" stat "${copts[@]}" -o "$k.c.txt" --json="$k.c.json" "$f" \
			>"$k.c.out" 2>"$k.c.err"
		if [ $? -ne 0 ]; then
			echo "FAIL $b[$set]:run: trace-kmem failed: $(head -3 "$k.c.err")"
			continue
		fi
		if [ -s "$k.p.txt" ] && cmp -s "$k.p.txt" "$k.c.txt"; then
			echo "PASS $b[$set]:tables"
		else
			echo "FAIL $b[$set]:tables: plugin and trace-kmem differ: $(diff "$k.p.txt" "$k.c.txt" | head -5 | tr '\n' ' ')"
		fi
		if [ -s "$k.p.json" ] && cmp -s "$k.p.json" "$k.c.json"; then
			echo "PASS $b[$set]:json"
		else
			echo "FAIL $b[$set]:json: plugin and trace-kmem differ: $(cmp "$k.p.json" "$k.c.json" 2>&1 | head -2 | tr '\n' ' ')"
		fi
		# nothing on stdout with -o and --json=FILE, nothing on stderr
		if [ -s "$k.c.out" ] || [ -s "$k.c.err" ]; then
			echo "FAIL $b[$set]:quiet: output besides the files: $(head -c 300 "$k.c.out" "$k.c.err")"
		fi
		rm -f "$k".*
	done
}

mapfile -t files < <(samples)
[ ${#files[@]} -gt 0 ] || { fail cli-identity "no sample traces"; finish; }
in_parallel check_file "${files[@]}"
for ((i = 0; i < ${#files[@]}; i++)); do
	cat "$WORK/$i.log"
done
failures=$((failures + $(cat "$WORK"/*.log | grep -c "^FAIL")))
# The short spellings: -s, -l, -o.
f=$(smallest_sample)
"$TK" stat -s hit -l 3 -o "$WORK/short.txt" "$f"
"$TK" stat --sort=hit --lines=3 --output="$WORK/long.txt" "$f"
check short-options cmp -s "$WORK/short.txt" "$WORK/long.txt"
finish
