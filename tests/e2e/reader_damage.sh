#!/bin/bash
# test: slow
# The native reader on damaged and unusual files (tests/lib/tdat_layout.py
# finds the bytes to damage): truncation anywhere, sizes past the end,
# lying chunk tables, chunks that do not decompress, page commits past
# the page, unknown event ids, timestamps that go backwards, the
# timestamp options it applies (OFFSET, DATE, TSC2NSEC) and the ones it
# leaves to libtracecmd (guest time shift, latency data).  Never a crash
# or a hang: exit 2 with one line naming the file, or exit 0 with the
# damage reported; where the file is valid, the same report as
# --reader=libtracecmd.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
LAY="python3 $TOP/tests/lib/tdat_layout.py"
[ -x "$TK" ] || { fail reader-damage "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never
SRC=$TOP/sample-data/slab-pingpong.dat
V7=$WORK/v7.dat V6=$WORK/v6.dat V7N=$WORK/v7n.dat
cp "$SRC" "$V7"
trace-cmd convert -i "$SRC" -o "$V6" --file-version 6 >/dev/null 2>&1 &&
	trace-cmd convert -i "$SRC" -o "$V7N" --compression none >/dev/null 2>&1 ||
	{ fail reader-damage "trace-cmd convert failed"; finish; }
$LAY "$V6" >"$WORK/v6.json" && $LAY "$V7" >"$WORK/v7.json" &&
	$LAY "$V7N" >"$WORK/v7n.json" || { fail reader-damage "tdat_layout.py failed"; finish; }
# jq-less field access: val FILE.json PYTHON-EXPRESSION-ON-d
val() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
hex() { python3 -c "import struct,sys; print(struct.pack('<'+sys.argv[1], int(sys.argv[2], 0)).hex())" "$1" "$2"; }
size() { stat -c %s "$1"; }

# run NAME FILE [ARGS...]: trace-kmem stat, status in $rc, output in $WORK/NAME.*
run() {
	local name=$1 f=$2
	shift 2
	timeout 60 "$TK" stat "$@" --json="$WORK/$name.json" "$f" >"$WORK/$name.out" 2>"$WORK/$name.err"
	rc=$?
}
# sane NAME: no crash, no hang
sane() {
	case $rc in
	0 | 2) return 0 ;;
	124) fail "$1" "hang (timeout)" ;;
	*) fail "$1" "exit $rc: $(head -3 "$WORK/$1.err")" ;;
	esac
	return 1
}
# expect_error NAME FILE PATTERN: exit 2, nothing on stdout, one line
# naming the file and matching PATTERN
expect_error() {
	local name=$1 f=$2 pat=$3
	run "$name" "$f"
	sane "$name" || return
	if [ "$rc" -ne 2 ]; then
		fail "$name" "exit $rc, wanted 2 ($pat)"
	elif [ -s "$WORK/$name.out" ] || [ "$(wc -l <"$WORK/$name.err")" -ne 1 ]; then
		fail "$name" "not one line: $(head -c 300 "$WORK/$name.out" "$WORK/$name.err")"
	elif ! grep -q -- "^trace-kmem: $f: .*$pat" "$WORK/$name.err"; then
		fail "$name" "wanted '$pat': $(cat "$WORK/$name.err")"
	else
		pass "$name"
	fi
}
# expect_damage NAME FILE PATTERN: exit 0, a report, the damage on stderr
expect_damage() {
	local name=$1 f=$2 pat=$3
	run "$name" "$f"
	sane "$name" || return
	if [ "$rc" -ne 0 ] || ! grep -q "kmem statistics" "$WORK/$name.out"; then
		fail "$name" "exit $rc, no report: $(head -2 "$WORK/$name.err")"
	elif ! grep -q -- "damaged data skipped: $pat" "$WORK/$name.err"; then
		fail "$name" "damage not reported as '$pat': $(cat "$WORK/$name.err")"
	else
		pass "$name"
	fi
}
# expect_same NAME FILE [ARGS]: exit 0, silent, the libtracecmd reader's report
expect_same() {
	local name=$1 f=$2
	shift 2
	run "$name" "$f" "$@"
	sane "$name" || return
	cp "$WORK/$name.json" "$WORK/$name.native.json"
	cp "$WORK/$name.out" "$WORK/$name.native.out"
	run "$name.ref" "$f" --reader=libtracecmd "$@"
	if [ "$rc" -ne 0 ]; then
		fail "$name" "the libtracecmd reader failed: $(head -2 "$WORK/$name.ref.err")"
	elif [ -z "${SAID:-}" ] && [ -s "$WORK/$name.err" ]; then
		fail "$name" "stderr: $(head -2 "$WORK/$name.err")"
	elif [ -n "${SAID:-}" ] && { [ "$(wc -l <"$WORK/$name.err")" -ne 1 ] ||
		! grep -qF -- "$SAID" "$WORK/$name.err"; }; then
		fail "$name" "wanted one line '$SAID' on stderr: $(head -2 "$WORK/$name.err")"
	elif [ -n "${SAID:-}" ] && ! cmp -s "$WORK/$name.err" "$WORK/$name.ref.err"; then
		fail "$name" "the readers say different things: $(cat "$WORK/$name.err" "$WORK/$name.ref.err")"
	elif cmp -s "$WORK/$name.native.json" "$WORK/$name.ref.json" &&
		cmp -s "$WORK/$name.native.out" "$WORK/$name.ref.out"; then
		pass "$name"
	else
		fail "$name" "native and libtracecmd differ: $(diff "$WORK/$name.native.out" "$WORK/$name.ref.out" | head -3 | tr '\n' ' ')"
	fi
}
events() { val "$1" 'd.get("slab", {}).get("events", 0) + d.get("page", {}).get("events", 0)'; }

