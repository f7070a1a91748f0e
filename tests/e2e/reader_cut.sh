#!/bin/bash
# A version 7 file cut near its end (issue 20, point 7): trace-kmem stat
# reads what is left, with one line saying where the file was cut and
# what was lost, or, with nothing left, one line and exit 2.  The numbers
# read from a cut file are checked against independent readings of the
# intact file: its report for the CPUs the cut left whole (--cpu), and
# libtracecmd's reading of a copy of it whose last CPU's chunk count is
# lowered to the chunks the cut left (the same records, read by the
# other reader).  tests/lib/tdat_layout.py finds where to cut.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
LAY="python3 $TOP/tests/lib/tdat_layout.py"
[ -x "$TK" ] || { fail reader-cut "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never
V7=$WORK/v7.dat V7N=$WORK/v7n.dat I7=$WORK/i7.dat
cp "$TOP/sample-data/slab-pingpong.dat" "$V7"
cp "$TOP/sample-data/instance-mixed.dat" "$I7"
trace-cmd convert -i "$V7" -o "$V7N" --compression none >/dev/null 2>&1 ||
	{ fail reader-cut "trace-cmd convert failed"; finish; }
for f in v7 v7n i7; do
	$LAY "$WORK/$f.dat" >"$WORK/$f.json" || { fail reader-cut "tdat_layout.py failed"; finish; }
done
val() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
size() { stat -c %s "$1"; }
cut() { $LAY --truncate "$1" "$WORK/$2.dat" "$3"; }

# run NAME [ARGS...]: trace-kmem stat on $WORK/NAME.dat
run() {
	local name=$1
	shift
	timeout 60 "$TK" stat "$@" --json="$WORK/$name.out.json" "$WORK/$name.dat" \
		>"$WORK/$name.out" 2>"$WORK/$name.err"
	rc=$?
}
# expect_report NAME PATTERN [ARGS...]: exit 0, one report, one line on
# stderr naming the file and matching PATTERN
expect_report() {
	local name=$1 pat=$2
	shift 2
	run "$name" "$@"
	if [ "$rc" -ne 0 ] || [ "$(grep -c 'kmem statistics' "$WORK/$name.out")" -lt 1 ]; then
		fail "$name" "exit $rc, no report: $(head -c 300 "$WORK/$name.err")"
	elif [ "$(wc -l <"$WORK/$name.err")" -ne 1 ] ||
		! grep -q -- "^trace-kmem: $WORK/$name.dat: file cut at .*$pat" "$WORK/$name.err"; then
		fail "$name" "wanted one line '$pat': $(head -c 400 "$WORK/$name.err")"
	else
		pass "$name"
	fi
}
# expect_error NAME PATTERN [ARGS...]: exit 2, nothing on stdout, one line
expect_error() {
	local name=$1 pat=$2
	shift 2
	run "$name" "$@"
	if [ "$rc" -ne 2 ] || [ -s "$WORK/$name.out" ] || [ "$(wc -l <"$WORK/$name.err")" -ne 1 ] ||
		! grep -q -- "^trace-kmem: $WORK/$name.dat: .*$pat" "$WORK/$name.err"; then
		fail "$name" "exit $rc, wanted exit 2 and one line '$pat': $(head -c 400 "$WORK/$name.out" "$WORK/$name.err")"
	else
		pass "$name"
	fi
}
# same_json NAME A.json B.json: equal but for the file name and the
# damage counts
same_json() {
	if python3 - "$2" "$3" <<'EOF'; then pass "$1"; else fail "$1" "$2 and $3 differ"; fi
import json, sys
# what the damage itself changes: its counts, and so "complete" and the
# reason repeated frees may not be double frees (damaged_chunks checks it)
def norm(d):
    if isinstance(d, dict):
        return {k: norm(v) for k, v in d.items()
                if k not in ("file", "damaged_chunks", "damaged_pages", "complete",
                             "double_frees_doubt")}
    if isinstance(d, list):
        return [norm(v) for v in d]
    return d
a, b = (norm(json.load(open(p))) for p in sys.argv[1:3])
if a != b:
    print("differ:", json.dumps(a)[:300], json.dumps(b)[:300])
    sys.exit(1)
EOF
}
# damaged_chunks NAME N: the JSON counts N chunks and the report warns
damaged_chunks() {
	local got doubt
	got=$(val "$WORK/$1.out.json" 'd["input"]["damaged_chunks"]')
	doubt=$(val "$WORK/$1.out.json" 'd["slab"]["summary"]["double_frees_doubt"]')
	if [ "$got" = "$2" ] && grep -q "WARNING: damaged trace data was skipped" "$WORK/$1.out" &&
		[ "$doubt" = "damaged trace data was skipped" ]; then
		pass "$1-counted"
	else
		fail "$1-counted" "damaged_chunks $got, wanted $2, the WARNING and the doubt ($doubt)"
	fi
}

# the intact files, for comparison
cp "$V7" "$WORK/whole.dat"
run whole
cp "$V7" "$WORK/whole0.dat"
run whole0 --cpu 0
j=$WORK/v7.json
last_opts=$(val "$j" 'd["option_sections"][-1]["at"]')

# --- a few bytes off: only the strings section (the names) is cut
cut "$V7" strings $(($(size "$V7") - 10))
expect_report strings "no options or trace data lost"
same_json strings-same "$WORK/strings.out.json" "$WORK/whole.out.json"

# --- the last options section (the BUFFER option) gone, or cut in it
cut "$V7" last-options "$last_opts"
expect_report last-options "lost the options from offset $last_opts on, but no trace data before them"
same_json last-options-same "$WORK/last-options.out.json" "$WORK/whole.out.json"
cut "$V7" in-last-options $((last_opts + 40))
expect_report in-last-options "lost the options from offset $last_opts on, but no trace data before them"
same_json in-last-options-same "$WORK/in-last-options.out.json" "$WORK/whole.out.json"

# --- cut inside the last CPU's chunks: its whole chunks are read
k=$(val "$j" 'len(d["cpus"][-1]["chunks"]) // 2')
n=$(val "$j" 'len(d["cpus"][-1]["chunks"])')
at=$(val "$j" "d['cpus'][-1]['chunks'][$k]['at']")
data_end=$(val "$j" 'd["cpus"][-1]["offset"] + d["cpus"][-1]["size"] + 4')
cut "$V7" in-last-cpu $((at + 10))
expect_report in-last-cpu "lost $((data_end - at)) bytes of CPU 1 of the top buffer ($((n - k)) compressed chunks)"
damaged_chunks in-last-cpu $((n - k))
# independent: CPU 0, whole, as the intact file's CPU 0
cp "$WORK/in-last-cpu.dat" "$WORK/in-last-cpu0.dat"
expect_report in-last-cpu0 "lost" --cpu 0
same_json in-last-cpu-cpu0-as-intact "$WORK/in-last-cpu0.out.json" "$WORK/whole0.out.json"
# independent: libtracecmd on the intact file told to read k chunks (the
# n - k chunks past the lowered count are said as damage, not read)
hexk=$(python3 -c "import struct,sys; print(struct.pack('<I', int(sys.argv[1])).hex())" "$k")
$LAY --poke "$V7" "$WORK/kchunks.dat" "$(val "$j" 'd["cpus"][-1]["offset"]')" "$hexk"
run kchunks --reader=libtracecmd
if [ "$rc" -eq 0 ] && [ "$(wc -l <"$WORK/kchunks.err")" -eq 1 ] &&
	grep -q "damaged data skipped: 0 ring-buffer pages, $((n - k)) compressed chunks " "$WORK/kchunks.err"; then
	same_json in-last-cpu-as-libtracecmd "$WORK/in-last-cpu.out.json" "$WORK/kchunks.out.json"
else
	fail in-last-cpu-as-libtracecmd "libtracecmd on the lowered count: exit $rc $(head -c 200 "$WORK/kchunks.err")"
fi
# the chunk count itself cut: CPU 1 lost, CPU 0 read
cut "$V7" in-last-count $(($(val "$j" 'd["cpus"][-1]["offset"]') + 2))
expect_report in-last-count "of CPU 1 of the top buffer (at least 1 compressed chunk)"
cp "$WORK/in-last-count.dat" "$WORK/in-last-count0.dat"
run in-last-count0 --cpu 0
same_json in-last-count-cpu0-as-intact "$WORK/in-last-count0.out.json" "$WORK/whole0.out.json"

# --- cut in the first CPU's data: which CPU it is cannot be told
cut "$V7" in-first-cpu $(($(val "$j" 'd["cpus"][0]["chunks"][2]["at"]') + 10))
expect_error in-first-cpu "cannot say which CPU each is); nothing left to read"

# --- uncompressed: pages do not show their CPU
j=$WORK/v7n.json
cut "$V7N" v7n-in-data $(($(val "$j" 'd["cpus"][-1]["offset"]') + 5000))
expect_error v7n-in-data "uncompressed pages do not show their CPU); nothing left to read"

# --- an instance cut off: the top buffer is read, the instance said
j=$WORK/i7.json
inst=$(val "$j" '[c for c in d["cpus"] if c["buffer"]][0]["offset"]')
cut "$I7" in-instance $((inst + 30000))
expect_report in-instance "lost a buffer instance's data section of"
if [ "$(grep -c 'kmem statistics' "$WORK/in-instance.out")" -eq 1 ]; then
	pass in-instance-top-only
else
	fail in-instance-top-only "wanted the top buffer's report alone"
fi

# --- the libtracecmd path: a cut file that lost data or options is
# refused in one line; one that lost only the names is said and read
cp "$WORK/in-last-cpu.dat" "$WORK/lib-in-last-cpu.dat"
expect_error lib-in-last-cpu "libtracecmd cannot read it" --reader=libtracecmd
cp "$WORK/last-options.dat" "$WORK/lib-last-options.dat"
expect_error lib-last-options "libtracecmd cannot read it" --reader=libtracecmd
cp "$WORK/strings.dat" "$WORK/lib-strings.dat"
expect_report lib-strings "no options or trace data lost" --reader=libtracecmd

# --- plot and diff read it too, with the same line
timeout 60 "$TK" plot -o "$WORK/p.svg" "$WORK/in-last-cpu.dat" >/dev/null 2>"$WORK/p.err"
if [ $? -eq 0 ] && [ "$(wc -l <"$WORK/p.err")" -eq 1 ] && grep -q "file cut at" "$WORK/p.err" && [ -s "$WORK/p.svg" ]; then
	pass plot-in-last-cpu
else
	fail plot-in-last-cpu "$(head -c 300 "$WORK/p.err")"
fi
finish
