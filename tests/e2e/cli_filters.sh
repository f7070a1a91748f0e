#!/bin/bash
# test: slow
# trace-kmem stat's filters, each checked against an independent
# computation over `trace-cmd report` listings:
#  - slab statistics: every number of the JSON and the tables against
#    tests/ref/kmem_ref.py, which applies --pid/--comm/--time to the
#    listing's comm-pid and timestamp columns itself, and --cpu through
#    `trace-cmd report --cpu`;
#  - page allocator: allocations, bytes and frees counted here from the
#    listing lines the filter keeps.
# Pids, command name and time window come from the listing: the two
# busiest pids, the busiest command, the middle half of the trace with
# timestamps as trace-cmd prints them (microseconds).
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail cli-filters "no $TK (run make)"; finish; }
REF=$TOP/tests/ref/kmem_ref.py
CMP=$TOP/tests/ref/compare_json.py
LST=$TOP/tests/ref/listing.py
S=$TOP/sample-data

# picks FILE: sets pids (2, comma separated), pid1, comm, window
# (from the listing's records, read by tests/ref/listing.py: comm pid cpu
# ts event rest, tab-separated, for trace-cmd 3.1 and 3.3 alike)
picks() {
	trace-cmd report -i "$1" 2>/dev/null | python3 "$LST" tsv >"$WORK/list"
	awk -F'\t' '{ n[$2]++ } END { for (p in n) print n[p], p }' \
		"$WORK/list" | sort -rn | awk '{print $2}' >"$WORK/pids"
	pid1=$(sed -n 1p "$WORK/pids")
	pids=$pid1
	[ "$(wc -l <"$WORK/pids")" -ge 3 ] && pids=$pid1,$(sed -n 3p "$WORK/pids")
	# a command that is not every task's
	comm=$(awk -F'\t' '$1 !~ / / { n[$1]++ } END { for (c in n) print n[c], c }' \
		"$WORK/list" | sort -rn | awk 'NR <= 2 { c = $2 } END { print c }')
	window=$(awk -F'\t' '{ k[++n] = $4 } END {
		a = k[int(n / 4) + 1]; b = k[int(3 * n / 4)]; print a "," b }' "$WORK/list")
}

# slab FILE NAME TK_ARGS REF_ARGS: trace-kmem vs the reference
slab() {
	local f=$1 name=$2 targs=$3 rargs=$4 out=$WORK/$2
	# shellcheck disable=SC2086
	if ! "$TK" stat $targs --json-rows=all --json="$out.json" -o "$out.txt" "$f" 2>"$out.err"; then
		fail "$name" "trace-kmem failed: $(head -2 "$out.err")"
		return
	fi
	# shellcheck disable=SC2086
	if ! python3 "$REF" $rargs "$f" >"$out.ref.json" 2>"$out.ref.err"; then
		fail "$name" "reference failed: $(tail -2 "$out.ref.err")"
		return
	fi
	python3 "$CMP" --ref "$out.ref.json" --name "$name" --json "$out.json" --text "$out.txt" \
		--tables callsites --lines 10
	# the filter must have kept something and removed something
	got=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["slab"]["summary"]; print(s["allocs"]+s["frees"])' "$out.json")
	all=$("$TK" stat --json "$f" | python3 -c 'import json,sys; s=json.load(sys.stdin)["slab"]["summary"]; print(s["allocs"]+s["frees"])')
	check "$name:kept-some" test "$got" -gt 0
	check "$name:removed-some" test "$got" -lt "$all"
}

for b in slab-fork-exec slab-pingpong; do
	f=$S/$b.dat
	picks "$f"
	slab "$f" "$b.cpu1" "--cpu 1" "--report-args=--cpu=1"
	slab "$f" "$b.pid" "--pid $pids" "--pid=$pids"
	slab "$f" "$b.time" "--time $window" "--time=$window"
	slab "$f" "$b.time-open-end" "--time ${window%,*}," "--time=${window%,*},"
	slab "$f" "$b.pid-time" "--pid $pid1 --time $window" "--pid=$pid1 --time=$window"
done

# page FILE NAME TK_ARGS AWK_FILTER: counts from the raw listing; the
# filter sees comm, pid, cpu and tsn (the timestamp in nanoseconds)
page() {
	local f=$1 name=$2 targs=$3 flt=$4 out=$WORK/$2
	# shellcheck disable=SC2086
	"$TK" stat $targs --json="$out.json" -o /dev/null "$f" || { fail "$name" "trace-kmem failed"; return; }
	cat >"$out.awk" <<AWK
{
	comm = \$1; pid = \$2 + 0; cpu = \$3 + 0
	split(\$4, p, "."); tsn = p[1] * 1000000000 + p[2]
	if (!($flt)) next
	r = " " \$6 " "
	o = r; sub(/.* order=/, "", o); sub(/ .*/, "", o)
	if (\$5 == "mm_page_alloc" && r ~ / pfn=0x[0-9a-f]+ /) { a++; ab += 4096 * 2 ^ o }
	if (\$5 == "mm_page_free") { fr++; fb += 4096 * 2 ^ o }
}
END { printf "%d %d %d %d\\n", a, ab, fr, fb }
AWK
	# (the listing read once per file)
	if [ "$(cat "$WORK/page.tsv.of" 2>/dev/null)" != "$f" ]; then
		trace-cmd report -N -R -t -i "$f" 2>/dev/null | python3 "$LST" tsv >"$WORK/page.tsv"
		echo "$f" >"$WORK/page.tsv.of"
	fi
	awk -F'\t' -f "$out.awk" "$WORK/page.tsv" >"$out.want"
	python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["page"]["summary"]; print(s["allocs"], s["alloc_bytes"], s["frees"], s["free_bytes"])' \
		"$out.json" >"$out.got"
	if cmp -s "$out.want" "$out.got" && [ "$(cut -d' ' -f1 "$out.want")" -gt 0 ]; then
		pass "$name"
	else
		fail "$name" "allocs bytes frees bytes: trace-kmem $(cat "$out.got"), listing $(cat "$out.want")"
	fi
}

