# A TCP limit on a parent caps a child that has no limit of its own, for
# IPv4 and IPv6 traffic alike: the child's sockets are charged to both,
# the parent's high-water mark stays within its limit plus the slack,
# refusals count at the parent (the level whose limit was hit: v1's
# failcnt, v2's "max" event), not the child (series: v8 3/9, 4/9, and the
# v2 face; stock v1 charges only sockets of a cgroup with its own limit,
# stock v2 has no TCP limit).  Each family fills the child's connections
# in turn; the high-water mark covers both, and each must add refusals.
# hierarchies: v1 v2
. /tests/lib/common.sh

conns=2
limit=524288

cg_make t-cap
cg_make t-cap/child
parent=$MEMCG/t-cap
child=$MEMCG/t-cap/child
cg_tcp_limit "$parent" 512K

for family in 4 6; do
	flag=
	[ $family = 6 ] && flag=-6
	pfail0=$(cg_refusals "$parent")
	tcpfill_start $flag -c $conns -g "$child"
	# Held at the cap, the connections still move a few pages (a
	# retransmission or window probe is refused, a queue pruned, a
	# charge retried), so two reads apart may differ by that: read the
	# parent, the child and the parent again until both parent reads
	# match the child's.  A parent that does not carry the child's
	# charges, or counts them twice, never matches.
	agree() {
		pu=$(cg_read "$parent" $TCP_USAGE)
		cu=$(cg_read "$child" $TCP_USAGE)
		[ "$pu" = "$cu" ] && [ "$(cg_read "$parent" $TCP_USAGE)" = "$pu" ]
	}
	poll_until 30 agree
	pmax=$(cg_read "$parent" $TCP_PEAK)
	pfail=$(cg_refusals "$parent")
	cfail=$(cg_refusals "$child")
	echo "IPv$family: parent: usage=$pu peak=$pmax refused=$pfail; child: usage=$cu refused=$cfail"
	tcpfill_stop

	expect_gt "$cu" 0 "IPv$family: child's $TCP_USAGE while full"
	expect_eq "$pu" "$cu" "IPv$family: parent's usage (only the child has sockets)"
	expect_le "$pmax" $((limit + $(tcp_slack $conns $limit))) "IPv$family: parent's $TCP_PEAK"
	expect_gt "$pfail" "$pfail0" "IPv$family: parent's refusals"
	expect_eq "$cfail" 0 "IPv$family: child's refusals (they count at the parent)"
	wait_usage_zero "$child"
	wait_usage_zero "$parent"
done
