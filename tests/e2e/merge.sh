#!/bin/bash
# One report over many traces (stat --merge, diff --merge): the merged
# call-site, cache and order x migration type rows are, key by key, the
# sums of the traces' own JSON reports' rows (a short script groups them
# by call site name, or by function with --by-function); crafted traces
# whose one function sits at other addresses (another boot, KASLR) join
# in one row, hand-counted; go tool pprof -proto of the traces' profiles
# has the totals and per-function figures of the merged profile; what a
# merged report cannot hold is refused in one line.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail merge "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never
S=$TOP/sample-data

# sums MERGED.json [--by-function] ONE.json...: the merged document's
# rows are the traces' rows summed by key
sums() {
	python3 - "$@" <<'PY'
import collections, json, sys
merged = json.load(open(sys.argv[1]))
args = sys.argv[2:]
byfn = "--by-function" in args
docs = [json.load(open(p)) for p in args if p != "--by-function"]
def site(s):
    return s.split("+0x")[0] if byfn and s and "+0x" in s else s
KEYS = {"callsites": lambda a, r: (site(r["callsite"]),) + (
            (r["order"], r["migratetype"], r["gfp"]) if a == "page" else ()),
        "caches": lambda a, r: (r["name"],),
        "order_migratetype": lambda a, r: (r.get("order"), r.get("migratetype"))}
SKIP = {"frag_pct", "mean_lifetime_ns", "address", "callsite", "name", "order",
        "migratetype", "gfp", "gfp_value"}
def rows(d):
    c = collections.Counter()
    n = 0
    for a in ("slab", "page", "percpu", "vmalloc"):
        for t, key in KEYS.items():
            for r in (d.get(a) or {}).get(t) or []:
                n += 1
                for k, v in r.items():
                    if k in SKIP:
                        continue
                    if isinstance(v, dict):
                        for kk, vv in v.items():
                            if isinstance(vv, int):
                                c[(a, t) + key(a, r) + (k + "." + kk,)] += vv
                    elif isinstance(v, int) and not isinstance(v, bool):
                        c[(a, t) + key(a, r) + (k,)] += v
    return c, n
want = collections.Counter()
for d in docs:
    want.update(rows(d)[0])
got, n = rows(merged)
assert n > 0
assert +got == +want, (sorted((got - want).items())[:3], sorted((want - got).items())[:3])
# every table's rows are one per key (the merge joined them)
for a in ("slab", "percpu", "vmalloc"):
    cs = [site(r["callsite"]) for r in (merged.get(a) or {}).get("callsites") or []]
    assert len(cs) == len(set(cs)), a
# a slab call site's one cache stays one when every trace's rows of it
# name the same
caches = collections.defaultdict(set)
for d in docs:
    for r in (d.get("slab") or {}).get("callsites") or []:
        if r["hits"]:   # a row of failed allocations only has no cache
            caches[site(r["callsite"])].add(r["cache"])
for r in (merged.get("slab") or {}).get("callsites") or []:
    c = caches[site(r["callsite"])]
    want = next(iter(c)) if len(c) == 1 else None
    assert r["cache"] == want, (r["callsite"], r["cache"], c)
# the summaries add up too
for a in ("slab", "page", "percpu", "vmalloc"):
    for k, v in ((merged.get(a) or {}).get("summary") or {}).items():
        if isinstance(v, int) and not isinstance(v, bool) and k not in ("peak_bytes",):
            s = sum(((d.get(a) or {}).get("summary") or {}).get(k) or 0 for d in docs)
            assert v == s, (a, k, v, s)
# each trace is listed with its own span and losses
assert [t["file"] for t in merged["traces"]] == [d["file"] for d in docs]
for t, d in zip(merged["traces"], docs):
    assert t["events_lost"] == d["events_lost"], t
print(n, "rows")
PY
}

# ---- the samples, two and five at a time
A=$S/slab-fork-exec.dat B=$S/slab-fs-walk.dat
for f in "$A" "$B" "$S/slab-pingpong.dat" "$S/page-stacktrace.dat" "$S/percpu-slab-netns.dat" \
	"$S/vmalloc-fork.dat"; do
	"$TK" stat --all --json="$WORK/$(basename "$f" .dat).json" -o /dev/null "$f" 2>/dev/null
