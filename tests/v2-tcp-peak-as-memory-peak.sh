# cgroup v2: memory.tcp.peak behaves as the kernel's own memory.peak.  On
# 6.1 memory.peak is read-only, and so is memory.tcp.peak.  From 6.12 a
# write to memory.peak resets the peak seen through that open file: then
# so does one to memory.tcp.peak.  A cgroup capped at 256K fills two
# connections and closes them; its peak P reads above 0.  A write of
# "reset" through an open memory.tcp.peak is answered, through the same
# open file, with the usage at the write (0 now, or what CPUs hold
# charged ahead), while the file opened anew still reads P (series: the
# v2 face, CONTRACT 7.1; stock v2 has no such file).
# hierarchies: v2
. /tests/lib/common.sh

cg_make t-peak
cg=$MEMCG/t-peak
cg_tcp_limit "$cg" 256K
mode=$(stat -c %a "$cg/memory.peak")
expect_eq "$(stat -c %a "$cg/memory.tcp.peak")" "$mode" \
	"mode of memory.tcp.peak, as memory.peak's"

tcpfill_start -c 2 -g "$cg"
tcpfill_stop
wait_usage_zero "$cg"
peak=$(cg_read "$cg" tcp.peak)
expect_gt "$peak" 0 "memory.tcp.peak after the fill"

if [ "$mode" = 444 ]; then
	expect_refused "$cg/memory.tcp.peak" reset
	expect_eq "$(cg_read "$cg" tcp.peak)" "$peak" "memory.tcp.peak after a refused write"
	exit 0
fi
out=$(writefile -r "$cg/memory.tcp.peak" reset) || fail "write to memory.tcp.peak: $out"
echo "through the open file after the reset: $(echo $out)"
expect_eq "$(echo "$out" | head -1)" OK "write to memory.tcp.peak"
expect_le "$(echo "$out" | sed -n 2p)" "$(tcp_slack 0 262144)" \
	"memory.tcp.peak through the file that reset it"
expect_eq "$(cg_read "$cg" tcp.peak)" "$peak" "memory.tcp.peak opened anew"
