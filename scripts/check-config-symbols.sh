#!/bin/bash
# Fail if a symbol a Kconfig fragment sets did not take that value in a
# generated .config.  merge_config.sh only warns when that happens (an
# unmet dependency, a misspelt name, a symbol gone from the tree).
#
# usage: check-config-symbols.sh DOTCONFIG FRAGMENT...
#
# A later fragment overrides an earlier one, as in merge_config.sh, so
# only the last value asked for a symbol is checked.  Prints one line per
# symbol that differs and exits 1; exits 0 silently otherwise.
set -eu

die() { echo "check-config-symbols: $*" >&2; exit 2; }

[ $# -ge 2 ] || die "usage: check-config-symbols.sh DOTCONFIG FRAGMENT..."
dotconfig=$1
shift
[ -f "$dotconfig" ] || die "no $dotconfig"
for f in "$@"; do
	[ -f "$f" ] || die "config fragment $f does not exist"
done

missing=$(
	cat "$@" | sed -n \
		-e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1=\2/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p' |
	awk -F= '{ last[$1] = $0; order[$1] = NR }
		END { for (s in last) print order[s], last[s] }' |
	sort -n | cut -d' ' -f2- |
	while IFS= read -r want; do
		sym=${want%%=*} val=${want#*=}
		got=$(sed -n -e "s/^$sym=//p" -e "s/^# $sym is not set$/n/p" "$dotconfig")
		[ "${got:-n}" = "$val" ] || echo "  $sym: asked $val, got ${got:-n}"
	done
)
[ -z "$missing" ] && exit 0
echo "symbols the fragments ask for did not reach $dotconfig:"
echo "$missing"
exit 1
