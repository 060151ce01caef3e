# in-netns.sh CGROUP TCP_MEM COMMAND...: run as "unshare -n sh in-netns.sh"
# to run COMMAND in a new network namespace with its loopback up, after
# joining CGROUP (a memory cgroup directory) and, unless TCP_MEM is empty,
# writing TCP_MEM to the namespace's net.ipv4.tcp_mem from inside it.
cg=$1 tcp_mem=$2
shift 2
ip link set lo up || exit 1
echo $$ >"$cg/cgroup.procs" || exit 1
if [ -n "$tcp_mem" ]; then
	r=$(writefile /proc/sys/net/ipv4/tcp_mem "$tcp_mem")
	[ "$r" = OK ] || { echo "in-netns: write '$tcp_mem' to tcp_mem: $r"; exit 1; }
fi
exec "$@"
