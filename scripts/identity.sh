#!/bin/bash
# identity.sh: every output of a build on the bundled traces, to check a
# change that must not alter any of them (a refactor) byte for byte.
#
#   scripts/identity.sh snapshot DIR [BUILD_DIR]
#	write into DIR (new or empty) the outputs of BUILD_DIR's
#	(default build/) front ends on sample-data/*.dat:
#	  stat/SAMPLE/SET.{out,err,json,folded}
#	      trace-kmem stat SAMPLE with each option set below: stdout,
#	      stderr, --json=FILE and --folded=FILE
#	  plugin/SAMPLE/SET.{stats,err,json,folded}
#	      trace-cmd report -O kmem:stat with the same set: only what
#	      the plugin prints after the listing (the listing differs
#	      between trace-cmd 3.1 and 3.3; tests/e2e/listing.sh checks
#	      it), stderr (where trace-cmd 3.1 and 3.3 print nothing of
#	      their own on these traces), json=FILE and folded=FILE
#	  stat-more/  several inputs, the libtracecmd reader, a filter
#	  diff/ plot/ topology/ kshark/
#	      trace-kmem diff (text and JSON) of three pairs, trace-kmem
#	      plot (SVG and JSON) of two samples, trace-kmem topology of a
#	      made-up sysfs, and tests/kshark/kshark_kmem with the
#	      KernelShark plugin on three samples (with libkshark-dev)
#	  PART/exit-codes  one line per command of PART (stat, plugin,
#	      ...): its output's name, its status
#	  SKIPPED      what could not be run here, and why (not an output)
#   scripts/identity.sh compare [-u] A B
#	the outputs that differ between two snapshots (diff -r), with -u
#	the start of each difference; exits 1 when some differ
#   scripts/identity.sh sums DIR
#	"SHA256  NAME" for every output of a snapshot, sorted by name
#	(tests/golden/identity.sha256; tests/e2e/identity_golden.sh)
#
# What depends on the machine is pinned or normalised: the commands run
# from the top of the tree on relative sample paths, stdout and stderr
# are files (no terminal width, no progress line), LC_ALL=C, HOME is
# empty (no ~/.local plugins), TRACE_KMEM_* are unset but
# TRACE_KMEM_CONVERT=never, the NUMA map is tests/golden/identity-topo.txt
# and topology reads a made-up sysfs (TRACE_KMEM_SYSFS); then the
# snapshot's, the build's and the tree's absolute paths are replaced by
# @OUT@, @BUILD@ and @TOP@ in every output.
#
# The outputs are the same on Debian 12 (trace-cmd 3.1.6, libtraceevent
# 1.7.1, libtracecmd 1.3.1, libkshark 2.2.1), on Debian 13 (3.3.1,
# 1.8.4, 1.5.2, 2.4.0) and with SANITIZE=1, so one set of sums serves
# all three.  What they could differ by: libtraceevent's parsing of the
# print fmts (GFP flag names, in both front ends), libtracecmd (the
# plugin's input, --reader=libtracecmd), libkshark (kshark/), glibc's
# regerror() text (bad-skip) and the page size (topology's ranges).
# Left out: the plugin on traces with buffer instances (it counts them
# with the top-level buffer, as cli_identity.sh says), trace-cmd's
# listing, trace-kmem live (it records this machine).
#
# IDENTITY_JOBS: commands run at once (default: the number of CPUs).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
export LC_ALL=C TZ=UTC

usage() {
	sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
}

# The option sets: NAME WORDS..., the words NAME[=VALUE] of lib/'s
# option table (lib/options.c), given to trace-kmem stat as
# --NAME[=VALUE] and to the plugin as -O kmem:NAME[=VALUE].  Every set
# but plain also writes --json=FILE and --folded=FILE (json and folded
# without a value: trace-kmem writes them to stdout, the plugin json to
# stdout and folded to a file).  The first ones are those of
# tests/lib/optsets.sh (cli_identity.sh), copied so that changing those
# does not change the golden sums; @TOPO@ is tests/golden/identity-topo.txt.
sets=(
	"plain"
	"default"
	"slab-caller slab caller sort=hit lines=5"
	"alloc alloc sort=ptr,bytes lines=0"
	"cache-raw-ip cache raw-ip"
	"page-live page live sort=order,hit"
	"page-per-process page per-process merge-pids"
	"per-process per-process lines=3"
	"page-skip page skip=^(__alloc|alloc_pages|get_page_from) sort=migtype,gfp,page json-rows=all"
	"numa numa=@TOPO@ sort=frag,pingpong,live,peak"
	"json-stdout json"
	"leaks leaks"
	"leaks-1ms leaks=1ms"
	"lifetimes lifetimes"
	"leaks-lifetimes-all leaks lifetimes all"
	"anomalies anomalies"
	"percpu-caller percpu caller"
	"folded-hits folded folded-weight=hits"
	"page-live-per-process page live per-process merge-pids lines=0"
	"width-60-all width=60 all"
	"raw-ip-all raw-ip all"
	"bad-skip page skip=("
	"bad-sort sort=nosuch"
)
# The plugin costs a trace-cmd listing a run (~0.4 s): every set on one
# sample of each allocator, and on the others the default report and
# every table (leaks lifetimes all), each with its JSON and folded file.
plugin_all_sets="slab-pingpong page-stacktrace percpu-slab-netns"
plugin_few_sets="default leaks-lifetimes-all"
# kshark_kmem: one sample of each allocator
kshark_samples="slab-pingpong page-stacktrace percpu-slab-netns"