# --- truncation: everywhere in the metadata, in the data, one byte short
for form in v6 v7 v7n; do
	f=$WORK/$form.dat j=$WORK/$form.json
	cuts="5 12 17 40"
	if [ $form = v6 ]; then
		# v6 ends with the CPU data; v7 with sections we do not read
		cuts="$cuts $(($(size "$f") - 1))"
		cuts="$cuts $(val "$j" 'd["header_page_size_at"] + 30') $(val "$j" 'd["systems_at"] + 200')"
		cuts="$cuts $(val "$j" 'd["kallsyms_size_at"] + 5000') $(val "$j" 'd["cmdlines_size_at"] + 6')"
		cuts="$cuts $(val "$j" 'd["cpus_at"] + 2') $(val "$j" 'd["flyrecord_at"] + 9')"
	else
		cuts="$cuts $(val "$j" 'd["options_offset_at"] + 3') $(val "$j" 'd["option_sections"][0]["at"] + 20')"
	fi
	cuts="$cuts $(val "$j" 'd["cpus"][0]["offset"] + 100')"
	# a v7 zstd file cut in its last CPU's chunk count: the other CPUs
	# are read (tests/e2e/reader_cut.sh)
	[ $form = v7 ] || cuts="$cuts $(val "$j" 'd["cpus"][-1]["offset"] + 5')"
	for n in $cuts; do
		$LAY --truncate "$f" "$WORK/t.dat" "$n"
		expect_error "truncated-$form-at-$n" "$WORK/t.dat" "."
	done
done
$LAY --truncate "$V6" "$WORK/t.dat" "$(val "$WORK/v6.json" 'd["cpus"][1]["offset"] + 5000')"
expect_error truncated-cpu-data "$WORK/t.dat" "CPU 1 data of the top buffer ends past the end of the file"

