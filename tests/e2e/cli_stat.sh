#!/bin/bash
# trace-kmem stat beyond single-file identity (cli_identity.sh): several
# inputs and the merged summary, buffer instances, bad input and usage
# errors with their exit status, the progress line, --help/--version,
# and trace-kmem topology on a made-up sysfs tree.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail cli-stat "no $TK (run make)"; finish; }
S=$TOP/sample-data
A=$S/slab-pingpong.dat
P=$S/page-extfrag.dat
I=$S/instance-mixed.dat

# json_docs FILE: one line per JSON document of a stream
json_docs() {
	python3 -c '
import json, sys
from jsondocs import docs
for o in docs(sys.argv[1]): print(json.dumps(o))' "$1"
}

# ---- several inputs: each file's report as the plugin prints it, then
# the merged summary, whose every count is the sum of the inputs'.
report -i "$A" -i "$P" -O kmem:stat -O "kmem:output=$WORK/m.p.txt" >/dev/null 2>&1
"$TK" stat -o "$WORK/m.c.txt" "$A" "$P"
check multi-exit-0 test $? -eq 0
n=$(stat -c %s "$WORK/m.p.txt")
check multi-inputs-as-plugin cmp -s -n "$n" "$WORK/m.p.txt" "$WORK/m.c.txt"
check multi-merged-title grep -q '^ kmem statistics: merged summary of 2 inputs$' "$WORK/m.c.txt"
"$TK" stat -i "$A" -i "$P" -o "$WORK/m.i.txt"
check multi-dash-i cmp -s "$WORK/m.c.txt" "$WORK/m.i.txt"
"$TK" stat --json="$WORK/m.json" "$A" "$P" "$S/page-trigger.dat" >/dev/null
json_docs "$WORK/m.json" >"$WORK/m.docs"
check multi-json-merged-is-sum python3 - "$WORK/m.docs" <<'PY'
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
*inputs, merged = docs
assert len(inputs) == 3 and merged["file"] == "(merged)", [d["file"] for d in docs]
assert merged["inputs"] == [d["file"] for d in inputs], merged["inputs"]
bad = []
def walk(path, m, parts):
    if isinstance(m, dict):
        for k, v in m.items():
            walk(path + [k], v, [p.get(k) if isinstance(p, dict) else None for p in parts])
    elif isinstance(m, bool) or not isinstance(m, int):
        return
    else:
        want = sum(p for p in parts if isinstance(p, int) and not isinstance(p, bool))
        if m != want:
            bad.append((".".join(path), m, want))
n = 0
for sec in ("slab", "page"):
    if sec in merged:
        walk([sec, "summary"], merged[sec]["summary"], [d.get(sec, {}).get("summary") for d in inputs])
        walk([sec, "events"], merged[sec]["events"], [d.get(sec, {}).get("events") for d in inputs])
        n += 1
walk(["events_lost"], merged["events_lost"], [d["events_lost"] for d in inputs])
assert n == 2, "both sections"
assert merged["page"]["summary"]["allocs"] > 0 and merged["slab"]["summary"]["allocs"] > 0
assert "callsites" not in merged["slab"], "merged: summaries only"
assert not bad, bad
PY
# a single input has no merged summary
"$TK" stat -o "$WORK/one.txt" "$A"
check single-no-merged sh -c "! grep -q 'merged summary' '$WORK/one.txt'"

# ---- one JSON document whatever the inputs (issue 22, point 5): one
# report is the document; several are {"schema_version", "inputs": [...],
# "merged"}, each input as it would be alone; json.load takes them whole
"$TK" stat --json="$WORK/one.json" -o /dev/null "$A"
"$TK" stat --json="$WORK/p1.json" -o /dev/null "$S/page-trigger.dat"
"$TK" stat --json=- "$A" "$S/page-extfrag.dat" "$S/page-trigger.dat" >"$WORK/three.json" 2>/dev/null
check json-one-document python3 - "$WORK/one.json" "$WORK/p1.json" "$WORK/three.json" <<'PY'
import json, sys
one, p1, three = (json.load(open(p)) for p in sys.argv[1:4])
assert list(one)[:2] == ["schema_version", "file"] and one["schema_version"] == 1, list(one)[:3]
assert list(three) == ["schema_version", "inputs", "merged"], list(three)
assert three["schema_version"] == 1
ins = three["inputs"]
assert [d["file"] for d in ins] == [one["file"], "sample-data/page-extfrag.dat", p1["file"]], [d["file"] for d in ins]
del one["schema_version"], p1["schema_version"]
assert ins[0] == one and ins[2] == p1, "an input's report is as it is alone"
assert three["merged"]["file"] == "(merged)" and three["merged"]["inputs"] == [d["file"] for d in ins]
PY
# an input with buffer instances: the same shape, and --instance (one
# buffer) gives one report again
"$TK" stat --json=- "$S/instance-mixed.dat" >"$WORK/inst.json" 2>/dev/null
"$TK" stat --instance=kmemslab --json=- "$S/instance-mixed.dat" >"$WORK/inst1.json" 2>/dev/null
check json-one-document-instances python3 - "$WORK/inst.json" "$WORK/inst1.json" <<'PY'
import json, sys
d, one = (json.load(open(p)) for p in sys.argv[1:3])
assert list(d) == ["schema_version", "inputs", "merged"], list(d)
assert len(d["inputs"]) == 2 and "(instance kmemslab)" in d["inputs"][1]["file"]
assert one["file"].endswith("(instance kmemslab)"), one["file"]
PY
# the plugin: several -i make one document too (no merged summary, as
# its tables have none), one -i the plain document
report -i "$A" -i "$S/page-extfrag.dat" -i "$S/page-trigger.dat" -O "kmem:json=$WORK/pl3.json" >/dev/null 2>&1
report -i "$A" -O "kmem:json=$WORK/pl1.json" >/dev/null 2>&1
check json-one-document-plugin python3 - "$WORK/pl3.json" "$WORK/pl1.json" "$WORK/three.json" <<'PY'
import json, sys
pl3, pl1, three = (json.load(open(p)) for p in sys.argv[1:4])
assert list(pl3) == ["schema_version", "inputs"], list(pl3)
assert list(pl1)[:2] == ["schema_version", "file"], list(pl1)[:3]
assert [d["file"] for d in pl3["inputs"]] == [d["file"] for d in three["inputs"]]
for p, c in zip(pl3["inputs"], three["inputs"]):
    for sec in ("slab", "page"):
        assert (p.get(sec) or {}).get("summary") == (c.get(sec) or {}).get("summary"), sec
PY

# ---- per-address rows (slab "allocs", page "pages") are in the JSON
# only when asked: --alloc, --all or --json-rows=all; the rest of the
# document is the same with them or without
P=$S/page-trigger.dat
"$TK" stat --json="$WORK/rows.none.json" -o /dev/null "$P"
"$TK" stat --json-rows=all --json="$WORK/rows.all.json" -o /dev/null "$P"
"$TK" stat --alloc --json="$WORK/rows.alloc.json" -o /dev/null "$P"
check json-rows-only-when-asked python3 - "$WORK"/rows.none.json "$WORK"/rows.all.json "$WORK"/rows.alloc.json <<'PY'
import json, os, sys
none, full, alloc = (json.load(open(p)) for p in sys.argv[1:4])
assert "pages" not in none["page"] and len(full["page"]["pages"]) > 100
assert alloc["page"]["pages"] == full["page"]["pages"]
assert os.path.getsize(sys.argv[1]) * 2 < os.path.getsize(sys.argv[2]), "rows are most of it"
assert "allocs" not in none["slab"] and full["slab"]["allocs"] == alloc["slab"]["allocs"]
del full["page"]["pages"], full["slab"]["allocs"]
assert none == full, "the rest differs"
PY
"$TK" stat --json-rows=some "$A" >/dev/null 2>"$WORK/rows.err"
check json-rows-bad-value-usage-exit-1 test $? -eq 1
check json-rows-bad-value-says grep -q 'json-rows=some (none or all)' "$WORK/rows.err"

# ---- without the per-allocation tables (--caller, --cache) no
# per-address rows are kept: the JSON has no "allocs" or "pages", and
# everything else is the same as with them
P=$S/page-extfrag.dat
for f in "$A" "$P"; do
	b=$(basename "$f" .dat)
	"$TK" stat --json-rows=all --json="$WORK/$b.all.json" -o /dev/null "$f"
	"$TK" stat --caller --cache --json="$WORK/$b.lean.json" -o /dev/null "$f"
	check "lean-rows-$b" python3 - "$WORK/$b.all.json" "$WORK/$b.lean.json" <<'PY'
