# A new cgroup's thresholds are the tcp_mem of the network namespace of
# the task that creates it: a child made from a namespace whose tcp_mem
# is 48 64 96, under a parent with a 64M limit (which turns accounting
# on), levels off within 96 pages without any refusal (series: v8 4/9,
# 5/9).
. /tests/lib/common.sh

conns=2
cg_make t-createns
parent=$MEMCG/t-createns
child=$parent/child
expect_write "$parent/memory.kmem.tcp.limit_in_bytes" 64M OK
unshare -n sh -c "writefile /proc/sys/net/ipv4/tcp_mem '48 64 96' >/dev/null &&
	mkdir $child" || fail "could not create $child from a new namespace"
CG_MADE="$child $CG_MADE"

tcpfill_start -c $conns -g "$child"
max=$(cg_read "$child" kmem.tcp.max_usage_in_bytes)
pfail=$(cg_read "$parent" kmem.tcp.failcnt)
echo "child max_usage=$max; parent failcnt=$pfail"
tcpfill_stop
expect_le "$max" $((96 * 4096 + conns * SLACK_PER_CONN)) "child's max_usage"
expect_eq "$pfail" 0 "parent's failcnt"
wait_usage_zero "$child"
