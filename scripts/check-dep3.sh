#!/bin/bash
# Check that every patch of a series carries the DEP-3 fields Debian's
# patch tools read (https://dep-team.pages.debian.net/deps/dep3/): Origin,
# Forwarded and Last-Update, in the header before the description, with
# values of the forms DEP-3 gives.  (Description and Author are the
# format-patch Subject and From.)
#
# usage: check-dep3.sh SERIES PATCHDIR
#
# One line per patch at fault; exit status 1 if any is.
set -eu

die() { echo "check-dep3: $*" >&2; exit 2; }

[ $# -eq 2 ] || die "usage: check-dep3.sh SERIES PATCHDIR"
series=$1 patchdir=$2
patches=$("$(dirname "$0")/series-patches.sh" "$series" "$patchdir" 2>&1) ||
	die "$patches"

bad=0
for p in $patches; do
	# the header: up to the first empty line
	header=$(sed '/^$/q' "$patchdir/$p")
	field() { echo "$header" | sed -n "s/^$1: //p" | head -1; }
	origin=$(field Origin) forwarded=$(field Forwarded) updated=$(field Last-Update)
	err=
	case $origin in
	upstream* | backport* | vendor* | other*) ;;
	'') err="$err no Origin;" ;;
	*) err="$err Origin '$origin' names no DEP-3 category;" ;;
	esac
	case $forwarded in
	no | not-needed | http://* | https://*) ;;
	'') err="$err no Forwarded;" ;;
	*) err="$err Forwarded '$forwarded' is not no, not-needed or a URL;" ;;
	esac
	echo "$updated" | grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' ||
		err="$err Last-Update '$updated' is not YYYY-MM-DD;"
	if [ -n "$err" ]; then
		echo "check-dep3: $p:$err"
		bad=1
	fi
done
exit $bad
