# A parent's pressure follows the child that is under pressure, not the
# child that charged last: under a parent limited to 64M, child A (with
# thresholds 48 64 96, written by root from inside A) is filled and held
# under pressure while its sibling B, far below its own thresholds, opens
# and fills connections round after round.  After every round the parent
# is still under pressure, its pressure_entered has not moved with B's
# traffic, and B is not under pressure.  Once A's sockets close, A and
# the parent leave pressure (v1's memory.kmem.tcp.stat; v2's tcp.stat,
# with pressure_entered as tcp.events' "pressure"; series: v8 3/9, and the
# v2 face).
# hierarchies: v1 v2
. /tests/lib/common.sh

ROUNDS=6

siblings_with_a_filled t-sib
expect_eq "$(cg_stat "$a" pressure)" 1 "A's pressure while filled"
expect_eq "$(cg_stat "$p" pressure)" 1 "the parent's pressure while A is filled"
entered=$(cg_stat "$p" pressure_entered)
expect_gt "$entered" 0 "the parent's pressure_entered"

i=0
while [ $i -lt $ROUNDS ]; do
	i=$((i + 1))
	tcpfill -c 2 -b 262144 -g "$b" >/dev/null || fail "tcpfill in B, round $i"
	echo "round $i: parent $(cg_tcp_state "$p")"
	echo "round $i: B $(cg_tcp_state "$b")"
	expect_eq "$(cg_stat "$p" pressure)" 1 "the parent's pressure after B's round $i"
	expect_eq "$(cg_stat "$a" pressure)" 1 "A's pressure after B's round $i"
	expect_eq "$(cg_stat "$b" pressure)" 0 "B's pressure after its round $i"
done
expect_gt "$(cg_read "$b" $TCP_PEAK)" 262144 "B's $TCP_PEAK (its traffic was charged)"
# A's own sockets may re-enter once (a window probe); B's rounds must not
# show up in the parent's count.
expect_le "$(cg_stat "$p" pressure_entered)" $((entered + 1)) \
	"the parent's pressure_entered after $ROUNDS rounds of B (was $entered)"
expect_eq "$(cg_stat "$b" pressure_entered)" 0 "B's pressure_entered"
tcpfill_stop
a_and_parent_leave_pressure
wait_usage_zero "$b"
expect_log_clean