# --- sizes past the end of the file
j=$WORK/v6.json
$LAY --poke "$V6" "$WORK/d.dat" "$(val "$j" 'd["header_page_size_at"]')" "$(hex Q 0x7fffffffffffffff)"
expect_error header-page-size-huge "$WORK/d.dat" "header page format truncated"
$LAY --poke "$V6" "$WORK/d.dat" "$(val "$j" 'd["kallsyms_size_at"]')" "$(hex I 0xffffffff)"
expect_error kallsyms-size-huge "$WORK/d.dat" "kallsyms truncated"
$LAY --poke "$V6" "$WORK/d.dat" "$(val "$j" 'd["cmdlines_size_at"]')" "$(hex Q 0x100000000000)"
expect_error cmdlines-size-huge "$WORK/d.dat" "saved command lines truncated"
$LAY --poke "$V6" "$WORK/d.dat" "$(val "$j" 'd["systems_at"]')" "$(hex I 0x7fffffff)"
expect_error systems-count-huge "$WORK/d.dat" "count past the end"
$LAY --poke "$V6" "$WORK/d.dat" "$(val "$j" 'd["cpus"][1]["table_at"] + 8')" "$(hex Q 0x7fffffff0000)"
expect_error cpu-size-huge "$WORK/d.dat" "ends past the end of the file"
$LAY --poke "$V6" "$WORK/d.dat" "$(val "$j" 'd["cpus_at"]')" "$(hex I 100000)"
expect_error cpu-count-huge "$WORK/d.dat" "CPU"
j=$WORK/v7.json
$LAY --poke "$V7" "$WORK/d.dat" "$(val "$j" 'd["options_offset_at"]')" "$(hex Q 0x7fffffffffff)"
expect_error options-offset-huge "$WORK/d.dat" "past the end of the file"
$LAY --poke "$V7" "$WORK/d.dat" "$(val "$j" 'd["last_done_at"]')" "$(hex Q "$(val "$j" 'd["option_sections"][0]["at"]')")"
expect_error options-loop "$WORK/d.dat" "a loop"

# --- a compressed kallsyms is decompressed on a thread while the other
# sections are read; the reason said is still that of the first section
# in the file's order to fail.  sec ID: where section option ID puts its
# section (16 header page ... 19 kallsyms, 21 cmdlines); its block is 16
# bytes in (id, flags, string id, size), its data 8 more (the sizes).
sec() {
	python3 -c '
import json, struct, sys
d = json.load(open(sys.argv[1]))
o = [o for o in d["options"] if o["id"] == int(sys.argv[2])][0]
print(struct.unpack_from("<Q", open(sys.argv[3], "rb").read(), o["data_at"])[0])' "$j" "$1" "$V7"
}
ks=$(sec 19) ev=$(sec 18) cl=$(sec 21)
$LAY --poke "$V7" "$WORK/d.dat" "$((ks + 16 + 8 + 40))" "deadbeefdeadbeefdeadbeefdeadbeef"
expect_error kallsyms-corrupt "$WORK/d.dat" "a compressed section does not decompress"
# an earlier section's reason first, a later one's after kallsyms'
$LAY --poke "$V7" "$WORK/d.dat" "$((ks + 16 + 8 + 40))" "deadbeefdeadbeefdeadbeefdeadbeef" \
	"$((ev + 16 + 4))" "$(hex I 0x7fffffff)"
expect_error kallsyms-corrupt-formats-first "$WORK/d.dat" "compressed section claims 2147483647 bytes"
$LAY --poke "$V7" "$WORK/d.dat" "$((ks + 16 + 8 + 40))" "deadbeefdeadbeefdeadbeefdeadbeef" \
	"$((cl + 16 + 4))" "$(hex I 0x7fffffff)"
expect_error kallsyms-corrupt-before-cmdlines "$WORK/d.dat" "a compressed section does not decompress"
# stat of one file opens it without waiting for kallsyms (tdat_ready()):
# a fault the opening finds after the sections still comes second
$LAY --poke "$V7" "$WORK/d.dat" "$((ks + 16 + 8 + 40))" "deadbeefdeadbeefdeadbeefdeadbeef" \
	"$(val "$j" 'd["cpus"][1]["table_at"] + 8')" "$(hex Q 0x7fffffff0000)"
