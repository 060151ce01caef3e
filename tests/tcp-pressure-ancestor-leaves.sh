# A cgroup put in its own pressure by its own sockets leaves it when its
# usage falls back under its first threshold, even once those sockets are
# gone and only a descendant's give memory back: parent M (64M limit,
# thresholds 48 64 96 written by root from inside it) has a child C with
# large thresholds.  C holds two filled connections (more than 48 pages,
# all counted in M's usage); a connection of M's own then takes M over
# its second threshold and closes.  M stays under pressure (its usage is
# still C's), C is not; once C's connections close, M leaves pressure
# (series: v8 3/9, CONTRACT 2, and the v2 face).  On v1 M's connection is
# made by a task in M; on v2, where M holds no task once C is a memory
# cgroup, it is made in M before C exists, by a task that then leaves M
# (its sockets stay M's) and fills it later (tcpfill -W).  The limit is
# v1's kmem.tcp.limit_in_bytes or v2's tcp.max, the state kmem.tcp.stat
# or tcp.stat.
# hierarchies: v1 v2
. /tests/lib/common.sh

cg_make t-up
m=$MEMCG/t-up
c=$m/c
cg_tcp_limit "$m" 64M
unshare -n sh /tests/lib/in-netns.sh "$m" "48 64 96" true ||
	fail "could not write tcp_mem from inside $m"
expect_eq "$(cg_thresholds "$m")" "48 64 96" "M's thresholds"

own=
if [ "$HIERARCHY" = v2 ]; then
	rm -f /tmp/own.ctl /tmp/own.out
	mkfifo /tmp/own.ctl || fail "mkfifo"
	tcpfill -W -c 1 -b 131072 -g "$m" </tmp/own.ctl >/tmp/own.out 2>&1 &
	own=$!
	exec 4>/tmp/own.ctl
	on_exit "exec 4>&-; wait $own; rm -f /tmp/own.ctl /tmp/own.out"
	poll_until 30 grep -q '^connected' /tmp/own.out ||
		fail "M's own connection not made within 30 s: $(cat /tmp/own.out)"
	echo "$own" >"$MEMCG/cgroup.procs" || fail "move M's own task to the root"
fi
cg_make t-up/c

tcpfill_start -c 2 -g "$c"
expect_gt "$(cg_read "$m" $TCP_USAGE)" $((48 * 4096)) "M's usage while C is filled"
if [ -z "$own" ]; then
	tcpfill -c 1 -b 131072 -g "$m" >/dev/null || fail "tcpfill in M"
else
	echo go >&4
	wait "$own" || fail "M's own connection: $(cat /tmp/own.out)"
fi
echo "M: $(cg_tcp_state "$m")"
echo "C: $(cg_tcp_state "$c")"
expect_eq "$(cg_stat "$m" pressure)" 1 "M's pressure after its own connection went over its thresholds"
expect_eq "$(cg_stat "$c" pressure)" 0 "C's pressure"
tcpfill_stop

m_left() { [ "$(cg_stat "$m" pressure)" = 0 ]; }
poll_until 30 m_left ||
	fail "M still under pressure 30 s after C's connections closed: $(cg_tcp_state "$m")"
wait_usage_zero "$c"
wait_usage_zero "$m"
expect_log_clean
