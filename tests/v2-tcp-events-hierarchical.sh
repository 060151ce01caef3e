# cgroup v2: memory.tcp.events counts the events of the cgroup and its
# subtree, memory.tcp.events.local its own, as memory.events and
# memory.events.local do.  A child capped at 256K under an uncapped
# parent fills two connections: a refusal at the child's own cap counts
# "max" in the child and in the parent, the child's own entries into
# pressure and refused allocations count in both, and the parent's
# .local stays at 0 (no cap, no socket, no pressure of its own, its
# thresholds being the namespace's); the child's .local equals its
# .events (it has no descendant); a change of the child's .local wakes
# its watchers by poll(2) and by inotify (series: the v2 face, CONTRACT
# 7.1; stock v2 has no such file).
# hierarchies: v2
. /tests/lib/common.sh

cg_make t-evh
cg_make t-evh/child
p=$MEMCG/t-evh
c=$p/child
cg_tcp_limit "$c" 256K

events_watch "$c/memory.tcp.events.local"

tcpfill_start -c 2 -g "$c"
tcpfill_stop
wait_usage_zero "$c"
# An event counts at the child, then at each ancestor: once the sockets
# are gone nothing counts any more, and the two files agree unless the
# walk up is wrong.
_settled() {
	[ "$(cat "$c/memory.tcp.events")" = "$(cat "$p/memory.tcp.events")" ]
}
poll_until 10 _settled || true
echo "child: $(echo $(cat "$c/memory.tcp.events")) / local $(echo $(cat "$c/memory.tcp.events.local"))"
echo "parent: $(echo $(cat "$p/memory.tcp.events")) / local $(echo $(cat "$p/memory.tcp.events.local"))"

expect_gt "$(cg_key "$c/memory.tcp.events.local" max)" 0 "the child's own max events"
expect_gt "$(cg_key "$c/memory.tcp.events.local" pressure)" 0 "the child's own pressure events"
expect_gt "$(cg_key "$c/memory.tcp.events.local" suppressed)" 0 "the child's own suppressed"
for k in max pressure suppressed; do
	expect_eq "$(cg_key "$c/memory.tcp.events" $k)" "$(cg_key "$c/memory.tcp.events.local" $k)" \
		"the child's $k: .events (subtree) as .local (no descendant)"
	expect_eq "$(cg_key "$p/memory.tcp.events" $k)" "$(cg_key "$c/memory.tcp.events" $k)" \
		"the parent's $k: its subtree's, the child's"
	expect_eq "$(cg_key "$p/memory.tcp.events.local" $k)" 0 "the parent's own $k"
done
events_watched
wait_usage_zero "$p"
