# SMC's data, when SMC falls back to TCP (no RDMA or ISM device here, as
# on any host without RDMA hardware, or a peer without SMC), flows
# through a TCP socket the kernel makes for each SMC socket (its
# clcsock): made by the task that creates the SMC socket, or accepted for
# an SMC listener by a kernel worker.  Any user can make one: Debian
# builds SMC as a module, and socket(AF_SMC) loads it.  A cap on a parent
# holds a child's SMC sockets as it holds its TCP sockets, each side
# filled with the other side in the root cgroup, never reading:
#  1. SMC clients in the child, to a plain TCP server (a peer without
#     SMC): the clients' queues;
#  2. an SMC server in the child (its listener made and its connections
#     accepted there), plain TCP clients: what the accepted side
#     received.
# Each fill is held at its parent's cap: usage, a peak within the cap and
# the slack, refusals.  And what an SMC server's connections received
# before accept() is charged to the accepting task's cgroup when accept()
# returns, as an accepted TCP socket's is: two connections that received
# 32 KiB each (within the first receive window) before the accept read
# at least that much in the parent right after it, none once closed, and
# the cgroups, removed, are freed (series: v8 4/9, the sockets the kernel
# makes for a user's socket are the user's, and the v2 face; stock counts
# the clients' only in a v1 cgroup with a limit of its own, the accepted
# side's nowhere, so a cap on the parent sees neither).
# hierarchies: v1 v2
. /tests/lib/common.sh

grep -q '^SMC ' /proc/net/protocols || skip "no SMC in this kernel"

conns=16
limit=524288

for side in clients server; do
	# a parent of its own per fill: v2's peak and events are not reset
	cg_make t-smc-$side
	cg_make t-smc-$side/child
	parent=$MEMCG/t-smc-$side
	child=$parent/child
	cg_tcp_limit "$parent" 512K
	case $side in
	clients) tcpfill_start -S c -c $conns -g "$child" -a "$MEMCG" ;;
	server) tcpfill_start -S l -c $conns -g "$child" -C "$MEMCG" -a "$child" ;;
	esac
	tcp_snapshot "$parent"
	tcpfill_stop
	expect_held_at_cap "SMC $side in the child: parent" $limit $conns
	wait_usage_zero "$child"
	wait_usage_zero "$parent"
done

cg_make t-smc-accepted
cg_make t-smc-accepted/child
parent=$MEMCG/t-smc-accepted
child=$parent/child
cg_tcp_limit "$parent" 64M
tcpfill_start -S l -P -c 2 -b 32768 -g "$child" -C "$MEMCG" -a "$child"
tcp_snapshot "$parent"
tcpfill_stop
[ "$snap_current" -ge $((2 * 32768)) ] ||
	fail "parent's $TCP_USAGE after accept(): $snap_current, less than the 65536 bytes received before it"
wait_usage_zero "$child"
wait_usage_zero "$parent"
# Each adopted socket dropped its memcg and count when freed: every
# removed cgroup is freed (freeing one that still counts a socket warns).
cg_cleanup
wait_memcgs_freed 30
expect_log_clean
