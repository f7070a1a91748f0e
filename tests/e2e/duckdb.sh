#!/bin/bash
# DuckDB, a warehouse as the rows are meant for: @duckdb/node-api (npm,
# run with Debian's nodejs; installed here into the build directory, as
# other test dependencies are installed by their setup) loads the --rows
# files of several traces with read_json_auto, and GROUP BY callsite, per
# trace and across the traces, gives the sums that a short script gets
# from the JSON reports of the same traces; across the traces, the rows
# of trace-kmem stat --merge of them.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail duckdb "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "SKIP duckdb: no node or npm (Debian's nodejs and npm: make check-deps)"
	finish
fi
NPM=$(dirname "$PLUGIN_DIR")/npm
DUCKDB_API=@duckdb/node-api@1.5.6-r.1
if [ ! -d "$NPM/node_modules/@duckdb/node-api" ]; then
	mkdir -p "$NPM"
	if ! npm install --prefix "$NPM" --no-audit --no-fund "$DUCKDB_API" >"$WORK/npm.log" 2>&1; then
		echo "SKIP duckdb: npm install $DUCKDB_API failed: $(tail -n 1 "$WORK/npm.log")"
		finish
	fi
fi
cp "$TOP/tests/lib/duckdb_rows.mjs" "$NPM/"

mkdir -p "$WORK/rows" "$WORK/merged"
set -- slab-fork-exec slab-pingpong page-extfrag percpu-netns vmalloc-fork
for b; do
	"$TK" stat --json="$WORK/$b.json" --rows="$WORK/rows/$b.rows" -o /dev/null \
		"$TOP/sample-data/$b.dat" 2>/dev/null
done
"$TK" stat --merge --json="$WORK/merged/all.json" -o /dev/null \
	$(for b; do echo "$TOP/sample-data/$b.dat"; done) 2>/dev/null
node "$NPM/duckdb_rows.mjs" "$WORK/rows/*.rows" >"$WORK/duck.json" 2>"$WORK/duck.err"
check duckdb-query test $? -eq 0 -a -s "$WORK/duck.json"
check duckdb-equals-json python3 - "$WORK/duck.json" "$WORK"/*.json <<'PY'
import collections, json, sys
duck = json.load(open(sys.argv[1]))
per, across = collections.Counter(), collections.Counter()
n = 0
for path in sys.argv[2:]:
    if path == sys.argv[1]:
        continue
    d = json.load(open(path))
    for a in ("slab", "page", "percpu", "vmalloc"):
        for r in (d.get(a) or {}).get("callsites") or []:
            v = (r["hits"], r.get("bytes_alloc", r.get("bytes")), r["live_bytes"] or 0)
            for i, x in enumerate(v):
                per[(d["file"], a, r["callsite"], i)] += x or 0
                across[(a, r["callsite"], i)] += x or 0
            n += 1
assert n > 100, n
def of(rows, key):
    c = collections.Counter()
    for r in rows:
        for i, k in enumerate(("hits", "bytes", "live_bytes")):
            c[key(r) + (i,)] += int(r[k] or 0)
    return c
got_per = of(duck["per_trace"], lambda r: (r["file"], r["allocator"], r["callsite"]))
got_across = of(duck["across"], lambda r: (r["allocator"], r["callsite"]))
assert +got_per == +per, (list((got_per - per).items())[:3], list((per - got_per).items())[:3])
assert +got_across == +across, (list((got_across - across).items())[:3],)
# the traces share call sites: the second grouping is not the first
assert len(duck["across"]) < len(duck["per_trace"]), (len(duck["across"]), len(duck["per_trace"]))
PY
# trace-kmem stat --merge of the same traces: its call-site rows are
# DuckDB's groups across the traces, row by row (a page row is keyed by
# order, migration type and GFP flags too: its groups are their sums)
check duckdb-equals-merge python3 - "$WORK/duck.json" "$WORK/merged/all.json" <<'PY'
import collections, json, sys
duck = json.load(open(sys.argv[1]))
merged = json.load(open(sys.argv[2]))
want = {}
for r in duck["across"]:
    want[(r["allocator"], r["callsite"])] = tuple(int(r[k] or 0) for k in ("hits", "bytes", "live_bytes"))
got = collections.defaultdict(lambda: [0, 0, 0])
n = 0
for a in ("slab", "page", "percpu", "vmalloc"):
    rows = (merged.get(a) or {}).get("callsites") or []
    if a != "page":
        assert len({r["callsite"] for r in rows}) == len(rows), a
    for r in rows:
        g = got[(a, r["callsite"])]
        for i, v in enumerate((r["hits"], r.get("bytes_alloc", r.get("bytes")), r["live_bytes"])):
            g[i] += v or 0
        n += 1
got = {k: tuple(v) for k, v in got.items()}
assert n > 50, n
assert got == want, (sorted(set(got.items()) - set(want.items()))[:3],
                     sorted(set(want.items()) - set(got.items()))[:3])
PY
finish
