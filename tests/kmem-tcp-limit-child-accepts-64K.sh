# A child takes memparse syntax in kmem.tcp.limit_in_bytes: 64K reads back
# as 65536 bytes.
. /tests/lib/common.sh

cg_make t-limit
cg=$MEMCG/t-limit
expect_write "$cg/memory.kmem.tcp.limit_in_bytes" 64K OK
expect_eq "$(cg_read "$cg" kmem.tcp.limit_in_bytes)" 65536 \
	"kmem.tcp.limit_in_bytes after writing 64K"
