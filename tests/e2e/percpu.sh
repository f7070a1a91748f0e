#!/bin/bash
# test: slow
# The per-CPU allocator section (percpu:* events): on every sample that
# has them, the JSON of trace-kmem stat and of the plugin agrees member
# by member and row by row with the independent reference
# (tests/ref/kmem_percpu_ref.py, from trace-cmd report -R), under
# several sort keys.  Two crafted traces, one in Linux 6.18's layout and
# one in 5.15's (no call_site, bytes_alloc or gfp_flags), are counted by
# hand.  Section selection (--percpu, --slab) and the text of the old
# layout are checked too.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail percpu "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never
REF=$TOP/tests/ref/kmem_percpu_ref.py

# craft NAME SPEC FORMAT [tdat_writer options]: $WORK/NAME.dat
craft() {
	local name=$1 spec=$2 format=$3
	shift 3
	python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/$spec.spec" \
		-o "$WORK/$name.dat" --version 6 "$@" \
		--formats "percpu:$TOP/tests/formats/$format" >/dev/null 2>"$WORK/$name.err" ||
		{ fail "percpu-craft-$name" "tdat_writer: $(tail -2 "$WORK/$name.err")"; finish; }
}

# Counted by hand (see the expectations below): a matched free on the
# other CPU, a freed-only free and its double free, three failures of
# two requests, a chunk made and destroyed, an allocation at a live
# address (its free missed), and a matched free on the same CPU.
spec() {
	printf '%s\n' '[kallsyms]' 'ffffffff81200000 T site_a' \
		'ffffffff81300000 T site_b' 'ffffffff81400000 T _etext' '[buffer]' \
		'0 1.000001000 percpu_alloc_percpu call_site=0xffffffff81200010 reserved=0 is_atomic=0 size=16 align=8 ptr=0x1000 bytes_alloc=64 gfp_flags=0xcc0' \
		'1 1.000002000 percpu_alloc_percpu call_site=0xffffffff81300020 reserved=1 is_atomic=1 size=8 align=8 ptr=0x2000 bytes_alloc=32 gfp_flags=0x800' \
		'1 1.000003000 percpu_free_percpu ptr=0x1000' \
		'0 1.000004000 percpu_free_percpu ptr=0x9000' \
		'0 1.000005000 percpu_free_percpu ptr=0x9000' \
		'0 1.000006000 percpu_alloc_percpu_fail reserved=0 is_atomic=1 size=4096 align=4096' \
		'0 1.000007000 percpu_alloc_percpu_fail reserved=0 is_atomic=1 size=4096 align=4096' \
		'0 1.000008000 percpu_alloc_percpu_fail reserved=0 is_atomic=0 size=64 align=8' \
		'0 1.000009000 percpu_create_chunk base_addr=0xffffe8ffffe00000' \
		'0 1.000010000 percpu_alloc_percpu call_site=0xffffffff81200010 size=16 align=8 ptr=0x2000 bytes_alloc=64 gfp_flags=0xcc0' \
		'0 1.000011000 percpu_destroy_chunk base_addr=0xffffe8ffffe00000' \
		'0 1.000012000 percpu_alloc_percpu call_site=0xffffffff81200010 size=16 align=8 ptr=0x3000 bytes_alloc=64 gfp_flags=0xcc0' \
		'0 1.000013000 percpu_free_percpu ptr=0x3000'
}
spec >"$WORK/new.spec"
# Linux 5.15: the same records without the fields 6.0 added
spec | sed 's/ call_site=0x[0-9a-f]*//; s/ bytes_alloc=[0-9]*//; s/ gfp_flags=0x[0-9a-f]*//' \
	>"$WORK/old.spec"
craft new new percpu-linux-6.18-x86_64.txt
craft old old percpu-linux-5.15-x86_64.txt
# the same records in a big-endian file (s390x-style)
craft big new percpu-linux-6.18-x86_64.txt --endian big

"$TK" stat --json="$WORK/new.json" "$WORK/new.dat" >"$WORK/new.txt"
check percpu-crafted-by-hand python3 - "$WORK/new.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["percpu"]
s = p["summary"]
assert p["events"] == 13 and p["bytes_measure"] == "bytes_alloc", p
want = dict(allocs=4, alloc_bytes=224, bytes_requested=56, frees=4,
            bytes_freed=128, net_bytes=96, atomic=1, reserved=1,
            cross_cpu_frees=1, double_frees=1, chunks_created=1,
            chunks_destroyed=1)
for k, v in want.items():
    assert s[k] == v, (k, s[k], v)
assert s["failures"] == {"count": 3, "requests": [
    {"size": 4096, "align": 4096, "atomic": True, "reserved": False,
     "count": 2},
    {"size": 64, "align": 8, "atomic": False, "reserved": False,
     "count": 1}]}, s["failures"]
assert s["alloc_freed"] == {"count": 2, "bytes": 128}, s
assert s["alloc_only"] == {"count": 2, "bytes": 96}, s
assert s["free_only"] == {"count": 1}, s
assert s["live"] == {"count": 1, "bytes": 64}, s
assert s["missed_frees"] == {"count": 1, "bytes": 32}, s
a, b = p["callsites"]
assert (a["callsite"], a["hits"], a["bytes"], a["bytes_requested"],
        a["frees"], a["live_count"], a["live_bytes"], a["peak_bytes"],
        a["mean_lifetime_ns"], a["atomic"]) == \
    ("site_a+0x10", 3, 192, 48, 2, 1, 64, 128, 1500, 0), a
assert (b["callsite"], b["hits"], b["bytes"], b["live_count"],
        b["peak_bytes"], b["mean_lifetime_ns"], b["atomic"],
        b["reserved"]) == ("site_b+0x20", 1, 32, 0, 32, None, 1, 1), b
