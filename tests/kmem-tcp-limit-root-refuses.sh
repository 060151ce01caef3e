# The root cgroup has no TCP limit of its own: a write is refused with
# EINVAL and the file still reads the maximum.
. /tests/lib/common.sh

before=$(cg_read "$MEMCG" kmem.tcp.limit_in_bytes)
expect_eq "$before" 9223372036854771712 "root kmem.tcp.limit_in_bytes"
expect_write "$MEMCG/memory.kmem.tcp.limit_in_bytes" 64K EINVAL
expect_eq "$(cg_read "$MEMCG" kmem.tcp.limit_in_bytes)" "$before" \
	"root kmem.tcp.limit_in_bytes after the refused write"
