#!/bin/bash
# trace-cmd report -i a.dat -i b.dat: each file gets its own tables,
# labelled with the file, and its own JSON document.
. "$(dirname "$0")/../lib/common.sh"

f=$(smallest_sample)
[ -n "$f" ] || { fail multifile "no sample-data/*.dat"; finish; }
cp "$f" "$WORK/a.dat"
# the second file: a different sample if there is one, else a copy
g=$(samples | sed -n 2p)
cp "${g:-$f}" "$WORK/b.dat"
cd "$WORK" || exit 1
report -i a.dat -O kmem:stat -O kmem:json=a.json >/dev/null 2>&1
report -i b.dat -O kmem:stat -O kmem:json=b.json >/dev/null 2>&1
report -i a.dat -i b.dat -O kmem:stat -O kmem:json=ab.json >ab.out 2>ab.err
check multi-two-titles test "$(grep -c '^ kmem statistics: ' ab.out)" -eq 2
check multi-title-order test "$(grep '^ kmem statistics: ' ab.out | tr '\n' ' ')" = " kmem statistics: a.dat  kmem statistics: b.dat "
check multi-quiet-stderr test ! -s ab.err
check multi-json-per-file python3 - <<'PY'
import json
from jsondocs import docs as json_docs
docs = json_docs("ab.json")
a, b = json.load(open("a.json")), json.load(open("b.json"))
assert [d["file"] for d in docs] == ["a.dat", "b.dat"], [d["file"] for d in docs]
# each file's numbers are its own, as if reported alone
secs = ("slab", "page", "percpu", "vmalloc")
assert any(k in a for k in secs) and any(k in b for k in secs), (a, b)
for k in secs:
    assert docs[0].get(k) == a.get(k) and docs[1].get(k) == b.get(k), k
PY
finish
