#!/bin/bash
# test: slow
# sanitizers: skip (a byte-identity matrix)
# The native reader (reader/, trace-kmem stat's default) and the
# libtracecmd reader (--reader=libtracecmd, the reference) give the same
# tables and the same JSON, byte for byte: every sample trace, buffer
# instances included, with every option set of tests/lib/optsets.sh, and
# each trace in three forms: as recorded (v7, zstd), converted to v6 and
# to v7 uncompressed (trace-cmd convert).  The libtracecmd reference is
# computed once per trace and option set on the recorded file; the copies
# have the same name in other directories, so the reports' titles match.
# Also: every ring-buffer page of the uncompressed copies decodes to the
# same records with reader/'s page decoder as with libtraceevent's kbuffer
# (build/tools/rb_vs_kbuffer).
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
RBK=$(dirname "$PLUGIN_DIR")/tools/rb_vs_kbuffer
[ -x "$TK" ] || { fail reader-identity "no $TK (run make)"; finish; }
"$TK" topology -o "$WORK/topo.txt" 2>"$WORK/topo.err" ||
	fail reader-identity-topology "trace-kmem topology: $(cat "$WORK/topo.err")"
. "$(dirname "$0")/../lib/optsets.sh"
export TRACE_KMEM_CONVERT=never
FORMS="zstd v6 v7none"

# make_forms FILE: $WORK/FORM/NAME.dat for each form
make_forms() {
	local f=$1 n
	n=$(basename "$f")
	mkdir -p "$WORK/zstd" "$WORK/v6" "$WORK/v7none"
	cp "$f" "$WORK/zstd/$n"
	trace-cmd convert -i "$f" -o "$WORK/v6/$n" --file-version 6 >/dev/null 2>&1 &&
		trace-cmd convert -i "$f" -o "$WORK/v7none/$n" --compression none >/dev/null 2>&1
}

check_file() {
	local i=$1 f=$2 n b set w k m=0 args form
	n=$(basename "$f")
	b=${n%.dat}
	exec >"$WORK/$i.log" 2>&1
	if ! make_forms "$f"; then
		echo "FAIL $b:convert: trace-cmd convert failed"
		return
	fi
	for set in "${optsets[@]}"; do
		m=$((m + 1))
		args=()
		for w in $set; do args+=("--$w"); done
		k=$WORK/$b.$m
		(cd "$WORK/zstd" && "$TK" stat --reader=libtracecmd "${args[@]}" \
			-o "$k.ref.txt" --json="$k.ref.json" "$n") 2>"$k.ref.err" || {
			echo "FAIL $b[$set]:reference: $(head -2 "$k.ref.err")"
			continue
		}
		for form in $FORMS; do
			(cd "$WORK/$form" && "$TK" stat "${args[@]}" -o "$k.$form.txt" \
				--json="$k.$form.json" "$n") 2>"$k.$form.err"
			if [ $? -ne 0 ] || [ -s "$k.$form.err" ]; then
				echo "FAIL $b.$form[$set]:run: $(head -3 "$k.$form.err")"
			elif cmp -s "$k.ref.txt" "$k.$form.txt" &&
				cmp -s "$k.ref.json" "$k.$form.json"; then
				echo "PASS $b.$form[$set]"
			else
				echo "FAIL $b.$form[$set]: native and libtracecmd differ: $(diff "$k.ref.txt" "$k.$form.txt" | head -4 | tr '\n' ' ') $(cmp "$k.ref.json" "$k.$form.json" 2>&1 | head -1)"
			fi
		done
		rm -f "$k".*
	done
	if [ -x "$RBK" ]; then
		"$RBK" "$WORK/v6/$n" "$WORK/v7none/$n"
	else
		echo "FAIL $b:rb-vs-kbuffer: no $RBK (make tests)"
	fi
	rm -f "$WORK/zstd/$n" "$WORK/v6/$n" "$WORK/v7none/$n"
}

mapfile -t files < <(samples)
[ ${#files[@]} -gt 0 ] || { fail reader-identity "no sample traces"; finish; }
in_parallel check_file "${files[@]}"
for ((i = 0; i < ${#files[@]}; i++)); do
	cat "$WORK/$i.log"
done
failures=$((failures + $(cat "$WORK"/*.log | grep -c "^FAIL")))
finish
