# A cgroup whose thresholds were never set follows later writes of the
# tcp_mem of the namespace it was made from, as TCP as a whole does; one
# whose thresholds were set keeps them.  Made while the host's tcp_mem is
# 48 64 96 (a slice made at boot, before sysctl.d), an unlimited child of
# a limited parent is held near 96 pages; the host then raises tcp_mem
# back: the child's thresholds are the new values and its traffic grows
# far past 96 pages, while a sibling with a limit of its own (thresholds
# set then) and the limited parent keep 48 64 96.  A cgroup made from a
# root-owned namespace follows that namespace's writes; one that uid
# 65534 makes in a directory delegated to it, from a namespace of a user
# namespace of its own, does not (series: v8 5/9, 6/9 and CONTRACT 2, and
# the v2 face; stock has no per-cgroup thresholds).  The limits are v1's
# kmem.tcp.limit_in_bytes or v2's tcp.max, the thresholds in
# kmem.tcp.stat or tcp.stat, the refusals v1's failcnt or v2's "max"
# event.
# hierarchies: v1 v2
. /tests/lib/common.sh

conns=2
small="48 64 96"
host=$(tr -s '\t ' '  ' </proc/sys/net/ipv4/tcp_mem)
on_exit "writefile /proc/sys/net/ipv4/tcp_mem '$host' >/dev/null"
echo "host tcp_mem: $host"

expect_write /proc/sys/net/ipv4/tcp_mem "$small" OK
cg_make t-follow
cg_make t-follow/child
cg_make t-follow/own
p=$MEMCG/t-follow
c=$p/child
o=$p/own
cg_tcp_limit "$p" 64M
cg_tcp_limit "$o" 64M
expect_eq "$(cg_thresholds "$c")" "$small" "child's thresholds, made while tcp_mem was $small"

tcpfill_start -c $conns -g "$c"
used=$(cg_read "$c" $TCP_USAGE)
echo "child while tcp_mem is $small: usage=$used $(cg_tcp_state "$c")"
tcpfill_stop
expect_le "$used" $((96 * 4096 + $(tcp_slack_thresholds $conns $((96 * 4096))))) "child's usage held near 96 pages"
wait_usage_zero "$c"

expect_write /proc/sys/net/ipv4/tcp_mem "$host" OK
expect_eq "$(cg_thresholds "$c")" "$host" "child's thresholds after the host's write"
expect_eq "$(cg_thresholds "$o")" "$small" "thresholds set by a limit, after the host's write"
expect_eq "$(cg_thresholds "$p")" "$small" "the limited parent's, after the host's write"

tcpfill_start -c $conns -g "$c"
used=$(cg_read "$c" $TCP_USAGE)
echo "child after the host's write: usage=$used $(cg_tcp_state "$c")"
tcpfill_stop
expect_gt "$used" 2097152 "child's usage of $conns filled connections after the host's write"
expect_eq "$(cg_refusals "$c")" 0 "child's refusals"
wait_usage_zero "$c"

# A namespace's own followers: a cgroup made from root's namespace follows
# it; one made from a namespace of a user namespace of its own does not.
unshare -n sh -c "writefile /proc/sys/net/ipv4/tcp_mem '$small' >/dev/null &&
	mkdir $p/netns && writefile /proc/sys/net/ipv4/tcp_mem '480 640 960'" >/dev/null ||
	fail "could not make $p/netns from a new network namespace"
CG_MADE="$p/netns $CG_MADE"
expect_eq "$(cg_thresholds "$p/netns")" "480 640 960" \
	"thresholds of a cgroup made from a namespace, after the namespace's write"
# uid 65534, given a directory of its own (delegated), makes a cgroup
# from the network namespace of a user namespace of its own.
cg_make t-follow/delegated
cg_subtree "$p/delegated"
chown 65534 "$p/delegated" || fail "chown $p/delegated"
userns-netns 65534 sh -c "writefile /proc/sys/net/ipv4/tcp_mem '$small' >/dev/null &&
	mkdir $p/delegated/userns && writefile /proc/sys/net/ipv4/tcp_mem '480 640 960'" >/dev/null ||
	fail "uid 65534 could not make $p/delegated/userns from a user namespace of its own"
CG_MADE="$p/delegated/userns $CG_MADE"
expect_eq "$(cg_thresholds "$p/delegated/userns")" "$small" \
	"thresholds of a cgroup made from a user namespace's network namespace, after its write"
expect_log_clean
