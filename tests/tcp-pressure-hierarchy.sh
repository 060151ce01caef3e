# Pressure is per cgroup and goes up the tree, never sideways: under a
# parent limited to 64M, child A has thresholds 48 64 96 (written by root
# from inside A), child B the defaults.  While A is filled: A and the
# parent are under pressure and have entered it, B has not; refused
# allocations count in A and the parent, none in B, and A's failcnt stays
# 0.  Once A's sockets close, A and the parent leave pressure
# (memory.kmem.tcp.stat; series: v8 3/9, 6/9).
. /tests/lib/common.sh

cg_make t-hier
cg_make t-hier/a
cg_make t-hier/b
p=$MEMCG/t-hier
a=$p/a
b=$p/b
expect_write "$p/memory.kmem.tcp.limit_in_bytes" 64M OK

tcpfill_run unshare -n sh /tests/lib/in-netns.sh "$a" "48 64 96" \
	tcpfill -H -c 2
for c in "$p" "$a" "$b"; do
	echo "$c: $(tr '\n' ' ' <"$c/memory.kmem.tcp.stat")"
done
expect_eq "$(cg_stat "$a" pressure)" 1 "A's pressure while filled"
expect_eq "$(cg_stat "$p" pressure)" 1 "the parent's pressure"
expect_eq "$(cg_stat "$b" pressure)" 0 "sibling B's pressure"
expect_gt "$(cg_stat "$a" pressure_entered)" 0 "A's pressure_entered"
expect_gt "$(cg_stat "$p" pressure_entered)" 0 "the parent's pressure_entered"
expect_eq "$(cg_stat "$b" pressure_entered)" 0 "B's pressure_entered"
sa=$(cg_stat "$a" suppressed)
expect_gt "$sa" 0 "A's suppressed"
expect_le "$sa" "$(cg_stat "$p" suppressed)" "A's suppressed, counted in the parent too"
expect_eq "$(cg_stat "$b" suppressed)" 0 "B's suppressed"
expect_eq "$(cg_read "$a" kmem.tcp.failcnt)" 0 "A's failcnt (thresholds, not a limit)"
tcpfill_stop

left() { [ "$(cg_stat "$a" pressure)$(cg_stat "$p" pressure)" = 00 ]; }
poll_until 10 left ||
	fail "A and the parent still under pressure 10 s after close: $(cg_stat "$a" pressure) $(cg_stat "$p" pressure)"
wait_usage_zero "$a"
expect_log_clean
