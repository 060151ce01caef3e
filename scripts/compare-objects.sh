#!/bin/bash
# Compare the functions of objects built from the patched tree with the
# same objects built from the stock tree with the same .config: every
# function (text symbol) whose size differs, that exists on one side
# only (GCC stopped or started inlining it, or it is new), or whose
# instructions differ at the same size (a branch turned round, registers
# allocated otherwise) is a change of code generation.  Those named in
# ALLOWED for this kernel, with the reason they may differ, are listed as
# allowed; any other fails.
#
# usage: compare-objects.sh [-k KVER] PATCHED_OBJ STOCK_OBJ ALLOWED OBJECT...
#
# ALLOWED has one "KVER OBJECT FUNCTION reason..." per line ("#" starts a
# comment); KVER is a kernel's VERSION.PATCHLEVEL ("6.1", "6.12") or "*"
# for every kernel, and -k names the kernel being compared (without it,
# only "*" lines apply).  An object missing from either side is skipped
# (the configuration does not build it).  GCC's clone suffixes (.isra.0,
# .constprop.0, .part.0, .cold) are kept but their numbers dropped.
# Instructions are compared as objdump prints them, with their relocations,
# once addresses are dropped: the place of a function in its object (other
# functions may have grown) does not count, a jump inside it does.
# Prints one line per difference; exit status 1 if any is not allowed.
set -eu

die() { echo "compare-objects: $*" >&2; exit 2; }

kver=
if [ "${1:-}" = -k ]; then
	[ $# -ge 2 ] || die "-k needs a kernel version"
	kver=$2
	shift 2
fi
[ $# -ge 4 ] || die "usage: compare-objects.sh [-k KVER] PATCHED_OBJ STOCK_OBJ ALLOWED OBJECT..."
patched=$1 stock=$2 allowed=$3
shift 3
[ -f "$allowed" ] || die "no list of allowed differences at $allowed"
for tool in nm objdump; do
	command -v "$tool" >/dev/null || die "$tool not found: apt-get install binutils"
done

# functions OBJECT_FILE: "name size", sorted by name
functions() {
	nm -S --defined-only "$1" |
	awk 'NF == 4 && $3 ~ /^[tTwW]$/ {
		name = $4
		gsub(/\.[0-9]+/, "", name)
		print name, $2
	}' | while read -r name hex; do
		echo "$name $((16#$hex))"
	done | sort -k1,1
}

# code OBJECT_FILE DIR: DIR/NAME holds each function's instructions and
# relocations without addresses (a target inside a function keeps its
# "<name+0xoffset>", and a relocation against a section offset names the
# symbol there); names as functions() prints them.
code() {
	{ objdump -t "$1"; echo "@@"; objdump -dr --no-show-raw-insn "$1"; } |
	awk -v dir="$2" '
	function hex(s,    i, n) {
		n = 0
		s = tolower(s)
		for (i = 1; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	function clean(name) {
		gsub(/\.[0-9]+/, "", name)
		return name
	}
	# the symbol table: address, section and name of each sized symbol
	!code && $0 == "@@" { code = 1; next }
	!code {
		# "ADDRESS FLAGS SECTION<tab>SIZE NAME"
		if ($0 !~ /^[0-9a-f]+ / || split($0, half, "\t") != 2)
			next
		n = split(half[1], l, / +/)
		if (split(half[2], r, / +/) < 2 || hex(r[1]) == 0)
			next
		nsym++
		saddr[nsym] = hex(l[1]); ssize[nsym] = hex(r[1])
		ssec[nsym] = l[n]; sname[nsym] = clean(r[2])
		next
	}
	/^[0-9a-f]+ <[^>]+>:$/ {
		name = $2
		sub(/^</, "", name); sub(/>:$/, "", name)
		file = dir "/" clean(name)
		next
	}
	/^$/ { file = ""; next }
	file != "" {
		line = $0
		sub(/^[ \t]*[0-9a-f]+:[ \t]*/, "", line)
		gsub(/[0-9a-f]+ </, "<", line)
		gsub(/# [0-9a-f]+$/, "#", line)
		gsub(/\.[0-9]+\+/, "+", line)
		gsub(/\.[0-9]+>/, ">", line)
		if (line ~ /^R_/ && match(line, /[ \t]\.[a-zA-Z0-9_.]+[+-]0x[0-9a-f]+$/)) {
			ref = substr(line, RSTART + 1)
			sec = ref; sub(/[+-].*/, "", sec)
			off = ref; sub(/^[^+-]*[+-]0x/, "", off)
			off = (ref ~ /^[^+-]*-/) ? -hex(off) : hex(off)
			for (k = 1; k <= nsym; k++)
				if (ssec[k] == sec && off >= saddr[k] &&
				    off < saddr[k] + ssize[k]) {
					line = substr(line, 1, RSTART) "<" sname[k] "+" (off - saddr[k]) ">"
					break
				}
		}
		print line > file
	}'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -e 's/#.*//' "$allowed" |
	awk -v k="$kver" 'NF >= 3 && ($1 == "*" || $1 == k) { print $2, $3 }' |
	sort -u >"$tmp/allowed"

bad=0 ok=0
for o in "$@"; do
	if [ ! -f "$patched/$o" ] || [ ! -f "$stock/$o" ]; then
		continue
	fi
	functions "$patched/$o" >"$tmp/p"
	functions "$stock/$o" >"$tmp/s"
	rm -rf "$tmp/pc" "$tmp/sc"
	mkdir "$tmp/pc" "$tmp/sc"
	code "$patched/$o" "$tmp/pc"
	code "$stock/$o" "$tmp/sc"
	join -a1 -a2 -e - -o 0,1.2,2.2 "$tmp/p" "$tmp/s" |
		while read -r fn p s; do
			if [ "$p" != "$s" ]; then
				echo "$o $fn $p $s"
			elif ! cmp -s "$tmp/pc/$fn" "$tmp/sc/$fn"; then
				echo "$o $fn $p $s other-code"
			fi
		done >"$tmp/diff"
	while read -r obj fn p s how; do
		what="patched $p, stock $s bytes"
		[ -z "$how" ] || what="$what, other instructions"
		if grep -qx "$obj $fn" "$tmp/allowed"; then
			echo "allowed  $obj $fn: $what"
			ok=$((ok + 1))
		else
			echo "DIFFERS  $obj $fn: $what"
			bad=$((bad + 1))
		fi
	done <"$tmp/diff"
done
echo "compare-objects: $bad differences not allowed, $ok allowed"
[ "$bad" -eq 0 ]
