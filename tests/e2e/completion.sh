#!/bin/bash
# completion/trace-kmem: subcommands, options per subcommand, sort keys
# (after a comma too), file names for stat, and a command after live's --.
set -u
. "$(dirname "$0")/../lib/common.sh"

BC=/usr/share/bash-completion/bash_completion
[ -f "$BC" ] || { skip completion "bash-completion not installed"; finish; }

# complete WORDS...: the candidates for the last word, sorted, one line
complete_line() {
	bash -c '
		. "$1"; . "$2"; shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_trace_kmem trace-kmem "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort | paste -sd" "' \
		_ "$BC" "$TOP/completion/trace-kmem" "$@" 2>/dev/null
}

check completion-commands test "$(complete_line trace-kmem "")" = "--help --version diff live plot stat topology"
check completion-stat-sort test "$(complete_line trace-kmem stat --so)" = "--sort"
check completion-stat-time test "$(complete_line trace-kmem stat --ti)" = "--time"
check completion-live-no-time test "$(complete_line trace-kmem live --ti)" = ""
check completion-live-stacks test "$(complete_line trace-kmem live --st)" = "--stacks"
check completion-stat-reader test "$(complete_line trace-kmem stat --reader "")" = "libtracecmd native"
check completion-stat-reader-eq test "$(complete_line trace-kmem stat --reader=n)" = "--reader=native"
check completion-folded-weight-values test "$(complete_line trace-kmem stat --folded-weight=)" = "--folded-weight=bytes --folded-weight=hits"
check completion-folded-weight-value test "$(complete_line trace-kmem stat --folded-weight=h)" = "--folded-weight=hits"
check completion-folded-weight-spaced test "$(complete_line trace-kmem stat --folded-weight "")" = "bytes hits"
check completion-sort-keys test "$(complete_line trace-kmem stat -s p)" = "page peak pingpong ptr"
check completion-sort-after-comma test "$(complete_line trace-kmem stat -s bytes,h)" = "bytes,hit"
mkdir -p "$WORK/c" && touch "$WORK/c/a.dat" "$WORK/c/b.txt"
check completion-dat-files test "$(cd "$WORK/c" && complete_line trace-kmem stat "")" = "a.dat"
check completion-live-command grep -qw python3 <<<"$(complete_line trace-kmem live -- pyth)"
# every long option of the front end's --help is offered
TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
if [ -x "$TK" ]; then
	missing=
	for cmd in stat live plot diff; do
		offered=" $(complete_line trace-kmem $cmd --) "
		for o in $("$TK" $cmd --help | sed -n '/^[A-Z]* OPTIONS/,/^$/p' |
			grep -o -- '--[a-z-]*' | sort -u); do
			case $offered in *" $o "*) ;; *) missing="$missing $cmd:$o" ;; esac
		done
		# and only those of this subcommand
		case $cmd in
		live) grep -q -- '--time' <<<"$offered" && missing="$missing live-offers-time" ;;
		esac
	done
	check completion-matches-help test -z "$missing"
	[ -z "$missing" ] || echo "    not offered:$missing"
fi
finish
