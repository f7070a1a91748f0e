#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1
#
# make_cases.sh OUTDIR: trace.dat files of machines we do not have, made
# with tdat_writer.py from workload.py specs, into OUTDIR (never into the
# source tree).  For every case NAME:
#   NAME.spec         the workload (tdat_writer.py's input)
#   NAME.dat          the trace
#   NAME.truth.json   the ground truth: every record written
# and, for a case with a buffer instance, one single-buffer copy per
# buffer (the buffer's records as the top-level buffer, same metadata):
#   NAME.buf-top.dat / NAME.buf-top.truth.json, NAME.buf-INST.dat / ...
# and, for a case whose options sections are compressed or whose formats
# have field lines without "signed:" (2.6.32), a twin for the references
# with plain options sections and "signed:" added (trace-cmd convert, the
# references' first step, cannot copy compressed options sections;
# kmem_page_ref.py reads only field lines with "signed:"):
#   NAME.twin.dat / NAME.twin.truth.json
# OUTDIR/cases lists them, one line per case, tab separated:
#   NAME  FILE  TRUTH  COMPRESSION  BUFFERS  TWIN  DESCRIPTION
# BUFFERS: "-" for a single buffer, else "top,INST" (the companions are
# NAME.buf-top.* and NAME.buf-INST.*, made for the references: with the
# twin's options); TWIN "-" or the twin's path.  A case that cannot be made
# here (zstd without libzstd) is listed with FILE "-" and the reason.
# Takes a few seconds; every file is well under 1 MB.
set -eu