done
"$TK" stat --merge --all --json="$WORK/ab.json" -o "$WORK/ab.txt" "$A" "$B" 2>"$WORK/ab.err"
check merge-two-exit test $? -eq 0
check merge-two-sums sums "$WORK/ab.json" "$WORK/slab-fork-exec.json" "$WORK/slab-fs-walk.json"
check merge-two-title grep -qx ' kmem statistics: 2 traces merged' "$WORK/ab.txt"
check merge-two-listed grep -q "^ [^ ]*slab-fs-walk.dat: vm, Linux 6.18.44-fc-v782, 661.13ms, 49,098 allocator records$" "$WORK/ab.txt"
check merge-same-kernel-quiet test ! -s "$WORK/ab.err"
set -- slab-pingpong page-stacktrace percpu-slab-netns vmalloc-fork slab-fork-exec
"$TK" stat --merge --all --json="$WORK/five.json" -o /dev/null \
	$(for b; do echo "$S/$b.dat"; done) 2>"$WORK/five.err"
check merge-five-sums sums "$WORK/five.json" $(for b; do echo "$WORK/$b.json"; done)
"$TK" stat --merge --by-function --all --json="$WORK/fn.json" -o /dev/null \
	$(for b; do echo "$S/$b.dat"; done) 2>/dev/null
check merge-by-function-sums sums "$WORK/fn.json" --by-function $(for b; do echo "$WORK/$b.json"; done)
check merge-by-function-names python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
cs = [r["callsite"] for r in d["slab"]["callsites"]]
assert cs and not any("+0x" in c for c in cs), cs[:3]
assert all(r["address"] is None for r in d["slab"]["callsites"])' "$WORK/fn.json"
# slab-pingpong (6.18.44-fc-v782) and percpu-slab-netns (another build):
# one line for the other kernel, none for page-stacktrace (the same)
check merge-other-kernel-said grep -qx "trace-kmem: --merge: [^ ]*/percpu-slab-netns.dat: kernel 6.18.44-fc-v669, not [^ ]*/slab-pingpong.dat's 6.18.44-fc-v782; call sites are matched by function+offset (--by-function matches functions)" "$WORK/five.err"
check merge-same-kernel-not-said sh -c "! grep -q page-stacktrace '$WORK/five.err'"

# the lifetime histograms add up bucket by bucket
"$TK" stat --merge --lifetimes --json="$WORK/lt.json" -o /dev/null "$A" "$B"
for f in "$A" "$B"; do
	"$TK" stat --lifetimes --json="$WORK/lt-$(basename "$f")" -o /dev/null "$f"
done
check merge-lifetimes python3 - "$WORK/lt.json" "$WORK/lt-$(basename "$A")" "$WORK/lt-$(basename "$B")" <<'PY'
import collections, json, sys
def hist(d):
    c = collections.Counter()
    for a in ("slab", "percpu", "vmalloc"):
        for r in (d.get(a) or {}).get("callsites") or []:
            for b in r.get("lifetime_hist") or []:
                c[(a, r["callsite"], b["lo_ns"])] += b["count"]
    return c
m, *docs = (json.load(open(p)) for p in sys.argv[1:])
want = collections.Counter()
for d in docs:
    want.update(hist(d))
got = hist(m)
assert sum(got.values()) > 1000, sum(got.values())
assert +got == +want, (sorted((got - want).items())[:3], sorted((want - got).items())[:3])
PY

