#!/bin/bash
# The man pages (make doc): each renders without a warning
# (man --warnings), every option of lib/'s table and of trace-kmem's own
# is in them, and after make install, man -w and man -k find them.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
if ! PATH=/usr/bin:$PATH command -v asciidoc >/dev/null || ! command -v xmlto >/dev/null ||
	! command -v man >/dev/null; then
	skip manpages "asciidoc, xmlto or man not installed (.ci/run installs them)"
	finish
fi
cd "$TOP" || exit 1
M=$WORK/b/man
if ! make -s --no-print-directory B="$WORK/b" doc >"$WORK/doc.log" 2>&1; then
	fail manpages-build "make doc failed: $(tail -5 "$WORK/doc.log")"
	finish
fi
pages=(trace-kmem.1 trace-kmem-record.1 kmem-plugin.7 kmem-kernelshark.7
       kmem-stat-definitions.7 kmem-json.5 kmem-numa.5 kmem-fleet.7)
for p in "${pages[@]}"; do
	if [ ! -s "$M/$p" ]; then
		fail "manpage-$p" "not built"
		continue
	fi
	man --warnings -l "$M/$p" >"$WORK/$p.txt" 2>"$WORK/$p.warn"
	check "manpage-$p-no-warning" test ! -s "$WORK/$p.warn"
	check "manpage-$p-has-name" grep -q "^NAME" "$WORK/$p.txt"
done

# every option: trace-kmem's as --NAME in trace-kmem(1), the plugin's
# as NAME at the start of a line of kmem-plugin(7)
missing=
for o in $(for c in stat live topology plot diff; do "$TK" $c --help; done |
	grep -oE -- '--[a-z][a-z-]*' | sort -u); do
	grep -qF -- "$o" "$WORK/trace-kmem.1.txt" || missing="$missing $o"
done
check manpage-trace-kmem-every-option test -z "$missing"
[ -z "$missing" ] || echo "    not in trace-kmem(1):$missing"
missing=
for o in $(TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd list -O 2>/dev/null |
	awk '$1 == "plugin:" { p = $2 } $1 == "option:" && p == "kmem" { print $2 }'); do
	grep -qE "^ +$o(=| |$)" "$WORK/kmem-plugin.7.txt" || missing="$missing $o"
done
check manpage-plugin-every-option test -z "$missing"
[ -z "$missing" ] || echo "    not in kmem-plugin(7):$missing"

# installed: man -w finds trace-kmem(1), man -k kmem every page
D=$WORK/dest
make -s --no-print-directory B="$(dirname "$PLUGIN_DIR")" install DESTDIR="$D" >"$WORK/inst.log" 2>&1
check manpage-installed test -f "$D/usr/share/man/man1/trace-kmem.1" -a -f "$D/usr/share/man/man7/kmem-plugin.7"
check manpage-man-w test "$(man -M "$D/usr/share/man" -w trace-kmem 2>/dev/null)" = "$D/usr/share/man/man1/trace-kmem.1"
mandb -q "$D/usr/share/man" >/dev/null 2>&1
check manpage-man-k test "$(man -M "$D/usr/share/man" -k kmem 2>/dev/null | wc -l)" -eq ${#pages[@]}
check help-names-the-manual grep -q "man trace-kmem" <("$TK" --help)
finish
