#!/bin/bash
# Boot the guest kernel with the test initramfs and keep its serial log.
#
# usage: run-qemu.sh BZIMAGE INITRAMFS LOG
#
# Environment: ACCEL=auto|kvm|tcg (auto probes KVM with the real kernel,
# see below), QEMU_TIMEOUT seconds (default 900), QEMU_MEM (default 1G),
# QEMU_SMP (default 2: the test kernel is SMP), QEMU_APPEND (extra
# kernel command line),
# QEMU_ICOUNT=1 (TCG with -icount shift=0,sleep=off: the guest clock
# counts instructions, one per nanosecond, for make bench),
# QEMU_TCG_THREAD=single|multi (default single, see below).
#
# TCG runs the vCPUs in one host thread, taking turns (thread=single),
# unless QEMU_TCG_THREAD=multi.  With a thread per vCPU (QEMU 7.2's
# default) a guest died once in stock code on a loaded host: "int3: 0000
# [#1]" in inet6_ehashfn(), while a work item on the other CPU switched
# off the once-key there.  The int3 is text_poke_bp()'s, executed after
# the patch was done and synchronised, which real CPUs cannot do; we read
# it as TCG running a block translated from the half-patched code.  The
# series and the tests switch static keys all the time, so any boot could
# meet it.  One thread still runs both vCPUs, each preempted by the other
# at any translated block, which is what the kernel's SMP paths and the
# tests' two-CPU interleavings need; make check-kcsan keeps multi, for
# KCSAN's watchpoints to see two CPUs at once.
# Exit status: QEMU's (2N+1 when the guest's /init ended with status N
# through isa-debug-exit), 124 when the time limit killed it.
set -u

die() { echo "run-qemu: $*" >&2; exit 2; }

[ $# -eq 3 ] || die "usage: run-qemu.sh BZIMAGE INITRAMFS LOG"
kernel=$1 initrd=$2 log=$3
[ -f "$kernel" ] || die "no kernel image $kernel (run 'make kernel')"
[ -f "$initrd" ] || die "no initramfs $initrd (run 'make initramfs')"
command -v qemu-system-x86_64 >/dev/null ||
	die "qemu-system-x86_64 not found: apt-get install qemu-system-x86"

timeout_s=${QEMU_TIMEOUT:-900}
mkdir -p "$(dirname "$log")"

qemu() {	# qemu ACCEL-OPTION LOG TIMEOUT APPEND
	# $icount is empty or two words
	# shellcheck disable=SC2086
	timeout -s KILL "$3" qemu-system-x86_64 -accel "$1" \
		-m "${QEMU_MEM:-1G}" -smp "${QEMU_SMP:-2}" \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 quiet $4" \
		-display none -monitor none -serial "file:$2" -nic none -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 $icount </dev/null
}

icount=
accel=${ACCEL:-auto}
tcg_thread=${QEMU_TCG_THREAD:-single}
case $tcg_thread in
single|multi) ;;
*) die "QEMU_TCG_THREAD must be single or multi, not '$tcg_thread'" ;;
esac
if [ "${QEMU_ICOUNT:-0}" = 1 ]; then
	# instruction counting exists under TCG only
	[ "$accel" = kvm ] && die "QEMU_ICOUNT=1 needs TCG, not ACCEL=kvm"
	accel=tcg
	tcg_thread=single
	icount="-icount shift=0,sleep=off"
fi
if [ "$accel" = auto ]; then
	# /dev/kvm may exist while KVM guests hang (nested virtualisation):
	# boot this very kernel with KVM, its /init exiting at once with 42
	# (QEMU status 85).  Anything else within 15 s means TCG.  The answer
	# holds until the host reboots, so it is kept beside the log.
	probe=$(dirname "$log")/kvm-probe
	boot_id=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)
	if [ -f "$probe" ] && [ "$(sed -n 1p "$probe")" = "$boot_id" ]; then
		accel=$(sed -n 2p "$probe")
		echo "run-qemu: KVM probe (cached in $probe): using $accel"
	else
		accel=tcg
		if [ -w /dev/kvm ]; then
			qemu kvm "$log.kvm-probe" 15 "tcpmemcg.probe=1" >/dev/null 2>&1
			[ $? -eq 85 ] && accel=kvm
		fi
		printf '%s\n%s\n' "$boot_id" "$accel" >"$probe"
		echo "run-qemu: KVM probe: using $accel"
	fi
fi
case $accel in
kvm|tcg) ;;
*) die "ACCEL must be auto, kvm or tcg, not '$accel'" ;;
esac

accel_option=$accel
[ "$accel" = tcg ] && accel_option=tcg,thread=$tcg_thread
echo "run-qemu: booting $kernel ($accel_option, limit ${timeout_s}s), serial log $log"
qemu "$accel_option" "$log" "$timeout_s" "${QEMU_APPEND:-}"
st=$?
[ $st -eq 137 ] && st=124
exit $st
