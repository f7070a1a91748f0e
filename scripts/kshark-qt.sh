#!/bin/sh
# kshark-qt.sh            the Debian package of the Qt headers the
#                         installed KernelShark's libkshark-gui is
#                         built with: qtbase5-dev or qt6-base-dev
# kshark-qt.sh major      its Qt major version: 5 or 6
# kshark-qt.sh lib NAME   the real file of libNAME (kshark-gui,
#                         kshark-plot) in libkshark's directory
#
# Prints nothing and fails when there is no such library.  Debian 12
# ships libkshark-gui.so -> .so.2 -> .so.2.2.1 (Qt 5); Debian 13 ships
# libkshark-gui.so.2.4.0 (Qt 6), whose SONAME is the full version, and
# a libkshark-gui.so -> .so.2 that resolves to nothing, so -lkshark-gui
# cannot link: the file is found here and linked by its path.
set -e

libdirs() {
	pkg-config --variable=libdir libkshark 2>/dev/null || :
	for d in /usr/local/lib /usr/lib/*-linux-* /usr/lib64 /usr/lib; do
		[ -d "$d" ] && echo "$d"
	done
	:
}

# the library itself: its .so symlink when it resolves, else the file
# of the highest version
find_lib() {
	for d in $(libdirs); do
		if [ -e "$d/lib$1.so" ]; then
			readlink -f "$d/lib$1.so"
			return 0
		fi
		f=$(for f in "$d/lib$1.so".*; do
			if [ -f "$f" ]; then echo "$f"; fi
		done | sort -V | tail -n 1)
		if [ -n "$f" ]; then
			echo "$f"
			return 0
		fi
	done
	return 1
}

# the Qt major in libkshark-gui's NEEDED entries (readelf is binutils,
# which may come after this is run: then the strings of the file)
qt_major() {
	lib=$(find_lib kshark-gui) || return 1
	if command -v readelf >/dev/null 2>&1; then
		needed=$(readelf -d "$lib" 2>/dev/null | grep NEEDED)
	else
		needed=$(LC_ALL=C grep -ao 'libQt[0-9]*Core\.so\.[0-9]*' "$lib")
	fi
	m=$(echo "$needed" | sed -n 's/.*libQt\([0-9]*\)Core\.so.*/\1/p' |
		head -n 1)
	[ -n "$m" ] && echo "$m"
}

case ${1:-} in
lib)
	[ -n "${2:-}" ] && find_lib "$2"
	;;
major)
	qt_major
	;;
"")
	m=$(qt_major) || exit 1
	case $m in
	5) echo qtbase5-dev ;;
	*) echo "qt$m-base-dev" ;;
	esac
	;;
*)
	echo "usage: $0 [major | lib NAME]" >&2
	exit 2
	;;
esac
