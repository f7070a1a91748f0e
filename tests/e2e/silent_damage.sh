#!/bin/bash
# Damage that libtracecmd reads past without a word (issue 20, point 5):
# a zstd chunk that does not inflate (libtracecmd drops it and the rest
# of its CPU), a page whose commit size is 0xffffff (it stops reading the
# CPU there), and a page of garbage records (it hands them over as
# events).  tests/regress/craft.py makes the files; tdat_writer.py's
# ground truth says how many records each page of CPU 0 holds, which
# gives what the native reader must count.  --reader=libtracecmd and the
# plugin inside trace-cmd report must report the same damaged pages and
# chunks, and account for every record the native reader reads: their
# events plus the records they say libtracecmd left unread equal the
# native count.  With trace-cmd's --cpu filter the plugin must not call
# the other CPU's records unread.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail silent_damage "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never

python3 - "$TOP" "$WORK" <<'PY' || fail silent-damage-craft "craft.py failed"
import json, os, sys
top, work = sys.argv[1:3]
sys.path.insert(0, os.path.join(top, "tests", "regress"))
sys.path.insert(0, os.path.join(top, "tests", "lib"))
import craft
for name, data in craft.silent_damage(work).items():
    open(os.path.join(work, name), "wb").write(data)
craft.write(os.path.join(work, "truth.dat"), craft.spec(n=600), craft.FORMATS,
            "--version", "6", "--truth", os.path.join(work, "truth.json"))
t = json.load(open(os.path.join(work, "truth.json")))
recs = t["buffers"][0]["records"]
pages = []			# CPU 0's pages: a new one at each page_ts
for r in recs:
    if r["cpu"] == 0:
        if "page_ts" in r["layout"] or not pages:
            pages.append(0)
        pages[-1] += 1
json.dump({"total": len(recs), "cpu0_pages": pages},
          open(os.path.join(work, "expect.json"), "w"))
print("truth: %d records, CPU 0's pages hold %s" % (len(recs), pages))
PY

# stat READER FILE OUT: trace-kmem's JSON
stat() {
	"$TK" stat --reader="$1" --json="$3" "$2" >/dev/null 2>"$3.err"
}
for f in chunk-not-inflating-v7 page-commit-huge page-records-garbage; do
	[ -f "$WORK/$f.dat" ] || { fail "silent-damage:$f" "not made"; continue; }
	stat native "$WORK/$f.dat" "$WORK/$f.native.json"
	stat libtracecmd "$WORK/$f.dat" "$WORK/$f.tc.json"
	report -i "$WORK/$f.dat" -O kmem:stat -O kmem:output=/dev/null \
		-O kmem:json="$WORK/$f.plugin.json" >/dev/null 2>&1
	report -i "$WORK/$f.dat" --cpu 1 -O kmem:stat -O kmem:output=/dev/null \
		-O kmem:json="$WORK/$f.cpu1.json" >/dev/null 2>&1
	if out=$(python3 - "$WORK" "$f" <<'PY' 2>&1
import json, sys
work, f = sys.argv[1:3]
e = json.load(open("%s/expect.json" % work))
ld = lambda k: json.load(open("%s/%s.%s.json" % (work, f, k)))
n, tc, pl, c1 = ld("native"), ld("tc"), ld("plugin"), ld("cpu1")
want = e["total"] - e["cpu0_pages"][1]	# the damaged page's records
chunk = f.startswith("chunk")
assert n["slab"]["events"] == want, ("native", n["slab"]["events"], want)
dmg = {"damaged_pages": 0 if chunk else 1, "damaged_chunks": 1 if chunk else 0}
for name, d in (("native", n), ("libtracecmd", tc), ("plugin", pl), ("plugin --cpu 1", c1)):
    got = {k: d["input"][k] for k in dmg}
    assert got == dmg, (name, got, dmg)
    assert d["slab"]["complete"] is False, name
for name, d in (("libtracecmd", tc), ("plugin", pl)):
    ev, unread = d["slab"]["events"], d["input"]["unread_records"]
    assert ev + unread == want, (name, ev, unread, want)
assert n["input"]["unread_records"] == 0
# --cpu 1: CPU 1's 300 records, none called unread
assert c1["slab"]["events"] == 300 and c1["input"]["unread_records"] == 0, c1["input"]
print("native %d, libtracecmd %d + %d unread, plugin %d + %d unread" % (
    want, tc["slab"]["events"], tc["input"]["unread_records"],
    pl["slab"]["events"], pl["input"]["unread_records"]))
PY
	); then
		pass "silent-damage:$f: $out"
	else
		fail "silent-damage:$f" "$out"
	fi
