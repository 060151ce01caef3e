# cgroup v2 with a real container runtime: Debian's crun starts a
# container whose OCI spec asks for {"memory.tcp.max": "1M"} in
# linux.resources.unified, a map crun writes file by file, with no
# change of its own.  The container fills four loopback connections and
# then closes them and exits 0: its TCP memory is held at 1M (plus the
# slack of tcp_slack) while it runs, and the run completes.  The test
# kernel has no PID, UTS or IPC namespaces, so the container has a mount
# namespace alone.  On a
# kernel without the file, crun refuses to start the container (series:
# the v2 face, CONTRACT 7).
# hierarchies: v2
# test-timeout: 240
. /tests/lib/common.sh

conns=4
cg_make t-crun
echo +memory >"$MEMCG/t-crun/cgroup.subtree_control" || fail "enable memory in t-crun"
ctr=$MEMCG/t-crun/ctr
bundle=/tmp/t-crun-bundle
rm -rf $bundle
mkdir -p $bundle/rootfs/bin $bundle/rootfs/proc $bundle/rootfs/dev $bundle/rootfs/tmp /run
cp /bin/busybox /bin/tcpfill $bundle/rootfs/bin/ || fail "copy the container's programs"
on_exit "crun delete -f t-crun-ctr >/dev/null 2>&1; rm -rf $bundle"
cat >$bundle/config.json <<JSON
{
	"ociVersion": "1.0.0",
	"process": {
		"user": { "uid": 0, "gid": 0 },
		"args": [ "/bin/tcpfill", "-H", "-c", "$conns" ],
		"env": [ "PATH=/bin" ],
		"cwd": "/",
		"noNewPrivileges": true
	},
	"root": { "path": "rootfs" },
	"mounts": [ { "destination": "/proc", "type": "proc", "source": "proc" } ],
	"linux": {
		"cgroupsPath": "/t-crun/ctr",
		"namespaces": [ { "type": "mount" } ],
		"resources": { "unified": { "memory.tcp.max": "1M" } }
	}
}
JSON

# --no-pivot: the guest's root is the initramfs, which pivot_root(2)
# cannot leave
tcpfill_run crun --cgroup-manager=cgroupfs run --no-pivot --bundle $bundle t-crun-ctr
max=$(cg_read "$ctr" tcp.max)
tcp_snapshot "$ctr"
tcpfill_stop
expect_eq "$max" 1048576 "the container's memory.tcp.max, as crun wrote it"
expect_held_at_cap "the container" 1048576 $conns
[ -d "$ctr" ] && fail "crun left $ctr behind"
expect_log_clean
