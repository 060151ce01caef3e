# Orphans are reaped when TCP as a whole is over its global tcp_mem[2],
# whatever the cgroup's own thresholds say: a limited cgroup with large
# thresholds fills two connections; the global tcp_mem is then lowered
# below what TCP holds, and closing the senders, which still have data
# queued, aborts them (TCPAbortOnMemory in /proc/net/netstat), as on stock
# (series: v8 3/9; tcp_out_of_memory() keeps the global bound).
. /tests/lib/common.sh

# TCPAbortOnMemory: the TcpExt counter, from its header and value lines
abort_on_memory() {
	awk '$1 == "TcpExt:" {
		if (!h) { for (i = 2; i <= NF; i++) name[i] = $i; h = 1; next }
		for (i = 2; i <= NF; i++) if (name[i] == "TCPAbortOnMemory") print $i
	}' /proc/net/netstat
}

cg_make t-orphans
cg=$MEMCG/t-orphans
expect_write "$cg/memory.kmem.tcp.limit_in_bytes" 64M OK
saved=$(cat /proc/sys/net/ipv4/tcp_mem)
on_exit "writefile /proc/sys/net/ipv4/tcp_mem '$saved' >/dev/null"

before=$(abort_on_memory)
[ -n "$before" ] || fail "no TCPAbortOnMemory in /proc/net/netstat"
tcpfill_start -c 2 -g "$cg"
echo "TCP holds $(sockstat_tcp_bytes) bytes; cgroup thresholds large, global tcp_mem lowered to 10 20 30"
# from the root cgroup, which has no thresholds: the global ones only
expect_write /proc/sys/net/ipv4/tcp_mem "10 20 30" OK
tcpfill_stop
after=$(abort_on_memory)
echo "TCPAbortOnMemory: $before -> $after"
expect_gt "$after" "$before" "TCPAbortOnMemory after closing senders over the global tcp_mem[2]"
writefile /proc/sys/net/ipv4/tcp_mem "$saved" >/dev/null
wait_usage_zero "$cg"