expect_error kallsyms-corrupt-before-buffers "$WORK/d.dat" "a compressed section does not decompress"
$LAY --poke "$V7" "$WORK/d.dat" "$(val "$j" 'd["cpus"][1]["table_at"] + 8')" "$(hex Q 0x7fffffff0000)"
expect_error v7-cpu-size-huge "$WORK/d.dat" "CPU 1 data of the top buffer ends past the end of the file"
$LAY --poke "$V7" "$WORK/d.dat" "$((cl + 16 + 4))" "$(hex I 0x7fffffff)"
expect_error cmdlines-claims "$WORK/d.dat" "compressed section claims 2147483647 bytes"

# --- compressed chunks: zero and huge sizes, data that does not decompress
c0=$(val "$j" 'd["cpus"][0]["chunks"][0]["at"]')
$LAY --poke "$V7" "$WORK/d.dat" "$c0" "$(hex I 0)"
# two: the chunk inflates to none of the pages it claims, and the next
# header, read from its data, is garbage (the rest of the CPU)
expect_damage chunk-zsize-zero "$WORK/d.dat" "0 ring-buffer pages, 2 compressed chunks "
$LAY --poke "$V7" "$WORK/d.dat" "$c0" "$(hex I 0xffffffff)"
expect_damage chunk-zsize-huge "$WORK/d.dat" "0 ring-buffer pages, 1 compressed chunk "
$LAY --poke "$V7" "$WORK/d.dat" "$((c0 + 4))" "$(hex I 0xffffffff)"
expect_damage chunk-size-huge "$WORK/d.dat" "0 ring-buffer pages, 1 compressed chunk "
$LAY --poke "$V7" "$WORK/d.dat" "$((c0 + 8 + 20))" "deadbeefdeadbeefdeadbeef"
expect_damage chunk-corrupt "$WORK/d.dat" "0 ring-buffer pages, 1 compressed chunk "
# the rest of the file is still counted: fewer events than the whole
run whole "$V7"
if [ "$(events "$WORK/chunk-corrupt.json")" -lt "$(events "$WORK/whole.json")" ] &&
	[ "$(events "$WORK/chunk-corrupt.json")" -gt 0 ]; then
	pass chunk-corrupt-rest-counted
else
	fail chunk-corrupt-rest-counted "events $(events "$WORK/chunk-corrupt.json") of $(events "$WORK/whole.json")"
fi

# --- the chunk table against the CPU's data.  A count 3 too low: the
# 3 chunks past it, which libtracecmd does not read either, said
n0=$(val "$j" 'len(d["cpus"][0]["chunks"])')
$LAY --poke "$V7" "$WORK/d.dat" "$(val "$j" 'd["cpus"][0]["offset"]')" "$(hex I $((n0 - 3)))"
expect_damage chunk-count-low "$WORK/d.dat" "0 ring-buffer pages, 3 compressed chunks "
# a chunk claiming two pages more than its data holds: said, and every
# record read (the pages it lacks would be empty)
ps=$(val "$j" 'd["page_size"]')
$LAY --poke "$V7" "$WORK/d.dat" "$((c0 + 4))" \
	"$(hex I $(($(val "$j" 'd["cpus"][0]["chunks"][0]["size"]') + 2 * ps)))"
expect_damage chunk-size-claims-more "$WORK/d.dat" "0 ring-buffer pages, 1 compressed chunk "
if [ "$(events "$WORK/chunk-size-claims-more.json")" -eq "$(events "$WORK/whole.json")" ]; then
	pass chunk-size-claims-more-all-read
else
	fail chunk-size-claims-more-all-read "events $(events "$WORK/chunk-size-claims-more.json") of $(events "$WORK/whole.json")"
fi
# trace-cmd 3.3's convert counts the chunk count word in a CPU's size
# (3.1's record does not): 4 bytes more is no damage
t0=$(val "$j" 'd["cpus"][0]["table_at"]')
$LAY --poke "$V7" "$WORK/d.dat" "$((t0 + 12))" "$(hex Q $(($(val "$j" 'd["cpus"][0]["size"]') + 4)))"
run cpu-size-with-count "$WORK/d.dat"
if [ "$rc" -eq 0 ] && [ ! -s "$WORK/cpu-size-with-count.err" ] &&
	sed "s|$WORK/d.dat|$V7|" "$WORK/cpu-size-with-count.out" | cmp -s - "$WORK/whole.out"; then
	pass cpu-size-with-count
