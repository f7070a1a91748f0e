#!/bin/bash
# pprof profiles (--pprof, -O kmem:pprof=), read by go tool pprof (Debian's
# golang-go), the profiling ecosystem's own reader:
#  - a profile built by hand (test_pprof --write) reads back as written;
#  - on every sample, -raw gives one sample per call-site row of the JSON
#    report of the same run (or, where the trace has kernel stacks,
#    stacks whose leaves add up to the rows and whose values add up to
#    the summary), and -top per sample type and per allocator
#    (-tagfocus) gives the JSON's totals and per-function sums;
#  - the plugin writes the same profile, and the listing stays as it is;
#  - several traces: each sample labelled trace=, each against its part
#    of the JSON; --pprof-label on every sample, bad labels refused;
#  - filters and damaged traces: the same rows as the JSON, the damage
#    and what was left out in comments; a failed run leaves the old file.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
B=$(dirname "$PLUGIN_DIR")
[ -x "$TK" ] || { fail pprof "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never
if ! command -v go >/dev/null; then
	echo "SKIP pprof: no go (Debian's golang-go: make check-deps)"
	finish
fi
# go keeps its caches under $HOME; a test's own
export HOME=$WORK GOFLAGS=-mod=mod GOTOOLCHAIN=local
CHECK_PY=$TOP/tests/lib/pprof_vs_json.py
TYPES="alloc_objects alloc_space inuse_objects inuse_space wasted_space"

raw() { go tool pprof -raw "$1" 2>/dev/null; }
top() { # top PROFILE TYPE [pprof options]
	local f=$1 t=$2
	shift 2
	go tool pprof -top -unit=B -nodecount=100000 -nodefraction=0 \
		-sample_index="$t" "$@" "$f" 2>/dev/null
}

# ---- a profile built by hand, read by go tool pprof
"$B/tests/test_pprof" --write "$WORK/hand.pb.gz" >/dev/null
raw "$WORK/hand.pb.gz" >"$WORK/hand.raw"
check pprof-hand-comment grep -qx 'Comment: trace: a.dat' "$WORK/hand.raw"
check pprof-hand-types grep -qx 'alloc_objects/count alloc_space/bytes\[dflt\]' "$WORK/hand.raw"
check pprof-hand-samples python3 - "$WORK/hand.raw" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
# 3 objects, 192 bytes at kmalloc_trace+0x10 called from do_sys_open+0x20
# (labels allocator=slab host=a, 64 bytes each); 1 of 4096 bytes at
# kmalloc_trace+0x18
samples = re.findall(r"^\s+(\d+)\s+(\d+): ([\d ]+?) *$", t, re.M)
assert samples == [("3", "192", "1 2"), ("1", "4096", "3")], samples
locs = re.findall(r"^\s+(\d): (0x[0-9a-f]+) M=1 (\S+) :(\d+)(?::\d+)? s=0$", t, re.M)
assert locs == [("1", "0xffffffff81000010", "kmalloc_trace", "16"),
                ("2", "0xffffffff81000100", "do_sys_open", "32"),
                ("3", "0xffffffff81000018", "kmalloc_trace", "24")], locs
assert "allocator:[slab] host:[a]" in t and "bytes:[64 bytes]" in t
assert "[kernel.kallsyms]" in t
PY

# ---- every sample: the CLI's profile against its JSON, the plugin's
for f in "$TOP"/sample-data/*.dat; do
	b=$(basename "$f" .dat)
	"$TK" stat --json="$WORK/$b.json" --pprof="$WORK/$b.pb.gz" -o /dev/null "$f" 2>/dev/null
	raw "$WORK/$b.pb.gz" >"$WORK/$b.raw"
	check "pprof-$b-raw" python3 "$CHECK_PY" raw "$WORK/$b.raw" "$WORK/$b.json"
	for t in $TYPES; do
		top "$WORK/$b.pb.gz" "$t" >"$WORK/$b.$t.top"
		check "pprof-$b-top-$t" python3 "$CHECK_PY" top "$WORK/$b.$t.top" "$WORK/$b.json" "$t"
	done
	for a in slab page percpu vmalloc; do
		grep -q "allocator:\[$a\]" "$WORK/$b.raw" || continue
		top "$WORK/$b.pb.gz" alloc_space -tagfocus="allocator=$a" >"$WORK/$b.$a.top"
		check "pprof-$b-tagfocus-$a" python3 "$CHECK_PY" top "$WORK/$b.$a.top" \
			"$WORK/$b.json" alloc_space "$a"
	done
	# the plugin's profile against the plugin's JSON (it reads the
	# top-level buffer, and slab stacks it does not collect)
	TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -O "kmem:pprof=$WORK/$b.plugin.pb.gz" \
		-O "kmem:json=$WORK/$b.plugin.json" "$f" >"$WORK/$b.listing" 2>/dev/null
	raw "$WORK/$b.plugin.pb.gz" >"$WORK/$b.plugin.raw"
	check "pprof-$b-plugin" python3 "$CHECK_PY" raw "$WORK/$b.plugin.raw" "$WORK/$b.plugin.json"
	trace-cmd report "$f" >"$WORK/$b.listing0" 2>/dev/null
	check "pprof-$b-plugin-listing-unchanged" cmp -s "$WORK/$b.listing0" "$WORK/$b.listing"
done

# the page samples of a trace without stacks: order, migratetype, gfp,
# each filtering to the JSON rows that have it
f=$TOP/sample-data/page-extfrag.dat
"$TK" stat --json="$WORK/x.json" --pprof="$WORK/x.pb.gz" -o /dev/null "$f"
top "$WORK/x.pb.gz" alloc_objects '-tagfocus=order=^0$' >"$WORK/x.top"
check pprof-tagfocus-order python3 - "$WORK/x.top" "$WORK/x.json" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[2]))
want = sum(r["hits"] for r in d["page"]["callsites"] if r["order"] == 0)
got = int(re.search(r"Showing nodes accounting for (\d+)B?,", open(sys.argv[1]).read()).group(1))
assert want and got == want, (got, want)
PY

# the slab samples: cache, the one cache of a call site's allocations,
# filtering to the JSON rows that name it; a call site of several caches
# has no cache label
f=$TOP/sample-data/slab-fork-exec.dat
"$TK" stat --json="$WORK/c.json" --pprof="$WORK/c.pb.gz" -o /dev/null "$f"
for cache in names_cache maple_node; do
	top "$WORK/c.pb.gz" alloc_space "-tagfocus=cache=^$cache\$" >"$WORK/c.top"
	check "pprof-tagfocus-cache-$cache" python3 - "$WORK/c.top" "$WORK/c.json" "$cache" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[2]))
want = sum(r["bytes_alloc"] for r in d["slab"]["callsites"] if r["cache"] == sys.argv[3])
got = int(re.search(r"Showing nodes accounting for (\d+)B?,", open(sys.argv[1]).read()).group(1))
assert want and got == want, (got, want)
PY
done
raw "$WORK/c.pb.gz" >"$WORK/c.raw"
check pprof-cache-labels python3 - "$WORK/c.raw" "$WORK/c.json" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[2]))
rows = d["slab"]["callsites"]
t = open(sys.argv[1]).read()
n = len(re.findall(r"cache:\[", t))
assert n == sum(1 for r in rows if r["cache"]) and n > 10, n
PY

# ---- several traces: trace= on each sample, the user's labels on all
a=$TOP/sample-data/slab-fork-exec.dat c=$TOP/sample-data/page-stacktrace.dat
"$TK" stat --json="$WORK/two.json" --pprof="$WORK/two.pb.gz" --pprof-label host=h1,cluster=c1 \
	--pprof-label kernel=6.1 --rows="$WORK/two.rows" -o /dev/null "$a" "$c"
raw "$WORK/two.pb.gz" >"$WORK/two.raw"
check pprof-several-raw python3 "$CHECK_PY" raw "$WORK/two.raw" "$WORK/two.json" \
	host=h1 cluster=c1 kernel=6.1
check pprof-several-trace-labels test "$(grep -o 'trace:\[[^]]*\]' "$WORK/two.raw" | sort -u | wc -l)" -eq 2
# the earliest start, the spans summed (as go tool pprof -proto merges),
# against the rows' start_ns and end_ns
top "$WORK/two.pb.gz" alloc_space >"$WORK/two.top"
check pprof-several-span python3 - "$WORK/two.raw" "$WORK/two.rows" "$WORK/two.top" <<'PY'
import json, re, sys
t = open(sys.argv[1]).read()
spans = {}
for l in open(sys.argv[2]):
    r = json.loads(l)
    spans[r["file"]] = (r["start_ns"], r["end_ns"])
assert len(spans) == 2, spans
m = re.search(r"^Time: 1970-01-01 (\d\d):(\d\d):(\d\d)\.(\d{9}) ", t, re.M)
start = ((int(m.group(1)) * 60 + int(m.group(2))) * 60 + int(m.group(3))) * 10**9 + int(m.group(4))
assert start == min(s for s, e in spans.values()), (start, spans)
# -top: "Duration: 907.23ms, Total samples = ..." (-raw cuts the unit)
m = re.search(r"^Duration: ([\d.]+)(ms|s),", open(sys.argv[3]).read(), re.M)
dur_ms = float(m.group(1)) * (1000 if m.group(2) == "s" else 1)
want = sum(e - s for s, e in spans.values()) / 1e6
assert abs(dur_ms - want) <= 0.01 * want, (dur_ms, want)
PY

# bad labels: one line, exit 1 (a bad value), no file
for bad in 'host' '=x' 'host=' 'allocator=x' 'a b=c' 'host=a,host=b'; do
	rm -f "$WORK/bad.pb.gz"
	"$TK" stat --pprof="$WORK/bad.pb.gz" --pprof-label="$bad" "$a" >/dev/null 2>"$WORK/bad.err"
	rc=$?
	check "pprof-label-refused-$bad" test "$rc" -eq 1 -a "$(wc -l <"$WORK/bad.err")" -eq 1
	check "pprof-label-refused-$bad-no-file" test ! -e "$WORK/bad.pb.gz"
done
# the plugin: labels as -O kmem:pprof-label=K=V,K=V; a bad one, one line
TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -O "kmem:pprof=$WORK/pl.pb.gz" \
	-O kmem:pprof-label=host=a,rack=r2 -O "kmem:json=$WORK/pl.json" "$a" >/dev/null 2>&1
raw "$WORK/pl.pb.gz" >"$WORK/pl.raw"
check pprof-plugin-labels python3 "$CHECK_PY" raw "$WORK/pl.raw" "$WORK/pl.json" host=a rack=r2
TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -O "kmem:pprof=$WORK/pl.pb.gz" \
	-O kmem:pprof-label=allocator=x "$a" >/dev/null 2>"$WORK/pl.err"
check pprof-plugin-bad-label-one-line test "$(grep -c 'bad pprof-label=allocator=x' "$WORK/pl.err")" -eq 1
labels=$(seq -f 'k%g=v' 33 | paste -sd,)
"$TK" stat --pprof="$WORK/bad.pb.gz" --pprof-label="$labels" "$a" >/dev/null 2>"$WORK/bad.err"
check pprof-label-33-refused test $? -eq 1
check pprof-label-33-says grep -q 'more than 32 labels' "$WORK/bad.err"

# ---- filters: the JSON's rows and a comment of what was left out
"$TK" stat --cpu 0 --json="$WORK/cpu.json" --pprof="$WORK/cpu.pb.gz" -o /dev/null "$a"
raw "$WORK/cpu.pb.gz" >"$WORK/cpu.raw"
check pprof-cpu-filter-raw python3 "$CHECK_PY" raw "$WORK/cpu.raw" "$WORK/cpu.json"
check pprof-cpu-filter-comment grep -q 'Comment: .*slab-fork-exec.dat: filtered by --cpu' "$WORK/cpu.raw"

# ---- damaged traces: a profile, its damage in comments
for f in "$TOP"/tests/regress/corpus/page-records-garbage.dat \
	"$TOP"/tests/regress/corpus/chunk-not-inflating-v7.dat \
	"$TOP"/sample-data/slab-lost-events.dat; do
	b=$(basename "$f" .dat)
	"$TK" stat --json="$WORK/$b.json" --pprof="$WORK/$b.pb.gz" -o /dev/null "$f" 2>/dev/null
	raw "$WORK/$b.pb.gz" >"$WORK/$b.raw"
	check "pprof-damaged-$b" python3 "$CHECK_PY" raw "$WORK/$b.raw" "$WORK/$b.json"
	check "pprof-damaged-$b-said" grep -Eq 'Comment: .*: (damaged_pages|damaged_chunks|events_lost): [1-9]' "$WORK/$b.raw"
done

# ---- never half a file: a failed run leaves the file that was there
echo old >"$WORK/keep.pb.gz"
echo 'not a trace' >"$WORK/notrace.dat"
"$TK" stat --pprof="$WORK/keep.pb.gz" "$WORK/notrace.dat" >/dev/null 2>&1
check pprof-failed-run-exit test $? -ne 0
check pprof-failed-run-keeps-old test "$(cat "$WORK/keep.pb.gz")" = old
check pprof-no-temporary test "$(ls "$WORK" | grep -c 'keep.pb.gz.')" -eq 0
"$TK" stat --pprof=/nonexistent/dir/p.pb.gz "$a" >/dev/null 2>"$WORK/nodir.err"
check pprof-unwritable-exit test $? -ne 0
check pprof-unwritable-one-line test "$(wc -l <"$WORK/nodir.err")" -eq 1

# ---- modules: a module's call site is in the module's mapping, named
# as kallsyms names it ("[ext4]" after the symbol), the kernel's in
# [kernel.kallsyms]; an address above the last symbol has no function
cat >"$WORK/mod.spec" <<'SPEC'
[kallsyms]
ffffffff81300000 T seq_open
ffffffff81400000 T _etext
ffffffffc0a00000 t ext4_alloc_inode	[ext4]
ffffffffc0a00400 t ext4_free_inode	[ext4]
ffffffffc0b00000 t nf_ct_alloc	[nf_conntrack]
ffffffffc0b00400 t nf_ct_free	[nf_conntrack]
[buffer]
0 1.000000000 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000100 bytes_req=8 bytes_alloc=8 node=-1
0 1.000001000 kmalloc call_site=0xffffffffc0a00010 ptr=0xffff888100000200 bytes_req=12 bytes_alloc=16 node=-1
0 1.000002000 kmalloc call_site=0xffffffffc0a00010 ptr=0xffff888100000300 bytes_req=30 bytes_alloc=32 node=-1
0 1.000003000 kmalloc call_site=0xffffffffc0b00020 ptr=0xffff888100000400 bytes_req=64 bytes_alloc=64 node=-1
0 1.000004000 kmalloc call_site=0xffffffffc0c00000 ptr=0xffff888100000500 bytes_req=64 bytes_alloc=64 node=-1
SPEC
python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/mod.spec" -o "$WORK/mod.dat" \
	--formats "$TOP/tests/formats/linux-6.18-x86_64.txt" --version 6
"$TK" stat -o /dev/null --pprof="$WORK/mod.pb.gz" "$WORK/mod.dat"
raw "$WORK/mod.pb.gz" >"$WORK/mod.raw"
check pprof-module-mappings python3 - "$WORK/mod.raw" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
maps = dict(re.findall(r"^(\d+): 0x0/0xffffffffffffffff/0x0 (\S+)", t, re.M))
locs = {fn: maps[m] for m, fn in re.findall(r"^\s+\d+: 0x[0-9a-f]+ M=(\d+) (\S+) :", t, re.M)}
want = {"seq_open": "[kernel.kallsyms]", "ext4_alloc_inode": "[ext4]",
        "nf_ct_alloc": "[nf_conntrack]", "0xffffffffc0c00000": "[kernel.kallsyms]"}
assert locs == want, locs
assert sorted(maps.values()) == sorted(set(want.values())), maps
PY
finish