# ns START,END -> "START_NS END_NS" (both as given)
ns() {
	python3 -c 'import sys
s, e = sys.argv[1].split(",")
def n(t):
    a, _, b = t.partition(".")
    return int(a) * 10**9 + int(b.ljust(9, "0"))
print(n(s), n(e))' "$1"
}

f=$S/page-trigger.dat
picks "$f"
# (every task of the two slab samples has one command name)
slab "$f" "page-trigger.slab-comm" "--comm $comm" "--comm=$comm"
read -r ws we < <(ns "$window")
page "$f" page-trigger.cpu0 "--cpu 0" 'cpu == 0'
page "$f" page-trigger.pid "--pid $pid1" "pid == $pid1"
page "$f" page-trigger.comm "--comm $comm" "comm == \"$comm\""
page "$f" page-trigger.time "--time $window" "tsn >= $ws && tsn <= $we"
page "$f" page-trigger.cpu-pid "--cpu 1 --pid $pid1" "cpu == 1 && pid == $pid1"

# ---- --time as given: 175,176 is 175.000000000 to 176.000000000, END
# included; a record 500 ns after it is not (the old "printed precision"
# rule took it)
cat >"$WORK/t.spec" <<'SPEC'
[kallsyms]
ffffffff81300000 T seq_open
ffffffff81400000 T _etext
[buffer]
0 174.999999999 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000100 bytes_req=8 bytes_alloc=8 node=-1
0 175.000000000 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000200 bytes_req=8 bytes_alloc=8 node=-1
0 175.999999999 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000300 bytes_req=8 bytes_alloc=8 node=-1
0 176.000000000 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000400 bytes_req=8 bytes_alloc=8 node=-1
0 176.000000500 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000500 bytes_req=8 bytes_alloc=8 node=-1
SPEC
python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/t.spec" -o "$WORK/t.dat" \
	--formats "$TOP/tests/formats/linux-6.18-x86_64.txt" --version 6
for c in "175,176|3" "175.5,176.0000005|3" "175.5,176.0000004|2" "175,|4" ",175|2" "176.000000001,176.0000005|1"; do
	w=${c%|*} want=${c#*|}
	got=$("$TK" stat --time "$w" --json=- "$WORK/t.dat" | python3 -c '
import json, sys
print(json.load(sys.stdin)["slab"]["summary"]["allocs"])')
	check "time-as-given-$w" test "$got" = "$want"
done

# ---- nothing to show: the filters or the trace, said as such
nothing() {	# nothing NAME FILE "LINE" ARGS...
	local name=$1 file=$2 want=$3
	shift 3
	"$TK" stat "$@" "$file" >"$WORK/none.out" 2>"$WORK/none.err"
	check "nothing-$name-exit-0" test $? -eq 0
	check "nothing-$name-said" grep -qxF -- "$want" "$WORK/none.out"
	check "nothing-$name-no-table" sh -c "! grep -q -- '-----' '$WORK/none.out'"
}
A=$S/slab-pingpong.dat
nkmem=$("$TK" stat --json=- "$A" | python3 -c '
import json, sys
n = json.load(sys.stdin)["slab"]["events"]
print(f"{n:,}")')
nothing comm "$A" " No slab, page, per-CPU or vmalloc allocator records matched the filters (--comm): all $nkmem kmem records were left out." --comm nosuch
nothing cpu "$A" " No slab, page, per-CPU or vmalloc allocator records matched the filters (--cpu)." --cpu 99
nothing cpu-libtracecmd "$A" " No slab, page, per-CPU or vmalloc allocator records matched the filters (--cpu)." --cpu 99 --reader=libtracecmd
# in 80 columns: the events on a line of their own
nothing page-in-slab-trace "$A" " No page allocator events in this trace" --page
check nothing-page-in-slab-trace-events grep -qxF " (kmem:mm_page_alloc, kmem:mm_page_free ...)." "$WORK/none.out"
check nothing-80-columns awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$WORK/none.out"
nothing slab-in-page-trace "$S/page-extfrag.dat" " No slab allocator events (kmem:kmalloc, kmem:kfree ...) in this trace." --slab
finish
