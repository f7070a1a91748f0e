#!/bin/bash
# fresh-check.sh [options] RELEASE: the README's commands on a fresh
# Debian, as a new user meets them.  As root: debootstrap a minimal
# RELEASE (bookworm = Debian 12, trixie = Debian 13) with make and git,
# from the Debian mirror this machine's apt sources name; clone this
# repository's HEAD into it (and copy the trace files of others,
# ../shared/wild/ or $TRACE_KMEM_WILD, beside it when this machine has
# them: tests/e2e/wild.sh); then the steps, each in the chroot:
#
#   user    as an unprivileged user, make demo, make check, make install
#           and make deb must each stop before building and print one
#           apt-get line
#   demo    make demo (as root: installs what it needs)
#   check   make check (ends "N passed, N failed, N skipped")
#   clang   make CC=clang all tests (-Werror)
#   asan    the SANITIZE=1 build (-Werror; GCC 14 warns where GCC 12
#           does not), and under it the damaged files: tests/regress
#           and the mutations, read by this release's libtracecmd
#   deb     tests/deb/check.sh: make deb, lintian, install, use, purge
#
# Options:
#   --steps "S ..."   the steps, in order (default: "user demo check")
#   --dir DIR         where the chroot goes (default
#                     /var/tmp/trace-kmem-fresh-RELEASE; removed first)
#   --mirror URL      the Debian mirror (default: from /etc/apt/sources*)
#   --keep            leave the chroot (unmounted) for a look afterwards
#
# Prints "== step" before each step, its output, and at the end one line
# per step with its time; exits non-zero when a step fails.  Runs as
# root only (debootstrap, chroot, mount).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
steps="user demo check"
dir="" mirror="" keep=""
while [ $# -gt 0 ]; do
	case $1 in
	--steps) steps=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
	--mirror) mirror=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	-h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "fresh-check: unknown option $1 (--help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || { echo "usage: fresh-check.sh [--steps \"...\"] [--dir DIR] [--mirror URL] [--keep] bookworm|trixie" >&2; exit 2; }