import json, sys
full, lean = (json.load(open(p)) for p in sys.argv[1:3])
assert full.get("slab", {}).get("allocs") or full.get("page", {}).get("pages")
for sec, rows in (("slab", "allocs"), ("slab", "anomalies"), ("page", "pages")):
    if sec in full:
        assert rows not in lean[sec], (sec, rows)
        del full[sec][rows]
assert full == lean, "the rest differs"
PY
done

# ---- a key a table does not have: that table sorts by its defaults
# (bytes, hit); -s gfp leaves the slab tables as they are by default,
# -s frag the page tables; the plugin says a key no shown table has
for c in "$A|gfp|slab" "$P|frag|page"; do
	IFS='|' read -r f k sec <<<"$c"
	"$TK" stat --json="$WORK/d.json" -o /dev/null "$f"
	"$TK" stat -s "$k" --json="$WORK/k.json" -o /dev/null "$f"
	check "sort-$k-$sec-tables-default-order" python3 -c '
import json, sys
a, b = (json.load(open(p))[sys.argv[3]] for p in sys.argv[1:3])
assert a == b, "differs"
' "$WORK/d.json" "$WORK/k.json" "$sec"
done
report -i "$A" -O kmem:stat -O kmem:slab -O kmem:sort=gfp >/dev/null 2>"$WORK/ks.err"
check sort-key-plugin-said test "$(cat "$WORK/ks.err")" = \
	"kmem: sort key 'gfp' is in none of the tables shown (slab call sites); ignored"

# ---- a buffer with no record is left out (one line), and a merged
# summary needs two reports with data: a trace recorded into an
# instance only; a trace with no record at all still gets its report
printf '%s\n' '[kallsyms]' 'ffffffff81300000 T seq_open' 'ffffffff81400000 T _etext' \
	'[buffer]' '[buffer slabs]' \
	'0 1.0 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000100 bytes_req=8 bytes_alloc=8 node=-1' \
	'1 2.0 kfree call_site=0xffffffff81300010 ptr=0xffff888100000100' >"$WORK/io.spec"
printf '%s\n' '[kallsyms]' 'ffffffff81300000 T seq_open' '[buffer]' '[buffer slabs]' >"$WORK/none.spec"
for v in 6 7; do
	for s in io none; do
		python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/$s.spec" -o "$WORK/$s$v.dat" \
			--formats "$TOP/tests/formats/linux-6.18-x86_64.txt" --version $v
	done
	for r in native libtracecmd; do
		"$TK" stat --reader=$r "$WORK/io$v.dat" >"$WORK/io.out" 2>"$WORK/io.err"
		check "empty-top-v$v-$r-one-report" test "$(grep -c '^ kmem statistics:' "$WORK/io.out")" -eq 1
		check "empty-top-v$v-$r-the-instance" grep -q "^ kmem statistics: .*io$v.dat (instance slabs)$" "$WORK/io.out"
		check "empty-top-v$v-$r-said" test "$(cat "$WORK/io.err")" = \
			"trace-kmem: $WORK/io$v.dat: no records in the top-level buffer: left out"
		"$TK" stat --reader=$r "$WORK/none$v.dat" >"$WORK/none.out" 2>"$WORK/none.err"
		check "no-records-v$v-$r-one-report" test "$(grep -c '^ kmem statistics:' "$WORK/none.out")" -eq 1
		check "no-records-v$v-$r-says-so" grep -q "No slab, page, per-CPU or vmalloc allocator events" "$WORK/none.out"
		check "no-records-v$v-$r-quiet" test ! -s "$WORK/none.err"
	done
done

