#!/bin/bash
# test: slow
# Every page allocator number the plugin computes, checked against an
# independent reference implementation (tests/ref/kmem_page_ref.py,
# written from the "Page allocator" sections of
# Documentation/kmem-stat-definitions.txt and kmem-json.txt only; it
# decodes the ring buffer pages itself for field values, record
# boundaries and whole stacks, and takes the record order from
# `trace-cmd report -N -t`).
#
# For every sample trace (sample-data/*.dat, or $KMEM_SAMPLES) with page
# allocator records, runs
#   trace-cmd report -i FILE -O kmem:stat -O kmem:json=OUT.json [options]
# for a few option sets (default; kmem:sort=order,hit; kmem:live;
# kmem:sort=live,callsite,migtype,gfp,page; two kmem:skip regexes) and
# compares the "page" section: events/complete/events_lost, every
# summary member exactly, every order x migration type cell, every call
# site row (keyed by function address, order, migration type, GFP
# value) and every page row (by pfn) field by field, the extfrag rows,
# and the order of the call site and page arrays by the documented sort
# rules (remaining ties in order of first appearance).  Mismatches are listed with file,
# option set, table, row, field, the plugin's value and the reference's.
# A trace without page allocator records must get no "page" section.
# FAILs if no sample trace has page allocator records.  A "note:" line
# counts the allocations left without a stack only because their
# kernel_stack record starts the next ring buffer page (the documented
# 24-byte rule).  Runs in about 30 s on 2 CPUs.
set -u
. "$(dirname "$0")/../lib/common.sh"

REF=$TOP/tests/ref/kmem_page_ref.py

if [ ! -f "$PLUGIN_DIR/plugin_kmem.so" ]; then
	fail page-numbers "no $PLUGIN_DIR/plugin_kmem.so (run make)"
	finish
fi
# under the sanitizers, the page allocator's own recordings: the code
# checked is the same on the others' few page records (make check
# compares every sample)
if [ -n "$SANITIZED" ]; then
	mapfile -t all < <(samples | grep '/page-')
else
	mapfile -t all < <(samples)
fi
if [ ${#all[@]} -eq 0 ]; then
	fail page-numbers "no sample traces in $TOP/sample-data/*.dat"
	finish
fi
# The reference reads the top-level buffer's pages only; traces with
# buffer instances are checked by cli_stat.sh (per-buffer counts).
files=()
for f in "${all[@]}"; do
	if has_instances "$f"; then
		skip "$(basename "$f" .dat):page-numbers" "buffer instances: the reference reads the top-level buffer only"
	else
		files+=("$f")
	fi
done

# name ; trace-cmd -O options (kmem:stat and kmem:json=... are added;
#        space separated) ; sort keys ("": the default) ; kmem:live (1)
#      ; kmem:skip regex ("": the default rules)
# The skip sets: "." matches every frame (the call site is then the
# outermost frame); the other skips everything up to the page fault
# handler, so that anonymous faults reach their 9th frame, which only
# the record holds (libtraceevent's print fmt shows 8).
skip_fault='^(trace_event_|_*alloc|vma_alloc_folio|do_anonymous_page|_*handle_mm_fault|exc_page_fault)'
optsets=(
	"default;;;0;"
	"sort-order-hit;kmem:sort=order,hit;order,hit;0;"
	"live;kmem:live;;1;"
	"sort-live-callsite-migtype-gfp-page;kmem:sort=live,callsite,migtype,gfp,page;live,callsite,migtype,gfp,page;0;"
	"skip-every-frame;kmem:skip=.;;0;."
	"skip-to-fault-entry;kmem:skip=$skip_fault;;0;$skip_fault"
)

# has_page_records FILE: does the listing show a page allocator record?
has_page_records() {
	trace-cmd report -N -R -i "$1" 2>/dev/null |
		grep -q -m1 -E ': +mm_page(vec)?_[a-z_]*: '
}

# check_file N FILE: all checks of one trace; output in $WORK/N.log
check_file() {
	local i=$1 f=$2 b rc set name topts keys live skip o opts out args cases
	b=$(basename "$f" .dat)
	exec >"$WORK/$i.log" 2>&1
	if ! has_page_records "$f"; then
		echo "NOPAGE"
		out=$WORK/$b.nopage
		if ! report -i "$f" -O kmem:stat -O "kmem:json=$out.json" \
			>/dev/null 2>"$out.err"; then
			echo "FAIL $b:run: trace-cmd report failed: $(tail -3 "$out.err" | tr '\n' ' ')"
		elif python3 -c 'import json,sys; sys.exit("page" in json.load(open(sys.argv[1])))' "$out.json"; then
			echo "PASS $b:no-page-records-no-page-section"
		else
			echo "FAIL $b:no-page-records-no-page-section: the plugin's document has a \"page\" member for a trace without page allocator records"
		fi
		return
	fi
	cases=()
	for set in "${optsets[@]}"; do
		IFS=';' read -r name topts keys live skip <<<"$set"
		args=()
		read -r -a opts <<<"$topts"	# (no globbing: regexes)
		for o in "${opts[@]}"; do args+=(-O "$o"); done
		out=$WORK/$b.$name
		# the per-page rows are checked too: json-rows=all
		if ! report -i "$f" -O kmem:stat "${args[@]}" -O kmem:json-rows=all \
			-O "kmem:json=$out.json" >/dev/null 2>"$out.err"; then
			echo "FAIL $b.$name:run: trace-cmd report failed: $(tail -3 "$out.err" | tr '\n' ' ')"
			continue
		fi
		cases+=(--case "$b.$name" "$out.json" "$keys" "$live" "$skip")
	done
	[ ${#cases[@]} -eq 0 ] && return
	# The reference (kept in $WORK/$b.ref.json) and all comparisons in
	# one process.
	python3 "$REF" --name "$b" --save "$WORK/$b.ref.json" "$f" \
		"${cases[@]}" 2>"$WORK/$b.ref.err"
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
		echo "FAIL $b:reference: kmem_page_ref.py exited $rc: $(tail -3 "$WORK/$b.ref.err" | tr '\n' ' ')"
	fi
	sed 's/^/    /' "$WORK/$b.ref.err"
	rm -f "$WORK/$b".*.json
}

in_parallel check_file "${files[@]}"

withpage=0
for i in "${!files[@]}"; do
	grep -v '^NOPAGE$' "$WORK/$i.log"
	n=$(grep -c '^FAIL ' "$WORK/$i.log")
	failures=$((failures + n))
	grep -q '^NOPAGE$' "$WORK/$i.log" || withpage=$((withpage + 1))
	grep -qE '^(PASS|FAIL) ' "$WORK/$i.log" ||
		fail "$(basename "${files[$i]}" .dat)" "no result (see above)"
done
if [ "$withpage" -eq 0 ]; then
	fail page-records "no sample trace has page allocator records (mm_page_alloc, mm_page_free, ...)"
fi
finish