done

# A format whose ID is damaged (kmalloc's made 999, its records keep
# 658): its records are of an id no format has, which every front end
# counts as "unknown_records", names in the WARNING, and leaves out; the
# 50 records of an event that has its format (sched_waking) are not
# counted so.  The count is the spec's own: its kmalloc lines.  v6, and
# v7 zstd made by trace-cmd convert.
python3 - "$TOP" "$WORK" <<'PY' || fail silent-damage-fid-craft "craft.py failed"
import os, sys
top, work = sys.argv[1:3]
sys.path.insert(0, os.path.join(top, "tests", "regress"))
sys.path.insert(0, os.path.join(top, "tests", "lib"))
import craft
open(os.path.join(work, "fid.dat"), "wb").write(craft.format_id_unused(work, others=50))
lines = craft.spec(n=600).splitlines()
fmt = open(craft.FORMATS).read()
kid = fmt[fmt.index("name: kmalloc\nID: ") + 18:].split("\n")[0]
open(os.path.join(work, "fid.expect"), "w").write("%d %d %s\n" % (
    sum(" kmalloc " in l for l in lines), sum(" kfree " in l for l in lines), kid))
PY
trace-cmd convert -i "$WORK/fid.dat" -o "$WORK/fid7.dat" >/dev/null 2>&1 ||
	fail silent-damage-fid-convert "trace-cmd convert failed"
stat native "$WORK/fid.dat" "$WORK/fid.native.json"
stat native "$WORK/fid7.dat" "$WORK/fid.native7.json"
stat libtracecmd "$WORK/fid.dat" "$WORK/fid.tc.json"
stat libtracecmd "$WORK/fid7.dat" "$WORK/fid.tc7.json"
report -i "$WORK/fid.dat" -O kmem:stat -O kmem:output="$WORK/fid.plugin.txt" \
	-O kmem:json="$WORK/fid.plugin.json" >/dev/null 2>&1
report -i "$WORK/fid7.dat" -O kmem:stat -O kmem:output=/dev/null \
	-O kmem:json="$WORK/fid.plugin7.json" >/dev/null 2>&1
"$TK" stat "$WORK/fid7.dat" >"$WORK/fid.txt" 2>&1
"$TK" stat --merge --json="$WORK/fid.merged.json" "$WORK/fid.dat" "$WORK/fid7.dat" >/dev/null 2>&1
if out=$(python3 - "$WORK" <<'PY' 2>&1
import json, sys
work = sys.argv[1]
kmallocs, kfrees, kid = open(work + "/fid.expect").read().split()
for name in ("native", "native7", "tc", "tc7", "plugin", "plugin7"):
    d = json.load(open("%s/fid.%s.json" % (work, name)))
    got = (d["input"]["unknown_records"], d["slab"]["events"], d["slab"]["complete"])
    assert got == (int(kmallocs), int(kfrees), False), (name, got)
for t in ("fid.txt", "fid.plugin.txt"):
    text = open("%s/%s" % (work, t)).read()
    assert "WARNING: %s records of event ID %s were not read" % (kmallocs, kid) in text, (t, text[-400:])
m = json.load(open(work + "/fid.merged.json"))
assert m["file"] == "(merged)" and m["input"]["unknown_records"] == 2 * int(kmallocs), m["input"]
print("%s records of ID %s unknown, %s kfree counted, in every front end; "
      "both in a merged report" % (kmallocs, kid, kfrees))
PY
); then
	pass "silent-damage:format-id-unused: $out"
else
	fail "silent-damage:format-id-unused" "$out"
fi
finish
