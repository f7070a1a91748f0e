#!/bin/sh
# deps.sh [check]: check (and, as root, install) what building (and with
# "check", testing) needs on Debian.  Prints the exact apt-get line and
# fails when something is missing and we may not install it.
set -e
pkgs=""
light=""	# installed without their recommends (chromium's are a desktop)
need() { # need COMMAND-OR-PKGCONFIG-CHECK PACKAGE
	if ! sh -c "$1" >/dev/null 2>&1; then
		pkgs="$pkgs $2"
	fi
}
need_light() { # as need()
	if ! sh -c "$1" >/dev/null 2>&1; then
		light="$light $2"
	fi
}
need "command -v cc" gcc
need "command -v make" make
need "command -v pkg-config" pkg-config
need "command -v python3" python3
need "pkg-config --exists libtraceevent" libtraceevent-dev
need "pkg-config --exists libtracefs" libtracefs-dev
need "pkg-config --exists libtracecmd" libtracecmd-dev
need "pkg-config --exists libzstd" libzstd-dev
need "pkg-config --exists zlib" zlib1g-dev
need "command -v trace-cmd" trace-cmd
need "test -f /usr/lib/$(gcc -print-multiarch 2>/dev/null)/traceevent/plugins/plugin_kmem.so" libtraceevent1-plugin
if [ "${1:-}" = check ]; then
	need "command -v valgrind" valgrind
	need "command -v perf" linux-perf
	need "test -f /usr/share/bash-completion/bash_completion" bash-completion
	need "command -v script" bsdutils
	need "command -v setpriv" util-linux
	need "command -v strace" strace
	# tests/e2e/kshark_info.sh and kshark_plugin.sh read the samples
	# through libkshark; the KernelShark plugin needs Qt 5 and C++
	need "pkg-config --exists libkshark" "libkshark-dev libjson-c-dev"
	need "pkg-config --exists Qt5Widgets" qtbase5-dev
	need "command -v c++" g++
	# tests/e2e/kshark_gui.sh runs KernelShark under Xvfb
	need_light "command -v kernelshark" kernelshark
	need_light "command -v Xvfb" xvfb
	# tests/e2e/plot.sh renders the SVG with headless Chromium
	need_light "command -v chromium" chromium
	need_light "test -d /usr/share/fonts/truetype/dejavu" fonts-dejavu-core
fi
[ -z "$pkgs$light" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing$pkgs$light" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null
	# shellcheck disable=SC2086
	[ -z "$pkgs" ] || apt-get install -y -qq $pkgs >/dev/null
	# shellcheck disable=SC2086
	[ -z "$light" ] ||
		apt-get install -y -qq --no-install-recommends $light >/dev/null
	exit 0
fi
[ -z "$pkgs" ] ||
	echo "deps: missing packages; run: sudo apt-get install$pkgs" >&2
[ -z "$light" ] ||
	echo "deps: missing packages; run: sudo apt-get install --no-install-recommends$light" >&2
exit 1
