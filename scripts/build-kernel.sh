#!/bin/bash
# Configure and build a guest bzImage out of tree.
#
# usage: build-kernel.sh SRC OBJ FRAGMENT...
#
# The configuration is allnoconfig plus the fragments, merged with the
# tree's own scripts/kconfig/merge_config.sh, then olddefconfig.  It is
# regenerated only when the fragments or the tree's applied series change
# (recorded in OBJ/.config-inputs), so a second run with nothing changed
# leaves .config alone and kbuild finds nothing to rebuild.
set -eu

die() { echo "build-kernel: $*" >&2; exit 1; }

[ $# -ge 3 ] || die "usage: build-kernel.sh SRC OBJ FRAGMENT..."
src=$1 obj=$2
shift 2

[ -f "$src/Makefile" ] || die "no kernel tree at $src (run 'make apply' first)"
[ -x "$src/scripts/kconfig/merge_config.sh" ] ||
	die "$src has no scripts/kconfig/merge_config.sh"
frags=
for f in "$@"; do
	[ -f "$f" ] || die "config fragment $f does not exist"
	frags="$frags $(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
done
# shellcheck disable=SC2086 # paths under our control, no blanks
set -- $frags

jobs=${JOBS:-$(nproc)}
mkdir -p "$obj"
obj=$(cd "$obj" && pwd)

# What the configuration depends on: the fragments' text and the series
# applied to the tree (apply-series.sh records it in .applied-series).
inputs=$(
	for f in "$@"; do
		echo "== $f"
		cat "$f"
	done
	echo "== series"
	cat "$src/.applied-series" 2>/dev/null || echo "(none)"
)

if [ -f "$obj/.config" ] && [ -f "$obj/.config-inputs" ] &&
   [ "$inputs" = "$(cat "$obj/.config-inputs")" ]; then
	echo "build-kernel: configuration unchanged, keeping $obj/.config"
else
	echo "build-kernel: allnoconfig + $* -> $obj/.config"
	rm -f "$obj/.config-inputs"
	# merge_config.sh -n runs 'make allnoconfig' with the merged fragments
	# as KCONFIG_ALLCONFIG; it is run from the source tree and writes
	# into -O.
	(cd "$src" && ./scripts/kconfig/merge_config.sh -n -O "$obj" "$@") \
		>"$obj/merge_config.log" 2>&1 ||
		{ cat "$obj/merge_config.log" >&2; die "merge_config.sh failed"; }
	make -s -C "$src" O="$obj" olddefconfig

	"$(dirname "$0")/check-config-symbols.sh" "$obj/.config" "$@" >&2 ||
		die "the configuration is not what the fragments ask for"
	printf '%s\n' "$inputs" >"$obj/.config-inputs"
fi

echo "build-kernel: make -C $src O=$obj -j$jobs bzImage"
make -s -C "$src" O="$obj" -j"$jobs" bzImage
echo "build-kernel: $obj/arch/x86/boot/bzImage"
