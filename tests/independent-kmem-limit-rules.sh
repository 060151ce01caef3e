# memory.independent_kmem_limit (series: v8 1/9): present in root (0 by
# default) and children; any integer is stored as 0/1; a child may not
# differ from its parent (EINVAL); a new cgroup starts with its parent's
# value; bad input is refused and changes nothing.
. /tests/lib/common.sh

f=memory.independent_kmem_limit
[ -f "$MEMCG/$f" ] || fail "root has no $f"
expect_eq "$(cat "$MEMCG/$f")" 0 "root $f by default"

cg_make t-indep-a
a=$MEMCG/t-indep-a
expect_eq "$(cat "$a/$f")" 0 "new child's $f under a root at 0"
expect_write "$a/$f" 1 EINVAL
expect_eq "$(cat "$a/$f")" 0 "child's $f after a write differing from root"

on_exit "writefile $MEMCG/$f 0 >/dev/null"
expect_write "$MEMCG/$f" 7 OK
expect_eq "$(cat "$MEMCG/$f")" 1 "root $f after writing 7"
cg_make t-indep-b
expect_eq "$(cat "$MEMCG/t-indep-b/$f")" 1 "child created under a root at 1"
expect_eq "$(cat "$a/$f")" 0 "older child after root changed"
expect_write "$a/$f" 1 OK
expect_eq "$(cat "$a/$f")" 1 "child's $f after matching its parent"

for bad in "
" "abc" "-1" "1X" "0x" "99999999999999999999999"; do
	expect_refused "$a/$f" "$bad" 1
done