# ---- each allocator's section begins with a title, underlined to its
# length, the same layout for slab and page, before its first table
for f in "$S"/*.dat; do
	b=$(basename "$f" .dat)
	"$TK" stat --slab --page -o "$WORK/sec.txt" "$f" 2>/dev/null
	check "section-titles-$b" python3 - "$WORK/sec.txt" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
seen = []
for i, l in enumerate(lines):
    m = re.fullmatch(r" (Slab|Page) allocator \((.+)\)", l)
    if not m:
        continue
    assert lines[i + 1] == " " + "=" * (len(l) - 1), (l, lines[i + 1])
    assert lines[i + 2] == "" and lines[i + 3] != "", lines[i:i + 4]
    seen.append(m.group(1))
# per buffer: slab, then page
assert seen and seen == ["Slab", "Page"] * (len(seen) // 2), seen
PY
done

# ---- no table wider than 160 columns off a terminal (--width N, 0 no
# limit): the GFP flags fold after a '|', every flag kept, in order
for w in "" 120 0; do
	"$TK" stat --page --all ${w:+--width $w} -o "$WORK/w$w.txt" "$S/page-trigger.dat"
done
check width-default-160 test "$(awk '{ if (length > m) m = length } END { print m }' "$WORK/w.txt")" -le 160
check width-120 test "$(awk '{ if (length > m) m = length } END { print m }' "$WORK/w120.txt")" -le 120
check width-0-unfolded test "$(awk '{ if (length > m) m = length } END { print m }' "$WORK/w0.txt")" -gt 160
check width-folds-lose-nothing python3 - "$WORK/w0.txt" "$WORK/w.txt" "$WORK/w120.txt" <<'PY'
import sys
def gfp_cells(path):
    """The GFP column of the page tables, continuation lines joined."""
    out, col = [], None
    for l in open(path):
        # columns are " | " apart; a blank last cell leaves " |"
        l = l.rstrip("\n")
        l = l[:-2] + " | " if l.endswith(" |") else l
        c = [x.strip() for x in l.split(" | ")]
        if "GFP flags" in c:
            col = c.index("GFP flags")
            continue
        if col is None or len(c) <= col or set(l.strip()) <= {"-"}:
            if not l.strip():
                col = None
            continue
        if c[0] == "" and out:          # a continuation line
            out[-1] += c[col]
        else:
            out.append(c[col])
    return out
want = gfp_cells(sys.argv[1])
assert want and any(len(x) > 60 for x in want)
for p in sys.argv[2:]:
    assert gfp_cells(p) == want, p
PY

# ---- where the anomalies are: a table (--anomalies, --all), the JSON's
# slab.anomalies, and a reading of the summary when one place holds most
# of a kind: here 3 of 4 double frees in an RCU callback
{
	printf '%s\n' '[kallsyms]' 'ffffffff81100000 T rcu_do_batch' 'ffffffff81100400 T seq_open' \
		'ffffffff81100800 T seq_release' 'ffffffff81200000 T _etext' '[buffer]'
	t=1000
	for i in 1 2 3 4; do
		printf '0 %d kmalloc call_site=0xffffffff81100410 ptr=0xffff8881000%d0000 bytes_req=8 bytes_alloc=8 node=-1\n' $((t += 10)) "$i"
	done
	for i in 1 2 3; do	# freed, and again, by RCU
		printf '1 %d kfree call_site=0xffffffff811001b7 ptr=0xffff8881000%d0000\n' $((t += 10)) "$i"
		printf '1 %d kfree call_site=0xffffffff811001b7 ptr=0xffff8881000%d0000\n' $((t += 10)) "$i"
	done
	printf '0 %d kfree call_site=0xffffffff81100810 ptr=0xffff888100040000\n' $((t += 10))
	printf '0 %d kfree call_site=0xffffffff81100810 ptr=0xffff888100040000\n' $((t += 10))
	printf '0 %d kfree call_site=0xffffffff81100810 ptr=0xffff888100090000\n' $((t += 10))
} >"$WORK/rcu.spec"
python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/rcu.spec" -o "$WORK/rcu.dat" \
	--formats "$TOP/tests/formats/linux-6.18-x86_64.txt" --version 6
"$TK" stat --all --json="$WORK/rcu.json" -o "$WORK/rcu.txt" "$WORK/rcu.dat"
check anomalies-reading grep -qx " 3 of 4 double frees are at rcu_do_batch+0x1b7." "$WORK/rcu.txt"
# (every allocation recorded: no "not a kernel bug" for RCU's frees)
check anomalies-reading-rcu-doubt-only sh -c "! grep -q 'frees by RCU callbacks' '$WORK/rcu.txt'"
check anomalies-table python3 - "$WORK/rcu.txt" <<'PY'
import sys
rows = [[c.strip() for c in l.split(" | ")] for l in open(sys.argv[1])
        if l.rstrip().endswith(("rcu_do_batch+0x1b7", "seq_release+0x10"))
        and l.count(" | ") == 3]
# the first free of each is matched; then 3 double frees by RCU, and
# at seq_release a double free and a free of a pointer never allocated
assert rows == [[".", "3", ".", "rcu_do_batch+0x1b7"],
                ["1", "1", ".", "seq_release+0x10"]], rows
PY
check anomalies-json python3 -c '
import json, sys
a = {x["callsite"]: x for x in json.load(open(sys.argv[1]))["slab"]["anomalies"]}
assert a["rcu_do_batch+0x1b7"]["double_frees"] == 3 and a["rcu_do_batch+0x1b7"]["free_only"] == 0, a
assert a["seq_release+0x10"]["double_frees"] == 1 and a["seq_release+0x10"]["free_only"] == 1, a
assert sum(x["missed_frees"]["count"] for x in a.values()) == 0
' "$WORK/rcu.json"
"$TK" stat -o "$WORK/rcu-default.txt" "$WORK/rcu.dat"
check anomalies-reading-by-default grep -q " 3 of 4 double frees are at" "$WORK/rcu-default.txt"
check anomalies-table-not-by-default sh -c "! grep -q 'Freed-only |' '$WORK/rcu-default.txt'"

# ---- a double free only where the trace saw every allocation: the
# stream above has records of pid 0 (interrupts on an idle CPU, which a
# recording of chosen tasks never holds), no loss and allocations.  The
# same stream as the tasks of set_event_pid record it (no pid 0), with a
# loss, and without its allocations says "Repeated frees" and why.
check double-free-certain python3 - "$WORK/rcu.txt" "$WORK/rcu.json" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
assert " Double frees:" in t and "Repeated frees:" not in t, t
assert "(a kernel bug, or an allocation that passed no tracepoint)" in t
s = json.load(open(sys.argv[2]))["slab"]["summary"]
assert s["double_frees"] == 4 and s["double_frees_doubt"] is None, s
PY
sed -E 's/^([0-9]+ [0-9]+ k.*)$/\1 pid=4242/' "$WORK/rcu.spec" >"$WORK/rcu-pid.spec"
awk '/kfree/ && !done { print "lost 1 7"; done = 1 } { print }' "$WORK/rcu.spec" >"$WORK/rcu-lost.spec"
grep -v kmalloc "$WORK/rcu.spec" >"$WORK/rcu-noalloc.spec"
for v in pid lost noalloc; do
	python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/rcu-$v.spec" \
		-o "$WORK/rcu-$v.dat" --version 6 \
		--formats "$TOP/tests/formats/linux-6.18-x86_64.txt"
	"$TK" stat --json="$WORK/rcu-$v.json" -o "$WORK/rcu-$v.txt" "$WORK/rcu-$v.dat"
done
check double-free-doubt python3 - "$WORK" <<'PY'
import json, re, sys
why = {"pid": "no pid 0 record: likely only chosen tasks were traced",
       "lost": "the ring buffer lost events",
       "noalloc": "no allocation was recorded"}
for v, w in why.items():
    t = open("%s/rcu-%s.txt" % (sys.argv[1], v)).read()
    assert "Double frees" not in t and "double frees" not in t, (v, t)
    n = 4       # 3 by RCU, 1 at seq_release, with allocations or not
    line = re.search(r"^ Repeated frees: +(\d+) +\((.*)\)$", t, re.M)
    assert line and line.group(1) == str(n), (v, t)
    assert line.group(2) == "no allocation seen between; " + w, (v, line.group(2))
    s = json.load(open("%s/rcu-%s.json" % (sys.argv[1], v)))["slab"]["summary"]
    assert s["double_frees"] == n and s["double_frees_doubt"] == w, (v, s)
t = open(sys.argv[1] + "/rcu-pid.txt").read()
assert " 3 of 4 repeated frees are at rcu_do_batch+0x1b7:\n   frees by RCU " \
       "callbacks, which run for every task: objects whose allocation\n   the " \
       "trace missed (no pid 0 record: likely only chosen tasks were traced), " \
       "not a kernel bug.\n" in t, t
PY
# the anomalies table's column says what the summary says
"$TK" stat --anomalies "$WORK/rcu.dat" >"$WORK/rcu-anom.txt"
"$TK" stat --anomalies "$WORK/rcu-pid.dat" >"$WORK/rcu-pid-anom.txt"
check anomaly-column-double sh -c "grep -q ' Double frees |' '$WORK/rcu-anom.txt' &&
	! grep -q 'Repeated frees' '$WORK/rcu-anom.txt'"
check anomaly-column-repeated sh -c "grep -q ' Repeated frees |' '$WORK/rcu-pid-anom.txt' &&
	! grep -q 'Double frees' '$WORK/rcu-pid-anom.txt'"

# ---- the per-cache table has no empty row: a cache seen only in
# freed-only frees shows them (Frees = frees + free_only of the JSON)
for f in "$S"/slab-*.dat; do
	b=$(basename "$f" .dat)
	"$TK" stat --cache -l 0 --json="$WORK/$b.c.json" -o "$WORK/$b.c.txt" "$f"
	check "cache-rows-$b" python3 - "$WORK/$b.c.txt" "$WORK/$b.c.json" <<'PY'
import json, sys
js = {c["name"]: c for c in json.load(open(sys.argv[2]))["slab"]["caches"]}
rows = 0
for l in open(sys.argv[1]):
    c = [x.strip() for x in l.split("|")]
    if len(c) != 8 or c[7] in ("Cache", "..."):
        continue
    n = lambda x: 0 if x == "." else int(x.replace(",", ""))
    assert n(c[2]) or n(c[3]), "empty row: " + l
    j = js[c[7]]
    assert n(c[3]) == j["frees"] + j["free_only"], (l, j)
    assert (c[6] == "-" and j["memcg_bytes"] is None) or \
        n(c[6]) == j["memcg_bytes"], (l, j)
    rows += 1
assert rows == len(js), (rows, len(js))
PY
done

# ---- every command chooses a buffer the same way and says which: a
# trace recorded into an instance only is read from that instance by
# diff and plot as stat finds it; --instance picks one in each; two
# instances with records and an empty top-level buffer ask for one.
# By hand: io has 1 kmalloc and its kfree, io2 one kmalloc more (16 B).
sed 's/^1 2.0 kfree.*/&\n1 3.0 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000200 bytes_req=16 bytes_alloc=16 node=-1/' \
	"$WORK/io.spec" >"$WORK/io2.spec"
{ cat "$WORK/io2.spec"; echo '[buffer other]'
  echo '0 4.0 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000300 bytes_req=32 bytes_alloc=32 node=-1'; } >"$WORK/io3.spec"
for s in io2 io3; do
	python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/$s.spec" -o "$WORK/$s.dat" \
		--formats "$TOP/tests/formats/linux-6.18-x86_64.txt" --version 7
done
for r in native libtracecmd; do
	"$TK" diff --reader=$r --json="$WORK/d-$r.json" -o "$WORK/d-$r.txt" \
		"$WORK/io7.dat" "$WORK/io2.dat" 2>"$WORK/d-$r.err"
	check "instance-only-diff-$r" python3 - "$WORK" "$r" <<'PY'
import json, sys
w, r = sys.argv[1:3]
t = open("%s/d-%s.txt" % (w, r)).read()
assert " kmem diff: %s/io7.dat (instance slabs) -> %s/io2.dat (instance slabs)" % (w, w) in t, t
assert open("%s/d-%s.err" % (w, r)).read() == \
    "trace-kmem: %s/io7.dat: no kmem records in the top-level buffer; reading instance slabs\n" \
    "trace-kmem: %s/io2.dat: no kmem records in the top-level buffer; reading instance slabs\n" % (w, w)
d = json.load(open("%s/d-%s.json" % (w, r)))
s = json.dumps(d)
assert '"allocs"' in s, s[:300]
PY
	"$TK" plot --reader=$r -o "$WORK/p-$r.svg" "$WORK/io7.dat" 2>"$WORK/p-$r.err"
	check "instance-only-plot-$r" test $? -eq 0 -a "$(cat "$WORK/p-$r.err")" = \
		"trace-kmem: $WORK/io7.dat: no kmem records in the top-level buffer; reading instance slabs"
	check "instance-only-plot-$r-labelled" grep -q "io7.dat (instance slabs)" "$WORK/p-$r.svg"
	"$TK" diff --reader=$r "$WORK/io3.dat" "$WORK/io2.dat" >/dev/null 2>"$WORK/a-$r.err"
	check "instance-ambiguous-$r" test $? -eq 2 -a "$(cat "$WORK/a-$r.err")" = \
		"trace-kmem: $WORK/io3.dat: no kmem records in the top-level buffer; instances slabs, other have some: choose one with --instance NAME"
	"$TK" plot --reader=$r --instance other -o "$WORK/o-$r.svg" "$WORK/io3.dat" 2>"$WORK/o-$r.err"
	check "instance-chosen-plot-$r" test $? -eq 0 -a ! -s "$WORK/o-$r.err"
	"$TK" stat --reader=$r --instance other --json="$WORK/s-$r.json" -o /dev/null "$WORK/io3.dat"
	check "instance-chosen-stat-$r" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["file"].endswith("io3.dat (instance other)"), d["file"]
