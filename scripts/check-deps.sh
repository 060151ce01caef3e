#!/bin/bash
# Check that every package in scripts/debian-packages is installed; name
# the missing ones and the command that installs them.
#
# usage: check-deps.sh KVER
set -eu

kver=${1:?usage: check-deps.sh KVER}
list=$(dirname "$0")/debian-packages

missing=
while read -r pkg test; do
	case $pkg in ""|\#*) continue ;; esac
	pkg=${pkg//@KVER@/$kver} test=${test//@KVER@/$kver}
	case $test in
	cmd:*) command -v "${test#cmd:}" >/dev/null && continue ;;
	file:*) [ -e "${test#file:}" ] && continue ;;
	esac
	echo "check-deps: missing package $pkg (no ${test#*:})" >&2
	missing="$missing $pkg"
done <"$list"

# busybox (dynamic) also provides /bin/busybox, but the guest needs the
# static build.
if [ -e /bin/busybox ] && readelf -l /bin/busybox 2>/dev/null | grep -q 'program interpreter'; then
	echo "check-deps: /bin/busybox is dynamically linked: package busybox-static is needed" >&2
	missing="$missing busybox-static"
fi

if [ -n "$missing" ]; then
	echo "check-deps: install them with: apt-get update && apt-get install -y$missing (or run 'make deps' as root)" >&2
	exit 1
fi
echo "check-deps: all packages present"
