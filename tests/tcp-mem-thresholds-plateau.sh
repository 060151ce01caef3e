# A cgroup whose thresholds are small and whose hard limit is large levels
# off near its third threshold without failcnt growing, and without
# putting TCP as a whole under pressure (/proc/net/protocols).  The thresholds
# come from a net.ipv4.tcp_mem write by a task of the cgroup, inside a
# network namespace of its own (series: v8 5/9, 6/9; stock has no
# per-cgroup thresholds and no tcp_mem in a new namespace).
. /tests/lib/common.sh

tcp_mem="48 64 96"
conns=2

cg_make t-plateau
cg=$MEMCG/t-plateau
expect_write "$cg/memory.kmem.tcp.limit_in_bytes" 64M OK

tcpfill_run unshare -n sh /tests/lib/in-netns.sh "$cg" "$tcp_mem" \
	tcpfill -H -c $conns
usage=$(cg_read "$cg" kmem.tcp.usage_in_bytes)
max=$(cg_read "$cg" kmem.tcp.max_usage_in_bytes)
failcnt=$(cg_read "$cg" kmem.tcp.failcnt)
# name size sockets memory press...: TCP's global pressure flag
global=$(awk '$1 == "TCP" { print $5 }' /proc/net/protocols)
echo "tcp_mem=($tcp_mem) pages: usage=$usage max_usage=$max failcnt=$failcnt global pressure=$global"
tcpfill_stop
expect_eq "$global" no "TCP's global memory pressure while the cgroup is at its thresholds"

expect_le "$max" $((96 * 4096 + conns * SLACK_PER_CONN)) \
	"max_usage with tcp_mem[2] = 96 pages and a 64M limit"
expect_gt "$usage" $((48 * 4096)) "usage while full (above tcp_mem[0])"
expect_eq "$failcnt" 0 "failcnt (no charge reached the hard limit)"
wait_usage_zero "$cg"
