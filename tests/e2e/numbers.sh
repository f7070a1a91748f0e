#!/bin/bash
# test: slow
# Every number the plugin computes, checked against an independent
# reference implementation (tests/ref/kmem_ref.py, written from
# Documentation/kmem-stat-definitions.txt and kmem-json.txt only, reading
# `trace-cmd report -R` output).
#
# For every sample trace (sample-data/*.dat, or $KMEM_SAMPLES) and a few
# option sets, runs
#   trace-cmd report -i FILE -O kmem:stat -O kmem:json=OUT.json [options]
# and compares (tests/ref/compare_json.py): the document's top members,
# every summary member (integers exactly, *_pct to 1e-3), the set of
# callsites (by address), pointers and caches and every field of every
# row, the order of the arrays (the reference's own sort, "Sorting" in
# the definitions), and the text on stdout (summary lines with thousands
# separators, the rows of the three tables).  Mismatches are listed
# with file (the name before the first "."), option set, table, row and
# field, the plugin's value and the reference's.
set -u
. "$(dirname "$0")/../lib/common.sh"

REF=$TOP/tests/ref/kmem_ref.py
CMP=$TOP/tests/ref/compare_json.py

if [ ! -f "$PLUGIN_DIR/plugin_kmem.so" ]; then
	fail numbers "no $PLUGIN_DIR/plugin_kmem.so (run make)"
	finish
