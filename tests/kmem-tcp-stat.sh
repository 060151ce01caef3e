# memory.kmem.tcp.stat shows a cgroup's TCP state: the root and a child
# have the seven keys; a child starts with its creator's namespace's
# tcp_mem as thresholds, a limit written from a namespace with tcp_mem
# 48 64 96 makes them 48 64 96, an unprivileged write from a user
# namespace leaves them, a write by root from inside sets them; a cgroup
# holding a listener and one connection counts 3 sockets, and 0 after
# they close (series: beyond v8, the state of v8 3/9-6/9 made visible).
. /tests/lib/common.sh

keys="pressure pressure_entered suppressed sockets tcp_mem_low tcp_mem_pressure tcp_mem_high"
cg_make t-stat
cg=$MEMCG/t-stat
for d in "$MEMCG" "$cg"; do
	expect_eq "$(awk '{ print $1 }' "$d/memory.kmem.tcp.stat" | tr '\n' ' ')" "$keys " \
		"keys of $d/memory.kmem.tcp.stat"
done
global=$(echo $(cat /proc/sys/net/ipv4/tcp_mem))
expect_eq "$(cg_thresholds "$MEMCG")" "$global" "root's thresholds (the global tcp_mem)"
expect_eq "$(cg_thresholds "$cg")" "$global" "a new cgroup's thresholds (its creator's namespace)"
expect_eq "$(cg_stat "$cg" sockets)" 0 "a new cgroup's sockets"

out=$(unshare -n sh -c "writefile /proc/sys/net/ipv4/tcp_mem '48 64 96' &&
	writefile $cg/memory.kmem.tcp.limit_in_bytes 64M")
expect_eq "$(echo $out)" "OK OK" "tcp_mem and limit writes from a namespace"
expect_eq "$(cg_thresholds "$cg")" "48 64 96" "thresholds after the limit write"

out=$(userns-netns -g "$cg" 65534 writefile /proc/sys/net/ipv4/tcp_mem "1 2 3" 2>&1)
expect_eq "$out" OK "unprivileged tcp_mem write in its own namespace"
expect_eq "$(cg_thresholds "$cg")" "48 64 96" "thresholds after the unprivileged write"

out=$(unshare -n sh -c "echo \$\$ >$cg/cgroup.procs &&
	writefile /proc/sys/net/ipv4/tcp_mem '100 200 300'")
expect_eq "$out" OK "root's tcp_mem write from inside the cgroup"
expect_eq "$(cg_thresholds "$cg")" "100 200 300" "thresholds after root's write"

tcpfill_start -c 1 -b 4096 -g "$cg"
expect_eq "$(cg_stat "$cg" sockets)" 3 "sockets while a listener and one connection are open"
tcpfill_stop
no_sockets() { [ "$(cg_stat "$cg" sockets)" = 0 ]; }
poll_until 30 no_sockets || fail "sockets still $(cg_stat "$cg" sockets) 30 s after close"
expect_log_clean
