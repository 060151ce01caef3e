# cgroup v2 delegation: a subtree delegated to an unprivileged user (its
# directory, cgroup.procs, cgroup.subtree_control and cgroup.threads
# chowned, as systemd delegates) keeps the memory.tcp.max its parent's
# manager set: the delegatee cannot write it, and a cap it sets on a
# cgroup of its own, however large, does not lift the one above: the
# delegatee's traffic is refused at the delegated cgroup's cap (series:
# the v2 face, CONTRACT 7; stock v2 has no such file).
# hierarchies: v2
. /tests/lib/common.sh

uid=1000
cg_make t-deleg
d=$MEMCG/t-deleg
cg_tcp_limit "$d" 256K
chown $uid "$d" "$d/cgroup.procs" "$d/cgroup.subtree_control" "$d/cgroup.threads" ||
	fail "chown the delegated cgroup"
expect_eq "$(runas $uid writefile "$d/memory.tcp.max" 1G)" OPEN-EACCES \
	"the delegatee writing the delegated cgroup's own memory.tcp.max"
expect_eq "$(cat "$d/memory.tcp.max")" 262144 "the delegated cgroup's max after that"

# the delegatee makes a cgroup of its own and caps it far above
runas $uid sh -c "echo +memory >$d/cgroup.subtree_control && mkdir $d/mine" ||
	fail "the delegatee making $d/mine"
CG_MADE="$d/mine $CG_MADE"
expect_eq "$(runas $uid writefile "$d/mine/memory.tcp.max" 1G)" OK \
	"the delegatee capping its own cgroup"

tcpfill_run runas -g "$d/mine" $uid tcpfill -H -c 2
mine=$(cg_read "$d/mine" tcp.current)
tcp_snapshot "$d"
tcpfill_stop
expect_gt "$mine" 0 "the delegatee's sockets charged to its cgroup"
expect_held_at_cap "the delegated cgroup" 262144 2
expect_eq "$(cg_refusals "$d/mine")" 0 "refusals at the delegatee's own cap"
wait_usage_zero "$d/mine"
wait_usage_zero "$d"
