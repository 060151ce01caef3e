#!/bin/bash
# The checks 'make check-host' runs on a Debian host booted by systemd:
# the kernel it runs, the system's state, and a TCP cap set by each tool
# an operator uses (podman, runc, LXC, a systemd service, a pod-shaped
# slice), each held by a real flow whose receiver never reads.  Started
# by tcpmemcg-check-host.service once the system is up; writes a KTAP
# report to REPORT (the guest's second serial port) and ends the guest.
#
# usage: host-checks.sh REPORT
#
# /etc/tcpmemcg-check-host.conf (written when the image is made) gives
# MARKER, the end of the patched kernel's release, and KERNEL (patched or
# stock): on Debian's own kernel the same checks run and fail, each with
# what a user sees there.  Every command a check runs is the one the
# README's operator section gives.
set -u

report=${1:?usage: host-checks.sh REPORT}
exec >"$report" 2>&1
# However the script ends, the guest ends: the host waits for nothing.
done_rc=1
end_guest() {
	echo "GUEST-DONE rc=$done_rc"
	sync
	sleep 1		# the serial port drains
	systemctl reboot --force --force
}
trap end_guest EXIT
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null # written by make-host-image.sh
. /etc/tcpmemcg-check-host.conf
PATH=$here:$PATH
ctr_root=/srv/tcpmemcg-ctr
work=/run/tcpmemcg-check
mkdir -p $work
port=5001

cap=1048576
pod_cap=2097152
pod_max=$((64 << 20))

# --- KTAP --------------------------------------------------------------
n=0 passed=0 failed=0
checks="kernel-release system-running memory-controller-v2 podman-tcp-max podman-iperf3 runc-unified-tcp-max
lxc-tcp-max systemd-service-tcp-max pod-slice-no-oom kernel-log-clean"
echo "KTAP version 1"
# shellcheck disable=SC2086 # one word a check
set -- $checks
echo "1..$#"

diag() { sed 's/^/# /'; }
say() { echo "# $*"; }
# fail MESSAGE: the running check fails (returns 1 from the check)
fail() { echo "# FAIL: $*"; return 1; }

run_check() {
	n=$((n + 1))
	say "--- $1"
	if "check_${1//-/_}"; then
		echo "ok $n $1"
		passed=$((passed + 1))
	else
		echo "not ok $n $1"
		failed=$((failed + 1))
	fi
	cleanup
}

# poll SECONDS COMMAND...: run COMMAND every half second until it
# succeeds or SECONDS have gone; status 0 if it succeeded
poll() {
	local end=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt $end ] || return 1
		sleep 0.5
	done
}

# --- the cap and what may pass it --------------------------------------
# tcp_slack CONNS CAP: what CONNS filled connections may take past a cap
# of CAP bytes (tests/lib/common.sh derives it): each connection's forced
# charges, up to two skbs of 17 pages, and what each CPU may hold charged
# ahead for the cgroup, a 64th of CAP between the CPUs, at most 4 MiB
# each.
tcp_slack() {
	local batch=$(($2 / 4096 / 64 / $(nproc)))
	[ $batch -gt 1024 ] && batch=1024
	echo $(($1 * 2 * 17 * 4096 + $(nproc) * batch * 4096))
}

# cg_of PID: the cgroup directory PID's process is in
cg_of() {
	echo "/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/"$1"/cgroup)"
}

# expect_held CGROUP CAP CONNS WHAT: CGROUP's cap reads CAP and a fill of
# CONNS connections is held there: usage above 0, the peak within CAP and
# the slack, refusals counted in memory.tcp.events
expect_held() {
	local cg=$1 want=$2 conns=$3 what=$4 max cur peak refused
	if [ ! -f "$cg/memory.tcp.max" ]; then
		fail "$what: no $cg/memory.tcp.max (files there: $(cd "$cg" && echo memory.* | tr ' ' ','))"
		return 1
	fi
	max=$(cat "$cg/memory.tcp.max") cur=$(cat "$cg/memory.tcp.current")
	peak=$(cat "$cg/memory.tcp.peak")
	refused=$(sed -n 's/^max //p' "$cg/memory.tcp.events")
	say "$what: ${cg#/sys/fs/cgroup} memory.tcp.max=$max current=$cur peak=$peak events max=$refused"
	[ "$max" = "$want" ] || { fail "$what: memory.tcp.max is $max, not $want"; return 1; }
	[ "$cur" -gt 0 ] || { fail "$what: no TCP memory charged while the fill is held"; return 1; }
	[ "$peak" -le $((want + $(tcp_slack "$conns" "$want"))) ] ||
		{ fail "$what: peak $peak past the cap $want and the slack of $conns connections"; return 1; }
	[ "$refused" -gt 0 ] || { fail "$what: the cap refused nothing: the fill was not held by it"; return 1; }
}

