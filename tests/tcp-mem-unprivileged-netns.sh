# An unprivileged user in a user and network namespace of its own may
# write that namespace's net.ipv4.tcp_mem, but not its memory cgroup's TCP
# thresholds: uid 65534 in a cgroup with a 64M limit writes "1 2 3" from
# "unshare -rn"; the namespace reads it back, and the cgroup's traffic is
# still not held near 3 pages.  A task with CAP_NET_ADMIN in the initial
# user namespace (root here, in a network namespace of its own) still sets
# them: the same traffic then levels off near its third threshold
# (series: v8 5/9, 6/9 and the rule of CONTRACT 2, and the v2 face;
# stock has no tcp_mem in a new namespace).  The limit is v1's
# kmem.tcp.limit_in_bytes or v2's tcp.max; v1 measures each fill by
# max_usage_in_bytes, reset in between, v2, whose tcp.peak has no reset,
# the second by tcp.current while it is held.
# hierarchies: v1 v2
. /tests/lib/common.sh

conns=2
cg_make t-unpriv
cg=$MEMCG/t-unpriv
cg_tcp_limit "$cg" 64M

out=$(userns-netns -g "$cg" 65534 sh -c \
	'echo "$(id -u) $(writefile /proc/sys/net/ipv4/tcp_mem "1 2 3") $(cat /proc/sys/net/ipv4/tcp_mem)"' 2>&1)
expect_eq "$(echo $out)" "0 OK 1 2 3" \
	"uid 65534 as root of its own user namespace: uid, tcp_mem write, tcp_mem read back"

tcpfill -c $conns -g "$cg" >/dev/null || fail "tcpfill after the unprivileged write"
max=$(cg_read "$cg" $TCP_PEAK)
echo "after the unprivileged write: peak=$max"
expect_gt "$max" 2097152 "$TCP_PEAK of $conns filled connections (not held at 3 pages)"
wait_usage_zero "$cg"

held=$TCP_USAGE
if [ "$HIERARCHY" = v1 ]; then
	expect_write "$cg/memory.kmem.tcp.max_usage_in_bytes" 0 OK
	held=$TCP_PEAK
fi
tcpfill_run unshare -n sh /tests/lib/in-netns.sh "$cg" "48 64 96" \
	tcpfill -H -c $conns
max=$(cg_read "$cg" $held)
failcnt=$(cg_refusals "$cg")
echo "after root's write of 48 64 96: $held=$max refused=$failcnt"
tcpfill_stop
expect_le "$max" $((96 * 4096 + $(tcp_slack_thresholds $conns $((96 * 4096))))) \
	"$held after root's write (tcp_mem[2] = 96 pages)"
expect_eq "$failcnt" 0 "refusals"
wait_usage_zero "$cg"
expect_log_clean