else
	fail cpu-size-with-count "exit $rc: $(head -c 300 "$WORK/cpu-size-with-count.err")"
fi

# --- ring-buffer pages: a commit past the page, a lying length
j=$WORK/v6.json
p1=$(($(val "$j" 'd["cpus"][0]["offset"]') + 4096))
$LAY --poke "$V6" "$WORK/d.dat" "$((p1 + 8))" "$(hex Q 0x7fff0)"
expect_damage page-commit-past-page "$WORK/d.dat" "1 ring-buffer page, 0 compressed chunks (the first on CPU 0 at offset $(printf '%#x' "$p1"))"
check page-commit-json-counts python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["input"] == {"skipped_records": 0, "damaged_pages": 1, "damaged_chunks": 0,
                      "unread_records": 0, "unknown_records": 0}, d["input"]
assert d["slab"]["complete"] is False
' "$WORK/page-commit-past-page.json"
check page-commit-table-warning grep -q "WARNING: damaged trace data was skipped (records of impossible sizes: 0," "$WORK/page-commit-past-page.out"
# the first event's header: a length word (type_len 0) of 2, size -2
$LAY --poke "$V6" "$WORK/d.dat" "$((p1 + 16))" "$(hex I 0)" "$((p1 + 20))" "$(hex I 2)"
expect_damage page-negative-length "$WORK/d.dat" "1 ring-buffer page, 0 compressed chunks"

# --- valid oddities: both readers agree
# an unknown event id in the first record of CPU 0 (type_len 1-28 first)
p0=$(val "$j" 'd["cpus"][0]["offset"]')
$LAY --poke "$V6" "$WORK/d.dat" "$((p0 + 20))" "$(hex H 0xfffe)"
expect_same unknown-event-id "$WORK/d.dat"
# equal timestamps on two CPUs: the lower CPU first, as libtracecmd
# orders them.  At 5000 CPU 0 frees X and CPU 1 allocates it (a
# free-only, then a live object); CPU 0 allocates Y at 6000 and CPU 1
# frees it at 6001 (matched either way).  The other order would match X.
cat >"$WORK/tie.spec" <<'SPEC'
[kallsyms]
ffffffff81300000 T seq_open
ffffffff81400000 T _etext
[buffer]
0 5000 kfree call_site=0xffffffff81300010 ptr=0xffff888100000100
1 5000 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000100 bytes_req=8 bytes_alloc=8 node=-1
0 6000 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000200 bytes_req=8 bytes_alloc=8 node=-1
1 6001 kfree call_site=0xffffffff81300010 ptr=0xffff888100000200
SPEC
for v in 6 7; do
	python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/tie.spec" -o "$WORK/tie$v.dat" \
		--formats "$TOP/tests/formats/linux-6.18-x86_64.txt" --version $v ||
		{ fail "cpu-tie-v$v" "tdat_writer.py failed"; continue; }
	expect_same "cpu-tie-v$v" "$WORK/tie$v.dat"
	check "cpu-tie-v$v-lower-cpu-first" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["slab"]["summary"]
assert (s["free_only"]["count"], s["alloc_freed"]["count"], s["live"]["count"]) == (1, 1, 1), s
' "$WORK/cpu-tie-v$v.native.json"
done
# CPU 1's third page stamped before everything else: read in file
# order, as libtracecmd reads it, and said in one line
p=$(($(val "$j" 'd["cpus"][1]["offset"]') + 2 * 4096))
$LAY --poke "$V6" "$WORK/d.dat" "$p" "$(hex Q 1000)"
SAID="time goes back by more than 1 ms at 1 ring-buffer page (the first on CPU 1 at offset $(printf '%#x' "$p"))" \
	expect_same timestamps-backwards "$WORK/d.dat"
