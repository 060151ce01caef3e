# Shared by the guest tests: sourced, never run.
#
# A test is a shell script that exits 0 on success, 4 to skip, anything
# else on failure, and says why on its output.  Helpers here fail the test
# themselves (exit 1) with a message naming what was expected and seen.
# Cgroups a test makes are removed on exit, whatever the outcome.

KSFT_SKIP=4

# The memory controller's hierarchy in this boot (/init): on cgroup v1 a
# cgroup's TCP memory is in memory.kmem.tcp.*, on cgroup v2 in
# memory.tcp.* (the series' v2 face).  A test that holds on both says so
# ("# hierarchies: v1 v2", see run-tests) and names the files through
# these: TCP_LIMIT (set with cg_tcp_limit), TCP_USAGE, TCP_PEAK,
# TCP_STAT (the thresholds and pressure), and cg_refusals and cg_stat for
# the counts; cg_tcp_state shows all of a cgroup's state on one line.
# On v2 a cgroup with memory-controlled children holds no task (use its
# leaves), and neither v2 count nor tcp.peak can be reset.
HIERARCHY=${TCPMEMCG_HIERARCHY:-v1}
if [ "$HIERARCHY" = v2 ]; then
	MEMCG=/sys/fs/cgroup
	TCP_LIMIT=tcp.max
	TCP_USAGE=tcp.current
	TCP_PEAK=tcp.peak
	TCP_STAT=tcp.stat
	TCP_UNLIMITED=max
else
	MEMCG=/sys/fs/cgroup/memory
	TCP_LIMIT=kmem.tcp.limit_in_bytes
	TCP_USAGE=kmem.tcp.usage_in_bytes
	TCP_PEAK=kmem.tcp.max_usage_in_bytes
	TCP_STAT=kmem.tcp.stat
	TCP_UNLIMITED=-1
fi

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

# expect_ge A B WHAT: integers, A >= B
expect_ge() {
	[ "$1" -ge "$2" ] || fail "$3: expected >= $2, got $1"
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

# expect_refused FILE VALUE [EXPECTED]: writing VALUE fails with EINVAL or
# ERANGE, and FILE then reads EXPECTED (default: what it read before).
expect_refused() {
	_before=$(cat "$1")
	_got=$(writefile "$1" "$2")
	case $_got in
	EINVAL|ERANGE) ;;
	*) fail "write '$2' to $1: expected EINVAL or ERANGE, got $_got" ;;
	esac
	expect_eq "$(cat "$1")" "${3:-$_before}" "$1 after refused write '$2'"
}

# poll_until SECONDS COMMAND...: run COMMAND every 50 ms until it succeeds;
# fail once SECONDS have passed.  For state the kernel settles after the
# fact (a socket freed from softirq or RCU), with a bound instead of a sleep.
# The bound is on the clock, not a count of tries: on a slow guest (TCG, a
# debug kernel, a loaded host) each try takes far longer than its 50 ms.
# (busybox sh has no "local": helpers use names starting with _.)
poll_until() {
	_poll_end=$(($(date +%s) + $1))
	shift
	POLL_WHAT="$*"
	until "$@"; do
		[ "$(date +%s)" -lt $_poll_end ] || { POLL_WHAT=; return 1; }
		sleep 0.05
	done
	POLL_WHAT=
}

# cg_make NAME: create $MEMCG/NAME (NAME may be nested, a/b); every cgroup
# made this way is removed when the test exits, children first.  On v2 the
# parent hands the memory controller down first (the root does from /init).
CG_MADE=
cg_make() {
	[ "${1%/*}" != "$1" ] && cg_subtree "$MEMCG/${1%/*}"
	mkdir "$MEMCG/$1" || fail "mkdir $MEMCG/$1"
	CG_MADE="$MEMCG/$1 $CG_MADE"
}

# cg_subtree CGROUP: on v2, enable the memory controller for CGROUP's
# children (cgroup.subtree_control), for a test that makes them itself
# (from another namespace, as another user); from then on CGROUP holds no
# task.  Nothing to do on v1.
cg_subtree() {
	[ "$HIERARCHY" = v2 ] || return 0
	echo +memory >"$1/cgroup.subtree_control" ||
		fail "enable memory in $1/cgroup.subtree_control"
}