assert d["slab"]["summary"]["allocs"] == 1 and d["slab"]["summary"]["bytes_allocated"] == 32, d["slab"]["summary"]
' "$WORK/s-$r.json"
	"$TK" plot --reader=$r --instance nope -o "$WORK/n.svg" "$WORK/io3.dat" 2>"$WORK/n-$r.err"
	check "instance-unknown-$r" test $? -eq 2 -a "$(cat "$WORK/n-$r.err")" = \
		"trace-kmem: $WORK/io3.dat: no buffer instance 'nope' (its instances: slabs, other)"
done

# ---- buffer instances: the top buffer and the instance apart, each with
# the records trace-cmd lists for it, then the merged summary.
"$TK" stat --json="$WORK/i.json" "$I" >/dev/null
json_docs "$WORK/i.json" >"$WORK/i.docs"
trace-cmd report -i "$I" 2>/dev/null >"$WORK/i.list"
top_pa=$(grep -v '^kmemslab:' "$WORK/i.list" | grep -c ' mm_page_alloc: ')
inst_slab=$(grep '^kmemslab:' "$WORK/i.list" | grep -c -E ' (kmalloc|kfree|kmem_cache_alloc|kmem_cache_free): ')
check instances-three-reports test "$(wc -l <"$WORK/i.docs")" -eq 3
check instances-labelled python3 - "$WORK/i.docs" "$top_pa" "$inst_slab" <<'PY'
import json, sys
top, inst, merged = [json.loads(l) for l in open(sys.argv[1])]
assert top["file"].endswith("instance-mixed.dat"), top["file"]
assert inst["file"] == top["file"] + " (instance kmemslab)", inst["file"]
assert "slab" not in top and "page" not in inst, "each buffer its own events"
pa, slab = int(sys.argv[2]), int(sys.argv[3])
assert pa > 0 and slab > 0
assert top["page"]["summary"]["allocs"] + top["page"]["summary"]["failures"]["count"] == pa, (top["page"]["summary"], pa)
assert inst["slab"]["events"] == slab, (inst["slab"]["events"], slab)
assert merged["inputs"] == [top["file"], inst["file"]]
PY

# ---- the libtracecmd reader reads compressed files through an
# uncompressed copy (trace-cmd convert; big files only,
# TRACE_KMEM_CONVERT=always forces it): the same report, no copy left
# behind; without trace-cmd, the file as it is.  (The native reader never
# converts.)
mkdir -p "$WORK/tmp"
for f in "$A" "$P" "$I"; do
	b=$(basename "$f" .dat)
	TRACE_KMEM_CONVERT=never "$TK" stat --reader=libtracecmd --json="$WORK/$b.n.json" -o "$WORK/$b.n.txt" "$f"
	TMPDIR=$WORK/tmp TRACE_KMEM_CONVERT=always "$TK" stat --reader=libtracecmd --json="$WORK/$b.a.json" -o "$WORK/$b.a.txt" "$f"
	check "convert-$b-same" cmp -s "$WORK/$b.n.txt" "$WORK/$b.a.txt"
	check "convert-$b-same-json" cmp -s "$WORK/$b.n.json" "$WORK/$b.a.json"
done
check convert-no-copy-left test -z "$(ls -A "$WORK/tmp")"
TRACE_KMEM_CONVERT=always PATH=/nonexistent "$TK" stat --reader=libtracecmd -o "$WORK/nopath.txt" "$A"
check convert-without-trace-cmd cmp -s "$WORK/nopath.txt" "$WORK/$(basename "$A" .dat).n.txt"
# the converting path really converts: a copy appears while it runs
TMPDIR=$WORK/tmp TRACE_KMEM_CONVERT=always strace -f -e trace=execve -o "$WORK/strace.log" \
	"$TK" stat --reader=libtracecmd -o /dev/null "$A" 2>/dev/null
TMPDIR=$WORK/tmp TRACE_KMEM_CONVERT=always strace -f -e trace=execve -o "$WORK/strace-native.log" \
	"$TK" stat -o /dev/null "$A" 2>/dev/null
if command -v strace >/dev/null; then
	check convert-runs-trace-cmd grep -q 'execve(.*trace-cmd.*"convert"' "$WORK/strace.log"
	check native-never-converts test "$(grep -c 'execve(' "$WORK/strace-native.log")" -eq 1
else
	skip convert-runs-trace-cmd "strace not installed"
fi

# ---- bad input: one line naming the file, exit 2, nothing on stdout,
# no hang (timeout), no crash.
: >"$WORK/empty.dat"
echo "hello" >"$WORK/text.dat"
printf 'PERFILE2\0\0\0\0\0\0\0\0' >"$WORK/perf.data"
head -c $(($(stat -c %s "$A") / 2)) "$A" >"$WORK/half.dat"
head -c 11 "$A" >"$WORK/magic-only.dat"
trace-cmd convert -i "$A" -o "$WORK/v6.dat" --file-version 6 >/dev/null 2>&1
head -c $(($(stat -c %s "$WORK/v6.dat") - 4096)) "$WORK/v6.dat" >"$WORK/v6-cut.dat"
mkdir -p "$WORK/dir.dat"
bad_input() {
	local name=$1 file=$2 want=$3 rc
	shift 3
	timeout 60 "$TK" stat "$@" "$file" >"$WORK/bad.out" 2>"$WORK/bad.err"
	rc=$?
	if [ "$rc" -ne 2 ]; then
		fail "bad-input-$name" "exit $rc, want 2: $(head -3 "$WORK/bad.err")"
	elif [ "$(wc -l <"$WORK/bad.err")" -ne 1 ] || [ -s "$WORK/bad.out" ]; then
		fail "bad-input-$name" "want one line on stderr and no stdout: $(head -c 300 "$WORK/bad.err" "$WORK/bad.out")"
	elif ! grep -q "^trace-kmem: $file: .*$want" "$WORK/bad.err"; then
		fail "bad-input-$name" "message: $(cat "$WORK/bad.err")"
	else
		pass "bad-input-$name"
	fi
}
bad_input missing "$WORK/nope.dat" "No such file or directory"
bad_input empty "$WORK/empty.dat" "empty file"
bad_input text "$WORK/text.dat" "not a trace-cmd data file"
bad_input perf-data "$WORK/perf.data" "perf.data file"
bad_input directory "$WORK/dir.dat" "directory"
# a pipe was opened again after its writer had gone: a hang
mkfifo "$WORK/fifo.dat"
timeout 70 sh -c 'exec cat "$1" >"$2"' sh "$A" "$WORK/fifo.dat" </dev/null >/dev/null 2>&1 &
writer=$!
bad_input fifo "$WORK/fifo.dat" "a pipe, not a file"
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
rm -f "$WORK/fifo.dat"
bad_input device /dev/null "a device, not a trace-cmd data file"
bad_input stdin - "standard input is not read"
bad_input truncated-v7 "$WORK/half.dat" "past the end of the file"
bad_input magic-only "$WORK/magic-only.dat" "truncated file header"
# the libtracecmd reader: the native reader checks the file first ...
bad_input truncated-v7-libtracecmd "$WORK/half.dat" "past the end of the file" --reader=libtracecmd
bad_input magic-only-libtracecmd "$WORK/magic-only.dat" "truncated file header" --reader=libtracecmd
# ... and where libtracecmd gets it unchecked, the fault guard answers
export TRACE_KMEM_VALIDATE=never
bad_input truncated-v7-unchecked "$WORK/half.dat" "truncated or corrupt" --reader=libtracecmd
bad_input magic-only-unchecked "$WORK/magic-only.dat" "truncated or corrupt" --reader=libtracecmd
unset TRACE_KMEM_VALIDATE
if [ -s "$WORK/v6.dat" ]; then
	bad_input truncated-v6 "$WORK/v6-cut.dat" "ends past the end of the file (truncated?)"
	bad_input truncated-v6-libtracecmd "$WORK/v6-cut.dat" "ends past the end of the file (truncated?)" --reader=libtracecmd
	TRACE_KMEM_VALIDATE=never bad_input truncated-v6-unchecked "$WORK/v6-cut.dat" "truncated or corrupt" --reader=libtracecmd
	# a page size of 0 (after magic, "6", endianness, long size):
	# libtracecmd divides by it (SIGFPE), the native reader refuses it
	python3 "$TOP/tests/lib/tdat_layout.py" --poke "$WORK/v6.dat" "$WORK/page0.dat" 14 00000000
	bad_input page-size-0 "$WORK/page0.dat" "page size 0 is not a power of two"
	bad_input page-size-0-libtracecmd "$WORK/page0.dat" "page size 0 is not a power of two" --reader=libtracecmd
	# libtracecmd itself divides by it: SIGFPE, caught by the guard
	TRACE_KMEM_VALIDATE=never bad_input page-size-0-unchecked "$WORK/page0.dat" "truncated or corrupt" --reader=libtracecmd
