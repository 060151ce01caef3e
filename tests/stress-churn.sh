# Churn: for a bounded time (tcpmemcg.stress_seconds= on the kernel command
# line, default 20 s of guest time) and a bounded count, workers at once
# open, fill and close loopback TCP connections (v4 and v6) in changing
# cgroups; create and remove cgroups two levels deep, some limited; move a
# task holding sockets between them; toggle limits between values and
# none (v1's -1, v2's "max") and on v1 reset failcnt/max_usage (v2 has no
# reset: it reads tcp.peak and tcp.events instead); create network
# namespaces, write tcp_mem from a cgroup and send traffic inside them;
# read every cgroup's thresholds (v1's memory.kmem.tcp.stat, v2's
# tcp.stat), which must be in order.  On v2 tasks go to leaf cgroups only
# (a cgroup with memory-controlled children holds none): the second level
# and a leaf of the top kept for the whole run.  Afterwards every
# cgroup's TCP usage (kmem.tcp.usage_in_bytes, tcp.current) returns to
# 0, all of them can be
# removed and are freed (/proc/cgroups: a socket left holding its memcg
# would keep it), TCP's global memory (/proc/net/sockstat) returns to
# where it started, and the kernel log stays clean: with the series,
# freeing a memcg warns if a socket count or a static key reference it
# kept is not back at zero, so an unbalanced count fails this test, not
# only the run's last case.
# hierarchies: v1 v2
# test-timeout: 600
. /tests/lib/common.sh

secs=$(sed -n 's/.*tcpmemcg\.stress_seconds=\([0-9]*\).*/\1/p' /proc/cmdline)
secs=${secs:-20}
max_ops=5000
# The baselines are taken once nothing is dying: a removed memcg that a
# closed socket of an earlier test still holds (on its own timers) would be
# freed during the churn and be counted as one the churn left behind.
wait_memcgs_freed "$(socket_linger_seconds)"
start_mem=$(sockstat_tcp_bytes)
start_memcgs=$(memcgs_alive)
end=$(($(date +%s) + secs))
dir=/tmp/stress
rm -rf $dir
mkdir -p $dir

cg_make t-stress
top=$MEMCG/t-stress
# A limit on the top turns socket accounting on and caps all below it.
cg_tcp_limit "$top" 16M
on_exit "for d in $top/*/*/ $top/*/; do rmdir \$d 2>/dev/null; done"
# v2: the top's children are memory cgroups, and tasks need a leaf that
# is always there
if [ "$HIERARCHY" = v2 ]; then
	cg_make t-stress/leaf
fi

running() { [ "$(date +%s)" -lt $end ] && [ "$1" -lt $max_ops ]; }

# Each worker pins itself (and so its children) to one CPU, round robin,
# so that on an SMP guest charges, uncharges, limit and tcp_mem writes,
# cgroup removal and netns creation run on different CPUs at once, not
# just interleaved by the scheduler on one.  'read' is a builtin: the
# /proc/self it opens is the worker's own subshell.
ncpus=$(nproc)
pin() {	# pin WORKER-INDEX NAME
	read -r pid _ </proc/self/stat
	cpu=$(($1 % ncpus))
	taskset -p -c $cpu "$pid" >/dev/null || fail "taskset $2 to CPU $cpu"
	echo "$2:$cpu" >$dir/cpu-$2
}

# A cgroup under $top, or $top itself (one may vanish before it is used:
# the worker then just fails that operation).
pick_cgroup() {
	set -- $top $top/*/ $top/*/*/
	shift $((RANDOM % $#))
	[ -d "$1" ] && echo "${1%/}" || echo $top
}

# A cgroup for a task: on v1 any (pick_cgroup), on v2 a leaf: one of the
# second level, or the top's leaf.
pick_task_cgroup() {
	if [ "$HIERARCHY" = v1 ]; then
		pick_cgroup
		return
	fi
	set -- $top/leaf/ $top/*/*/
	shift $((RANDOM % $#))
	[ -d "$1" ] && echo "${1%/}" || echo $top/leaf
}

traffic() {	# traffic 4|6
	pin $(($1 / 2 - 2)) traffic-v$1
	flag=
	[ "$1" = 6 ] && flag=-6
	n=0
	while running $n; do
		tcpfill $flag -c 3 -b 131072 -t 20 -g "$(pick_task_cgroup)" >/dev/null 2>&1
		n=$((n + 1))
	done
	echo "$n" >$dir/traffic-v$1
}

cgroups() {
	pin 2 cgroups
	n=0 i=0
	while running $n; do
		i=$((i + 1))
		mkdir $top/g$i &&
			{ [ "$HIERARCHY" = v1 ] || echo +memory >$top/g$i/cgroup.subtree_control; } &&
			mkdir $top/g$i/c
		if [ $((i % 2)) = 0 ]; then
			writefile $top/g$i/memory.$TCP_LIMIT $((RANDOM % 4 + 1))M >/dev/null
		fi
		old=$((i - 3))
		rmdir $top/g$old/c 2>/dev/null
		rmdir $top/g$old 2>/dev/null
		n=$((n + 1))
	done
	echo "$n" >$dir/cgroups
}

moves() {
	pin 3 moves
	n=0
	exec 4<>/tmp/stress.hold.fifo
	while running $n; do
		tcpfill -H -c 2 -b 65536 -t 20 -g "$(pick_task_cgroup)" </tmp/stress.hold.fifo >/dev/null 2>&1 &
		pid=$!
		for j in 1 2 3; do
			{ echo $pid >"$(pick_task_cgroup)/cgroup.procs"; } 2>/dev/null
		done
		kill $pid 2>/dev/null
		wait $pid 2>/dev/null
		n=$((n + 1))
	done
	exec 4>&-
	echo "$n" >$dir/moves
}

limits() {
	pin 4 limits
	n=0
	while running $n; do
		cg=$(pick_cgroup)
		[ "$cg" = $top ] && continue
		case $HIERARCHY$((RANDOM % 4)) in
		v?0) writefile $cg/memory.$TCP_LIMIT $TCP_UNLIMITED ;;
		v?1) writefile $cg/memory.$TCP_LIMIT $((RANDOM % 2048 + 64))K ;;
		v12) writefile $cg/memory.kmem.tcp.failcnt 0 ;;
		v13) writefile $cg/memory.kmem.tcp.max_usage_in_bytes 0 ;;
		v22) cat $cg/memory.tcp.peak ;;
		v23) cat $cg/memory.tcp.events ;;
		esac >/dev/null 2>&1
		n=$((n + 1))
	done
	echo "$n" >$dir/limits
}

