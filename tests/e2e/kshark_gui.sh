#!/bin/bash
# test: slow
# The KernelShark plugin in KernelShark itself, under Xvfb: a session
# file (tests/kshark/kshark_session.c, written with libkshark's export
# functions) opens a sample with plugin-kmem.so enabled; Xvfb keeps its
# screen in a file (-fbdir), which tests/kshark/xwd_png.py reads.  The
# plugin must have drawn: pixels of its link, ping-pong and leak
# colours (kernelshark/draw.cpp) in the window, where the same session
# without the plugin has none.  KMEM_SCREENSHOT=FILE.png keeps the
# picture (the README's).  Skipped, saying why, without kernelshark or
# Xvfb, and in a sanitizer build (kernelshark itself is not one).
set -u
. "$(dirname "$0")/../lib/common.sh"

BDIR=$(dirname "$PLUGIN_DIR")
KP=$BDIR/kernelshark/plugin-kmem.so
KSESS=$BDIR/kshark/kshark_session
SAMPLE=${KMEM_GUI_SAMPLE:-$TOP/sample-data/slab-pingpong.dat}
# draw.cpp's colours: links, ping-pong links, leaks
COLOURS="0,151,167 236,0,140 213,0,0"

if ! command -v kernelshark >/dev/null; then
	skip kshark-gui "kernelshark is not installed (apt-get install kernelshark)"
	finish
fi
if ! command -v Xvfb >/dev/null; then
	skip kshark-gui "Xvfb is not installed (apt-get install xvfb)"
	finish
fi
if [ ! -f "$KP" ] || [ ! -x "$KSESS" ]; then
	# what building the plugin needs for this KernelShark's Qt
	qt=$(sh "$TOP/scripts/kshark-qt.sh" major 2>/dev/null)
	if [ -n "$qt" ] &&
	   pkg-config --exists libkshark "Qt${qt}Widgets" glu 2>/dev/null; then
		fail kshark-gui "no $KP or $KSESS (run make and make tests)"
	else
		skip kshark-gui "the plugin is not built: it needs libkshark-dev, $(sh "$TOP/scripts/kshark-qt.sh" 2>/dev/null || echo qtbase5-dev) and libglu1-mesa-dev"
	fi
	finish
fi
if nm -D "$KP" 2>/dev/null | grep -q __asan_init; then
	skip kshark-gui "the plugin is built with sanitizers and kernelshark is not"
	finish
fi

mkdir -p "$WORK/fb" "$WORK/cache" "$WORK/run"
chmod 700 "$WORK/run"
exec 3>"$WORK/display"
Xvfb -displayfd 3 -screen 0 1280x720x24 -fbdir "$WORK/fb" -nolisten tcp \
	>"$WORK/xvfb.log" 2>&1 &
XPID=$!
exec 3>&-
for _ in $(seq 50); do
	[ -s "$WORK/display" ] && break
	sleep 0.1
done
if [ ! -s "$WORK/display" ]; then
	fail kshark-gui "Xvfb did not start: $(tail -2 "$WORK/xvfb.log")"
	kill "$XPID" 2>/dev/null
	finish
fi
export DISPLAY=:$(head -1 "$WORK/display")
export XDG_RUNTIME_DIR=$WORK/run KS_USER_CACHE_DIR=$WORK/cache
# root runs it here: no "running with Root privileges" dialog
printf '[General]\nnoRootWarn=true\n' >"$WORK/cache/setting.ini"

# shot NAME SESSION: start kernelshark, wait until it drew the plugin's
# colours (or 40 s), keep the screen as NAME.png and the counts
shot() {
	local name=$1 session=$2 pid i
	kernelshark -s "$session" >"$WORK/$name.log" 2>&1 &
	pid=$!
	for i in $(seq 40); do
		sleep 1
		kill -0 "$pid" 2>/dev/null || break
		python3 "$TOP/tests/kshark/xwd_png.py" "$WORK/fb/Xvfb_screen0" \
			"$WORK/$name.png" --crop 0,0,1200,640 \
			--count $COLOURS >"$WORK/$name.counts"
		# drawn: and, without the plugin (no colour of its own to
		# wait for), 10 s passed and the window is drawn: its picture
		# as large as the check below wants (a loaded machine, make
		# check beside it, took longer than 13 s once)
		if awk '$2 > 0 { n++ } END { exit n < 2 }' "$WORK/$name.counts" ||
		   { [ "$name" = without ] && [ "$i" -ge 10 ] &&
		     [ "$(stat -c %s "$WORK/$name.png" 2>/dev/null || echo 0)" -gt 20000 ]; }; then
			break
		fi
	done
	# the picture once the progress bar is gone, and the columns with
	# a bar of 4 pixels or more of each colour
	sleep 3
	python3 "$TOP/tests/kshark/xwd_png.py" "$WORK/fb/Xvfb_screen0" \
		"$WORK/$name.png" --crop 0,0,1200,640 --runs 4 --foot 5 \
		--count $COLOURS >"$WORK/$name.counts"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}

