#!/bin/bash
# Keep the host's CPUs busy the way a maintainer's machine is: build a
# kernel from clean, again and again, until killed.
#
# usage: load-host.sh TREE OBJ CONFIG JOBS
#
# TREE is a kernel source tree, OBJ a scratch object directory of its own
# (emptied first), CONFIG the .config to build with (a test kernel's),
# JOBS the make jobs (the host's CPUs: with the guest's vCPU threads that
# puts about twice as many runnable threads as cores).  Each build's
# output goes to OBJ/load.log; one line per finished build on stdout.
# Meant to run in the background of scripts/repeat-suite.sh, which ends
# it with its process group.
set -eu

die() { echo "load-host: $*" >&2; exit 2; }

[ $# -eq 4 ] || die "usage: load-host.sh TREE OBJ CONFIG JOBS"
tree=$1 obj=$2 config=$3 jobs=$4
[ -f "$tree/Makefile" ] || die "no kernel tree at $tree"
[ -f "$config" ] || die "no config $config"
case $jobs in
'' | *[!0-9]*) die "JOBS must be a number, not '$jobs'" ;;
esac

rm -rf "$obj"
mkdir -p "$obj"
builds=0
while :; do
	cp "$config" "$obj/.config"
	start=$(date +%s)
	make -C "$tree" O="$obj" -j"$jobs" olddefconfig bzImage >"$obj/load.log" 2>&1 ||
		die "a build failed: see $obj/load.log"
	builds=$((builds + 1))
	echo "load-host: build $builds took $(($(date +%s) - start)) s"
	make -C "$tree" O="$obj" clean >/dev/null 2>&1
done
