#!/bin/bash
# test: slow
# The leak report (--leaks[=AGE], -O kmem:leaks[=AGE]): on every sample
# the JSON "leaks" arrays of trace-kmem stat and of the plugin agree with
# the independent reference (tests/ref/kmem_leaks_ref.py, from trace-cmd
# report -R) at ages 0, 1ms and 1s; a crafted trace is counted by hand;
# the caveat line, the age's parsing and the plugin's flag form are
# checked, and both front ends print the same tables.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail leak-report "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never
REF=$TOP/tests/ref/kmem_leaks_ref.py

n=0
while read -r f; do
	has_instances "$f" && continue	# the reference reads the top buffer
	b=$(basename "$f" .dat)
	for age in 0:0 1ms:1000000 1s:1000000000; do
		"$TK" stat --leaks="${age%%:*}" --json="$WORK/$b.json" "$f" >/dev/null
		check "leaks-ref-$b-${age%%:*}" python3 "$REF" --age "${age#*:}" \
			--check "$WORK/$b.json" "$f"
	done
	report -i "$f" -O kmem:leaks=1ms -O kmem:json="$WORK/$b.p.json" >/dev/null
	check "leaks-ref-plugin-$b" python3 "$REF" --age 1000000 --check "$WORK/$b.p.json" "$f"
	n=$((n + 1))
done < <(san_samples 2)
[ "$n" -gt 0 ] || fail leaks-ref "no sample without instances"

# by hand: live at the end (3 s) are B (site_a, 32 bytes, 1.5 s old),
# C (site_b, 128 bytes, 1 s) and D (site_b, 8 bytes, 0 s); A was freed
printf '%s\n' '[kallsyms]' 'ffffffff81200000 T site_a' 'ffffffff81300000 T site_b' \
	'ffffffff81400000 T _etext' '[buffer]' \
	'0 1.000000000 kmalloc call_site=0xffffffff81200010 ptr=0xffff888100000100 bytes_req=64 bytes_alloc=64 node=-1' \
	'0 1.500000000 kmalloc call_site=0xffffffff81200010 ptr=0xffff888100000200 bytes_req=32 bytes_alloc=32 node=-1' \
	'1 2.000000000 kmalloc call_site=0xffffffff81300020 ptr=0xffff888100000300 bytes_req=100 bytes_alloc=128 node=-1' \
	'1 2.500000000 kfree call_site=0xffffffff81300030 ptr=0xffff888100000100' \
	'0 3.000000000 kmalloc call_site=0xffffffff81300020 ptr=0xffff888100000400 bytes_req=8 bytes_alloc=8 node=-1' \
	>"$WORK/c.spec"
python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/c.spec" -o "$WORK/c.dat" \
	--formats "$TOP/tests/formats/linux-6.18-x86_64.txt" --version 6 >/dev/null 2>"$WORK/c.err" ||
	{ fail leaks-crafted "tdat_writer: $(tail -2 "$WORK/c.err")"; finish; }
for age in 0 1s 1.2s; do
	"$TK" stat --leaks=$age --json="$WORK/c-$age.json" "$WORK/c.dat" >"$WORK/c-$age.txt"
done
check leaks-crafted-by-hand python3 - "$WORK"/c-0.json "$WORK"/c-1s.json "$WORK"/c-1.2s.json <<'PY'
import json, sys
def rows(p):
    s = json.load(open(p))["slab"]
    assert s["leaks_end_ns"] == 3 * 10**9, s["leaks_end_ns"]
    return [(r["callsite"], r["count"], r["bytes"], r["oldest_ns"],
             r["median_age_ns"]) for r in s["leaks"]]
a, b, c = (rows(p) for p in sys.argv[1:])
assert a == [("site_b+0x20", 2, 136, 10**9, 0),
             ("site_a+0x10", 1, 32, 15 * 10**8, 15 * 10**8)], a
assert b == [("site_b+0x20", 1, 128, 10**9, 10**9),
             ("site_a+0x10", 1, 32, 15 * 10**8, 15 * 10**8)], b
assert c == [("site_a+0x10", 1, 32, 15 * 10**8, 15 * 10**8)], c
PY
check leaks-crafted-title grep -q '^ Leaks (slab allocator): live at the end of the trace, allocated 1.00s or more before it$' "$WORK/c-1s.txt"
check leaks-crafted-total grep -q '^ 3 objects, 168 bytes not freed$' "$WORK/c-0.txt"
check leaks-crafted-no-caveat bash -c "! grep -q 'freed unseen' '$WORK/c-0.txt'"
check leaks-only-the-leak-table bash -c "! grep -q 'Ping-pong' '$WORK/c-0.txt'"

# by kernel stack: the same objects as by call site, and, per stack,
# the bytes the folded stacks of what is live give (--folded --live)
for b in slab-stacks page-stacktrace; do
	f=$TOP/sample-data/$b.dat
	"$TK" stat --leaks --json="$WORK/$b.st.json" "$f" >"$WORK/$b.st.txt"
	"$TK" stat --folded="$WORK/$b.folded" --live "$f" >/dev/null
	check "leaks-stacks-$b" python3 - "$WORK/$b.st.json" "$WORK/$b.folded" <<'PY'
import collections, json, sys
d = json.load(open(sys.argv[1]))
sec = d["slab"] if "leak_stacks" in d.get("slab", {}) else d["page"]
st, cs = sec["leak_stacks"], sec["leaks"]
assert st, "no leak_stacks"
assert sum(r["count"] for r in st) == sum(r["count"] for r in cs)
assert sum(r["bytes"] for r in st) == sum(r["bytes"] for r in cs)
mine = collections.Counter()
for r in st:
    names = [r["stack"][0].split("+")[0]] + r["stack"][1:]
    mine[";".join(reversed(names))] += r["bytes"]
