#!/bin/bash
# The plugin frees everything it allocates by the time trace-cmd unloads
# it: no valgrind loss record may have been allocated by plugin code.
. "$(dirname "$0")/../lib/common.sh"

if [ -n "$SANITIZED" ]; then
	skip leaks "plugin built with sanitizers; valgrind checks the normal build"
	finish
fi
command -v valgrind >/dev/null || { fail leaks "valgrind is not installed"; finish; }
f=$(smallest_sample)
[ -n "$f" ] || { fail leaks "no sample-data/*.dat"; finish; }
cp "$f" "$WORK/a.dat"
cp "$f" "$WORK/b.dat"

leak_check() { # name, trace-cmd args...
	local name=$1; shift
	TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR valgrind --keep-debuginfo=yes --leak-check=full \
		--show-leak-kinds=definite,indirect,possible --num-callers=40 \
		--log-file="$WORK/vg.$name" trace-cmd "$@" >/dev/null 2>&1
	grep -q "ERROR SUMMARY" "$WORK/vg.$name" || {
		fail "leaks-$name" "valgrind did not run"; return; }
	python3 - "$WORK/vg.$name" "$TOP"/lib/*.c "$TOP"/plugin/*.c <<'PY' && pass "leaks-$name" || fail "leaks-$name" "plugin allocations lost (see above)"
import os, re, sys
text = open(sys.argv[1]).read()
# our frames: "(slab.c:123)" with valgrind's --keep-debuginfo=yes
ours = re.compile(r"\((%s):\d+\)" % "|".join(
    re.escape(os.path.basename(p)) for p in sys.argv[2:]))
bad = 0
for rec in re.split(r"\n==\d+== \n", text):
    problem = re.search(r"are (definitely|indirectly|possibly) lost|"
                        r"Invalid (read|write)|uninitialised", rec)
    if problem and ours.search(rec):
        print(rec)
        bad += 1
sys.exit(1 if bad else 0)
PY
}
leak_check stat report -i "$f" -O kmem:stat -O kmem:json="$WORK/x.json"
leak_check nostat report -i "$f"
leak_check two-files report -i "$WORK/a.dat" -i "$WORK/b.dat" -O kmem:stat
leak_check list-options list -O
# two copies of the plugin in one trace-cmd (TRACEEVENT_PLUGIN_DIR, ~/.local)
mkdir -p "$HOME/.local/lib/traceevent/plugins"
cp "$PLUGIN_DIR/plugin_kmem.so" "$HOME/.local/lib/traceevent/plugins/"
leak_check two-copies report -i "$f" -O kmem:stat
finish