case $1 in
bookworm | 12) release=bookworm ;;
trixie | 13) release=trixie ;;
*) echo "fresh-check: release '$1': bookworm (12) or trixie (13)" >&2; exit 2 ;;
esac
[ "$(id -u)" = 0 ] || { echo "fresh-check: needs root (debootstrap, chroot, mount)" >&2; exit 2; }
dir=${dir:-/var/tmp/trace-kmem-fresh-$release}
case $dir in /*) ;; *) dir=$PWD/$dir ;; esac
[ "$dir" != / ] || exit 2

# The first Debian archive (not the security one) this machine's apt
# sources name, deb822 or one-line.
default_mirror() {
	{
		sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | tr ' ' '\n'
		sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\{0,1\}\([^[:space:]]*\).*/\2/p' \
			/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null
	} | grep -E '^https?://[^ ]*/debian/?$' | head -n 1
}
mirror=${mirror:-$(default_mirror)}
mirror=${mirror:-http://deb.debian.org/debian}

command -v debootstrap >/dev/null || {
	echo "fresh-check: installing debootstrap" >&2
	apt-get install -y -qq debootstrap >/dev/null
}

# Everything mounted in the chroot, deepest first.
mounts() {
	awk -v d="$dir" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/self/mounts |
		sort -r
}
unmount_all() {
	local p m n
	# processes left inside (Xvfb, a test's helper) hold the mounts
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$dir" ] && kill -9 "${p#/proc/}" 2>/dev/null
	done
	for n in 1 2 3; do
		for m in $(mounts); do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
		[ -z "$(mounts)" ] && return 0
		sleep 1
	done
	[ -z "$(mounts)" ]
}
remove_dir() {
	[ -e "$dir" ] || return 0
	if ! unmount_all; then
		echo "fresh-check: $dir still has mounts; not removed:" $(mounts) >&2
		return 1
	fi
	rm -rf --one-file-system "$dir"
}
cleanup() {
	if [ -n "$keep" ]; then
		unmount_all || true
		echo "fresh-check: the chroot is kept in $dir (unmounted)"
	else
		remove_dir || true
	fi
}

remove_dir
trap cleanup EXIT
trap 'exit 130' INT TERM

times=()
step_start=0
begin() { echo "== $1"; step_start=$EPOCHREALTIME; }
end() { times+=("$(printf '%-10s %6.0f s  %s' "$1" "$(awk -v a="$step_start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')" "$2")"); }
summary() {
	echo "fresh-check $release ($mirror):"
	printf '  %s\n' "${times[@]}"
}

begin debootstrap
mkdir -p "$dir"
if ! debootstrap --variant=minbase --include=make,git,ca-certificates \
	"$release" "$dir" "$mirror" >"$dir.debootstrap.log" 2>&1; then
	tail -20 "$dir.debootstrap.log"
	end debootstrap FAILED
	summary
	exit 1
fi
rm -f "$dir.debootstrap.log"
end debootstrap ok

mount -t proc proc "$dir/proc"
mount -t sysfs sysfs "$dir/sys"
mount --rbind /dev "$dir/dev"
mount --make-rslave "$dir/dev"
# tracefs, for the recording tests (they skip, saying why, without it)
if [ -d "$dir/sys/kernel/tracing" ]; then
	mount -t tracefs nodev "$dir/sys/kernel/tracing" 2>/dev/null || true
fi
cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
# the machine's own certificate authorities (a TLS proxy's), part of its
# network setup as resolv.conf is: npm reaches its registry as here
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
	mkdir -p "$dir/usr/local/share/ca-certificates"
	cp /usr/local/share/ca-certificates/*.crt "$dir/usr/local/share/ca-certificates/"
	chroot "$dir" update-ca-certificates >/dev/null 2>&1 || true
fi
git clone -q "$TOP" "$dir/root/trace-kmem"
# the trace files of others (tests/e2e/wild.sh), where the clone's
# ../shared/wild finds them, when this machine has them (where wild.sh
# looks: $TRACE_KMEM_WILD, ../shared/wild, /work/shared/wild)
for wild in "${TRACE_KMEM_WILD:-}" "$TOP/../shared/wild" /work/shared/wild; do
	if [ -n "$wild" ] && ls "$wild"/*.dat >/dev/null 2>&1; then
		mkdir -p "$dir/root/shared/wild"
		cp "$wild"/*.dat "$wild"/README.md "$dir/root/shared/wild/" 2>/dev/null || true
		break
	fi
done

in_chroot() { # in_chroot COMMAND: as root, in the clone
	chroot "$dir" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "cd /root/trace-kmem && $1"
}

failed=0
for s in $steps; do
	begin "$s"
	rc=0
	case $s in
	user)
		# a user's own clone: make, make check, make install and make
		# deb must each stop before building and say which packages to
		# install, in one apt-get line
		git clone -q "$TOP" "$dir/tmp/user-clone"
		chown -R 65534:65534 "$dir/tmp/user-clone"
		for t in demo check install deb; do
			chroot --userspec=65534:65534 "$dir" /usr/bin/env -i HOME=/tmp \
				PATH=/usr/bin:/bin /bin/sh -c "cd /tmp/user-clone && make $t" \
				>"$dir/tmp/user.out" 2>&1 && rc=1
			echo "\$ make $t"
			cat "$dir/tmp/user.out"
			if [ "$(grep -c 'apt-get install' "$dir/tmp/user.out")" != 1 ] ||
			   [ -e "$dir/tmp/user-clone/build" ]; then
				echo "fresh-check: as a user, make $t should stop before building with one apt-get line"
				rc=1
			fi
		done
		;;
	demo) in_chroot "make demo" || rc=$? ;;
	check) in_chroot "make check" || rc=$? ;;
	clang) in_chroot "make clean >/dev/null && make CC=clang all tests" || rc=$? ;;
	asan) in_chroot "make B=/tmp/asan SANITIZE=1 all tests &&
		B=/tmp/asan tests/run.sh regress mutations" || rc=$? ;;
	deb) in_chroot "bash tests/deb/check.sh" || rc=$? ;;
	*) echo "fresh-check: unknown step '$s' (user demo check clang asan deb)"; rc=2 ;;
	esac
	if [ "$rc" -eq 0 ]; then end "$s" ok; else end "$s" "FAILED (exit $rc)"; failed=1; fi
done
summary
exit "$failed"
