#!/bin/bash
# Our libtraceevent plugin in KernelShark: libkshark (KernelShark's own
# library, no GUI) loads every sample with Debian's plugin_kmem.so only,
# then with ours too (TRACEEVENT_PLUGIN_DIR, loaded after the system's,
# so its handlers are the ones registered: checked through dladdr() of
# each kmem event's print handler).  The info column of every kmem,
# percpu and ftrace entry must be the same, and nothing may be printed,
# at load or at unload (the plugin aggregates nothing without -O
# kmem:stat, which KernelShark never gives).
set -u
. "$(dirname "$0")/../lib/common.sh"

KI=$(dirname "$PLUGIN_DIR")/kshark/kshark_info
if [ ! -x "$KI" ]; then
	if pkg-config --exists libkshark 2>/dev/null; then
		fail kshark-info "no $KI (run make tests)"
	else
		skip kshark-info "libkshark-dev is not installed (apt-get install libkshark-dev libjson-c-dev)"
	fi
	finish
fi
# libkshark and libtraceevent keep a little at exit: not ours (SAN_HOST:
# tests/lib/common.sh)
export ASAN_OPTIONS=$SAN_HOST
mkdir -p "$WORK/empty"

n=0
while read -r f; do
	b=$(basename "$f" .dat)
	HOME=$WORK/empty TRACEEVENT_PLUGIN_DIR=$WORK/empty "$KI" "$f" \
		>"$WORK/$b.debian" 2>"$WORK/$b.debian.err"
	check "kshark-$b-debian-reads" test $? -eq 0 -a -s "$WORK/$b.debian"
	HOME=$WORK/empty TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR "$KI" --maps "$f" \
		>"$WORK/$b.ours" 2>"$WORK/$b.ours.err"
	check "kshark-$b-ours-reads" test $? -eq 0
	check "kshark-$b-info-identical" cmp -s "$WORK/$b.debian" "$WORK/$b.ours"
	check "kshark-$b-ours-loaded" grep -qx "loaded $PLUGIN_DIR/plugin_kmem.so" "$WORK/$b.ours.err"
	# every kmem event the trace has is handled by ours (and there is one)
	check "kshark-$b-ours-handles" bash -c "grep -q '^handler .* $PLUGIN_DIR/plugin_kmem.so\$' '$WORK/$b.ours.err' && ! grep '^handler ' '$WORK/$b.ours.err' | grep -v ' $PLUGIN_DIR/plugin_kmem.so\$' | grep -q ."
	check "kshark-$b-nothing-printed" bash -c "! grep -qv '^\(loaded\|handler\) ' '$WORK/$b.ours.err' && ! grep -q 'kmem statistics' '$WORK/$b.ours'"
	n=$((n + 1))
done < <(ks_samples)
[ "$n" -gt 0 ] || fail kshark-info "no sample-data/*.dat"
check kshark-slab-prefix grep -qE '^[0-9]+ [0-9]+ kmem/kmalloc: \([a-z_0-9.]+\+0x[0-9a-f]+\) call_site=' "$WORK/slab-fork-exec.ours"
check kshark-percpu-entries grep -q ' percpu/percpu_alloc_percpu: call_site=' "$WORK/percpu-netns.ours"
finish