# KMEM_GUI_RANGE="FROM TO": the graph's time range (ns), else all
# shellcheck disable=SC2086
HOME=$WORK/home "$KSESS" "$KP" "$SAMPLE" "$WORK/with.json" ${KMEM_GUI_RANGE:-} \
	>/dev/null 2>"$WORK/sess.err"
check kshark-gui-session test $? -eq 0 -a -s "$WORK/with.json"
# the same session with the plugin disabled on the stream
tr -d '\n' <"$WORK/with.json" |
	sed 's/"kmem",[[:space:]]*true/"kmem", false/' >"$WORK/without.json"
check kshark-gui-session-off grep -q '"kmem", false' "$WORK/without.json"

shot with "$WORK/with.json"
shot without "$WORK/without.json"

# a trace of realistic density at the default zoom (issue 22, point 8):
# 200,000 records of tests/tdat/workload.py on 4 CPUs, tens of
# allocations a pixel column whose links are shorter than a pixel.
# Each column with links gets a bar (density.c, draw.cpp): teal, with
# the ping-pong share in magenta on top
FM=$TOP/tests/formats
python3 "$TOP/tests/tdat/workload.py" --formats "$FM/linux-6.18-x86_64.txt" \
	"$FM/page-linux-6.18-x86_64.txt" --records 200000 --cpus 4 --seed 7 \
	>"$WORK/dense.spec" &&
python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/dense.spec" -o "$WORK/dense.dat" \
	--formats "$FM/linux-6.18-x86_64.txt" "$FM/page-linux-6.18-x86_64.txt" --version 7
check kshark-gui-dense-trace test -s "$WORK/dense.dat"
HOME=$WORK/home "$KSESS" "$KP" "$WORK/dense.dat" "$WORK/dense.json" >/dev/null 2>"$WORK/sess-dense.err"
check kshark-gui-dense-session test $? -eq 0 -a -s "$WORK/dense.json"
shot dense "$WORK/dense.json"
kill "$XPID" 2>/dev/null
wait "$XPID" 2>/dev/null

check kshark-gui-shot test -s "$WORK/with.png"
# links, ping-pong links and leaks drawn (slab-pingpong has all three)
check kshark-gui-links awk '$1 == "0,151,167" && $2 >= 20 { ok = 1 } END { exit !ok }' "$WORK/with.counts"
check kshark-gui-pingpong awk '$1 == "236,0,140" && $2 >= 20 { ok = 1 } END { exit !ok }' "$WORK/with.counts"
check kshark-gui-leaks awk '$1 == "213,0,0" && $2 >= 20 { ok = 1 } END { exit !ok }' "$WORK/with.counts"
# and none of them without the plugin, though KernelShark drew its graph
check kshark-gui-control awk '$2 != 0 { bad = 1 } END { exit bad || NR != 4 }' "$WORK/without.counts"
check kshark-gui-control-drawn test "$(stat -c %s "$WORK/without.png" 2>/dev/null || echo 0)" -gt 20000
# on 4 CPU graphs of about 1,090 columns each, half the columns have a
# bar of link colours 5 pixels high or more standing on the axis
# (2,272 here; the links alone, before the bars: none), and so have
# hundreds of slab-pingpong's 2 (739; before: none)
check kshark-gui-dense-bars awk '$1 == "foot" && $2 >= 1000 { ok = 1 } END { exit !ok }' "$WORK/dense.counts"
check kshark-gui-bars awk '$1 == "foot" && $2 >= 200 { ok = 1 } END { exit !ok }' "$WORK/with.counts"
if [ -n "${KMEM_SCREENSHOT:-}" ] && [ -s "$WORK/with.png" ]; then
	cp "$WORK/with.png" "$KMEM_SCREENSHOT"
fi
finish
