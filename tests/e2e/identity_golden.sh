#!/bin/bash
# test: slow
# sanitizers: skip (a byte-identity matrix)
# Every output of this build on the bundled traces is byte for byte the
# baseline's: scripts/identity.sh snapshot (trace-kmem stat with 23
# option sets on every sample: tables, stderr, JSON, folded stacks; the
# plugin's statistics, stderr, JSON and folded stacks; trace-kmem diff,
# plot and topology; the KernelShark plugin through kshark_kmem), each
# file's SHA-256 against tests/golden/identity.sha256, the sums of the
# commit that last changed that file.  A change that must not alter any
# output (a refactor) keeps this passing; one that means to changes the
# golden sums in the same commit:
#
#   scripts/identity.sh snapshot /tmp/new &&
#   scripts/identity.sh sums /tmp/new >tests/golden/identity.sha256
#
# On a failure the differing outputs are named, the snapshot is kept in
# tests/out/identity_golden.snapshot, and the commands that make the
# baseline's outputs from a worktree of the baseline commit, for a diff,
# are printed.  Outputs of a part that cannot run here (kshark_kmem
# without libkshark-dev) are SKIPs.  A self-check makes sure a changed or
# a missing output is caught: one output of a copy of the snapshot is
# changed, another removed, and both must be reported.
set -u
. "$(dirname "$0")/../lib/common.sh"

BDIR=$(dirname "$PLUGIN_DIR")
ID=$TOP/scripts/identity.sh
GOLD=$TOP/tests/golden/identity.sha256
[ -x "$BDIR/trace-kmem" ] || { fail identity-golden "no $BDIR/trace-kmem (run make)"; finish; }
[ -s "$GOLD" ] || { fail identity-golden "no $GOLD"; finish; }

t0=$EPOCHREALTIME
if ! "$ID" snapshot "$WORK/snap" "$BDIR" >"$WORK/snap.log" 2>&1; then
	fail identity-golden-snapshot "scripts/identity.sh snapshot: $(tail -3 "$WORK/snap.log" | tr '\n' ' ')"
	finish
fi
"$ID" sums "$WORK/snap" >"$WORK/sums"
echo "snapshot: $(wc -l <"$WORK/sums") outputs in $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"

# golden_check SUMS SKIPPED: SUMS (identity.sh sums) against the golden
# sums, a PASS, FAIL or SKIP line for each part (stat, plugin, diff, ...,
# the first directory of an output's name); a part that SKIPPED names
# (its line "PART: why") and that made no output is skipped.  The names
# of the outputs that differ, are missing or are not in the golden sums
# go to $WORK/differ.
golden_check() {
	awk -v skipped="$2" -v differ="$WORK/differ" '
	function part(name) { sub(/\/.*/, "", name); return name }
	BEGIN {
		while ((getline l < skipped) > 0) {
			p = l; sub(/:.*/, "", p)
			if (p !~ /\//) { why[p] = l; sub(/^[^:]*: /, "", why[p]) }
		}
		printf "" > differ
	}
	FILENAME != ARGV[1] {
		gold[$2] = $1; parts[part($2)]++; total[part($2)]++
		next
	}
	{ got[$2] = $1; parts[part($2)]++ }
	END {
		for (n in gold) {
			p = part(n)
			if (!(n in got)) {
				if (p in why) { skip[p]++; continue }
				bad[p]++; print "missing: " n > differ
			} else if (got[n] != gold[n]) {
				bad[p]++; print "differs: " n > differ
			} else
				ok[p]++
		}
		for (n in got)
			if (!(n in gold)) {
				bad[part(n)]++; print "new, not in the golden sums: " n > differ
			}
		for (p in parts) {
			if (bad[p])
				printf "FAIL identity-%s: %d of %d outputs are not the baseline'"'"'s\n", p, bad[p], total[p]
			else if (skip[p] && !ok[p])
				printf "SKIP identity-%s: %s\n", p, why[p]
			else if (skip[p])
				printf "FAIL identity-%s: %d outputs made, %d skipped: %s\n", p, ok[p], skip[p], why[p]
			else
				printf "PASS identity-%s (%d outputs)\n", p, ok[p]
		}
	}' "$1" <(grep -v '^#' "$GOLD") | sort -k2
}

golden_check "$WORK/sums" "$WORK/snap/SKIPPED" >"$WORK/result"
cat "$WORK/result"
failures=$((failures + $(grep -c '^FAIL ' "$WORK/result")))
if [ -s "$WORK/differ" ]; then
	sort "$WORK/differ" | head -n 40
	[ "$(wc -l <"$WORK/differ")" -gt 40 ] && echo "... ($(wc -l <"$WORK/differ") in all)"
	keep=$TOP/tests/out/identity_golden.snapshot
	rm -rf "$keep"
	mkdir -p "$TOP/tests/out" && cp -r "$WORK/snap" "$keep"
	base=$(git -C "$TOP" log -1 --format=%h -- tests/golden/identity.sha256 2>/dev/null)
	echo "this snapshot is kept in $keep; the baseline's outputs, from a worktree"
	echo "of the commit of the golden sums (${base:-the last to change tests/golden/identity.sha256}), for a diff:"
	echo "  git -C $TOP worktree add /tmp/identity-base ${base:-COMMIT} &&"
	echo "  make -C /tmp/identity-base all tests &&"
	echo "  /tmp/identity-base/scripts/identity.sh snapshot /tmp/identity-base.out &&"
	echo "  $ID compare -u /tmp/identity-base.out $keep"
fi

# the self-check: a copy with one output changed and one removed
cp -r "$WORK/snap" "$WORK/tampered"
a=stat/slab-pingpong/default.out b=plot/slab-fork-exec.svg
echo x >>"$WORK/tampered/$a"
rm -f "$WORK/tampered/$b"
"$ID" compare "$WORK/snap" "$WORK/snap" >/dev/null 2>&1
check identity-self-check-same test $? -eq 0
"$ID" compare "$WORK/snap" "$WORK/tampered" >"$WORK/cmp.out" 2>&1
check identity-self-check-compare-fails test $? -eq 1
check identity-self-check-compare-names diff <(grep -E '^(differs|only in)' "$WORK/cmp.out" | sort) \
	<(printf 'differs: %s\nonly in %s/%s\n' "$a" "$WORK/snap" "$b" | sort)
"$ID" sums "$WORK/tampered" >"$WORK/sums.tampered"
mv "$WORK/differ" "$WORK/differ.real" 2>/dev/null
golden_check "$WORK/sums.tampered" "$WORK/snap/SKIPPED" >"$WORK/result.tampered"
check identity-self-check-golden-fails-stat grep -q '^FAIL identity-stat: ' "$WORK/result.tampered"
check identity-self-check-golden-fails-plot grep -q '^FAIL identity-plot: ' "$WORK/result.tampered"
check identity-self-check-golden-names-differs grep -qFx "differs: $a" "$WORK/differ"
check identity-self-check-golden-names-missing grep -qFx "missing: $b" "$WORK/differ"
finish
