#!/bin/bash
# Extract a distro kernel tree and apply a quilt series to it.
#
# usage: apply-series.sh TARBALL TREE SERIES PATCHDIR
#        apply-series.sh TARBALL TREE none        (pristine tree only)
#
# TREE is created from TARBALL when missing.  The series is applied with
# quilt (fuzz 0, the user's quiltrc ignored), so the tree stays one that
# quilt can push, pop and refresh; TREE/patches links to PATCHDIR.
# TREE/.applied-series records a hash of the series and of every patch it
# names: when it matches, there is nothing to do.  When it does not, every
# applied patch is popped first (quilt restores and touches the originals,
# so kbuild recompiles them) and the whole series is pushed again.
#
# A patch that does not apply is named with its rejected hunks; the
# patches before it stay applied and no record is written, so the next
# run pops them and starts again from the pristine tree.
set -eu

die() { echo "apply-series: $*" >&2; exit 1; }

[ $# -eq 3 ] || [ $# -eq 4 ] ||
	die "usage: apply-series.sh TARBALL TREE SERIES|none [PATCHDIR]"
tarball=$1 tree=$2 series=$3 patchdir=${4:-}

[ -f "$tarball" ] ||
	die "$tarball not found: install the distro kernel source ('make deps' or apt-get install ${tarball##*/}; the package is named like the tarball without .tar.xz)"
command -v quilt >/dev/null || die "quilt not found: apt-get install quilt"

if [ "$series" = none ]; then
	series=/dev/null
else
	[ -f "$series" ] || die "series file $series does not exist"
	[ -d "$patchdir" ] || die "patch directory $patchdir does not exist"
	series=$(cd "$(dirname "$series")" && pwd)/$(basename "$series")
	patchdir=$(cd "$patchdir" && pwd)
fi

# The patches the series names, in order.
patches=$("$(dirname "$0")/series-patches.sh" "$series" "$patchdir" 2>&1) || die "$patches"
npatches=$(echo "$patches" | awk 'NF' | wc -l)

# What is to be applied: the series and the content of each patch.
want=$(
	cat "$series"
	for p in $patches; do
		echo "== $p"
		cat "$patchdir/$p"
	done | sha256sum | cut -d' ' -f1
)
want="$want $npatches patches"

q() { (cd "$tree" && quilt --quiltrc - "$@"); }

if [ ! -d "$tree" ]; then
	echo "apply-series: extracting $tarball into $tree"
	parent=$(dirname "$tree")
	mkdir -p "$parent"
	tmp=$(mktemp -d "$parent/.extract.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	# --touch: extracted files are newer than any object an earlier tree
	# at this path left in its O= directory, so nothing stale survives.
	tar -C "$tmp" --touch -xf "$tarball"
	top=$(ls "$tmp")
	[ "$(echo "$top" | wc -l)" = 1 ] && [ -f "$tmp/$top/Makefile" ] ||
		die "$tarball does not hold a single kernel tree"
	mv "$tmp/$top" "$tree"
	rm -rf "$tmp"
	trap - EXIT
fi

# Point quilt at this checkout's patches every time: the tree outlives the
# checkout it was applied from (another clone may use the same build dir).
if [ "$series" != /dev/null ]; then
	ln -sfn "$patchdir" "$tree/patches"
	mkdir -p "$tree/.pc"
	echo "$patchdir" >"$tree/.pc/.quilt_patches"
	echo "$series" >"$tree/.pc/.quilt_series"
	[ -f "$tree/.pc/.version" ] || echo 2 >"$tree/.pc/.version"
fi

if [ -f "$tree/.applied-series" ] && [ "$(cat "$tree/.applied-series")" = "$want" ]; then
	echo "apply-series: nothing to do, $tree already has this series ($npatches patches)"
	exit 0
fi

rm -f "$tree/.applied-series"
if [ -f "$tree/.pc/applied-patches" ] && [ -s "$tree/.pc/applied-patches" ]; then
	echo "apply-series: series changed, popping the patches applied to $tree"
	q pop -a -f -q >/dev/null || die "quilt pop -a failed in $tree; remove it and run again"
fi

if [ "$npatches" -gt 0 ]; then
	if ! out=$(q push -a -q --fuzz=0 2>&1); then
		echo "$out" >&2
		failed=$(q next 2>/dev/null | sed 's|.*/||') || failed=
		line=$(grep -n -E "^[[:space:]]*${failed//./\\.}([[:space:]]|$)" "$series" | cut -d: -f1)
		echo "apply-series: patch $failed (series line $line) does not apply to $tree" >&2
		# Show what was rejected: force it on, print the .rej files, then
		# take it off again so the tree holds only the patches before it.
		q push -f -q --fuzz=0 >/dev/null 2>&1 || true
		find "$tree" -name '*.rej' -print | sort |
		while read -r rej; do
			echo "--- rejected hunks in ${rej#"$tree"/}:" >&2
			cat "$rej" >&2
		done
		if q top 2>/dev/null | grep -q "$failed"; then
			q pop -f -q >/dev/null 2>&1 || true
		fi
		find "$tree" -name '*.rej' -delete
		die "fix $failed and run 'make apply' again"
	fi
fi

echo "$want" >"$tree/.applied-series"
echo "apply-series: $tree: $npatches patches applied"
