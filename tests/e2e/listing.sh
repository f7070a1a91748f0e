#!/bin/bash
# test: slow
# sanitizers: skip (a byte-identity matrix)
# The listing must stay byte-identical to what trace-cmd prints with
# libtraceevent's own plugin_kmem.so, with and without -O kmem:stat.
. "$(dirname "$0")/../lib/common.sh"

[ -n "$(samples)" ] || { fail listing "no sample-data/*.dat"; finish; }
# The system's plugins with ours in place of plugin_kmem.so, for -L runs
sys=$(pkg-config --variable=libdir libtraceevent)/traceevent/plugins
mkdir -p "$WORK/instead"
for p in "$sys"/*.so; do
	[ "$(basename "$p")" = plugin_kmem.so ] || cp "$p" "$WORK/instead/"
done
cp "$PLUGIN_DIR/plugin_kmem.so" "$WORK/instead/"
for f in $(samples); do
	n=$(basename "$f" .dat)
	trace-cmd report -i "$f" >"$WORK/stock" 2>&1
	if grep -qE ': +(kmalloc|kmem_cache_alloc|kfree|kmem_cache_free): ' "$WORK/stock"; then
		check "listing-$n-prefix" grep -qE ': +(kmalloc|kmem_cache_alloc|kfree|kmem_cache_free): +\([a-z_]' "$WORK/stock"
	fi
	report -i "$f" >"$WORK/ours" 2>&1
	check "listing-$n-unchanged" cmp -s "$WORK/stock" "$WORK/ours"
	# ours instead of the stock plugin_kmem (-L: no system directory)
	TRACEEVENT_PLUGIN_DIR=$WORK/instead trace-cmd report -L -i "$f" >"$WORK/alone" 2>&1
	check "listing-$n-ours-instead" cmp -s "$WORK/stock" "$WORK/alone"
	# with kmem:stat the listing is a prefix, the tables come after it
	report -i "$f" -O kmem:stat >"$WORK/stat" 2>"$WORK/stat.err"
	lines=$(wc -l <"$WORK/stock")
	head -n "$lines" "$WORK/stat" >"$WORK/stat.head"
	check "listing-$n-with-stat" cmp -s "$WORK/stock" "$WORK/stat.head"
	check "listing-$n-tables-after" grep -q "kmem statistics: " \
		<(tail -n +"$((lines + 1))" "$WORK/stat")
	check "listing-$n-quiet-stderr" test ! -s "$WORK/stat.err"
done
finish