folded = collections.Counter()
for line in open(sys.argv[2]):
    k, w = line.rsplit(" ", 1)
    folded[k.split(";", 1)[1]] += int(w)     # without the allocator's root
assert mine == folded, (set(mine.items()) ^ set(folded.items()))
PY
	check "leaks-stacks-$b-text" grep -q '^ The same by kernel stack$' "$WORK/$b.st.txt"
done
"$TK" stat --leaks "$TOP/sample-data/slab-fork-exec.dat" >"$WORK/nostack.txt"
check leaks-no-stacks-no-table bash -c "! grep -q 'by kernel stack' '$WORK/nostack.txt'"
# stacks of their call site alone (slab records of a trace whose stacks
# follow page allocations only): no table by stack repeating it
"$TK" stat --leaks --slab "$TOP/sample-data/page-trigger.dat" >"$WORK/onlysite.txt"
check leaks-stacks-of-one-frame-no-second-table bash -c "! grep -q 'by kernel stack' '$WORK/onlysite.txt'"

# crafted: one kernel stack per call site (seq_open's with callers,
# other's alone), so one table, by stack; then a second stack of
# seq_open+0x10, and both tables.  Live at the end, by hand: 0x200
# (64 bytes, seq_open's stack), 0x300 (8 bytes, other+0x10).
cp "$TOP/tests/tdat/slab-stacks.spec" "$WORK/one.spec"
{ cat "$WORK/one.spec"
  echo '0 1.000007 kmalloc call_site=0xffffffff81200010 ptr=0xffff888100000400 bytes_req=40 bytes_alloc=64 node=-1'
  echo '0 1.000008 kernel_stack size=4 caller=0xffffffff81100010,0xffffffff81100420,0xffffffff81200010,0xffffffff81200810'
} >"$WORK/two.spec"
for v in one two; do
	python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/$v.spec" -o "$WORK/$v.dat" --version 6 \
		--formats "$TOP/tests/formats/linux-6.18-x86_64.txt" "$TOP/tests/formats/page-linux-6.18-x86_64.txt"
	"$TK" stat --leaks "$WORK/$v.dat" >"$WORK/$v.txt"
done
check leaks-one-stack-per-site python3 - "$WORK/one.txt" "$WORK/two.txt" <<'PY'
import sys
def rows(t):
    return [[c.strip() for c in l.split(" | ")] for l in t.splitlines()
            if l.count(" | ") == 4 and not l.startswith(" Objects")]
t = open(sys.argv[1]).read()
assert " (one kernel stack per call site: by stack)\n" in t, t
assert "The same by kernel stack" not in t and "| Callsite" not in t, t
assert [(r[0], r[1], r[4]) for r in rows(t)] == [
    ("1", "64", "seq_open+0x10 <- do_sys_open <- entry_SYSCALL_64"),
    ("1", "8", "other+0x10")], rows(t)
assert " 2 objects, 72 bytes not freed\n" in t, t
t = open(sys.argv[2]).read()
assert "one kernel stack per call site" not in t, t
assert " The same by kernel stack\n" in t and "| Callsite" in t, t
assert [(r[0], r[1], r[4]) for r in rows(t)] == [
    ("2", "128", "seq_open+0x10"), ("1", "8", "other+0x10"),
    ("1", "64", "seq_open+0x10 <- do_sys_open <- entry_SYSCALL_64"),
    ("1", "64", "seq_open+0x10 <- entry_SYSCALL_64"),
    ("1", "8", "other+0x10")], rows(t)
PY

# the caveats of a trace with lost events, in the title
f=$TOP/sample-data/slab-lost-events.dat
"$TK" stat --leaks "$f" >"$WORK/lost.txt"
check leaks-caveat-lost grep -q '^ Some may have been freed unseen: 32,537 events lost and losses of unknown size at 1 place$' "$WORK/lost.txt"
f=$TOP/sample-data/slab-fork-exec.dat
"$TK" stat --leaks "$f" >"$WORK/missed.txt"
check leaks-caveat-missed grep -qE '^ Some may have been freed unseen: [0-9,]+ missed frees$' "$WORK/missed.txt"

# both front ends print the same, the plugin's flag form too
after_title() { sed -n '/^ kmem statistics:/,$p' "$1" | tail -n +2; }
for opt in "" =2ms; do
	"$TK" stat --leaks$opt "$f" >"$WORK/tk.txt"
	report -i "$f" -O kmem:stat -O kmem:leaks$opt >"$WORK/pl.txt"
	check "leaks-identity${opt:+-$opt}" cmp -s <(after_title "$WORK/tk.txt") <(after_title "$WORK/pl.txt")
done
report -i "$f" -O kmem:stat -O kmem:leaks >"$WORK/pl.txt"
check leaks-plugin-flag-form grep -q '^ Leaks (slab allocator): live at the end of the trace$' "$WORK/pl.txt"

# a bad age: one line, exit 1 (trace-kmem); one line and the default
"$TK" stat --leaks=5 "$f" >/dev/null 2>"$WORK/bad.err"
check leaks-bad-age-exit-1 test $? -eq 1
check leaks-bad-age-one-line grep -qx 'trace-kmem: bad --leaks=5 (an age and its unit: 500ms, 2s, 100us, 1500ns; or 0)' "$WORK/bad.err"
report -i "$f" -O kmem:stat -O kmem:leaks=-1s >/dev/null 2>"$WORK/bad.err"
check leaks-plugin-bad-age grep -q '^kmem: bad leaks=-1s .*; using 0$' "$WORK/bad.err"
finish