# ---- crafted: one function at two addresses, hand-counted
cat >"$WORK/k1.spec" <<'SPEC'
[kallsyms]
ffffffff81300000 T seq_open
ffffffff81300400 T single_open
ffffffff81400000 T _etext
[buffer]
0 1.000000000 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000100 bytes_req=8 bytes_alloc=8 node=-1
0 1.000001000 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000200 bytes_req=12 bytes_alloc=16 node=-1
0 1.000002000 kmalloc call_site=0xffffffff81300020 ptr=0xffff888100000300 bytes_req=30 bytes_alloc=32 node=-1
0 1.000003000 kfree call_site=0xffffffff81300410 ptr=0xffff888100000100
SPEC
# the second boot's: its kernel elsewhere, 7 events lost before its
# records, and a call site no symbol covers in the range the merged
# report numbers its functions in (it must not pass for one of them)
sed -e 's/ffffffff813/ffffffff825/g' -e 's/^\[buffer\]$/&\nlost 0 7/' "$WORK/k1.spec" >"$WORK/k2.spec"
echo '0 1.000004000 kmalloc call_site=0x1000000000000010 ptr=0xffff888100000400 bytes_req=8 bytes_alloc=8 node=-1' >>"$WORK/k2.spec"
for k in k1 k2; do
	python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/$k.spec" -o "$WORK/$k.dat" \
		--formats "$TOP/tests/formats/linux-6.18-x86_64.txt" --version 6
done
"$TK" stat --merge --json="$WORK/k.json" -o /dev/null "$WORK/k1.dat" "$WORK/k2.dat"
check merge-kaslr-joined python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["callsite"]: r for r in d["slab"]["callsites"]}
assert sorted(rows) == ["0x1000000000000010+0x0", "seq_open+0x10", "seq_open+0x20"], sorted(rows)
assert rows["0x1000000000000010+0x0"]["hits"] == 1
t = d["traces"]
assert [x["events_lost"] for x in t] == [0, 7], t
assert [x["events"] for x in t] == [4, 5], t
assert [(x["start_ns"], x["end_ns"]) for x in t] == [(1000000000, 1000003000), (1000000000, 1000004000)], t
r = rows["seq_open+0x10"]
assert (r["hits"], r["bytes_req"], r["bytes_alloc"], r["frees"], r["live_count"], r["live_bytes"]) == (4, 40, 48, 2, 2, 32), r
r = rows["seq_open+0x20"]
assert (r["hits"], r["bytes_alloc"], r["live_count"]) == (2, 64, 2), r
assert d["slab"]["summary"]["allocs"] == 7' "$WORK/k.json"
"$TK" stat --merge -o "$WORK/k.txt" "$WORK/k1.dat" "$WORK/k2.dat"
check merge-kaslr-listed grep -q "^ [^ ]*k2.dat: tdat, Linux 6.18.0, 4.0us, 5 allocator records, lost 7 events$" "$WORK/k.txt"
"$TK" stat --merge --by-function --json="$WORK/kf.json" -o /dev/null "$WORK/k1.dat" "$WORK/k2.dat"
check merge-kaslr-by-function python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["slab"]["callsites"]
assert [(r["callsite"], r["hits"], r["bytes_alloc"]) for r in rows] == [("seq_open", 6, 112), ("0x1000000000000010", 1, 8)], rows' "$WORK/kf.json"

# ---- go tool pprof -proto A B against stat --merge A B --pprof
if command -v go >/dev/null; then
	"$TK" stat --pprof="$WORK/a.pb.gz" -o /dev/null "$A"
	"$TK" stat --pprof="$WORK/b.pb.gz" -o /dev/null "$B"
	"$TK" stat --merge --pprof="$WORK/m.pb.gz" -o /dev/null "$A" "$B"
	go tool pprof -proto "$WORK/a.pb.gz" "$WORK/b.pb.gz" >"$WORK/g.pb.gz" 2>/dev/null
	for t in alloc_objects alloc_space inuse_objects inuse_space wasted_space; do
		for p in m g; do
			go tool pprof -top -unit=B -nodecount=100000 -nodefraction=0 \
				-sample_index=$t "$WORK/$p.pb.gz" 2>/dev/null |
				sed -n 's/^ *\([0-9.]*B\) .* \([^ ]*\)$/\2 \1/p; s/^.*Total samples = \([0-9]*B\).*/TOTAL \1/p' |
				sort >"$WORK/$p.$t"
		done
		check "merge-pprof-proto-$t" cmp -s "$WORK/m.$t" "$WORK/g.$t"
		check "merge-pprof-proto-$t-nonempty" test "$(wc -l <"$WORK/m.$t")" -gt 5
	done
else
	skip merge-pprof-proto "no go (Debian's golang-go)"
fi

