#!/bin/bash
# Read the guest's serial log and report its KTAP results.
#
# usage: ktap-report.sh LOG [QEMU_STATUS]
#
# Prints each test's result line, the diagnostics of every test that did
# not pass, a line for anything that went wrong around the tests (panic,
# timeout, truncated report, missing end marker), and last
# "N passed, N failed" (", N skipped" when some were).  A test the plan
# announced but the log never reported counts as failed.  Exit status 0
# only if nothing failed and the run ended normally.
set -u

[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: ktap-report.sh LOG [QEMU_STATUS]" >&2; exit 2; }
log=$1 qemu_status=${2:-}
[ -f "$log" ] || { echo "ktap-report: no log $log" >&2; exit 2; }

tr -d '\r' <"$log" | awk -v qemu_status="$qemu_status" '
function flush_diag(ok) {
	if (!ok)
		printf "%s", diag
	diag = ""
}
/^KTAP version 1$/ { started = 1; next }
started && plan == "" && /^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0; next }
started && /^# Totals:/ { totals = 1; next }
started && /^# / { diag = diag "    " $0 "\n"; next }
started && /^(not )?ok [0-9]+ / {
	seen++
	print
	if ($1 == "not") {
		failed++
		flush_diag(0)
	} else if ($0 ~ /# SKIP/) {
		skipped++
		flush_diag(1)
	} else {
		passed++
		flush_diag(1)
	}
	next
}
/Kernel panic - not syncing/ { panic = $0 }
/^GUEST-DONE rc=[0-9]+$/ { done_rc = substr($0, 15) + 0; done = 1 }
END {
	bad = 0
	if (!started) {
		print "# no KTAP report in the log: the guest did not get to its tests"
		bad = 1
	}
	if (panic != "") {
		print "# the kernel panicked: " panic
		bad = 1
	}
	if (qemu_status == 124) {
		print "# the guest did not finish within its time limit"
		bad = 1
	}
	if (started && plan == "") {
		print "# the KTAP report has no plan line"
		bad = 1
	}
	if (plan != "" && seen < plan) {
		printf "# the report ends after %d of %d tests: the rest count as failed\n", seen, plan
		failed += plan - seen
	}
	if (started && !totals) {
		print "# the report has no closing totals line"
		bad = 1
	}
	if (!done) {
		print "# the guest never printed its end marker (GUEST-DONE)"
		bad = 1
	} else if (qemu_status != "" && qemu_status != 124 && qemu_status != done_rc * 2 + 1) {
		printf "# QEMU exited with %s, not %d as the guest asked\n", qemu_status, done_rc * 2 + 1
		bad = 1
	}
	if (bad && failed == 0)
		failed = 1
	line = sprintf("%d passed, %d failed", passed, failed)
	if (skipped)
		line = line sprintf(", %d skipped", skipped)
	print line
	exit (failed > 0 || bad) ? 1 : 0
}'