# on_exit COMMAND: run COMMAND (a string for eval) when the test exits,
# before its cgroups are removed; last registered, first run.
ON_EXIT=
on_exit() {
	ON_EXIT="$1
$ON_EXIT"
}

cg_cleanup() {
	[ -n "$TCPFILL_PID" ] && { exec 3>&-; wait "$TCPFILL_PID"; }
	# tcpfill_run's output was written from the cgroup it ran in: its
	# pages would keep that memcg alive after rmdir.
	rm -f /tmp/tcpfill.out /tmp/tcpfill.ctl
	eval "$ON_EXIT"
	echo $$ >"$MEMCG/cgroup.procs" 2>/dev/null
	for _d in $CG_MADE; do
		rmdir "$_d" 2>/dev/null
	done
}
trap cg_cleanup EXIT
# run-tests ends a test past its time limit with SIGTERM (SIGKILL 10 s
# later): say what it was waiting for, and clean up as on any exit.
POLL_WHAT=
TEST_START=$(date +%s)
trap 'echo "terminated after $(($(date +%s) - TEST_START)) s${POLL_WHAT:+, polling for: $POLL_WHAT}"; exit 1' TERM

# cg_read CGROUP FILE: print the value of CGROUP/memory.FILE
cg_read() {
	cat "$1/memory.$2" || fail "read $1/memory.$2"
}

# cg_tcp_limit CGROUP VALUE: set CGROUP's TCP limit (v1) or max (v2) to
# VALUE, "unlimited" for none
cg_tcp_limit() {
	_v=$2
	[ "$_v" = unlimited ] && _v=$TCP_UNLIMITED
	expect_write "$1/memory.$TCP_LIMIT" "$_v" OK
}

# cg_refusals CGROUP: charges refused at CGROUP's own limit: v1's
# kmem.tcp.failcnt, v2's "max" in tcp.events
cg_refusals() {
	if [ "$HIERARCHY" = v2 ]; then
		cg_key "$1/memory.tcp.events" max
	else
		cg_read "$1" kmem.tcp.failcnt
	fi
}

# cg_key FILE KEY: the value of KEY in the flat-keyed FILE
cg_key() {
	awk -v k="$2" '$1 == k { print $2; f = 1 } END { exit !f }' "$1" ||
		fail "no $2 in $1"
}

# events_watch FILE: watch FILE for a change by poll(2) and by inotify
# (eventwait, up to 60 s each), both armed (bounded) before it returns;
# events_watched: both saw the change, each within its 60 s.
events_watch() {
	EV_FILE=$1
	rm -f /tmp/ev.poll /tmp/ev.inotify
	eventwait "$1" 60 >/tmp/ev.poll 2>&1 &
	EV_POLL_PID=$!
	eventwait -i "$1" 60 >/tmp/ev.inotify 2>&1 &
	EV_INOTIFY_PID=$!
	on_exit "kill $EV_POLL_PID $EV_INOTIFY_PID 2>/dev/null; rm -f /tmp/ev.poll /tmp/ev.inotify"
	_armed() { grep -q armed /tmp/ev.poll && grep -q armed /tmp/ev.inotify; }
	poll_until 10 _armed ||
		fail "watchers of $1 not armed: $(cat /tmp/ev.poll /tmp/ev.inotify)"
}

events_watched() {
	wait "$EV_POLL_PID"
	expect_eq "$(tail -1 /tmp/ev.poll)" changed "poll(2) on $EV_FILE"
	wait "$EV_INOTIFY_PID"
	expect_eq "$(tail -1 /tmp/ev.inotify)" changed "inotify on $EV_FILE"
}

