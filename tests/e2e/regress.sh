#!/bin/bash
# The regression corpus (tests/regress/): a reproducer for each defect
# of issue 9, replayed in full with what tests/regress/MANIFEST says
# must happen: trace-kmem stat with the native reader, with
# --reader=libtracecmd, with libtracecmd and no native checks
# (TRACE_KMEM_VALIDATE=never: the fault guard and the memory bound), and
# the plugin inside trace-cmd report.
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
R=$TOP/tests/regress
[ -x "$TK" ] || { fail regress "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=0

# expect NAME OUTCOME RC: judge one trace-kmem run ($WORK/o, $WORK/e)
expect() {
	local name=$1 want=$2 rc=$3 lines
	lines=$(wc -l <"$WORK/e")
	if grep -q -e 'Sanitizer' -e 'runtime error:' "$WORK/e"; then
		fail "$name" "sanitizer: $(grep -m1 -e ERROR -e 'runtime error' "$WORK/e")"
		return
	fi
	case $want in
	report | table:*)	# table:TEXT: the report holds TEXT too
		local text=${want#table:}
		[ "$want" = report ] && text="kmem statistics"
		if [ "$rc" -eq 0 ] && grep -q "kmem statistics" "$WORK/o" && [ "$lines" -eq 0 ] &&
			grep -qF -- "$text" "$WORK/o"; then
			pass "$name"
		else
			fail "$name" "exit $rc, wanted a report holding '$text' and nothing on stderr: $(head -c 300 "$WORK/e")"
		fi ;;
	warn:*)
		if [ "$rc" -eq 0 ] && grep -q "kmem statistics" "$WORK/o" && [ "$lines" -eq 1 ] &&
			grep -qF -- "${want#warn:}" "$WORK/e"; then
			pass "$name"
		else
			fail "$name" "exit $rc, wanted a report and one line '${want#warn:}': $(head -c 300 "$WORK/e")"
		fi ;;
	damage:*)
		if [ "$rc" -eq 0 ] && grep -q "kmem statistics" "$WORK/o" &&
			grep -q "WARNING: damaged trace data was skipped" "$WORK/o" &&
			[ "$lines" -eq 1 ] && grep -qF "damaged data skipped: ${want#damage:}" "$WORK/e"; then
			pass "$name"
		else
			fail "$name" "exit $rc, wanted a report and 'damaged data skipped: ${want#damage:}': $(head -c 300 "$WORK/e")"
		fi ;;
	cut:*)
		if [ "$rc" -eq 0 ] && grep -q "kmem statistics" "$WORK/o" &&
			grep -q "WARNING: damaged trace data was skipped" "$WORK/o" &&
			[ "$lines" -eq 1 ] && grep -q "file cut at [0-9]* bytes" "$WORK/e" &&
			grep -qF -- "${want#cut:}" "$WORK/e"; then
			pass "$name"
		else
			fail "$name" "exit $rc, wanted a report and 'file cut at ... ${want#cut:}': $(head -c 300 "$WORK/e")"
		fi ;;
	error:* | fails)
		if [ "$rc" -eq 2 ] && [ ! -s "$WORK/o" ] && [ "$lines" -eq 1 ] &&
			{ [ "$want" = fails ] || grep -qF -- "${want#error:}" "$WORK/e"; }; then
			pass "$name"
		else
			fail "$name" "exit $rc, $(wc -l <"$WORK/o") lines out, wanted one line ${want#error:}: $(head -c 300 "$WORK/e")"
		fi ;;
	*) fail "$name" "MANIFEST: unknown outcome '$want'" ;;
	esac
}

# run FILE [ENV...] -- ARGS: trace-kmem stat, peak RSS in $rss (KB, or 0),
# stopped after $limit seconds (exit 124)
run() {
	local f=$1
	shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	if [ -z "$SANITIZED" ] && [ -x /usr/bin/time ]; then
		env "${envs[@]}" timeout "$limit" /usr/bin/time -o "$WORK/rss" -f %M "$TK" stat "$@" "$f" \
			>"$WORK/o" 2>"$WORK/e"
		rc=$?
		rss=$(tail -n 1 "$WORK/rss")
	else
		env "${envs[@]}" timeout "$limit" "$TK" stat "$@" "$f" >"$WORK/o" 2>"$WORK/e"
		rc=$?
		rss=0
	fi
}

