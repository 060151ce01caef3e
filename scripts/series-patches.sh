#!/bin/bash
# Print the patches a quilt series file names, one per line, in order
# (comments, blank lines and quilt's per-patch options left out); fail,
# naming it, if one is not in PATCHDIR.  Shared by apply-series.sh and
# rebase-report.sh.
#
# usage: series-patches.sh SERIES PATCHDIR
set -eu

[ $# -eq 2 ] || { echo "usage: series-patches.sh SERIES PATCHDIR" >&2; exit 1; }
series=$1 patchdir=$2

patches=$(sed -e 's/#.*//' -e 's/^[[:space:]]*//' "$series" | awk 'NF { print $1 }')
for p in $patches; do
	[ -f "$patchdir/$p" ] || { echo "series names $p, which is not in $patchdir" >&2; exit 1; }
done
[ -z "$patches" ] || echo "$patches"