if [ $# -ne 1 ]; then
	echo "usage: $0 OUTDIR" >&2
	exit 2
fi
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
OUT=$(realpath -m "$1")
case "$OUT/" in
"$(realpath "$TOP")"/*)
	echo "make_cases.sh: $OUT is inside the source tree; give a directory elsewhere" >&2
	exit 2 ;;
esac
mkdir -p "$OUT"

export PYTHONDONTWRITEBYTECODE=1	# no __pycache__ in the source tree
# (used through eval and ${!name})
# shellcheck disable=SC2034
W=$HERE/workload.py
# shellcheck disable=SC2034
T=$HERE/tdat_writer.py
FM=$TOP/tests/formats
FT=$HERE/formats
# shellcheck disable=SC2034
F618="$FM/linux-6.18-x86_64.txt $FM/page-linux-6.18-x86_64.txt $FT/page-free-linux-6.18-x86_64.txt"
# shellcheck disable=SC2034
FPPC="$FM/linux-6.1-ppc32.txt $FT/page-linux-6.1-ppc32.txt"
# shellcheck disable=SC2034
F2632="$FM/linux-2.6.32-x86_64.txt $FM/page-linux-2.6.32-x86_64.txt"
# shellcheck disable=SC2034
F515="$FM/linux-5.15-x86_64.txt"
# shellcheck disable=SC2034
FREL="$FM/synthetic-rel_loc-x86_64.txt $FM/page-linux-6.18-x86_64.txt $FT/page-free-linux-6.18-x86_64.txt"

if python3 -c "import sys; sys.path.insert(0, '$HERE'); import tdat_writer; sys.exit(not tdat_writer.zstd_available())"; then
	ZSTD=1
else
	ZSTD=
fi

# name | formats | workload options | writer options | instance | what
CASES=(
"le64-v6|F618|--seed 11|--version 6||x86_64, format 6, 6.18 slab + page events with kernel_stack"
"le64-v7-none|F618|--seed 11|--version 7 --compression none||the same records, format 7 uncompressed"
"le64-v7-zlib|F618|--seed 11|--version 7 --compression zlib||the same, format 7 zlib (metadata blocks, 10-page chunks)"
"le64-v7-zstd|F618|--seed 11|--version 7 --compression zstd||the same, format 7 zstd"
"be64-s390x-v6|F618|--seed 12|--version 6 --endian big --uname 'Linux tdat 6.18.0 s390x'||big-endian 64-bit (s390x), 6.18 formats, format 6"
"be64-s390x-v7-zlib|F618|--seed 12|--version 7 --endian big --compression zlib --compress-options --chunk-pages 3 --uname 'Linux tdat 6.18.0 s390x'||the same big-endian records, zlib, compressed options sections, 3-page chunks"
"be32-ppc32-v6|FPPC|--seed 13 --long-size 4 --cpus 2|--version 6 --endian big --long-size 4 --uname 'Linux tdat 6.1.0 ppc'||big-endian 32-bit powerpc, 6.1 formats, format 6"
"be32-ppc32-v7-zstd|FPPC|--seed 13 --long-size 4 --cpus 2|--version 7 --endian big --long-size 4 --compression zstd --uname 'Linux tdat 6.1.0 ppc'||the same ppc32 records, format 7 zstd"
"le32-armv7-v7|FPPC|--seed 14 --long-size 4 --cpus 4|--version 7 --long-size 4 --uname 'Linux tdat 6.1.0 armv7l'||little-endian 32-bit long (armv7), 6.1 32-bit formats"
"le64-user32|F618|--seed 25|--version 7 --long-size 4 --kernel-long-size 8 --compression zstd||a 64-bit kernel traced by a 32-bit trace-cmd: 4-byte long in the file header, 8-byte ring-buffer longs"
"le64-ppc64le-64k|F618|--seed 15 --cpus 8|--version 7 --page-size 65536 --compression zstd --chunk-pages 1 --uname 'Linux tdat 6.18.0 ppc64le'||64 KiB ring-buffer pages (ppc64le), 8 CPUs, one-page chunks"
"be64-sparc64-8k|F618|--seed 16|--version 6 --endian big --page-size 8192 --align8 --uname 'Linux tdat 6.18.0 sparc64'||8 KiB pages, big-endian, every event with a length word (RB_FORCE_8BYTE_ALIGNMENT)"
"le64-2.6.32|F2632|--seed 17|--version 6 --pad-pages --page-ts-skew --old-header-event --uname 'Linux tdat 2.6.32 x86_64'||2.6.32 formats (common_lock_depth, no signed:, page pointers, fixed caller[8]); padded pages, skewed page timestamps"
"le64-5.15|F515|--seed 18|--version 7 --compression zstd --discard 40 --abs-stamps --uname 'Linux tdat 5.15.0 x86_64'||5.15 slab formats (name on frees only); discarded events, absolute time stamps"
"le64-lost|F618|--seed 19 --lost 8|--version 7||lost events: pages with the missed-events flag, counts stored or not"
"le64-instance-v6|F618|--seed 20 --instance kmemslab|--version 6|kmemslab|a buffer instance (slab events) beside the top-level buffer (page events), format 6"
"be64-instance-v7|F618|--seed 21 --instance kmemslab|--version 7 --endian big --compression zlib|kmemslab|the same on big-endian, format 7 zlib"
"le64-empty-top|F618|--seed 22 --instance kmemall --empty-top|--version 7 --compression zstd|kmemall|an empty top-level buffer, every record in instance kmemall"
"le64-rel_loc|FREL|--seed 23|--version 7||__rel_loc names (synthetic 6.18 layout)"
"le64-tsc|F618|--seed 24|--version 7 --clock x86-tsc --tsc2nsec 1398101,22,77777 --ts-offset 1000000000||x86-tsc clock: TSC2NSEC (mult 1398101, shift 22) and OFFSET options"
)

# The spec of a case: cases with the same formats and workload options
# share one (made once, copied to NAME.spec).
spec_key() {
	local name fvar wopts rest
	IFS='|' read -r name fvar wopts rest <<<"$1"
	printf '%s' "$fvar $wopts" | cksum | cut -d' ' -f1
}

make_spec() {
	local line=$1 name fvar wopts rest key
	IFS='|' read -r name fvar wopts rest <<<"$line"
	key=$(spec_key "$line")
	[ -e "$OUT/.spec-$key" ] && return 0
	: >"$OUT/.spec-$key"
	eval "python3 \"\$W\" --formats ${!fvar} $wopts" >"$OUT/.spec-$key.tmp" &&
		mv "$OUT/.spec-$key.tmp" "$OUT/.spec-$key.txt"
}

# write NAME FILE TRUTH WRITER-OPTIONS...: one tdat_writer.py run
write() {
	# shellcheck disable=SC2034
	local name=$1 file=$2 truth=$3 formats=$4
	shift 4
	eval "python3 \"\$T\" --spec \"\$OUT/\$name.spec\" -o \"\$file\" --truth \"\$truth\" --formats $formats $*"
}

make_one() {
	local line=$1 name fvar wopts topts inst what formats comp bufs b only plain
	IFS='|' read -r name fvar wopts topts inst what <<<"$line"
	formats=${!fvar}
	comp=none
	case " $topts " in *" --compression zlib "*) comp=zlib ;; *" --compression zstd "*) comp=zstd ;; esac
	if [ "$comp" = zstd ] && [ -z "$ZSTD" ]; then
		printf '%s\t-\t-\t%s\t-\t-\t%s\n' "$name" "$comp" "no libzstd.so.1 here" >"$OUT/$name.line"
		return 0
	fi
	cp "$OUT/.spec-$(spec_key "$line").txt" "$OUT/$name.spec" || return 1
	write "$name" "$OUT/$name.dat" "$OUT/$name.truth.json" "$formats" "$topts" || return 1
	# The references' copies: trace-cmd convert (their first step) cannot
	# copy compressed options sections, and kmem_page_ref.py reads only
	# field lines with "signed:" (2.6.33 and later): the references read
	# a twin without the former, with the latter added (the same records;
	# foreign.sh checks both against the truth)
	plain=${topts//--compress-options/}
	# shellcheck disable=SC2086
	if grep -h '^[[:space:]]*field:' $formats | grep -qv 'signed:'; then
		plain="$plain --add-signed"
	fi
	twin=-
	bufs=-
	if [ -n "$inst" ]; then
		bufs="top,$inst"
		for b in top "$inst"; do
			only=$b
			[ "$b" = top ] && only=
			write "$name" "$OUT/$name.buf-$b.dat" "$OUT/$name.buf-$b.truth.json" "$formats" "$plain --only-buffer '$only'" || return 1
		done
	elif [ "$plain" != "$topts" ]; then
		twin=$OUT/$name.twin.dat
		write "$name" "$twin" "$OUT/$name.twin.truth.json" "$formats" "$plain" || return 1
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$OUT/$name.dat" "$OUT/$name.truth.json" "$comp" "$bufs" "$twin" "$what" >"$OUT/$name.line"
}

max=$(nproc 2>/dev/null || echo 2)
[ "$max" -gt 4 ] && max=4
# run_all FUNC: FUNC CASE-LINE for every case, $max at a time
run_all() {
	local fn=$1 c p pids=() rc=0
	for c in "${CASES[@]}"; do
		while [ "$(jobs -rp | wc -l)" -ge "$max" ]; do
			wait -n || true
		done
		"$fn" "$c" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || rc=1
	done
	return $rc
}
fail=0
rm -f "$OUT"/.spec-*
# (one spec per key: made by the first case that has it)
declare -A seen=()
SPECS=()
for c in "${CASES[@]}"; do
	k=$(spec_key "$c")
	[ -n "${seen[$k]:-}" ] && continue
	seen[$k]=1
	SPECS+=("$c")
done
saved=("${CASES[@]}")
CASES=("${SPECS[@]}")
run_all make_spec || fail=1
CASES=("${saved[@]}")
run_all make_one || fail=1
rm -f "$OUT"/.spec-*
: >"$OUT/cases"
for c in "${CASES[@]}"; do
	name=${c%%|*}
	if [ -f "$OUT/$name.line" ]; then
		cat "$OUT/$name.line" >>"$OUT/cases"
		rm -f "$OUT/$name.line"
	else
		echo "make_cases.sh: case $name was not made" >&2
		fail=1
	fi
done
exit $fail
