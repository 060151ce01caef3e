# Closing every socket of a limited child uncharges all of its TCP memory:
# kmem.tcp.usage_in_bytes goes back to 0 (sockets are freed from softirq
# and RCU, so the test waits for it, up to 10 s).
. /tests/lib/common.sh

cg_make t-close
cg=$MEMCG/t-close
expect_write "$cg/memory.kmem.tcp.limit_in_bytes" 1M OK

tcpfill_start -c 2 -g "$cg"
usage=$(cg_read "$cg" kmem.tcp.usage_in_bytes)
tcpfill_stop
expect_gt "$usage" 0 "kmem.tcp.usage_in_bytes while connections are full"

wait_usage_zero "$cg"