# --- the receiver outside every container --------------------------------
sink_pid=
start_sink() {
	tcphold listen $port >$work/sink.out 2>&1 &
	sink_pid=$!
	poll 10 grep -q listening $work/sink.out || { fail "the receiver did not start: $(cat $work/sink.out)"; return 1; }
}

cleanups=
on_cleanup() { cleanups="$1; $cleanups"; }
cleanup() {
	eval "$cleanups" >/dev/null 2>&1
	cleanups=
	if [ -n "$sink_pid" ]; then
		kill "$sink_pid" 2>/dev/null
		poll 10 sh -c "! kill -0 $sink_pid 2>/dev/null" || kill -KILL "$sink_pid" 2>/dev/null
		wait "$sink_pid" 2>/dev/null
		sink_pid=
	fi
}

# --- the checks ----------------------------------------------------------
# the running kernel is a package dpkg installed, with the initramfs its
# hooks made, and (patched) the one with the series
check_kernel_release() {
	local r pkg
	r=$(uname -r)
	say "uname -r: $r (kernel under test: $KERNEL)"
	pkg=$(dpkg -S "/boot/vmlinuz-$r" 2>&1 | cut -d: -f1)
	say "/boot/vmlinuz-$r: from $pkg, $(dpkg-query -W -f '${Version} ${Status}' "$pkg" 2>&1)"
	[ "$(dpkg-query -W -f '${Status}' "$pkg" 2>/dev/null)" = "install ok installed" ] ||
		{ fail "the running kernel is not from an installed package"; return 1; }
	[ -f "/boot/initrd.img-$r" ] || { fail "no /boot/initrd.img-$r"; return 1; }
	case $r in
	*"$MARKER") ;;
	*) fail "the release $r does not end with $MARKER: not the patched package" ;;
	esac
}

check_system_running() {
	local state
	state=$(timeout 600 systemctl is-system-running --wait)
	say "systemctl is-system-running: $state; $(systemd-analyze 2>&1 | head -n 1)"
	[ "$state" = running ] && return 0
	systemctl --failed --no-legend | diag
	fail "the system is $state, not running"
}

check_memory_controller_v2() {
	local fs
	fs=$(stat -f -c %T /sys/fs/cgroup)
	say "/sys/fs/cgroup: $fs; controllers: $(cat /sys/fs/cgroup/cgroup.controllers 2>/dev/null)"
	[ "$fs" = cgroup2fs ] || { fail "/sys/fs/cgroup is $fs, not cgroup v2"; return 1; }
	grep -qw memory /sys/fs/cgroup/cgroup.controllers || { fail "no memory controller on v2"; return 1; }
	[ -f /sys/fs/cgroup/system.slice/memory.tcp.max ] ||
		fail "system.slice has no memory.tcp.max: the kernel does not have the series"
}

