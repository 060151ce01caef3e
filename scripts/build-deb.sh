#!/bin/bash
# Build installable Debian packages of the patched tree with Debian's own
# kernel configuration, through the kernel's own packaging ('make
# bindeb-pkg'): linux-image-RELEASE (the one to install), and the
# linux-headers-RELEASE and linux-libc-dev packages bindeb-pkg makes
# beside it.  Install only the image (and headers): this linux-libc-dev
# would replace Debian's.
#
# usage: build-deb.sh TREE DEBIAN_CONFIG_XZ OUTDIR FRAGMENT...
#
# TREE is the patched tree 'make apply' makes; DEBIAN_CONFIG_XZ one of
# /usr/src/linux-config-KVER/*.xz; FRAGMENT... what the series needs on
# top (its option; on 6.12 nothing that turns the v1 memory controller
# back on).  The object dir is OUTDIR/obj and bindeb-pkg writes the
# packages to its parent, OUTDIR, so they are always found there: the
# packages of an earlier build in OUTDIR are removed first.  The build's
# output is in OUTDIR/build.log; the packages' paths are printed last.
#
# Environment:
#   DEB_MODULES, which of Debian's kernels, DEBIAN_CONFIG_XZ being the
#   matching file of linux-config-KVER:
#     cloud (default): Debian's cloud-amd64 flavour
#       (config.amd64_none_cloud-amd64) with its modules, about 1 100
#       against amd64's 3 900: a host in a VM, its disks and
#       filesystems, and what containers need (overlay, veth, bridge and
#       br_netfilter, nftables and the iptables-nft compat, conntrack
#       and NAT, vxlan, SMC).  Left out: drivers for real hardware
#       (GPUs, wifi, sound, most NICs and storage controllers).  With
#       configs/deb-host.config (no debug info; modules signed with the
#       build's own key).  The package 'make check-host' installs and
#       boots; tests/README.md has its build times.
#     0: Debian's amd64 kernel with every module left out ('builtin' in
#       debian-config.sh, as check-distro-config's part 1), the one whose
#       vmlinuz boots with the test initramfs (check-deb.sh), which
#       carries no modules.  It cannot mount a root on a virtio disk.
#     1: Debian's amd64 flavour whole, all its modules (signed at
#       install with a key the build makes) and its debug info (a -dbg
#       package; needs pahole, package dwarves): what a maintainer
#       ships.  Not run here: an estimated 5 to 8 hours on 2 cores
#       (Debian's 6.12 config has 4051 modules: some 7 times the compile
#       work of the built-in kernel's 2600 C files, plus debug info, BTF
#       and the -dbg package).
#         make deb KVER=6.12 DEB_MODULES=1 JOBS=$(nproc)
#   DEB_LOCALVERSION (default +tcpmemcg): appended to the kernel release
#     by a localversion file in the object dir (as the PREEMPT_RT queue's
#     localversion-rt does), so the package's name and 'uname -r' on a
#     host say that the kernel is patched: 6.12.118+tcpmemcg.  A file and
#     not LOCALVERSION= on the command line, so that any later make in
#     the object dir gives the same release.
#   JOBS (default nproc): parallel jobs of the one make.
#   DEBFULLNAME, DEBEMAIL: the packages' Maintainer (bindeb-pkg's
#     mkdebian reads them; the user at this host otherwise).
set -eu

die() { echo "build-deb: $*" >&2; exit 1; }

[ $# -ge 4 ] || die "usage: build-deb.sh TREE DEBIAN_CONFIG_XZ OUTDIR FRAGMENT..."
tree=$1 debconfig=$2 outdir=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
modules=${DEB_MODULES:-cloud}
marker=${DEB_LOCALVERSION:-+tcpmemcg}
jobs=${JOBS:-$(nproc)}
case $modules in
0) mode=builtin ;;
1 | cloud) mode=modules ;;
*) die "DEB_MODULES is cloud (cloud-amd64 and its modules), 0 (built-in only) or 1 (every module), not '$modules'" ;;
esac
# It ends up in a package name: Debian allows lower case, digits, + - .
case $marker in
"" | *[!a-z0-9.+-]*) die "DEB_LOCALVERSION '$marker': use lower case letters, digits, + - . only" ;;
esac
[ -f "$tree/Makefile" ] || die "no kernel tree at $tree (run 'make apply')"

# What the tree's bindeb-pkg runs, by the package that brings it.  6.12
# builds with debhelper (scripts/package/debian/rules); 6.1 runs
# dpkg-buildpackage under 'fakeroot -u' and checks its Build-Depends
# (rsync and kmod among them).
need="dpkg-buildpackage:dpkg-dev rsync:rsync depmod:kmod"
if [ -f "$tree/scripts/package/debian/rules" ]; then
	need="$need dh_testdir:debhelper"
else
	need="$need fakeroot:fakeroot"
fi
missing=
for n in $need; do
	# depmod is in /sbin, not on a normal user's PATH
	PATH=$PATH:/sbin:/usr/sbin command -v "${n%%:*}" >/dev/null ||
		missing="$missing ${n#*:}"
done
[ -z "$missing" ] ||
	die "missing package(s)$missing for 'make bindeb-pkg': apt-get install -y$missing"

obj=$outdir/obj
t0=$(date +%s)
"$here/debian-config.sh" "$tree" "$debconfig" "$obj" "$mode" "$@"
obj=$(cd "$obj" && pwd) outdir=$(cd "$outdir" && pwd)
# Debian's BTF (kept with DEB_MODULES=1) needs pahole to build.
if grep -q '^CONFIG_DEBUG_INFO_BTF=y' "$obj/.config" && ! command -v pahole >/dev/null; then
	die "missing package dwarves (pahole, for the BTF of $(basename "$debconfig")): apt-get install -y dwarves"
fi
echo "build-deb: $(basename "$debconfig") ($mode) + $* -> $obj/.config"
grep -E '^(# )?CONFIG_(MODULES|MEMCG|MEMCG_V1|MEMCG_TCP_PRESSURE|DEBUG_INFO_NONE)[= ]' "$obj/.config" |
	tr '\n' ' ' | sed 's/^/build-deb:   /; s/ $/\n/'

rm -f "$obj"/localversion*
printf '%s\n' "$marker" >"$obj/localversion-tcpmemcg"
# Only this build's packages in OUTDIR, so that they are the ones listed.
rm -f "$outdir"/*.deb "$outdir"/*.buildinfo "$outdir"/*.changes

log=$outdir/build.log
echo "build-deb: make -C $tree O=$obj -j$jobs bindeb-pkg (output in $log)"
if ! make -C "$tree" O="$obj" -j"$jobs" bindeb-pkg >"$log" 2>&1; then
	tail -n 40 "$log" >&2
	die "make bindeb-pkg failed (whole output in $log)"
fi
t1=$(date +%s)

release=$(cat "$obj/include/config/kernel.release")
case $release in
*"$marker") ;;
*) die "the kernel release '$release' does not end with '$marker'" ;;
esac
image=
for f in "$outdir/linux-image-${release}_"*.deb; do
	[ -f "$f" ] && image=$f
done
[ -n "$image" ] || die "no linux-image-${release}_*.deb in $outdir (see $log)"
echo "build-deb: kernel release $release, built and packaged in $(((t1 - t0) / 60)) min $(((t1 - t0) % 60)) s"
echo "build-deb: image package $image"
echo "build-deb: all packages:"
for f in "$outdir"/*.deb; do
	echo "  $f ($(du -k "$f" | cut -f1) KiB)"
done
