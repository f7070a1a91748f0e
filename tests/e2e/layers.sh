#!/bin/bash
# lib/'s include layers and what may include what (scripts/layers.py):
# its self-test on trees of its own, then this tree, whose violations
# must be those of tests/layers.allow, every one of them still there.
set -u
. "$(dirname "$0")/../lib/common.sh"

L=$TOP/scripts/layers.py
TMPDIR=$WORK python3 "$L" --selftest >"$WORK/self.out" 2>&1
rc=$?
cat "$WORK/self.out"
if [ "$rc" -eq 0 ]; then
	pass layers-selftest
else
	fail layers-selftest "scripts/layers.py --selftest: exit $rc (see above)"
fi
python3 "$L" --root "$TOP" --allow "$TOP/tests/layers.allow" >"$WORK/check.out" 2>&1
rc=$?
cat "$WORK/check.out"
case $rc in
0) pass layers ;;
1) fail layers "an include not in tests/layers.allow, a line of it that no longer happens, or a cycle (above)" ;;
*) fail layers "scripts/layers.py: exit $rc (above)" ;;
esac
finish
