#!/bin/bash
# Boot the Debian host make-host-image.sh made and report its checks.
#
# usage: check-host.sh OUTDIR
#
# OUTDIR is make-host-image.sh's: disk.img is the root, on a virtio disk;
# the kernel and initramfs are the ones the root's /boot holds (copied
# out by make-host-image.sh: QEMU boots them directly, no boot loader),
# the kernel command line the one a Debian host's boot loader gives
# (root=/dev/vda).  systemd is PID 1; tcpmemcg-check-host.service runs
# tests/host/host-checks.sh once the system is up, its KTAP report on the
# second serial port (OUTDIR/report.log), the console on the first
# (OUTDIR/console.log).  Prints the report as scripts/ktap-report.sh
# does, last line "N passed, N failed"; exit status 0 only if every check
# passed.  Environment: HOST_TIMEOUT seconds (default 3600), QEMU_MEM
# (default 2G), QEMU_SMP (default 2).  TCG as the suite runs it
# (run-qemu.sh says why one thread); KVM where the host has it.
set -eu

die() { echo "check-host: $*" >&2; exit 2; }

[ $# -eq 1 ] || die "usage: check-host.sh OUTDIR"
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
for f in disk.img vmlinuz initrd.img release; do
	[ -f "$dir/$f" ] || die "no $dir/$f (make-host-image.sh makes it)"
done
command -v qemu-system-x86_64 >/dev/null ||
	die "qemu-system-x86_64 not found: apt-get install qemu-system-x86"
timeout_s=${HOST_TIMEOUT:-3600}
accel=tcg,thread=single
[ "${ACCEL:-tcg}" = kvm ] && accel=kvm

rm -f "$dir/console.log" "$dir/report.log"
echo "check-host: booting $(cat "$dir/release") from $dir/disk.img (systemd, $accel, limit ${timeout_s}s)"
t0=$(date +%s)
st=0
timeout -s KILL "$timeout_s" qemu-system-x86_64 -accel "$accel" \
	-m "${QEMU_MEM:-2G}" -smp "${QEMU_SMP:-2}" \
	-kernel "$dir/vmlinuz" -initrd "$dir/initrd.img" \
	-append "root=/dev/vda ro console=ttyS0 panic=-1" \
	-drive "file=$dir/disk.img,format=raw,if=virtio" \
	-display none -monitor none -nic none -no-reboot \
	-serial "file:$dir/console.log" -serial "file:$dir/report.log" </dev/null || st=$?
t1=$(date +%s)
echo "check-host: the guest ran $(((t1 - t0) / 60)) min $(((t1 - t0) % 60)) s (console: $dir/console.log)"
[ $st -ne 137 ] || echo "check-host: the guest did not end within ${timeout_s}s"
# the report has no isa-debug-exit status to compare: the guest reboots
"$here/ktap-report.sh" "$dir/report.log"