die() {
	echo "identity.sh: $*" >&2
	exit 2
}

# has_instances FILE: does the trace hold a buffer instance?  The plugin
# counts them with the top-level buffer (cli_identity.sh leaves them out)
has_instances() {
	trace-cmd dump --options -i "$1" 2>/dev/null | grep -q '^"[^"]\+" \[name\]'
}

# done_rc NAME STATUS: the exit status of the command of output NAME
done_rc() {
	mkdir -p "$OUTDIR/.rc/$(dirname "$1")"
	echo "$2" >"$OUTDIR/.rc/$1"
}

# run_stat SAMPLE SETNAME WORDS...: trace-kmem stat
run_stat() {
	local b=$1 n=$2 w o=stat/$1/$2 args=() files=1
	shift 2
	for w; do
		case $w in
		json | folded) files= ;;
		esac
		args+=("--${w//@TOPO@/$TOPO}")
	done
	[ "$n" = plain ] && files=
	if [ -n "$files" ]; then
		args+=("--json=$OUTDIR/$o.json" "--folded=$OUTDIR/$o.folded")
	fi
	"$TK" stat "${args[@]}" "sample-data/$b.dat" >"$OUTDIR/$o.out" 2>"$OUTDIR/$o.err"
	done_rc "$o" $?
}

# run_plugin SAMPLE SETNAME WORDS...: trace-cmd report -O kmem:stat;
# stdout from the plugin's title (or the JSON's first line) on, with
# the empty line it prints before its title: what trace-kmem stat prints
run_plugin() {
	local b=$1 n=$2 w o=plugin/$1/$2 args=(-O kmem:stat) json=1 folded=1
	shift 2
	for w; do
		case $w in
		json) json='' w=json=- ;;
		folded) folded='' w=folded=$OUTDIR/$o.folded ;;
		esac
		args+=(-O "kmem:${w//@TOPO@/$TOPO}")
	done
	[ "$n" = plain ] && json='' folded=''
	[ -n "$json" ] && args+=(-O "kmem:json=$OUTDIR/$o.json")
	[ -n "$folded" ] && args+=(-O "kmem:folded=$OUTDIR/$o.folded")
	TRACEEVENT_PLUGIN_DIR=$BUILD/plugins $TC_PRELOAD trace-cmd report \
		-i "sample-data/$b.dat" "${args[@]}" 2>"$OUTDIR/$o.err" |
		awk '!on && /^ kmem statistics: |^\{$/ { on = 1; if (prev == "" && NR > 1) print "" }
		     on { print } { prev = $0 }' >"$OUTDIR/$o.stats"
	done_rc "$o" "${PIPESTATUS[0]}"
}

# run_cmd NAME COMMAND...: NAME.out and NAME.err of a trace-kmem command
run_cmd() {
	local o=$1
	shift
	"$@" >"$OUTDIR/$o.out" 2>"$OUTDIR/$o.err"
	done_rc "$o" $?
}

# spawn COMMAND...: in the background, at most $jobs at once
spawn() {
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	"$@" </dev/null &
}

# made_up_sysfs DIR: two nodes, as tests/e2e/cli_stat.sh's
made_up_sysfs() {
	local fs=$1 m
	mkdir -p "$fs/devices/system/memory" "$fs/devices/system/node/node0" \
		"$fs/devices/system/node/node1"
	echo 8000000 >"$fs/devices/system/memory/block_size_bytes"
	echo "0-1" >"$fs/devices/system/node/node0/cpulist"
	echo "2,3,5" >"$fs/devices/system/node/node1/cpulist"
	for m in 0 1; do mkdir "$fs/devices/system/node/node0/memory$m"; done
	for m in 2 4; do mkdir "$fs/devices/system/node/node1/memory$m"; done
}

# escape STRING: for the left side of a sed s|||
escape() {
	printf '%s' "$1" | sed 's/[]|\\.*^$[]/\\&/g'
}

