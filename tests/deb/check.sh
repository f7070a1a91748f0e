#!/bin/bash
# The Debian packages, built and tried on this system (root only):
# make deb; lintian with no error or warning; dpkg -i both packages;
# stock trace-cmd report -O kmem:stat through the system plugin
# directory only; man -w trace-kmem; the KernelShark plugin's package
# (trace-kmem-kshark, when kernelshark is installed): its plugin in
# KernelShark's directory, loaded through libkshark on a sample with the
# numbers of trace-kmem stat; dpkg --purge; libtraceevent1-plugin's
# plugin_kmem.so back, byte-identical to what that package ships.
# Prints PASS/FAIL/SKIP lines and "N passed, N failed, N skipped".
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 1
passed=0 failed=0 skipped=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
skip() { echo "SKIP $1: $2"; skipped=$((skipped + 1)); }
check() { local n=$1; shift; if "$@"; then pass "$n"; else fail "$n" "$*"; fi; }
end() { echo "$passed passed, $failed failed, $skipped skipped"; [ "$failed" -eq 0 ]; exit $?; }

# as root, what make deb and this check need (scripts/deps.sh deb)
if [ "$(id -u)" -eq 0 ] && ! scripts/deps.sh deb; then
	fail deb-deps "scripts/deps.sh deb could not install the packaging tools"
	end
fi
for c in dpkg-buildpackage dh lintian dpkg-divert; do
	command -v "$c" >/dev/null || { skip deb "$c not installed (as root: scripts/deps.sh deb)"; end; }
done
[ "$(id -u)" -eq 0 ] || { skip deb "not root: the packages cannot be installed"; end; }
dir=$(pkg-config --variable=libdir libtraceevent)/traceevent/plugins
sys=$dir/plugin_kmem.so
md5=$(awk -v p="${sys#/}" '$2 == p { print $1 }' /var/lib/dpkg/info/libtraceevent1-plugin*.md5sums 2>/dev/null)
[ -n "$md5" ] || { skip deb "libtraceevent1-plugin does not ship $sys"; end; }
if dpkg-divert --list "$sys" | grep -q .; then
	skip deb "$sys is diverted already: $(dpkg-divert --list "$sys")"
	end
fi
W=$(mktemp -d /tmp/kmem-deb.XXXXXX)
trap 'rm -rf "$W"' EXIT

version=$(sed -n 's/^VERSION := //p' Makefile)
if ! make -s --no-print-directory deb >"$W/build.log" 2>&1; then
	fail deb-build "make deb: $(tail -5 "$W/build.log" | tr '\n' ' ')"
	end
fi
pass deb-build
debs=("../trace-kmem_${version}_"*.deb "../trace-kmem-plugin_${version}_"*.deb)
kdeb=$(ls "../trace-kmem-kshark_${version}_"*.deb 2>/dev/null)
check deb-three-packages test -f "${debs[0]}" -a -f "${debs[1]}" -a -f "$kdeb"
check deb-kshark-depends bash -c "dpkg-deb -f '$kdeb' Depends | grep -qw kernelshark"
# KernelShark itself is needed to install it
if dpkg-query -W -f='${Status}' kernelshark 2>/dev/null | grep -q "ok installed"; then
	debs+=("$kdeb")
else
	kdeb=
	skip deb-kshark "kernelshark is not installed: trace-kmem-kshark is built, not installed"
fi
lintian --fail-on error,warning --tag-display-limit 0 \
	"../trace-kmem_${version}_"*.changes >"$W/lintian.log" 2>&1
check deb-lintian-clean test $? -eq 0 -a -z "$(grep -v 'root privileges' "$W/lintian.log")"
[ ! -s "$W/lintian.log" ] || grep -v 'root privileges' "$W/lintian.log" | head -20

if ! dpkg -i "${debs[@]}" >"$W/install.log" 2>&1; then
	fail deb-install "dpkg -i: $(tail -5 "$W/install.log" | tr '\n' ' ')"
	end
