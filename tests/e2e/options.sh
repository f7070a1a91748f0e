#!/bin/bash
# -O kmem: options: bad values give one line and the default, the
# listing is untouched; table selection, lines=, raw-ip, json/output.
. "$(dirname "$0")/../lib/common.sh"

f=$(smallest_sample)
[ -n "$f" ] || { fail options "no sample-data/*.dat"; finish; }
trace-cmd report -i "$f" >"$WORK/stock" 2>/dev/null
L=$(wc -l <"$WORK/stock")
tables() { tail -n +"$((L + 1))" "$1"; }

report -i "$f" -O kmem:stat -O kmem:json="$WORK/def.json" >"$WORK/def" 2>"$WORK/def.err"

# unknown sort key
report -i "$f" -O kmem:stat -O kmem:sort=bytes,bogus \
	-O kmem:json="$WORK/bad.json" >"$WORK/bad" 2>"$WORK/bad.err"
rc=$?
check bad-sort-exit-0 test "$rc" -eq 0
check bad-sort-one-line test "$(wc -l <"$WORK/bad.err")" -eq 1
check bad-sort-names-choices grep -q "bogus.*valid: ptr, callsite, bytes, hit, pingpong, frag, live, peak, page, order, migtype, gfp" "$WORK/bad.err"
check bad-sort-listing cmp -s "$WORK/stock" <(head -n "$L" "$WORK/bad")
check bad-sort-default-order cmp -s "$WORK/def.json" "$WORK/bad.json"

# bad lines=
report -i "$f" -O kmem:stat -O kmem:lines=abc >"$WORK/badl" 2>"$WORK/badl.err"
check bad-lines-one-line test "$(wc -l <"$WORK/badl.err")" -eq 1
check bad-lines-message grep -q "bad lines=abc (a number of rows, 0 for all); using 10" "$WORK/badl.err"
check bad-lines-default-tables cmp -s "$WORK/def" "$WORK/badl"

# json= with no path
report -i "$f" -O kmem:stat -O kmem:json= >"$WORK/je" 2>"$WORK/je.err"
check empty-json-one-line test "$(wc -l <"$WORK/je.err")" -eq 1
check empty-json-message grep -q "kmem: json needs a value (json=PATH)" "$WORK/je.err"
check empty-json-tables-default cmp -s "$WORK/def" "$WORK/je"

