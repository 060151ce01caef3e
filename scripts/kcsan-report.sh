#!/bin/bash
# Sort the data races KCSAN reported in a guest run (DEBUG=kcsan) into
# the series' and stock's.
#
# usage: kcsan-report.sh SERIES PATCHDIR PATCHED_LOG [STOCK_LOG]
#
# A race is named by its two functions ("data-race in A / B", in sorted
# order) and is the series' when one of the top three frames of either
# access is a function the series adds or changes: one named in a hunk
# header of a patch in SERIES, or defined on a line a patch adds.  A race
# of the series that the stock run (same suite, same config) also shows
# is stock's code seen through the series' callers; one it does not show
# fails.  Every other race is listed for the record.  Without STOCK_LOG,
# every race of the series fails.
# Exit status: 0 if the series made no race, 1 if it did, 2 on bad input.
set -eu

die() { echo "kcsan-report: $*" >&2; exit 2; }

[ $# -eq 3 ] || [ $# -eq 4 ] ||
	die "usage: kcsan-report.sh SERIES PATCHDIR PATCHED_LOG [STOCK_LOG]"
series=$1 patchdir=$2 patched=$3 stock=${4:-}
[ -f "$series" ] || die "no series file $series"
[ -f "$patched" ] || die "no log $patched (run 'make qemu-test DEBUG=kcsan')"
[ -z "$stock" ] || [ -f "$stock" ] ||
	die "no log $stock (run 'make qemu-test KERNEL=stock DEBUG=kcsan')"
for f in "$patched" $stock; do
	grep -q 'GUEST-DONE' "$f" || die "$f: the guest did not finish its run"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The functions the series adds or changes.
patches=$("$(dirname "$0")"/series-patches.sh "$series" "$patchdir") ||
	die "cannot read the series $series"
for p in $patches; do
	sed -n -e 's/^@@ [^@]* @@ .*[^A-Za-z0-9_]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' \
	       -e 's/^+[A-Za-z][^;=]*[^A-Za-z0-9_]\([A-Za-z_][A-Za-z0-9_]*\)(.*[^;]$/\1/p' \
		"$patchdir/$p"
done | grep -vxE 'if|for|while|switch|return|sizeof|defined|DEFINE_[A-Z_]*|EXPORT_SYMBOL[A-Z_]*' |
	sort -u >"$tmp/series-functions"
[ -s "$tmp/series-functions" ] || die "no functions found in the patches of $series"

# One line per report: "A / B<TAB>frame frame ...", the two top-three
# frame lists of its accesses (offsets dropped).
races() {	# races LOG
	awk '
	/BUG: KCSAN: / {
		title = $0; sub(/.*BUG: KCSAN: [^ ]* (race )?in /, "", title)
		n = split(title, fn, " / ")
		title = (n == 2 && fn[2] < fn[1]) ? fn[2] " / " fn[1] : title
		inrep = 1; depth = 0; frames = ""; next
	}
	inrep && /Reported by Kernel Concurrency Sanitizer/ {
		print title "\t" frames; inrep = 0; next
	}
	inrep && /(read|write).* by (task|interrupt)/ { depth = 0; next }
	inrep && /^ *\[? *[0-9. ]*\]? *[A-Za-z_][A-Za-z0-9_.]*\+0x/ {
		f = $0; sub(/^ *\[[^]]*\] */, "", f); sub(/^ */, "", f); sub(/\+0x.*/, "", f)
		if (depth++ < 3) frames = frames " " f
	}' "$1"
}

races "$patched" | sort >"$tmp/patched"
: >"$tmp/stock"
[ -z "$stock" ] || races "$stock" | sort >"$tmp/stock"

fail=0 ours=0 stockrace=0 other=0
echo "kcsan-report: $(wc -l <"$tmp/patched") reports in $patched${stock:+, $(wc -l <"$tmp/stock") in $stock}"
cut -f1 "$tmp/patched" | sort -u >"$tmp/patched-names"
while IFS= read -r name; do
	count=$(grep -c -F -x -e "$name" <(cut -f1 "$tmp/patched"))
	hits=$(grep -F -e "$name	" "$tmp/patched" | cut -f2 | tr ' ' '\n' |
	       grep -x -F -f "$tmp/series-functions" | sort -u | tr '\n' ' ')
	if cut -f1 "$tmp/stock" | grep -q -F -x -e "$name"; then
		where="also in stock"
	elif [ -n "$stock" ]; then
		where="patched only"
	else
		where="no stock run"
	fi
	if [ -n "$hits" ] && [ "$where" != "also in stock" ]; then
		verdict="SERIES RACE (series functions: ${hits% })"
		fail=1 ours=$((ours + 1))
	elif [ -n "$hits" ]; then
		verdict="stock's, seen in series functions: ${hits% }"
		stockrace=$((stockrace + 1))
	else
		verdict="not in series code"
		other=$((other + 1))
	fi
	printf '  %-60s x%-3s %-13s %s\n' "$name" "$count" "$where" "$verdict"
done <"$tmp/patched-names"
echo "kcsan-report: $ours races of the series, $stockrace in series functions that stock also shows, $other elsewhere ($(wc -l <"$tmp/series-functions") series functions)"
exit $fail
