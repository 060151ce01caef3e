# The series accounts the user sockets of every non-root memcg once a
# limit exists, but kernel sockets only where stock does: in a memcg with
# a TCP limit of its own.  Mounting 9p over TCP makes a kernel TCP socket
# in the mounting task; from an unlimited child of a limited parent, its
# SYN (to a port nothing listens on) charges neither the child nor the
# parent, while the child's own TCP traffic is charged (series: v8 3/9;
# kernel sockets keep stock's rule).
. /tests/lib/common.sh

grep -qw 9p /proc/filesystems || skip "no 9p in this kernel"
limited_parent_with_child t-kern

mkdir -p /tmp/9p
out=$(sh -c "echo \$\$ >$child/cgroup.procs &&
	exec mount -t 9p -o trans=tcp,port=1 127.0.0.1 /tmp/9p" 2>&1) &&
	fail "mount of 9p from 127.0.0.1:1 succeeded: $out"
echo "mount (expected to fail): $out"
expect_eq "$(cg_read "$child" kmem.tcp.max_usage_in_bytes)" 0 \
	"child's max_usage after its task's kernel socket sent a SYN"
expect_eq "$(cg_read "$parent" kmem.tcp.max_usage_in_bytes)" 0 \
	"parent's max_usage"
expect_log_clean
