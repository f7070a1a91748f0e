#!/bin/sh
# install.sh install|uninstall DIR [PLUGIN]     libtraceevent's plugin dir
# install.sh install-user|uninstall-user DIR [PLUGIN]
#
# Our plugin_kmem.so is a superset of libtraceevent's plugin_kmem.so
# (same listing, plus the statistics), so in the system directory it
# takes that file's place: on Debian the distribution's file is moved
# aside with dpkg-divert (kept, and restored by uninstall), elsewhere
# it is renamed to plugin_kmem.so.orig.  With DESTDIR (packaging) the
# file is only copied; packagers replace plugin_kmem.so the same way.
set -e
action=$1 dir=$2 plugin=$3
target=$dir/plugin_kmem.so

ours() { [ -f "$1" ] && grep -q "kmem statistics" "$1"; }
diverted() {
	command -v dpkg-divert >/dev/null 2>&1 &&
		dpkg-divert --list "$target" 2>/dev/null | grep -q .
}

# the package that diverted the distribution's plugin, if one did
diverter() {
	command -v dpkg-divert >/dev/null 2>&1 &&
		dpkg-divert --listpackage "$target" 2>/dev/null
}

case $action in
install)
	if [ -z "$DESTDIR" ] && [ "$(diverter)" = trace-kmem-plugin ]; then
		echo "install: the trace-kmem-plugin package is installed; remove it first (apt-get remove trace-kmem-plugin), or keep to the packages" >&2
		exit 1
	fi
	mkdir -p "$dir"
	if [ -f "$target" ] && ! ours "$target"; then
		if [ -z "$DESTDIR" ] && command -v dpkg-divert >/dev/null 2>&1 &&
		   dpkg -S "$target" >/dev/null 2>&1; then
			dpkg-divert --package trace-kmem --rename \
				--divert "$target.distrib" --add "$target"
		else
			mv "$target" "$target.orig"
			echo "install: kept the previous plugin as $target.orig"
		fi
	fi
	install -m 0755 "$plugin" "$target"
	echo "install: $target"
	;;
install-user)
	mkdir -p "$dir"
	install -m 0755 "$plugin" "$target"
	echo "install: $target"
	;;
uninstall|uninstall-user)
	if [ "$action" = uninstall ] && [ -z "$DESTDIR" ] &&
	   [ "$(diverter)" = trace-kmem-plugin ]; then
		echo "uninstall: trace-kmem is installed as packages (trace-kmem-plugin owns $target): nothing removed; apt-get remove them" >&2
		exit 1
	fi
	if ours "$target"; then
		rm -f "$target"
		echo "uninstall: removed $target"
	fi
	if [ "$action" = uninstall ]; then
		if [ -z "$DESTDIR" ] && diverted; then
			dpkg-divert --package trace-kmem --rename \
				--divert "$target.distrib" --remove "$target"
		elif [ -f "$target.orig" ]; then
			mv "$target.orig" "$target"
		fi
	fi
	;;
*)
	echo "usage: $0 install|uninstall|install-user|uninstall-user DIR [PLUGIN]" >&2
	exit 1
	;;
esac
