#!/bin/bash
# Build upstream's cgroup v2 memory controller selftest, statically, from
# a kernel tree.
#
# usage: build-selftest.sh TREE OUT
#
# OUT is the static test_memcontrol binary.  The guest has no libc.  TREE
# is the patched tree for both kernels: the series adds its own cases
# (test_memcg_tcp_*), which must fail on stock.
set -eu

die() { echo "build-selftest: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: build-selftest.sh TREE OUT"
tree=$1 out=$2
src=$tree/tools/testing/selftests/cgroup
[ -f "$src/test_memcontrol.c" ] ||
	die "no $src/test_memcontrol.c (run 'make apply' first)"

mkdir -p "$(dirname "$out")"
# Upstream's own flags (its Makefile: -Wall -pthread, no -O: at -O2 gcc
# drops the tests' writes to memory they never read back, which is then
# never charged).  Its warnings are upstream's to fix, not errors here.
# The linker's note that a static getaddrinfo() needs NSS at run time is
# answered by the guest's /etc/hosts (nss_files is in libc since glibc
# 2.34).  selftest-linebuf.c keeps forked children from repeating output.
gcc -static -Wall -pthread -o "$out.tmp" \
	"$src/test_memcontrol.c" "$src/cgroup_util.c" \
	"$(dirname "$0")/selftest-linebuf.c" 2>"$out.log" ||
	{ cat "$out.log" >&2; die "cannot build test_memcontrol"; }
mv "$out.tmp" "$out"
echo "build-selftest: $out"
