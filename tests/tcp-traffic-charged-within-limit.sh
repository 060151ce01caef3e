# Loopback TCP traffic from a task in a child with a 1M kmem.tcp limit is
# charged to that child, and the limit holds: the high-water mark stays
# within the limit plus a slack, while failcnt shows the limit was hit.
#
# The slack: when a socket's queues are empty the kernel force-charges
# one skb (sk_forced_mem_schedule), past the limit, so that a send always
# makes progress.  Each of the two connections' senders can do that once
# per refill; 64K per connection covers one maximal skb.
. /tests/lib/common.sh

conns=2
limit=1048576
slack=$((conns * SLACK_PER_CONN))

cg_make t-traffic
cg=$MEMCG/t-traffic
expect_write "$cg/memory.kmem.tcp.limit_in_bytes" 1M OK

tcpfill_start -c $conns -g "$cg"
usage=$(cg_read "$cg" kmem.tcp.usage_in_bytes)
max=$(cg_read "$cg" kmem.tcp.max_usage_in_bytes)
failcnt=$(cg_read "$cg" kmem.tcp.failcnt)
echo "limit=$limit usage=$usage max_usage=$max failcnt=$failcnt"
tcpfill_stop

expect_gt "$usage" 0 "kmem.tcp.usage_in_bytes while connections are full"
expect_le "$max" $((limit + slack)) "kmem.tcp.max_usage_in_bytes"
expect_gt "$failcnt" 0 "kmem.tcp.failcnt after filling past the limit"
