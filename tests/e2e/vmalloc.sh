#!/bin/bash
# test: slow
# The vmalloc allocator section (vmalloc:* events): on every sample that
# has them, the JSON of trace-kmem stat and of the plugin agrees member
# by member and row by row with the independent reference
# (tests/ref/kmem_vmalloc_ref.py, from trace-cmd report and the ring
# buffer's record order), under several sort keys.  A crafted trace is
# counted by hand: call sites from the kernel_stack that directly
# follows (vmalloc's and tracing's frames skipped), a failure, a
# cross-CPU free, a double, a freed-only and a missed free, purges, and
# its folded stacks.
# Lifetimes and leaks against their references too; section selection
# (--vmalloc, --slab) and the merged summary.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail vmalloc "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never
REF=$TOP/tests/ref/kmem_vmalloc_ref.py

# Counted by hand: see the expectations below.
printf '%s\n' '[kallsyms]' \
	'ffffffff81100000 T trace_event_raw_event_alloc_vmap_area' \
	'ffffffff81200000 T __vmalloc_node_range_noprof' \
	'ffffffff81300000 T site_a' 'ffffffff81400000 T site_b' \
	'ffffffff81500000 T _etext' '[buffer]' \
	'0 1.000001000 alloc_vmap_area addr=0x1000 size=8192 align=4096 vstart=0xffffc90000000000 vend=0xffffe8ffffffffff failed=0' \
	'0 1.000001000 kernel_stack size=3 caller=0xffffffff81100010,0xffffffff81200020,0xffffffff81300030' \
	'1 1.000002000 alloc_vmap_area addr=0x3000 size=4096 align=4096 failed=0' \
	'0 1.000003000 free_vmap_area_noflush va_start=0x3000 nr_lazy=5 nr_lazy_max=100' \
	'0 1.000004000 alloc_vmap_area addr=0xfffffffffffffff4 size=1099511627776 align=4096 failed=1' \
	'0 1.000004000 kernel_stack size=3 caller=0xffffffff81100010,0xffffffff81200020,0xffffffff81400040' \
	'0 1.000005000 free_vmap_area_noflush va_start=0x1000 nr_lazy=10 nr_lazy_max=100' \
	'0 1.000006000 free_vmap_area_noflush va_start=0x1000 nr_lazy=5 nr_lazy_max=100' \
	'0 1.000007000 free_vmap_area_noflush va_start=0x9000 nr_lazy=5 nr_lazy_max=100' \
	'0 1.000008000 alloc_vmap_area addr=0x5000 size=4096 align=4096 failed=0' \
	'0 1.000009000 alloc_vmap_area addr=0x5000 size=4096 align=4096 failed=0' \
	'0 1.000010000 purge_vmap_area_lazy start=0x1000 end=0x9000 npurged=3' \
	'0 1.000011000 purge_vmap_area_lazy start=0x1000 end=0x9000 npurged=2' \
	>"$WORK/crafted.spec"
python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/crafted.spec" \
	-o "$WORK/crafted.dat" --version 6 \
	--formats "$TOP/tests/formats/page-linux-6.18-x86_64.txt" \
	"vmalloc:$TOP/tests/formats/vmalloc-linux-6.18-x86_64.txt" \
	>/dev/null 2>"$WORK/crafted.err" ||
	{ fail vmalloc-craft "tdat_writer: $(tail -2 "$WORK/crafted.err")"; finish; }

"$TK" stat --json="$WORK/crafted.json" "$WORK/crafted.dat" >"$WORK/crafted.txt"
check vmalloc-crafted-by-hand python3 - "$WORK/crafted.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))["vmalloc"]
s = v["summary"]
assert v["events"] == 11 and v["complete"] is True, v
want = dict(allocs=4, alloc_bytes=8192 + 3 * 4096, frees=4,
            bytes_freed=8192 + 4096, net_bytes=8192, largest=8192,
            double_frees=1, cross_cpu_frees=1, stacks=2)
for k, w in want.items():
    assert s[k] == w, (k, s[k], w)
assert s["failures"] == {"count": 1, "bytes": 1 << 40}, s
assert s["alloc_freed"] == {"count": 2, "bytes": 12288}, s
assert s["alloc_only"] == {"count": 2, "bytes": 8192}, s
assert s["free_only"] == {"count": 1}, s
assert s["live"] == {"count": 1, "bytes": 4096}, s
assert s["peak"] == {"count": 2, "bytes": 12288}, s
assert s["missed_frees"] == {"count": 1, "bytes": 4096}, s
assert s["lazy"] == {"purges": 2, "purged": 5, "nr_lazy_peak": 10,
                     "nr_lazy_max": 100}, s
rows = [(r["callsite"], r["hits"], r["bytes"], r["failures"], r["frees"],
         r["live_count"], r["live_bytes"], r["peak_bytes"],
         r["mean_lifetime_ns"]) for r in v["callsites"]]
assert rows == [("(no stack)", 3, 12288, 0, 1, 1, 4096, 4096, 1000),
                ("site_a+0x30", 1, 8192, 0, 1, 0, 0, 8192, 4000),
                ("site_b+0x40", 0, 0, 1, 0, 0, 0, 0, None)], rows
