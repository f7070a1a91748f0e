#!/bin/bash
# test: slow
# Traces from machines we do not have: big-endian, 32-bit long, 8 KiB and
# 64 KiB ring-buffer pages, old kernels' event formats, format 6 and 7,
# zlib and zstd, lost events, buffer instances, an empty top-level
# buffer, __rel_loc, TSC timestamps.  tests/tdat/make_cases.sh writes them
# (tests/tdat/tdat_writer.py, from trace-cmd.dat.v6(5)/v7(5)) with their
# ground truth: every record written.  For every case:
#
#  1. `trace-cmd report --debug -N -R -t` (libtracecmd + libtraceevent)
#     prints exactly the truth's records: count, CPU, timestamp, event,
#     pid, comm, every field, lost-events lines, and (--debug) where
#     each record sits in its ring-buffer page, its size and time delta,
#     the page timestamps, the padding and time extends between records
#     (tests/tdat/check_report.py).  This checks the writer; a self-check
#     first makes sure that deliberately wrong writers (tdat_writer.py
#     --mutate: the other bitfield layout, a time delta off by one, a
#     data_loc off by one, byte-swapped fields, a short commit, no
#     missed-events flag, shifted page timestamps, other kallsyms) fail it.
#  2. `trace-kmem stat --json` agrees with the independent references:
#     tests/ref/kmem_ref.py (slab, compared by tests/ref/compare_json.py,
#     with the tables too for single-buffer files) and
#     tests/ref/kmem_page_ref.py (page allocator).  The references read
#     one buffer only (kmem_ref.py counts every buffer's lines as one,
#     kmem_page_ref.py decodes the top-level buffer's pages): a file with
#     an instance is compared buffer by buffer, trace-kmem's document for
#     a buffer against the references on a single-buffer copy of it that
#     the writer made (same records, step 1 checks it too).  A buffer
#     with no slab (page) records must get no "slab" ("page") section.
#     The references start with `trace-cmd convert`, which cannot copy a
#     compressed options section (libtracecmd's copy_options_recursive()
#     seeks to the next options section while still reading the
#     decompressed block), and kmem_page_ref.py reads only field lines
#     with "signed:" (2.6.33 on): for such a case they read a twin with
#     plain options sections and "signed:" added (same records, checked
#     in step 1).  kmem_page_ref.py's listing self-checks cannot hold on
#     2.6.32 formats (libtraceevent cannot parse mm_page_alloc's print
#     fmt, kernel_stack prints addresses): those two are let through.
#     And, against the truth itself (tests/tdat/check_callsites.py): every
#     page call site is a function of a written kernel_stack frame, every
#     slab call site a written call_site (a decoding mistake that the
#     references share with trace-kmem shows there).  A compressed case is
#     also read with TRACE_KMEM_CONVERT=always (through trace-cmd convert):
#     the same documents.
#  3. With more than one reader in READERS: their JSON documents are
#     identical, byte for byte.
#
# libtracecmd 1.3.1 as Debian builds it has no zlib: it cannot open a
# zlib-compressed trace.dat.  tests/tdat/zlib_shim.c registers zlib with
# it the way trace-cmd's own trace-compress-zlib.c does (compiled here,
# LD_PRELOADed for trace-cmd, the references and --reader=libtracecmd);
# without a compiler or zlib.h the zlib cases are skipped.
set -u
. "$(dirname "$0")/../lib/common.sh"
export PYTHONDONTWRITEBYTECODE=1

# the trace-kmem readers compared (--reader=NAME, when trace-kmem has it)
READERS="libtracecmd native"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
TD=$TOP/tests/tdat
REF=$TOP/tests/ref/kmem_ref.py
PREF=$TOP/tests/ref/kmem_page_ref.py
CMP=$TOP/tests/ref/compare_json.py

[ -x "$TK" ] || { fail foreign "no $TK (run make)"; finish; }
command -v trace-cmd >/dev/null || { fail foreign "no trace-cmd"; finish; }

