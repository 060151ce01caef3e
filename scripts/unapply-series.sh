#!/bin/bash
# Pop every patch applied to TREE, leaving the pristine distro tree.
#
# usage: unapply-series.sh TREE
set -eu

tree=${1:?usage: unapply-series.sh TREE}
[ -d "$tree" ] || { echo "unapply-series: no tree at $tree (nothing to do)"; exit 0; }

rm -f "$tree/.applied-series"
if [ -s "$tree/.pc/applied-patches" ]; then
	(cd "$tree" && quilt --quiltrc - pop -a -q) ||
		{ echo "unapply-series: quilt pop -a failed in $tree" >&2; exit 1; }
fi
echo "unapply-series: $tree is pristine"
