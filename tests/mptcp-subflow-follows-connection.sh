# An MPTCP subflow is a kernel socket that carries its connection's data:
# it is charged where its connection is, whichever task creates it.  A
# task of an unlimited child of a limited parent (its own TCP traffic is
# charged there: on v1 shown first, then the high-water marks reset; on
# v2, which has no reset of tcp.peak, shown last) asks for a subflow of a
# connection made in the root cgroup: the subflow's SYN charges neither
# the child nor the parent (their high-water marks, v1's
# max_usage_in_bytes, v2's tcp.peak, stay 0) (series: v8 4/9, the MPTCP
# wiring, and the v2 face; the series otherwise accounts a kernel socket
# only where stock does).
# hierarchies: v1 v2
. /tests/lib/common.sh

[ -d /proc/sys/net/mptcp ] || skip "no MPTCP in this kernel"
limited_parent_with_child t-mpfollow

out=$(unshare -n sh -c "ip link set lo up && mptcp-subflow -g $child" 2>&1) ||
	fail "mptcp-subflow: $out"
echo "$out"
expect_eq "$(cg_read "$child" $TCP_PEAK)" 0 \
	"child's $TCP_PEAK after its task made a subflow of a root connection"
expect_eq "$(cg_read "$parent" $TCP_PEAK)" 0 \
	"parent's $TCP_PEAK"
[ "$HIERARCHY" = v2 ] && child_traffic_charged
expect_log_clean