fi
pass deb-install
check deb-plugin-diverted test "$(dpkg-divert --listpackage "$sys")" = trace-kmem-plugin
check deb-distrib-kept test "$(md5sum <"$sys.distrib" | cut -d' ' -f1)" = "$md5"
sample=$(ls -S -r "$TOP"/sample-data/*.dat | head -n 1)
env -u TRACEEVENT_PLUGIN_DIR HOME="$W" trace-cmd report -i "$sample" -O kmem:stat \
	>"$W/report.txt" 2>"$W/report.err"
check deb-stock-trace-cmd-report grep -q "kmem statistics" "$W/report.txt"
check deb-man-w test "$(man -w trace-kmem 2>/dev/null)" = /usr/share/man/man1/trace-kmem.1.gz
check deb-trace-kmem-runs bash -c "/usr/bin/trace-kmem stat '$sample' | grep -q 'kmem statistics'"
if [ -n "$kdeb" ]; then
	kp=$(dpkg -L trace-kmem-kshark | grep '/kernelshark/plugins/plugin-kmem\.so$')
	check deb-kshark-plugin-dir test "$kp" = "$(sed -n 's/^#define KS_PLUGIN_INSTALL_PREFIX "\(.*\)"/\1/p' /usr/include/kernelshark/KsCmakeDef.hpp)/plugin-kmem.so"
	check deb-kshark-man-w test "$(man -w kmem-kernelshark 2>/dev/null)" = /usr/share/man/man7/kmem-kernelshark.7.gz
	kk=$TOP/build/kshark/kshark_kmem
	if [ -x "$kk" ]; then
		ks=$TOP/sample-data/slab-pingpong.dat
		ASAN_OPTIONS=detect_leaks=0 HOME="$W" "$kk" "$kp" "$ks" >"$W/kshark.out" 2>"$W/kshark.err"
		/usr/bin/trace-kmem stat --json="$W/kshark.json" "$ks" >/dev/null 2>&1
		check deb-kshark-plugin-as-stat python3 "$TOP/tests/kshark/compare_stat.py" \
			"$W/kshark.out" "$W/kshark.json"
	else
		skip deb-kshark-plugin-as-stat "no $kk (make tests)"
	fi
fi

# make install beside the package: refused in one line, nothing touched
sum_before=$(md5sum <"$sys" | cut -d' ' -f1)
scripts/install.sh install "$(dirname "$sys")" "$TOP/build/plugins/plugin_kmem.so" \
	>"$W/mi.out" 2>"$W/mi.err"
check deb-make-install-refused test $? -eq 1
check deb-make-install-said grep -qx "install: the trace-kmem-plugin package is installed; remove it first (apt-get remove trace-kmem-plugin), or keep to the packages" "$W/mi.err"
check deb-make-install-untouched test "$(md5sum <"$sys" | cut -d' ' -f1)" = "$sum_before"
make -s --no-print-directory uninstall >"$W/mu.out" 2>"$W/mu.err"
check deb-make-uninstall-refused test $? -ne 0 -a -f "$sys" -a -x /usr/bin/trace-kmem -a \
	"$(dpkg-divert --listpackage "$sys")" = trace-kmem-plugin
check deb-make-uninstall-said grep -q "^uninstall: trace-kmem is installed as packages" "$W/mu.err"

dpkg --purge ${kdeb:+trace-kmem-kshark} trace-kmem-plugin trace-kmem >"$W/purge.log" 2>&1
check deb-purge test $? -eq 0
check deb-purge-quiet sh -c "! grep -q 'No diversion' '$W/purge.log'"
check deb-no-diversion-left test -z "$(dpkg-divert --list "$sys")"
check deb-debian-plugin-back test "$(md5sum <"$sys" 2>/dev/null | cut -d' ' -f1)" = "$md5"
check deb-trace-kmem-gone test ! -e /usr/bin/trace-kmem
check deb-kshark-gone test -z "$kdeb" -o ! -e "${kp:-/nonexistent}"
rm -f ../trace-kmem_"$version"_* ../trace-kmem-plugin_"$version"_* \
	../trace-kmem-kshark_"$version"_* ../trace-kmem-dbgsym_"$version"_* \
	../trace-kmem-plugin-dbgsym_"$version"_* ../trace-kmem-kshark-dbgsym_"$version"_*
end
