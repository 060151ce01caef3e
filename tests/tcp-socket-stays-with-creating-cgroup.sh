# A socket stays charged to the cgroup it was created in after its task
# moves to another cgroup; closing it then uncharges the first cgroup
# (as stock does for a limited cgroup; kept by the series).
. /tests/lib/common.sh

cg_make t-stay-a
cg_make t-stay-b
a=$MEMCG/t-stay-a
b=$MEMCG/t-stay-b
expect_write "$a/memory.kmem.tcp.limit_in_bytes" 1M OK
expect_write "$b/memory.kmem.tcp.limit_in_bytes" 1M OK

tcpfill_start -c 2 -g "$a"
before=$(cg_read "$a" kmem.tcp.usage_in_bytes)
echo "$TCPFILL_PID" >"$b/cgroup.procs" || fail "move tcpfill to $b"
after=$(cg_read "$a" kmem.tcp.usage_in_bytes)
bu=$(cg_read "$b" kmem.tcp.usage_in_bytes)
echo "a: $before -> $after after the move; b: $bu"
tcpfill_stop
expect_gt "$before" 0 "a's usage while full"
expect_eq "$after" "$before" "a's usage after the task moved"
expect_eq "$bu" 0 "b's usage"
wait_usage_zero "$a"