# podman, its systemd cgroup manager and default bridge network
# (netavark): the container's scope under machine.slice gets the cap
# through podman's own option
check_podman_tcp_max() {
	local pid cg out
	start_sink || return 1
	on_cleanup "podman rm -f -t 0 tcpcap-podman"
	if ! out=$(podman run -d --name tcpcap-podman --cgroup-manager=systemd \
		--cgroup-conf=memory.tcp.max=1M --rootfs $ctr_root \
		/usr/local/bin/tcphold send 10.88.0.1 $port 4 2>&1); then
		echo "$out" | diag
		fail "podman run --cgroup-conf=memory.tcp.max=1M failed"
		return 1
	fi
	poll 120 sh -c 'timeout 10 podman logs tcpcap-podman 2>&1 | grep -q "^filled"' || {
		podman logs tcpcap-podman 2>&1 | diag
		fail "the container's fill did not complete"
		return 1
	}
	podman logs tcpcap-podman 2>&1 | diag
	pid=$(podman inspect -f '{{.State.Pid}}' tcpcap-podman)
	cg=$(cg_of "$pid")
	# crun puts the process, and the cap, in the scope's "container"
	# cgroup (libpod-ID.scope/container), runc in the scope itself
	case $cg in
	/sys/fs/cgroup/machine.slice/libpod-*.scope | /sys/fs/cgroup/machine.slice/libpod-*.scope/*) ;;
	*) fail "the container is in ${cg#/sys/fs/cgroup}, not a libpod scope under machine.slice"; return 1 ;;
	esac
	expect_held "$cg" $cap 4 "podman's container"
}

# iperf3 in a capped container against a server on the host completes
check_podman_iperf3() {
	local out
	iperf3 -s -1 -p 5201 >$work/iperf3-server.out 2>&1 &
	on_cleanup "kill $! 2>/dev/null"
	poll 10 sh -c 'ss -ltn | grep -q ":5201 "' || { fail "iperf3 -s did not start"; return 1; }
	on_cleanup "podman rm -f -t 0 tcpcap-iperf3"
	if ! out=$(timeout 120 podman run --rm --name tcpcap-iperf3 --cgroup-manager=systemd \
		--cgroup-conf=memory.tcp.max=1M --rootfs $ctr_root iperf3 -c 10.88.0.1 -p 5201 -t 3 2>&1); then
		echo "$out" | tail -n 15 | diag
		fail "iperf3 -c in a container with memory.tcp.max=1M did not complete"
		return 1
	fi
	echo "$out" | grep -E "sender|receiver|Done" | diag
	echo "$out" | grep -q "iperf Done" || fail "iperf3 did not say it was done"
}

# runc with an OCI spec whose linux.resources.unified sets the cap, its
# systemd cgroup driver, in the host's network namespace
check_runc_unified_tcp_max() {
	local bundle=$work/runc-bundle pid cg
	start_sink || return 1
	mkdir -p $bundle
	cat >$bundle/config.json <<EOF
{
	"ociVersion": "1.0.2",
	"process": {
		"user": { "uid": 0, "gid": 0 },
		"args": [ "/usr/local/bin/tcphold", "send", "127.0.0.1", "$port", "4" ],
		"env": [ "PATH=/usr/local/bin:/usr/bin:/bin" ],
		"cwd": "/",
		"noNewPrivileges": true
	},
	"root": { "path": "$ctr_root", "readonly": true },
	"mounts": [
		{ "destination": "/proc", "type": "proc", "source": "proc" },
		{ "destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": [ "nosuid", "mode=755" ] }
	],
	"linux": {
		"cgroupsPath": "machine.slice:tcpcap:runc",
		"namespaces": [ { "type": "pid" }, { "type": "mount" }, { "type": "ipc" }, { "type": "uts" } ],
		"resources": { "unified": { "memory.tcp.max": "1M" } }
	}
}
EOF
	on_cleanup "runc delete -f tcpcap-runc"
	runc --systemd-cgroup run -d --bundle $bundle tcpcap-runc >$work/runc.out 2>&1 </dev/null || {
		diag <$work/runc.out
		fail "runc run with linux.resources.unified memory.tcp.max=1M failed"
		return 1
	}
	poll 120 grep -q "^filled" $work/runc.out || {
		diag <$work/runc.out
		fail "the container's fill did not complete"
		return 1
	}
	diag <$work/runc.out
	pid=$(runc state tcpcap-runc | sed -n 's/^ *"pid": \([0-9]*\),$/\1/p')
	cg=$(cg_of "$pid")
	expect_held "$cg" $cap 4 "runc's container"
}

# LXC with lxc.cgroup2.memory.tcp.max in the container's config, sharing
# the host's network: an application container (lxc-execute, LXC's own
# init running the one program, its output back to the caller; under
# lxc-start -d the program's output reached no file a host can read)
check_lxc_tcp_max() {
	local dir=$work/lxc pid cg lxc_pid
	start_sink || return 1
	mkdir -p $dir
	cat >$dir/config <<EOF
lxc.uts.name = tcpcap-lxc
lxc.rootfs.path = dir:$ctr_root
lxc.net.0.type = none
lxc.mount.auto = proc:mixed sys:ro cgroup:ro
lxc.cgroup2.memory.tcp.max = 1M
EOF
	lxc-execute -P $dir -n tcpcap-lxc -f $dir/config -o $dir/lxc.log -l INFO -- \
		/usr/local/bin/tcphold send 127.0.0.1 $port 4 >$work/lxc.out 2>&1 </dev/null &
	lxc_pid=$!
	on_cleanup "lxc-stop -P $dir -n tcpcap-lxc -k; wait $lxc_pid"
	poll 120 sh -c "grep -q '^filled' $work/lxc.out || ! kill -0 $lxc_pid 2>/dev/null"
	if ! grep -q '^filled' $work/lxc.out; then
		diag <$work/lxc.out
		grep -E 'ERROR|WARN' $dir/lxc.log | sed 's/^.* \(ERROR\|WARN\) /\1 /' | diag
		fail "lxc-execute with lxc.cgroup2.memory.tcp.max = 1M: no container, or its fill did not complete"
		return 1
	fi
	diag <$work/lxc.out
	pid=$(lxc-info -P $dir -n tcpcap-lxc -p -H)
	cg=$(cg_of "$pid")
	expect_held "$cg" $cap 4 "LXC's container"
}

# a service capped by the line the README gives for services: a drop-in's
# ExecStartPre writes the cap into the unit's own cgroup before its
# process starts
check_systemd_service_tcp_max() {
	local unit=tcpcap-service.service cg
	start_sink || return 1
	on_cleanup "systemctl stop $unit; rm -rf /run/systemd/system/$unit /run/systemd/system/$unit.d; systemctl daemon-reload"
	cat >/run/systemd/system/$unit <<EOF
[Service]
ExecStart=$here/tcphold send 127.0.0.1 $port 4
EOF
	mkdir -p /run/systemd/system/$unit.d
	cp "$here"/tcp-max.conf /run/systemd/system/$unit.d/tcp-max.conf
	systemctl daemon-reload
	if ! systemctl start $unit 2>/dev/null; then
		journalctl -b -u $unit -o cat | tail -n 5 | diag
		fail "systemctl start $unit failed"
		return 1
	fi
	poll 120 sh -c "timeout 10 journalctl -b -u $unit -o cat | grep -q '^filled'" || {
		systemctl status $unit --no-pager 2>&1 | tail -n 15 | diag
		fail "the service's fill did not complete"
		return 1
	}
	cg=/sys/fs/cgroup$(systemctl show -P ControlGroup $unit)
	expect_held "$cg" $cap 4 "the service"
}

# a pod-shaped tree: a slice with memory.max 64M and memory.tcp.max 2M,
# two services in it filling 32 connections each; nothing is OOM-killed
check_pod_slice_no_oom() {
	local slice=pod.slice cg i oom err
	start_sink || return 1
	on_cleanup "systemctl stop $slice"
	if ! systemctl set-property --runtime $slice MemoryMax=64M || ! systemctl start $slice; then
		fail "could not make $slice with MemoryMax=64M"
		return 1
	fi
	cg=/sys/fs/cgroup$(systemctl show -P ControlGroup $slice)
	[ -f "$cg/memory.tcp.max" ] || { fail "${cg#/sys/fs/cgroup} has no memory.tcp.max"; return 1; }
	if ! err=$({ echo 2M >"$cg/memory.tcp.max"; } 2>&1); then
		echo "$err" | diag
		fail "could not write 2M to ${cg#/sys/fs/cgroup}/memory.tcp.max"
		return 1
	fi
	for i in 1 2; do
		systemd-run --quiet --unit=tcpcap-pod-ctr$i --slice=$slice \
			"$here"/tcphold send 127.0.0.1 $port 32 || { fail "systemd-run in $slice failed"; return 1; }
	done
	poll 300 sh -c "[ \$(timeout 10 journalctl -b -u tcpcap-pod-ctr1 -u tcpcap-pod-ctr2 -o cat | grep -c '^filled') = 2 ]" || {
		journalctl -b -u tcpcap-pod-ctr1 -u tcpcap-pod-ctr2 -o cat | tail -n 10 | diag
		fail "the pod's fills did not complete"
		return 1
	}
	say "memory.max=$(cat "$cg/memory.max") memory.current=$(cat "$cg/memory.current")"
	expect_held "$cg" $pod_cap 64 "the pod" || return 1
	oom=$(sed -n 's/^oom_kill //p' "$cg/memory.events")
	say "memory.events: $(tr '\n' ' ' <"$cg/memory.events")"
	[ "$(cat "$cg/memory.max")" = $pod_max ] || { fail "the pod's memory.max is not 64M"; return 1; }
	[ "$oom" = 0 ] || fail "$oom processes OOM-killed in the pod"
}

check_kernel_log_clean() {
	local taint
	taint=$(cat /proc/sys/kernel/tainted)
	journalctl -k -b -o cat >$work/kernel.log
	say "kernel log: $(wc -l <$work/kernel.log) lines; tainted: $taint"
	if kernel-log-splats $work/kernel.log >$work/splats; then
		[ "$taint" = 0 ] || fail "the kernel is tainted ($taint)"
	else
		diag <$work/splats
		fail "the kernel log has warnings"
	fi
}

for c in $checks; do
	run_check "$c"
done
echo "# Totals: pass:$passed fail:$failed xfail:0 xpass:0 skip:0 error:0"
done_rc=$((failed > 0))
