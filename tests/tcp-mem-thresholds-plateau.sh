# A cgroup whose thresholds are small and whose hard limit is large levels
# off near its third threshold without a refusal at the limit (v1's
# failcnt, v2's "max" event), and without putting TCP as a whole under
# pressure (/proc/net/protocols).  The thresholds come from a
# net.ipv4.tcp_mem write by a task of the cgroup, inside a network
# namespace of its own (series: v8 5/9, 6/9, and the v2 face, whose
# tcp.max is the hard limit; stock has no per-cgroup thresholds and no
# tcp_mem in a new namespace).
# hierarchies: v1 v2
. /tests/lib/common.sh

tcp_mem="48 64 96"
conns=2

cg_make t-plateau
cg=$MEMCG/t-plateau
cg_tcp_limit "$cg" 64M

tcpfill_run unshare -n sh /tests/lib/in-netns.sh "$cg" "$tcp_mem" \
	tcpfill -H -c $conns
usage=$(cg_read "$cg" $TCP_USAGE)
max=$(cg_read "$cg" $TCP_PEAK)
failcnt=$(cg_refusals "$cg")
# name size sockets memory press...: TCP's global pressure flag
global=$(awk '$1 == "TCP" { print $5 }' /proc/net/protocols)
echo "tcp_mem=($tcp_mem) pages: usage=$usage peak=$max refused=$failcnt global pressure=$global"
tcpfill_stop
expect_eq "$global" no "TCP's global memory pressure while the cgroup is at its thresholds"

expect_le "$max" $((96 * 4096 + $(tcp_slack_thresholds $conns $((96 * 4096))))) \
	"$TCP_PEAK with tcp_mem[2] = 96 pages and a 64M limit"
expect_gt "$usage" $((48 * 4096)) "usage while full (above tcp_mem[0])"
expect_eq "$failcnt" 0 "refusals (no charge reached the hard limit)"
wait_usage_zero "$cg"
