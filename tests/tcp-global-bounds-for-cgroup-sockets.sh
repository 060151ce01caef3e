# A cgroup's own thresholds never loosen the global ones.  With a small
# global tcp_mem and a limited cgroup whose thresholds are large:
#  - SO_RESERVE_MEM fails with ENOMEM once the reservation takes the
#    global usage over the global tcp_mem[1], though the cgroup's view
#    would allow it (stock answers the same; v8's accessors, which the
#    series keeps, gave the cgroup's view alone);
#  - the cgroup's fill stops near the global tcp_mem[2], without failcnt;
#  - and SO_RESERVE_MEM keeps stock's answer where stock gives one: refused
#    (EOPNOTSUPP) in a cgroup without a TCP limit of its own, though the
#    series accounts that cgroup's sockets (series: v8 3/9).
. /tests/lib/common.sh

conns=4
cg_make t-gbound
cg_make t-gbound-free
cg=$MEMCG/t-gbound
free=$MEMCG/t-gbound-free
# the cgroup's thresholds: min(64M, init_net's default tcp_mem), large
expect_write "$cg/memory.kmem.tcp.limit_in_bytes" 64M OK

expect_eq "$(reservemem -g "$cg" 65536)" OK "SO_RESERVE_MEM in a limited cgroup"
expect_eq "$(reservemem -g "$free" 65536)" EOPNOTSUPP \
	"SO_RESERVE_MEM in a cgroup without a TCP limit (stock's answer)"

saved=$(cat /proc/sys/net/ipv4/tcp_mem)
on_exit "writefile /proc/sys/net/ipv4/tcp_mem '$saved' >/dev/null"
# written from the root cgroup, which has no thresholds: the global ones
expect_write /proc/sys/net/ipv4/tcp_mem "300 400 1500" OK

# 4 MiB is 1024 pages: past the per-cpu reserve (256 pages), so the
# global count sees it, and past the global tcp_mem[1]
expect_eq "$(reservemem -g "$cg" 4194304)" ENOMEM \
	"SO_RESERVE_MEM of 4 MiB with a global tcp_mem[1] of 400 pages"

tcpfill_start -c $conns -g "$cg"
max=$(cg_read "$cg" kmem.tcp.max_usage_in_bytes)
failcnt=$(cg_read "$cg" kmem.tcp.failcnt)
echo "global tcp_mem 300 400 1500: max_usage=$max failcnt=$failcnt"
tcpfill_stop
# the global count lags by up to the per-cpu reserve on each CPU
ncpu=$(grep -c ^processor /proc/cpuinfo)
expect_le "$max" $(((1500 + 256 * ncpu) * 4096 + conns * SLACK_PER_CONN)) \
	"max_usage under a global tcp_mem[2] of 1500 pages"
expect_eq "$failcnt" 0 "failcnt (the cgroup's limit was never reached)"
wait_usage_zero "$cg"