READER_OPT=
"$TK" stat --help 2>&1 | grep -q -- --reader && READER_OPT=1

SHIM=
if cc -shared -fPIC -o "$WORK/zlib_shim.so" "$TD/zlib_shim.c" -ltracecmd -lz \
	>"$WORK/shim.err" 2>&1; then
	SHIM=$WORK/zlib_shim.so
fi
# A trace-kmem built with SANITIZE=1 wants the sanitizer runtimes first
# in LD_PRELOAD, before the shim.
TK_PRELOAD=$SHIM
if nm -D "$TK" 2>/dev/null | grep -q __asan_init; then
	TK_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so) $SHIM"
fi

CASES=$WORK/cases
if ! bash "$TD/make_cases.sh" "$CASES" >"$WORK/make.log" 2>&1; then
	fail foreign-make-cases "tests/tdat/make_cases.sh failed: $(tail -3 "$WORK/make.log" | tr '\n' ' ')"
	finish
fi

# json_docs FILE OUTPREFIX: one file per JSON document of a stream
# (OUTPREFIX.0.json, ...); prints their number
json_docs() {
	python3 - "$1" "$2" <<'PY'
import json, sys
from jsondocs import docs
n = 0
for n, o in enumerate(docs(sys.argv[1]), 1):
    with open("%s.%d.json" % (sys.argv[2], n - 1), "w") as f:
        json.dump(o, f)
print(n)
PY
}

# counts TRUTH: "SLAB PAGE", the slab and page allocator records of a
# single-buffer truth
# records_of TRUTH: how many records the trace holds (its buffers')
records_of() {
	python3 -c 'import json, sys
print(sum(len(b["records"]) for b in json.load(open(sys.argv[1]))["buffers"]))' "$1"
}
counts() {
	python3 - "$1" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
slab = {"kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node",
        "kfree", "kmem_cache_free"}
recs = [r for b in t["buffers"] for r in b["records"]]
print(sum(r["event"] in slab for r in recs),
      sum(r["event"].startswith(("mm_page", "mm_pagevec")) for r in recs))
PY
}

# report_check NAME FILE TRUTH: step 1 on one file
report_check() {
	local name=$1 file=$2 truth=$3
	if ! "${ZENV[@]}" trace-cmd report --debug -N -R -t -i "$file" \
		>"$WORK/$name.report" 2>"$WORK/$name.report.err"; then
		echo "FAIL $name:report: trace-cmd report failed: $(tail -3 "$WORK/$name.report.err" | tr '\n' ' ')"
		return
	fi
	python3 "$TD/check_report.py" --name "$name" "$truth" "$WORK/$name.report"
	rm -f "$WORK/$name.report"
}

