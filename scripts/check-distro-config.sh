#!/bin/bash
# Build the patched tree with Debian's own kernel configuration, boot it
# with the test initramfs and run the whole suite; then compile, with
# Debian's full configuration (modules included), every source file that
# uses the socket memory accounting the series changes.
#
# usage: check-distro-config.sh TREE DEBIAN_CONFIG_XZ OBJ_PREFIX INITRAMFS LOGDIR FRAGMENT...
#
# Part 1, OBJ_PREFIX-builtin: Debian's config plus FRAGMENT... (the
# series' option, and what configs/distro-check.config changes to build
# in bounded time), then 'make mod2noconfig': Debian's built-in kernel
# with every module left out (a full module build takes hours on 2
# cores).  Booted on 2 vCPUs, the suite must pass.
# Part 2, OBJ_PREFIX-full: Debian's config with its modules, plus the
# same fragments; only the objects of the files that use the accounting
# API (sk_memory_allocated, memory pressure, sysctl_mem, the socket memcg
# hooks, ...) are built, modules such as SCTP, TLS, KCM among them.
#
# Not in CI: about 30 minutes on 2 cores (README).  Prints each part's
# time.  Exit status 0 if both parts pass.
set -eu

die() { echo "check-distro-config: $*" >&2; exit 1; }

[ $# -ge 6 ] ||
	die "usage: check-distro-config.sh TREE DEBIAN_CONFIG_XZ OBJ_PREFIX INITRAMFS LOGDIR FRAGMENT..."
tree=$1 debconfig=$2 prefix=$3 initramfs=$4 logdir=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$initramfs" ] || die "no initramfs $initramfs (run 'make initramfs')"
frags=("$@")
jobs=${JOBS:-$(nproc)}
mkdir -p "$logdir"

# configure OBJ builtin|modules: Debian's config + the fragments in OBJ
# (debian-config.sh, which checks the tree, the config and the fragments
# first, and every symbol a fragment sets in the result).
configure() {
	"$here/debian-config.sh" "$tree" "$debconfig" "$1" "$2" "${frags[@]}"
}

# Part 1
obj=$prefix-builtin
log=$logdir/check-distro-config.log
t0=$(date +%s)
configure "$obj" builtin
echo "check-distro-config: Debian's config, modules off, + $* -> $obj/.config"
grep -E '^CONFIG_(SMP|NR_CPUS|PREEMPT_DYNAMIC|PREEMPT_VOLUNTARY|USER_NS|RETPOLINE|MITIGATION_RETPOLINE|MEMCG|MEMCG_V1|MEMCG_TCP_PRESSURE|MPTCP|IPV6)=' \
	"$obj/.config" | tr '\n' ' ' | sed 's/^/check-distro-config:   /; s/ $/\n/'
echo "check-distro-config: make -j$jobs bzImage"
make -s -C "$tree" O="$obj" -j"$jobs" bzImage
t1=$(date +%s)
echo "check-distro-config: built-in kernel built in $(((t1 - t0) / 60)) min $(((t1 - t0) % 60)) s"
# one boot per hierarchy; Debian's 6.12 has no v1 memory controller
hierarchies=${HIERARCHIES:-v1 v2}
grep -q '^# CONFIG_MEMCG_V1 is not set' "$obj/.config" && hierarchies=v2
suite=0
QEMU_MEM=${QEMU_MEM:-2G} QEMU_TIMEOUT=${QEMU_TIMEOUT:-1800} \
	"$here/run-suite.sh" "$obj/arch/x86/boot/bzImage" "$initramfs" "$log" \
	$hierarchies || suite=1
t2=$(date +%s)
echo "check-distro-config: suite on Debian's built-in kernel ran $(((t2 - t1) / 60)) min $(((t2 - t1) % 60)) s (serial logs ${log%.log}-*.log)"

# Part 2
obj=$prefix-full
configure "$obj" modules
files=$(cd "$tree" && grep -rlE --include='*.c' \
	'sk_memory_allocated|sk_sockets_allocated|sk_under_memory_pressure|sk_enter_memory_pressure|sk_leave_memory_pressure|sk_prot_mem_limits|sk_memory_over_limit|sk_memory_at_limit|sock_exceed_buf_limit|mem_cgroup_sk_|sk_memcg|sysctl_mem|memory_pressure|__sk_mem_|sk_mem_reclaim|sk_[rw]mem_schedule|cg_proto' \
	net mm kernel fs drivers | sort)
objs=
for f in $files; do
	objs="$objs ${f%.c}.o"
	rm -f "$obj/${f%.c}.o"
done
# One make for all (each call would redo kbuild's preparation), -k to
# see every failure.  kbuild compiles a named object even where the
# config leaves its option off (CAIF, espintcp on Debian's 6.1): those
# are compiled against Debian's config too.  An object that is not
# there and did not fail to compile is listed as not built.
# shellcheck disable=SC2086
make -k -s -C "$tree" O="$obj" -j"$jobs" $objs >"$obj/objects.log" 2>&1 || true
built= off=
for f in $files; do
	if [ -f "$obj/${f%.c}.o" ]; then
		built="$built $f"
	elif grep -q "^[^ ]*${f%.c}\.[ch]:[0-9]*:[0-9]*: error:" "$obj/objects.log"; then
		grep -A3 "error:" "$obj/objects.log" >&2
		die "$f does not compile with Debian's full config"
	else
		off="$off $f"
	fi
done
grep -q ' error: ' "$obj/objects.log" &&
	{ grep -B2 -A3 ' error: ' "$obj/objects.log" >&2; die "compile errors with Debian's full config ($obj/objects.log)"; }
t3=$(date +%s)
echo "check-distro-config: full config (modules on): $(echo $built | wc -w) files that use the accounting API compiled in $(((t3 - t2) / 60)) min $(((t3 - t2) % 60)) s:"
echo "$built" | fold -s -w 76 | sed 's/^ */    /'
[ -z "$off" ] || { echo "  not built (kbuild made no object):"; echo "$off" | fold -s -w 76 | sed 's/^ */    /'; }
echo "check-distro-config: total $(((t3 - t0) / 60)) min"
[ $suite -eq 0 ] || die "the suite failed on Debian's built-in kernel (serial logs ${log%.log}-*.log)"
echo "check-distro-config: passed"
