#!/bin/bash
# pictures.sh: the README's pictures, made from sample-data/ by the code
# itself and rendered by headless Chromium (Debian's chromium):
#   Documentation/pictures/plot.png       trace-kmem plot of
#                                         sample-data/page-trigger.dat
#   Documentation/pictures/flamegraph.png trace-kmem stat --folded of
#                                         sample-data/page-stacktrace.dat,
#                                         drawn by flamegraph.pl
#   Documentation/pictures/pprof.png     go tool pprof -png of the
#                                         --pprof profile of two samples
#                                         (golang-go, graphviz)
#   Documentation/pictures/kernelshark.png KernelShark with the kmem
#                                         KernelShark plugin on a
#                                         recording of realistic size,
#                                         under Xvfb (tests/e2e/kshark_gui.sh)
# "pictures.sh RECORDING.dat" makes the four, "pictures.sh" the first
# three, "pictures.sh pprof" the pprof one only, "pictures.sh kernelshark
# RECORDING.dat" the last one only (make
# and make tests first; it needs kernelshark and xvfb).  The README's is a
# recording of 2.25 million slab and page events (12 MB, too large for
# sample-data/), made on a 2-CPU VM with
#   sample-data/record.sh -o real.dat -b 100000 -e slab,page -a
#       sh -c 'tar cf - /usr/share/doc | gzip -1 >/dev/null;
#              find / -xdev -name "*.so" >/dev/null; sleep 1'
# flamegraph.pl is Brendan Gregg's (github.com/brendangregg/FlameGraph),
# not part of this project: give its path as FLAMEGRAPH=PATH, or have it
# in PATH.  Run from the top of the tree after make.
set -eu
cd "$(dirname "$0")/.."
TK=build/trace-kmem
OUT=Documentation/pictures

# kernelshark.png: the GUI test's own screen, when it passes
kernelshark() {
	local log
	[ -f "${1:-}" ] || { echo "usage: pictures.sh kernelshark RECORDING.dat" >&2; exit 1; }
	log=$(TOP=$PWD PLUGIN_DIR=$PWD/build/plugins KMEM_GUI_SAMPLE=$(realpath "$1") \
		KMEM_SCREENSHOT=$PWD/$OUT/kernelshark.png bash tests/e2e/kshark_gui.sh)
	if grep -q '^FAIL\|^SKIP' <<<"$log"; then
		echo "pictures.sh: tests/e2e/kshark_gui.sh: $(grep '^FAIL\|^SKIP' <<<"$log" | head -3)" >&2
		exit 1
	fi
	echo "$OUT/kernelshark.png: $(stat -c %s "$OUT/kernelshark.png") bytes"
}
# pprof.png: go tool pprof's own graph of a profile of two traces, each
# sample labelled with its trace and a fleet's label
pprof_png() {
	local t
	t=$(mktemp -d)
	command -v go >/dev/null && command -v dot >/dev/null ||
		{ echo "pictures.sh: go tool pprof -png needs go and dot (apt-get install golang-go graphviz)" >&2; exit 1; }
	"$TK" stat -o /dev/null --pprof="$t/two.pb.gz" --pprof-label cluster=demo \
		sample-data/page-stacktrace.dat sample-data/slab-fork-exec.dat
	HOME=$t go tool pprof -png -sample_index=alloc_space -nodecount=20 \
		"$t/two.pb.gz" >"$OUT/pprof.png" 2>/dev/null
	rm -rf "$t"
	echo "$OUT/pprof.png: $(stat -c %s "$OUT/pprof.png") bytes"
}
if [ "${1:-}" = kernelshark ]; then
	kernelshark "${2:-}"
	exit 0
fi
if [ "${1:-}" = pprof ]; then
	pprof_png
	exit 0
fi
FLAMEGRAPH=${FLAMEGRAPH:-$(command -v flamegraph.pl || true)}
[ -x "$TK" ] || { echo "pictures.sh: no $TK (run make)" >&2; exit 1; }
command -v chromium >/dev/null ||
	{ echo "pictures.sh: no chromium (apt-get install chromium)" >&2; exit 1; }
[ -n "$FLAMEGRAPH" ] ||
	{ echo "pictures.sh: no flamegraph.pl (give FLAMEGRAPH=PATH)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shot SVG PNG WIDTH HEIGHT
shot() {
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$tmp/chromium" --window-size="$3,$4" \
		--screenshot="$2" "file://$1" >/dev/null 2>&1
	echo "$2: $(stat -c %s "$2") bytes"
}

# a trace with two allocators: a panel each, on its own scale
"$TK" plot -o "$tmp/plot.svg" sample-data/page-trigger.dat
shot "$tmp/plot.svg" "$OUT/plot.png" \
	"$(grep -o -m1 'width="[0-9]*"' "$tmp/plot.svg" | tr -dc 0-9)" \
	"$(grep -o -m1 'height="[0-9]*"' "$tmp/plot.svg" | tr -dc 0-9)"

"$TK" stat --folded sample-data/page-stacktrace.dat |
	"$FLAMEGRAPH" --title "Page allocations by stack: sample-data/page-stacktrace.dat" \
		--subtitle "trace-kmem stat --folded | flamegraph.pl (width: bytes)" \
		--countname bytes --nametype Function: --colors mem --width 1200 \
		--hash >"$tmp/flame.svg"
height=$(sed -n 's/.*<svg [^>]*height="\([0-9]*\)".*/\1/p' "$tmp/flame.svg" | head -1)
shot "$tmp/flame.svg" "$OUT/flamegraph.png" 1200 "${height:-600}"

pprof_png

# kernelshark.png too when a recording is given
if [ -n "${1:-}" ]; then
	kernelshark "$1"
else
	echo "pictures.sh: $OUT/kernelshark.png left as it is (pictures.sh RECORDING.dat)"
fi
