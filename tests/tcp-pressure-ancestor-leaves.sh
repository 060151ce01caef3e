# A cgroup put in its own pressure by its own sockets leaves it when its
# usage falls back under its first threshold, even once those sockets are
# gone and only a descendant's give memory back: parent M (64M limit,
# thresholds 48 64 96 written by root from inside it) has a child C with
# large thresholds.  C holds two filled connections (more than 48 pages,
# all counted in M's usage); a connection of M's own then takes M over
# its second threshold and closes.  M stays under pressure (its usage is
# still C's), C is not; once C's connections close, M leaves pressure
# (series: v8 3/9, CONTRACT 2).
. /tests/lib/common.sh

cg_make t-up
cg_make t-up/c
m=$MEMCG/t-up
c=$m/c
expect_write "$m/memory.kmem.tcp.limit_in_bytes" 64M OK
unshare -n sh /tests/lib/in-netns.sh "$m" "48 64 96" true ||
	fail "could not write tcp_mem from inside $m"
expect_eq "$(cg_thresholds "$m")" "48 64 96" "M's thresholds"

tcpfill_start -c 2 -g "$c"
expect_gt "$(cg_read "$m" kmem.tcp.usage_in_bytes)" $((48 * 4096)) "M's usage while C is filled"
tcpfill -c 1 -b 131072 -g "$m" >/dev/null || fail "tcpfill in M"
echo "M: $(tr '\n' ' ' <"$m/memory.kmem.tcp.stat")"
echo "C: $(tr '\n' ' ' <"$c/memory.kmem.tcp.stat")"
expect_eq "$(cg_stat "$m" pressure)" 1 "M's pressure after its own connection went over its thresholds"
expect_eq "$(cg_stat "$c" pressure)" 0 "C's pressure"
tcpfill_stop

m_left() { [ "$(cg_stat "$m" pressure)" = 0 ]; }
poll_until 10 m_left ||
	fail "M still under pressure 10 s after C's connections closed: $(tr '\n' ' ' <"$m/memory.kmem.tcp.stat")"
wait_usage_zero "$c"
wait_usage_zero "$m"
expect_log_clean