# A page that starts before the last record of the page ahead of it:
# the kernel does that by microseconds (a page's last event stamped
# after the next page's first), silently up to 1 ms; beyond, said
for back in 999000 1001000; do
	cat >"$WORK/back.spec" <<SPEC
[kallsyms]
ffffffff81300000 T seq_open
ffffffff81400000 T _etext
[buffer]
0 5000000 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000100 bytes_req=8 bytes_alloc=8 node=-1
0 6000000 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000200 bytes_req=8 bytes_alloc=8 node=-1
page 0
0 $((6000000 - back)) kfree call_site=0xffffffff81300010 ptr=0xffff888100000100
0 7000000 kfree call_site=0xffffffff81300010 ptr=0xffff888100000200
1 5500000 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000300 bytes_req=8 bytes_alloc=8 node=-1
SPEC
	for v in 6 7; do
		name=time-back-$back-v$v
		python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/back.spec" -o "$WORK/$name.dat" \
			--formats "$TOP/tests/formats/linux-6.18-x86_64.txt" --version $v ||
			{ fail "$name" "tdat_writer.py failed"; continue; }
		said=
		[ $back -gt 1000000 ] &&
			said="time goes back by more than 1 ms at 1 ring-buffer page (the first on CPU 0 at offset 0x4000)"
		SAID=$said expect_same "$name" "$WORK/$name.dat"
		check "$name-freed" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["slab"]["summary"]
assert (s["alloc_freed"]["count"], s["live"]["count"]) == (2, 1), s
' "$WORK/$name.native.json"
	done
done

# --- timestamp options, applied as libtracecmd applies them; a time
# window that only selects records when the correction is applied
# (the first record's time, read by tests/ref/listing.py: trace-cmd 3.3
# puts a latency column before it)
first=$(trace-cmd report -t -i "$V7N" 2>/dev/null | python3 "$TOP/tests/ref/listing.py" tsv |
	awk -F'\t' 'NR == 1 { print $4 }')
[ -n "$first" ] || fail first-record-time "no record in trace-cmd's listing of $V7N"
win() { awk -v f="$first" -v o="$1" 'BEGIN { printf "%.9f,%.9f", f + o + 0.05, f + o + 0.3 }'; }
optstr() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; echo 00; }
$LAY --add-option "$V7N" "$WORK/o.dat" 7 "$(optstr 1500000000)"
expect_same option-offset "$WORK/o.dat" --time "$(win 1.5)"
$LAY --add-option "$V7N" "$WORK/o.dat" 1 "$(optstr 0x2faf080)"
expect_same option-date "$WORK/o.dat" --time "$(win 50)"
$LAY --add-option "$V7N" "$WORK/o.dat" 14 "$(hex I 3)$(hex I 1)$(hex Q 0)"
expect_same option-tsc2nsec "$WORK/o.dat" --time "$(win 0)" --sort=bytes
run tsc-plain "$V7N" --time "$(win 0)" --sort=bytes
if cmp -s "$WORK/tsc-plain.json" "$WORK/option-tsc2nsec.native.json"; then
	fail option-tsc2nsec-changes "the TSC2NSEC option made no difference"
else
	pass option-tsc2nsec-changes
fi

# --- left to libtracecmd, saying why
ts="$(hex Q 1)$(hex I 0)$(hex I 1)$(hex I 1)$(hex Q 0)$(hex Q 1000)$(hex Q 1)"
$LAY --add-option "$V7N" "$WORK/o.dat" 12 "$ts"
run option-time-shift "$WORK/o.dat"
if sane option-time-shift && grep -q "read with libtracecmd: guest time-shift option" "$WORK/option-time-shift.err"; then
	pass option-time-shift
else
	fail option-time-shift "no fallback line: $(head -2 "$WORK/option-time-shift.err")"