PY
check percpu-crafted-text grep -q '^ Live at end of trace: *1 *\[ *64 bytes \]' "$WORK/new.txt"
check percpu-crafted-fail-table grep -qE '^ +2 \| 4,096 \| 4,096 \| yes +\| no' "$WORK/new.txt"

"$TK" stat --json="$WORK/old.json" "$WORK/old.dat" >"$WORK/old.txt"
check percpu-crafted-5.15-by-hand python3 - "$WORK/old.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["percpu"]
s = p["summary"]
assert p["bytes_measure"] == "size" and p["callsites"] is None, p
assert s["alloc_bytes"] is None and s["bytes_requested"] == 56, s
assert s["alloc_freed"] == {"count": 2, "bytes": 32}, s
assert s["live"] == {"count": 1, "bytes": 16}, s
assert s["missed_frees"] == {"count": 1, "bytes": 8}, s
assert s["failures"]["count"] == 3, s
PY
check percpu-5.15-says-no-call-site grep -q 'has no call_site field' "$WORK/old.txt"
check percpu-5.15-says-sizes grep -q 'Bytes are the sizes asked' "$WORK/old.txt"
"$TK" stat --json="$WORK/big.json" "$WORK/big.dat" >/dev/null
check percpu-crafted-big-endian python3 -c '
import json, sys
a, b = (json.load(open(f))["percpu"] for f in sys.argv[1:])
assert a == b, (a, b)' "$WORK/new.json" "$WORK/big.json"
check percpu-5.15-no-allocated-line bash -c "! grep -q 'Total bytes allocated' '$WORK/old.txt'"

# two inputs: the merged summary is the sum of theirs
"$TK" stat --json="$WORK/merged.json" "$WORK/new.dat" "$WORK/old.dat" >"$WORK/merged.txt"
check percpu-merged-sum python3 - "$WORK/merged.json" <<'PY'
import json, sys
from jsondocs import docs
a, b, m = (x["percpu"] for x in docs(sys.argv[1]))
assert m["bytes_measure"] == "mixed", m
for k in ("allocs", "bytes_requested", "frees", "bytes_freed", "atomic",
          "cross_cpu_frees", "double_frees", "chunks_created"):
    assert m["summary"][k] == a["summary"][k] + b["summary"][k], k
assert m["summary"]["live"]["bytes"] == 64 + 16, m["summary"]["live"]
assert m["summary"]["alloc_bytes"] is None, m["summary"]
assert "callsites" not in m, m
PY
check percpu-merged-text grep -q '^ Per-CPU allocator' "$WORK/merged.txt"

# every sample with per-CPU events, and the crafted traces
files=("$WORK/new.dat" "$WORK/old.dat")
while read -r f; do
	trace-cmd report -N -R "$f" 2>/dev/null | grep -q ' percpu_alloc_percpu: ' &&
		files+=("$f")
done < <(samples)
[ ${#files[@]} -gt 2 ] || fail percpu-samples "no sample in sample-data/ has per-CPU allocator events"
for f in "${files[@]}"; do
	b=$(basename "$f" .dat)
	for sort in "" hit callsite live,peak; do
		n=$b${sort:+-$sort}
		"$TK" stat ${sort:+--sort=$sort} --json="$WORK/$n.tk.json" "$f" >/dev/null
		check "percpu-ref-$n" python3 "$REF" ${sort:+--sort $sort} \
			--check "$WORK/$n.tk.json" "$f"
	done
	report -i "$f" -O kmem:stat -O kmem:json="$WORK/$b.plugin.json" >/dev/null
	check "percpu-ref-plugin-$b" python3 "$REF" --check "$WORK/$b.plugin.json" "$f"
done

# selection: the section is there by default, alone with --percpu,
# absent with --slab; --percpu on a trace without the events says so
mixed=
for f in "${files[@]:2}"; do
	trace-cmd report -N -R "$f" 2>/dev/null | grep -q ' kmalloc: ' && mixed=$f
done
if [ -n "$mixed" ]; then
	"$TK" stat "$mixed" >"$WORK/def.txt"
	check percpu-default-both grep -q '^ Per-CPU allocator' "$WORK/def.txt"
	check percpu-default-slab grep -q '^ Slab allocator' "$WORK/def.txt"
	"$TK" stat --percpu "$mixed" >"$WORK/only.txt"
	check percpu-only-percpu grep -q '^ Per-CPU allocator' "$WORK/only.txt"
	check percpu-only-no-slab bash -c "! grep -q '^ Slab allocator' '$WORK/only.txt'"
	"$TK" stat --slab "$mixed" >"$WORK/slab.txt"
	check percpu-slab-hides bash -c "! grep -q '^ Per-CPU allocator' '$WORK/slab.txt'"
	report -i "$mixed" -O kmem:stat -O kmem:percpu >"$WORK/plug.txt"
	check percpu-plugin-option grep -q '^ Per-CPU allocator' "$WORK/plug.txt"
	check percpu-plugin-option-no-slab bash -c "! grep -q '^ Slab allocator' '$WORK/plug.txt'"
else
	fail percpu-mixed "no sample has slab and per-CPU events"
fi
s=
while read -r f; do
	trace-cmd report -N -R "$f" 2>/dev/null | grep -q ' percpu_' || { s=$f; break; }
done < <(samples)
"$TK" stat --percpu "$s" >"$WORK/none.txt" 2>&1
check percpu-none-said grep -q 'No per-CPU allocator events' "$WORK/none.txt"
"$TK" stat --percpu --sort=pingpong "$WORK/new.dat" >/dev/null 2>"$WORK/sort.err"
check percpu-sort-key-not-shown grep -q "sort key 'pingpong' is in none of the tables shown (per-CPU call sites)" "$WORK/sort.err"
finish
