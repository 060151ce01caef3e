# cgroup v2: memory.tcp.max takes "max" or a decimal number of bytes with
# an optional K/M/G/T/P/E suffix (either case), rounded down to pages and
# clamped to the maximum; blank, text, a sign, hex, an overflow or two
# values are refused with EINVAL or ERANGE and change nothing, neither the
# max nor the thresholds (series: the v2 face, CONTRACT 7; stock v2 has no
# such file).
# hierarchies: v2
. /tests/lib/common.sh

cg_make t-max-input
cg=$MEMCG/t-max-input
f=$cg/memory.tcp.max

expect_write "$f" 1M OK
expect_eq "$(cat "$f")" 1048576 "memory.tcp.max after 1M"
thr=$(cg_thresholds "$cg")
expect_eq "$thr" "256 256 256" "thresholds after 1M (below tcp_mem)"
nl='
'
# an empty write never reaches the file: a lone newline is what
# 'echo "" >FILE' writes
for bad in "$nl" " " "abc" "1X" "1MB" "-1" "-4096" "+4096" "0x1000" "1e6" \
	"4096 8192" "max 4096" "18446744073709551616" "99999999999999999999999" \
	"16E" "4096.5" "1 M"; do
	expect_refused "$f" "$bad" 1048576
	expect_eq "$(cg_thresholds "$cg")" "$thr" "thresholds after refused '$bad'"
done

expect_write "$f" 5000 OK
expect_eq "$(cat "$f")" 4096 "5000 bytes rounded down to a page"
expect_write "$f" 64k OK
expect_eq "$(cat "$f")" 65536 "64k"
expect_write "$f" 2G OK
expect_eq "$(cat "$f")" 2147483648 "2G"
expect_write "$f" "8E" OK
expect_eq "$(cat "$f")" max "8E, clamped to the maximum"
expect_write "$f" "3M
" OK
expect_eq "$(cat "$f")" 3145728 "3M with a newline"
expect_write "$f" max OK
expect_eq "$(cat "$f")" max "max"
expect_write "$f" 0 OK
expect_eq "$(cat "$f")" 0 "0"
