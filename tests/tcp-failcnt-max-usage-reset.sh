# In a limited cgroup, writing any number resets kmem.tcp.failcnt to 0 and
# kmem.tcp.max_usage_in_bytes to the current usage (as stock does; kept
# by the series, v8 8/9 and 9/9).
. /tests/lib/common.sh

cg_make t-reset
cg=$MEMCG/t-reset
expect_write "$cg/memory.kmem.tcp.limit_in_bytes" 256K OK
tcpfill_start -c 2 -g "$cg"
expect_gt "$(cg_read "$cg" kmem.tcp.failcnt)" 0 "failcnt after filling"
tcpfill_stop
# Closed first: live connections may be refused again at any moment.
wait_usage_zero "$cg"
expect_write "$cg/memory.kmem.tcp.failcnt" 0 OK
expect_eq "$(cg_read "$cg" kmem.tcp.failcnt)" 0 "failcnt after a write"
expect_gt "$(cg_read "$cg" kmem.tcp.max_usage_in_bytes)" 0 "max_usage after close"
expect_write "$cg/memory.kmem.tcp.max_usage_in_bytes" 1 OK
expect_eq "$(cg_read "$cg" kmem.tcp.max_usage_in_bytes)" 0 "max_usage reset with no sockets"
