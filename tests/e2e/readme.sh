#!/bin/bash
# The README's example outputs are what the code prints now
# (tests/readme/examples.py; make readme rewrites them), and its
# pictures are there, PNG, under 200 KB each.
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
for png in $(grep -o '](Documentation/pictures/[a-z0-9_-]*\.png)' "$TOP/README.md" |
	sed 's/^](//; s/)$//'); do
	check "readme-picture-$(basename "$png" .png)" python3 -c '
import os, sys
p = sys.argv[1]
assert open(p, "rb").read(8) == b"\x89PNG\r\n\x1a\n", "not a PNG"
assert os.path.getsize(p) < 200 * 1024, os.path.getsize(p)' "$TOP/$png"
done
check readme-two-pictures test "$(grep -c '](Documentation/pictures/.*\.png)' "$TOP/README.md")" -ge 2
finish
