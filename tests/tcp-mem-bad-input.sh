# net.ipv4.tcp_mem takes exactly three non-negative integers in ascending
# order; anything else fails with EINVAL (ERANGE for an overflow) and
# changes nothing, in init_net and in a new namespace (series: v8 5/9,
# with the check v8 lacked; stock accepts fewer values or descending).
. /tests/lib/common.sh

f=/proc/sys/net/ipv4/tcp_mem
# A kernel that takes bad input (stock) must not leave it for later tests.
on_exit "writefile $f '$(cat $f)' >/dev/null"
bad_values='
 
1 2
1 2 3 4
3 2 1
1 3 2
-1 2 3
a b c
1 2 3x
0x10 0x20 0x30
1 2 99999999999999999999999
1 2 9223372036854775808'

# One value per line; the first is empty (a bare newline is written).
echo "$bad_values" | while IFS= read -r bad; do
	expect_refused $f "$bad
"
done || exit 1

# In a new namespace, which keeps its own values.
out=$(unshare -n sh -c ". /tests/lib/common.sh
	writefile $f '100 200 300' >/dev/null
	expect_refused $f '1 2'
	expect_refused $f '30 20 10'
	expect_refused $f ' '
	cat $f") || fail "in a new namespace: $out"
expect_eq "$(echo "$out" | tail -1)" "$(printf '100\t200\t300')" \
	"namespace's tcp_mem after refused writes"
