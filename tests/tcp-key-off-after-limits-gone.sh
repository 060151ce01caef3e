# Socket accounting goes off again once no cgroup has a limit and the
# sockets accounted meanwhile are freed, whatever other cgroups had
# sockets then: limit A; sockets in A and in an unlimited B (both charged:
# the limit turned accounting on); close them; remove A and wait until it
# is freed; B stays.  A new unlimited cgroup is then not charged for its
# traffic, as on stock.  Variant: B still holds sockets while A goes;
# they stay charged to B and uncharge to 0 when closed, and a new cgroup's
# sockets are not charged even while B's live: else each new socket would
# keep accounting on for the next, on a host whose connections overlap,
# with no limit left (series: v8 3/9, and CONTRACT 4; stock never charges
# an unlimited cgroup).  On cgroup v2 "charged" is counted in
# memory.tcp.current, which a memory.tcp.max turns on.
# hierarchies: v1 v2
. /tests/lib/common.sh

# Nothing else may hold accounting on: a removed cgroup of an earlier test
# (a limited one keeps the static key until it is freed) must be gone.
wait_memcgs_freed 20

# unlimited_not_charged: a fresh unlimited cgroup's traffic charges nothing
n=0
unlimited_not_charged() {
	n=$((n + 1))
	_c=$MEMCG/t-keyoff-c$n
	mkdir "$_c" || return 1
	tcpfill -c 1 -b 131072 -g "$_c" >/dev/null
	_m=$(cg_read "$_c" $TCP_PEAK)
	rmdir "$_c"
	[ "$_m" = 0 ]
}

# round HOLD: the sequence above; with HOLD=1, B's sockets stay open
# until A is freed
round() {
	cg_make t-keyoff-a
	cg_make t-keyoff-b
	a=$MEMCG/t-keyoff-a
	b=$MEMCG/t-keyoff-b
	cg_tcp_limit "$a" 64M
	tcpfill -c 2 -b 262144 -g "$a" >/dev/null || fail "tcpfill in A"
	if [ "$1" = 1 ]; then
		tcpfill_start -c 2 -b 262144 -g "$b" >/dev/null
		expect_gt "$(cg_read "$b" $TCP_USAGE)" 0 "B's usage while it holds sockets"
	else
		tcpfill -c 2 -b 262144 -g "$b" >/dev/null || fail "tcpfill in B"
	fi
	expect_gt "$(cg_read "$a" $TCP_PEAK)" 0 "A's $TCP_PEAK"
	expect_gt "$(cg_read "$b" $TCP_PEAK)" 0 "B's $TCP_PEAK (unlimited, accounted while A's limit exists)"
	wait_usage_zero "$a"
	rmdir "$a" || fail "rmdir $a"
	wait_memcgs_freed 20
	if [ "$1" = 1 ]; then
		expect_gt "$(cg_read "$b" $TCP_USAGE)" 0 "B's usage after A is freed"
		poll_until 30 unlimited_not_charged ||
			fail "a new unlimited cgroup is still charged 30 s after the last limit went, while B's sockets live"
		echo "round hold=1: a new cgroup not charged while B's sockets live, after $n tries"
		tcpfill_stop
	fi
	wait_usage_zero "$b"
	poll_until 30 unlimited_not_charged ||
		fail "a new unlimited cgroup is still charged 30 s after the last limit and its sockets are gone"
	echo "round hold=$1: accounting off after $n tries"
	rmdir "$b" || fail "rmdir $b"
	wait_memcgs_freed 20
}

round 0
round 1
expect_log_clean