snapshot() {
	local b s name f k
	{ [ $# -ge 1 ] && [ $# -le 2 ]; } || usage
	OUTDIR=$1
	BUILD=${2:-build}
	case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
	BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || die "no build directory ${2:-build}"
	if [ -e "$OUTDIR" ] && [ -n "$(ls -A "$OUTDIR")" ]; then
		die "$OUTDIR is not empty"
	fi
	mkdir -p "$OUTDIR" || exit 2
	OUTDIR=$(cd "$OUTDIR" && pwd)
	TK=$BUILD/trace-kmem
	[ -x "$TK" ] || die "no $TK (run make)"
	[ -f "$BUILD/plugins/plugin_kmem.so" ] || die "no $BUILD/plugins/plugin_kmem.so (run make)"
	command -v trace-cmd >/dev/null || die "no trace-cmd"
	cd "$TOP" || exit 2
	TOPO=tests/golden/identity-topo.txt

	# the environment: nothing of the user's or the machine's
	unset TRACE_KMEM_VALIDATE TRACE_KMEM_MEMORY_LIMIT \
		TRACE_KMEM_PROGRESS_AFTER TRACE_KMEM_SYSFS TRACEEVENT_PLUGIN_DIR
	export TRACE_KMEM_CONVERT=never
	export HOME=$OUTDIR/.home
	mkdir -p "$HOME"
	# a build with SANITIZE=1 (as tests/lib/common.sh): libtraceevent's
	# and libtracecmd's own leaks are not ours; trace-cmd needs the
	# sanitizer runtimes loaded first, and leaks a little by itself
	: "${LSAN_OPTIONS=suppressions=$TOP/tests/lsan.supp:print_suppressions=0}"
	export LSAN_OPTIONS
	TC_PRELOAD=
	if nm -D "$BUILD/plugins/plugin_kmem.so" 2>/dev/null | grep -q __asan_init; then
		TC_PRELOAD="env ASAN_OPTIONS=detect_leaks=0:abort_on_error=1"
		TC_PRELOAD+=" UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1"
		TC_PRELOAD+=" LD_PRELOAD=$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
	fi
	jobs=${IDENTITY_JOBS:-$(nproc 2>/dev/null || echo 2)}
	[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
	: >"$OUTDIR/SKIPPED"

	mapfile -t samples < <(find sample-data -maxdepth 1 -name '*.dat' -printf '%f\n' |
		sed 's|\.dat$||' | sort)
	[ ${#samples[@]} -gt 0 ] || die "no sample-data/*.dat"

	# the plugin first: the longest runs
	for b in "${samples[@]}"; do
		if has_instances "sample-data/$b.dat"; then
			echo "plugin/$b: buffer instances (the plugin counts them with the top-level buffer)" >>"$OUTDIR/SKIPPED"
			continue
		fi
		mkdir -p "$OUTDIR/plugin/$b"
		for s in "${sets[@]}"; do
			# shellcheck disable=SC2086
			set -- $s
			name=$1
			shift
			case " $plugin_all_sets " in
			*" $b "*) ;;
			*) case " $plugin_few_sets " in *" $name "*) ;; *) continue ;; esac ;;
			esac
			spawn run_plugin "$b" "$name" "$@"
		done
	done

	# kshark_kmem: what the KernelShark plugin registers
	k=$BUILD/kshark/kshark_kmem
	if [ -x "$k" ] && [ -f "$BUILD/kernelshark/plugin-kmem.so" ]; then
		mkdir -p "$OUTDIR/kshark"
		for b in $kshark_samples; do
			spawn run_cmd "kshark/$b" env ASAN_OPTIONS=detect_leaks=0 \
				"$k" "$BUILD/kernelshark/plugin-kmem.so" "sample-data/$b.dat"
		done
	else
		echo "kshark: no $k or $BUILD/kernelshark/plugin-kmem.so (libkshark-dev, Qt and GLU headers: make tests)" >>"$OUTDIR/SKIPPED"
	fi

	for b in "${samples[@]}"; do
		mkdir -p "$OUTDIR/stat/$b"
		for s in "${sets[@]}"; do
			# shellcheck disable=SC2086
			spawn run_stat "$b" $s
		done
	done

	# several inputs (a merged summary), the other reader, a filter
	mkdir -p "$OUTDIR/stat-more"
	spawn run_cmd stat-more/two-inputs "$TK" stat --all \
		--json="$OUTDIR/stat-more/two-inputs.json" \
		sample-data/slab-pingpong.dat sample-data/percpu-netns.dat
	spawn run_cmd stat-more/libtracecmd "$TK" stat --all --reader=libtracecmd \
		--json="$OUTDIR/stat-more/libtracecmd.json" sample-data/slab-fork-exec.dat
	spawn run_cmd stat-more/cpu-1 "$TK" stat --all --cpu 1 \
		--json="$OUTDIR/stat-more/cpu-1.json" sample-data/page-trigger.dat

	# diff: text and JSON
	mkdir -p "$OUTDIR/diff"
	spawn run_cmd diff/slab "$TK" diff --json="$OUTDIR/diff/slab.json" \
		sample-data/slab-fork-exec.dat sample-data/slab-stacks.dat
	spawn run_cmd diff/mixed-all-per-event "$TK" diff --all --per-event \
		--json="$OUTDIR/diff/mixed-all-per-event.json" \
		sample-data/slab-pingpong.dat sample-data/percpu-slab-netns.dat
	spawn run_cmd diff/page-by-function-per-second "$TK" diff --page \
		--by-function --per-second \
		--json="$OUTDIR/diff/page-by-function-per-second.json" \
		sample-data/page-stacktrace.dat sample-data/page-trigger.dat

	# plot: SVG and JSON
	mkdir -p "$OUTDIR/plot"
	spawn run_cmd plot/slab-fork-exec "$TK" plot -o "$OUTDIR/plot/slab-fork-exec.svg" \
		--json="$OUTDIR/plot/slab-fork-exec.json" sample-data/slab-fork-exec.dat
	spawn run_cmd plot/page-stacktrace "$TK" plot --page -l 5 \
		-o "$OUTDIR/plot/page-stacktrace.svg" \
		--json="$OUTDIR/plot/page-stacktrace.json" sample-data/page-stacktrace.dat

	# topology of a made-up sysfs (its ranges are in pages: 4096 bytes
	# here), and of none
	mkdir -p "$OUTDIR/topology"
	made_up_sysfs "$OUTDIR/.sysfs"
	TRACE_KMEM_SYSFS=$OUTDIR/.sysfs run_cmd topology/made-up "$TK" topology
	TRACE_KMEM_SYSFS=$OUTDIR/.none run_cmd topology/none "$TK" topology

	wait

	# PART/exit-codes: the status of each command of a part (stat,
	# plugin, ...), so that a part skipped leaves no trace in the others
	for k in "$OUTDIR"/.rc/*; do
		(cd "$k" && find . -type f -printf '%P\n' | sort | while read -r f; do
			echo "$f $(cat "$f")"
		done) >"$OUTDIR/${k##*/}/exit-codes"
	done
	rm -rf "$OUTDIR/.rc" "$OUTDIR/.home" "$OUTDIR/.sysfs"

	# the paths of this machine, longest first
	local subst=() p
	while read -r _ p k; do
		subst+=(-e "s|$(escape "$p")|$k|g")
	done < <(for p in "$OUTDIR @OUT@" "$BUILD @BUILD@" "$TOP @TOP@"; do
		echo "${#p} $p"
	done | sort -rn)
	grep -rlF --exclude=SKIPPED -e "$OUTDIR" -e "$BUILD" -e "$TOP" "$OUTDIR" |
	while read -r f; do
		sed -i "${subst[@]}" "$f"
	done
	return 0
}

