#!/bin/bash
# CSV output (--csv=FILE, -O kmem:csv=FILE): on every sample and several
# option sets, the file is RFC 4180 (CRLF line ends, read back by
# python's csv module), each table is a header row and then its rows,
# and every row of every table holds the numbers of the JSON document's
# row at the same place (the table's JSON path, the row's index): every
# member, with null as an empty field.  The tables are those the JSON
# holds (every array of row objects); the plugin writes the same file;
# several inputs give each input's tables; a field with a comma or a
# quote is quoted.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail csv "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never

# same JSON CSV: the CSV's tables are the JSON's, row for row
same() {
	python3 - "$@" <<'PY'
import csv, json, sys
from jsondocs import docs as json_docs
docs = json_docs(sys.argv[1])
raw = open(sys.argv[2], "rb").read()
assert raw == b"" or raw.endswith(b"\r\n"), "no CRLF at the end"
assert b"\n" not in raw.replace(b"\r\n", b""), "a line end other than CRLF"
rows = list(csv.reader(open(sys.argv[2], newline=""), strict=True))

# the JSON's tables: arrays of objects (not the per-row histograms)
def tables(node, path, out):
    if isinstance(node, dict):
        for k, v in node.items():
            tables(v, path + [k], out)
    elif isinstance(node, list) and path and path[-1] not in ("lifetime_hist", "stack"):
        if all(isinstance(x, dict) for x in node) and path[-1] not in ("inputs",):
            out.append((".".join(path), node))

def cell(v):
    if v is None:
        return ""
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, float):
        return "%.4f" % v
    return str(v)

# the CSV's tables, in order: (file, table) -> rows as dicts
got, head, order = {}, None, []
for r in rows:
    if r[:2] == ["table", "file"]:
        head = r
        continue
    assert head is not None, "a row before any header"
    assert len(r) == len(head), (r, head)
    key = (r[1], r[0])
    if key not in got:
        got[key] = []
        order.append(key)
    got[key].append(dict(zip(head, r)))
seen, numbers = set(), 0
for d in docs:
    want = []
    tables(d, [], want)
    for path, arr in want:
        key = (d["file"], path)
        have = got.get(key, [])
        if arr and key not in got and sys.argv[3] == "strict":
            raise AssertionError("table %s of %s not in the CSV" % (path, d["file"]))
        if key not in got:
            continue
        seen.add(key)
        assert len(have) == len(arr), (path, len(have), len(arr))
        for n, (c, j) in enumerate(zip(have, arr)):
            names = set()
            for k, v in j.items():
                if k in ("lifetime_hist", "lifetime_p50_ns", "lifetime_p99_ns"):
                    continue
                if k == "stack":
                    names.add(k)
                    assert c[k].startswith(v[0].split("+")[0]) or v[0].startswith("0x"), (path, n, c[k], v)
                    continue
                members = v.items() if isinstance(v, dict) else [(None, v)]
                for kk, vv in members:
                    name = k if kk is None else k + "." + kk
                    assert name in c, (path, n, name)
                    assert c[name] == cell(vv), (path, n, name, c[name], vv)
                    names.add(name)
                    numbers += isinstance(vv, (int, float)) and not isinstance(vv, bool)
            extra = set(c) - names - {"table", "file"}
            assert not extra, (path, extra)
missing = [k for k in order if k not in seen]
assert not missing, ("CSV tables not in the JSON", missing)
print("%d tables, %d numbers" % (len(seen), numbers))
PY
}

sets=("" "--all --leaks --lifetimes" "--page --per-process --live --all" "--leaks=1ms --sort=callsite" "--percpu --sort=peak,hit" "--anomalies --cache")
for f in $(samples); do
	b=$(basename "$f" .dat)
	i=0
	for s in "${sets[@]}"; do
		# shellcheck disable=SC2086
		"$TK" stat $s --json="$WORK/$b.$i.json" --csv="$WORK/$b.$i.csv" -o /dev/null "$f" 2>/dev/null
		check "csv-$b-$i-same-as-json" same "$WORK/$b.$i.json" "$WORK/$b.$i.csv" strict
		i=$((i + 1))
	done
done

# --csv=- replaces the tables on stdout, as --json=- does
f=$TOP/sample-data/percpu-netns.dat
"$TK" stat --csv=- --all --leaks "$f" >"$WORK/stdout.csv" 2>/dev/null
"$TK" stat --csv="$WORK/file.csv" --all --leaks -o /dev/null "$f" 2>/dev/null
check csv-stdout cmp -s "$WORK/stdout.csv" "$WORK/file.csv"

# the plugin writes the same file
report -i "$f" -O kmem:csv="$WORK/plugin.csv" -O kmem:all -O kmem:leaks >/dev/null 2>&1
check csv-plugin-same cmp -s "$WORK/plugin.csv" "$WORK/file.csv"

# several inputs: each one's tables, then the merged summary's
"$TK" stat --csv="$WORK/multi.csv" --json="$WORK/multi.json" --leaks -o /dev/null \
	-i "$f" -i "$TOP/sample-data/slab-pingpong.dat" 2>/dev/null
check csv-inputs same "$WORK/multi.json" "$WORK/multi.csv" strict
check csv-inputs-both python3 -c '
import csv, sys
files = {r[1] for r in csv.reader(open(sys.argv[1], newline="")) if r[0] != "table"}
assert len(files) == 2, files
' "$WORK/multi.csv"

# quoting: a call site with a comma and a quote (raw names from --skip
# are not needed: the file name column carries them)
mkdir -p "$WORK/q"
cp "$f" "$WORK/q/a,\"b\".dat"
"$TK" stat --csv="$WORK/q.csv" --leaks -o /dev/null "$WORK/q/a,\"b\".dat" 2>/dev/null
check csv-quoted python3 -c '
import csv, sys
raw = open(sys.argv[1], newline="").read()
assert "\"" + sys.argv[2].replace("\"", "\"\"") + "\"" in raw
rows = [r for r in csv.reader(open(sys.argv[1], newline=""), strict=True) if r[0] != "table"]
assert rows and all(r[1] == sys.argv[2] for r in rows), rows[:1]
' "$WORK/q.csv" "$WORK/q/a,\"b\".dat"
finish