# Loopback traffic held open while the test looks at the counters.
# tcpfill_start ARGS...: start "tcpfill -H ARGS" and wait (bounded) until
# its connections are filled; tcpfill_stop closes them, waits for it and
# removes its output (written from the cgroup it ran in, its pages would
# keep that memcg alive after rmdir).
# tcpfill_run COMMAND...: the same for a command that ends up exec'ing
# "tcpfill -H ..." (in another namespace, say).  TCPFILL_PID is the
# process that holds the sockets.
# tcpfill_run_until WORD COMMAND...: the same, waiting for the line that
# starts with WORD instead ("queued": tcpfill -P -W before it accepts).
TCPFILL_PID=
tcpfill_run() {
	tcpfill_run_until filled "$@"
}

tcpfill_run_until() {
	_until=$1
	shift
	rm -f /tmp/tcpfill.ctl /tmp/tcpfill.out
	mkfifo /tmp/tcpfill.ctl || fail "mkfifo"
	"$@" </tmp/tcpfill.ctl >/tmp/tcpfill.out 2>&1 &
	TCPFILL_PID=$!
	exec 3>/tmp/tcpfill.ctl
	poll_until 60 grep -q "^$_until" /tmp/tcpfill.out ||
		fail "$*: not $_until within 60 s: $(cat /tmp/tcpfill.out)"
	echo "$*: $(cat /tmp/tcpfill.out)"
}

tcpfill_start() {
	tcpfill_run tcpfill -H "$@"
}

tcpfill_stop() {
	exec 3>&-
	_pid=$TCPFILL_PID
	TCPFILL_PID=
	wait "$_pid" || fail "tcpfill: $(cat /tmp/tcpfill.out)"
	rm -f /tmp/tcpfill.out
}

# wait_usage_zero CGROUP [SECONDS]: its TCP usage (v1's
# kmem.tcp.usage_in_bytes, v2's tcp.current) reaches 0 within SECONDS, 30
# by default: closed sockets are freed from softirq and RCU, and on v2
# each CPU drops the pages it charged ahead from a work item, all of
# which a loaded host may hold up by stalling the guest's vCPUs; pass
# socket_linger_seconds for sockets the kernel keeps on timers.
wait_usage_zero() {
	_cg=$1
	_secs=${2:-30}
	_usage_zero() { [ "$(cg_read "$_cg" $TCP_USAGE)" = 0 ]; }
	poll_until "$_secs" _usage_zero ||
		fail "$_cg: $TCP_USAGE still $(cg_read "$_cg" $TCP_USAGE) $_secs s after close"
}

# socket_linger_seconds: how long the kernel may keep a closed socket, and
# with it the socket's memcg and charges, on its own timers: an orphaned
# TCP connection lasts up to tcp_fin_timeout in FIN_WAIT2, and a closed
# MPTCP connection's subflows up to MPTCP's close timeout
# (net.mptcp.close_timeout where the kernel has it, TCP_TIMEWAIT_LEN, 60 s,
# before it), after which a subflow closed then may still wait out
# tcp_fin_timeout: the two in a row.  Plus 20 s for a slow guest (TCG, a
# debug kernel).  (Their larger alone was too tight: an MPTCP server's
# usage, on a host loaded with three guests and two kernel builds, was
# still at its limit 80 s after close.)
socket_linger_seconds() {
	_linger=60
	[ -r /proc/sys/net/mptcp/close_timeout ] &&
		_linger=$(cat /proc/sys/net/mptcp/close_timeout)
	echo $((_linger + $(cat /proc/sys/net/ipv4/tcp_fin_timeout) + 20))
}

# What one connection may be forced past a limit, at each end.  The first
# skb a receiver queues is charged past any limit, and over loopback it
# carries up to 64 KiB in page fragments besides its head: 17 pages once
# rounded.  A sender whose charge is refused has its sndbuf cut below what
# it has queued (sk_stream_moderate_sndbuf() in __sk_mem_raise_allocated()),
# which turns that charge into a forced one; it goes on filling the skb it
# is building, up to its 64 KiB size goal, each charge forced the same
# way: 17 pages more.
SLACK_PER_CONN=$((2 * 17 * 4096))

