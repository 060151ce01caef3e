#!/bin/bash
# Write a git kernel tree's commits BASE..HEAD as the series' patches,
# each with its DEP-3 fields, so that the queue drops into Debian's own
# debian/patches/ and its tools (dpkg-source, lintian) read it.
#
# usage: export-series.sh TREE BASE PATCHDIR
#
# TREE holds the series as commits on BASE (the distro tree, extracted
# and committed as it came): the way to carry the series to the next
# kernel is to rebase those commits there and export them again (see
# README.md).  The patches are git format-patch's, with a zero commit id
# and no signature, so that an unchanged commit exports to the same file;
# after the Subject each gets:
#   Origin:      other, the v8 thread, for a patch based on a v8 patch
#                (its message says "Based on v8 N/9"); vendor for the
#                patches beyond v8, which have no other origin
#   Forwarded:   no (each message says why; the series file says it for
#                the whole queue)
#   Last-Update: the commit's committer date
# Existing NNNN-*.patch files in PATCHDIR are replaced; the series file
# is not touched.
set -eu

die() { echo "export-series: $*" >&2; exit 1; }

[ $# -eq 3 ] || die "usage: export-series.sh TREE BASE PATCHDIR"
tree=$1 base=$2 patchdir=$3
# The cover letter of "[PATCH v8 0/9] per-cgroup tcp memory pressure
# controls" (Glauber Costa, LKML 2011-12-05), which leads to each patch
v8_thread=https://lore.kernel.org/r/1323120903-2831-1-git-send-email-glommer@parallels.com

command -v git >/dev/null || die "git not found: apt-get install git"
git -C "$tree" rev-parse --verify -q "$base^{commit}" >/dev/null ||
	die "$tree has no commit $base"
[ -d "$patchdir" ] || die "no patch directory $patchdir"
commits=$(git -C "$tree" rev-list --reverse "$base..HEAD")
[ -n "$commits" ] || die "no commits between $base and HEAD in $tree"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$tree" -c core.abbrev=9 format-patch -q --zero-commit --no-signature \
	-o "$tmp" "$base..HEAD"

n=0
for c in $commits; do
	n=$((n + 1))
	file=$(ls "$tmp"/"$(printf '%04d' $n)"-*.patch)
	if git -C "$tree" log -1 --format=%B "$c" | grep -q 'Based on v8 [1-9]/9'; then
		origin="other, $v8_thread"
	else
		origin=vendor
	fi
	updated=$(git -C "$tree" log -1 --format=%cs "$c")
	# the fields go where the mail header ends: its first empty line
	awk -v o="$origin" -v u="$updated" '
	!done && /^$/ {
		print "Origin: " o
		print "Forwarded: no"
		print "Last-Update: " u
		done = 1
	}
	{ print }' "$file" >"$file.dep3"
	mv "$file.dep3" "$file"
done

rm -f "$patchdir"/[0-9][0-9][0-9][0-9]-*.patch
mv "$tmp"/*.patch "$patchdir"/
echo "export-series: $n patches written to $patchdir"
