#!/bin/sh
# deps.sh [build] [check] [doc] [deb] [fuzz]: make sure the Debian
# packages a make target needs are installed.  As root it installs what
# is missing (and says so in one line); as a user it prints the one
# command line that installs them and fails.  The Makefile runs it
# before anything is built (the targets' modes below), then runs make
# again, so what the build can use is decided with the packages there.
#
#   build   make, make demo, make install-user: compilers (clang too
#           when $CC names it), libtraceevent, libtracefs, libtracecmd,
#           zstd, zlib, protobuf-c (and protoc-c), trace-cmd
#   check   make check, make tests, make bench: the tools the tests
#           run (valgrind, perf, strace, ...), KernelShark with the Qt
#           development files of the Qt it links (5 on Debian 12, 6 on
#           Debian 13), Xvfb, Chromium, the man page tools, Go (pprof),
#           nodejs and npm (DuckDB)
#   doc     make doc, make install: asciidoc, xmlto, DocBook
#   deb     make deb: debian/control's Build-Depends, dpkg-dev, lintian
#   fuzz    make fuzz: clang and its libFuzzer runtime
set -e
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- build

pkgs=""		# installed with their recommends
light=""	# without them (chromium's and the doc tools' are a desktop, TeX)

installed() { # installed PKG: is the package installed (any architecture)?
	dpkg-query -W -f='${db:Status-Status}\n' "$1" 2>/dev/null |
		grep -qx installed
}
need() { # need PKG...
	for p; do
		installed "$p" || case " $pkgs " in *" $p "*) ;; *) pkgs="$pkgs $p" ;; esac
	done
}
need_light() { # need_light PKG...
	for p; do
		installed "$p" || case " $light " in *" $p "*) ;; *) light="$light $p" ;; esac
	done
}

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "deps: not a Debian system: install the equivalents of make, gcc, pkg-config," \
		"libtraceevent, libtracefs, libtracecmd, libzstd, zlib and trace-cmd" >&2
	exit 0
fi

# The Qt development package of the Qt that the installed (or, before it
# is installed, the distribution's) KernelShark links: KernelShark 2.2
# (Debian 12) is built on Qt 5, KernelShark 2.4 (Debian 13) on Qt 6.
kshark_qt_pkg() {
	if q=$(scripts/kshark-qt.sh 2>/dev/null) && [ -n "$q" ]; then
		echo "$q"
		return
	fi
	case $(apt-cache depends kernelshark 2>/dev/null) in
	*libqt6widgets*) echo qt6-base-dev ;;
	*) echo qtbase5-dev ;;
	esac
}

# Build-Depends of debian/control, one per line with its alternatives
# ("qt6-base-dev (>= 6.8) | qtbase5-dev"); architecture lists dropped,
# the virtual debhelper-compat taken as debhelper.
build_depends() {
	sed -n '/^Build-Depends:/,/^[A-Z][A-Za-z-]*:/p' debian/control |
		sed '$d; /^#/d; s/^Build-Depends://' | tr -d '\n' | tr ',' '\n' |
		sed 's/\[[^]]*\]//g; s/debhelper-compat *([^)]*)/debhelper/g; $a\\'
}
# satisfies VERSION "OP WANTED": does VERSION meet the constraint?
satisfies() {
	[ -n "$1" ] || return 1
	[ -n "$2" ] || return 0
	set -- "$1" $2
	case $2 in
	'>=') op=ge ;; '<=') op=le ;; '=') op=eq ;; '>>') op=gt ;; '<<') op=lt ;;
	*) return 0 ;;
	esac
	dpkg --compare-versions "$1" "$op" "$3"
}
# For each Build-Depends line none of whose alternatives is installed
# (at a version it accepts), the first one this release can install.
need_build_depends() {
	build_depends | while read -r line; do
		[ -n "$line" ] || continue
		ok="" pick=""
		echo "$line" | tr '|' '\n' > "${TMPDIR:-/tmp}/deps.$$"
		while read -r alt; do
			name=${alt%%[ (]*}
			want=$(echo "$alt" | sed -n 's/.*(\(.*\)).*/\1/p')
			[ -n "$name" ] || continue
			if installed "$name" &&
			   satisfies "$(dpkg-query -W -f='${Version}' "$name")" "$want"; then
				ok=1
				break
			fi
			cand=$(apt-cache policy "$name" 2>/dev/null | sed -n 's/^ *Candidate: //p')
			if [ -z "$pick" ] && [ "$cand" != "(none)" ] && satisfies "$cand" "$want"; then
				pick=$name
			fi
		done < "${TMPDIR:-/tmp}/deps.$$"
		rm -f "${TMPDIR:-/tmp}/deps.$$"
		[ -n "$ok" ] || echo "${pick:-${line%%[ (|]*}}"
	done
}

build() {
	need make gcc libc6-dev pkg-config libtraceevent-dev libtracefs-dev \
		libtracecmd-dev libzstd-dev zlib1g-dev trace-cmd libtraceevent1-plugin
	# --pprof: protobuf-c, and protoc-c to compile lib/pprof/profile.proto
	need libprotobuf-c-dev protobuf-c-compiler
	# make CC=clang (its sanitizer runtimes come as a recommends)
	case ${CC:-cc} in *clang*) need clang ;; esac
}
doc() {
	need_light asciidoc-base xmlto docbook-xsl docbook-xml
}