fi
$LAY --add-option "$V7N" "$WORK/o.dat" 22 "$(hex Q 0)0000"
run option-latency "$WORK/o.dat"
# libtracecmd reads the buffer as latency data and fails on it: one line
# says both (the fallback's reason and the failure), exit 2
if [ "$rc" -eq 2 ] && [ "$(wc -l <"$WORK/option-latency.err")" -eq 1 ] &&
	grep -qx "trace-kmem: $WORK/o.dat: cannot read the trace: latency trace data, and libtracecmd fails on it" "$WORK/option-latency.err"; then
	pass option-latency
else
	fail option-latency "not one line saying both (exit $rc): $(head -2 "$WORK/option-latency.err")"
fi

# --- every byte of a version 7 file in a section the options name
# (reader/spans.c).  A section a newer trace-cmd writes (the modules,
# id 25 here), named by an 8-byte option of its id, and a second strings
# section (one sent over the network before the data is named by
# nothing) are read past, the report unchanged; 16 bytes in no section,
# or a section whose option's id is another's, are refused.
addsec() {	# addsec IN OUT ID PAYLOAD: a section appended, "OFFSET" printed
	python3 - "$@" <<'PY'
import struct, sys
src, out, sid, payload = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].encode()
d = open(src, "rb").read()
open(out, "wb").write(d + struct.pack("<HHIQ", sid, 0, 0, len(payload)) + payload)
print(len(d))
PY
}
off=$(addsec "$V7N" "$WORK/m.dat" 25 "ext4 1 2 - Live 0x0")
$LAY --add-option "$WORK/m.dat" "$WORK/o.dat" 25 "$(hex Q "$off")"
expect_same section-newer-named "$WORK/o.dat"
addsec "$V7N" "$WORK/s.dat" 15 "strings" >/dev/null
$LAY --add-option "$WORK/s.dat" "$WORK/o.dat" 7 "$(optstr 0)"
expect_same section-second-strings "$WORK/o.dat"
python3 -c "import sys; open(sys.argv[2], 'wb').write(open(sys.argv[1], 'rb').read() + bytes(16))" "$V7N" "$WORK/z.dat"
expect_error section-bytes-after "$WORK/z.dat" "16 bytes at offset $(size "$V7N") are in no section the options name"
off=$(addsec "$V7N" "$WORK/m.dat" 25 "ext4 1 2 - Live 0x0")
$LAY --add-option "$WORK/m.dat" "$WORK/o.dat" 26 "$(hex Q "$off")"
expect_error section-option-other-id "$WORK/o.dat" "35 bytes at offset $off are in no section the options name"

# --- version 6: what lies between and after the buffers' data is only
# their "flyrecord" parts (the CPU table, the clock), so a file with
# empty instances between and after, or with 300 CPUs (a table of more
# than a page), is read; trace-cmd's own v6 copy of each too
python3 - "$TOP" "$WORK" <<'PY' || fail v6-parts-craft "craft failed"
import os, sys
top, work = sys.argv[1:3]
sys.path.insert(0, os.path.join(top, "tests", "regress"))
sys.path.insert(0, os.path.join(top, "tests", "lib"))
import craft
line = ("%d %d kmalloc pid=100 call_site=0xffffffff81300010 ptr=%#x bytes_req=40 "
        "bytes_alloc=64 gfp_flags=0xcc0 node=-1")
inst = "[buffer inst]\n" + line % (0, 999000, 0xffff888200000000) + "\n"
craft.write(os.path.join(work, "empty-inst.dat"),
            craft.spec(n=40) + "[buffer empty1]\n" + inst + "[buffer empty2]\n",
            craft.FORMATS, "--version", "6")
text = "\n".join(["[kallsyms]", craft.KALLSYMS.rstrip("\n"), "[buffer]"] +
                 [line % (i % 2 * 299, 1000 + i * 1000, 0xffff888100001000 + i * 64)
                  for i in range(20)]) + "\n" + inst.replace("0 999000", "5 999000")