# tcp_slack CONNS CAP: what CONNS filled connections may take past a limit
# or threshold of CAP bytes: their forced charges and, on cgroup v2, what
# the CPUs may hold charged ahead for the cgroup, which counts in
# memory.tcp.current: the series' charge batch, all CPUs together at most
# a 64th of CAP, each at most 4 MiB (1024 pages)
tcp_slack() {
	_slack=$(($1 * SLACK_PER_CONN))
	if [ "$HIERARCHY" = v2 ]; then
		_batch=$(($2 / 4096 / 64 / $(nproc)))
		[ $_batch -gt 1024 ] && _batch=1024
		_slack=$((_slack + $(nproc) * _batch * 4096))
	fi
	echo $_slack
}

# tcp_slack_thresholds CONNS CAP: the same for a cgroup held by its
# thresholds (tcp_mem) or by the global limits rather than by a hard
# limit: a charge they refuse is made on the cgroup's counter before it
# is taken back (sk_mem_raise_allocated()), so the high-water mark and a
# reading of the usage may hold it.  One may be in flight in task and in
# softirq context on each CPU, each up to an skb's 17 pages.
tcp_slack_thresholds() {
	echo $(($(tcp_slack "$1" "$2") + 2 * $(nproc) * 17 * 4096))
}

# tcp_snapshot CGROUP: while its traffic is held, read CGROUP's TCP usage,
# high-water mark and refusals at its own limit into snap_current,
# snap_peak and snap_refused, and print them
tcp_snapshot() {
	snap_current=$(cg_read "$1" $TCP_USAGE)
	snap_peak=$(cg_read "$1" $TCP_PEAK)
	snap_refused=$(cg_refusals "$1")
	echo "$1: usage=$snap_current peak=$snap_peak refused=$snap_refused"
}

# expect_held_at_cap WHAT CAP CONNS: the last tcp_snapshot was of traffic
# held by a limit of CAP bytes: usage above 0, the peak within CAP and
# the slack of CONNS connections (tcp_slack), refusals counted
expect_held_at_cap() {
	expect_gt "$snap_current" 0 "$1: TCP usage while full"
	expect_le "$snap_peak" $(($2 + $(tcp_slack "$3" "$2"))) "$1: peak"
	expect_gt "$snap_refused" 0 "$1: refusals at its cap"
}

# sockstat_tcp_bytes: TCP's memory from /proc/net/sockstat, in bytes
sockstat_tcp_bytes() {
	echo $(($(sed -n 's/^TCP: .* mem \([0-9]*\)$/\1/p' /proc/net/sockstat) * 4096))
}

# expect_log_clean: fail if the kernel log gained a line that
# kernel-log-splats reports since the test started, so that the test whose
# work caused a warning is the one that fails (run-tests' last case only
# says that some test did).
KLOG_START=$(dmesg | wc -l)
expect_log_clean() {
	dmesg | sed -n "$((KLOG_START + 1)),\$p" >/tmp/klog.new
	kernel-log-splats /tmp/klog.new >/tmp/klog.splats ||
		fail "kernel log since the test started: $(cat /tmp/klog.splats)"
}

# memcgs_alive: memory cgroups the kernel still has, removed or not
memcgs_alive() {
	awk '$1 == "memory" { print $3 }' /proc/cgroups
}

# memcgs_made: memory cgroup directories that exist
memcgs_made() {
	find "$MEMCG" -type d | wc -l
}

# wait_memcgs_freed SECONDS: every removed memory cgroup is freed (none is
# still held by a socket, a page or a reference) within SECONDS.  If not,
# it fails, and says first whether dropping the page cache freed it
# within 10 s more: a page, rather than a reference the series holds.
wait_memcgs_freed() {
	_all_freed() { [ "$(memcgs_alive)" = "$(memcgs_made)" ]; }
	poll_until "$1" _all_freed && return 0
	_alive=$(memcgs_alive)
	echo 3 >/proc/sys/vm/drop_caches
	if poll_until 10 _all_freed; then
		_after="freed once the page cache was dropped"
	else
		_after="still alive after the page cache was dropped"
	fi
	fail "$_alive memory cgroups alive, $(memcgs_made) directories: a removed one is still referenced ($_after)"
}

