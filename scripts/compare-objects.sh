#!/bin/bash
# Compare the functions of objects built from the patched tree with the
# same objects built from the stock tree with the same .config: every
# function (text symbol) whose size differs, or that exists on one side
# only (GCC stopped or started inlining it, or it is new), is a change of
# code generation.  Those named in ALLOWED, with the reason they may
# differ, are listed as allowed; any other fails.
#
# usage: compare-objects.sh PATCHED_OBJ STOCK_OBJ ALLOWED OBJECT...
#
# ALLOWED has one "OBJECT FUNCTION reason..." per line ("#" starts a
# comment).  An object missing from either side is skipped (the
# configuration does not build it).  GCC's clone suffixes (.isra.0,
# .constprop.0, .part.0, .cold) are kept but their numbers dropped.
# Prints one line per difference; exit status 1 if any is not allowed.
set -eu

die() { echo "compare-objects: $*" >&2; exit 2; }

[ $# -ge 4 ] || die "usage: compare-objects.sh PATCHED_OBJ STOCK_OBJ ALLOWED OBJECT..."
patched=$1 stock=$2 allowed=$3
shift 3
[ -f "$allowed" ] || die "no list of allowed differences at $allowed"
command -v nm >/dev/null || die "nm not found: apt-get install binutils"

# functions OBJECT_FILE: "name size", sorted by name
functions() {
	nm -S --defined-only "$1" |
	awk 'NF == 4 && $3 ~ /^[tTwW]$/ {
		name = $4
		gsub(/\.[0-9]+/, "", name)
		print name, $2
	}' | while read -r name hex; do
		echo "$name $((16#$hex))"
	done | sort -k1,1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -e 's/#.*//' "$allowed" | awk 'NF >= 2 { print $1, $2 }' | sort -u >"$tmp/allowed"

bad=0 ok=0
for o in "$@"; do
	if [ ! -f "$patched/$o" ] || [ ! -f "$stock/$o" ]; then
		continue
	fi
	functions "$patched/$o" >"$tmp/p"
	functions "$stock/$o" >"$tmp/s"
	join -a1 -a2 -e - -o 0,1.2,2.2 "$tmp/p" "$tmp/s" |
		awk -v o="$o" '$2 != $3 { print o, $1, $2, $3 }' >"$tmp/diff"
	while read -r obj fn p s; do
		if grep -qx "$obj $fn" "$tmp/allowed"; then
			echo "allowed  $obj $fn: patched $p, stock $s bytes"
			ok=$((ok + 1))
		else
			echo "DIFFERS  $obj $fn: patched $p, stock $s bytes"
			bad=$((bad + 1))
		fi
	done <"$tmp/diff"
done
echo "compare-objects: $bad differences not allowed, $ok allowed"
[ "$bad" -eq 0 ]