craft.write(os.path.join(work, "cpus300.dat"), text, craft.FORMATS, "--version", "6")
PY
for f in empty-inst cpus300; do
	trace-cmd convert --file-version 6 -i "$WORK/$f.dat" -o "$WORK/$f.tc.dat" >/dev/null 2>&1 ||
		fail "v6-parts-$f-convert" "trace-cmd convert failed"
	for g in "$f" "$f.tc"; do
		run "v6-parts-$g" "$WORK/$g.dat"
		if [ "$rc" -eq 0 ] && grep -q "kmem statistics" "$WORK/v6-parts-$g.out" &&
			! grep -q "no CPU's" "$WORK/v6-parts-$g.err"; then
			pass "v6-parts-$g"
		else
			fail "v6-parts-$g" "exit $rc: $(head -2 "$WORK/v6-parts-$g.err")"
		fi
	done
done

# --- strings from the file on one line: control characters become '?'
# no_controls NAME: stdout and stderr hold no control character but tab
# and newline
no_controls() {
	! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$WORK/$1.out" "$WORK/$1.err"
}
# the NUL after v7's compression name made a newline: left to libtracecmd
# (which refuses it), one line with both readers' word, the name's
# newline a '?' (the name starts at byte 18: magic, version, endianness,
# long and page sizes)
at=$((18 + $(val "$WORK/v7n.json" 'len(d["compression"])')))
$LAY --poke "$V7N" "$WORK/c.dat" "$at" 0a
run compression-name-newline "$WORK/c.dat"
if sane compression-name-newline && [ "$rc" -eq 2 ] &&
	[ "$(wc -l <"$WORK/compression-name-newline.err")" -eq 1 ] &&
	grep -q "^trace-kmem: $WORK/c.dat: cannot read the trace: compression \"none?.*and libtracecmd fails on it\$" "$WORK/compression-name-newline.err" &&
	no_controls compression-name-newline; then
	pass compression-name-newline
else
	fail compression-name-newline "exit $rc: $(head -c 300 "$WORK/compression-name-newline.err" | od -c | head -5)"
fi
# an instance named "kmem<ESC><newline>ab" (instance-mixed.dat's
# "kmemslab"): its report's title says "kmem??ab", with either reader
I7=$WORK/inst.dat
cp "$TOP/sample-data/instance-mixed.dat" "$I7"
$LAY "$I7" >"$WORK/inst.json"
at=$(val "$WORK/inst.json" '[o["data_at"] for o in d["options"] if o["id"] == 3][-1] + 8 + 4')
$LAY --poke "$I7" "$WORK/i.dat" "$at" 1b0a
for r in native libtracecmd; do
	run instance-name-controls-$r "$WORK/i.dat" --reader=$r
	if sane instance-name-controls-$r && [ "$rc" -eq 0 ] &&
		grep -q "kmem statistics: $WORK/i.dat (instance kmem??ab)" \
			"$WORK/instance-name-controls-$r.out" &&
		no_controls instance-name-controls-$r; then
		pass instance-name-controls-$r
	else
		fail instance-name-controls-$r "exit $rc: $(grep -a -m1 instance "$WORK/instance-name-controls-$r.out" | od -c | head -3)"
	fi
done
# and a chunk of that instance damaged: both readers find it under the
# plain name (libtracecmd's reader asks the check's scan by name)
$LAY "$WORK/i.dat" >"$WORK/i.json"
at=$(val "$WORK/i.json" '[c for c in d["cpus"] if c["buffer"]][0]["chunks"][1]["at"] + 8 + 100')
$LAY --poke "$WORK/i.dat" "$WORK/id.dat" "$at" ffffffffffffffffffffffffffffffff
for r in native libtracecmd; do
	run instance-name-controls-damage-$r "$WORK/id.dat" --reader=$r
	if sane instance-name-controls-damage-$r && [ "$rc" -eq 0 ] &&
		grep -q "^trace-kmem: $WORK/id.dat (instance kmem??ab): damaged data skipped: " \
			"$WORK/instance-name-controls-damage-$r.err" &&
		no_controls instance-name-controls-damage-$r; then
		pass instance-name-controls-damage-$r
	else
		fail instance-name-controls-damage-$r "exit $rc: $(head -c 300 "$WORK/instance-name-controls-damage-$r.err")"
	fi
done
finish