# limited_parent_with_child NAME: make NAME with a 64M TCP limit and an
# unlimited NAME/child, whose TCP high-water marks (TCP_PEAK) then read 0.
# On v1, first show that the child's own TCP traffic is charged (socket
# accounting is on, and reaches a child without a limit:
# child_traffic_charged), then reset both max_usage to 0.  v2 has no reset
# of tcp.peak: there the test calls child_traffic_charged once it has
# read the high-water marks.  Sets $parent and $child.
limited_parent_with_child() {
	cg_make "$1"
	cg_make "$1/child"
	parent=$MEMCG/$1
	child=$MEMCG/$1/child
	cg_tcp_limit "$parent" 64M
	[ "$HIERARCHY" = v1 ] || return 0
	child_traffic_charged
	expect_write "$child/memory.kmem.tcp.max_usage_in_bytes" 0 OK
	expect_write "$parent/memory.kmem.tcp.max_usage_in_bytes" 0 OK
}

# child_traffic_charged: TCP traffic of limited_parent_with_child's child
# is charged there (its high-water mark grows), and uncharged after close
child_traffic_charged() {
	tcpfill -c 1 -b 65536 -g "$child" >/dev/null || fail "tcpfill in $child"
	expect_gt "$(cg_read "$child" $TCP_PEAK)" 0 \
		"child's $TCP_PEAK after its own TCP traffic"
	wait_usage_zero "$child"
}

# siblings_with_a_filled NAME: NAME with a 64M TCP limit and two
# children, a and b; A's thresholds are 48 64 96 (written by root from
# inside A, from a namespace of its own) and two connections of A are
# filled and held (tcpfill_stop releases them), so that A is under
# pressure.  Sets $p, $a and $b.
siblings_with_a_filled() {
	cg_make "$1"
	cg_make "$1/a"
	cg_make "$1/b"
	p=$MEMCG/$1
	a=$p/a
	b=$p/b
	cg_tcp_limit "$p" 64M
	tcpfill_run unshare -n sh /tests/lib/in-netns.sh "$a" "48 64 96" \
		tcpfill -H -c 2
}

# a_and_parent_leave_pressure: after siblings_with_a_filled's connections
# are released, A and the parent leave pressure (30 s) and A's usage
# returns to 0.
a_and_parent_leave_pressure() {
	_left() { [ "$(cg_stat "$a" pressure)$(cg_stat "$p" pressure)" = 00 ]; }
	poll_until 30 _left ||
		fail "A and the parent still under pressure 30 s after close: $(cg_stat "$a" pressure) $(cg_stat "$p" pressure)"
	wait_usage_zero "$a"
}

# cg_stat CGROUP KEY: the value of KEY in CGROUP/memory.kmem.tcp.stat
# (v1); on v2 in memory.tcp.stat, or for the counts pressure_entered and
# suppressed, in memory.tcp.events ("pressure", "suppressed")
cg_stat() {
	if [ "$HIERARCHY" = v1 ]; then
		cg_key "$1/memory.kmem.tcp.stat" "$2"
		return
	fi
	case $2 in
	pressure_entered) cg_key "$1/memory.tcp.events" pressure ;;
	suppressed) cg_key "$1/memory.tcp.events" suppressed ;;
	*) cg_key "$1/memory.tcp.stat" "$2" ;;
	esac
}

# cg_thresholds CGROUP: its three thresholds, "low pressure high"
cg_thresholds() {
	echo "$(cg_stat "$1" tcp_mem_low) $(cg_stat "$1" tcp_mem_pressure) $(cg_stat "$1" tcp_mem_high)"
}

# cg_tcp_state CGROUP: its TCP state on one line, for a test's output:
# v1's kmem.tcp.stat, v2's tcp.stat and tcp.events
cg_tcp_state() {
	if [ "$HIERARCHY" = v1 ]; then
		tr '\n' ' ' <"$1/memory.kmem.tcp.stat"
	else
		cat "$1/memory.tcp.stat" "$1/memory.tcp.events" | tr '\n' ' '
	fi
}
