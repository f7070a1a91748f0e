#!/bin/bash
# Side by side with perf, for the page allocator: record one workload with
# tracefs (mm_page_alloc and mm_page_free, the way sample-data/record.sh
# does: set_event_pid + options/event-fork, then trace-cmd extract) and with
# `perf record -e kmem:mm_page_alloc,kmem:mm_page_free -p` at the same time,
# then check that the totals of `perf kmem --page stat` agree within 0.1%
# with the same totals computed from `trace-cmd report -R` of the tracefs
# recording by a short script of this test's own:
#   allocations = mm_page_alloc records with a valid pfn (not -1UL),
#                 bytes 4096 << order each;
#   failures    = mm_page_alloc records with pfn -1UL;
#   frees       = mm_page_free records, bytes 4096 << order each.
# Counts and bytes only: perf 6.1 labels migrate types in the pre-4.x order
# (UNMOVABLE, RECLAIMABLE, MOVABLE: on this kernel 1 is MOVABLE and 2
# RECLAIMABLE, perf prints them the other way round), abbreviates GFP flags
# ambiguously (NF is both GFP_NOFS and __GFP_NOFAIL), and without callchains
# has no call sites at all.
#
# How perf counts failures: an mm_page_alloc whose pfn is -1UL (page NULL)
# is counted in "Total allocation requests" (and its KB) AND in "Total
# allocation failures"; so perf's successful allocations are requests minus
# failures, and its alloc-only figure includes the failures.  A free is
# always counted in "Total free requests"; one of a page perf did not see
# allocated goes to "Total free-only requests" as well.  mm_page_free_batched
# is not used by perf (on 6.18 every batched free also emits mm_page_free).
#
# Method, as in perf_compare.sh, so that both recordings hold the same
# events:
#  - the workload is a sh blocked on a fifo; perf attaches to it with -p
#    (children inherited) and -D -1 (events off) and is enabled through its
#    --control fifo, which acknowledges; then tracefs is set up for the same
#    pid and enabled; only then is the workload released;
#  - no process of the workload exits while recording (perf stops following
#    a task early in do_exit, before exit_mm frees its pages; tracefs follows
#    it to the end): each child maps, touches and unmaps anonymous memory,
#    writes, re-reads and deletes a file (page cache allocated and freed),
#    says "ready" and blocks on a fifo; both recorders are stopped, and only
#    then are the processes let go.
# Needs root, tracefs, perf, trace-cmd, python3; SKIPs otherwise.  Runs in a
# few seconds.  PERF_PAGE_COMPARE_KEEP=DIR copies the recordings and outputs
# to DIR.
. "$(dirname "$0")/../lib/common.sh" || { echo "FAIL perf_page_compare: cannot source tests/lib/common.sh"; exit 1; }
[ -n "${WORK:-}" ] && [ -d "$WORK" ] || { echo "FAIL perf_page_compare: common.sh made no \$WORK"; exit 1; }
. "$(dirname "$0")/../lib/side_by_side.sh" || { echo "FAIL perf_page_compare: cannot source tests/lib/side_by_side.sh"; exit 1; }
tracefs_lock

name=perf_page_compare
T=/sys/kernel/tracing
EVENTS="mm_page_alloc mm_page_free"
NCHILD=4	# workload processes (besides the top shell)
ANON_MB=4	# each maps, touches and unmaps this much anonymous memory ...
ROUNDS=3	# ... this many times
FILE_MB=2	# and writes, re-reads and deletes a file this large

# skip_out, die_fail and the recording: tests/lib/side_by_side.sh
sbs_events kmem $EVENTS
sbs_check_tracefs
# Someone else tracing?  Do not disturb them (and they would disturb us).
if [ -n "$(cat "$T/set_event")" ] || [ -n "$(cat "$T/set_event_pid")" ] ||
	[ "$(cat "$T/current_tracer")" != nop ] ||
	[ "$(cat "$T/options/stacktrace" 2>/dev/null || echo 0)" != 0 ]; then
	skip_out "tracefs top-level buffer in use (events enabled, set_event_pid, a tracer or options/stacktrace set)"
