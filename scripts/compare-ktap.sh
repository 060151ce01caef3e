#!/bin/bash
# Compare the per-test results of two guest runs of the same tests.
#
# usage: compare-ktap.sh LABEL_A LOG_A LABEL_B LOG_B [ADDED]
#
# Prints one line per test with its result in each run (pass, FAIL,
# skip, or "-" where the run never reported it), then a summary line.
# Exit status 0 only if both runs finished (their end marker) and every
# test has the same result in both, except the tests whose names match
# the extended regular expression ADDED: tests that B's kernel adds
# (the series' own cases), which must fail in A and pass in B.
set -eu

die() { echo "compare-ktap: $*" >&2; exit 2; }

[ $# -eq 4 ] || [ $# -eq 5 ] || die "usage: compare-ktap.sh LABEL_A LOG_A LABEL_B LOG_B [ADDED]"
for log in "$2" "$4"; do
	[ -f "$log" ] || die "no log $log"
done

# results LOG: "name result" per test, in the order reported
results() {
	tr -d '\r' <"$1" | sed -n -E \
		-e 's/^not ok [0-9]+ (# SKIP )?([^ #]+).*/\2 FAIL/p' \
		-e 's/^ok [0-9]+ # SKIP ([^ #]+).*/\1 skip/p' \
		-e 's/^ok [0-9]+ ([^ #]+) # SKIP.*/\1 skip/p' \
		-e 's/^ok [0-9]+ ([^ #]+)$/\1 pass/p'
}

results "$2" >"${TMPDIR:-/tmp}/compare-ktap.a.$$"
results "$4" >"${TMPDIR:-/tmp}/compare-ktap.b.$$"
trap 'rm -f "${TMPDIR:-/tmp}"/compare-ktap.[ab].$$' EXIT

status=0
for i in 2 4; do
	if ! tr -d '\r' <"${!i}" | grep -q '^GUEST-DONE rc='; then
		echo "compare-ktap: ${!i} has no end marker: that run did not finish"
		status=1
	fi
done

printf '%-36s %-8s %-8s\n' test "$1" "$3"
awk -v a="${TMPDIR:-/tmp}/compare-ktap.a.$$" -v b="${TMPDIR:-/tmp}/compare-ktap.b.$$" \
	-v added="${5:-}" '
BEGIN {
	while ((getline line < a) > 0) {
		split(line, f, " ")
		if (!(f[1] in ra)) order[n++] = f[1]
		ra[f[1]] = f[2]
	}
	while ((getline line < b) > 0) {
		split(line, f, " ")
		if (!(f[1] in ra) && !(f[1] in rb)) order[n++] = f[1]
		rb[f[1]] = f[2]
	}
	for (i = 0; i < n; i++) {
		t = order[i]
		x = (t in ra) ? ra[t] : "-"
		y = (t in rb) ? rb[t] : "-"
		if (added != "" && t ~ added) {
			bad = x != "FAIL" || y != "pass"
			note = bad ? "  <- added: must fail in the first, pass in the second" : "  (added)"
		} else {
			bad = x != y
			note = bad ? "  <- differs" : ""
		}
		if (bad) diff++
		printf "%-36s %-8s %-8s%s\n", t, x, y, note
	}
	printf "%d tests, %d with different results\n", n, diff
	exit diff > 0
}' || status=1
exit $status