else
	fail bad-input-truncated-v6 "trace-cmd convert --file-version 6 failed"
fi
# a damaged buffer instance: no half report (libtracecmd used to fail on
# it after printing the top buffer's report)
LAY="python3 $TOP/tests/lib/tdat_layout.py"
at=$($LAY "$I" | python3 -c 'import json,sys; print([c["table_at"] for c in json.load(sys.stdin)["cpus"] if c["buffer"]][0] + 4)')
$LAY --poke "$I" "$WORK/inst-bad.dat" "$at" "$(python3 -c 'import struct; print(struct.pack("<Q", 0x7fffffff0000).hex())')"
bad_input instance-damaged "$WORK/inst-bad.dat" "CPU 0 data of instance .* ends past the end of the file"
bad_input instance-damaged-libtracecmd "$WORK/inst-bad.dat" "CPU 0 data of instance .* ends past the end of the file" --reader=libtracecmd
TRACE_KMEM_VALIDATE=never bad_input instance-damaged-unchecked "$WORK/inst-bad.dat" "truncated or corrupt" --reader=libtracecmd
# a bad file among good ones: nothing printed at all
"$TK" stat "$A" "$WORK/text.dat" >"$WORK/mix.out" 2>"$WORK/mix.err"
rc=$?
check bad-among-good-exit-2 test "$rc" -eq 2
check bad-among-good-no-tables test ! -s "$WORK/mix.out"
# no argument: trace.dat in the current directory
(cd "$WORK" && "$TK" stat >/dev/null 2>"$WORK/def.err")
check default-trace-dat grep -q '^trace-kmem: trace.dat: No such file' "$WORK/def.err"

# ---- usage errors: exit 1, the problem in the first line.
usage_error() {
	local name=$1 want=$2 rc
	shift 2
	"$TK" "$@" >"$WORK/u.out" 2>"$WORK/u.err"
	rc=$?
	# every message starts "trace-kmem:", getopt's and lib/'s too
	if [ "$rc" -eq 1 ] && head -1 "$WORK/u.err" | grep -q -- "^trace-kmem: .*$want"; then
		pass "usage-$name"
	else
		fail "usage-$name" "exit $rc (want 1): $(head -2 "$WORK/u.err")"
	fi
}
usage_error no-command "no command" 
usage_error unknown-command "unknown command 'bogus'" bogus
usage_error bad-sort "bad sort key 'bogus' in --sort=bogus" stat --sort=bogus "$A"
usage_error too-many-sort-keys "too many sort keys in --sort=bytes,hit,ptr,callsite,pingpong,frag,live,peak,page (at most 8)" stat --sort=bytes,hit,ptr,callsite,pingpong,frag,live,peak,page "$A"
usage_error bad-lines "bad --lines=abc" stat -l abc "$A"
usage_error bad-skip "bad --skip=(" stat --skip='(' "$A"
usage_error bad-time "bad --time '5'" stat --time 5 "$A"
usage_error bad-time-order "bad --time '9,8'" stat --time 9,8 "$A"
usage_error bad-time-past-u64 "bad --time '18446744074,'" stat --time 18446744074, "$A"
usage_error bad-time-past-u64-ns "bad --time ',18446744073.709551616'" stat --time ,18446744073.709551616 "$A"
usage_error bad-pid "bad --pid '12x'" stat --pid 12x "$A"
usage_error bad-cpu "bad --cpu '3-1'" stat --cpu 3-1 "$A"
usage_error unknown-option "unknown option '--bogus'" stat --bogus "$A"
usage_error unknown-short-option "unknown option '-x'" stat -x "$A"
usage_error flag-with-value "option '--page' takes no value" stat --page=3 "$A"
usage_error help-with-value "option '--help' takes no value" stat --help=1
# an unknown letter in a cluster after a long option is named, not the
# long option before it
usage_error cluster-after-flag "unknown option '-a'" stat --page -aX "$A"
usage_error cluster-after-value "unknown option '-X'" stat --sort=bytes -Xq "$A"
usage_error unknown-with-value "unknown option '--bogus'\$" stat --bogus=2 "$A"
usage_error missing-argument "option '--sort' needs an argument" stat "$A" --sort
# --help reads in 80 columns: descriptions wrap under their column
for c in stat live topology plot diff; do
	"$TK" $c --help >"$WORK/help.txt"
	check "help-$c-80-columns" awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$WORK/help.txt"
done
usage_error live-unknown-option "unknown option '--bogus'" live --bogus
usage_error not-for-stat "\-\-duration does not apply to 'stat'" stat -d 3 "$A"
usage_error not-for-live "\-\-time does not apply to 'live'" live --time 1,2
usage_error topology-arg "topology takes no argument" topology foo
usage_error json-empty "json needs a value" stat --json= "$A"
# an optional value after a space (issue 22, point 4): refused with both
# spellings, never opened as a trace; a trace after it is an input
for o in "json out.json:standard output" "folded out.txt:standard output" "leaks 1s:any age"; do
	read -r opt val <<<"${o%%:*}"
	usage_error "optional-value-spaced-$opt" "--$opt $val: not a trace; write --$opt=$val for the value, or --$opt alone for ${o#*:}" stat "--$opt" "$val" "$A"
done
(cd "$WORK" && "$TK" stat --json out.json "$A" >/dev/null 2>&1)
check optional-value-spaced-json-no-file test ! -e "$WORK/out.json"
"$TK" stat --json "$A" 2>/dev/null | python3 -c 'import json, sys; json.load(sys.stdin)'
check optional-value-then-trace-is-input test "${PIPESTATUS[0]}${PIPESTATUS[1]}" = 00
"$TK" diff --json out.json "$A" "$A" >/dev/null 2>"$WORK/u.err"
check optional-value-spaced-diff grep -q -- '--json out.json: not a trace' "$WORK/u.err"
usage_error sort-key-in-no-table "sort key 'order' is in none of the tables shown (slab call sites)" stat --slab -s order "$A"
usage_error sort-key-in-no-table-all "sort key 'order' is in none of the tables shown (slab call sites, slab allocations, slab caches, slab anomalies)" stat --slab --all -s order "$A"
usage_error sort-key-in-no-shown-table "sort key 'ptr' is in none of the tables shown (slab caches)" stat --cache -s ptr "$A"
usage_error bad-reader "\-\-reader: \"bogus\" is neither native nor libtracecmd" stat --reader=bogus "$A"
usage_error reader-not-for-live "\-\-reader does not apply to 'live'" live --reader=native

# ---- --help: a synopsis and a line per command, no option lists;
# COMMAND --help its options: together every option of lib/'s table;
# --version.
"$TK" --help >"$WORK/help-top.txt"
check help-exit-0 test $? -eq 0
check help-synopsis grep -q '^SYNOPSIS' "$WORK/help-top.txt"
check help-short test "$(wc -l <"$WORK/help-top.txt")" -le 30
check help-no-option-lists sh -c "! grep -q -- '--slab' '$WORK/help-top.txt'"
check help-points-to-commands grep -q "trace-kmem COMMAND --help" "$WORK/help-top.txt"
check help-cites-no-source-path sh -c "! grep -Eq 'Documentation/|tests/|bench/' '$WORK/help-top.txt'"
for c in stat live topology plot diff; do "$TK" $c --help; done >"$WORK/help.txt"
check help-commands-cite-no-source-path sh -c "! grep -Eq 'Documentation/|tests/|bench/' '$WORK/help.txt'"
missing=
for o in slab page caller alloc cache live per-process merge-pids skip numa \
	sort lines raw-ip json output time pid comm cpu duration interval stacks; do
	grep -q -- "--$o" "$WORK/help.txt" || missing="$missing $o"
done
check help-all-options test -z "$missing"
"$TK" stat --help | grep -q '^STAT OPTIONS'
check help-stat test $? -eq 0
"$TK" --version | grep -Eq '^trace-kmem [0-9]+\.[0-9]+'
check version test $? -eq 0

