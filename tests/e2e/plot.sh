#!/bin/bash
# test: slow
# trace-kmem plot: on every sample the JSON "timeline" agrees point by
# point with the independent references (kmem_ref.py, kmem_page_ref.py,
# kmem_vmalloc_ref.py with --timeline), its lines end at the stat
# report's live bytes, the SVG parses as XML and names its lines;
# headless Chromium renders it, and the plot area holds the lines'
# colours.  Crafted traces check the points counted by hand (slab, and
# vmalloc's call sites known from the stack that follows), the
# lost-event mark and XML escaping; the options and errors are checked
# too.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail plot "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never
REF=$TOP/tests/ref

# svg_ok PLOT.svg PLOT.json: XML, and every series' name in its text
svg_ok() {
	python3 - "$@" <<'PY'
import json, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
text = " ".join("".join(t.itertext()) for t in root.iter(
    "{http://www.w3.org/2000/svg}text"))
for s in json.load(open(sys.argv[2]))["timeline"]["series"]:
    name = s["name"] if len(s["name"]) <= 36 else s["name"][:36]
    assert name in text, (s["name"], "not in the SVG")
PY
}

# panels_ok PLOT.svg PLOT.json: a panel per allocator line, in the
# JSON's order, each holding that allocator's lines only (its total and
# its call sites: every series drawn once), on its own scale: the
# highest peak of its lines plus a twentieth
panels_ok() {
	python3 - "$@" <<'PY'
import json, sys
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
series = json.load(open(sys.argv[2]))["timeline"]["series"]
alloc = lambda k: k[:-len("_callsite")] if k.endswith("_callsite") else k
panels = [g for g in root.iter(NS + "g") if g.get("class") == "panel"]
totals = [s["kind"] for s in series if not s["kind"].endswith("_callsite")]
assert [g.get("data-allocator") for g in panels] == totals, totals
seen = []
for g in panels:
    a = g.get("data-allocator")
    idx = [int(p.get("data-series")) for p in g.iter(NS + "path")
           if p.get("class") == "line"]
    assert all(alloc(series[i]["kind"]) == a for i in idx), (a, idx)
    peak = max(s["peak_bytes"] for s in series if alloc(s["kind"]) == a) or 1
    assert int(g.get("data-y-max")) == peak + peak // 20, (a, g.get("data-y-max"), peak)
    seen += idx
assert sorted(seen) == list(range(len(series))), (seen, len(series))
h = float(root.get("height"))
assert h == (640 if len(panels) == 1 else 88 + len(panels) * 290 - 40 + 80), (h, len(panels))
PY
}

# ends PLOT.json STAT.json: the totals' last points are the live bytes
ends() {
	python3 - "$@" <<'PY'
import json, sys
tl = json.load(open(sys.argv[1]))["timeline"]
doc = json.load(open(sys.argv[2]))
for s in tl["series"]:
    if s["kind"] in ("slab", "page", "percpu", "vmalloc"):
        want = doc[s["kind"]]["summary"]["live"]["bytes"]
        last = s["points"][-1][1] if s["points"] else 0
        assert last == want, (s["kind"], last, want)
lost = sum(l["events"] for l in tl["lost"])
unknown = sum(l["unknown"] for l in tl["lost"])
assert (lost, unknown) == (doc["events_lost"], doc["lost_unknown"]), \
    (lost, unknown, doc["events_lost"], doc["lost_unknown"])
PY
}

