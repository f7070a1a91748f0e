#!/bin/bash
# test: exclusive (it installs into libtraceevent's plugin directory)
# make install / install-user / uninstall: paths, DESTDIR, prefix,
# libdir; and a real system install next to the distribution's
# plugin_kmem.so (as root on Debian; restored afterwards).
. "$(dirname "$0")/../lib/common.sh"

cd "$TOP" || exit 1
mk() { make -s --no-print-directory B="$(dirname "$PLUGIN_DIR")" "$@" >"$WORK/make.log" 2>&1; }
tep_libdir=$(pkg-config --variable=libdir libtraceevent)

D=$WORK/dest
mk install DESTDIR="$D"
check install-destdir test -f "$D$tep_libdir/traceevent/plugins/plugin_kmem.so"
check install-destdir-trace-kmem test -x "$D/usr/bin/trace-kmem"
# the README's recorder, installed: its help runs from there
check install-destdir-record test -x "$D/usr/bin/trace-kmem-record"
check install-destdir-record-help sh -c "'$D/usr/bin/trace-kmem-record' -h | grep -q '^Usage: trace-kmem-record '"
check install-destdir-completion test -f "$D/usr/share/bash-completion/completions/trace-kmem"
# make install always installs the man pages (make doc)
for m in man1/trace-kmem.1 man7/kmem-plugin.7 man7/kmem-stat-definitions.7 man5/kmem-json.5; do
	check "install-destdir-man-${m##*/}" test -s "$D/usr/share/man/$m"
done
mk uninstall DESTDIR="$D"
check uninstall-destdir test ! -e "$D$tep_libdir/traceevent/plugins/plugin_kmem.so"
check uninstall-destdir-trace-kmem test ! -e "$D/usr/bin/trace-kmem" -a ! -e "$D/usr/bin/trace-kmem-record" -a ! -e "$D/usr/share/bash-completion/completions/trace-kmem"
check uninstall-destdir-man-pages test -z "$(find "$D/usr/share/man" -type f 2>/dev/null)"
mk install DESTDIR="$D" prefix=/usr/local
check install-prefix test -f "$D/usr/local/lib/traceevent/plugins/plugin_kmem.so"
check install-prefix-trace-kmem test -x "$D/usr/local/bin/trace-kmem"
mk install DESTDIR="$D" libdir=/opt/lib64
check install-libdir test -f "$D/opt/lib64/traceevent/plugins/plugin_kmem.so"

mk install-user
check install-user test -f "$HOME/.local/lib/traceevent/plugins/plugin_kmem.so"
f=$(smallest_sample)
if [ -n "$f" ]; then
	trace-cmd report -i "$f" -O kmem:stat >"$WORK/user.out" 2>&1
	check install-user-loads grep -q '^ SUMMARY (slab allocator)' "$WORK/user.out"
fi
check install-user-trace-kmem test -x "$HOME/.local/bin/trace-kmem"
# the man page that --help names, where man finds it from PATH
man_user=0
if command -v asciidoc >/dev/null && command -v man >/dev/null; then
	check install-user-man test "$(PATH=$HOME/.local/bin:$PATH man -w trace-kmem)" = \
		"$HOME/.local/share/man/man1/trace-kmem.1"
	man_user=1
else
	skip install-user-man "no asciidoc or man (make doc's packages, man-db)"
fi
mk uninstall-user
[ "$man_user" -eq 1 ] &&
	check uninstall-user-man test ! -e "$HOME/.local/share/man/man1/trace-kmem.1"
check uninstall-user test ! -e "$HOME/.local/lib/traceevent/plugins/plugin_kmem.so"
check uninstall-user-trace-kmem test ! -e "$HOME/.local/bin/trace-kmem" -a ! -e "$HOME/.local/bin/trace-kmem-record"

# The real system directory, as a Debian admin would do it.
sysdir=$tep_libdir/traceevent/plugins
if [ "$(id -u)" != 0 ] || ! command -v dpkg-divert >/dev/null ||
   ! dpkg -S "$sysdir/plugin_kmem.so" >/dev/null 2>&1 || [ -z "$f" ]; then
	skip install-system "needs root, dpkg-divert and Debian's plugin_kmem.so"
	finish
fi
if dpkg-divert --list "$sysdir/plugin_kmem.so" | grep -q .; then
	skip install-system "plugin_kmem.so is already diverted on this machine"
	finish
fi
orig_sum=$(md5sum <"$sysdir/plugin_kmem.so")
trace-cmd report -i "$f" >"$WORK/stock" 2>&1
restore() {
	make -s --no-print-directory B="$(dirname "$PLUGIN_DIR")" uninstall >/dev/null 2>&1
	rm -rf "$WORK"
}
trap restore EXIT
mk install
check install-system-diverted test -f "$sysdir/plugin_kmem.so.distrib"
check install-system-ours grep -q "kmem statistics" "$sysdir/plugin_kmem.so"
trace-cmd report -i "$f" >"$WORK/sys" 2>&1
check install-system-listing cmp -s "$WORK/stock" "$WORK/sys"
trace-cmd report -i "$f" -O kmem:stat -O kmem:json="$WORK/sys.json" >/dev/null 2>&1
check install-system-complete python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["slab"]; sys.exit(1 if s["handled_elsewhere"] else 0)' "$WORK/sys.json"
mk uninstall
check uninstall-system-restored test "$(md5sum <"$sysdir/plugin_kmem.so")" = "$orig_sum"
check uninstall-system-undiverted bash -c "! dpkg-divert --list '$sysdir/plugin_kmem.so' | grep -q ."
finish
