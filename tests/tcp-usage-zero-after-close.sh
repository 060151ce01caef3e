# Closing every socket of a limited child uncharges all of its TCP memory:
# its usage (v1's kmem.tcp.usage_in_bytes, v2's tcp.current) goes back to
# 0 (sockets are freed from softirq and RCU, and on v2 each CPU drops what
# it charged ahead from a work item, so the test waits for it, up to
# 30 s; stock v2 has no TCP usage of a cgroup: the series' v2 face).
# On v2, memory.stat's sock goes back to 0 too: a counted socket's
# updates of it are held in each CPU's stock, a batch at a time, and must
# all reach the cgroup's statistics (which stock itself flushes every 2 s).
# hierarchies: v1 v2
. /tests/lib/common.sh

cg_make t-close
cg=$MEMCG/t-close
cg_tcp_limit "$cg" 1M

tcpfill_start -c 2 -g "$cg"
usage=$(cg_read "$cg" $TCP_USAGE)
# memory.stat is flushed on read only past a count of pending updates,
# else every 2 s: poll for the connections' pages to show there.
sock_seen() {
	sock=$(cg_key "$cg/memory.stat" sock)
	[ "$sock" -gt 0 ]
}
[ "$HIERARCHY" = v1 ] || poll_until 30 sock_seen
tcpfill_stop
expect_gt "$usage" 0 "$TCP_USAGE while connections are full"

wait_usage_zero "$cg"
[ "$HIERARCHY" = v1 ] && exit 0
expect_gt "$sock" 0 "memory.stat sock while connections are full"
sock_zero() { [ "$(cg_key "$cg/memory.stat" sock)" = 0 ]; }
poll_until 30 sock_zero ||
	fail "memory.stat sock still $(cg_key "$cg/memory.stat" sock) 30 s after close"
