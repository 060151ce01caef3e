# An MPTCP subflow is a kernel socket that carries its connection's data:
# it is charged where its connection is, whichever task creates it.  A
# task of an unlimited child of a limited parent (its own TCP traffic is
# charged there) asks for a subflow of a connection made in the root
# cgroup: the subflow's SYN charges neither the child nor the parent
# (series: v8 4/9, the MPTCP wiring; the series otherwise accounts a
# kernel socket only where stock does).
. /tests/lib/common.sh

[ -d /proc/sys/net/mptcp ] || skip "no MPTCP in this kernel"
limited_parent_with_child t-mpfollow

out=$(unshare -n sh -c "ip link set lo up && mptcp-subflow -g $child" 2>&1) ||
	fail "mptcp-subflow: $out"
echo "$out"
expect_eq "$(cg_read "$child" kmem.tcp.max_usage_in_bytes)" 0 \
	"child's max_usage after its task made a subflow of a root connection"
expect_eq "$(cg_read "$parent" kmem.tcp.max_usage_in_bytes)" 0 \
	"parent's max_usage"
expect_log_clean
