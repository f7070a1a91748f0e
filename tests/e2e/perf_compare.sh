#!/bin/bash
# Side by side with perf: record one workload with tracefs (the way
# sample-data/record.sh does: set_event_pid + options/event-fork, then
# trace-cmd extract) and with `perf record -p` at the same time, then check
# that the plugin's allocation count, "Total bytes requested" and "Total
# bytes allocated" agree with `perf kmem stat --slab` within 0.1%.
#
# perf counts allocations that returned NULL in its totals; our definitions
# do not (Documentation/kmem-stat-definitions.txt), so those are taken off
# perf's numbers, computed from `perf script`.
#
# Method, so that both recordings hold the same events:
#  - the workload is a sh blocked on a fifo; perf attaches to it with
#    -p (children inherited) and -D -1 (events off) and is enabled through
#    its --control fifo, which acknowledges; then tracefs is set up for the
#    same pid and enabled; only then is the workload released;
#  - no process of the workload exits while recording: on recent kernels
#    (seen on 6.18) perf stops following a task early in do_exit
#    (perf_event_exit_task, before exit_mm and exit_files), while
#    set_event_pid follows it to the end, so every exit would be seen by
#    tracefs only (exit_mmap and file frees, the SIGCHLD sigqueue
#    allocation, perf's own event frees: ~7% more events for a find|xargs
#    cat pipeline).  The workload's
#    processes therefore say "ready" and block on a fifo; both recorders
#    are stopped, and only then are the processes let go.
#  - perf's presence changes the workload (perf_event_alloc at fork,
#    perf_event_mmap on mmap allocate in the traced tasks); both recordings
#    see that alike.
# Needs root, tracefs, perf; SKIPs otherwise.  Runs in a few seconds.
# PERF_COMPARE_KEEP=DIR copies the recordings and outputs to DIR.
. "$(dirname "$0")/../lib/common.sh" || { echo "FAIL perf_compare: cannot source tests/lib/common.sh"; exit 1; }
[ -n "${WORK:-}" ] && [ -d "$WORK" ] || { echo "FAIL perf_compare: common.sh made no \$WORK"; exit 1; }
. "$(dirname "$0")/../lib/side_by_side.sh" || { echo "FAIL perf_compare: cannot source tests/lib/side_by_side.sh"; exit 1; }
tracefs_lock

name=perf_compare
T=/sys/kernel/tracing
EVENTS="kmalloc kfree kmem_cache_alloc kmem_cache_free"
NCHILD=8	# workload processes (besides the top shell)
NFILES=40	# files each reads

# skip_out, die_fail and the recording: tests/lib/side_by_side.sh
sbs_events kmem $EVENTS
sbs_check_tracefs
# Someone else tracing?  Do not disturb them (and they would disturb us).
if [ -n "$(cat "$T/set_event")" ] || [ -n "$(cat "$T/set_event_pid")" ] ||
	[ "$(cat "$T/current_tracer")" != nop ]; then
	skip_out "tracefs top-level buffer in use (events enabled, set_event_pid or a tracer set)"
fi
sbs_check_perf
[ -f "$PLUGIN_DIR/plugin_kmem.so" ] || { fail "$name" "$PLUGIN_DIR/plugin_kmem.so not built"; finish; }

# Files for the workload: regular, readable, names without blanks, quotes
# or backslashes.
find /usr/share/doc /usr/share/common-licenses /etc -maxdepth 3 -type f \
	-readable -size -64k 2>/dev/null | grep -v "[[:space:]'\\\\]" |
	head -n $((NCHILD * NFILES)) >"$WORK/files"
[ "$(wc -l <"$WORK/files")" -ge "$NCHILD" ] || skip_out "too few files to read"

# tracefs state saved and restored on every exit path, tracefs set up,
# fifos made
sbs_prepare PERF_COMPARE_KEEP

# The workload: the top shell forks NCHILD children, each exec'ing sh on a
# script that reads NFILES files with the read builtin (open, read, close:
# no fork), reports "ready" and blocks in open(end).  The top shell then
# blocks in wait.  Nothing exits before both recorders are stopped.
split -n l/$NCHILD -d "$WORK/files" "$WORK/list."
for l in "$WORK"/list.??; do
	{
		printf 'for f in'
		while read -r f; do printf " '%s'" "$f"; done <"$l"
		printf '; do\n\tread -r l <"$f" || :\ndone\n'
		printf 'echo r >%s\n' "$WORK/ready"
		printf 'read -r l <%s || :\n' "$WORK/end"
	} >"$l.sh"
done
printf 'for s in "$@"; do\n\tsh "$s" &\ndone\nwait\n' >"$WORK/top.sh"
nlists=$(ls "$WORK"/list.*.sh | wc -l)

sbs_start_workload "$WORK/top.sh" "$WORK"/list.*.sh
sbs_record "$nlists" 30

# perf's view
perf kmem --slab -i "$WORK/perf.data" stat >"$WORK/perf.kmem" 2>"$WORK/perf.kmem.err" ||
	die_fail "perf kmem stat failed: $(head -n 3 "$WORK/perf.kmem.err")"
