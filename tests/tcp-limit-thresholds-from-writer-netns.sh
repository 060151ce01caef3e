# Writing a TCP limit L (v1's memory.kmem.tcp.limit_in_bytes, v2's
# memory.tcp.max) sets each threshold to min(L / PAGE_SIZE, tcp_mem[i] of
# the writer's network namespace): a 64M limit written from a namespace
# whose tcp_mem is 48 64 96 makes the cgroup level off within 96 pages,
# with no refusal (v1's failcnt, v2's "max" event) (series: v8 5/9, 6/9,
# and the v2 face).  The namespace's tcp_mem is written from the root
# cgroup, which has no thresholds, so only the limit write can have set
# the cgroup's.
# hierarchies: v1 v2
. /tests/lib/common.sh

conns=2
cg_make t-writerns
cg=$MEMCG/t-writerns

out=$(unshare -n sh -c "writefile /proc/sys/net/ipv4/tcp_mem '48 64 96' &&
	writefile $cg/memory.$TCP_LIMIT 64M")
expect_eq "$(echo $out)" "OK OK" "tcp_mem and limit writes from the namespace"

tcpfill_start -c $conns -g "$cg"
max=$(cg_read "$cg" $TCP_PEAK)
failcnt=$(cg_refusals "$cg")
echo "limit=$(cat $cg/memory.$TCP_LIMIT) peak=$max refused=$failcnt"
tcpfill_stop
expect_le "$max" $((96 * 4096 + $(tcp_slack_thresholds $conns $((96 * 4096))))) "$TCP_PEAK"
expect_eq "$failcnt" 0 "refusals"
wait_usage_zero "$cg"
