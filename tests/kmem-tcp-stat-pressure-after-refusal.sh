# memory.kmem.tcp.stat's "pressure" is what the cgroup's sockets see
# (sk_under_memory_pressure()): an SO_RESERVE_MEM of 2 MiB in a cgroup
# limited to 1M is refused at the limit, which sets the memcg's own flag
# (stock's tcpmem_pressure) without touching the cgroup's thresholds:
# "pressure" reads 1, and 0 again after a charge that fits.  The refusal
# is not an entry of the cgroup's TCP pressure (series: v8 7/9, CONTRACT
# 6 and the review's finding).
. /tests/lib/common.sh

cg_make t-stat-refused
cg=$MEMCG/t-stat-refused
expect_write "$cg/memory.kmem.tcp.limit_in_bytes" 1M OK
expect_eq "$(cg_stat "$cg" pressure)" 0 "pressure before any charge"

expect_eq "$(reservemem -g "$cg" 2097152)" ENOMEM "SO_RESERVE_MEM of 2 MiB under a 1M limit"
expect_eq "$(cg_read "$cg" kmem.tcp.failcnt)" 1 "failcnt after the refused reservation"
echo "after the refusal: $(tr '\n' ' ' <"$cg/memory.kmem.tcp.stat")"
expect_eq "$(cg_stat "$cg" pressure)" 1 "pressure after a charge refused at the limit"
expect_eq "$(cg_stat "$cg" pressure_entered)" 0 "pressure_entered (the thresholds were not crossed)"

expect_eq "$(reservemem -g "$cg" 65536)" OK "SO_RESERVE_MEM of 64 KiB"
expect_eq "$(cg_stat "$cg" pressure)" 0 "pressure after a charge that fit"
wait_usage_zero "$cg"
expect_log_clean
