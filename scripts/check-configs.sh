#!/bin/bash
# Build the patched tree in each configuration of configs/variants/ and
# check the files the series touches for new W=1 warnings.
#
# usage: check-configs.sh PATCHED_TREE STOCK_TREE OBJ_PREFIX FRAGMENT... -- VARIANT...
#
# Each VARIANT fragment goes on top of the FRAGMENTs (last one wins), into
# its own object dir OBJ_PREFIX-NAME: bzImage, and modules where
# the variant turns modules on (modpost then names any symbol a module
# needs and the core does not export).  The series' objects that the
# configuration built are then recompiled with W=1; if any warns, the
# same objects are compiled from the stock tree with the same .config,
# and only warnings stock does not have count.  A variant whose fragment
# has a line "# compare-objects: FILE" (FILE beside it) also has its
# objects compared with stock's function by function
# (compare-objects.sh): a function of another size or other instructions,
# or inlined where stock's is not or the other way round, fails unless
# FILE names it, for this kernel, with the reason.  A variant with a line
# "# boot: HIERARCHY..." is also booted with the test initramfs, once per
# hierarchy named (run-suite.sh), and fails unless the suite passes:
# INITRAMFS (environment) names the initramfs.  One line per variant; the
# exit status is non-zero if any variant failed.
set -eu

die() { echo "check-configs: $*" >&2; exit 1; }

[ $# -ge 5 ] || die "usage: check-configs.sh PATCHED_TREE STOCK_TREE OBJ_PREFIX FRAGMENT... -- VARIANT..."
tree=$1 stock=$2 prefix=$3
shift 3
base=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	base="$base $1"
	shift
done
[ $# -gt 1 ] || die "no variants after '--'"
shift
for d in "$tree" "$stock"; do
	[ -f "$d/Makefile" ] || die "no kernel tree at $d"
done
here=$(cd "$(dirname "$0")" && pwd)
jobs=${JOBS:-$(nproc)}
# VERSION.PATCHLEVEL, for the kernel's lines of an allowed list
kver=$(sed -n -e 's/^VERSION = //p' "$tree/Makefile").$(sed -n -e 's/^PATCHLEVEL = //p' "$tree/Makefile")

# The C files the series changes (mm/memcontrol-v1.o: 6.12 and later),
# and the TCP paths that inline what it changes in sock.h and tcp.h.
objects="mm/memcontrol.o mm/memcontrol-v1.o mm/page_counter.o mm/hugetlb_cgroup.o
	net/core/sock.o net/ipv4/tcp.o net/ipv4/tcp_ipv4.o net/ipv4/tcp_input.o
	net/ipv4/tcp_output.o net/ipv4/inet_connection_sock.o
	net/ipv4/tcp_memcontrol.o net/ipv4/sysctl_net_ipv4.o net/ipv6/tcp_ipv6.o
	net/mptcp/protocol.o net/mptcp/subflow.o"

# warnings LOG TREE: "file: warning: text [-Wflag]", the path relative
# to TREE and line numbers dropped (the series moves lines), once each.
warnings() {
	sed -n -e "s|^$2/||" -e 's|^\(\.\./\)*||' -e "s|^${2##*/}/||" \
		-e 's/^\([^ :]*\):[0-9]*:[0-9]*: warning: /\1: warning: /p' "$1" | sort -u
}

failed=0
for variant in "$@"; do
	name=$(basename "$variant" .config)
	obj=$prefix-$name
	log=$obj/build.log
	mkdir -p "$obj"
	start=$(date +%s)
	result=
	# shellcheck disable=SC2086 # fragment paths have no blanks
	if ! JOBS=$jobs "$here/build-kernel.sh" "$tree" "$obj" $base "$variant" \
		>"$log" 2>&1; then
		result="FAIL build failed (see $log)"
	elif grep -q '^CONFIG_MODULES=y' "$obj/.config" &&
	     ! make -s -C "$tree" O="$obj" -j"$jobs" modules >>"$log" 2>&1; then
		result="FAIL modules failed (see $log)"
	fi
	built=$(($(date +%s) - start))
	if [ -z "$result" ]; then
		present=
		for o in $objects; do
			[ -f "$obj/$o" ] && present="$present $o"
		done
		# shellcheck disable=SC2086
		make -s -C "$tree" O="$obj" -j"$jobs" W=1 $present \
			>"$obj/w1.log" 2>&1 || result="FAIL W=1 build failed (see $obj/w1.log)"
	fi
	compare=$(sed -n 's/^# compare-objects: *\([^ ]*\)$/\1/p' "$variant")
	[ -z "$compare" ] || compare=$(dirname "$variant")/$compare
	if [ -z "$result" ]; then
		warnings "$obj/w1.log" "$tree" >"$obj/w1.patched"
		new=0
		sobj=$prefix-$name-stock
		if [ -s "$obj/w1.patched" ] || [ -n "$compare" ]; then
			mkdir -p "$sobj"
			cp "$obj/.config" "$sobj/.config"
			sobjs=
			for o in $present; do
				[ -f "$stock/${o%.o}.c" ] && sobjs="$sobjs $o"
			done
			# shellcheck disable=SC2086
			{ make -s -C "$stock" O="$sobj" olddefconfig &&
			  make -s -C "$stock" O="$sobj" -j"$jobs" W=1 $sobjs; } \
				>"$sobj/w1.log" 2>&1 || true
			warnings "$sobj/w1.log" "$stock" >"$obj/w1.stock"
			comm -13 "$obj/w1.stock" "$obj/w1.patched" >"$obj/w1.new"
			new=$(wc -l <"$obj/w1.new")
		fi
		option=$(sed -n 's/^CONFIG_MEMCG_TCP_PRESSURE=//p' "$obj/.config")
		summary="built in ${built} s, option ${option:-n}; W=1 on $(echo $present | wc -w) objects: $(wc -l <"$obj/w1.patched") warnings, $new not in stock"
		differs=0
		if [ -n "$compare" ]; then
			# shellcheck disable=SC2086
			"$here/compare-objects.sh" -k "$kver" "$obj" "$sobj" "$compare" $present \
				>"$obj/compare.log" 2>&1 || differs=1
			summary="$summary; $(tail -n 1 "$obj/compare.log" | sed 's/^compare-objects: //')"
		fi
		boot=$(sed -n 's/^# boot: *//p' "$variant")
		booted=0
		if [ -n "$boot" ]; then
			[ -f "${INITRAMFS:-}" ] || die "$name boots, and INITRAMFS names no initramfs"
			# shellcheck disable=SC2086 # hierarchies are words
			"$here/run-suite.sh" "$obj/arch/x86/boot/bzImage" "$INITRAMFS" \
				"$obj/boot.log" $boot >"$obj/suite.log" 2>&1 || booted=1
			summary="$summary; suite on $boot: $(tail -n 1 "$obj/suite.log")"
		fi
		if [ "$new" -gt 0 ]; then
			result="FAIL $summary:"$'\n'"$(sed 's/^/    /' "$obj/w1.new")"
		elif [ "$booted" -ne 0 ]; then
			result="FAIL $summary (see $obj/suite.log)"
		elif [ "$differs" -ne 0 ]; then
			result="FAIL $summary:"$'\n'"$(grep -v '^allowed\|^compare-objects:' "$obj/compare.log" | sed 's/^/    /')"
		else
			result="ok   $summary"
		fi
	fi
	case $result in FAIL*) failed=$((failed + 1)) ;; esac
	printf '%-12s %s\n' "$name" "$result"
done
[ "$failed" -eq 0 ] || die "$failed of $# configurations failed"
