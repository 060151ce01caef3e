# Every allocation on the paths the series touches can fail cleanly.  For
# each operation, the helper failnth makes the n-th allocation of its task
# fail (/proc/thread-self/fail-nth: slab and page allocator alike), for
# n = 1, 2, ... until the operation completes with no fault left to
# inject.  Each time the operation must fail with an error or succeed
# (never hang or crash the helper); after each sweep every socket's
# memory is uncharged, the cgroups the sweep made or removed are freed
# (/proc/cgroups), TCP's global memory is back and the kernel log is
# clean; at the end kmemleak finds nothing.  Operations: creating a
# memcg under a limited one (the series' per-cgroup state, made at
# css_online), creating a netns (its own tcp_mem), a connection (socket,
# connect, accept, traffic) in a limited cgroup and in an unlimited
# child of one, the first limit on a cgroup (the static key and the
# thresholds), and tcp_mem written from a netns inside a cgroup (the
# writer's cgroup's thresholds).  The limit is v1's
# kmem.tcp.limit_in_bytes or v2's tcp.max.  On v2 the limited cgroup,
# which has children, holds no task: the operations that need one in a
# limited cgroup run in a limited leaf beside it; and since a cgroup keeps
# the state key from its first max to its end, each run of the first
# limit gets a new cgroup.  Only a fault-injection kernel (DEBUG=1) has
# /proc/self/fail-nth; elsewhere the test is skipped.
# hierarchies: v1 v2
# test-timeout: 2400
. /tests/lib/common.sh

[ -e /proc/self/fail-nth ] || skip "no /proc/self/fail-nth (a DEBUG=1 kernel has it)"
dbg=/sys/kernel/debug
[ -d $dbg/failslab ] && [ -d $dbg/fail_page_alloc ] ||
	skip "no failslab/fail_page_alloc in debugfs"

# By default both skip allocations that may sleep (GFP_KERNEL, most of
# what the series allocates) and fail_page_alloc skips order 0: open them
# all; no backtrace for each injected fault.
set_attr() {	# set_attr ATTR-FILE VALUE: set it, restore it on exit
	on_exit "echo $(cat "$1") >$1"
	echo "$2" >"$1" || fail "write $2 to $1"
}
for a in failslab fail_page_alloc; do
	set_attr $dbg/$a/ignore-gfp-wait N
	set_attr $dbg/$a/verbose 0
done
set_attr $dbg/fail_page_alloc/ignore-gfp-highmem N
set_attr $dbg/fail_page_alloc/min-order 0
# Failure paths log (a netns that cannot register its sysctls says so):
# keep it in the kernel log, which expect_log_clean reads, but off the
# serial console, which under TCG costs more than the sweep itself.
set_attr /proc/sys/kernel/printk "1 4 1 7"

max_n=20000
start_mem=$(sockstat_tcp_bytes)
slack=$(($(nproc) * 1048576))

cg_make t-fault
cg_make t-fault/limited
cg_make t-fault/limited/child
cg_make t-fault/unlimited
limited=$MEMCG/t-fault/limited
cg_tcp_limit "$limited" 16M
# where a task of a limited cgroup runs
tasks=$limited
if [ "$HIERARCHY" = v2 ]; then
	cg_make t-fault/leaf
	tasks=$MEMCG/t-fault/leaf
	cg_tcp_limit "$tasks" 16M
fi

# sweep [-b BEFORE] [-f AFTER_FAILURE] NAME COMMAND...: run "failnth n
# COMMAND..." for n = 1, 2, ... until a run injects no fault; print how
# many fault points it swept and how often the operation failed.  The
# function BEFORE runs before each run, AFTER_FAILURE (given n) after
# each run whose operation failed.
sweep() {
	_before=: _after_failure=:
	while :; do
		case $1 in
		-b) _before=$2; shift 2 ;;
		-f) _after_failure=$2; shift 2 ;;
		*) break ;;
		esac
	done
	_name=$1
	shift
	_n=0 _failed=0
	while :; do
		_n=$((_n + 1))
		[ $_n -le $max_n ] || fail "$_name: still injecting at n=$max_n"
		$_before
		_out=$(timeout -s KILL 60 failnth $_n "$@" 2>&1) ||
			fail "$_name, fault $_n: failnth did not finish: $_out"
		case $_out in
		"injected=no result=ok") break ;;
		"injected=no result="*) fail "$_name: fails with no fault injected: $_out" ;;
		"injected=yes result=ok") ;;
		"injected=yes result="*) _failed=$((_failed + 1))
			$_after_failure $_n ;;
		*) fail "$_name, fault $_n: $_out" ;;
		esac
	done
	echo "$_name: $((_n - 1)) fault points swept, the operation failed cleanly at $_failed of them"
}

# settled: what each sweep must leave behind
settled() {
	for _cg in $limited $limited/child $tasks $MEMCG/t-fault/unlimited; do
		wait_usage_zero "$_cg"
	done
	wait_memcgs_freed 20
	_mem_back() { [ "$(sockstat_tcp_bytes)" -le $((start_mem + slack)) ]; }
	poll_until 10 _mem_back ||
		fail "TCP memory $(sockstat_tcp_bytes) bytes, started at $start_mem (+ $slack)"
	expect_log_clean
}

sweep "memcg creation under a limited memcg" mkdir $limited/new
[ -d $limited/new ] && fail "$limited/new left behind"
settled

sweep "connection in a limited memcg" tcp $tasks
settled

sweep "connection in an unlimited child of a limited memcg" tcp $limited/child
settled

# Each run starts from no limit: the first limit takes the static key
# and sets the thresholds.  A failed first write leaves no limit.  On v2
# a cgroup holds the key from its first max on, whatever is written
# after: each run gets a new cgroup.
unlimited=$MEMCG/t-fault/unlimited
limit=$unlimited/memory.$TCP_LIMIT
none=9223372036854771712
[ "$HIERARCHY" = v2 ] && none=max
no_limit() {
	if [ "$HIERARCHY" = v2 ]; then
		rmdir $unlimited && mkdir $unlimited ||
			fail "could not make $unlimited again"
	else
		writefile $limit -1 >/dev/null
	fi
}
still_no_limit() {
	expect_eq "$(cat $limit)" $none \
		"limit after a failed first write (fault $1)"
}
sweep -b no_limit -f still_no_limit "first limit on a memcg" write $limit 8M
expect_eq "$(cat $limit)" 8388608 "limit after the sweep"
writefile $limit $TCP_UNLIMITED >/dev/null
settled

sweep "tcp_mem written from a netns in a limited memcg" \
	netns-write $tasks /proc/sys/net/ipv4/tcp_mem "40 50 60"
settled

# The longest sweep last: a netns allocates at well over a thousand
# points.
sweep "netns creation" netns
settled

# Objects leaked by a failure path: kmemleak reports an object once it
# has stayed unreferenced through a scan and is old enough (5 s).
kmemleak=$dbg/kmemleak
if [ -w $kmemleak ]; then
	echo scan >$kmemleak
	sleep 6
	echo scan >$kmemleak
	[ -s $kmemleak ] && fail "kmemleak after the sweeps: $(head -30 $kmemleak)"
	echo "kmemleak: nothing unreferenced after the sweeps"
fi
