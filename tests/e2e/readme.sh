#!/bin/bash
# The README's example outputs are what the code prints now
# (tests/readme/examples.py; make readme rewrites them).
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail readme "no $TK (run make)"; finish; }
python3 "$TOP/tests/readme/examples.py" --tk "$TK" >"$WORK/ex.out" 2>&1
rc=$?
cat "$WORK/ex.out"
grep -q '^PASS readme-example' "$WORK/ex.out" || fail readme-examples "none checked: $(tail -2 "$WORK/ex.out")"
[ "$rc" -eq 0 ] || failures=$((failures + $(grep -c '^FAIL' "$WORK/ex.out") + 0))
[ "$rc" -eq 0 ] || [ "$(grep -c '^FAIL' "$WORK/ex.out")" -gt 0 ] || fail readme-examples "examples.py: exit $rc"
finish
