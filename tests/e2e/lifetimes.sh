#!/bin/bash
# Lifetime histograms (--lifetimes, -O kmem:lifetimes): on every sample
# each slab and per-CPU call site's histogram agrees bucket by bucket
# with the lifetimes of the listing's matched frees, and its p50 and p99
# are the documented estimate and in the exact percentile's bucket
# (tests/ref/kmem_leaks_ref.py --check-lifetimes); a crafted trace is
# counted by hand, text and JSON; both front ends print the same.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail lifetimes "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never
REF=$TOP/tests/ref/kmem_leaks_ref.py

n=0
while read -r f; do
	has_instances "$f" && continue	# the reference reads the top buffer
	b=$(basename "$f" .dat)
	"$TK" stat --lifetimes --json="$WORK/$b.json" "$f" >/dev/null
	# page allocator only: no lifetimes (see the definitions)
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
sys.exit(not ("slab" in d or "percpu" in d))' "$WORK/$b.json" || continue
	check "lifetimes-ref-$b" python3 "$REF" --check-lifetimes "$WORK/$b.json" "$f"
	n=$((n + 1))
done < <(samples)
[ "$n" -gt 0 ] || fail lifetimes-ref "no sample without instances"
f=$TOP/sample-data/slab-pingpong.dat
report -i "$f" -O kmem:lifetimes -O kmem:json="$WORK/p.json" >/dev/null
check lifetimes-ref-plugin python3 "$REF" --check-lifetimes "$WORK/p.json" "$f"
after_title() { sed -n '/^ kmem statistics:/,$p' "$1" | tail -n +2; }
"$TK" stat --lifetimes -l 3 "$f" >"$WORK/tk.txt"
report -i "$f" -O kmem:stat -O kmem:lifetimes -O kmem:lines=3 >"$WORK/pl.txt"
check lifetimes-identity cmp -s <(after_title "$WORK/tk.txt") <(after_title "$WORK/pl.txt")

# by hand: site_a's objects live 100, 300 and 1000 ns (buckets [64, 128),
# [256, 512), [512, 1K)); p50 is rank 2: 256 + 256 * 1 / 2 = 384; p99
# rank 3: 512 + 512 * 1 / 2 = 768.  site_b's object is never freed.
printf '%s\n' '[kallsyms]' 'ffffffff81200000 T site_a' 'ffffffff81300000 T site_b' \
	'ffffffff81400000 T _etext' '[buffer]' \
	'0 1.000000000 kmalloc call_site=0xffffffff81200010 ptr=0xffff888100000100 bytes_req=64 bytes_alloc=64 node=-1' \
	'0 1.000000100 kfree call_site=0xffffffff81300030 ptr=0xffff888100000100' \
	'0 1.000001000 kmalloc call_site=0xffffffff81200010 ptr=0xffff888100000200 bytes_req=64 bytes_alloc=64 node=-1' \
	'1 1.000001300 kfree call_site=0xffffffff81300030 ptr=0xffff888100000200' \
	'0 1.000002000 kmalloc call_site=0xffffffff81200010 ptr=0xffff888100000300 bytes_req=64 bytes_alloc=64 node=-1' \
	'0 1.000002500 kmalloc call_site=0xffffffff81300020 ptr=0xffff888100000400 bytes_req=8 bytes_alloc=8 node=-1' \
	'0 1.000003000 kfree call_site=0xffffffff81300030 ptr=0xffff888100000300' \
	>"$WORK/c.spec"
python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/c.spec" -o "$WORK/c.dat" \
	--formats "$TOP/tests/formats/linux-6.18-x86_64.txt" --version 6 >/dev/null 2>"$WORK/c.err" ||
	{ fail lifetimes-crafted "tdat_writer: $(tail -2 "$WORK/c.err")"; finish; }
"$TK" stat --lifetimes --json="$WORK/c.json" "$WORK/c.dat" >"$WORK/c.txt"
check lifetimes-crafted-json python3 - "$WORK/c.json" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1]))["slab"]["callsites"]
assert a["callsite"] == "site_a+0x10" and b["callsite"] == "site_b+0x20", (a, b)
assert (a["lifetime_p50_ns"], a["lifetime_p99_ns"]) == (384, 768), a
assert a["lifetime_hist"] == [
    {"lo_ns": 64, "hi_ns": 128, "count": 1},
    {"lo_ns": 256, "hi_ns": 512, "count": 1},
    {"lo_ns": 512, "hi_ns": 1024, "count": 1}], a["lifetime_hist"]
assert b["lifetime_p50_ns"] is None and b["lifetime_hist"] == [], b
PY
bar=$(printf '@%.0s' $(seq 52))
check lifetimes-crafted-text python3 - "$WORK/c.txt" "$bar" <<'PY'
import sys
t = open(sys.argv[1]).read()
bar = sys.argv[2]
want = "\n".join([
    " site_a+0x10: 3 freed, median 384ns, p99 768ns",
    " %-18s %10s |%s|" % ("[64, 128)", "1", bar),
    " %-18s %10s |%s|" % ("[128, 256)", "0", " " * 52),
    " %-18s %10s |%s|" % ("[256, 512)", "1", bar),
    " %-18s %10s |%s|" % ("[512, 1K)", "1", bar)]) + "\n"
assert want in t, t
assert "site_b+0x20:" not in t, t
assert "Lifetimes (slab allocator)" in t, t
PY
finish