# A namespace's tcp_mem written from inside a cgroup: it sets that
# cgroup's thresholds too, racing the limit writes of the worker above.
netns() {
	pin 5 netns
	n=0
	while running $n; do
		a=$((RANDOM % 64 + 16))
		cg=$(pick_task_cgroup)
		unshare -n sh -c "ip link set lo up
			echo \$\$ >$cg/cgroup.procs
			writefile /proc/sys/net/ipv4/tcp_mem '$a $((a * 2)) $((a * 3))' >/dev/null
			tcpfill -c 2 -b 131072 -t 20 -g $cg" >/dev/null 2>&1
		n=$((n + 1))
	done
	echo "$n" >$dir/netns
}

# Reads every cgroup's thresholds while they are written: a reader must
# never see a mixed or descending triple.  Absent on a kernel without the
# series' file: then it only counts.
stats() {
	pin 6 stats
	n=0
	while running $n; do
		for f in $top/memory.$TCP_STAT $top/*/memory.$TCP_STAT \
			 $top/*/*/memory.$TCP_STAT; do
			awk '$1 == "tcp_mem_low" { l = $2 } $1 == "tcp_mem_pressure" { p = $2 }
			     $1 == "tcp_mem_high" { h = $2 }
			     END { if (l > p || p > h) { print FILENAME ": " l " " p " " h; exit 1 } }' \
				"$f" >>$dir/descending 2>/dev/null
		done
		n=$((n + 1))
	done
	echo "$n" >$dir/stats
}

rm -f /tmp/stress.hold.fifo
mkfifo /tmp/stress.hold.fifo
traffic 4 & traffic 6 & cgroups & moves & limits & netns & stats &
wait
rm -f /tmp/stress.hold.fifo

counts=
for f in traffic-v4 traffic-v6 cgroups moves limits netns stats; do
	[ -f $dir/$f ] || fail "worker $f did not finish"
	counts="$counts $f=$(cat $dir/$f)"
done
echo "stress: ${secs}s of guest time, operations:$counts"
echo "stress: $ncpus CPUs, worker:CPU$(cat $dir/cpu-* | tr '\n' ' ' | sed 's/^/ /')"
[ -s $dir/descending ] && fail "thresholds read out of order: $(head -3 $dir/descending)"

# Every cgroup drains; then all can be removed.
for cg in $top/*/*/ $top/*/ $top; do
	[ -d "$cg" ] && wait_usage_zero "${cg%/}"
done
for cg in $top/*/*/ $top/*/; do
	[ -d "$cg" ] || continue
	rmdir "$cg" || fail "rmdir $cg after the churn"
done

# Removed memcgs are freed once their last reference goes (RCU, workqueue).
freed() { [ "$(memcgs_alive)" = $((start_memcgs + 1)) ]; }
poll_until 20 freed ||
	fail "$(memcgs_alive) memory cgroups left, expected $((start_memcgs + 1)): a memcg is still referenced"

# sockstat reads the global counter; up to 1 MiB per CPU may sit in
# per-cpu reserves on either side of it (SK_MEMORY_PCPU_RESERVE).
slack=$(($(grep -c ^processor /proc/cpuinfo) * 1048576))
back() { [ "$(sockstat_tcp_bytes)" -le $((start_mem + slack)) ]; }
poll_until 10 back ||
	fail "TCP memory $(sockstat_tcp_bytes) bytes, started at $start_mem (+ $slack slack)"
echo "TCP memory: started at $start_mem bytes, ends at $(sockstat_tcp_bytes); memory cgroups: $start_memcgs + 1 -> $(memcgs_alive)"
expect_log_clean
