#!/bin/bash
# Build the guest's initramfs: static busybox, /init and its test runner,
# the tests, and the static C helpers compiled here.
#
# usage: make-initramfs.sh REPO OUT.cpio.gz [PROGRAM...]
#
# Each PROGRAM (static, built elsewhere) is copied into the guest's /bin.
set -eu

die() { echo "make-initramfs: $*" >&2; exit 1; }

[ $# -ge 2 ] || die "usage: make-initramfs.sh REPO OUT.cpio.gz [PROGRAM...]"
repo=$1 out=$2
shift 2
for p in "$@"; do
	[ -f "$p" ] || die "no program $p"
done

busybox=$(command -v busybox) || die "busybox not found: apt-get install busybox-static"
# The guest has no libc: a dynamically linked busybox (package busybox)
# would not start there.
if readelf -l "$busybox" 2>/dev/null | grep -q 'program interpreter'; then
	die "$busybox is dynamically linked: apt-get install busybox-static"
fi
command -v cpio >/dev/null || die "cpio not found: apt-get install cpio"
command -v gcc >/dev/null || die "gcc not found: apt-get install gcc"
# Debian's container runtime, for the cgroup v2 tests that start a
# container (it is dynamically linked: its libraries come along)
crun=$(command -v crun) || die "crun not found: apt-get install crun"

root=$(mktemp -d "${TMPDIR:-/tmp}/initramfs.XXXXXX")
mkdir -p "$(dirname "$out")"
# written beside OUT under a name of its own, then renamed: two makes
# (one per KVER) that build the same OUT at once each rename a whole one
part=$(mktemp "$out.XXXXXX")
trap 'rm -rf "$root" "$part"' EXIT
# mktemp makes it 0700, and it becomes the guest's "/": tests that run as
# an unprivileged user must be able to reach /bin and /proc.
chmod 0755 "$root"
mkdir -p "$root"/{bin,dev,proc,sys,tmp,tests}

cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done

for c in "$repo"/tests/helpers/*.c "$repo"/initramfs/*.c; do
	name=$(basename "$c" .c)
	gcc -static -O2 -Wall -Wextra -Werror -o "$root/bin/$name" "$c" ||
		die "cannot build $c"
done

for p in "$@"; do
	install -m 0755 "$p" "$root/bin/"
done

install -m 0755 "$crun" "$root/bin/crun"
for lib in $(ldd "$crun" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib" || die "cannot copy $lib, which crun needs"
done

install -m 0755 "$repo/initramfs/init" "$root/init"
install -m 0755 "$repo/initramfs/run-tests" "$root/bin/run-tests"
install -m 0755 "$repo/initramfs/run-selftest" "$root/bin/run-selftest"
install -m 0755 "$repo/initramfs/run-bench" "$root/bin/run-bench"
install -m 0755 "$repo/initramfs/kernel-log-splats" "$root/bin/kernel-log-splats"
# For getaddrinfo("localhost") in static programs (test_memcontrol).
mkdir -p "$root/etc"
printf '127.0.0.1\tlocalhost\n::1\tlocalhost\n' >"$root/etc/hosts"
cp "$repo"/tests/*.sh "$root/tests/"
cp -r "$repo/tests/lib" "$root/tests/lib"

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -n -9 >"$part"
chmod 0644 "$part"
mv "$part" "$out"
echo "make-initramfs: $out ($(du -k "$out" | cut -f1) KiB)"
