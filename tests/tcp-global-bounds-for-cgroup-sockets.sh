# A cgroup's own thresholds never loosen the global ones.  With a small
# global tcp_mem and a limited cgroup whose thresholds are large:
#  - SO_RESERVE_MEM fails with ENOMEM once the reservation takes the
#    global usage over the global tcp_mem[1], though the cgroup's view
#    would allow it (stock answers the same; v8's accessors, which the
#    series keeps, gave the cgroup's view alone);
#  - the cgroup's fill stops near the global tcp_mem[2], without a
#    refusal at its limit (v1's failcnt, v2's "max" event);
#  - and SO_RESERVE_MEM keeps stock's answer in a cgroup without a TCP
#    limit of its own: on v1 refused (EOPNOTSUPP), though the series
#    accounts that cgroup's sockets; on v2 granted, as stock v2 grants it
#    in every cgroup (series: v8 3/9, and the v2 face, whose tcp.max is
#    the limit).
# On v2 the cgroup's tcp.current also counts what each CPU charged ahead
# (the series' batch, tcp_slack), which the global count does not see; a
# charge the global limit refuses is counted in the cgroup before it is
# taken back (tcp_slack_thresholds).
# hierarchies: v1 v2
. /tests/lib/common.sh

conns=4
cg_make t-gbound
cg_make t-gbound-free
cg=$MEMCG/t-gbound
free=$MEMCG/t-gbound-free
# the cgroup's thresholds: min(64M, init_net's default tcp_mem), large
cg_tcp_limit "$cg" 64M

expect_eq "$(reservemem -g "$cg" 65536)" OK "SO_RESERVE_MEM in a limited cgroup"
if [ "$HIERARCHY" = v1 ]; then
	expect_eq "$(reservemem -g "$free" 65536)" EOPNOTSUPP \
		"SO_RESERVE_MEM in a cgroup without a TCP limit (stock's answer)"
else
	expect_eq "$(reservemem -g "$free" 65536)" OK \
		"SO_RESERVE_MEM in a cgroup without a TCP max (stock v2's answer)"
fi

saved=$(cat /proc/sys/net/ipv4/tcp_mem)
on_exit "writefile /proc/sys/net/ipv4/tcp_mem '$saved' >/dev/null"
# written from the root cgroup, which has no thresholds: the global ones
expect_write /proc/sys/net/ipv4/tcp_mem "300 400 1500" OK

# 4 MiB is 1024 pages: past the per-cpu reserve (256 pages), so the
# global count sees it, and past the global tcp_mem[1]
expect_eq "$(reservemem -g "$cg" 4194304)" ENOMEM \
	"SO_RESERVE_MEM of 4 MiB with a global tcp_mem[1] of 400 pages"

tcpfill_start -c $conns -g "$cg"
max=$(cg_read "$cg" $TCP_PEAK)
failcnt=$(cg_refusals "$cg")
echo "global tcp_mem 300 400 1500: peak=$max refused=$failcnt"
tcpfill_stop
# the global count lags by up to the per-cpu reserve on each CPU, and the
# cgroup's count holds what tcp_slack_thresholds says
ncpu=$(grep -c ^processor /proc/cpuinfo)
expect_le "$max" $(((1500 + 256 * ncpu) * 4096 + $(tcp_slack_thresholds $conns 67108864))) \
	"$TCP_PEAK under a global tcp_mem[2] of 1500 pages"
expect_eq "$failcnt" 0 "refusals (the cgroup's limit was never reached)"
wait_usage_zero "$cg"