# refs NAME FILE LABEL SLAB PAGE: the references for one single-buffer
# file (kmem_ref.py when it has SLAB > 0 slab records, kmem_page_ref.py
# when PAGE > 0); sets REF_SLAB and REF_PAGE to their documents ("" when
# not run or failed).  The documents' "file" becomes LABEL, what
# trace-kmem must print for the buffer.
refs() {
	local name=$1 file=$2 label=$3 nslab=$4 npage=$5 rc
	REF_SLAB="" REF_PAGE=""
	if [ "$nslab" -gt 0 ]; then
		REF_SLAB=$WORK/$name.ref-slab.json
		"${ZENV[@]}" python3 "$REF" "${CHECKSYM[@]}" "$file" >"$REF_SLAB" 2>"$WORK/$name.ref-slab.err"
		rc=$?
		if [ "$rc" -ne 0 ]; then
			echo "FAIL $name:reference-slab: kmem_ref.py exited $rc: $(tail -3 "$WORK/$name.ref-slab.err" | tr '\n' ' ')"
			REF_SLAB=
		elif grep -q warning "$WORK/$name.ref-slab.err"; then
			# (its trace-cmd convert step failed: symbols mapped back)
			echo "FAIL $name:reference-slab: $(grep -m2 warning "$WORK/$name.ref-slab.err" | tr '\n' ' ')"
		fi
	fi
	if [ "$npage" -gt 0 ]; then
		REF_PAGE=$WORK/$name.ref-page.json
		"${ZENV[@]}" python3 "$PREF" "$file" >"$REF_PAGE" 2>"$WORK/$name.ref-page.err"
		rc=$?
		# Exit 3: the reference's decoding disagrees with the listing.
		# With 2.6.32 formats libtraceevent cannot print the listing
		# kmem_page_ref.py compares with: mm_page_alloc's print fmt
		# calls page_to_pfn() ("[FAILED TO PARSE]", gfp_flags as a
		# number) and kernel_stack prints "(%08lx)" addresses, not
		# symbols.  Those two and only those are not the reference's
		# errors.
		if [ "$rc" -eq 3 ] && ! grep 'self-check:' "$WORK/$name.ref-page.err" |
			grep -vqE 'self-check: (gfp_flags 0x[0-9a-f]+: listing [0-9]+, reference |frame 0x[0-9a-f]+ printed as \([0-9a-f]+\), kallsyms has )'; then
			echo "    note: $name: kmem_page_ref.py's listing self-checks do not apply (old print fmts: gfp_flags unnamed, frames as addresses)"
			rc=0
		fi
		if [ "$rc" -ne 0 ]; then
			echo "FAIL $name:reference-page: kmem_page_ref.py exited $rc: $(tail -3 "$WORK/$name.ref-page.err" | tr '\n' ' ')"
			REF_PAGE=
		fi
	fi
	local f
	for f in $REF_SLAB $REF_PAGE; do
		python3 - "$f" "$label" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["file"] = sys.argv[2]
json.dump(d, open(sys.argv[1], "w"))
PY
	done
}

# compare NAME DOC TEXT SLAB PAGE: one trace-kmem document (and, for a
# single-buffer file, its tables) against the references
compare() {
	local name=$1 doc=$2 text=$3 nslab=$4 npage=$5 args
	if [ "$nslab" -gt 0 ]; then
		if [ -n "$REF_SLAB" ]; then
			args=(--ref "$REF_SLAB" --name "$name" --json "$doc")
			# the default report: the call sites, 10 rows
			[ -n "$text" ] && args+=(--text "$text" --tables callsites --lines 10)
			python3 "$CMP" "${args[@]}"
		fi
	elif python3 -c 'import json,sys; sys.exit("slab" in json.load(open(sys.argv[1])))' "$doc"; then
		echo "PASS $name:no-slab-records-no-slab-section"
	else
		echo "FAIL $name:no-slab-records-no-slab-section: trace-kmem's document has a \"slab\" member for a buffer without slab records"
	fi
	if [ "$npage" -gt 0 ]; then
		[ -n "$REF_PAGE" ] &&
			python3 "$PREF" --ref "$REF_PAGE" --name "$name" --case "$name" "$doc" "" 0 ""
	elif python3 -c 'import json,sys; sys.exit("page" in json.load(open(sys.argv[1])))' "$doc"; then
		echo "PASS $name:no-page-records-no-page-section"
	else
		echo "FAIL $name:no-page-records-no-page-section: trace-kmem's document has a \"page\" member for a buffer without page allocator records"
	fi
}