[ -n "$SANITIZED" ] || [ -x /usr/bin/time ] ||
	skip regress-memory "no /usr/bin/time (Debian package time): peak RSS not bounded"
listed=()
while IFS=$'\t' read -r file native lib unval plugin defect; do
	case $file in '' | '#'*) continue ;; esac
	f=$R/corpus/$file
	case $file in
	generated/*)	# too big to keep: written now
		f=$WORK/$file
		[ -f "$f" ] || python3 "$R/craft.py" --generated "$WORK/generated" ;;
	*) listed+=("$file") ;;
	esac
	if [ ! -f "$f" ]; then
		fail "regress:$file" "listed in MANIFEST, not made"
		continue
	fi
	for mode in native libtracecmd unvalidated; do
		case $mode in
		native) want=$native ;;
		libtracecmd) want=$lib ;;
		unvalidated) want=$unval ;;
		esac
		# OUTCOME[,rss:N][,time:N]: bounds of this run's own
		bound=100 limit=60
		case $want in *,time:*) limit=${want##*,time:} want=${want%,time:*} ;; esac
		case $want in *,rss:*) bound=${want##*,rss:} want=${want%,rss:*} ;; esac
		# a sanitizer build unwinds every malloc slowly, libtracecmd's
		# too: kallsyms of 100 MB takes 53 s there against 3 s
		[ -z "$SANITIZED" ] || limit=$((limit * 4))
		# a run allowed more than the 60 s is libtracecmd's own long
		# work (chunk-declares-1.5gb: Debian 13's inflates 1.5 GB, 81 s
		# sanitized, and as long in the plugin's trace-cmd): unchecked
		# there, and nothing of ours to sanitize; make check runs it
		if [ -n "$SANITIZED" ] && [ "$limit" -gt 240 ]; then
			skip "regress:$file:$mode" "libtracecmd's own work, up to $((limit / 4)) s unsanitized; make check runs it"
			continue
		fi
		case $mode in
		native) run "$f" -- ;;
		libtracecmd) run "$f" -- --reader=libtracecmd ;;
		unvalidated)
			rm -f "$WORK"/asan.*
			# a sanitizer sees libtracecmd's own errors first (its
			# double free): to a log, as stderr is quieted there
			run "$f" TRACE_KMEM_VALIDATE=never "ASAN_OPTIONS=$ASAN_OPTIONS:log_path=$WORK/asan" \
				-- --reader=libtracecmd ;;
		esac
		[ "$rc" -ne 124 ] || { fail "regress:$file:$mode" "hang ($limit s)"; continue; }
		if [ "$mode" = unvalidated ] && [ -n "$SANITIZED" ] && ls "$WORK"/asan.* >/dev/null 2>&1; then
			if grep -h -A8 'ERROR: AddressSanitizer' "$WORK"/asan.* | grep -q 'libtracecmd\.so'; then
				pass "regress:$file:$mode (AddressSanitizer: libtracecmd's own error, not ours)"
			else
				fail "regress:$file:$mode" "sanitizer: $(grep -h -m1 ERROR "$WORK"/asan.*)"
			fi
			continue
		fi
		expect "regress:$file:$mode" "$want" "$rc"
		if [ "${rss:-0}" -gt $((bound * 1024)) ]; then
			fail "regress:$file:$mode:memory" "peak RSS $((rss / 1024)) MB (at most $bound)"
		fi
	done
	# the plugin: trace-cmd's fate is its own, the plugin's frames are
	# ours; bounded (libtracecmd loops for ever on some: 60 s, 64 MB)
	plugin_env=(TRACEEVENT_PLUGIN_DIR="$PLUGIN_DIR")
	[ -n "$SANITIZED" ] && plugin_env+=(LD_PRELOAD="$SAN_PRELOAD"
		ASAN_OPTIONS=$SAN_HOST:abort_on_error=1
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1)
	plimit=60
	case $plugin in *,time:*) plimit=${plugin##*,time:} plugin=${plugin%,time:*} ;; esac
	pwarn=
	case $plugin in *,warn:*) pwarn=${plugin#*,warn:} plugin=${plugin%%,warn:*} ;; esac
	if [ -n "$SANITIZED" ] && [ "$plimit" -gt 60 ]; then
		skip "regress:$file:plugin" "libtracecmd's own work, up to $plimit s unsanitized; make check runs it"
		continue
	fi
	env "${plugin_env[@]}" timeout "$plimit" trace-cmd report -i "$f" -O kmem:stat \
		2>"$WORK/pe" | head -c 64000000 >"$WORK/po"
	prc=${PIPESTATUS[0]}
	if grep -A12 'ERROR: AddressSanitizer\|runtime error:' "$WORK/pe" | grep -q 'plugin_kmem'; then
		fail "regress:$file:plugin" "sanitizer in the plugin: $(grep -m1 'ERROR\|runtime error' "$WORK/pe")"
	elif [ "$plugin" = loops ]; then
		# trace-cmd's own endless loop: stopped by the timeout or
		# by the pipe closed after 64 MB
		if [ "$prc" -eq 124 ] || [ "$prc" -eq 141 ] || [ "$prc" -eq 137 ]; then
			pass "regress:$file:plugin (trace-cmd loops: exit $prc)"
		else
			fail "regress:$file:plugin" "exit $prc, wanted trace-cmd's endless loop"
		fi
	elif [ "${plugin%%:*}" = tables ]; then
		want=
		case $plugin in tables:*) want=${plugin#tables:} ;; esac
		if [ "$prc" -ne 0 ] || ! grep -q "kmem statistics" "$WORK/po"; then
			fail "regress:$file:plugin" "exit $prc, no tables: $(head -c 300 "$WORK/pe")"
		elif [ -n "$want" ] && ! grep -qF -- "$want" "$WORK/po"; then
			fail "regress:$file:plugin" "the tables do not say '$want'"
		elif [ -n "$pwarn" ] && ! grep '^kmem: ' "$WORK/pe" | grep -qF -- "$pwarn"; then
			fail "regress:$file:plugin" "no 'kmem: ' line on stderr says '$pwarn': $(head -c 300 "$WORK/pe")"
		else
			pass "regress:$file:plugin"
		fi
	elif [ "$prc" -eq 0 ] && ! grep -q "kmem statistics" "$WORK/po" &&
		! grep -q "^kmem: " "$WORK/pe"; then
		# trace-cmd ended well without the tables: never in silence
		fail "regress:$file:plugin" "exit 0, no tables and no line saying why"
	else
		pass "regress:$file:plugin (trace-cmd exit $prc)"
	fi
done <"$R/MANIFEST"

# the memory bound around libtracecmd: hit on purpose, one line says so
if [ -z "$SANITIZED" ]; then
	run "$TOP/sample-data/slab-pingpong.dat" TRACE_KMEM_MEMORY_LIMIT=10 -- --reader=libtracecmd
	expect "memory-limit-one-line" "error:the limit of 10 MB was reached; TRACE_KMEM_MEMORY_LIMIT" "$rc"
	run "$TOP/sample-data/slab-pingpong.dat" TRACE_KMEM_MEMORY_LIMIT=lots -- --reader=libtracecmd
	expect "memory-limit-bad-value" "error:TRACE_KMEM_MEMORY_LIMIT=lots: not a number of MB" "$rc"
else
	skip memory-limit "sanitizer build: no address-space limit (the shadow memory needs terabytes)"
fi

# every reproducer is replayed
for f in "$R"/corpus/*; do
	n=$(basename "$f")
	found=0
	for l in "${listed[@]}"; do [ "$l" = "$n" ] && found=1; done
	[ "$found" -eq 1 ] || fail "regress:$n" "in corpus/, not in MANIFEST"
done
finish
