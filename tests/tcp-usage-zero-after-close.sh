# Closing every socket of a limited child uncharges all of its TCP memory:
# its usage (v1's kmem.tcp.usage_in_bytes, v2's tcp.current) goes back to
# 0 (sockets are freed from softirq and RCU, and on v2 each CPU drops what
# it charged ahead from a work item, so the test waits for it, up to
# 10 s; stock v2 has no TCP usage of a cgroup: the series' v2 face).
# hierarchies: v1 v2
. /tests/lib/common.sh

cg_make t-close
cg=$MEMCG/t-close
cg_tcp_limit "$cg" 1M

tcpfill_start -c 2 -g "$cg"
usage=$(cg_read "$cg" $TCP_USAGE)
tcpfill_stop
expect_gt "$usage" 0 "$TCP_USAGE while connections are full"

wait_usage_zero "$cg"
