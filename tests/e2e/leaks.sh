#!/bin/bash
# test: slow
# The plugin frees everything it allocates by the time trace-cmd unloads
# it, and trace-kmem by the time it exits: no valgrind loss record (or
# invalid access) may involve our code (lib/, plugin/, cli/).
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

TK=$(dirname "$PLUGIN_DIR")/trace-kmem
# valgrind NAME COMMAND...: the command under valgrind, its log vg.NAME
# (trace-cmd's arguments alone mean trace-cmd)
run_vg() {
	local name=$1; shift
	case $1 in
	"$TK") ;;
	*) set -- trace-cmd "$@" ;;
	esac
	TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR valgrind --keep-debuginfo=yes --leak-check=full \
		--show-leak-kinds=definite,indirect,possible --num-callers=40 \
		--log-file="$WORK/vg.$name" "$@" >/dev/null 2>&1
}
# leak_check NAME COMMAND...: no loss or invalid access of ours in it
leak_check() { run_vg "$@"; judge "$1"; }
# bg NAME COMMAND...: run_vg in the background, judged after "wait"
bg_names=()
bg() { run_vg "$@" & bg_names+=("$1"); }
judge() { # judge NAME: valgrind's log vg.NAME
	local name=$1
	grep -q "ERROR SUMMARY" "$WORK/vg.$name" || {
		fail "leaks-$name" "valgrind did not run"; return; }
	python3 - "$WORK/vg.$name" "$TOP"/lib/*/*.c "$TOP"/plugin/*.c "$TOP"/cli/*.c <<'PY' && pass "leaks-$name" || fail "leaks-$name" "allocations of ours lost (see above)"
import os, re, sys
text = open(sys.argv[1]).read()
# our frames: "(slab.c:123)" with valgrind's --keep-debuginfo=yes
ours = re.compile(r"\((%s):\d+\)" % "|".join(
    re.escape(os.path.basename(p)) for p in sys.argv[2:]))
# A loss is ours when the code that called the allocator is ours: the
# first frame past valgrind's malloc replacements and libc (strdup ...).
# (Libraries leak a little on their own, libtraceevent's parser for one,
# under our frames further up.)  Invalid accesses: any frame of ours.
frame = re.compile(r"^==\d+==\s+(?:at|by) 0x[0-9A-Fa-f]+: (.*)$", re.M)
alloc_fns = re.compile(r"^(malloc|calloc|realloc|reallocarray|strdup|"
                       r"strndup|__strdup|asprintf|vasprintf|__vasprintf\w*|"
                       r"posix_memalign|memalign|aligned_alloc)\b")
def allocator_caller(rec):
    for f in frame.findall(rec):
        if alloc_fns.match(f) or "vgpreload" in f or "vg_replace_malloc" in f \
           or "/libc.so" in f:
            continue
        return f
    return ""
bad = 0
for rec in re.split(r"\n==\d+== \n", text):
    lost = re.search(r"are (definitely|indirectly|possibly) lost", rec)
    invalid = re.search(r"Invalid (read|write)|uninitialised", rec)
    if (lost and ours.search(allocator_caller(rec))) or \
       (invalid and ours.search(rec)):
        print(rec)
        bad += 1
sys.exit(1 if bad else 0)
PY
}
# The runs are independent: in parallel, judged in order afterwards.
bg stat report -i "$f" -O kmem:stat -O kmem:json="$WORK/x.json"
bg nostat report -i "$f"
bg two-files report -i "$WORK/a.dat" -i "$WORK/b.dat" -O kmem:stat
bg list-options list -O
# two copies of the plugin in one trace-cmd (TRACEEVENT_PLUGIN_DIR, and
# ~/.local of a HOME of its own)
mkdir -p "$WORK/home2/.local/lib/traceevent/plugins"
cp "$PLUGIN_DIR/plugin_kmem.so" "$WORK/home2/.local/lib/traceevent/plugins/"
HOME=$WORK/home2 bg two-copies report -i "$f" -O kmem:stat
# trace-kmem: several inputs with an instance, filters, JSON; live
if [ -x "$TK" ]; then
	bg trace-kmem-stat "$TK" stat --per-process --json="$WORK/y.json" \
		--comm sh --cpu 0-1 "$f" "$TOP/sample-data/instance-mixed.dat"
	bg trace-kmem-bad-file "$TK" stat "$WORK/missing.dat"
fi
wait
for n in "${bg_names[@]}"; do judge "$n"; done
if [ -x "$TK" ]; then
	if [ "$(id -u)" -eq 0 ] && [ -w /sys/kernel/tracing/tracing_on ]; then
		tracefs_lock
		leak_check trace-kmem-live "$TK" live -T -d 0.5 -- sh -c 'ls /usr >/dev/null'
	else
		skip leaks-trace-kmem-live "not root or no tracefs"
	fi
else
	fail leaks-trace-kmem "no $TK (run make)"
fi
finish
