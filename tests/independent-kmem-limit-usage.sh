# With memory.independent_kmem_limit set, memory.usage_in_bytes leaves
# out kernel memory: usage(0) - usage(1) = kmem.usage_in_bytes, for an
# idle cgroup holding page cache and slab objects (series: v8 1/9).
. /tests/lib/common.sh

f=memory.independent_kmem_limit
[ -f "$MEMCG/$f" ] || fail "no $f"
on_exit "rm -rf /tmp/t-kmem; writefile $MEMCG/$f 0 >/dev/null"

cg_make t-kmem
cg=$MEMCG/t-kmem
# Files and directories on tmpfs: page cache and dentries/inodes (kmem).
sh -c "echo \$\$ >$cg/cgroup.procs && mkdir /tmp/t-kmem &&
	for i in \$(seq 300); do mkdir /tmp/t-kmem/d\$i; done &&
	dd if=/dev/zero of=/tmp/t-kmem/file bs=4096 count=64 2>/dev/null" ||
	fail "could not allocate in $cg"

set_flag() {	# the child must match its parent: set root first
	if [ "$1" = 1 ]; then
		writefile "$MEMCG/$f" 1 >/dev/null && writefile "$cg/$f" 1 >/dev/null
	else
		writefile "$cg/$f" 0 >/dev/null; writefile "$MEMCG/$f" 0 >/dev/null
		writefile "$cg/$f" 0 >/dev/null
	fi
}

# The two usages are read at different times, and between them a CPU may
# give back the pages it holds charged ahead for the cgroup (its per-CPU
# charge stock, up to 64 pages per CPU, given back when that CPU charges
# another cgroup), and deferred frees may uncharge kmem.  Nothing charges
# the idle cgroup, so its memory counter can only fall: usage(0) read
# again after usage(1), unchanged, and kmem unchanged over all three
# reads, mean nothing moved in between, and the difference is exact.  A
# try in which something moved is retried; the comparison itself is made
# only on a try where nothing did, and is exact there.
try=0
while [ $try -lt 20 ]; do
	try=$((try + 1))
	set_flag 0
	u0=$(cg_read "$cg" usage_in_bytes)
	k=$(cg_read "$cg" kmem.usage_in_bytes)
	set_flag 1
	expect_eq "$(cat "$cg/$f")" 1 "$f of the child"
	u1=$(cg_read "$cg" usage_in_bytes)
	k1=$(cg_read "$cg" kmem.usage_in_bytes)
	set_flag 0
	u0b=$(cg_read "$cg" usage_in_bytes)
	k0b=$(cg_read "$cg" kmem.usage_in_bytes)
	echo "try $try: usage(0)=$u0 usage(1)=$u1 usage(0)=$u0b kmem=$k/$k1/$k0b"
	[ "$k" = "$k1" ] && [ "$k1" = "$k0b" ] && [ "$u0" = "$u0b" ] || continue
	[ "$k" -gt 0 ] || fail "kmem.usage_in_bytes is 0: nothing to leave out"
	expect_eq "$((u0 - u1))" "$k" "usage(0) - usage(1)"
	exit 0
done
fail "usage_in_bytes or kmem.usage_in_bytes moved in each of 20 tries"
