# A new cgroup's thresholds are the tcp_mem of the network namespace of
# the task that creates it: a child made from a namespace whose tcp_mem
# is 48 64 96, under a parent with a 64M limit (v1's limit_in_bytes, v2's
# tcp.max, which turns accounting on), levels off within 96 pages without
# any refusal at the parent (v1's failcnt, v2's "max" event) (series: v8
# 4/9, 5/9, and the v2 face; stock has no per-cgroup thresholds).
# hierarchies: v1 v2
. /tests/lib/common.sh

conns=2
cg_make t-createns
parent=$MEMCG/t-createns
child=$parent/child
cg_tcp_limit "$parent" 64M
cg_subtree "$parent"
unshare -n sh -c "writefile /proc/sys/net/ipv4/tcp_mem '48 64 96' >/dev/null &&
	mkdir $child" || fail "could not create $child from a new namespace"
CG_MADE="$child $CG_MADE"

tcpfill_start -c $conns -g "$child"
max=$(cg_read "$child" $TCP_PEAK)
pfail=$(cg_refusals "$parent")
echo "child peak=$max; parent refused=$pfail"
tcpfill_stop
expect_le "$max" $((96 * 4096 + $(tcp_slack_thresholds $conns $((96 * 4096))))) "child's $TCP_PEAK"
expect_eq "$pfail" 0 "parent's refusals"
wait_usage_zero "$child"
