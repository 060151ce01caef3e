# The series accounts the user sockets of every non-root memcg once a
# limit exists, but kernel sockets only where stock does: in a v1 memcg
# with a TCP limit of its own; on v2 (whose stock charges every socket to
# its task's memcg, memory.stat's sock) the v2 face counts no kernel
# socket in memory.tcp.*.  Mounting 9p over TCP makes a kernel TCP socket
# in the mounting task; from an unlimited child of a limited parent, its
# SYN (to a port nothing listens on) charges neither the child nor the
# parent (their high-water marks, v1's max_usage_in_bytes, v2's tcp.peak,
# stay 0), while the child's own TCP traffic is charged: on v1 shown
# first, then the high-water marks reset; on v2, which has no reset of
# tcp.peak, shown last (series: v8 3/9, and the v2 face; kernel sockets
# keep stock's rule).
# hierarchies: v1 v2
. /tests/lib/common.sh

grep -qw 9p /proc/filesystems || skip "no 9p in this kernel"
limited_parent_with_child t-kern

mkdir -p /tmp/9p
out=$(sh -c "echo \$\$ >$child/cgroup.procs &&
	exec mount -t 9p -o trans=tcp,port=1 127.0.0.1 /tmp/9p" 2>&1) &&
	fail "mount of 9p from 127.0.0.1:1 succeeded: $out"
echo "mount (expected to fail): $out"
expect_eq "$(cg_read "$child" $TCP_PEAK)" 0 \
	"child's $TCP_PEAK after its task's kernel socket sent a SYN"
expect_eq "$(cg_read "$parent" $TCP_PEAK)" 0 \
	"parent's $TCP_PEAK"
[ "$HIERARCHY" = v2 ] && child_traffic_charged
expect_log_clean
