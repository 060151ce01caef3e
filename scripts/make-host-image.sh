#!/bin/bash
# Make the Debian host 'make check-host' boots: a root filesystem built by
# Debian's mmdebstrap with systemd and the container tools operators use,
# the kernel installed into it with dpkg as a host would, the checks of
# tests/host/ started by a systemd unit, all on an ext4 disk image.
#
# usage: make-host-image.sh KVER KERNEL DEB_DIR OUTDIR
#
# KVER 6.1 makes Debian 12 (bookworm), 6.12 Debian 13 (trixie): the
# release each kernel is Debian's for.  KERNEL patched: 'dpkg -i' of the
# linux-image and linux-headers packages 'make deb' left in DEB_DIR, whose
# postinst makes the initramfs (initramfs-tools), installed beside
# Debian's own kernel of the same flavour (linux-image-cloud-amd64 from the
# archive), as on a host that had it; KERNEL stock: Debian's kernel alone,
# what a user sees without the series, or after going back to it.  The packages in the root:
# systemd, podman with netavark, crun, runc, lxc, iperf3, nftables,
# iptables and apparmor, as a container host has them; a second, minimal
# root with iperf3 and tests/host/tcphold is the containers' (podman
# --rootfs, runc's and LXC's rootfs), so no registry is needed.
# Writes OUTDIR/disk.img (ext4, the root), OUTDIR/vmlinuz and
# OUTDIR/initrd.img (what the root's /boot holds, to boot directly),
# OUTDIR/release, and OUTDIR/image.log (mmdebstrap's and dpkg's output).
# Environment: HOST_MIRROR (default http://deb.debian.org/debian),
# DEB_LOCALVERSION (default +tcpmemcg, the release's marker).
set -eu

die() { echo "make-host-image: $*" >&2; exit 1; }

[ $# -eq 4 ] || die "usage: make-host-image.sh KVER KERNEL DEB_DIR OUTDIR"
kver=$1 kernel=$2 debdir=$3 outdir=$4
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
mirror=${HOST_MIRROR:-http://deb.debian.org/debian}
marker=${DEB_LOCALVERSION:-+tcpmemcg}
case $kver in
6.1) suite=bookworm ;;
6.12) suite=trixie ;;
*) die "no Debian release known for kernel $kver (6.1: bookworm, 6.12: trixie)" ;;
esac
[ "$(id -u)" = 0 ] || die "run as root: mmdebstrap installs packages with their owners, mke2fs -d keeps them"
missing=
for n in mmdebstrap:mmdebstrap mke2fs:e2fsprogs dpkg-deb:dpkg gcc:gcc qemu-system-x86_64:qemu-system-x86; do
	PATH=$PATH:/sbin:/usr/sbin command -v "${n%%:*}" >/dev/null || missing="$missing ${n#*:}"
done
[ -f /usr/lib/x86_64-linux-gnu/libc.a ] || missing="$missing libc6-dev"
[ -z "$missing" ] || die "missing package(s)$missing: apt-get install -y$missing"

debs=()
case $kernel in
patched)
	for f in "$debdir"/linux-image-*"$marker"_*.deb "$debdir"/linux-headers-*"$marker"_*.deb; do
		case $f in *-dbg_*) continue ;; esac
		[ -f "$f" ] && debs+=("$f")
	done
	[ ${#debs[@]} = 2 ] ||
		die "want one linux-image and one linux-headers package ending in $marker in $debdir, found: ${debs[*]:-none} (run 'make deb')"
	;;
stock) ;;
*) die "KERNEL is patched or stock, not '$kernel'" ;;
esac

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
log=$outdir/image.log
rm -rf "$outdir/root" "$outdir/ctr" "$outdir/disk.img" "$outdir/vmlinuz" "$outdir/initrd.img" "$outdir/release"
: >"$log"
t0=$(date +%s)

# The containers' root: minimal, with iperf3 and the static fill helper.
gcc -static -O2 -Wall -o "$outdir/tcphold" "$repo/tests/host/tcphold.c"
echo "make-host-image: the containers' root ($suite, minbase + iperf3) -> $outdir/ctr"
mmdebstrap --variant=minbase --include=iperf3 "$suite" "$outdir/ctr" "$mirror" >>"$log" 2>&1 ||
	{ tail -n 20 "$log" >&2; die "mmdebstrap of the containers' root failed (whole output in $log)"; }
install -m 755 "$outdir/tcphold" "$outdir/ctr/usr/local/bin/tcphold"

