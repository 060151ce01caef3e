#!/bin/bash
# Run the whole suite N times over, optionally while something loads the
# host, and say which tests failed in how many of the N runs.
#
# usage: repeat-suite.sh N BZIMAGE INITRAMFS DIR HIERARCHY...
#
# The kernel and the initramfs are copied into DIR first, so that every
# run boots the same pair even if a make elsewhere rebuilds them.  Run K
# keeps its serial logs as DIR/run-K-HIERARCHY.log and its report (what
# scripts/run-suite.sh prints) as DIR/run-K.txt.  REPEAT_LOAD, when set,
# is a command started in the background (its own process group) before
# the first run and ended after the last, e.g. scripts/load-host.sh; its
# output goes to DIR/load.txt.  Each run's line gives its totals, how
# long it took and the host's 1-minute load average at its end.  Then
# one line per failing test, "HIERARCHY NAME: failed F of N (runs ...)",
# where a boot that went wrong around its tests (panic, time limit,
# truncated report) counts under the name "(boot)"; last line
# "runs: P passed, F failed".  Exit status 0 only if every run passed.
# The environment is run-suite.sh's.
set -eu

die() { echo "repeat-suite: $*" >&2; exit 2; }

[ $# -ge 5 ] || die "usage: repeat-suite.sh N BZIMAGE INITRAMFS DIR HIERARCHY..."
n=$1 kernel=$2 initrd=$3 dir=$4
shift 4
case $n in
'' | *[!0-9]* | 0) die "N must be a positive number, not '$n'" ;;
esac
[ -f "$kernel" ] || die "no kernel image $kernel"
[ -f "$initrd" ] || die "no initramfs $initrd"
here=$(cd "$(dirname "$0")" && pwd)

rm -rf "$dir"
mkdir -p "$dir"
cp "$kernel" "$dir/bzImage"
cp "$initrd" "$dir/initramfs.cpio.gz"

load_pid=
stop_load() {
	[ -n "$load_pid" ] || return 0
	kill -TERM -- "-$load_pid" 2>/dev/null || true
	wait "$load_pid" 2>/dev/null || true
	load_pid=
}
trap stop_load EXIT
trap 'exit 130' INT TERM
if [ -n "${REPEAT_LOAD:-}" ]; then
	# setsid: the load and everything it starts (make's jobs) form one
	# process group, ended together.  The command is a line of words.
	# shellcheck disable=SC2086
	setsid $REPEAT_LOAD >"$dir/load.txt" 2>&1 &
	load_pid=$!
	echo "repeat-suite: host load: $REPEAT_LOAD (output in $dir/load.txt)"
	# Let the load reach the CPUs before the first boot.
	sleep 20
	kill -0 "$load_pid" 2>/dev/null ||
		die "the host load ended at once: $(tail -3 "$dir/load.txt")"
fi
echo "repeat-suite: $n runs of the suite on cgroup $* (logs in $dir)"

runs_passed=0 runs_failed=0
: >"$dir/failures.txt"
for k in $(seq "$n"); do
	start=$(date +%s)
	st=0
	"$here/run-suite.sh" "$dir/bzImage" "$dir/initramfs.cpio.gz" "$dir/run-$k.log" "$@" \
		>"$dir/run-$k.txt" 2>&1 || st=$?
	secs=$(($(date +%s) - start))
	load=$(cut -d' ' -f1 /proc/loadavg)
	if [ -n "$load_pid" ] && ! kill -0 "$load_pid" 2>/dev/null; then
		die "the host load stopped during run $k: $(tail -3 "$dir/load.txt")"
	fi
	if [ $st -eq 0 ]; then
		runs_passed=$((runs_passed + 1))
	else
		runs_failed=$((runs_failed + 1))
	fi
	echo "run $k: $(tail -1 "$dir/run-$k.txt") ($secs s, load $load)"
	# The failing tests of this run, one "HIERARCHY NAME" a line: the
	# result lines of ktap-report.sh under each boot's heading, and its
	# unindented "# ..." lines about the boot itself.
	awk -v k="$k" '
	/^== memory controller on cgroup / { h = $6; next }
	/^not ok [0-9]+ / { print h, $4, k; next }
	/^# / { print h, "(boot)", k }
	' "$dir/run-$k.txt" | sort -u >>"$dir/failures.txt"
done

if [ -s "$dir/failures.txt" ]; then
	echo "failing tests (reports in $dir/run-K.txt):"
	awk -v n="$n" '
	{ key = $1 " " $2; runs[key] = runs[key] " " $3; count[key]++ }
	END {
		for (key in count)
			printf "  %s: failed %d of %d (runs%s)\n", key, count[key], n, runs[key]
	}' "$dir/failures.txt" | sort
fi
stop_load
if [ -s "$dir/load.txt" ]; then
	echo "host load, last line: $(tail -1 "$dir/load.txt")"
fi
echo "runs: $runs_passed passed, $runs_failed failed"
[ $runs_failed -eq 0 ]
