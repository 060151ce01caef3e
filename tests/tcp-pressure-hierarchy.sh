# Pressure is per cgroup and goes up the tree, never sideways: under a
# parent limited to 64M, child A has thresholds 48 64 96 (written by root
# from inside A), child B the defaults.  While A is filled: A and the
# parent are under pressure and have entered it, B has not; refused
# allocations count in A and the parent, none in B, and A's refusals
# (v1's failcnt, v2's "max" event) stay 0.  Once A's sockets close, A and
# the parent leave pressure (v1's memory.kmem.tcp.stat; v2's tcp.stat,
# with the counts in tcp.events; series: v8 3/9, 6/9, and the v2 face).
# hierarchies: v1 v2
. /tests/lib/common.sh

siblings_with_a_filled t-hier
for c in "$p" "$a" "$b"; do
	echo "$c: $(cg_tcp_state "$c")"
done
expect_eq "$(cg_stat "$a" pressure)" 1 "A's pressure while filled"
expect_eq "$(cg_stat "$p" pressure)" 1 "the parent's pressure"
expect_eq "$(cg_stat "$b" pressure)" 0 "sibling B's pressure"
expect_gt "$(cg_stat "$a" pressure_entered)" 0 "A's pressure_entered"
expect_gt "$(cg_stat "$p" pressure_entered)" 0 "the parent's pressure_entered"
expect_eq "$(cg_stat "$b" pressure_entered)" 0 "B's pressure_entered"
expect_gt "$(cg_stat "$a" suppressed)" 0 "A's suppressed"
expect_eq "$(cg_refusals "$a")" 0 "A's refusals (thresholds, not a limit)"
tcpfill_stop
a_and_parent_leave_pressure
# A refusal is counted in A, then in each ancestor: compared while
# refusals still arrive, the parent may not have one of A's yet.  With
# A's sockets gone and A out of pressure, none is in flight.
sa=$(cg_stat "$a" suppressed)
expect_le "$sa" "$(cg_stat "$p" suppressed)" "A's suppressed, counted in the parent too"
expect_eq "$(cg_stat "$b" suppressed)" 0 "B's suppressed"
expect_log_clean