# what libtraceevent drops without a word: an unknown name, a value for a
# flag, no value where one is needed; said once a run, the listing intact
trace-cmd report -i "$f" -i "$f" >"$WORK/stock2" 2>/dev/null
L2=$(wc -l <"$WORK/stock2")
for c in "bogus|-O kmem:bogus: no such option (trace-cmd list -O lists them)" \
	"stat=yes|-O kmem:stat=yes: stat takes no value (-O kmem:stat, or =1 and =0)" \
	"json|-O kmem:json: json needs a value (-O kmem:json=PATH)" \
	"lines|-O kmem:lines: lines needs a value (-O kmem:lines=N)"; do
	o=${c%%|*} msg=${c#*|}
	report -i "$f" -i "$f" -O kmem:stat -O "kmem:$o" >"$WORK/u" 2>"$WORK/u.err"
	check "silent-option-$o-said-once" test "$(grep -c -F -- "kmem: $msg" "$WORK/u.err")" -eq 1
	check "silent-option-$o-one-line" test "$(wc -l <"$WORK/u.err")" -eq 1
	check "silent-option-$o-listing" cmp -s "$WORK/stock2" <(head -n "$L2" "$WORK/u")
done
report -i "$f" -O kmem:stat=1 -Okmem:raw-ip=true -O kmem:lines=3 -O kmem:json=/dev/null \
	-O stat >/dev/null 2>"$WORK/good.err"
check good-options-no-message test ! -s "$WORK/good.err"

# lines=3: three rows and a "..." row in the callsite table
report -i "$f" -O kmem:stat -O kmem:caller -O kmem:lines=3 >"$WORK/l3" 2>&1
tables "$WORK/l3" >"$WORK/l3.t"
rows=$(awk '/^ Total alloc\/Size/{h++; next} h==1 && /^---/{r++; next} h==1 && r==1 && /^ /{n++} END{print n}' "$WORK/l3.t")
check lines-3-rows test "$rows" = 4
check lines-3-cut-row grep -q '^ \.\.\. *| \.\.\.' "$WORK/l3.t"
check caller-only-no-alloc-table bash -c "! grep -q 'Alloc ptr' '$WORK/l3.t'"
check caller-only-no-cache-table bash -c "! grep -q '| Cache\$' '$WORK/l3.t'"

# default: what fits a screen, the summary and the top 10 call sites;
# all: every table; caller, alloc, cache select exactly those
tables "$WORK/def" >"$WORK/def.t"
check default-caller-table grep -q '| Callsite$' "$WORK/def.t"
check default-no-alloc-table bash -c "! grep -q '| Alloc ptr' '$WORK/def.t'"
check default-no-cache-table bash -c "! grep -q '| Cache\$' '$WORK/def.t'"
check default-summary grep -q '^ SUMMARY (slab allocator)' "$WORK/def.t"
check default-10-rows test "$(awk '/^ Total alloc\/Size/{h++; next} h==1 && /^---/{r++; next} h==1 && r==1 && /^ /{n++} END{print n}' "$WORK/def.t")" -le 11
report -i "$f" -O kmem:stat -O kmem:all >"$WORK/all" 2>&1
tables "$WORK/all" >"$WORK/all.t"
check all-caller-table grep -q '| Callsite$' "$WORK/all.t"
check all-alloc-table grep -q '| Alloc ptr' "$WORK/all.t"
check all-cache-table grep -q '| Cache$' "$WORK/all.t"
report -i "$f" -O kmem:stat -O kmem:cache >"$WORK/ca" 2>&1
tables "$WORK/ca" >"$WORK/ca.t"
check cache-selects-it bash -c "grep -q '| Cache\$' '$WORK/ca.t' && ! grep -q '| Callsite\$' '$WORK/ca.t'"

# raw-ip: call sites as addresses
report -i "$f" -O kmem:stat -O kmem:caller -O kmem:raw-ip >"$WORK/raw" 2>&1
tables "$WORK/raw" | awk -F'|' '/^ +[0-9].*\| 0x/{print $NF}' >"$WORK/raw.cs"
check raw-ip-addresses test -s "$WORK/raw.cs"
check raw-ip-no-symbols bash -c "! grep -v '^ 0x[0-9a-f]*\$' '$WORK/raw.cs'"
check symbols-by-default grep -qE '\| [a-z_][a-z0-9_.]*\+0x[0-9a-f]+$' "$WORK/def.t"

# json=- replaces the tables on stdout; output= takes them elsewhere
report -i "$f" -O kmem:stat -O kmem:json=- >"$WORK/js" 2>&1
check json-stdout-parses python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().split("\n",int(sys.argv[2]))[-1]); assert "slab" in d' "$WORK/js" "$L"
check json-stdout-no-tables bash -c "! grep -q 'SUMMARY (slab' '$WORK/js'"
report -i "$f" -O kmem:stat -O kmem:output="$WORK/tables.txt" >"$WORK/o" 2>&1
check output-file-tables grep -q 'SUMMARY (slab allocator)' "$WORK/tables.txt"
check output-stdout-listing-only cmp -s "$WORK/stock" "$WORK/o"
report -i "$f" -O kmem:stat -O kmem:output=/nonexistent/dir/t >"$WORK/bo" 2>"$WORK/bo.err"
rc=$?
check bad-output-exit-0 test "$rc" -eq 0
check bad-output-one-line test "$(wc -l <"$WORK/bo.err")" -eq 1
check bad-output-message grep -q "kmem: cannot write output '/nonexistent/dir/t': No such file or directory" "$WORK/bo.err"

# without kmem:stat no tables are added; json= alone writes the JSON
report -i "$f" -O kmem:caller >"$WORK/ns" 2>&1
check no-stat-no-tables cmp -s "$WORK/stock" "$WORK/ns"
report -i "$f" -O kmem:json="$WORK/nostat.json" >"$WORK/nsj" 2>&1
check json-alone-no-tables cmp -s "$WORK/stock" "$WORK/nsj"
check json-alone-same-json cmp -s "$WORK/def.json" "$WORK/nostat.json"

# trace-cmd list -O lists every option with a description
TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd list -O >"$WORK/list" 2>&1
for o in stat slab caller alloc cache page live per-process merge-pids numa skip sort lines raw-ip json output; do
	check "list-O-$o" python3 - "$WORK/list" "$o" <<'PY'
import sys
txt = open(sys.argv[1]).read()
want = sys.argv[2]
for b in txt.replace("============", "------------").split("------------"):
    kv = {}
    for l in b.strip().splitlines():
        k, _, v = l.strip().partition(":")
        kv[k] = v.strip()
    if kv.get("plugin") == "kmem" and kv.get("option") == want:
        sys.exit(0 if kv.get("desc") else 1)
sys.exit(1)
PY
done
finish
