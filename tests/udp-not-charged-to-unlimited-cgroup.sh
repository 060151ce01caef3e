# UDP keeps stock behaviour: with socket accounting on (another cgroup has
# a TCP limit), UDP sockets of a cgroup without a limit of its own are not
# charged to it, though their receive queues hold data (/proc/net/udp).
# Only protocols with per-cgroup state (TCP, MPTCP) are accounted to every
# non-root cgroup (series: v8 3/9, which is not to break UDP).
. /tests/lib/common.sh

cg_make t-udp-limited
cg_make t-udp
expect_write "$MEMCG/t-udp-limited/memory.kmem.tcp.limit_in_bytes" 1M OK
cg=$MEMCG/t-udp

tcpfill_start -U -c 2 -g "$cg"
# tx_queue:rx_queue in hex, per socket.  (sockstat's UDP "mem" stays 0
# here: below 1 MiB it sits in a per-cpu reserve.)
queued=0
for rx in $(awk 'NR > 1 { split($5, q, ":"); print q[2] }' /proc/net/udp); do
	queued=$((queued + 0x$rx))
done
usage=$(cg_read "$cg" kmem.tcp.usage_in_bytes)
echo "UDP receive queues: $queued bytes; cgroup kmem.tcp.usage_in_bytes=$usage"
tcpfill_stop
expect_gt "$queued" 0 "bytes queued on the UDP receivers"
expect_eq "$usage" 0 "the unlimited cgroup's kmem.tcp.usage_in_bytes"