sums() {
	{ [ $# -eq 1 ] && [ -d "$1" ]; } || usage
	(cd "$1" && find . -type f ! -name SKIPPED -printf '%P\n' | sort |
		xargs -r -d '\n' sha256sum)
}

compare() {
	local u='' a b
	[ "${1:-}" = -u ] && { u=1; shift; }
	{ [ $# -eq 2 ] && [ -d "$1" ] && [ -d "$2" ]; } || usage
	a=$1 b=$2
	diff -rq -x SKIPPED "$a" "$b" >"${TMPDIR:-/tmp}/identity.$$" 2>&1
	local rc=$? line n=0
	while IFS= read -r line; do
		n=$((n + 1))
		case $line in
		Only\ in\ *)
			line=${line#Only in }
			echo "only in ${line%%: *}/${line#*: }" ;;
		Files\ *)
			line=${line#Files "$a"/}
			line=${line%% and *}
			echo "differs: $line"
			[ -n "$u" ] && diff -u "$a/$line" "$b/$line" | head -n 40 ;;
		*) echo "$line" ;;
		esac
	done <"${TMPDIR:-/tmp}/identity.$$"
	rm -f "${TMPDIR:-/tmp}/identity.$$"
	if [ "$rc" -eq 0 ]; then
		echo "identical: $(find "$a" -type f ! -name SKIPPED | wc -l) outputs"
	else
		echo "$n outputs differ"
	fi
	return "$rc"
}

case ${1:-} in
snapshot) shift; snapshot "$@" ;;
compare) shift; compare "$@" ;;
sums) shift; sums "$@" ;;
*) usage ;;
esac
