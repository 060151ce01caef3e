# The root cgroup has no TCP limit: its kmem.tcp.failcnt and
# kmem.tcp.max_usage_in_bytes read 0 even after a limited child hit its
# limit (series: v8 8/9, 9/9; stock's root shows its children's
# high-water mark).
. /tests/lib/common.sh

cg_make t-rootmax
cg=$MEMCG/t-rootmax
expect_write "$cg/memory.kmem.tcp.limit_in_bytes" 256K OK
tcpfill_start -c 2 -g "$cg"
expect_gt "$(cg_read "$cg" kmem.tcp.failcnt)" 0 "child's failcnt"
expect_eq "$(cg_read "$MEMCG" kmem.tcp.max_usage_in_bytes)" 0 "root max_usage"
expect_eq "$(cg_read "$MEMCG" kmem.tcp.failcnt)" 0 "root failcnt"
tcpfill_stop
expect_write "$MEMCG/memory.kmem.tcp.max_usage_in_bytes" 0 OK
expect_eq "$(cg_read "$MEMCG" kmem.tcp.max_usage_in_bytes)" 0 "root max_usage after a write"