PY
check vmalloc-crafted-text grep -q '^ Live at end of trace: *1 *\[ *4,096 bytes \]' "$WORK/crafted.txt"
check vmalloc-crafted-failures grep -qE '^ Allocation failures: +1 +\[ 1,099,511,627,776 bytes \]' "$WORK/crafted.txt"
check vmalloc-crafted-ref python3 "$REF" --check "$WORK/crafted.json" "$WORK/crafted.dat"
# folded stacks: A's from site_a outward (the tracing and vmalloc frames
# skipped), B, D and D again without a stack; the failure is no area;
# live, only the second D
"$TK" stat --folded="$WORK/crafted.folded" -o /dev/null "$WORK/crafted.dat"
check vmalloc-crafted-folded test "$(cat "$WORK/crafted.folded")" = "$(printf '[vmalloc];site_a 8192\n[vmalloc];(no stack) 12288')"
"$TK" stat --live --folded="$WORK/crafted.live" -o /dev/null "$WORK/crafted.dat"
check vmalloc-crafted-folded-live test "$(cat "$WORK/crafted.live")" = "[vmalloc];(no stack) 4096"
report -i "$WORK/crafted.dat" -O kmem:folded="$WORK/crafted.plugin.folded" >/dev/null
check vmalloc-crafted-folded-plugin cmp "$WORK/crafted.folded" "$WORK/crafted.plugin.folded"

# every sample with vmalloc events, and the crafted trace
files=("$WORK/crafted.dat")
while read -r f; do
	trace-cmd report -N -R "$f" 2>/dev/null | grep -q ' alloc_vmap_area: ' &&
		files+=("$f")
done < <(samples)
[ ${#files[@]} -gt 1 ] || fail vmalloc-samples "no sample in sample-data/ has vmalloc events"
for f in "${files[@]}"; do
	b=$(basename "$f" .dat)
	for sort in "" hit callsite live,peak; do
		n=$b${sort:+-$sort}
		"$TK" stat ${sort:+--sort=$sort} --json="$WORK/$n.tk.json" "$f" >/dev/null
		check "vmalloc-ref-$n" python3 "$REF" ${sort:+--sort $sort} \
			--check "$WORK/$n.tk.json" "$f"
	done
	"$TK" stat --lifetimes --json="$WORK/$b.life.json" "$f" >/dev/null
	check "vmalloc-ref-lifetimes-$b" python3 "$REF" --lifetimes \
		--check "$WORK/$b.life.json" "$f"
	"$TK" stat --leaks=1ms --json="$WORK/$b.leaks.json" "$f" >/dev/null
	check "vmalloc-leaks-ref-$b" python3 "$TOP/tests/ref/kmem_leaks_ref.py" \
		--age 1000000 --check "$WORK/$b.leaks.json" "$f"
	"$TK" stat --reader=libtracecmd --json="$WORK/$b.lib.json" "$f" >/dev/null
	check "vmalloc-ref-libtracecmd-$b" python3 "$REF" --check "$WORK/$b.lib.json" "$f"
	report -i "$f" -O kmem:stat -O kmem:json="$WORK/$b.plugin.json" >/dev/null
	check "vmalloc-ref-plugin-$b" python3 "$REF" --check "$WORK/$b.plugin.json" "$f"
done

# selection: alone with --vmalloc, absent with --slab; the merged
# summary adds counts and keeps maxima
s=${files[1]:-}
if [ -n "$s" ]; then
	"$TK" stat --vmalloc "$s" >"$WORK/only.txt"
	check vmalloc-only grep -q '^ vmalloc allocator (' "$WORK/only.txt"
	"$TK" stat --slab "$s" >"$WORK/slab.txt" 2>&1
	check vmalloc-slab-hides bash -c "! grep -q '^ vmalloc allocator (' '$WORK/slab.txt'"
	report -i "$s" -O kmem:stat -O kmem:vmalloc >"$WORK/plug.txt"
	check vmalloc-plugin-option grep -q '^ SUMMARY (vmalloc allocator)' "$WORK/plug.txt"
	"$TK" stat --json="$WORK/merged.json" "$WORK/crafted.dat" "$s" >/dev/null
	check vmalloc-merged python3 - "$WORK/merged.json" <<'PY'
import json, sys
from jsondocs import docs as json_docs
docs = json_docs(sys.argv[1])
a, b, m = (x["vmalloc"]["summary"] for x in docs)
for k in ("allocs", "alloc_bytes", "frees", "bytes_freed", "stacks"):
    assert m[k] == a[k] + b[k], k
assert m["largest"] == max(a["largest"], b["largest"]), m
assert m["peak"]["bytes"] == max(a["peak"]["bytes"], b["peak"]["bytes"]), m
assert "callsites" not in docs[2]["vmalloc"], docs[2]
PY
fi
while read -r f; do
	trace-cmd report -N -R "$f" 2>/dev/null | grep -q ' alloc_vmap_area: ' || { n=$f; break; }
done < <(samples)
"$TK" stat --vmalloc "$n" >"$WORK/none.txt" 2>&1
check vmalloc-none-said grep -q 'No vmalloc allocator events' "$WORK/none.txt"
finish
