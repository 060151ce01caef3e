# An accepted MPTCP connection is charged to the accepting task's memory
# cgroup, as an accepted TCP socket is, and its subflow follows it: an
# MPTCP server in a cgroup limited to 256K accepts two connections from
# clients in the root cgroup and never reads.  While the clients' data is
# held, the server's cgroup counts both connections and their subflows
# (4 sockets) and its usage is held at its limit, which refuses
# allocations: the receive queue,
# which lives on the MPTCP socket, is charged there (stock charges it
# nowhere, only the first subflow's few pages).  After close the server's
# subflows linger on MPTCP's close timer, still taking the clients' data
# (up to the limit): within the kernel's own bound for that
# (socket_linger_seconds) usage is back at 0, and once removed the cgroup
# is freed, with a clean log (series: v8 4/9, CONTRACT 4, and the v2
# face: the limit is v1's kmem.tcp.limit_in_bytes or v2's tcp.max, the
# counts in kmem.tcp.stat or tcp.stat and tcp.events).
# hierarchies: v1 v2
. /tests/lib/common.sh

[ -d /proc/sys/net/mptcp ] || skip "no MPTCP in this kernel"
expect_eq "$(cat /proc/sys/net/mptcp/enabled)" 1 "net.mptcp.enabled"
conns=2
limit=262144
cg_make t-mpaccept
srv=$MEMCG/t-mpaccept
cg_tcp_limit "$srv" $limit

# The listener's receive buffer (inherited by what it accepts) is far
# above the limit, and two connections' windows take more than 256K
# (about 650K unlimited), so that the limit is what holds the server.
tcpfill_start -M -c $conns -r 4194304 -a "$srv"
used=$(cg_read "$srv" $TCP_USAGE)
echo "server cgroup: usage=$used refused=$(cg_refusals "$srv") $(cg_tcp_state "$srv")"
echo "TCP memory of both sides (sockstat): $(sockstat_tcp_bytes)"
expect_eq "$(cg_stat "$srv" sockets)" $((conns * 2)) \
	"sockets of the server's cgroup (each connection and its subflow)"
expect_gt "$used" $((limit / 2)) "the server side's usage while the clients' data is held"
expect_le "$used" $((limit + $(tcp_slack $conns $limit))) "the server side's usage (limit 256K)"
expect_gt "$(cg_stat "$srv" suppressed)" 0 "allocations refused to the server side"
tcpfill_stop

wait_usage_zero "$srv" "$(socket_linger_seconds)"
# A socket's count goes when it is destroyed, after its memory went back
# and later still while a timer, MPTCP's worker or RCU holds it.
no_sockets() { [ "$(cg_stat "$srv" sockets)" = 0 ]; }
poll_until "$(socket_linger_seconds)" no_sockets ||
	fail "sockets of the server's cgroup still $(cg_stat "$srv" sockets) after close"
rmdir "$srv" || fail "rmdir $srv"
CG_MADE=
wait_memcgs_freed 20
expect_log_clean
