#!/bin/bash
# The plugin's state cannot be named by the trace: it used to keep its
# state's address and a "reported" mark as the comms of two negative pids,
# in the handle's pid -> comm table that the trace's saved cmdlines fill.
# A trace carrying those cmdlines made -O kmem:stat print nothing (and a
# forged state address is a pointer the plugin would follow).  Now the
# state lives in a per-process registry (plugin/registry.c): the tables
# appear, the same as for the trace without those cmdlines.
set -u
. "$(dirname "$0")/../lib/common.sh"
export PYTHONDONTWRITEBYTECODE=1

W="python3 $TOP/tests/tdat/tdat_writer.py"
F=$TOP/tests/formats/linux-6.18-x86_64.txt
spec() {	# spec EXTRA-CMDLINES...: a small slab trace
	echo "[kallsyms]"
	echo "ffffffff81000000 T _text"
	echo "ffffffff81200000 T kmem_test_alloc"
	echo "ffffffff81201000 T kmem_test_free"
	echo "[cmdlines]"
	echo "100 worker"
	for c in "$@"; do echo "$c"; done
	echo "[buffer]"
	local i
	for i in $(seq 1 50); do
		echo "0 $((1000000 + i * 1000)) kmalloc pid=100 call_site=0xffffffff81200010 ptr=$((0xffff888000000000 + i * 64)) bytes_req=40 bytes_alloc=64 gfp_flags=0xcc0 node=-1"
	done
	for i in $(seq 1 30); do
		echo "1 $((2000000 + i * 1000)) kfree pid=100 call_site=0xffffffff81201010 ptr=$((0xffff888000000000 + i * 64))"
	done
}
spec >"$WORK/plain.spec"
spec "-1073741823 kmem-stat-reported" "-1073741824 kmem-stat-state:0x4141414141414141" \
	"-1200000000 kmem-stat-state:0x10" >"$WORK/forged.spec"
for v in plain forged; do
	$W --spec "$WORK/$v.spec" --formats "$F" --version 6 -o "$WORK/$v.dat" 2>"$WORK/$v.werr" ||
		{ fail plugin-state "tdat_writer.py: $(head -3 "$WORK/$v.werr")"; finish; }
	report -i "$WORK/$v.dat" -O kmem:stat -O "kmem:json=$WORK/$v.json" \
		-O "kmem:output=$WORK/$v.txt" >"$WORK/$v.listing" 2>"$WORK/$v.err"
	echo "$?" >"$WORK/$v.rc"
done
check plugin-state-forged-exit test "$(cat "$WORK/forged.rc")" -eq 0
check plugin-state-forged-tables grep -q "kmem statistics" "$WORK/forged.txt"
check plugin-state-forged-json test -s "$WORK/forged.json"
# the same numbers as without the forged cmdlines (the title names the file)
sed 's/forged\.dat/X.dat/' "$WORK/forged.txt" >"$WORK/f.txt"
sed 's/plain\.dat/X.dat/' "$WORK/plain.txt" >"$WORK/p.txt"
check plugin-state-forged-same-tables cmp -s "$WORK/f.txt" "$WORK/p.txt"
check plugin-state-allocs python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["slab"]["summary"]["allocs"] == 50, d["slab"]["summary"]
' "$WORK/forged.json"
finish
