#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1
#
# make_seeds.sh OUTDIR: the seed corpora of the fuzz targets, made at
# build time (nothing big is committed):
#
#   OUTDIR/reader/   small whole trace.dat files
#     - written by tests/tdat/tdat_writer.py from tests/tdat/workload.py
#       specs (when tests/tdat/ is there): v6, v7 uncompressed, zlib and
#       zstd, compressed options, one page per chunk, big-endian, 32-bit,
#       4-byte kernel longs, 8-byte aligned events, padded pages, skewed
#       page stamps, absolute stamps, discarded events, old header_event,
#       TSC2NSEC, OFFSET, lost events, buffer instances, empty top buffer,
#       2.6.32 and ppc32 formats; and whatever tests/tdat/make_cases.sh
#       writes, when it is there;
#     - cut from sample-data/*.dat (when trace-cmd is installed): the
#       first records (trace-cmd split), as version 6 without compression
#       (trace-cmd convert), shrunk to the kmem formats and a few hundred
#       kallsyms lines (shrink_v6.py), and that again as version 7,
#       uncompressed and zstd (trace-cmd convert).
#   OUTDIR/records/  inputs of fuzz_records (records_seeds.py)
#
# Every seed is under 256 KB.  Prints one line of counts.
set -u
cd "$(dirname "$0")/../.." || exit 2
out=${1:?usage: make_seeds.sh OUTDIR}
mkdir -p "$out/reader" "$out/records"
tmp=$(mktemp -d /tmp/kmem-fuzz-seeds.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
MAX=262144

keep() {	# keep FILE NAME: into the reader corpus if small enough
	local size
	[ -s "$1" ] || return 0
	size=$(stat -c %s "$1")
	[ "$size" -le "$MAX" ] && cp "$1" "$out/reader/$2"
	return 0
}

# --- tdat_writer.py files --------------------------------------------
W=tests/tdat/tdat_writer.py
WL=tests/tdat/workload.py
F=tests/formats
TF=tests/tdat/formats
if [ -f "$W" ] && [ -f "$WL" ] && command -v python3 >/dev/null; then
	modern="$F/linux-6.18-x86_64.txt $F/page-linux-6.18-x86_64.txt"
	[ -f "$TF/page-free-linux-6.18-x86_64.txt" ] &&
		modern="$modern $TF/page-free-linux-6.18-x86_64.txt"
	old="$F/linux-2.6.32-x86_64.txt $F/page-linux-2.6.32-x86_64.txt"
	ppc="$F/linux-6.1-ppc32.txt"
	[ -f "$TF/page-linux-6.1-ppc32.txt" ] &&
		ppc="$ppc $TF/page-linux-6.1-ppc32.txt"
	wl() {	# wl NAME FORMATS ARGS...: a spec
		local name=$1 fmts=$2
		shift 2
		# shellcheck disable=SC2086
		python3 "$WL" --formats $fmts --cpus 2 --records 100 "$@" \
			>"$tmp/$name.spec" 2>/dev/null
	}
	wl m "$modern" --lost 2
	wl mi "$modern" --instance kmemslab
	wl me "$modern" --instance kmemslab --empty-top
	wl o "$old" --lost 1
	wl p "$ppc" --long-size 4 --lost 1
	wr() {	# wr SPEC FORMATS OUT ARGS...
		local spec=$1 fmts=$2 name=$3
		shift 3
		# shellcheck disable=SC2086
		python3 "$W" --spec "$tmp/$spec.spec" -o "$tmp/$name.dat" \
			--formats $fmts "$@" >/dev/null 2>&1 &&
			keep "$tmp/$name.dat" "w-$name.dat"
	}
	wr m "$modern" v6 --version 6
	wr m "$modern" v7 --version 7
	wr m "$modern" v7-zlib --compression zlib
	wr m "$modern" v7-zstd --compression zstd
	wr m "$modern" v7-zstd-opts --compression zstd --compress-options
	wr m "$modern" v7-zlib-opts --compression zlib --compress-options
	wr m "$modern" v7-zstd-chunk1 --compression zstd --chunk-pages 1
	wr m "$modern" v7-big --endian big
	wr m "$modern" v6-big --version 6 --endian big
	wr m "$modern" v7-klong4 --kernel-long-size 4
	wr m "$modern" v7-long4 --long-size 4 --kernel-long-size 4
	wr m "$modern" v7-align8 --align8
	wr m "$modern" v6-pad --version 6 --pad-pages
	wr m "$modern" v7-fill --page-fill 300
	wr m "$modern" v7-skew --page-ts-skew --seed 3
	wr m "$modern" v7-abs --abs-stamps
	wr m "$modern" v7-discard --discard 3
	wr m "$modern" v7-oldhdr --old-header-event
	wr m "$modern" v7-tsc --tsc2nsec 3,1,100 --clock x86-tsc
	wr m "$modern" v6-offset --version 6 --ts-offset 123456789
	wr m "$modern" v7-page8k --page-size 8192
	wr mi "$modern" v6-inst --version 6
	wr mi "$modern" v7-inst
	wr mi "$modern" v7-zstd-inst --compression zstd
	wr me "$modern" v6-inst-empty --version 6
	wr me "$modern" v7-zlib-inst-empty --compression zlib
	wr o "$old" v6-2.6.32 --version 6
	wr o "$old" v7-zstd-2.6.32 --compression zstd
	wr p "$ppc" v6-ppc32 --version 6 --endian big --long-size 4
	wr p "$ppc" v7-zlib-ppc32 --compression zlib --endian big \
		--long-size 4
fi
if [ -f tests/tdat/make_cases.sh ]; then
	mkdir -p "$tmp/cases"
	bash tests/tdat/make_cases.sh "$tmp/cases" >/dev/null 2>&1
	for f in "$tmp"/cases/*.dat "$tmp"/cases/*/*.dat; do
		[ -f "$f" ] || continue
		keep "$f" "c-$(basename "$(dirname "$f")")-$(basename "$f")"
	done
fi

# --- sample-data, cut and shrunk -------------------------------------
if command -v trace-cmd >/dev/null && command -v python3 >/dev/null; then
	for s in sample-data/*.dat; do
		[ -f "$s" ] || continue
		n=$(basename "$s" .dat)
		d=$tmp/$n
		mkdir -p "$d"
		trace-cmd split -i "$s" -o "$d/cut.dat" -e 150 >/dev/null 2>&1
		[ -f "$d/cut.dat.1" ] && mv "$d/cut.dat.1" "$d/cut.dat"
		[ -f "$d/cut.dat" ] || continue
		trace-cmd convert -i "$d/cut.dat" -o "$d/v6big.dat" \
			--file-version 6 --compression none >/dev/null 2>&1 ||
			continue
		python3 tests/fuzz/shrink_v6.py "$d/v6big.dat" "$d/v6.dat" \
			--kallsyms 300 2>/dev/null || continue
		keep "$d/v6.dat" "s-$n-v6.dat"
		trace-cmd convert -i "$d/v6.dat" -o "$d/v7.dat" \
			--file-version 7 --compression none >/dev/null 2>&1 &&
			keep "$d/v7.dat" "s-$n-v7.dat"
		trace-cmd convert -i "$d/v6.dat" -o "$d/v7z.dat" \
			--file-version 7 --compression zstd >/dev/null 2>&1 &&
			keep "$d/v7z.dat" "s-$n-v7-zstd.dat"
	done
fi

# --- fuzz_records inputs ---------------------------------------------
python3 tests/fuzz/records_seeds.py "$out/records" 2>/dev/null

echo "seeds: $(find "$out/reader" -type f | wc -l) reader," \
     "$(find "$out/records" -type f | wc -l) records in $out"
