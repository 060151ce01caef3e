# Writing memory.kmem.tcp.limit_in_bytes = L sets each threshold to
# min(L / PAGE_SIZE, tcp_mem[i] of the writer's network namespace): a 64M
# limit written from a namespace whose tcp_mem is 48 64 96 makes the
# cgroup level off within 96 pages, failcnt 0 (series: v8 5/9, 6/9).  The
# namespace's tcp_mem is written from the root cgroup, which has no
# thresholds, so only the limit write can have set the cgroup's.
. /tests/lib/common.sh

conns=2
cg_make t-writerns
cg=$MEMCG/t-writerns

out=$(unshare -n sh -c "writefile /proc/sys/net/ipv4/tcp_mem '48 64 96' &&
	writefile $cg/memory.kmem.tcp.limit_in_bytes 64M")
expect_eq "$(echo $out)" "OK OK" "tcp_mem and limit writes from the namespace"

tcpfill_start -c $conns -g "$cg"
max=$(cg_read "$cg" kmem.tcp.max_usage_in_bytes)
failcnt=$(cg_read "$cg" kmem.tcp.failcnt)
echo "limit=$(cat $cg/memory.kmem.tcp.limit_in_bytes) max_usage=$max failcnt=$failcnt"
tcpfill_stop
expect_le "$max" $((96 * 4096 + conns * SLACK_PER_CONN)) "max_usage"
expect_eq "$failcnt" 0 "failcnt"
wait_usage_zero "$cg"
