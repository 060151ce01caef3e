# memory.kmem.tcp.limit_in_bytes takes "-1" or decimal bytes with an
# optional K/M/G/T/P/E suffix, clamping above the maximum; anything else
# (empty, blank, text, signs, hex, overflow) fails with EINVAL or ERANGE
# and leaves the limit as it was (series: v8 6/9; stock's memparse takes
# blank input as 0 and hex as a number).
. /tests/lib/common.sh

cg_make t-syntax
cg=$MEMCG/t-syntax
file=$cg/memory.kmem.tcp.limit_in_bytes
max=9223372036854771712

check() {	# check VALUE READBACK
	expect_write "$file" "$1" OK
	expect_eq "$(cat "$file")" "$2" "limit after writing '$1'"
}
check 64K 65536
check 1m 1048576
check 1G 1073741824
check 4097 4096
check -1 $max
check 18446744073709551615 $max
check 8E $max
# leading zeros make a long number, not a large one
check 0000000000000000000000000064K 65536
check 1M 1048576

for bad in "
" " " "abc" "1X" "-2" "0x10" "+5" "1 2" "1KK" "99999999999999999999999" "16E"; do
	expect_refused "$file" "$bad" 1048576
done
