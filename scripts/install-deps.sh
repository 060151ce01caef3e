#!/bin/bash
# Install every package in scripts/debian-packages with apt-get.  As a
# normal user, print the one command that does it instead.
#
# usage: install-deps.sh KVER
set -eu

kver=${1:?usage: install-deps.sh KVER}
list=$(dirname "$0")/debian-packages
pkgs=$(sed -e 's/#.*//' "$list" | awk 'NF { print $1 }' | sed "s/@KVER@/$kver/g" | tr '\n' ' ')

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: not root; run this as root:"
	echo "  apt-get update && apt-get install -y $pkgs"
	exit 1
fi
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $pkgs