perf script -i "$WORK/perf.data" -F event,trace >"$WORK/perf.script" 2>"$WORK/perf.script.err" ||
	die_fail "perf script failed: $(head -n 3 "$WORK/perf.script.err")"
# plugin's view
report -i "$WORK/trace.dat" -O kmem:stat -O kmem:json="$WORK/kmem.json" \
	>"$WORK/report.out" 2>&1 || die_fail "trace-cmd report with the plugin failed: $(tail -n 3 "$WORK/report.out")"
[ -s "$WORK/kmem.json" ] || die_fail "the plugin wrote no JSON"

python3 - "$WORK" >"$WORK/cmp" 2>&1 <<'EOF' || die_fail "comparison script failed: $(tail -n 3 "$WORK/cmp")"
import json, re, sys
w = sys.argv[1]
kmem = open(w + "/perf.kmem").read()
def num(label):
    m = re.search(label + r"\s*:\s*([\d,]+)", kmem)
    if not m:
        sys.exit("no '%s' in perf kmem stat output" % label)
    return int(m.group(1).replace(",", ""))
p_req = num("Total bytes requested")
p_alloc = num("Total bytes allocated")
p_freed = num("Total bytes freed")
m = re.search(r"Cross CPU allocations\s*:\s*[\d,]+/([\d,]+)", kmem)
if not m:
    sys.exit("no 'Cross CPU allocations' in perf kmem stat output")
p_n = int(m.group(1).replace(",", ""))
# allocations perf counted that returned NULL, from perf script
s_n = s_req = s_alloc = 0
s_events = 0
null_n = null_req = null_alloc = 0
# perf adds a free's bytes whenever the pointer was ever allocated, so it
# counts a free of an already freed pointer (a double free in our terms, as
# when another task, not recorded, reused and freed it) a second time
state = {}
last = {}
refree = 0
for line in open(w + "/perf.script"):
    m = re.search(r"kmem:(kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node|kfree|kmem_cache_free):", line)
    if not m:
        continue
    s_events += 1
    f = dict(re.findall(r"(\w+)=(\S+)", line))
    ptr = 0 if f["ptr"] == "(nil)" else int(f["ptr"], 16)  # perf prints NULL as (nil)
    if m.group(1) in ("kfree", "kmem_cache_free"):
        if ptr > 16 and ptr in state:
            if state[ptr] == "F":
                refree += last[ptr]
            state[ptr] = "F"
        continue
    req, alloc = int(f["bytes_req"]), int(f["bytes_alloc"])
    s_n += 1; s_req += req; s_alloc += alloc
    if ptr == 0:
        null_n += 1; null_req += req; null_alloc += alloc
    elif ptr > 16:
        state[ptr] = "A"
        last[ptr] = alloc
d = json.load(open(w + "/kmem.json"))
s = d["slab"]["summary"]
print("perf_kmem", p_n - null_n, p_req - null_req, p_alloc - null_alloc, p_freed - refree, refree)
print("perf_script", s_n - null_n, s_req - null_req, s_alloc - null_alloc)
print("plugin", s["allocs"], s["bytes_requested"], s["bytes_allocated"], s["bytes_freed"])
print("events", null_n, s_events, d["slab"]["events"], d["events_lost"] + d["lost_unknown"])
EOF

read -r _ pk_n pk_req pk_alloc pk_freed refree < <(grep '^perf_kmem ' "$WORK/cmp")
read -r _ ps_n ps_req ps_alloc < <(grep '^perf_script ' "$WORK/cmp")
read -r _ pl_n pl_req pl_alloc pl_freed < <(grep '^plugin ' "$WORK/cmp")
read -r _ nulls ps_events pl_events pl_lost < <(grep '^events ' "$WORK/cmp")
echo "perf kmem stat: allocs $pk_n, requested $pk_req, allocated $pk_alloc, freed $pk_freed (taken off: NULL allocations $nulls, re-freed bytes $refree)"
echo "perf script:    allocs $ps_n, requested $ps_req, allocated $ps_alloc; $ps_events slab events"
echo "plugin:         allocs $pl_n, requested $pl_req, allocated $pl_alloc, freed $pl_freed; $pl_events slab events, lost $pl_lost"

cmp_one() { sbs_within "$1" perf "$2" plugin "$3"; }
# the two recordings hold the same events (checks the method, not the tools)
cmp_one events "$ps_events" "$pl_events"
cmp_one allocs "$pk_n" "$pl_n"
cmp_one bytes-requested "$pk_req" "$pl_req"
cmp_one bytes-allocated "$pk_alloc" "$pl_alloc"
# bytes freed: both count the bytes_alloc of the allocation a free matched
# (perf's re-frees taken off, see above)
cmp_one bytes-freed "$pk_freed" "$pl_freed"
# perf kmem stat and perf script read the same perf.data: they must agree
check "$name-perf-self-consistent" test "$pk_n $pk_req $pk_alloc" = "$ps_n $ps_req $ps_alloc"
finish
