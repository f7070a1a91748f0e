#!/bin/bash
# tests/ref/listing.py, through which every reference (tests/ref/*.py,
# tests/tdat/check_report.py) and listing check of the tests reads
# `trace-cmd report` output, against the trace-cmd installed here (3.1
# and 3.3 print records differently; listing.py names each difference):
#  - for every sample, each listing the tests read (`report`, -R, -N -R
#    -t, -N -t) has no line listing.py does not understand, and exactly as
#    many records as libtraceevent's kbuffer finds in the file's
#    ring-buffer pages (build/tools/rb_vs_kbuffer on a `trace-cmd convert
#    --file-version 6` copy), so a format change fails here and not as
#    "reference 0" somewhere else;
#  - fixed lines that trace-cmd 3.1.6 and 3.3.1 printed for the same
#    records parse to the same fields, and 3.3's call site addresses are
#    read.
set -u
. "$(dirname "$0")/../lib/common.sh"

LST=$TOP/tests/ref/listing.py
RBK=$(dirname "$PLUGIN_DIR")/tools/rb_vs_kbuffer
command -v trace-cmd >/dev/null || { fail listing-parsers "no trace-cmd"; finish; }
[ -x "$RBK" ] || { fail listing-parsers "no $RBK (run make)"; finish; }
echo "# $(trace-cmd version 2>/dev/null | grep -m1 'version')"

# check_sample N FILE: output in $WORK/N.log
check_sample() {
	local i=$1 f=$2 b n args got r u
	b=$(basename "$f" .dat)
	exec >"$WORK/$i.log" 2>&1
	if ! trace-cmd convert -i "$f" -o "$WORK/$b.v6.dat" --file-version 6 >/dev/null 2>&1; then
		echo "FAIL listing-$b:count: trace-cmd convert --file-version 6 failed"
		return
	fi
	n=$("$RBK" "$WORK/$b.v6.dat" | sed -n 's/^PASS .*, \([0-9]*\) records identical$/\1/p')
	rm -f "$WORK/$b.v6.dat"
	if [ -z "$n" ] || [ "$n" -eq 0 ]; then
		echo "FAIL listing-$b:count: rb_vs_kbuffer found no records"
		return
	fi
	for args in "" "-R" "-N -R -t" "-N -t"; do
		# shellcheck disable=SC2086
		got=$(trace-cmd report $args -i "$f" 2>/dev/null | python3 "$LST" count)
		read -r _ r _ _ _ u <<<"$got"
		if [ "$r" = "$n" ] && [ "$u" = 0 ]; then
			echo "PASS listing-$b:report${args:+ $args} ($n records)"
		else
			echo "FAIL listing-$b:report${args:+ $args}: $n records in the file, listing.py: $(echo "$got" | tr '\n' ' ' | cut -c1-400)"
		fi
	done
}

