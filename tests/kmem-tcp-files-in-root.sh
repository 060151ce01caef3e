# The root memory cgroup has the four kmem.tcp files.
. /tests/lib/common.sh

for f in limit_in_bytes usage_in_bytes failcnt max_usage_in_bytes; do
	[ -f "$MEMCG/memory.kmem.tcp.$f" ] || fail "root lacks memory.kmem.tcp.$f"
done
