#!/bin/bash
# pictures.sh: the README's pictures, made from sample-data/ by the code
# itself and rendered by headless Chromium (Debian's chromium):
#   Documentation/pictures/plot.png       trace-kmem plot of
#                                         sample-data/page-trigger.dat
#   Documentation/pictures/flamegraph.png trace-kmem stat --folded of
#                                         sample-data/page-stacktrace.dat,
#                                         drawn by flamegraph.pl
#   Documentation/pictures/kernelshark.png KernelShark with the kmem
#                                         KernelShark plugin on a
#                                         recording of realistic size,
#                                         under Xvfb (tests/e2e/kshark_gui.sh)
# "pictures.sh RECORDING.dat" makes the three, "pictures.sh" the first
# two, "pictures.sh kernelshark RECORDING.dat" the last one only (make
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
if [ "${1:-}" = kernelshark ]; then
	kernelshark "${2:-}"
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

# kernelshark.png too when a recording is given
if [ -n "${1:-}" ]; then
	kernelshark "$1"
else
	echo "pictures.sh: $OUT/kernelshark.png left as it is (pictures.sh RECORDING.dat)"
fi
