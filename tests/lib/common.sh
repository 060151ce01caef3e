# Shared by the guest tests: sourced, never run.
#
# A test is a shell script that exits 0 on success, 4 to skip, anything
# else on failure, and says why on its output.  Helpers here fail the test
# themselves (exit 1) with a message naming what was expected and seen.
# Cgroups a test makes are removed on exit, whatever the outcome.

MEMCG=/sys/fs/cgroup/memory
KSFT_SKIP=4

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit $KSFT_SKIP
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() {
	[ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"
}

# expect_le A B WHAT: integers, A <= B
expect_le() {
	[ "$1" -le "$2" ] || fail "$3: expected <= $2, got $1"
}

# expect_gt A B WHAT: integers, A > B
expect_gt() {
	[ "$1" -gt "$2" ] || fail "$3: expected > $2, got $1"
}

# expect_write FILE VALUE RESULT: writing VALUE (in one write) answers
# RESULT, which is OK or an errno name such as EINVAL.
expect_write() {
	_got=$(writefile "$1" "$2")
	[ "$_got" = "$3" ] || fail "write '$2' to $1: expected $3, got $_got"
}

# poll_until SECONDS COMMAND...: run COMMAND every 50 ms until it succeeds;
# fail once SECONDS have passed.  For state the kernel settles after the
# fact (a socket freed from softirq or RCU), with a bound instead of a sleep.
# (busybox sh has no "local": helpers use names starting with _.)
poll_until() {
	_poll_max=$(($1 * 20))
	shift
	_poll_tries=0
	until "$@"; do
		_poll_tries=$((_poll_tries + 1))
		[ $_poll_tries -lt $_poll_max ] || return 1
		sleep 0.05
	done
}

# cg_make NAME: create $MEMCG/NAME (NAME may be nested, a/b); every cgroup
# made this way is removed when the test exits, children first.
CG_MADE=
cg_make() {
	mkdir "$MEMCG/$1" || fail "mkdir $MEMCG/$1"
	CG_MADE="$MEMCG/$1 $CG_MADE"
}

cg_cleanup() {
	echo $$ >"$MEMCG/cgroup.procs" 2>/dev/null
	for _d in $CG_MADE; do
		rmdir "$_d" 2>/dev/null
	done
}
trap cg_cleanup EXIT

# cg_read CGROUP FILE: print the value of CGROUP/memory.FILE
cg_read() {
	cat "$1/memory.$2" || fail "read $1/memory.$2"
}

# Loopback traffic held open while the test looks at the counters.
# tcpfill_start ARGS...: start "tcpfill -H ARGS" and wait (bounded) until
# its connections are filled; tcpfill_stop closes them and waits for it.
TCPFILL_PID=
tcpfill_start() {
	rm -f /tmp/tcpfill.ctl /tmp/tcpfill.out
	mkfifo /tmp/tcpfill.ctl || fail "mkfifo"
	tcpfill -H "$@" </tmp/tcpfill.ctl >/tmp/tcpfill.out 2>&1 &
	TCPFILL_PID=$!
	exec 3>/tmp/tcpfill.ctl
	poll_until 60 grep -q '^filled' /tmp/tcpfill.out ||
		fail "tcpfill $*: not filled within 60 s: $(cat /tmp/tcpfill.out)"
	echo "tcpfill $*: $(cat /tmp/tcpfill.out)"
}

tcpfill_stop() {
	exec 3>&-
	wait "$TCPFILL_PID" || fail "tcpfill: $(cat /tmp/tcpfill.out)"
	TCPFILL_PID=
}
