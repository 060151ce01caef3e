# A TCP limit on a parent caps a child that has no limit of its own: the
# child's sockets are charged to both, the parent's high-water mark stays
# within its limit plus the slack, refusals count in the parent's failcnt
# (the level whose limit was hit), not the child's (series: v8 3/9, 4/9;
# stock charges only sockets of a cgroup with its own limit).
. /tests/lib/common.sh

conns=2
limit=524288

cg_make t-cap
cg_make t-cap/child
parent=$MEMCG/t-cap
child=$MEMCG/t-cap/child
expect_write "$parent/memory.kmem.tcp.limit_in_bytes" 512K OK

tcpfill_start -c $conns -g "$child"
pu=$(cg_read "$parent" kmem.tcp.usage_in_bytes)
cu=$(cg_read "$child" kmem.tcp.usage_in_bytes)
pmax=$(cg_read "$parent" kmem.tcp.max_usage_in_bytes)
pfail=$(cg_read "$parent" kmem.tcp.failcnt)
cfail=$(cg_read "$child" kmem.tcp.failcnt)
echo "parent: usage=$pu max=$pmax failcnt=$pfail; child: usage=$cu failcnt=$cfail"
tcpfill_stop

expect_gt "$cu" 0 "child's kmem.tcp.usage_in_bytes while full"
expect_eq "$pu" "$cu" "parent's usage (only the child has sockets)"
expect_le "$pmax" $((limit + conns * SLACK_PER_CONN)) "parent's max_usage"
expect_gt "$pfail" 0 "parent's failcnt"
expect_eq "$cfail" 0 "child's failcnt (refusals count at the parent)"
wait_usage_zero "$child"
wait_usage_zero "$parent"
