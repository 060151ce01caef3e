# cgroup v2: memory.tcp.events counts charges refused at the cgroup's own
# max ("max"), entries into pressure and refused allocations of its
# subtree ("suppressed"), and a change wakes its watchers, by poll(2) and
# by inotify, as memory.events does.  A parent capped at 256K with a child
# that fills two connections: the parent counts max, pressure and
# suppressed, the child suppressed and pressure but no max (series: the
# v2 face, CONTRACT 7; stock v2 has no such file).
# hierarchies: v2
. /tests/lib/common.sh

cg_make t-events
cg_make t-events/child
p=$MEMCG/t-events
c=$p/child
cg_tcp_limit "$p" 256K

events_watch "$p/memory.tcp.events"
expect_eq "$(echo $(cg_read "$p" tcp.events))" "max 0 pressure 0 suppressed 0" \
	"parent's events before any traffic"

tcpfill_start -c 2 -g "$c"
tcpfill_stop
# The counts only grow.  A refusal counts at the child, then the parent:
# read while one is under way, the child is ahead; once the sockets are
# gone the two agree, unless the subtree's count is wrong.
_supp_settled() { [ "$(cg_stat "$c" suppressed)" = "$(cg_stat "$p" suppressed)" ]; }
poll_until 10 _supp_settled || true
pmax=$(cg_refusals "$p") cmax=$(cg_refusals "$c")
ppress=$(cg_stat "$p" pressure_entered) cpress=$(cg_stat "$c" pressure_entered)
psupp=$(cg_stat "$p" suppressed) csupp=$(cg_stat "$c" suppressed)
echo "parent: max=$pmax pressure=$ppress suppressed=$psupp; child: max=$cmax pressure=$cpress suppressed=$csupp"

expect_gt "$pmax" 0 "parent's max events"
expect_eq "$cmax" 0 "child's max events (the parent's max refused)"
expect_gt "$ppress" 0 "parent's pressure events"
expect_gt "$cpress" 0 "child's pressure events (a refusal puts it under pressure)"
expect_gt "$psupp" 0 "parent's suppressed"
expect_eq "$csupp" "$psupp" "child's suppressed (all of the subtree's are its)"
events_watched
wait_usage_zero "$c"
wait_usage_zero "$p"
