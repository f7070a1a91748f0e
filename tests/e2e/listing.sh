#!/bin/bash
# The listing must stay byte-identical to what trace-cmd prints with
# libtraceevent's own plugin_kmem.so, with and without -O kmem:stat.
. "$(dirname "$0")/../lib/common.sh"

[ -n "$(samples)" ] || { fail listing "no sample-data/*.dat"; finish; }
for f in $(samples); do
	n=$(basename "$f" .dat)
	trace-cmd report -i "$f" >"$WORK/stock" 2>&1
	grep -q '^ *[^ ].*: kmalloc: *(' "$WORK/stock" ||
	grep -q 'kmem_cache_alloc: *(' "$WORK/stock" ||
		fail "listing-$n-prefix" "stock listing shows no (func+0xoff) prefix"
	report -i "$f" >"$WORK/ours" 2>&1
	check "listing-$n-unchanged" cmp -s "$WORK/stock" "$WORK/ours"
	# ours alone (-L: no system plugins) prints what stock plugin_kmem does
	report -L -i "$f" >"$WORK/alone" 2>&1
	check "listing-$n-ours-alone" cmp -s "$WORK/stock" "$WORK/alone"
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
