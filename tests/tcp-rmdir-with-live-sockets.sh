# A cgroup whose sockets are still open can be removed; they stay charged
# up the hierarchy until closed, and closing them uncharges the parent
# (the child has no limit of its own: series, v8 3/9 and 4/9, with its
# state freed with the memcg rather than at rmdir; on v2 its tcp.current
# is part of the parent's, the v2 face).
# hierarchies: v1 v2
. /tests/lib/common.sh

cg_make t-rmdir
parent=$MEMCG/t-rmdir
cg_make t-rmdir/child
cg_tcp_limit "$parent" 1M

tcpfill_start -c 2 -g "$parent/child"
echo "$TCPFILL_PID" >"$MEMCG/cgroup.procs" || fail "move tcpfill to root"
rmdir "$parent/child" || fail "rmdir of a cgroup with live sockets"
pu=$(cg_read "$parent" $TCP_USAGE)
echo "parent usage after rmdir: $pu"
expect_gt "$pu" 0 "parent's usage with the removed child's sockets open"
tcpfill_stop
wait_usage_zero "$parent"
