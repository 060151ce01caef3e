# Loopback TCP traffic from a task in a child with a 1M TCP limit (v1's
# kmem.tcp.limit_in_bytes, v2's tcp.max) is charged to that child, and the
# limit holds: the high-water mark (max_usage_in_bytes, tcp.peak) stays
# within the limit plus a slack, while the refusals (v1's failcnt, v2's
# "max" event) show the limit was hit (stock v1 does this for a limited
# cgroup; stock v2 has no TCP limit: the series' v2 face).
#
# The slack (tcp_slack): at each end of a connection the kernel may force
# one maximal skb's charges past the limit, so that a send or a receive
# always makes progress (SLACK_PER_CONN says how); on v2 add what each CPU
# may hold charged ahead for the cgroup.
# hierarchies: v1 v2
. /tests/lib/common.sh

conns=2
limit=1048576
slack=$(tcp_slack $conns $limit)

cg_make t-traffic
cg=$MEMCG/t-traffic
cg_tcp_limit "$cg" 1M

tcpfill_start -c $conns -g "$cg"
usage=$(cg_read "$cg" $TCP_USAGE)
max=$(cg_read "$cg" $TCP_PEAK)
failcnt=$(cg_refusals "$cg")
echo "limit=$limit usage=$usage peak=$max refused=$failcnt"
tcpfill_stop

expect_gt "$usage" 0 "$TCP_USAGE while connections are full"
expect_le "$max" $((limit + slack)) "$TCP_PEAK"
expect_gt "$failcnt" 0 "refusals after filling past the limit"
