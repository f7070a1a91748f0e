#!/bin/bash
# The references' cache (tests/ref/refcache.py): a result found again is
# byte for byte the reference's own, computed with no cache; another
# file's content under the same path, another current directory and a
# failure are not found; a run that writes a file (--save) is not
# stored; the test's temporary directory is put back into the output.
set -u
. "$(dirname "$0")/../lib/common.sh"

REF=$TOP/tests/ref
C=$WORK/cache
mkdir -p "$WORK/d"
stored() { find "$C" -type f 2>/dev/null | wc -l; }
mapfile -t S < <(samples | head -n 2)
[ ${#S[@]} -eq 2 ] || { skip refcache "fewer than 2 samples"; finish; }

# one reference run: $1 the output, then the reference's arguments
ref() {
	local out=$1
	shift
	TRACE_KMEM_REFCACHE=$C python3 "$@" >"$out" 2>"$out.err"
}
nocache() {
	local out=$1
	shift
	TRACE_KMEM_REFCACHE= python3 "$@" >"$out" 2>"$out.err"
}

cp "${S[0]}" "$WORK/d/x.dat"
cd "$WORK" || exit 2
nocache "$WORK/a0" "$REF/kmem_ref.py" d/x.dat
ref "$WORK/a1" "$REF/kmem_ref.py" d/x.dat
check refcache-stored test "$(stored)" -eq 1
ref "$WORK/a2" "$REF/kmem_ref.py" d/x.dat
check refcache-found-once test "$(stored)" -eq 1
check refcache-same-as-computed cmp "$WORK/a0" "$WORK/a1"
check refcache-found-same cmp "$WORK/a0" "$WORK/a2"
check refcache-path-back grep -q '"file": "d/x.dat"' "$WORK/a2"
# the stored result is what is printed: changed in the store (same
# length), the change shows
e=$(find "$C" -type f)
sed -i '2,$s|"file": "d/x.dat"|"file": "d/y.dat"|' "$e"
ref "$WORK/a3" "$REF/kmem_ref.py" d/x.dat
check refcache-found-is-read grep -q '"file": "d/y.dat"' "$WORK/a3"
sed -i '2,$s|"file": "d/y.dat"|"file": "d/x.dat"|' "$e"
ref "$WORK/a4" "$REF/kmem_ref.py" d/x.dat
check refcache-found-restored cmp "$WORK/a0" "$WORK/a4"

# the same key from the parent directory: the path is another
cd "$WORK/d" || exit 2
ref "$WORK/b1" "$REF/kmem_ref.py" x.dat
check refcache-other-cwd-stored test "$(stored)" -eq 2
check refcache-other-cwd-path grep -q '"file": "x.dat"' "$WORK/b1"

# another file's content under the same path: computed again
cp "${S[1]}" "$WORK/d/x.dat"
nocache "$WORK/c0" "$REF/kmem_ref.py" x.dat
ref "$WORK/c1" "$REF/kmem_ref.py" x.dat
check refcache-content-counts test "$(stored)" -eq 3
check refcache-content-same-as-computed cmp "$WORK/c0" "$WORK/c1"

# a failure is not stored; neither is a run that writes a file
ref "$WORK/e1" "$REF/kmem_ref.py" no-such.dat
check refcache-failure-status test $? -ne 0
check refcache-failure-not-stored test "$(stored)" -eq 3
ref "$WORK/p1" "$REF/kmem_page_ref.py" --save "$WORK/saved.json" x.dat
check refcache-save-written test -s "$WORK/saved.json"
check refcache-save-not-stored test "$(stored)" -eq 3

# the temporary directory: taken out of the stored result, put back
cd "$TOP" || exit 2
ref "$WORK/w1" "$REF/kmem_ref.py" "$WORK/d/x.dat"
check refcache-work-stored-without-it bash -c "! grep -rqF '$WORK' '$C'"
check refcache-work-put-back grep -qF "\"file\": \"$WORK/d/x.dat\"" "$WORK/w1"
other=$(mktemp -d /tmp/kmem-test.XXXXXX)
mkdir -p "$other/d"
cp "$WORK/d/x.dat" "$other/d/x.dat"
n=$(stored)
TRACE_KMEM_TEST_WORK=$other ref "$WORK/w2" "$REF/kmem_ref.py" "$other/d/x.dat"
check refcache-work-found-again test "$(stored)" -eq "$n"
check refcache-work-other-put-back grep -qF "\"file\": \"$other/d/x.dat\"" "$WORK/w2"
TRACE_KMEM_TEST_WORK=$other nocache "$WORK/w0" "$REF/kmem_ref.py" "$other/d/x.dat"
check refcache-work-same-as-computed cmp "$WORK/w0" "$WORK/w2"
rm -rf "$other"
finish
