# cgroup v2: every non-root memory cgroup has memory.tcp.max, .current,
# .peak, .events, .events.local and .stat, the root none (as
# memory.max); a new cgroup reads max "max", no usage, no events, and
# thresholds that are its creator's network namespace's
# net.ipv4.tcp_mem (series: the v2 face, CONTRACT 7; stock v2 has no TCP
# file).
# hierarchies: v2
. /tests/lib/common.sh

for f in max current peak events events.local stat; do
	[ -e "$MEMCG/memory.tcp.$f" ] && fail "the root has memory.tcp.$f"
done
cg_make t-files
cg=$MEMCG/t-files
for f in max current peak events events.local stat; do
	[ -r "$cg/memory.tcp.$f" ] || fail "no readable memory.tcp.$f in a child"
done
expect_eq "$(cg_read "$cg" tcp.max)" max "memory.tcp.max of a new cgroup"
expect_eq "$(cg_read "$cg" tcp.current)" 0 "memory.tcp.current of a new cgroup"
expect_eq "$(cg_read "$cg" tcp.peak)" 0 "memory.tcp.peak of a new cgroup"
expect_eq "$(echo $(cg_read "$cg" tcp.events))" "max 0 pressure 0 suppressed 0" \
	"memory.tcp.events of a new cgroup"
expect_eq "$(echo $(cg_read "$cg" tcp.events.local))" "max 0 pressure 0 suppressed 0" \
	"memory.tcp.events.local of a new cgroup"
expect_eq "$(cg_stat "$cg" pressure) $(cg_stat "$cg" sockets)" "0 0" \
	"pressure and sockets of a new cgroup"
expect_eq "$(cg_thresholds "$cg")" "$(cat /proc/sys/net/ipv4/tcp_mem | tr -s '\t ' '  ')" \
	"thresholds of a new cgroup: the creator's tcp_mem"
for f in current events events.local stat; do
	expect_eq "$(stat -c %a "$cg/memory.tcp.$f")" 444 "mode of memory.tcp.$f"
	expect_refused "$cg/memory.tcp.$f" 0
done
expect_eq "$(stat -c %a "$cg/memory.tcp.max")" 644 "mode of memory.tcp.max"
# memory.tcp.peak's mode and writes: v2-tcp-peak-as-memory-peak