fi
sbs_check_perf
perf kmem -h 2>&1 | grep -q -- '--page' || skip_out "this perf kmem has no --page"

# tracefs state saved and restored on every exit path, tracefs set up,
# fifos made
sbs_prepare PERF_PAGE_COMPARE_KEEP

# The workload: the top shell starts NCHILD python3 children (fork + exec)
# and blocks in wait; each child maps ANON_MB of private anonymous memory,
# writes to every page and unmaps it (ROUNDS times), writes a FILE_MB file
# in $WORK, drops it from the page cache (fsync + posix_fadvise DONTNEED),
# reads it back and deletes it, then reports "ready" and blocks in
# open(end).  Nothing exits before both recorders are stopped.
cat >"$WORK/child.py" <<'EOF'
import mmap, os, sys
anon, rounds, fmb, path, ready, end = sys.argv[1:]
n = int(anon) << 20
for _ in range(int(rounds)):
    m = mmap.mmap(-1, n, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    for i in range(0, n, mmap.PAGESIZE):
        m[i] = 1
    m.close()
fd = os.open(path, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o600)
block = b"x" * (1 << 20)
for _ in range(int(fmb)):
    os.write(fd, block)
os.fsync(fd)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
os.close(fd)
fd = os.open(path, os.O_RDONLY)
while os.read(fd, 1 << 20):
    pass
os.close(fd)
os.unlink(path)
with open(ready, "w") as f:
    f.write("r\n")
open(end).close()
EOF
py=$(command -v python3)
[ -x /usr/bin/python3 ] && py=/usr/bin/python3	# not a pyenv shim
{
	printf 'i=0\nwhile [ $i -lt %d ]; do\n' "$NCHILD"
	printf '\t"%s" "%s" %d %d %d "%s/file.$i" "%s" "%s" &\n' \
		"$py" "$WORK/child.py" "$ANON_MB" "$ROUNDS" "$FILE_MB" "$WORK" "$WORK/ready" "$WORK/end"
	printf '\ti=$((i + 1))\ndone\nwait\n'
} >"$WORK/top.sh"

sbs_start_workload "$WORK/top.sh"
sbs_record "$NCHILD" 60

# perf's view
perf kmem --page -i "$WORK/perf.data" stat >"$WORK/perf.kmem" 2>"$WORK/perf.kmem.err" ||
	die_fail "perf kmem --page stat failed: $(head -n 3 "$WORK/perf.kmem.err")"
perf script -i "$WORK/perf.data" -F event,trace >"$WORK/perf.script" 2>"$WORK/perf.script.err" ||
	die_fail "perf script failed: $(head -n 3 "$WORK/perf.script.err")"
# the tracefs recording, raw fields (pfn in hex, -1UL for a failure)
trace-cmd report -R -i "$WORK/trace.dat" >"$WORK/trace.txt" 2>"$WORK/trace.err" ||
	die_fail "trace-cmd report failed: $(tail -n 3 "$WORK/trace.err")"

# The plugin's page.summary on the same tracefs recording is compared
# with perf below: allocs, alloc_bytes, failures and frees must agree.
# Its free_bytes is alloc_freed.bytes + free_only.bytes: it leaves out
# double frees (a pfn freed twice, reallocated in between by a task the
# recording did not follow), which perf counts by the free's own order,
# so bytes freed are not compared with perf.

python3 - "$WORK" >"$WORK/cmp" 2>&1 <<'EOF' || die_fail "comparison script failed: $(tail -n 3 "$WORK/cmp")"
import re, sys
w = sys.argv[1]
PAGE = 4096
kmem = open(w + "/perf.kmem").read()
def line(label):
    # "Total allocation requests     :            11631   [            55008 KB ]"
    m = re.search(re.escape(label) + r"\s*:\s*([\d,]+)\s*\[\s*([\d,]+) KB \]", kmem)
    if not m:
        sys.exit("no '%s' line in perf kmem --page stat output" % label)
    return int(m.group(1).replace(",", "")), int(m.group(2).replace(",", "")) * 1024
req_n, req_b = line("Total allocation requests")
fail_n, fail_b = line("Total allocation failures")
free_n, free_b = line("Total free requests")
# perf counts failures in the requests as well (see the header comment)
print("perf_kmem", req_n - fail_n, req_b - fail_b, fail_n, free_n, free_b)

def count(path, pat, invalid):
    an = ab = fn = fb = fails = 0
    for l in open(path):
        m = re.search(pat, l)
        if not m:
            continue
        f = dict(re.findall(r"(\w+)=(\S+)", l[m.end():]))
        b = PAGE << int(f["order"])
        if m.group(1) == "mm_page_free":
            fn += 1; fb += b
        elif invalid(f):
            fails += 1
        else:
            an += 1; ab += b
    return an, ab, fails, fn, fb
# tracefs: trace-cmd report -R prints the raw pfn; -1UL is a failure
print("trace", *count(w + "/trace.txt", r" (mm_page_alloc|mm_page_free): ",
                      lambda f: int(f["pfn"], 16) == (1 << 64) - 1))
# perf script prints through the format: pfn 0, page (nil) for a failure
print("perf_script", *count(w + "/perf.script", r"kmem:(mm_page_alloc|mm_page_free): ",
                            lambda f: f.get("page") == "(nil)" or int(f["pfn"], 16) == 0))
EOF

read -r _ pk_n pk_b pk_fail pk_fn pk_fb < <(grep '^perf_kmem ' "$WORK/cmp")
read -r _ tr_n tr_b tr_fail tr_fn tr_fb < <(grep '^trace ' "$WORK/cmp")
read -r _ ps_n ps_b ps_fail ps_fn ps_fb < <(grep '^perf_script ' "$WORK/cmp")
echo "perf kmem --page stat: allocs $pk_n ($pk_b bytes), failures $pk_fail, frees $pk_fn ($pk_fb bytes)"
echo "perf script:           allocs $ps_n ($ps_b bytes), failures $ps_fail, frees $ps_fn ($ps_fb bytes)"
echo "tracefs recording:     allocs $tr_n ($tr_b bytes), failures $tr_fail, frees $tr_fn ($tr_fb bytes)"

cmp_one() { sbs_within "$1" perf "$2" tracefs "$3"; }
cmp_one allocs "$pk_n" "$tr_n"
cmp_one bytes-allocated "$pk_b" "$tr_b"
cmp_one frees "$pk_fn" "$tr_fn"
cmp_one bytes-freed "$pk_fb" "$tr_fb"
# failures are rare (0 is the usual count): these must match exactly
check "$name-failures" test "$pk_fail" -eq "$tr_fail"
# perf kmem and perf script read the same perf.data: they must agree
check "$name-perf-self-consistent" test "$pk_n $pk_b $pk_fail $pk_fn $pk_fb" = "$ps_n $ps_b $ps_fail $ps_fn $ps_fb"
# the workload did what it should: at least its anonymous pages and file
# pages were allocated and freed in the recording
want=$((NCHILD * (ROUNDS * ANON_MB + FILE_MB) * 1024 * 1024))
check "$name-workload-seen" test "$tr_b" -ge "$want" -a "$tr_fb" -ge "$want"

# the plugin on the tracefs recording, against perf's totals
if report -i "$WORK/trace.dat" -O kmem:json="$WORK/kmem.json" >/dev/null 2>"$WORK/kmem.err"; then
	read -r pl_n pl_b pl_fail pl_fn < <(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["page"]["summary"]
print(s["allocs"], s["alloc_bytes"], s["failures"]["count"], s["frees"])' "$WORK/kmem.json")
	echo "plugin page.summary:   allocs $pl_n ($pl_b bytes), failures $pl_fail, frees $pl_fn"
	sbs_within plugin-allocs perf "$pk_n" plugin "$pl_n"
	sbs_within plugin-bytes-allocated perf "$pk_b" plugin "$pl_b"
	sbs_within plugin-frees perf "$pk_fn" plugin "$pl_fn"
	check "$name-plugin-failures" test "$pk_fail" -eq "$pl_fail"
else
	fail "$name-plugin" "trace-cmd report with the plugin failed: $(tail -n 2 "$WORK/kmem.err")"
fi
finish
