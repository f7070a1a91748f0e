#!/bin/bash
# Next to the distribution's plugin_kmem.so: ours loaded later wins and
# counts everything; a plugin_kmem.so loaded after ours takes the slab
# events, and the tables must say so instead of printing partial numbers.
. "$(dirname "$0")/../lib/common.sh"

f=$(smallest_sample)
[ -n "$f" ] || { fail coexist "no sample-data/*.dat"; finish; }
sys=$(pkg-config --variable=libdir libtraceevent)/traceevent/plugins
[ -f "$sys/plugin_kmem.so" ] || { fail coexist "no $sys/plugin_kmem.so"; finish; }
stock_allocs=$(trace-cmd report -i "$f" | grep -cE ': (kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node): ')

# prints: allocation events counted, "complete" as expected?, #handled elsewhere
allocs_of() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["slab"]
lossless = d["events_lost"] == 0 and d["lost_unknown"] == 0
print(s["summary"]["allocs"] + s["summary"]["alloc_failures"],
      s["complete"] == (lossless and not s["handled_elsewhere"]),
      len(s["handled_elsewhere"]))' "$1"
}

# 1. TRACEEVENT_PLUGIN_DIR, system plugin_kmem.so present
report -i "$f" -O kmem:stat -O kmem:json="$WORK/env.json" >"$WORK/env.out" 2>&1
read -r n complete elsewhere < <(allocs_of "$WORK/env.json")
check coexist-envdir-counts test "$n" = "$stock_allocs"
check coexist-envdir-complete test "$complete $elsewhere" = "True 0"
check coexist-envdir-no-note bash -c "! grep -q 'printed by another plugin' '$WORK/env.out'"

# 2. per-user install (~/.local/lib/traceevent/plugins)
mkdir -p "$HOME/.local/lib/traceevent/plugins"
cp "$PLUGIN_DIR/plugin_kmem.so" "$HOME/.local/lib/traceevent/plugins/"
trace-cmd report -i "$f" -O kmem:stat -O kmem:json="$WORK/user.json" >/dev/null 2>&1
read -r n complete elsewhere < <(allocs_of "$WORK/user.json")
check coexist-user-counts test "$n" = "$stock_allocs"
check coexist-user-complete test "$complete $elsewhere" = "True 0"
rm -rf "$HOME/.local"

# 2b. two copies of ours (TRACEEVENT_PLUGIN_DIR and ~/.local): one report
mkdir -p "$HOME/.local/lib/traceevent/plugins"
cp "$PLUGIN_DIR/plugin_kmem.so" "$HOME/.local/lib/traceevent/plugins/"
report -i "$f" -O kmem:stat -O kmem:json="$WORK/two.json" >"$WORK/two.out" 2>&1
check coexist-two-copies-one-report test "$(grep -c '^ kmem statistics: ' "$WORK/two.out")" -eq 1
cmp -s "$WORK/env.json" "$WORK/two.json" ||
	diff "$WORK/env.json" "$WORK/two.json" | head -20
check coexist-two-copies-same-json cmp -s "$WORK/env.json" "$WORK/two.json"
rm -rf "$HOME/.local"

# 3. a copy of the distribution's plugin_kmem.so loads after ours
mkdir -p "$HOME/.local/lib/traceevent/plugins"
cp "$sys/plugin_kmem.so" "$HOME/.local/lib/traceevent/plugins/"
report -i "$f" -O kmem:stat -O kmem:json="$WORK/late.json" >"$WORK/late.out" 2>&1
check coexist-late-note grep -q 'printed by another plugin loaded after this one' "$WORK/late.out"
check coexist-late-unavailable grep -q 'Slab statistics unavailable' "$WORK/late.out"
read -r n complete elsewhere < <(allocs_of "$WORK/late.json")
check coexist-late-json-incomplete python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["slab"]["complete"])' "$WORK/late.json"
check coexist-late-json-consistent test "$complete" = True
check coexist-late-json-lists-events test "$elsewhere" -ge 1
# the listing is still the stock one
trace-cmd report -i "$f" >"$WORK/stock" 2>&1
report -i "$f" >"$WORK/late-listing" 2>&1
check coexist-late-listing cmp -s "$WORK/stock" "$WORK/late-listing"
finish
