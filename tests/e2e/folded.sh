#!/bin/bash
# Folded stacks for flame graphs (--folded, -O kmem:folded=): on every
# sample the weights add up to the report's totals (bytes, allocations,
# and with --live the live bytes), every frame is a function of the
# trace's kallsyms, the plugin writes the same lines; on a crafted trace
# with stacks on slab events, the lines are the ones counted by hand.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail folded "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never

# sums DOCS.json FOLDED WEIGHT: under each allocator's root frame
# ([slab], [page], [vmalloc]) the folded weights equal that allocator's
# totals in the JSON, and no line lacks a root
sums() {
	python3 - "$@" <<'PY'
import collections, json, sys
from jsondocs import docs as json_docs
docs = json_docs(sys.argv[1])
want = collections.Counter()
for d in docs:
    if d["file"] == "(merged)":
        continue
    s, p = d.get("slab", {}).get("summary", {}), d.get("page", {}).get("summary", {})
    v = d.get("vmalloc", {}).get("summary", {})
    w = sys.argv[3]
    want["[slab]"] += {"bytes": s.get("bytes_allocated", 0),
                       "hits": s.get("allocs", 0) - s.get("zero_size_allocs", 0),
                       "live": (s.get("live") or {}).get("bytes", 0)}[w]
    want["[page]"] += {"bytes": p.get("alloc_bytes", 0), "hits": p.get("allocs", 0),
                       "live": (p.get("live") or {}).get("bytes", 0)}[w]
    want["[vmalloc]"] += {"bytes": v.get("alloc_bytes", 0), "hits": v.get("allocs", 0),
                          "live": (v.get("live") or {}).get("bytes", 0)}[w]
got = collections.Counter()
for l in open(sys.argv[2]):
    stack, n = l.rsplit(" ", 1)
    root = stack.split(";")[0]
    assert root in ("[slab]", "[page]", "[vmalloc]"), l
    got[root] += int(n)
want = +want    # the allocators with a weight
assert got == want, (got, want)
PY
}
for f in "$TOP"/sample-data/*.dat; do
	b=$(basename "$f" .dat)
	"$TK" stat --json="$WORK/$b.json" --folded="$WORK/$b.bytes" -o /dev/null "$f" 2>/dev/null
	"$TK" stat --folded="$WORK/$b.hits" --folded-weight=hits -o /dev/null "$f" 2>/dev/null
	"$TK" stat --live --folded="$WORK/$b.live" -o /dev/null "$f" 2>/dev/null
	check "folded-$b-bytes" sums "$WORK/$b.json" "$WORK/$b.bytes" bytes
	check "folded-$b-hits" sums "$WORK/$b.json" "$WORK/$b.hits" hits
	check "folded-$b-live" sums "$WORK/$b.json" "$WORK/$b.live" live
	trace-cmd report -f -i "$f" 2>/dev/null | awk '{ print $2 }' | sort -u >"$WORK/$b.syms"
	check "folded-$b-frames-are-symbols" python3 -c '
import sys
syms = set(open(sys.argv[1]).read().split())
bad = [x for l in open(sys.argv[2]) for x in l.rsplit(" ", 1)[0].split(";")[1:]
       if x not in syms and x != "(no stack)"]
assert not bad, bad[:5]
' "$WORK/$b.syms" "$WORK/$b.bytes"
done
f=$TOP/sample-data/page-stacktrace.dat
report -i "$f" -O kmem:folded="$WORK/plugin.folded" >/dev/null 2>&1
check folded-plugin-same cmp -s "$WORK/plugin.folded" "$WORK/page-stacktrace.bytes"

# crafted: stacks after slab events (options/stacktrace), frames
# innermost first, the call site among them
cp "$TOP/tests/tdat/slab-stacks.spec" "$WORK/s.spec"
python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/s.spec" -o "$WORK/s.dat" \
	--formats "$TOP/tests/formats/linux-6.18-x86_64.txt" "$TOP/tests/formats/page-linux-6.18-x86_64.txt" \
	--version 6 >/dev/null 2>"$WORK/s.err" || { fail folded-crafted "tdat_writer: $(tail -2 "$WORK/s.err")"; finish; }
"$TK" stat --folded "$WORK/s.dat" >"$WORK/s.bytes"
check folded-slab-stacks test "$(cat "$WORK/s.bytes")" = "$(printf '%s\n' \
	'[slab];entry_SYSCALL_64;do_sys_open;seq_open 128' '[slab];other 8')"
"$TK" stat --live --folded "$WORK/s.dat" >"$WORK/s.live"
check folded-slab-live test "$(cat "$WORK/s.live")" = "$(printf '%s\n' \
	'[slab];entry_SYSCALL_64;do_sys_open;seq_open 64' '[slab];other 8')"
"$TK" stat --folded --folded-weight=hits "$WORK/s.dat" >"$WORK/s.hits"
check folded-slab-hits test "$(cat "$WORK/s.hits")" = "$(printf '%s\n' \
	'[slab];entry_SYSCALL_64;do_sys_open;seq_open 2' '[slab];other 1')"
finish