for mode; do
	case $mode in
	build) build ;;
	check)
		build
		need python3 valgrind linux-perf bash-completion bsdutils util-linux \
			strace man-db binutils
		# /usr/bin/time: peak RSS in kallsyms.sh and regress.sh
		need time
		# tests/e2e/pprof.sh reads the profiles with go tool pprof;
		# duckdb.sh loads the rows with @duckdb/node-api (npm; a
		# nodejs of its own may bring npm along)
		need_light golang-go nodejs
		command -v npm >/dev/null 2>&1 || need_light npm
		# the KernelShark plugin and tests/e2e/kshark_*.sh
		# (libkshark-plot.h includes GL/glu.h: qtbase5-dev pulls in
		# libglu1-mesa-dev, qt6-base-dev does not)
		need libkshark-dev libjson-c-dev g++ "$(kshark_qt_pkg)" libglu1-mesa-dev
		# tests/e2e/kshark_gui.sh, plot.sh, manpages.sh
		need_light kernelshark xvfb chromium fonts-dejavu-core
		doc
		;;
	doc) doc ;;
	deb)
		build
		need dpkg-dev lintian
		# the doc tools without their recommends (TeX, Java)
		for p in $(need_build_depends); do
			case $p in
			asciidoc-base | xmlto | docbook-xsl | docbook-xml) need_light "$p" ;;
			*) need "$p" ;;
			esac
		done
		;;
	fuzz)
		build
		# libFuzzer and the sanitizer runtimes (a recommends of clang's)
		need clang libclang-rt-dev
		;;
	*)
		echo "deps: unknown mode '$mode' (build, check, doc, deb, fuzz)" >&2
		exit 2
		;;
	esac
done

[ -z "$pkgs$light" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing$pkgs$light" >&2
	export DEBIAN_FRONTEND=noninteractive
	# apt's own lines (debconf's "delaying package configuration")
	# only when it fails
	log=$(mktemp "${TMPDIR:-/tmp}/deps.XXXXXX")
	# shellcheck disable=SC2086
	if apt-get update -qq >"$log" 2>&1 &&
	   { [ -z "$pkgs" ] || apt-get install -y -qq $pkgs >>"$log" 2>&1; } &&
	   { [ -z "$light" ] ||
		apt-get install -y -qq --no-install-recommends $light >>"$log" 2>&1; }; then
		rm -f "$log"
		exit 0
	fi
	cat "$log" >&2
	rm -f "$log"
	echo "deps: apt-get failed (above)" >&2
	exit 1
fi
line=""
[ -z "$pkgs" ] || line="sudo apt-get install$pkgs"
[ -z "$light" ] ||
	line="${line:+$line && }sudo apt-get install --no-install-recommends$light"
echo "deps: missing packages; run: $line" >&2
exit 1