# The host.  Hooks run outside the root with its path as $1; 'chroot
# "$1" dpkg -i' is the install a host does, its postinst hooks included.
pkgs=systemd,systemd-sysv,udev,dbus,kmod,initramfs-tools,e2fsprogs,iproute2,procps
pkgs=$pkgs,podman,netavark,aardvark-dns,crun,runc,lxc,iperf3,nftables,iptables,apparmor
pkgs=$pkgs,linux-image-cloud-amd64
checks=/usr/local/lib/tcpmemcg-check-host
echo "make-host-image: the host's root ($suite: ${pkgs//,/ }) -> $outdir/root"
# Each hook a shell line run on this host with the root's path as $1;
# our paths in it quoted for that shell.
qout=$(printf %q "$outdir") qrepo=$(printf %q "$repo") qdebs=
for f in "${debs[@]}"; do
	qdebs="$qdebs $(printf %q "$f")"
done
# shellcheck disable=SC2016 # $1 is the hook's, not ours
hooks=(
	'echo tcpmemcg-host >"$1/etc/hostname"'
	'echo "/dev/vda / ext4 errors=remount-ro 0 1" >"$1/etc/fstab"'
	"mkdir -p \"\$1$checks\" \"\$1/etc/containers\""
)
if [ ${#debs[@]} -gt 0 ]; then
	# shellcheck disable=SC2016
	hooks+=(
		"mkdir -p \"\$1/tmp/debs\" && cp $qdebs \"\$1/tmp/debs/\""
		# the glob in the root, not on the host where the hook runs
		'chroot "$1" sh -c "dpkg -i /tmp/debs/*.deb"'
		'rm -rf "$1/tmp/debs"'
	)
fi
# shellcheck disable=SC2016
hooks+=(
	"cp -a $qout/ctr \"\$1/srv/tcpmemcg-ctr\""
	"install -m 755 $qout/tcphold $qrepo/tests/host/host-checks.sh $qrepo/initramfs/kernel-log-splats \"\$1$checks/\""
	"install -m 644 $qrepo/tests/host/tcp-max.conf \"\$1$checks/\""
	"printf 'MARKER=%s\\nKERNEL=%s\\n' '$marker' '$kernel' >\"\$1/etc/tcpmemcg-check-host.conf\""
	"printf '[network]\\nnetwork_backend = \"netavark\"\\n' >\"\$1/etc/containers/containers.conf\""
	"install -m 644 $qrepo/tests/host/tcpmemcg-check-host.service \"\$1/etc/systemd/system/\""
	'chroot "$1" systemctl enable tcpmemcg-check-host.service'
)
args=(--variant=minbase --include="$pkgs")
for h in "${hooks[@]}"; do
	args+=(--customize-hook="$h")
done
mmdebstrap "${args[@]}" "$suite" "$outdir/root" "$mirror" >>"$log" 2>&1 ||
	{ tail -n 30 "$log" >&2; die "mmdebstrap of the host's root failed (whole output in $log)"; }

# The kernel to boot (the package's, or Debian's), and the initramfs
# dpkg's hooks made for it, as the root has them.
n=0 release=
for f in "$outdir"/root/boot/vmlinuz-*; do
	[ -f "$f" ] || continue
	r=${f##*/vmlinuz-}
	case $kernel-$r in
	patched-*"$marker" | stock-*-cloud-amd64) release=$r n=$((n + 1)) ;;
	esac
done
[ $n = 1 ] || die "want one $kernel kernel in the root's /boot, found $n: $(ls "$outdir/root/boot") (see $log)"
[ -f "$outdir/root/boot/initrd.img-$release" ] ||
	die "no /boot/initrd.img-$release: the package's postinst did not make an initramfs (see $log)"
cp "$outdir/root/boot/vmlinuz-$release" "$outdir/vmlinuz"
cp "$outdir/root/boot/initrd.img-$release" "$outdir/initrd.img"
echo "$release" >"$outdir/release"

size_mb=$(($(du -sm "$outdir/root" | cut -f1) + 1536))
mke2fs -q -t ext4 -L root -d "$outdir/root" "$outdir/disk.img" "${size_mb}M" >>"$log" 2>&1 ||
	{ tail -n 10 "$log" >&2; die "mke2fs -d failed (see $log)"; }
rm -rf "$outdir/root" "$outdir/ctr"
t1=$(date +%s)
echo "make-host-image: $suite with kernel $release ($kernel) on $outdir/disk.img (${size_mb} MB), made in $(((t1 - t0) / 60)) min $(((t1 - t0) % 60)) s"
