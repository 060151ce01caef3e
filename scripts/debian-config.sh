#!/bin/bash
# Configure an object dir with Debian's own kernel configuration plus
# Kconfig fragments: the configuration that check-distro-config.sh boots
# and build-deb.sh packages, made in one place so both mean the same.
#
# usage: debian-config.sh TREE DEBIAN_CONFIG_XZ OBJ builtin|modules FRAGMENT...
#
# DEBIAN_CONFIG_XZ is one of /usr/src/linux-config-KVER/*.xz (package
# linux-config-KVER).  The fragments are merged over it in order, a later
# one winning (merge_config.sh -m), then olddefconfig.  'builtin' then
# runs 'make mod2noconfig': Debian's built-in kernel with every module
# left out, which builds in bounded time on 2 cores and boots with the
# test initramfs (it carries no modules).  'modules' keeps Debian's
# modules.  Every symbol a fragment sets is checked in the result, since
# merge_config.sh only warns when one does not take.  Writes OBJ/.config
# (and OBJ/debian.config, OBJ/merge_config.log).
set -eu

die() { echo "debian-config: $*" >&2; exit 1; }

[ $# -ge 4 ] ||
	die "usage: debian-config.sh TREE DEBIAN_CONFIG_XZ OBJ builtin|modules FRAGMENT..."
tree=$1 debconfig=$2 obj=$3 mode=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
case $mode in
builtin | modules) ;;
*) die "the mode is builtin or modules, not '$mode'" ;;
esac
[ -f "$tree/Makefile" ] || die "no kernel tree at $tree (run 'make apply')"
# The package is named after the directory Debian installs its configs in.
[ -f "$debconfig" ] ||
	die "no $debconfig: apt-get install $(basename "$(dirname "$debconfig")") (or 'make deps')"
# merge_config.sh runs in the tree: the fragments' paths must not be relative.
frags=
for f in "$@"; do
	[ -f "$f" ] || die "config fragment $f does not exist"
	frags="$frags $(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
done

mkdir -p "$obj"
xz -dc "$debconfig" >"$obj/debian.config"
# shellcheck disable=SC2086 # paths under our control, no blanks
(cd "$tree" && ./scripts/kconfig/merge_config.sh -m -O "$obj" \
	"$obj/debian.config" $frags) >"$obj/merge_config.log" 2>&1 ||
	{ cat "$obj/merge_config.log" >&2; die "merge_config.sh failed"; }
make -s -C "$tree" O="$obj" olddefconfig
[ "$mode" = modules ] || make -s -C "$tree" O="$obj" mod2noconfig
# shellcheck disable=SC2086
"$here/check-config-symbols.sh" "$obj/.config" $frags >&2 ||
	die "the configuration is not what the fragments ask for"