mapfile -t files < <(san_samples 2)
[ ${#files[@]} -gt 0 ] || fail listing-parsers "no sample in sample-data/"
in_parallel check_sample "${files[@]}"
gather "${files[@]/#*\//listing-}"

# Lines trace-cmd 3.1.6 (libtraceevent 1.7.1) and 3.3.1 (libtraceevent
# 1.8.4) printed for the same records of the samples, in pairs: 3.1 first.
python3 - "$TOP/tests/ref" <<'PY' || failures=$((failures + 1))
import sys
sys.path.insert(0, sys.argv[1])
import listing

PAIRS = [
    # -N -R -t: 3.3 adds "-0xFLAGS" after the CPU and the address after
    # a %pS symbol
    ("version-raw-free", 0xffffffff816d22d2,
     "         python3-14428 [001]  1214.657812404: kmem_cache_free:       call_site=do_sys_openat2+0xa2 ptr=0xffff88815484d000 name=names_cache",
     "         python3-14428 [001]-0x0  1214.657812404: kmem_cache_free:       call_site=do_sys_openat2+0xa2 (0xffffffff816d22d2) ptr=0xffff88815484d000 name=names_cache"),
    ("version-raw-flags", 0xffffffff81375658,
     "         python3-14428 [000]  1214.827824: kmem_cache_alloc:      call_site=__send_signal_locked+0x98 ptr=0xffff888104bc6af0 name=sigqueue bytes_req=80 bytes_alloc=80 gfp_flags=0x820 node=-1 accounted=1",
     "         python3-14428 [000]-0x25  1214.827824: kmem_cache_alloc:      call_site=__send_signal_locked+0x98 (0xffffffff81375658) ptr=0xffff888104bc6af0 name=sigqueue bytes_req=80 bytes_alloc=80 gfp_flags=0x820 node=-1 accounted=1"),
    # an instance's line
    ("version-raw-instance", 0xffffffff816e1ab5,
     "kmemslab:               sh-3171  [001]  9503.268531087: kmalloc:               call_site=alloc_bprm+0x45 ptr=0xffff888163447600 bytes_req=408 bytes_alloc=512 gfp_flags=0xdc0 node=-1",
     "kmemslab:               sh-3171  [001]-0x0  9503.268531087: kmalloc:               call_site=alloc_bprm+0x45 (0xffffffff816e1ab5) ptr=0xffff888163447600 bytes_req=408 bytes_alloc=512 gfp_flags=0xdc0 node=-1"),
    # kallsyms blanked (kmem_ref.py's trace-cmd convert step)
    ("version-raw-no-symbol", 0xffffffff816d22d2,
     "         python3-14428 [001]  1214.657812404: kmem_cache_free:       call_site=0xffffffff816d22d2 ptr=0xffff88815484d000 name=names_cache",
     "         python3-14428 [001]-0x0  1214.657812404: kmem_cache_free:       call_site= (0xffffffff816d22d2) ptr=0xffff88815484d000 name=names_cache"),
    ("version-raw-percpu", None,
     "              sh-26800 [001] 26467.634042: percpu_free_percpu:    base_addr=0xffffe8ffffc00000 off=28704 ptr=0x60795bb00020",
     "              sh-26800 [001]-0x1 26467.634042: percpu_free_percpu:    base_addr=0xffffe8ffffc00000 off=28704 ptr=0x60795bb00020"),
    ("version-raw-page", None,
     "              sh-9055  [001]  3590.603128638: mm_page_alloc:         pfn=0x148ae6 order=0 gfp_flags=0x140dca migratetype=1",
     "              sh-9055  [001]-0x0  3590.603128638: mm_page_alloc:         pfn=0x148ae6 order=0 gfp_flags=0x140dca migratetype=1"),
    # formatted listings: 3.3 adds the latency column
    ("version-plain-plugin", None,
     "         python3-14428 [001]  1214.658004: kfree:                (free_pipe_info+0x99) call_site=free_pipe_info+0x99 ptr=0xffff888104766c00",
     "         python3-14428 [001] .....  1214.658004: kfree:                (free_pipe_info+0x99) call_site=free_pipe_info+0x99 ptr=0xffff888104766c00"),
    ("version-plain-idle", None,
     "          <idle>-0     [001] 26467.696997: percpu_free_percpu:   base_addr=0xffffe8ffffc00000 off=194880 ptr=0x60795bb28940",
     "          <idle>-0     [001] d.s2. 26467.696997: percpu_free_percpu:   base_addr=0xffffe8ffffc00000 off=194880 ptr=0x60795bb28940"),
    ("version-stack-N", None,
     "              sh-8981  [001]  3589.073424241: kernel_stack:         \t=> trace_event_raw_event_mm_page_alloc",
     "              sh-8981  [001] .....  3589.073424241: kernel_stack:         \t=> trace_event_raw_event_mm_page_alloc"),
]
failed = 0
for name, addr, old, new in PAIRS:
    a, b = listing.parse_line(old), listing.parse_line(new)
    why = None
    if a is None or b is None:
        why = "unparsed: %r" % (old if a is None else new)
    else:
        fa, fb = listing.fields(a.rest), listing.fields(b.rest)
        key = lambda r: (r.comm, r.pid, r.cpu, r.ts, r.ts_text, r.event)
        if key(a) != key(b):
            why = "3.1 %r, 3.3 %r" % (key(a), key(b))
        elif {k: str(v) for k, v in fa.items() if k != "call_site" or
              not name.endswith("no-symbol")} != \
                {k: str(v) for k, v in fb.items() if k != "call_site" or
                 not name.endswith("no-symbol")}:
            why = "fields 3.1 %r, 3.3 %r" % (fa, fb)
        elif addr is not None and fb["call_site"].addr != addr:
            why = "3.3 call_site address %r" % fb["call_site"].addr
        elif addr is not None and name.endswith("no-symbol") and \
                int(fa["call_site"], 16) != addr:
            why = "3.1 call_site %r" % fa["call_site"]
        elif any(v.addr is not None for v in fa.values()):
            why = "an address in 3.1's line"
        elif a.flags is not None or b.flags is None:
            why = "flags 3.1 %r, 3.3 %r" % (a.flags, b.flags)
    if why:
        print("FAIL %s: %s" % (name, why))
        failed += 1
    else:
        print("PASS %s" % name)
drops = ["CPU:1 [EVENTS DROPPED]", "CPU:0 [32537 EVENTS DROPPED]"]
got = [listing.parse_drop(x) for x in drops]
if got == [(1, None), (0, 32537)]:
    print("PASS version-drops")
else:
    print("FAIL version-drops: %r" % got)
    failed += 1
sys.exit(1 if failed else 0)
PY
finish