# ---- progress line: on a terminal only.
"$TK" stat -o /dev/null "$I" 2>"$WORK/pipe.err"
check progress-not-in-pipes test ! -s "$WORK/pipe.err"
if command -v script >/dev/null; then
	# a gzip profile is not poured onto a terminal; to a pipe it is whole
	script -qec "$TK stat --pprof - $I; echo rc=\$?" /dev/null >"$WORK/pp.tty" 2>&1
	check pprof-not-to-terminal grep -q 'pprof=-: a gzip profile is not written to a terminal' "$WORK/pp.tty"
	check pprof-not-to-terminal-exit-2 grep -q '^rc=2' "$WORK/pp.tty"
	check pprof-to-pipe sh -c "'$TK' stat --pprof - '$I' | gzip -t"
	TRACE_KMEM_PROGRESS_AFTER=0 script -qec "$TK stat -o /dev/null $I" /dev/null >"$WORK/tty.out" 2>&1
	check progress-on-terminal grep -q 'records' "$WORK/tty.out"
	# how far through the file: a percentage of its CPU data
	check progress-percent grep -qE 'records, [0-9.]+ M/s, [0-9]+%' "$WORK/tty.out"
	# the libtracecmd reader's detour through an uncompressed copy is
	# said on a terminal, and only there
	TRACE_KMEM_CONVERT=always script -qec "$TK stat --reader=libtracecmd -o /dev/null $P" \
		/dev/null >"$WORK/conv.out" 2>&1
	check convert-said-on-terminal grep -q "compressed: reading an uncompressed copy in" "$WORK/conv.out"
	TRACE_KMEM_CONVERT=always "$TK" stat --reader=libtracecmd -o /dev/null "$P" 2>"$WORK/conv.err"
	check convert-quiet-off-terminal test ! -s "$WORK/conv.err"
else
	skip progress-on-terminal "script(1) not installed"
fi

# ---- topology from a made-up sysfs: 2 nodes, 128 MB blocks of 4 KB
# pages (32768 pages each); node 1's blocks 2 and 4 are not adjacent.
fs=$WORK/sys
for n in 0 1; do mkdir -p "$fs/devices/system/node/node$n"; done
mkdir -p "$fs/devices/system/memory"
echo 8000000 >"$fs/devices/system/memory/block_size_bytes"
echo "0-1" >"$fs/devices/system/node/node0/cpulist"
echo "2,3,5" >"$fs/devices/system/node/node1/cpulist"
for m in 0 1; do mkdir "$fs/devices/system/node/node0/memory$m"; done
for m in 2 4; do mkdir "$fs/devices/system/node/node1/memory$m"; done
if [ "$(getconf PAGESIZE)" = 4096 ]; then
	TRACE_KMEM_SYSFS=$fs "$TK" topology >"$WORK/topo.txt"
	cat >"$WORK/topo.want" <<'T'
cpu 0 node 0
cpu 1 node 0
cpu 2 node 1
cpu 3 node 1
cpu 5 node 1
mem 0x0-0x10000 node 0
mem 0x10000-0x18000 node 1
mem 0x20000-0x28000 node 1
T
	check topology-made-up diff <(grep -v '^#' "$WORK/topo.txt" | sort) "$WORK/topo.want"
else
	skip topology-made-up "page size is not 4096"
fi
TRACE_KMEM_SYSFS=$WORK/none "$TK" topology >/dev/null 2>"$WORK/topo.err"
check topology-no-sysfs-exit-2 test $? -eq 2
# the map topology writes is one --numa loads (the made-up tree's, and
# this machine's where it has one), and a tree that is not what the
# kernel writes stops with one line naming what is wrong, exit 2, and
# writes no map that --numa would refuse (a CPU twice, ranges that
# overlap, no cpu or no mem line, CPUs above 65535)
if [ "$(getconf PAGESIZE)" = 4096 ]; then
	"$TK" stat --numa "$WORK/topo.txt" -o /dev/null "$P" 2>"$WORK/topo.err"
	check topology-made-up-loads test $? -eq 0 -a ! -s "$WORK/topo.err"
fi
if [ -d /sys/devices/system/node ] && "$TK" topology -o "$WORK/host.topo" 2>/dev/null; then
	"$TK" stat --numa "$WORK/host.topo" -o /dev/null "$P" 2>"$WORK/topo.err"
	check topology-this-machine-loads test $? -eq 0 -a ! -s "$WORK/topo.err"
else
	skip topology-this-machine-loads "no node and memory block information in /sys"
fi
# topo_case NAME WANT: the tree in $WORK/bad (made by the caller from
# $fs) read; one line matching WANT (grep -E), exit 2, no map written
topo_case() {
	TRACE_KMEM_SYSFS=$WORK/bad timeout 60 "$TK" topology -o "$WORK/bad.map" 2>"$WORK/topo.err"
	local rc=$?
	check "topology-$1" sh -c "test $rc -eq 2 && test \$(wc -l <'$WORK/topo.err') -eq 1 &&
		grep -qE -- '$2' '$WORK/topo.err' && test ! -e '$WORK/bad.map'"
}
N=devices/system/node
bad_tree() { rm -rf "$WORK/bad" "$WORK/bad.map"; cp -r "$fs" "$WORK/bad"; }
for c in "cpulist-garbage abc" "cpulist-reversed 5-2" "cpulist-above-65535 0-4000000000" \
	"cpulist-trailing-comma 0,1," "cpulist-sign -1"; do
	read -r name list <<<"$c"
	bad_tree
	echo "$list" >"$WORK/bad/$N/node0/cpulist"
	topo_case "$name" "^trace-kmem: $WORK/bad/$N/node0/cpulist: not a list of CPUs 0 to 65535: \"$list\"\$"
done
# a control character in what an error quotes is written as '?'
bad_tree
printf 'a\033[31mb\n' >"$WORK/bad/$N/node0/cpulist"
topo_case cpulist-control-character "^trace-kmem: $WORK/bad/$N/node0/cpulist: not a list of CPUs 0 to 65535: \"a[?][[]31mb\"\$"
bad_tree
echo "0-2" >"$WORK/bad/$N/node0/cpulist"
topo_case cpu-in-two-nodes "^trace-kmem: $WORK/bad/$N/node[01]/cpulist: CPU 2 is in node [01] too\$"
bad_tree
rm "$WORK/bad/$N/node1/cpulist"
topo_case no-cpulist "^trace-kmem: cannot read $WORK/bad/$N/node1/cpulist: No such file or directory\$"
bad_tree
: >"$WORK/bad/$N/node0/cpulist"
: >"$WORK/bad/$N/node1/cpulist"
topo_case no-cpu "^trace-kmem: $WORK/bad/$N: no node lists a CPU\$"
bad_tree
rmdir "$WORK/bad/$N"/node*/memory*
topo_case no-memory-block "^trace-kmem: $WORK/bad/$N: no node lists a memory block\$"
bad_tree
mkdir "$WORK/bad/$N/node1/memory1"
topo_case block-in-two-nodes "^trace-kmem: $WORK/bad/$N: memory block 1 is in node [01] and node [01]\$"
bad_tree
mkdir "$WORK/bad/$N/node1/memory99999999999999999999"
topo_case block-number-huge "^trace-kmem: $WORK/bad/$N/node1/memory99999999999999999999: its number is above [0-9]+\$"
bad_tree
mkdir "$WORK/bad/$N/node99999999999"
topo_case node-number-huge "^trace-kmem: $WORK/bad/$N/node99999999999: its number is above 2147483647\$"
bad_tree
rm -r "$WORK/bad/$N"/node*
topo_case no-node "^trace-kmem: $WORK/bad/$N: no nodeN directories\$"
for v in zz 0 1 ffffffffffffffffff; do
	bad_tree
	echo "$v" >"$WORK/bad/devices/system/memory/block_size_bytes"
	topo_case "block-size-$v" "^trace-kmem: $WORK/bad/devices/system/memory/block_size_bytes: not a block size in hexadecimal bytes, a multiple of the page size \([0-9]+\): \"$v\"\$"
done
# a node of memory alone (an empty cpulist), a CPU named twice in its
# own node's list, a directory named nodeX that is no node: read
bad_tree
echo "0,0,1-1,3" >"$WORK/bad/$N/node0/cpulist"
echo >"$WORK/bad/$N/node1/cpulist"
mkdir "$WORK/bad/$N/node2x"
TRACE_KMEM_SYSFS=$WORK/bad "$TK" topology >"$WORK/bad.map" 2>"$WORK/topo.err"
check topology-memory-only-node-status test $? -eq 0 -a ! -s "$WORK/topo.err"
check topology-memory-only-node-cpus test "$(grep '^cpu' "$WORK/bad.map" | tr '\n' ,)" = \
	"cpu 0 node 0,cpu 1 node 0,cpu 3 node 0,"
# a bad topology file: one rule (kmem-numa.txt).  trace-kmem stops
# before reading, as for a bad option; the plugin, which cannot stop
# trace-cmd, says so and prints the tables without cross-node figures
printf 'cpu 0 node 0\nmem 0x0-0x100 nod 0\n' >"$WORK/bad.topo"
"$TK" stat --numa "$WORK/bad.topo" "$P" >"$WORK/bt.out" 2>"$WORK/bt.err"
check bad-topology-exit-2 test $? -eq 2
check bad-topology-nothing-printed test ! -s "$WORK/bt.out"
check bad-topology-one-line test "$(cat "$WORK/bt.err")" = \
	"trace-kmem: $WORK/bad.topo:2: bad line (expected 'cpu N node M' or 'mem START-END node M')"
