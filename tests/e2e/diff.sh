#!/bin/bash
# trace-kmem diff BEFORE AFTER: a trace against itself is all zero, every
# row "same"; two samples give exactly their two stat documents, and a
# delta that is the second minus the first, member by member and row by
# row (matched by call site or cache name; by function with
# --by-function); --per-second and --per-event divide by each trace's
# span and events; the text shows the same numbers; errors are one line.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail diff "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never
S=$TOP/sample-data

# check_delta DIFF.json BEFORE.json AFTER.json [second|event|function]
check_delta() {
	python3 - "$@" <<'PY'
import json, sys
diff, before, after = (json.load(open(p)) for p in sys.argv[1:4])
mode = sys.argv[4] if len(sys.argv) > 4 else ""
assert diff.pop("schema_version") == 1 and list(diff)[0] == "normalised"
assert before.pop("schema_version") == 1 and after.pop("schema_version") == 1
assert diff["before"] == before, "before is not stat's document"
assert diff["after"] == after, "after is not stat's document"
bp = ap = 1
if mode == "second":
    bp, ap = diff["before_span_ns"] / 1e9, diff["after_span_ns"] / 1e9
elif mode == "event":
    bp, ap = diff["before_events"], diff["after_events"]
# the spans and events, from the documents themselves
ev = lambda d: sum(d.get(k, {}).get("events", 0) for k in ("slab", "page", "percpu"))
assert (diff["before_events"], diff["after_events"]) == (ev(before), ev(after))
INTENSIVE = {"order", "size", "align", "lo_ns", "hi_ns", "mean_lifetime_ns",
             "lifetime_p50_ns", "lifetime_p99_ns", "oldest_ns",
             "median_age_ns", "leaks_older_than_ns", "leaks_end_ns"}
KEYS = {"callsites": "callsite", "caches": "name", "leaks": "callsite",
        "anomalies": "callsite"}
bad = []

def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)

def want(key, b, a):
    if b is None and a is None:
        return None
    if (b is None and key in bkeys) or (a is None and key in akeys):
        return None
    b = 0 if b is None else b
    a = 0 if a is None else a
    if isinstance(b, float) or isinstance(a, float) or key in INTENSIVE:
        return a - b
    return a / ap - b / bp

def close(g, w):
    if w is None or g is None:
        return g is w
    return abs(g - w) <= 1e-4 * max(1, abs(w)) + 1e-4

def walk(path, b, a, d):
    global bkeys, akeys
    if isinstance(b, dict) or isinstance(a, dict):
        b, a = b or {}, a or {}
        for k in list(b) + [k for k in a if k not in b]:
            vb, va = b.get(k), a.get(k)
            bkeys, akeys = set(b), set(a)
            if isinstance(vb, (dict, list)) or isinstance(va, (dict, list)):
                if isinstance(vb or va, list):
                    if k in KEYS:
                        rows(path + "." + k, k, vb or [], va or [],
                             d.get(k))
                    continue
                walk(path + "." + k, vb, va, d.get(k, {}))
            elif num(vb) or num(va) or (k in b and vb is None) or \
                    (k in a and va is None):
                w = want(k, vb, va)
                if not close(d.get(k), w):
                    bad.append("%s.%s: %s, want %s" % (path, k, d.get(k), w))

def name(r, key):
    v = r.get(key)
    if mode == "function" and key == "callsite" and v:
        v = v.split("+")[0]
    return v

def rows(path, arr, b, a, d):
    key = KEYS[arr]
    if d is None:
        bad.append(path + ": no delta array")
        return
    got = {r[key]: r for r in d}
    if len(got) != len(d):
        bad.append(path + ": rows named twice")
    names = {name(r, key) for r in b} | {name(r, key) for r in a}
    if set(got) != names:
        bad.append("%s: rows %s, want %s" % (path, sorted(set(got) ^ names)[:5], "the union"))
        return
    for n in names:
        rb = [r for r in b if name(r, key) == n]
        ra = [r for r in a if name(r, key) == n]
        g = got[n]
        st = "new" if not rb else "gone" if not ra else None
        if st and g["status"] != st:
            bad.append("%s[%s]: status %s, want %s" % (path, n, g["status"], st))
        for m in set().union(*(r.keys() for r in rb + ra)):
            vals = [r.get(m) for r in rb + ra]
            if m == key or not any(num(v) for v in vals):
                continue
            if any(num(r.get(m)) and m in INTENSIVE or isinstance(r.get(m), float)
                   for r in rb + ra) and (len(rb) > 1 or len(ra) > 1):
                w = None
            elif any(r.get(m) is None and m in r for r in rb + ra):
                w = None
            else:
                sb = sum(r.get(m) or 0 for r in rb)
                sa = sum(r.get(m) or 0 for r in ra)
                intensive = m in INTENSIVE or any(isinstance(r.get(m), float)
                                                  for r in rb + ra)
                w = sa - sb if intensive else sa / ap - sb / bp
            if not close(g.get(m), w):
                bad.append("%s[%s].%s: %s, want %s" % (path, n, m, g.get(m), w))

