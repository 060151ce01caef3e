#!/bin/bash
# Check the linux-image package build-deb.sh made: keep its metadata,
# boot the kernel from inside the package with the test initramfs, run
# the suite, and check that the guest runs the release the package names,
# marker included.
#
# usage: check-deb.sh OUTDIR INITRAMFS LOGDIR
#
# OUTDIR is build-deb.sh's (the one linux-image-RELEASE_*.deb there is
# checked).  LOGDIR/deb-RELEASE.log gets 'dpkg-deb --info' and
# '--contents' of the package; the vmlinuz is taken from the package
# with 'dpkg-deb -x', not from the object dir, so what is booted is what
# an operator installs.  One boot per hierarchy (run-suite.sh, serial
# logs LOGDIR/check-deb-RELEASE-vN.log): HIERARCHIES (default v1 v2),
# less v1 when the packaged config has no v1 memory controller (Debian's
# 6.12).  The guest prints "# kernel: $(uname -r)" (initramfs/init):
# every boot must show RELEASE, which must end with DEB_LOCALVERSION
# (default +tcpmemcg).  Only a built-in kernel (DEB_MODULES=0) can pass:
# the test initramfs carries no modules.  Exit status 0 if all holds.
set -eu

die() { echo "check-deb: $*" >&2; exit 1; }

[ $# -eq 3 ] || die "usage: check-deb.sh OUTDIR INITRAMFS LOGDIR"
outdir=$1 initramfs=$2 logdir=$3
here=$(cd "$(dirname "$0")" && pwd)
marker=${DEB_LOCALVERSION:-+tcpmemcg}
command -v dpkg-deb >/dev/null || die "dpkg-deb not found: apt-get install dpkg"
[ -f "$initramfs" ] || die "no initramfs $initramfs (run 'make initramfs')"

# linux-image-RELEASE_VERSION_ARCH.deb, not its -dbg companion
image='' n=0
for f in "$outdir"/linux-image-*.deb; do
	case $f in *-dbg_*) continue ;; esac
	[ -f "$f" ] || continue
	image=$f n=$((n + 1))
done
[ $n -gt 0 ] || die "no linux-image package in $outdir (run 'make deb')"
[ $n -eq 1 ] || die "$n linux-image packages in $outdir: build-deb.sh leaves one"
package=$(dpkg-deb -f "$image" Package)
release=${package#linux-image-}
case $release in
*"$marker") ;;
*) die "package $package: its release does not end with '$marker'" ;;
esac

mkdir -p "$logdir"
info=$logdir/deb-$release.log
{
	echo "== dpkg-deb --info $image"
	dpkg-deb --info "$image"
	echo "== dpkg-deb --contents $image"
	dpkg-deb --contents "$image"
} >"$info"
echo "check-deb: $image ($(du -k "$image" | cut -f1) KiB; info and contents in $info)"
dpkg-deb -f "$image" Package Version Architecture Installed-Size Depends Maintainer |
	sed 's/^/check-deb:   /'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$image" "$tmp"
vmlinuz=$tmp/boot/vmlinuz-$release config=$tmp/boot/config-$release
[ -f "$vmlinuz" ] || die "no boot/vmlinuz-$release in $image"
[ -f "$config" ] || die "no boot/config-$release in $image"
grep -q '^CONFIG_MEMCG_TCP_PRESSURE=y' "$config" ||
	die "the packaged kernel's config does not have CONFIG_MEMCG_TCP_PRESSURE=y"

hierarchies=${HIERARCHIES:-v1 v2}
if grep -q '^# CONFIG_MEMCG_V1 is not set' "$config"; then
	echo "check-deb: the package's kernel has no v1 memory controller: cgroup v2 only"
	hierarchies=v2
fi
log=$logdir/check-deb-$release.log
suite=0
# shellcheck disable=SC2086 # a list of words: v1 v2
QEMU_MEM=${QEMU_MEM:-2G} QEMU_TIMEOUT=${QEMU_TIMEOUT:-1800} \
	"$here/run-suite.sh" "$vmlinuz" "$initramfs" "$log" $hierarchies || suite=1

bad=0
for h in $hierarchies; do
	hlog=${log%.log}-$h.log
	seen=$(tr -d '\r' <"$hlog" | sed -n 's/^# kernel: //p' | head -n 1)
	if [ "$seen" = "$release" ]; then
		echo "check-deb: the guest ($h) runs $seen"
	else
		echo "check-deb: the guest ($h) reports kernel '${seen:-nothing}', the package $release ($hlog)" >&2
		bad=1
	fi
done
[ $suite -eq 0 ] || die "the suite failed on the packaged kernel (serial logs ${log%.log}-*.log)"
[ $bad -eq 0 ] || die "the guest does not run the packaged release $release"
echo "check-deb: passed"