report -i "$P" -O kmem:stat -O "kmem:numa=$WORK/bad.topo" >"$WORK/bp.out" 2>"$WORK/bp.err"
check bad-topology-plugin-one-line test "$(cat "$WORK/bp.err")" = \
	"kmem: $WORK/bad.topo:2: bad line (expected 'cpu N node M' or 'mem START-END node M')"
check bad-topology-plugin-tables grep -q "^ SUMMARY (page allocator)" "$WORK/bp.out"
check bad-topology-plugin-no-cross-node sh -c "! grep -q '^ Remote allocations:' '$WORK/bp.out'"
# a directory opens, and its first read fails (EISDIR): said, not "no cpu lines"
"$TK" stat --numa "$WORK/dir.dat" "$P" >"$WORK/bt.out" 2>"$WORK/bt.err"
check bad-topology-directory test $? -eq 2 -a ! -s "$WORK/bt.out" -a \
	"$(cat "$WORK/bt.err")" = "trace-kmem: cannot read topology '$WORK/dir.dat': Is a directory"
# a device (endless) or a FIFO (no writer: it waited for ever) is no
# topology; nor is a file that gives a CPU two nodes (the last one won)
for t in /dev/zero fifo; do
	[ "$t" = fifo ] && { rm -f "$WORK/topo.fifo"; mkfifo "$WORK/topo.fifo"; t=$WORK/topo.fifo; }
	timeout 20 "$TK" stat --numa "$t" "$P" >"$WORK/bt.out" 2>"$WORK/bt.err"
	rc=$?
	check "bad-topology-${t##*/}" test $rc -eq 2 -a ! -s "$WORK/bt.out" -a \
		"$(cat "$WORK/bt.err")" = "trace-kmem: cannot read topology '$t': not a regular file"
done
printf 'cpu 0 node 0\ncpu 0 node 1\nmem 0x0-0x640000 node 0\n' >"$WORK/twice.topo"
"$TK" stat --numa "$WORK/twice.topo" "$P" >"$WORK/bt.out" 2>"$WORK/bt.err"
check bad-topology-cpu-twice test $? -eq 2 -a \
	"$(cat "$WORK/bt.err")" = "trace-kmem: $WORK/twice.topo:2: a CPU given a node twice"
# the topology hint: once, and only when the trace asked for a node (a
# slab allocation with a node; page events have none)
for f in page-stacktrace page-trigger; do
	"$TK" stat "$S/$f.dat" >"$WORK/hint-$f.txt"
done
check topology-hint-not-asked sh -c "! grep -qi 'topology' '$WORK/hint-page-stacktrace.txt'"
check topology-hint-once test "$(grep -ci 'topology' "$WORK/hint-page-trigger.txt")" = 1
# this machine's map loads as --numa
"$TK" topology -o "$WORK/here.txt" && "$TK" stat --numa "$WORK/here.txt" -o "$WORK/numa.txt" "$P" 2>"$WORK/numa.err"
check topology-loads test $? -eq 0 -a ! -s "$WORK/numa.err"
check topology-cross-node-shown grep -q '^ Remote allocations:' "$WORK/numa.txt"

# ---- a figure whose event has no record is "-" (JSON null), with one
# line naming the events; the plugin, which cannot read 2.6.32's
# extfrag print fmt, shows its fragmenting fallbacks as "-" where
# trace-kmem reads pageblock order 10 from it (fallback order 0 < 10).
# Counted by hand: 2 pages allocated, 1 freed (mm_page_free_direct), no
# mm_pagevec_free, zone-lock or drain event; 1 fallback, fragmenting.
cat >"$WORK/nr.spec" <<'EOF2'
0 1000 mm_page_alloc page=0xffffea0000040000 order=0 gfp_flags=0xd0 migratetype=0
0 1010 mm_page_alloc page=0xffffea0000080000 order=0 gfp_flags=0xd0 migratetype=0
0 1020 mm_page_alloc_extfrag page=0xffffea0000080000 alloc_order=0 fallback_order=0 alloc_migratetype=1 fallback_migratetype=0
0 1030 mm_page_free_direct page=0xffffea0000040000 order=0
EOF2
{ cat "$WORK/nr.spec"; echo "0 1040 mm_pagevec_free page=0xffffea0000080000 cold=0"; } >"$WORK/nr-batched.spec"
for v in nr nr-batched; do
	python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/$v.spec" -o "$WORK/$v.dat" \
		--version 6 --formats "$TOP/tests/formats/page-linux-2.6.32-x86_64.txt"
	"$TK" stat --per-process --json="$WORK/$v.json" -o "$WORK/$v.txt" "$WORK/$v.dat"
done
TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -i "$WORK/nr.dat" -O kmem:stat \
	-O kmem:json="$WORK/nr.p.json" >"$WORK/nr.p.txt" 2>/dev/null
check unrecorded-dash python3 - "$WORK" <<'PY'
import json, re, sys
w = sys.argv[1]
t = open(w + "/nr.txt").read()
for label in ("Batched frees", "Allocated under the zone lock",
              "Per-CPU drains"):
    assert re.search(r"^ %s: +-$" % label, t, re.M), (label, t)
assert re.search(r"^ Frees: +1 +\[ +4,096 bytes \]$", t, re.M), t
assert " -: not recorded; enable kmem:mm_page_free_batched,\n" \
       "   kmem:mm_page_alloc_zone_locked and kmem:mm_page_pcpu_drain to " \
       "count these.\n" in t, t
s = json.load(open(w + "/nr.json"))["page"]["summary"]
for k in ("batched_frees", "zone_locked", "pcpu_refills", "pcpu_drains"):
    assert s[k] is None, (k, s)
assert s["frees"] == 1 and s["free_bytes"] == 4096 and s["allocs"] == 2, s
p = json.load(open(w + "/nr.json"))["page"]["per_process"]
assert [(r["zone_locked"], r["batched_frees"], r["pcpu_drains"],
         r["pcpu_refills"], r["fragmenting_fallbacks"]) for r in p] == \
    [(None, None, None, None, 1)], p
fb = json.load(open(w + "/nr.json"))["page"]["extfrag"]
assert [(r["fallbacks"], r["fragmenting"]) for r in fb] == [(1, 1)], fb
# with an mm_pagevec_free record, batched frees are known (1)
t = open(w + "/nr-batched.txt").read()
assert re.search(r"^ Batched frees: +1$", t, re.M), t
s = json.load(open(w + "/nr-batched.json"))["page"]["summary"]
assert s["batched_frees"] == 1 and s["zone_locked"] is None, s
# the plugin: fragmenting unknown, said once under the table
t = open(w + "/nr.p.txt").read()
rows = [l.split() for l in t.splitlines() if l.startswith(" Unmovable ")
        or l.startswith(" Reclaimable ") or l.startswith(" Movable ")]
assert rows and all(r[3] == "-" for r in rows), (rows, t)
assert "did not give this reader the pageblock order" in t, t
fb = json.load(open(w + "/nr.p.json"))["page"]["extfrag"]
assert [(r["fallbacks"], r["fragmenting"]) for r in fb] == [(1, None)], fb
PY

# ---- slab: kmalloc's objects end in kfree, kmem_cache_alloc's in
# kmem_cache_free; allocations of one with no record of its free event
# leave what is live unknown, the missing event named, in the plugin
# too; a merge with such a trace keeps it unknown.  By hand: 2 kmalloc,
# 1 kfree, 2 kmem_cache_alloc, no kmem_cache_free.
cat >"$WORK/nocf.spec" <<'EOF2'
[kallsyms]
ffffffff81300000 T seq_open
ffffffff81400000 T _etext
[buffer]
0 1000 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000100 bytes_req=8 bytes_alloc=8 node=-1
0 1010 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000200 bytes_req=8 bytes_alloc=8 node=-1
0 1020 kfree call_site=0xffffffff81300010 ptr=0xffff888100000100
0 1030 kmem_cache_alloc call_site=0xffffffff81300020 ptr=0xffff888100000300 bytes_req=64 bytes_alloc=64 node=-1 name=dentry
0 1040 kmem_cache_alloc call_site=0xffffffff81300020 ptr=0xffff888100000400 bytes_req=64 bytes_alloc=64 node=-1 name=dentry
EOF2
python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/nocf.spec" -o "$WORK/nocf.dat" \
	--formats "$TOP/tests/formats/linux-6.18-x86_64.txt"
