# The guest's /init mounted the cgroup v1 memory controller, which every
# other test uses.
. /tests/lib/common.sh

grep -q " $MEMCG cgroup .*memory" /proc/mounts ||
	fail "no cgroup v1 memory hierarchy on $MEMCG: $(grep cgroup /proc/mounts)"
[ -f "$MEMCG/memory.usage_in_bytes" ] ||
	fail "$MEMCG has no memory.usage_in_bytes"
