# A socket stays charged to the cgroup it was created in after its task
# moves to another cgroup; closing it then uncharges the first cgroup
# (as stock v1 does for a limited cgroup; kept by the series, and by its
# v2 face's tcp.current).
# hierarchies: v1 v2
. /tests/lib/common.sh

cg_make t-stay-a
cg_make t-stay-b
a=$MEMCG/t-stay-a
b=$MEMCG/t-stay-b
cg_tcp_limit "$a" 1M
cg_tcp_limit "$b" 1M

# 64 KiB a connection, far below the limit and within the receiver's
# window: once every byte is acknowledged nothing charges or uncharges A
# (no refusal, no retransmission, no window probe; on v2 what the CPUs
# hold ahead for A moves only with a charge or an uncharge), so its usage
# read before and after the move is exact.  Connections held at a cap
# would move a few pages between any two reads.
tcpfill_start -c 2 -b 65536 -g "$a"
acked() {
	awk 'NR > 1 && $4 == "01" { split($5, q, ":"); if (q[1] != "00000000") busy = 1 }
		END { exit busy }' /proc/net/tcp
}
poll_until 30 acked || fail "data still unacknowledged 30 s after the fill: $(cat /proc/net/tcp)"
before=$(cg_read "$a" $TCP_USAGE)
echo "$TCPFILL_PID" >"$b/cgroup.procs" || fail "move tcpfill to $b"
after=$(cg_read "$a" $TCP_USAGE)
bu=$(cg_read "$b" $TCP_USAGE)
echo "a: $before -> $after after the move; b: $bu"
tcpfill_stop
expect_gt "$before" 0 "a's usage while full"
expect_eq "$after" "$before" "a's usage after the task moved"
expect_eq "$bu" 0 "b's usage"
wait_usage_zero "$a"