"$TK" stat --slab --all --leaks=0 --json="$WORK/nocf.json" -o "$WORK/nocf.txt" "$WORK/nocf.dat"
TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -i "$WORK/nocf.dat" -O kmem:stat \
	>"$WORK/nocf.p.txt" 2>/dev/null
"$TK" stat --merge --json="$WORK/nocf.m.json" -o "$WORK/nocf.m.txt" "$S/slab-pingpong.dat" "$WORK/nocf.dat"
check unrecorded-cache-free python3 - "$WORK" <<'PY'
import json, re, sys
w = sys.argv[1]
line = " -: not recorded; enable kmem:kmem_cache_free to count it.\n"
for f in ("nocf.txt", "nocf.p.txt", "nocf.m.txt"):
    t = open(w + "/" + f).read()
    assert line in t, (f, t)
    for label in ("Live at end of trace", "Allocated-only"):
        assert re.search(r"^ %s: +-$" % label, t, re.M), (f, label, t)
for f in ("nocf.json", "nocf.m.json"):
    s = json.load(open(w + "/" + f))["slab"]["summary"]
    assert s["allocs"] >= 4 and s["live"] is None and \
        s["frees"] is None, (f, s)
s = json.load(open(w + "/nocf.json"))["slab"]["summary"]
assert (s["allocs"], s["bytes_requested"]) == (4, 144), s
# the tables' figures of frees are unknown too, and leaks
d = json.load(open(w + "/nocf.json"))["slab"]
for table in ("callsites", "caches"):
    assert d[table], (table, d)
    for row in d[table]:
        assert row["frees"] is None and row["live_count"] is None and \
            row["live_bytes"] is None, (table, row)
assert sum(r["hits"] for r in d["callsites"]) == 4, d["callsites"]
assert d["leaks"] is None, d
t = open(w + "/nocf.txt").read()
assert " Leaks (slab allocator): unknown, its frees were not recorded" in t, t
PY
# kmalloc's format made unparsable (a negative field offset, same
# length): libtraceevent hands the plugin none of its 2 records; the
# report says that, not that another plugin printed them
unparsable() {	# unparsable SPEC OUT: the trace, kmalloc's ptr at -6
	python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$1" -o "$2" \
		--version 6 --formats "$TOP/tests/formats/linux-6.18-x86_64.txt"
	python3 - "$2" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
i = d.index(b"ptr;\toffset:16;", d.index(b"name: kmalloc\n"))
open(sys.argv[1], "wb").write(d[:i] + b"ptr;\toffset:-6;" + d[i + 15:])
PY
}
unparsable "$WORK/nocf.spec" "$WORK/np.dat"
TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -i "$WORK/np.dat" -O kmem:stat \
	-O kmem:json="$WORK/np.json" >"$WORK/np.txt" 2>/dev/null
check plugin-unparsed-said grep -qF " WARNING: the format of kmem:kmalloc does not parse" "$WORK/np.txt"
check plugin-unparsed-not-elsewhere sh -c "! grep -q 'another plugin' '$WORK/np.txt'"
check plugin-unparsed-incomplete python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["slab"]["complete"] is False and d["slab"]["summary"]["allocs"] == 2, d["slab"]
' "$WORK/np.json"
# ... and a trace of those records only: the slab section says none,
# and the WARNING follows (it was "no allocator events", nothing more)
grep -v "kfree\|kmem_cache_alloc" "$WORK/nocf.spec" >"$WORK/np1.spec"
unparsable "$WORK/np1.spec" "$WORK/np1.dat"
TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -i "$WORK/np1.dat" -O kmem:stat \
	-O kmem:json="$WORK/np1.json" >"$WORK/np1.txt" 2>/dev/null
check plugin-unparsed-only-said grep -qF " WARNING: the format of kmem:kmalloc does not parse" "$WORK/np1.txt"
check plugin-unparsed-only-incomplete python3 -c '
import json, sys
assert json.load(open(sys.argv[1]))["slab"]["complete"] is False
' "$WORK/np1.json"
"$TK" stat "$WORK/np1.dat" >"$WORK/np1.tk.txt" 2>&1
check stat-undecodable-only-said grep -q " WARNING: 2 records could not be decoded" "$WORK/np1.tk.txt"
# trace-cmd modes that read no record never close the file: on a whole
# file the plugin says nothing at exit (on a damaged one, regress.sh)
for m in --events -E --check-events; do
	TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -O kmem:stat $m "$S/slab-pingpong.dat" \
		>/dev/null 2>"$WORK/mode.err"
	check "plugin-mode$m-quiet" test ! -s "$WORK/mode.err"
done
# a --time window holding kmalloc and kmem_cache_free records but no
# kfree: the trace recorded kfree, the window says nothing of it
"$TK" stat --time 1212.675400,1212.675530 "$S/slab-fork-exec.dat" >"$WORK/win.txt"
check unrecorded-not-by-window sh -c "! grep -q 'not recorded' '$WORK/win.txt' && grep -qE '^ Live at end of trace: +[0-9]' '$WORK/win.txt'"

# ---- tables fit the width: --width=N (and a terminal's width) leave out
# the least important columns and say which; notes go under their line.
# Not a terminal and no --width: today's full layout.
for b in slab-fork-exec page-stacktrace percpu-slab-netns vmalloc-fork page-trigger slab-lost-events; do
	for w in 80 100 132; do
		"$TK" stat --width=$w "$S/$b.dat" >"$WORK/w-$b-$w.txt"
		check "width-$b-$w-fits" test "$(awk -v w=$w 'length($0) > w' "$WORK/w-$b-$w.txt" | wc -l)" -eq 0
	done
	"$TK" stat --width=0 "$S/$b.dat" >"$WORK/w-$b-0.txt"
	check "width-$b-0-all-columns" sh -c "! grep -q 'Left out to fit' '$WORK/w-$b-0.txt'"
	"$TK" stat "$S/$b.dat" >"$WORK/w-$b-pipe.txt"
	check "width-$b-pipe-full-layout" sh -c "! grep -q 'Left out to fit' '$WORK/w-$b-pipe.txt'"
done
check width-said python3 - "$WORK" <<'PY'
import re, sys
w = sys.argv[1]
full = open(w + "/w-slab-fork-exec-0.txt").read()
narrow = open(w + "/w-slab-fork-exec-80.txt").read()
head = lambda t: [l for l in t.splitlines() if l.startswith(" Total alloc/Size")][0]
allc = [c.strip() for c in head(full).split("|")]
kept = [c.strip() for c in head(narrow).split("|")]
m = re.search(r"^ Left out to fit 80 columns:((?:.|\n)*?)\(--width=0 shows them\)", narrow, re.M)
assert m, narrow
gone = [g.strip() for g in m.group(1).replace("\n", " ").split(",")]
# every column is kept or said, none both; the call site is kept
assert sorted(kept + gone) == sorted(allc), (kept, gone, allc)
assert "Callsite" in kept and "Memcg bytes" in gone, (kept, gone)
# the full layout when not a terminal: every column, as --width=0
assert head(open(w + "/w-slab-fork-exec-pipe.txt").read()) == head(full)
PY
# a terminal 80 columns wide: the same fit, without --width
python3 - "$TK" "$S/slab-fork-exec.dat" >"$WORK/tty80.txt" <<'PY'
import fcntl, os, pty, struct, sys, termios
pid, fd = pty.fork()
if pid == 0:    # the size set before trace-kmem asks it
    fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    os.execv(sys.argv[1], [sys.argv[1], "stat", sys.argv[2]])
out = b""
while True:
    try:
        d = os.read(fd, 65536)
    except OSError:
        break
    if not d:
        break
    out += d
os.waitpid(pid, 0)
sys.stdout.write(out.decode().replace("\r\n", "\n"))
PY
check width-terminal-80 test "$(awk 'length($0) > 80' "$WORK/tty80.txt" | wc -l)" -eq 0 -a \
	"$(grep -c '^ Left out to fit 80 columns' "$WORK/tty80.txt")" -ge 1

# --- an environment value that is none of its words: one line, the
# default, the same tables
"$TK" stat -o "$WORK/env-ref.txt" "$TOP/sample-data/slab-pingpong.dat" 2>/dev/null
TRACE_KMEM_THREADS=4 TRACE_KMEM_CONVERT=sometimes TRACE_KMEM_VALIDATE= \
	"$TK" stat -o "$WORK/env.txt" "$TOP/sample-data/slab-pingpong.dat" 2>"$WORK/env.err"
check env-unknown-exit test $? -eq 0
check env-unknown-said test "$(cat "$WORK/env.err")" = "trace-kmem: TRACE_KMEM_THREADS=4: not 1 or 2; the default applies
trace-kmem: TRACE_KMEM_CONVERT=sometimes: not never or always; the default applies"
check env-unknown-same-tables cmp -s "$WORK/env.txt" "$WORK/env-ref.txt"
finish
