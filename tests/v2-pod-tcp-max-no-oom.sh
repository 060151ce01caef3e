# cgroup v2, a pod as a kubelet would cap it: memory.max 64M and
# memory.tcp.max 2M on the pod, a container below it fills sixteen
# loopback connections.  TCP backpressure holds the pod's TCP memory at
# its cap (plus one forced skb per connection and what CPUs charged
# ahead: tcp_slack), the socket memory is
# still in memory.stat's sock as stock charges it, and nothing is
# OOM-killed: memory.events oom_kill stays 0.  Without the cap, that much
# socket memory is reclaimed and OOM-killed at memory.max instead (series:
# the v2 face, CONTRACT 7; stock v2 has no memory.tcp.max).
# hierarchies: v2
. /tests/lib/common.sh

conns=16
cap=2097152
cg_make t-pod
cg_make t-pod/ctr
pod=$MEMCG/t-pod
ctr=$pod/ctr
expect_write "$pod/memory.max" 64M OK
cg_tcp_limit "$pod" 2M

tcpfill_start -c $conns -g "$ctr"
tcp_snapshot "$pod"
sock=$(cg_key "$pod/memory.stat" sock)
oom=$(cg_key "$pod/memory.events" oom_kill)
echo "pod: memory.stat sock=$sock oom_kill=$oom"
tcpfill_stop
expect_held_at_cap "the pod" $cap $conns
expect_gt "$sock" 0 "memory.stat sock of the pod while full"
expect_eq "$oom" 0 "the pod's oom_kill"
expect_eq "$(cg_key "$pod/memory.events" oom_kill)" 0 "the pod's oom_kill after close"
wait_usage_zero "$ctr"
wait_usage_zero "$pod"