bkeys = akeys = set()
walk("delta", before, after, diff["delta"])
for line in bad[:20]:
    print(line)
sys.exit(1 if bad else 0)
PY
}

# a trace against itself: every number zero, every row "same"
for b in slab-fork-exec page-stacktrace percpu-slab-netns; do
	"$TK" diff --json="$WORK/self.json" "$S/$b.dat" "$S/$b.dat" >"$WORK/self.txt"
	check "diff-self-$b-zero" python3 - "$WORK/self.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["delta"]
bad = []
def walk(p, v):
    if isinstance(v, dict):
        if "status" in v and v["status"] != "same":
            bad.append(p + ": " + v["status"])
        for k, x in v.items():
            if "status" in v and k in ("order", "size", "align"):
                continue        # a row's name, not a delta
            walk(p + "." + k, x)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            walk("%s[%d]" % (p, i), x)
    elif isinstance(v, (int, float)) and not isinstance(v, bool) and v != 0:
        bad.append("%s = %s" % (p, v))
walk("delta", d)
assert d, "empty delta"
assert not bad, bad[:5]
PY
	check "diff-self-$b-text-no-change" bash -c "! grep -qE '\| (new|gone|changed) ' '$WORK/self.txt'"
done

# two samples: the stat documents, and their difference
pair() { # NAME BEFORE AFTER [diff options] [mode]
	local n=$1 b=$2 a=$3 mode=${5:-}
	"$TK" diff $4 --json="$WORK/$n.json" "$S/$b.dat" "$S/$a.dat" >"$WORK/$n.txt"
	check "diff-$n-exit-0" test $? -eq 0
	"$TK" stat --json="$WORK/$n.b.json" "$S/$b.dat" >/dev/null
	"$TK" stat --json="$WORK/$n.a.json" "$S/$a.dat" >/dev/null
	check "diff-$n-delta-is-after-minus-before" \
		check_delta "$WORK/$n.json" "$WORK/$n.b.json" "$WORK/$n.a.json" $mode
}
pair slab slab-fork-exec slab-stacks ""
pair mixed slab-pingpong percpu-slab-netns ""
pair page page-stacktrace page-trigger ""
pair per-second slab-fork-exec slab-fs-walk --per-second second
pair per-event slab-fs-walk slab-fork-exec --per-event event
pair by-function slab-fork-exec slab-stacks --by-function function
check diff-new-and-gone python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["delta"]
st = {r["status"] for r in d["slab"]["callsites"]}
assert {"new", "gone", "changed"} <= st, st
assert "percpu" in d, "per-CPU section only after: delta is its numbers"
' "$WORK/mixed.json"
check diff-per-second-spans python3 - "$WORK/per-second.json" "$S/slab-fork-exec.dat" "$S/slab-fs-walk.dat" <<'PY'
import json, os, re, subprocess, sys
sys.path.insert(0, os.environ["TOP"] + "/tests/ref")
import listing     # trace-cmd 3.1's and 3.3's listings
d = json.load(open(sys.argv[1]))
ours = re.compile(r"^(kmalloc|kmalloc_node|kfree|kmem_cache_alloc|"
                  r"kmem_cache_alloc_node|kmem_cache_free|mm_page_\w+|"
                  r"percpu_\w+)$")