fi
# (under the sanitizers every other sample: the numbers are make check's
# to compare, the sanitizers look for memory errors in the same code)
mapfile -t files < <(san_samples 2)
if [ ${#files[@]} -eq 0 ]; then
	fail numbers "no sample traces in $TOP/sample-data/*.dat"
	finish
fi

# Plus a copy of the smallest trace with allocation failures, zero-size
# allocations and frees of NULL/ZERO_SIZE_PTR patched in (kmem_ref.py
# --make-edge-trace): real recordings rarely have them.
# The first trace with slab records serves.
edge=$WORK/edge-cases.dat
made=
for f in "${files[@]}"; do
	if python3 "$REF" --make-edge-trace "$f" "$edge" 2>"$WORK/edge.err"; then
		made=$f
		break
	fi
done
if [ -n "$made" ]; then
	files+=("$edge")
else
	fail edge-cases "cannot make the edge-case trace from any sample: $(tail -2 "$WORK/edge.err" | tr '\n' ' ')"
fi

# name | trace-cmd -O options (space separated; kmem:json=... is added)
#      | sort keys | raw-ip | lines (0: all) | the text tables shown
optsets=(
	"default|kmem:stat kmem:json-rows=all|bytes,hit|0|10|callsites"
	"all|kmem:stat kmem:all kmem:lines=20|bytes,hit|0|20|callsites,allocs,caches"
	"sort-hit|kmem:stat kmem:all kmem:sort=hit|hit|0|10|callsites,allocs,caches"
	"raw-ip-sort-callsite-ptr|kmem:stat kmem:all kmem:raw-ip kmem:sort=callsite,ptr|callsite,ptr|1|10|callsites,allocs,caches"
	"sort-pingpong-frag-live-peak-all|kmem:stat kmem:all kmem:sort=pingpong,frag,live,peak kmem:lines=0|pingpong,frag,live,peak|0|0|callsites,allocs,caches"
	"json-without-stat|kmem:json-rows=all|bytes,hit|0|10|callsites"
)

# check_file N FILE: all checks of one trace; output in $WORK/N.log
check_file() {
	local i=$1 f=$2 b rc set name topts keys raw lines o out
	local cases=() args
	b=$(basename "$f" .dat)
	exec >"$WORK/$i.log" 2>&1
	# The first trace also cross-checks the reference's own symbol
	# resolution against libtraceevent's symbol+offset text.
	local check=()
	[ "$i" -eq 0 ] && check=(--check-symbols)
	python3 "$REF" "${check[@]}" "$f" >"$WORK/$b.ref.json" 2>"$WORK/$b.ref.err"
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
		echo "FAIL $b:reference: kmem_ref.py exited $rc: $(tail -3 "$WORK/$b.ref.err" | tr '\n' ' ')"
		return
	fi
	if [ ${#check[@]} -gt 0 ]; then
		if [ "$rc" -eq 3 ]; then
			echo "FAIL $b:reference-symbols: $(grep -m3 kmem_ref "$WORK/$b.ref.err" | tr '\n' ' ')"
		else
			echo "PASS $b:reference-symbols"
		fi
	fi
	grep 'warning' "$WORK/$b.ref.err" | sed 's/^/    /'

	# A trace without slab records (page allocator only): the plugin
	# must show no slab section; the slab comparisons do not apply.
	if python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["slab"]["events"] != 0)' "$WORK/$b.ref.json"; then
		out=$WORK/$b.noslab
		report -i "$f" -O kmem:stat -O "kmem:json=$out.json" >"$out.txt" 2>&1
		if python3 -c 'import json,sys; sys.exit("slab" in json.load(open(sys.argv[1])))' "$out.json" &&
		   ! grep -q 'SUMMARY (slab allocator)' "$out.txt"; then
			echo "PASS $b:no-slab-records-no-slab-section"
		else
			echo "FAIL $b:no-slab-records-no-slab-section: the plugin shows a slab section for a trace without slab records"
		fi
		rm -f "$out.txt"
		return
	fi

	for set in "${optsets[@]}"; do
		IFS='|' read -r name topts keys raw lines shown <<<"$set"
		args=()
		for o in $topts; do args+=(-O "$o"); done
		out=$WORK/$b.$name
		if ! report -i "$f" "${args[@]}" -O "kmem:json=$out.json" \
			>"$out.txt" 2>"$out.err"; then
			echo "FAIL $b.$name:run: trace-cmd report failed: $(tail -3 "$out.err" | tr '\n' ' ')"
			continue
		fi
		case " $topts " in
		*" kmem:stat "*)
			cases+=(--case "$b.$name" "$out.json" "$out.txt" "$keys" "$raw" "$lines" "$shown") ;;
		*)	# without stat: the JSON alone, no tables on stdout
			cases+=(--case "$b.$name" "$out.json" "" "$keys" "$raw" "$lines")
			if grep -q -e 'SUMMARY (slab allocator)' -e 'Total alloc/Size' "$out.txt"; then
				echo "FAIL $b.$name:no-tables: statistics tables on stdout without kmem:stat"
			else
				echo "PASS $b.$name:no-tables"
			fi ;;
		esac
	done
	[ ${#cases[@]} -gt 0 ] && python3 "$CMP" --ref "$WORK/$b.ref.json" "${cases[@]}"

	# The first trace once more with a filter (--cpu 0): the statistics
	# cover the records trace-cmd prints.
	if [ "$i" -eq 0 ]; then
		out=$WORK/$b.cpu0
		if ! python3 "$REF" --report-args="--cpu 0" "$f" >"$out.ref.json" 2>"$out.ref.err"; then
			echo "FAIL $b.cpu0:reference: $(tail -3 "$out.ref.err" | tr '\n' ' ')"
		elif ! report -i "$f" --cpu 0 -O kmem:stat -O kmem:json-rows=all -O "kmem:json=$out.json" \
			>"$out.txt" 2>"$out.err"; then
			echo "FAIL $b.cpu0:run: trace-cmd report --cpu 0 failed: $(tail -3 "$out.err" | tr '\n' ' ')"
		else
			python3 "$CMP" --ref "$out.ref.json" --name "$b.cpu0" \
				--json "$out.json" --text "$out.txt" --tables callsites --lines 10
		fi
	fi
	# the listing and JSON are large: keep only what a failure needs
	rm -f "$WORK/$b".*.txt
}

# Two traces at a time (the reference dominates the run time).
in_parallel check_file "${files[@]}"

gather "${files[@]##*/}"
finish
