# MPTCP moves a subflow created by a task of other cgroups to the cgroups
# of its connection (mptcp_attach_cgroup(), when their cgroup v2 ids
# differ).  When the connection has no memory cgroup (created in the root
# cgroup here; every accepted one), the subflow must be left with none,
# not with a pointer to the creating task's memcg whose reference was just
# dropped.  A task in a limited memcg (so the subflow, a kernel socket, is
# accounted there at creation, as on stock) and in a cgroup v2 group of its
# own asks for a subflow of a connection made in the root cgroups; after
# everything is closed and the memcg removed, the memcg is freed with its
# counts back at zero and the kernel log is clean (series: v8 4/9, the
# MPTCP wiring; the same put happens on stock).
. /tests/lib/common.sh

[ -d /proc/sys/net/mptcp ] || skip "no MPTCP in this kernel"
cg2=/tmp/cgroup2
mkdir -p $cg2
mount -t cgroup2 cgroup2 $cg2 || fail "mount cgroup2"
on_exit "rmdir $cg2/t-mptcp 2>/dev/null; umount $cg2"
mkdir $cg2/t-mptcp || fail "mkdir $cg2/t-mptcp"

wait_memcgs_freed "$(socket_linger_seconds)"
cg_make t-mptcp
cg=$MEMCG/t-mptcp
expect_write "$cg/memory.kmem.tcp.limit_in_bytes" 64M OK

out=$(unshare -n sh -c "ip link set lo up && mptcp-subflow -g $cg -G $cg2/t-mptcp" 2>&1) ||
	fail "mptcp-subflow: $out"
echo "$out"
wait_usage_zero "$cg" "$(socket_linger_seconds)"
rmdir "$cg" || fail "rmdir $cg"
# the subflow may linger on its own timers, holding the removed memcg
wait_memcgs_freed "$(socket_linger_seconds)"
expect_log_clean
