#!/bin/bash
# pictures.sh: the README's pictures, made from sample-data/ by the code
# itself and rendered by headless Chromium (Debian's chromium):
#   Documentation/pictures/plot.png       trace-kmem plot of
#                                         sample-data/slab-fork-exec.dat
#   Documentation/pictures/flamegraph.png trace-kmem stat --folded of
#                                         sample-data/page-stacktrace.dat,
#                                         drawn by flamegraph.pl
# flamegraph.pl is Brendan Gregg's (github.com/brendangregg/FlameGraph),
# not part of this project: give its path as FLAMEGRAPH=PATH, or have it
# in PATH.  Run from the top of the tree after make.
set -eu
cd "$(dirname "$0")/.."
TK=build/trace-kmem
OUT=Documentation/pictures
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

"$TK" plot -o "$tmp/plot.svg" sample-data/slab-fork-exec.dat
shot "$tmp/plot.svg" "$OUT/plot.png" 1200 640

"$TK" stat --folded sample-data/page-stacktrace.dat |
	"$FLAMEGRAPH" --title "Page allocations by stack: sample-data/page-stacktrace.dat" \
		--subtitle "trace-kmem stat --folded | flamegraph.pl (width: bytes)" \
		--countname bytes --nametype Function: --colors mem --width 1200 \
		--hash >"$tmp/flame.svg"
height=$(sed -n 's/.*<svg [^>]*height="\([0-9]*\)".*/\1/p' "$tmp/flame.svg" | head -1)
shot "$tmp/flame.svg" "$OUT/flamegraph.png" 1200 "${height:-600}"