for f, key in zip(sys.argv[2:], ("before_span_ns", "after_span_ns")):
    ts = [r[1].ts for r in listing.records(subprocess.run(
              ["trace-cmd", "report", "-N", "-t", f], capture_output=True,
              text=True).stdout) if r[0] == "ev" and ours.match(r[1].event)]
    assert d[key] == max(ts) - min(ts), (key, d[key], max(ts) - min(ts))
PY
check diff-per-second-said grep -q '^ Counts and bytes per second of trace' "$WORK/per-second.txt"
check diff-by-function-said grep -q '^ Call sites matched by function' "$WORK/by-function.txt"
check diff-by-function-names python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["delta"]
assert all("+0x" not in r["callsite"] for r in d["slab"]["callsites"])
' "$WORK/by-function.json"

# the text's first call-site row is the JSON's first row
check diff-text-first-row python3 - "$WORK/slab.json" "$WORK/slab.txt" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["delta"]["slab"]["callsites"][0]
t = open(sys.argv[2]).read().split(" Call sites, by the size")[1]
row = [l for l in t.splitlines() if l.count("|") == 7][1]
cells = [c.strip() for c in row.split("|")]
def n(s):
    return int(s.replace(",", "").replace("+", ""))
assert n(cells[0]) == r["bytes_alloc"], (cells, r)
assert n(cells[3]) == r["hits"], (cells, r)
assert cells[6] == r["status"] and cells[7] == r["callsite"], (cells, r)
PY
check diff-summary-side-by-side grep -qE '^ allocs +\| +25,960 \| +8,044 \| +-17,916$' "$WORK/slab.txt"

# errors: one line and the usage status
"$TK" diff "$S/slab-fork-exec.dat" >/dev/null 2>"$WORK/e1"
check diff-one-file-exit-1 test $? -eq 1
check diff-one-file-one-line grep -qx 'trace-kmem: diff compares two files, BEFORE and AFTER (1 given)' "$WORK/e1"
"$TK" diff --per-second --per-event "$S/slab-fork-exec.dat" "$S/slab-fork-exec.dat" >/dev/null 2>"$WORK/e2"
check diff-two-norms-exit-1 test $? -eq 1
check diff-two-norms-said grep -q 'exclude each other' "$WORK/e2"
"$TK" diff --folded "$S/slab-fork-exec.dat" "$S/slab-fork-exec.dat" >/dev/null 2>"$WORK/e3"
check diff-folded-exit-1 test $? -eq 1
"$TK" diff "$S/slab-fork-exec.dat" "$WORK/nosuch.dat" >/dev/null 2>"$WORK/e4"
check diff-missing-file-exit-2 test $? -eq 2
check diff-missing-file-one-line test "$(wc -l <"$WORK/e4")" -eq 1

# two traces without an allocator event: said, not a bare title
printf '%s\n' '[kallsyms]' 'ffffffff81300000 T seq_open' '[buffer]' >"$WORK/none.spec"
python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/none.spec" -o "$WORK/none.dat" \
	--formats "$TOP/tests/formats/linux-6.18-x86_64.txt"
"$TK" diff "$WORK/none.dat" "$WORK/none.dat" >"$WORK/none.txt" 2>"$WORK/e5"
check diff-nothing-exit-0 test $? -eq 0
check diff-nothing-said grep -qx ' No allocator events in either trace: nothing to compare.' "$WORK/none.txt"
check diff-nothing-quiet test ! -s "$WORK/e5"
"$TK" diff --time=0,0.000000001 "$S/slab-fork-exec.dat" "$S/slab-fork-exec.dat" >"$WORK/none2.txt"
check diff-nothing-filtered grep -qx ' No allocator records matched the filters in either trace: nothing to compare.' "$WORK/none2.txt"

# a string member ("cache": a call site's one cache, null for several)
# is left out of the delta, whatever its value in the rows
"$TK" diff --json="$WORK/strs.json" -o /dev/null "$S/slab-fork-exec.dat" "$S/slab-fs-walk.dat"
check diff-delta-no-strings python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["delta"]["slab"]["callsites"]
sides = [r for s in ("before", "after") for r in d[s]["slab"]["callsites"]]
assert any(isinstance(r.get("cache"), str) for r in sides), "no string cache in the rows"
assert any(r.get("cache") is None for r in sides), "no null cache in the rows"
bad = [r for r in rows if "cache" in r]
assert not bad, bad[:2]
' "$WORK/strs.json"
finish
