# A new child memory cgroup has the four kmem.tcp files, with no limit,
# no usage and no failures.
. /tests/lib/common.sh

cg_make t-files
cg=$MEMCG/t-files
for f in limit_in_bytes usage_in_bytes failcnt max_usage_in_bytes; do
	[ -f "$cg/memory.kmem.tcp.$f" ] || fail "child lacks memory.kmem.tcp.$f"
done
expect_eq "$(cg_read "$cg" kmem.tcp.limit_in_bytes)" 9223372036854771712 \
	"new child's kmem.tcp.limit_in_bytes"
expect_eq "$(cg_read "$cg" kmem.tcp.usage_in_bytes)" 0 \
	"new child's kmem.tcp.usage_in_bytes"
expect_eq "$(cg_read "$cg" kmem.tcp.failcnt)" 0 "new child's kmem.tcp.failcnt"
