#!/bin/bash
# Boot the guest once per cgroup hierarchy of the memory controller and
# report the tests of all boots.
#
# usage: run-suite.sh BZIMAGE INITRAMFS LOG HIERARCHY...
#
# HIERARCHY is v1 (the memory controller on cgroup v1, the kmem.tcp files)
# or v2 (cgroup v2 alone, as systemd boots Debian: the memory.tcp files);
# each boot runs the tests that say they hold there (initramfs/run-tests)
# and keeps its serial log in LOG with "-HIERARCHY" before ".log".  Prints
# each boot's report (ktap-report.sh) under a heading, then a last line
# "N passed, N failed" (", N skipped") over all boots.  Exit status 0
# only if every boot passed.  The environment is run-qemu.sh's;
# QEMU_APPEND gets tcpmemcg.hierarchy=HIERARCHY added.
set -u

die() { echo "run-suite: $*" >&2; exit 2; }

[ $# -ge 4 ] || die "usage: run-suite.sh BZIMAGE INITRAMFS LOG HIERARCHY..."
kernel=$1 initrd=$2 log=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
for h in "$@"; do
	case $h in
	v1 | v2) ;;
	*) die "a hierarchy is v1 or v2, not '$h'" ;;
	esac
done

passed=0 failed=0 skipped=0 bad=0
for h in "$@"; do
	hlog=${log%.log}-$h.log
	echo "== memory controller on cgroup $h (serial log $hlog)"
	st=0
	QEMU_APPEND="tcpmemcg.hierarchy=$h ${QEMU_APPEND:-}" \
		"$here/run-qemu.sh" "$kernel" "$initrd" "$hlog" || st=$?
	report=$("$here/ktap-report.sh" "$hlog" $st) || bad=1
	echo "$report"
	totals=$(echo "$report" | tail -1 | sed -n \
		's/^\([0-9]*\) passed, \([0-9]*\) failed\(, \([0-9]*\) skipped\)\{0,1\}$/\1 \2 \4/p')
	[ -n "$totals" ] || die "no totals in the report of $hlog"
	read -r p f s <<<"$totals"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${s:-0}))
done
line="$passed passed, $failed failed"
[ $skipped -gt 0 ] && line="$line, $skipped skipped"
echo "$line"
[ $bad -eq 0 ] && [ $failed -eq 0 ]
