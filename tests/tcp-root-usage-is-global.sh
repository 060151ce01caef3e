# The root cgroup's kmem.tcp.usage_in_bytes is all of TCP's memory, the
# "mem" pages of /proc/net/sockstat in bytes (series: v8 7/9; stock shows
# what non-root cgroups charged).
. /tests/lib/common.sh

tcpfill_start -c 2
# Filled and idle, the two stay equal; give softirq work up to 30 s.
same() {
	root=$(cg_read "$MEMCG" kmem.tcp.usage_in_bytes)
	all=$(sockstat_tcp_bytes)
	[ "$root" = "$all" ] && [ "$all" -gt 0 ]
}
poll_until 30 same
ok=$?
echo "root kmem.tcp.usage_in_bytes=$root sockstat mem=$all bytes"
tcpfill_stop
[ $ok -eq 0 ] || fail "root usage $root is not TCP's memory $all"