# ---- diff --merge: groups on each side
"$TK" diff --merge --json="$WORK/d.json" -o /dev/null "$A,$B" "$S/slab-pingpong.dat,$S/slab-stacks.dat" 2>/dev/null
check diff-merge-exit test $? -eq 0
"$TK" stat --merge --json="$WORK/cd.json" -o /dev/null "$S/slab-pingpong.dat" "$S/slab-stacks.dat" 2>/dev/null
"$TK" stat --merge --json="$WORK/ab0.json" -o /dev/null "$A" "$B"
check diff-merge-sides python3 -c '
import json, sys
d, b, a = (json.load(open(p)) for p in sys.argv[1:])
# each side is the merged report of its group, as stat --merge makes it
for side, want in (("before", b), ("after", a)):
    got = d[side]
    assert got["slab"] == want["slab"], side
    assert got["traces"] == want["traces"], side
assert d["before_span_ns"] == sum(t["end_ns"] - t["start_ns"] for t in b["traces"])
assert d["delta"]["slab"]["summary"]["allocs"] == a["slab"]["summary"]["allocs"] - b["slab"]["summary"]["allocs"]' \
	"$WORK/d.json" "$WORK/ab0.json" "$WORK/cd.json"

# ---- refused in one line, exit 1
for o in --alloc --leaks=1s --folded=- --raw-ip --json-rows=all; do
	"$TK" stat --merge "$o" "$A" "$B" >/dev/null 2>"$WORK/r.err"
	check "merge-refuses-${o%%=*}" test $? -eq 1
	check "merge-refuses-${o%%=*}-said" grep -q "not with --merge" "$WORK/r.err"
done
"$TK" stat --by-function "$A" >/dev/null 2>"$WORK/r.err"
check by-function-needs-merge test $? -eq 1
"$TK" diff --merge , "$A" >/dev/null 2>"$WORK/r.err"
check diff-merge-empty-group grep -qx "trace-kmem: diff --merge: ',' names no file" "$WORK/r.err"
"$TK" stat --merge "$A" /nonexistent.dat >/dev/null 2>"$WORK/r.err"
check merge-missing-file-exit test $? -eq 2

# ---- a trace given twice (one name, or two for one file) would count
# twice in the summed report: refused in one line, exit 1, no output
ln -s "$A" "$WORK/same.dat"
twice() {	# twice NAME LINE ARGS...: refused with LINE
	local name=$1 line=$2
	shift 2
	"$TK" "$@" >"$WORK/t.out" 2>"$WORK/t.err"
	check "$name-exit" test $? -eq 1
	check "$name-said" test "$(cat "$WORK/t.err")" = "$line"
	check "$name-no-output" test ! -s "$WORK/t.out"
}
twice stat-twice "trace-kmem: $A: given twice; give each trace once" stat "$A" "$B" "$A"
twice merge-twice "trace-kmem: $A and $WORK/same.dat are the same file; give each trace once" \
	stat --merge "$A" "$WORK/same.dat"
twice diff-merge-twice "trace-kmem: $B: given twice; give each trace once" \
	diff --merge "$A" "$B,$B"
"$TK" diff "$A" "$WORK/same.dat" >"$WORK/t.out" 2>"$WORK/t.err"
check diff-same-file-allowed test $? -eq 0 -a ! -s "$WORK/t.err"

# ---- repeated frees in one report over several traces: double frees
# when each trace that has some holds all its allocations, whatever
# another trace lost (percpu-slab-netns: 11 double frees, no loss; the
# ppc32 trace: events lost, no repeated free); else the trace named
"$TK" stat --merge "$S/percpu-slab-netns.dat" "$TOP/tests/fuzz/corpus/reader/seed-w-v6-ppc32.dat" \
	>"$WORK/df.txt" 2>/dev/null
check merge-double-frees-own-trace grep -qE '^ Double frees: +11 ' "$WORK/df.txt"
"$TK" stat --merge "$S/percpu-slab-netns.dat" "$S/slab-lost-events.dat" >"$WORK/rf.txt" 2>/dev/null
check merge-repeated-frees-named grep -qE '^ Repeated frees: +21 +\(no allocation seen between; .*slab-lost-events.dat: the ring buffer lost events\)$' "$WORK/rf.txt"
finish
