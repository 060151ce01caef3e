# What peers send to connections a listener has not accepted yet is
# charged to the listener's cgroup from the first byte, so a cap on the
# listener's parent holds a backlog that no one accepts (a server can
# raise net.core.somaxconn in its own network namespace and park
# somaxconn receive queues there); accept() then moves each connection,
# with what it holds, to the accepting task's cgroup, where stock charges
# an accepted connection.  Clients in the root cgroup, never read:
#  1. a listener in a child of a parent capped at 512K, 16 connections
#     filled before any is accept()ed: the parent is held at its cap
#     (usage, a peak within the cap and the slack, refusals) while they
#     wait, and still once the child has accepted them;
#  2. 4 connections that received 32 KiB each before accept(), accepted
#     by a task of another cgroup: the listener's parent holds them before
#     (at least 128 KiB), the other cgroup after, and the parent is back
#     to 0 (on v2, to what its CPUs may hold charged ahead);
# then every usage returns to 0 and the cgroups, removed, are freed
# (series: v8 4/9 and the v2 face; stock charges a connection only when
# accept() returns, so the parent reads 0 while the backlog fills).
# hierarchies: v1 v2
. /tests/lib/common.sh

# backlog_start ARGS...: tcpfill -P -W -H ARGS, waited for (bounded)
# until every connection is filled and none accepted yet
backlog_start() {
	tcpfill_run_until queued tcpfill -P -W -H "$@"
}

# backlog_accept: let it accept every connection, and wait (bounded)
# until it has
backlog_accept() {
	echo >&3
	poll_until 60 grep -q '^filled' /tmp/tcpfill.out ||
		fail "tcpfill: not accepted within 60 s: $(cat /tmp/tcpfill.out)"
}

conns=16
limit=524288
cg_make t-backlog
cg_make t-backlog/child
parent=$MEMCG/t-backlog
child=$parent/child
cg_tcp_limit "$parent" 512K
backlog_start -c $conns -g "$child" -C "$MEMCG" -a "$child"
tcp_snapshot "$parent"
expect_held_at_cap "$conns connections not yet accepted, listener in the child: parent" \
	$limit $conns
backlog_accept
tcp_snapshot "$parent"
expect_held_at_cap "the same, accepted in the child: parent" $limit $conns
tcpfill_stop
wait_usage_zero "$child"
wait_usage_zero "$parent"

cg_make t-backlog-moved
cg_make t-backlog-moved/child
cg_make t-backlog-other
parent=$MEMCG/t-backlog-moved
child=$parent/child
other=$MEMCG/t-backlog-other
cg_tcp_limit "$parent" 1M
backlog_start -c 4 -b 32768 -g "$child" -C "$MEMCG" -a "$other"
expect_ge "$(cg_read "$parent" $TCP_USAGE)" 131072 \
	"parent's $TCP_USAGE while 4 connections hold 32 KiB each, not yet accepted"
backlog_accept
expect_ge "$(cg_read "$other" $TCP_USAGE)" 131072 \
	"$TCP_USAGE of the accepting task's cgroup right after accept()"
expect_le "$(cg_read "$parent" $TCP_USAGE)" "$(tcp_slack 0 1048576)" \
	"the listener's parent's $TCP_USAGE once another cgroup accepted"
tcpfill_stop
wait_usage_zero "$other"
wait_usage_zero "$parent"

# Each connection dropped its memcg and count where it held them: every
# removed cgroup is freed (freeing one that still counts a socket warns).
cg_cleanup
wait_memcgs_freed 30
expect_log_clean
