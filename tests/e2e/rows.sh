#!/bin/bash
# Rows for a warehouse (--rows, -O kmem:rows=): newline-delimited JSON,
# on every sample one object per row of the JSON report's call-site,
# cache and order x migration type tables, with the row's members as
# the JSON has them; each row names its trace (file; host and kernel
# release as trace-cmd dump --options prints the UNAME option; start and
# end as trace-cmd report -t prints the first and last kmem record), the
# labels given, the damage counts and the schema; several traces, the
# plugin, damaged traces, a failed run.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail rows "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never

# same ROWS JSON [K=V...]: the rows are the JSON's tables' rows, one for
# one, in order, each with the trace's members and the labels K=V
same() {
	python3 - "$@" <<'PY'
import json, sys
from jsondocs import docs as json_docs
rows = [json.loads(l) for l in open(sys.argv[1])]
labels = dict(a.split("=", 1) for a in sys.argv[3:])
trace_keys = {"schema", "file", "host", "kernel_release", "start_ns", "end_ns",
              "labels", "events_lost", "lost_unknown", "undecodable",
              "skipped_records", "damaged_pages", "damaged_chunks",
              "unread_records", "unknown_records", "allocator", "complete",
              "table"}
want = []
for d in json_docs(sys.argv[2]):
    if d["file"] == "(merged)":
        continue
    for a in ("slab", "page", "percpu", "vmalloc"):
        for t in ("callsites", "caches", "order_migratetype"):
            for r in (d.get(a) or {}).get(t) or []:
                want.append((d["file"], a, t, r, d))
assert len(rows) == len(want), (len(rows), len(want))
for got, (f, a, t, r, d) in zip(rows, want):
    assert got["schema"] == "kmem-rows/1", got
    assert (got["file"], got["allocator"], got["table"]) == (f, a, t), (got, f, a, t)
    assert {k: v for k, v in got.items() if k not in trace_keys} == r, (got, r)
    assert got["labels"] == labels, got["labels"]
    assert got["complete"] == d[a]["complete"], got
    for k in ("events_lost", "lost_unknown", "undecodable"):
        assert got[k] == d[k], (k, got[k], d[k])
    for k, v in (d.get("input") or {}).items():
        assert got[k] == v, (k, got[k], v)
PY
}

# machine ROWS TRACE: host and kernel release as trace-cmd dump reads
# the UNAME option ("sysname host release machine"), or null
machine() {
	local u
	u=$(trace-cmd dump --options "$2" 2>/dev/null | sed -n '/Option UNAME/{n;p;}')
	python3 - "$1" "$u" <<'PY'
import json, sys
u = sys.argv[2].split()
want = (u[1], u[2]) if len(u) >= 3 else (None, None)
for l in open(sys.argv[1]):
    r = json.loads(l)
    assert (r["host"], r["kernel_release"]) == want, (r["host"], r["kernel_release"], want)
PY
}

n=0
for f in "$TOP"/sample-data/*.dat; do
	b=$(basename "$f" .dat)
	"$TK" stat --json="$WORK/$b.json" --rows="$WORK/$b.rows" -o /dev/null "$f" 2>/dev/null
	check "rows-$b-same-as-json" same "$WORK/$b.rows" "$WORK/$b.json"
	check "rows-$b-host-release" machine "$WORK/$b.rows" "$f"
	n=$((n + $(wc -l <"$WORK/$b.rows")))
done
check rows-samples-have-rows test "$n" -gt 300

# start and end: the first and last kmem record, as trace-cmd prints them
f=$TOP/sample-data/slab-fork-exec.dat
check rows-start-end python3 - "$WORK/slab-fork-exec.rows" \
	"$(trace-cmd report -t -F kmem "$f" 2>/dev/null | grep -o ' [0-9]*\.[0-9]\{9\}:' | sed -n '1p;$p' | tr -d ' :.' | paste -sd' ')" <<'PY'
import json, sys
first, last = (int(x) for x in sys.argv[2].split())
for l in open(sys.argv[1]):
    r = json.loads(l)
    assert (r["start_ns"], r["end_ns"]) == (first, last), (r["start_ns"], r["end_ns"], first, last)
PY

# labels, several traces, the caches and order tables asked for or not
a=$TOP/sample-data/slab-fork-exec.dat c=$TOP/sample-data/page-extfrag.dat
"$TK" stat --caller --json="$WORK/two.json" --rows="$WORK/two.rows" \
	--pprof-label host=h1,cluster=c1 -o /dev/null "$a" "$c"
# --caller leaves the caches out of the JSON, not out of the rows
check rows-caller-keeps-caches test "$(grep -c '"table":"caches"' "$WORK/two.rows")" -gt 0
"$TK" stat --json="$WORK/two.json" --rows="$WORK/two.rows" \
	--pprof-label host=h1,cluster=c1 -o /dev/null "$a" "$c"
check rows-several-labelled same "$WORK/two.rows" "$WORK/two.json" host=h1 cluster=c1
check rows-several-files test "$(grep -o '"file":"[^"]*"' "$WORK/two.rows" | sort -u | wc -l)" -eq 2

# the plugin: its rows are its JSON's (it knows no host or release)
for b in slab-fork-exec page-stacktrace percpu-netns; do
	TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -O "kmem:rows=$WORK/$b.p.rows" \
		-O "kmem:json=$WORK/$b.p.json" "$TOP/sample-data/$b.dat" >/dev/null 2>&1
	check "rows-plugin-$b" same "$WORK/$b.p.rows" "$WORK/$b.p.json"
	check "rows-plugin-$b-no-host" test "$(grep -c '"host":null' "$WORK/$b.p.rows")" -eq "$(wc -l <"$WORK/$b.p.rows")"
done
# ... two inputs append, as the JSON of several inputs does
TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -O "kmem:rows=$WORK/pp.rows" \
	-i "$a" -i "$c" >/dev/null 2>&1
check rows-plugin-two-inputs test "$(grep -o '"file":"[^"]*"' "$WORK/pp.rows" | sort -u | wc -l)" -eq 2

# damaged traces: their counts in every row
for f in "$TOP"/tests/regress/corpus/page-records-garbage.dat "$TOP"/sample-data/slab-lost-events.dat; do
	b=$(basename "$f" .dat)
	"$TK" stat --json="$WORK/$b.json" --rows="$WORK/$b.rows" -o /dev/null "$f" 2>/dev/null
	check "rows-damaged-$b" same "$WORK/$b.rows" "$WORK/$b.json"
	check "rows-damaged-$b-said" grep -Eq '"(damaged_pages|events_lost)":[1-9]' "$WORK/$b.rows"
done

# a failed run leaves the file that was there, and no temporary file
echo old >"$WORK/keep.rows"
echo 'not a trace' >"$WORK/notrace.dat"
"$TK" stat --rows="$WORK/keep.rows" "$WORK/notrace.dat" >/dev/null 2>&1
check rows-failed-run-exit test $? -ne 0
check rows-failed-run-keeps-old test "$(cat "$WORK/keep.rows")" = old
check rows-no-temporary test "$(ls "$WORK" | grep -c 'keep.rows.')" -eq 0

finish
