#!/bin/bash
# Check that every prefix of the series builds and boots, and that every
# patch is clean for the tree's checkpatch.pl --strict.
#
# usage: check-series.sh TARBALL TREE OBJ SERIES PATCHDIR INITRAMFS FRAGMENT...
#
# TREE is a quilt tree of its own (not the one 'make apply' keeps): the
# series is applied, popped, then pushed one patch at a time; after each
# push the kernel is rebuilt incrementally in OBJ, booted with INITRAMFS
# (the guest tests run; those of patches not yet applied fail, so only
# the boot itself and a clean kernel log count), and the patch just
# applied goes through checkpatch.  One line per patch; exit status 1 if
# any build or boot fails, any patch has a checkpatch error or warning,
# or any lacks its DEP-3 fields (check-dep3.sh, before the first build).
# Each prefix boots once per hierarchy of the memory controller in
# HIERARCHIES (default "v1 v2", see run-suite.sh), and every boot must
# end clean.
set -eu

die() { echo "check-series: $*" >&2; exit 2; }

[ $# -ge 7 ] || die "usage: check-series.sh TARBALL TREE OBJ SERIES PATCHDIR INITRAMFS FRAGMENT..."
tarball=$1 tree=$2 obj=$3 series=$4 patchdir=$5 initramfs=$6
# the memory controller's hierarchies each prefix boots (run-suite.sh)
hierarchies=${HIERARCHIES:-v1 v2}
shift 6
[ -f "$initramfs" ] || die "no initramfs $initramfs (run 'make initramfs')"
[ -d "$patchdir" ] || die "no patch directory $patchdir"
# checkpatch runs from the tree: give it the patches' own path.  (A
# relative one happened to work for the top-level patches/ through the
# tree's patches link, and named nothing for patches/6.12.)
patchdir=$(cd "$patchdir" && pwd)
here=$(cd "$(dirname "$0")" && pwd)

"$here/apply-series.sh" "$tarball" "$tree" "$series" "$patchdir" >/dev/null
q() { (cd "$tree" && quilt --quiltrc - "$@"); }
rm -f "$tree/.applied-series"
q pop -a -q >/dev/null 2>&1 || true
mkdir -p "$obj"
log=$obj/check-series.log
: >"$log"

bad=0 n=0
# Debian's patch tools read each patch's DEP-3 fields: check them first
if "$here/check-dep3.sh" "$series" "$patchdir"; then
	echo "DEP-3 fields (Origin, Forwarded, Last-Update): every patch has them"
else
	bad=1
fi
while next=$(q next 2>/dev/null) && [ -n "$next" ]; do
	n=$((n + 1))
	name=${next##*/}
	q push -q --fuzz=0 >>"$log" 2>&1 || die "$name does not apply (see 'make apply')"

	start=$(date +%s)
	if JOBS=${JOBS:-$(nproc)} "$here/build-kernel.sh" "$tree" "$obj" "$@" >>"$log" 2>&1; then
		build="builds ($(($(date +%s) - start)) s)"
		serial=$obj/boot-$n.log
		# One boot per hierarchy (run-suite.sh); its status reflects the
		# tests, most of which need later patches.
		out=$("$here/run-suite.sh" "$obj/arch/x86/boot/bzImage" "$initramfs" "$serial" \
			$hierarchies 2>&1) || true
		echo "$out" >>"$log"
		tests=$(echo "$out" | tail -1)
		clean=1
		for h in $hierarchies; do
			hlog=${serial%.log}-$h.log
			grep -q '^GUEST-DONE rc=' "$hlog" &&
				grep -q '^ok [0-9]* kernel_log_clean' "$hlog" || clean=0
		done
		if [ $clean = 1 ]; then
			build="$build, boots clean (tests: $tests)"
		else
			build="$build, BOOT FAILED or kernel splat (see ${serial%.log}-*.log)"
			bad=1
		fi
	else
		build="BUILD FAILED (see $log)"
		bad=1
	fi

	# Run where the tree has no .git: the commit ids the messages cite
	# are upstream's, not this tree's.
	cp=$(cd "$tree" && ./scripts/checkpatch.pl --strict --show-types "$patchdir/$name" 2>&1) || true
	echo "== $name" >>"$log"
	echo "$cp" >>"$log"
	total=$(echo "$cp" | sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings, \([0-9]*\) checks.*/\1 errors, \2 warnings, \3 checks/p')
	[ -n "$total" ] || total="checkpatch gave no total"
	case $total in
	"0 errors, 0 warnings, "*) ;;
	*) bad=1 ;;
	esac
	printf '%2d %-60s %s; checkpatch: %s\n' "$n" "$name" "$build" "$total"
done

[ $n -gt 0 ] || echo "check-series: the series is empty"
echo "check-series: details in $log"
exit $bad