# check_case N LINE: all checks of one case; output in $WORK/N.log
check_case() {
	local i=$1 line=$2 name file truth comp bufs twin what
	local b r n doc want got reffile first
	IFS=$'\t' read -r name file truth comp bufs twin what <<<"$line"
	exec >"$WORK/$i.log" 2>&1
	echo "  $name: $what"
	if [ "$file" = - ]; then
		echo "SKIP $name: $what"
		return
	fi
	ZENV=(env)
	if [ "$comp" = zlib ]; then
		if [ -z "$SHIM" ]; then
			echo "SKIP $name: zlib: cannot build tests/tdat/zlib_shim.c for libtracecmd: $(head -2 "$WORK/shim.err" | tr '\n' ' ')"
			return
		fi
		ZENV=(env LD_PRELOAD="$SHIM")
	fi

	# --check-symbols: kmem_ref.py's symbol lookup must agree with what
	# libtraceevent printed for every call site (exit 3 otherwise); only
	# where the print fmt has call_site=%pS (2.6.32 prints %lx)
	CHECKSYM=()
	grep -q 'call_site=%p[SF]' "$truth" && CHECKSYM=(--check-symbols)

	# ---- 1. libtracecmd prints what was written
	report_check "$name" "$file" "$truth"
	if [ "$bufs" != - ]; then
		for b in ${bufs//,/ }; do
			report_check "$name.buf-$b" "${file%.dat}.buf-$b.dat" "${file%.dat}.buf-$b.truth.json"
		done
	elif [ "$twin" != - ]; then
		report_check "$name.twin" "$twin" "${twin%.dat}.truth.json"
	fi

	# ---- 2. trace-kmem against the references
	local readers=()
	for r in $READERS; do
		# the per-address rows are compared too
		local opt=(--json-rows=all) env=(env)
		[ -n "$READER_OPT" ] && opt+=(--reader="$r")
		[ "$r" = libtracecmd ] && [ "$comp" = zlib ] &&
			env=(env LD_PRELOAD="$TK_PRELOAD")
		if ! "${env[@]}" "$TK" stat "${opt[@]}" --json="$WORK/$name.$r.json" \
			-o "$WORK/$name.$r.txt" "$file" >"$WORK/$name.$r.out" 2>&1; then
			echo "FAIL $name.$r:run: trace-kmem stat ${opt[*]} failed: $(tail -3 "$WORK/$name.$r.out" | tr '\n' ' ')"
			continue
		fi
		# a compressed file may be read through an uncompressed copy
		# (trace-cmd convert; TRACE_KMEM_CONVERT=always forces it): the
		# same documents (trace-cmd convert writes big-endian copies
		# wrongly; trace-kmem must notice and read the file itself)
		if [ "$comp" != none ]; then
			mkdir -p "$WORK/tmp-$name"
			TMPDIR=$WORK/tmp-$name TRACE_KMEM_CONVERT=always "${env[@]}" "$TK" stat "${opt[@]}" \
				--json="$WORK/$name.$r.conv.json" "$file" >/dev/null 2>&1
			if cmp -s "$WORK/$name.$r.json" "$WORK/$name.$r.conv.json"; then
				echo "PASS $name.$r:convert-path"
			else
				echo "FAIL $name.$r:convert-path: TRACE_KMEM_CONVERT=always gives another document"
			fi
			rm -rf "$WORK/tmp-$name" "$WORK/$name.$r.conv.json"
		fi
		n=$(json_docs "$WORK/$name.$r.json" "$WORK/$name.$r.doc")
		# one a buffer with records (an empty one is left out), then
		# the merged summary of two or more
		want=1
		if [ "$bufs" != - ]; then
			want=0
			for b in ${bufs//,/ }; do
				[ "$(records_of "${file%.dat}.buf-$b.truth.json")" -gt 0 ] && want=$((want + 1))
			done
			[ "$want" -ge 2 ] && want=$((want + 1))
		fi
		if [ "${n:-0}" != "$want" ]; then
			echo "FAIL $name.$r:documents: ${n:-no} JSON documents, want $want (one per buffer, then the merged summary)"
			continue
		fi
		echo "PASS $name.$r:documents ($n)"
		readers+=("$r")
	done
	# what trace-kmem calls the file (kmem_ref.py's rule: the real path,
	# relative to the current directory when below it)
	local label0 label
	label0=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import kmem_ref; print(kmem_ref.display_path(sys.argv[2]))' "$TOP/tests/ref" "$file")
	local k=0 nslab npage text
	for b in ${bufs//,/ }; do
		if [ "$b" = - ]; then
			reffile=${twin/#-/$file}
			label=$label0
			read -r nslab npage < <(counts "$truth")
			refs "$name" "$reffile" "$label" "$nslab" "$npage"
		else
			reffile=${file%.dat}.buf-$b.dat
			[ "$(records_of "${reffile%.dat}.truth.json")" -gt 0 ] || continue
			label=$label0
			[ "$b" != top ] && label="$label0 (instance $b)"
			read -r nslab npage < <(counts "${reffile%.dat}.truth.json")
			refs "$name.buf-$b" "$reffile" "$label" "$nslab" "$npage"
		fi
		for r in "${readers[@]}"; do
			doc=$WORK/$name.$r.doc.$k.json
			if [ "$b" = - ]; then
				# one buffer: the tables too
				compare "$name.$r" "$doc" "$WORK/$name.$r.txt" "$nslab" "$npage"
				python3 "$TD/check_callsites.py" --name "$name.$r" "$truth" "$doc"
				continue
			fi
			python3 "$TD/check_callsites.py" --name "$name.$r.$b" "${reffile%.dat}.truth.json" "$doc"
			got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["file"])' "$doc")
			if [ "$got" = "$label" ]; then
				echo "PASS $name.$r.$b:label"
			else
				echo "FAIL $name.$r.$b:label: \"file\": \"$got\", want \"$label\""
			fi
			compare "$name.$r.$b" "$doc" "" "$nslab" "$npage"
		done
		k=$((k + 1))
	done

	# ---- 3. the readers agree
	if [ ${#readers[@]} -gt 1 ]; then
		first=${readers[0]}
		for r in "${readers[@]:1}"; do
			if cmp -s "$WORK/$name.$first.json" "$WORK/$name.$r.json"; then
				echo "PASS $name:$first-vs-$r-json"
			else
				echo "FAIL $name:$first-vs-$r-json: the JSON documents differ: $(diff <(python3 -m json.tool "$WORK/$name.$first.json") <(python3 -m json.tool "$WORK/$name.$r.json") | head -6 | tr '\n' ' ')"
			fi
		done
	fi
	rm -f "$WORK/$name".*.txt "$WORK/$name".*.doc.*.json
}

# self_check: a wrong writer must fail step 1
self_check() {
	local i=$1 spec=$CASES/le64-lost.spec m out
	exec >"$WORK/$i.log" 2>&1
	echo "  self-check: tdat_writer.py --mutate makes wrong files; check_report.py must reject each"
	local F="$TOP/tests/formats/linux-6.18-x86_64.txt $TOP/tests/formats/page-linux-6.18-x86_64.txt $TD/formats/page-free-linux-6.18-x86_64.txt"
	for m in bitfield delta dataloc field-endian commit lost page-ts kallsyms; do
		out=$WORK/mutate-$m
		# shellcheck disable=SC2086
		if ! python3 "$TD/tdat_writer.py" --spec "$spec" -o "$out.dat" \
			--truth "$out.json" --formats $F --version 7 --endian big \
			--mutate "$m" 2>"$out.err"; then
			echo "FAIL foreign-self-check-$m: the writer failed: $(tail -2 "$out.err" | tr '\n' ' ')"
			continue
		fi
		trace-cmd report --debug -N -R -t -i "$out.dat" >"$out.txt" 2>&1
		if python3 "$TD/check_report.py" --name "mutate-$m" "$out.json" "$out.txt" >"$out.check"; then
			echo "FAIL foreign-self-check-$m: a writer with --mutate $m passes step 1"
		else
			echo "PASS foreign-self-check-$m ($(head -1 "$out.check" | cut -d: -f3- | cut -c1-100))"
		fi
		rm -f "$out".*
	done
}

mapfile -t lines <"$CASES/cases"
jobs_=(self-check "${lines[@]}")
run_job() {
	if [ "$2" = self-check ]; then
		self_check "$1"
	else
		check_case "$1" "$2"
	fi
}
in_parallel run_job "${jobs_[@]}"

names=()
for i in "${!jobs_[@]}"; do names+=("foreign-job-$i"); done
gather "${names[@]}"
finish