# under the sanitizers, the seven samples the checks below name: the points
# are make check's to compare on every sample
plot_samples() {
	if [ -n "$SANITIZED" ]; then
		samples | grep -E '/(slab-fork-exec|slab-lost-events|percpu-slab-netns|percpu-netns|page-stacktrace|instance-mixed|vmalloc-fork)\.dat$'
	else
		ls "$TOP"/sample-data/*.dat
	fi
}
for f in $(plot_samples); do
	b=$(basename "$f" .dat)
	"$TK" plot -o "$WORK/$b.svg" --json="$WORK/$b.plot.json" "$f" 2>"$WORK/$b.err"
	rc=$?
	evs=$(trace-cmd report -N -R "$f" 2>/dev/null |
		grep -oE ' (kmalloc|kmem_cache_alloc|mm_page_alloc|percpu_alloc_percpu|alloc_vmap_area): ' | sort -u)
	if [ -z "$evs" ]; then
		# no allocation of any allocator: nothing plot draws, said so
		check "plot-$b-nothing-exit-2" test "$rc" -eq 2
		check "plot-$b-nothing-one-line" test "$(wc -l <"$WORK/$b.err")" -eq 1
		check "plot-$b-nothing-said" grep -q ": no slab, page, percpu or vmalloc allocator events to plot$" "$WORK/$b.err"
		continue
	fi
	check "plot-$b-exit-0" test "$rc" -eq 0
	"$TK" stat --json="$WORK/$b.stat.json" -o /dev/null "$f" 2>/dev/null
	if has_instances "$f"; then
		# the references read no instances: the top buffer's report
		python3 -c '
import json, sys
from jsondocs import docs
json.dump(docs(sys.argv[1])[0], open(sys.argv[2], "w"))' "$WORK/$b.stat.json" "$WORK/$b.top.json"
		check "plot-$b-ends-at-live-bytes" ends "$WORK/$b.plot.json" "$WORK/$b.top.json"
	else
		python3 "$REF/kmem_ref.py" --timeline="$WORK/$b.plot.json" "$f" \
			>"$WORK/$b.rs" 2>/dev/null
		python3 "$REF/kmem_page_ref.py" --timeline="$WORK/$b.plot.json" "$f" \
			>"$WORK/$b.rp" 2>/dev/null
		refs=("$WORK/$b.rs" "$WORK/$b.rp")
		if grep -q alloc_vmap_area <<<"$evs"; then
			python3 "$REF/kmem_vmalloc_ref.py" --timeline="$WORK/$b.plot.json" \
				"$f" >"$WORK/$b.rv" 2>/dev/null
			refs+=("$WORK/$b.rv")
			check "plot-$b-vmalloc-line" grep -q '"kind": "vmalloc"' "$WORK/$b.plot.json"
		fi
		if grep -q percpu_alloc_percpu <<<"$evs"; then
			python3 "$REF/kmem_percpu_ref.py" --timeline="$WORK/$b.plot.json" \
				"$f" >"$WORK/$b.rc" 2>/dev/null
			refs+=("$WORK/$b.rc")
			check "plot-$b-percpu-line" grep -q '"kind": "percpu"' "$WORK/$b.plot.json"
		fi
		check "plot-$b-points-as-the-references" \
			python3 "$REF/check_timeline.py" "$WORK/$b.plot.json" 10 "${refs[@]}"
		check "plot-$b-ends-at-live-bytes" ends "$WORK/$b.plot.json" "$WORK/$b.stat.json"
	fi
	check "plot-$b-svg-parses-names-lines" svg_ok "$WORK/$b.svg" "$WORK/$b.plot.json"
	[ "$rc" -eq 0 ] && check "plot-$b-panel-per-allocator" panels_ok "$WORK/$b.svg" "$WORK/$b.plot.json"
done
# two allocators or more: several panels (issue 22, point 7)
check plot-panels-mixed-two test "$(grep -c 'class="panel"' "$WORK/percpu-slab-netns.svg")" -eq 2
check plot-percpu-drawn grep -q 'data-allocator="percpu"' "$WORK/percpu-netns.svg"

# fewer call sites, chosen by the same rule
f=$TOP/sample-data/page-stacktrace.dat
"$TK" plot -l 3 -o "$WORK/l3.svg" --json="$WORK/l3.json" "$f"
python3 "$REF/kmem_page_ref.py" --timeline="$WORK/l3.json" "$f" >"$WORK/l3.rp" 2>/dev/null
check plot-lines-3 python3 "$REF/check_timeline.py" "$WORK/l3.json" 3 "$WORK/l3.rp"
# the other reader draws the same
"$TK" plot --reader=libtracecmd -o /dev/null --json="$WORK/ltc.json" "$f"
check plot-libtracecmd-same cmp -s "$WORK/ltc.json" "$WORK/page-stacktrace.plot.json"
# --json alone: the document on stdout, no SVG
"$TK" plot --json "$f" >"$WORK/stdout.json"
check plot-json-stdout python3 -c '
import json, sys
assert "timeline" in json.load(open(sys.argv[1]))' "$WORK/stdout.json"

# an instance
f=$TOP/sample-data/instance-mixed.dat
"$TK" plot --instance kmemslab -o /dev/null --json="$WORK/inst.json" "$f" 2>/dev/null
python3 -c '
import json, sys
from jsondocs import docs
for doc in docs(sys.argv[1]):
    if doc["file"].endswith("(instance kmemslab)"):
        json.dump(doc, open(sys.argv[2], "w"))' "$WORK/instance-mixed.stat.json" "$WORK/inst.stat.json"
check plot-instance-ends-at-live-bytes ends "$WORK/inst.json" "$WORK/inst.stat.json"
check plot-instance-title grep -q '(instance kmemslab)' "$WORK/inst.json"

# options that choose, filters, and errors
f=$TOP/sample-data/slab-fork-exec.dat
"$TK" plot --page -o "$WORK/x.svg" "$f" 2>"$WORK/x.err"
check plot-no-page-events-exit-2 test $? -eq 2
check plot-no-page-events-said grep -q 'no page allocator events to plot' "$WORK/x.err"
check plot-no-svg-left test ! -e "$WORK/x.svg"
"$TK" plot --pid 1 -o "$WORK/x.svg" "$f" 2>"$WORK/x.err"
check plot-filtered-out-said grep -q 'the filters left them all out' "$WORK/x.err"
"$TK" plot -o "$WORK/x.svg" "$f" "$f" 2>"$WORK/x.err"
check plot-two-files-usage test $? -eq 1
"$TK" plot --instance nosuch -o "$WORK/x.svg" "$f" 2>"$WORK/x.err"
check plot-no-instance-said grep -q "no buffer instance 'nosuch'" "$WORK/x.err"
start=$(python3 -c '
import json, sys
print(json.load(open(sys.argv[1]))["timeline"]["start_ns"])' "$WORK/slab-fork-exec.plot.json")
from=$(python3 -c "print('%d.%09d' % divmod($start + 100000000, 10**9))")
"$TK" plot --time "$from," -o /dev/null --json="$WORK/t.json" "$f"
check plot-time-window python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["timeline"]
assert t["start_ns"] >= int(sys.argv[2]), t["start_ns"]' "$WORK/t.json" "$((start + 100000000))"

# damaged and hostile files (tests/regress/corpus): a picture, or one
# line and exit 2; damage is said once, not once a pass (both readers)
for f in "$TOP"/tests/regress/corpus/*.dat; do
	for r in native libtracecmd; do
		b=$(basename "$f" .dat)-$r
		"$TK" plot --reader=$r -o "$WORK/r.svg" "$f" >/dev/null 2>"$WORK/r.err"
		rc=$?
		check "plot-regress-$b-outcome" test "$rc" -eq 0 -o \( "$rc" -eq 2 -a "$(wc -l <"$WORK/r.err")" -eq 1 \)
		check "plot-regress-$b-said-once" test "$(grep -c 'damaged data skipped' "$WORK/r.err")" -le 1
	done
done
# all of it damaged: "no events to plot" says so
for r in native libtracecmd; do
	"$TK" plot --reader=$r -o "$WORK/r.svg" "$TOP/tests/regress/corpus/record-past-page-end-only.dat" \
		>/dev/null 2>"$WORK/r.err"
	check "plot-regress-all-damaged-$r" grep -q 'no slab, page, percpu or vmalloc allocator events to plot (damaged trace data was skipped)$' "$WORK/r.err"
done

# craft NAME CHECK [FORMATS...]: $WORK/NAME.dat from $WORK/NAME.spec
# (tdat_writer.py), with the slab formats or FORMATS
craft() {
	local n=$1 c=$2
	shift 2
	[ $# -gt 0 ] || set -- "$TOP/tests/formats/linux-6.18-x86_64.txt"
	python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/$n.spec" -o "$WORK/$n.dat" \
		--formats "$@" --version 6 >/dev/null 2>"$WORK/$n.err" ||
		{ fail "$c" "tdat_writer: $(tail -2 "$WORK/$n.err")"; finish; }
}

# crafted: points counted by hand, a loss, a name to escape
printf '%s\n' '[kallsyms]' 'ffffffff81200000 T site_a' 'ffffffff81300000 T x<y&z' \
	'ffffffff81400000 T _etext' '[buffer]' \
	'0 1.000001000 kmalloc call_site=0xffffffff81200010 ptr=0xffff888100000100 bytes_req=40 bytes_alloc=64 node=-1' \
	'0 1.000002000 kmalloc call_site=0xffffffff81300010 ptr=0xffff888100000200 bytes_req=8 bytes_alloc=8 node=-1' \
	'0 1.000003000 kfree call_site=0xffffffff81300020 ptr=0xffff888100000100' \
	'lost 0 500' \
	'0 1.000004000 kmalloc call_site=0xffffffff81200010 ptr=0xffff888100000300 bytes_req=40 bytes_alloc=64 node=-1' \
	>"$WORK/c.spec"
craft c plot-crafted
"$TK" plot -o "$WORK/c.svg" --json="$WORK/c.json" "$WORK/c.dat"
check plot-crafted-by-hand python3 - "$WORK/c.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["timeline"]
s = {x["name"]: x for x in t["series"]}
a, b, c, d = 1000001000, 1000002000, 1000003000, 1000004000
assert (t["start_ns"], t["end_ns"], t["span_ns"]) == (a, d, 8), t
assert s["slab allocator"]["points"] == [[a, 64], [b, 72], [c, 8], [d, 72]], s
assert s["site_a+0x10"]["points"] == [[a, 64], [c, 0], [d, 64]], s
assert s["x<y&z+0x10"]["points"] == [[b, 8]], s
assert [x["name"] for x in t["series"]] == \
    ["slab allocator", "site_a+0x10", "x<y&z+0x10"], t["series"]
assert t["lost"] == [{"ns": d, "events": 500, "unknown": 0}], t["lost"]
PY
check plot-crafted-svg-escapes svg_ok "$WORK/c.svg" "$WORK/c.json"

# crafted: five events in the first span, one in the last; the span
# keeps its highest (128), lowest (0) and last value (32), in time order
printf '%s\n' '[kallsyms]' 'ffffffff81200000 T site_a' 'ffffffff81400000 T _etext' '[buffer]' \
	'0 1.000001000 kmalloc call_site=0xffffffff81200010 ptr=0xffff888100000100 bytes_req=64 bytes_alloc=64 node=-1' \
	'0 1.000002000 kmalloc call_site=0xffffffff81200010 ptr=0xffff888100000200 bytes_req=64 bytes_alloc=64 node=-1' \
	'0 1.000003000 kfree call_site=0xffffffff81200020 ptr=0xffff888100000100' \
	'0 1.000004000 kfree call_site=0xffffffff81200020 ptr=0xffff888100000200' \
	'0 1.000005000 kmalloc call_site=0xffffffff81200010 ptr=0xffff888100000300 bytes_req=32 bytes_alloc=32 node=-1' \
	'0 2.000001000 kmalloc call_site=0xffffffff81200010 ptr=0xffff888100000400 bytes_req=8 bytes_alloc=8 node=-1' \
	>"$WORK/s.spec"
craft s plot-crafted-span
"$TK" plot -o /dev/null --json="$WORK/s.json" "$WORK/s.dat"
check plot-crafted-span-extremes python3 - "$WORK/s.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["timeline"]
assert t["span_ns"] == 10**9 // 400 + 1, t["span_ns"]
s = t["series"][0]
assert s["name"] == "slab allocator" and s["peak_bytes"] == 128, s
assert s["points"] == [[1000002000, 128], [1000004000, 0], [1000005000, 32],
                       [2000001000, 40]], s["points"]
PY

# crafted vmalloc: a call site counts once its stack record is read
# (t2); an area whose stack never follows counts for "(no stack)" at
# the next alloc_vmap_area on its CPU (t5); one freed before then (t6)
# never counts for a call site, only for the allocator's line
printf '%s\n' '[kallsyms]' \
	'ffffffff81100000 T trace_event_raw_event_alloc_vmap_area' \
	'ffffffff81200000 T __vmalloc_node_range_noprof' \
	'ffffffff81300000 T site_a' 'ffffffff81500000 T _etext' '[buffer]' \
	'0 1.000001000 alloc_vmap_area addr=0x1000 size=8192 align=4096 failed=0' \
	'0 1.000002000 kernel_stack size=3 caller=0xffffffff81100010,0xffffffff81200020,0xffffffff81300030' \
	'1 1.000003000 alloc_vmap_area addr=0x3000 size=4096 align=4096 failed=0' \
	'0 1.000004000 free_vmap_area_noflush va_start=0x1000 nr_lazy=2 nr_lazy_max=100' \
	'1 1.000005000 alloc_vmap_area addr=0x5000 size=4096 align=4096 failed=0' \
	'1 1.000006000 free_vmap_area_noflush va_start=0x5000 nr_lazy=1 nr_lazy_max=100' \
	>"$WORK/v.spec"
craft v plot-crafted-vmalloc "$TOP/tests/formats/page-linux-6.18-x86_64.txt" \
	"vmalloc:$TOP/tests/formats/vmalloc-linux-6.18-x86_64.txt"
"$TK" plot -o "$WORK/v.svg" --json="$WORK/v.json" "$WORK/v.dat"
check plot-crafted-vmalloc-by-hand python3 - "$WORK/v.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["timeline"]
s = {x["name"]: x for x in t["series"]}
t1, t2, t3, t4, t5, t6 = (1000000000 + k * 1000 for k in range(1, 7))
assert (t["start_ns"], t["end_ns"]) == (t1, t6), t
assert [(x["kind"], x["name"], x["peak_bytes"]) for x in t["series"]] == [
    ("vmalloc", "vmalloc allocator", 12288),
    ("vmalloc_callsite", "site_a+0x30", 8192),
    ("vmalloc_callsite", "(no stack)", 4096)], t["series"]
assert s["vmalloc allocator"]["points"] == \
    [[t1, 8192], [t3, 12288], [t4, 4096], [t5, 8192], [t6, 4096]], s
assert s["site_a+0x30"]["points"] == [[t2, 8192], [t4, 0]], s
assert s["(no stack)"]["points"] == [[t5, 4096]], s
PY
python3 "$REF/kmem_vmalloc_ref.py" --timeline="$WORK/v.json" "$WORK/v.dat" >"$WORK/v.rv" 2>/dev/null
check plot-crafted-vmalloc-as-the-reference \
	python3 "$REF/check_timeline.py" "$WORK/v.json" 10 "$WORK/v.rv"
check plot-crafted-vmalloc-svg svg_ok "$WORK/v.svg" "$WORK/v.json"
"$TK" plot --slab -o "$WORK/x.svg" "$WORK/v.dat" 2>"$WORK/x.err"
check plot-crafted-vmalloc-no-slab-said grep -q 'no slab allocator events to plot$' "$WORK/x.err"
"$TK" plot --vmalloc -o /dev/null --json="$WORK/vv.json" "$WORK/v.dat"
check plot-crafted-vmalloc-selected cmp -s <(python3 -c '
import json, sys
print(json.load(open(sys.argv[1]))["timeline"])' "$WORK/v.json") <(python3 -c '
import json, sys
print(json.load(open(sys.argv[1]))["timeline"])' "$WORK/vv.json")

# rendered by a browser: the plot area holds the lines' colours
if ! command -v chromium >/dev/null; then
	skip plot-rendered "no chromium (apt-get install chromium)"
	finish
fi
# render SVG PNG: at the SVG's own size
render() {
	local size
	size=$(python3 -c '
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
print("%d,%d" % (float(r.get("width")), float(r.get("height"))))' "$1")
	H=${size#*,}
	timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$WORK/chromium" --window-size="$size" \
		--screenshot="$2" "file://$1" >/dev/null 2>&1
}
# ink PNG COLOUR...: pixels of each colour in the plot column (every
# panel: under the title, above the time axis)
ink() { python3 "$TOP/tests/lib/png_ink.py" $TOL "$1" 97 73 859 $((H - 81)) "${@:2}"; }
TOL=
render "$WORK/slab-fork-exec.svg" "$WORK/fork.png"
read -r slab site <<<"$(ink "$WORK/fork.png" 1f3f7a 4e79a7)"
check plot-rendered-slab-line test "${slab:-0}" -gt 1000
check plot-rendered-call-site-line test "${site:-0}" -gt 200
render "$WORK/page-stacktrace.svg" "$WORK/page.png"
read -r page <<<"$(ink "$WORK/page.png" b35000)"
check plot-rendered-page-line test "${page:-0}" -gt 500
render "$WORK/vmalloc-fork.svg" "$WORK/vmalloc.png"
read -r vmalloc <<<"$(ink "$WORK/vmalloc.png" 5d4037)"
check plot-rendered-vmalloc-line test "${vmalloc:-0}" -gt 500
render "$WORK/percpu-slab-netns.svg" "$WORK/mixed.png"
read -r slab percpu <<<"$(ink "$WORK/mixed.png" 1f3f7a 7b1fa2)"
check plot-rendered-two-panels test "${slab:-0}" -gt 500 -a "${percpu:-0}" -gt 500
render "$WORK/slab-lost-events.svg" "$WORK/lost.png"
TOL="--tol 70"	# a thin dashed line: its pixels are blended
read -r lost <<<"$(ink "$WORK/lost.png" d0021b)"
check plot-rendered-loss-mark test "${lost:-0}" -gt 50
finish
