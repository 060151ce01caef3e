#!/bin/bash
# Where the work is when a series moves to another kernel: push each patch
# of a series onto a fresh tree of the new kernel and report, per patch and
# per hunk, what applies at fuzz 0, what applies only with fuzz, and what
# fails, with the function each hunk touches and where that function lives
# in the new tree.
#
# usage: rebase-report.sh SERIES PATCHDIR TARBALL TREE [REPORT]
#
# TREE is removed and extracted afresh from TARBALL.  Each patch is first
# tried at fuzz 0 (what 'make apply' asks of a series).  If that fails, it
# is applied with fuzz 3 so that the patches after it see the code it adds
# where it can; its failed hunks are dropped.  Fuzz is only a hint: a hunk
# that needs it may have landed in the wrong function, so the report says
# where the function of the hunk's header is defined in the new tree.
#
# One line per patch, then one per hunk that needs work:
#   FAIL       the hunk does not apply, even with fuzz 3
#   FUZZ n     it applies only with fuzz n: check where it landed
#   NOFILE     the file it patches is not in the new tree
# and the function (or struct) named in the hunk's header, with its
# definition in the new tree: "same file", "moved to FILE:LINE", or "not
# in" the new tree.  The last lines are the summary.  With REPORT, the
# report is also written there.
set -eu
export LC_ALL=C

die() { echo "rebase-report: $*" >&2; exit 1; }

[ $# -eq 4 ] || [ $# -eq 5 ] || die "usage: rebase-report.sh SERIES PATCHDIR TARBALL TREE [REPORT]"
series=$1 patchdir=$2 tarball=$3 tree=$4 report=${5:-}
here=$(cd "$(dirname "$0")" && pwd)

[ -f "$series" ] || die "series file $series does not exist"
[ -d "$patchdir" ] || die "patch directory $patchdir does not exist"
[ -f "$tarball" ] || die "$tarball not found: install the package named like it, without .tar.xz"
command -v patch >/dev/null || die "patch not found: apt-get install patch"

patches=$("$here/series-patches.sh" "$series" "$patchdir" 2>&1) || die "$patches"
[ -n "$patches" ] || die "$series names no patch"

rm -rf "$tree"
"$here/apply-series.sh" "$tarball" "$tree" none >/dev/null
version=$(make -s -C "$tree" kernelversion 2>/dev/null) || version=unknown

# The hunks of a patch, in the order patch(1) numbers them (from 1 in each
# file): file, number, line in the old file, and the header's context.
hunks() {
	awk '
	/^\+\+\+ / { f = $2; sub(/^b\//, "", f); n = 0; next }
	/^--- / { old = $2; sub(/^a\//, "", old); next }
	/^@@ / {
		if (f == "/dev/null") f = old
		n++
		split($2, a, ","); line = substr(a[1], 2)
		ctx = $0; sub(/^@@ [^@]* @@ ?/, "", ctx)
		printf "%s\t%d\t%s\t%s\n", f, n, line, ctx
	}' "$1"
}

# What a hunk header's context line names, as "KIND NAME": a function
# ("func"), a variable or a symbol a macro exports ("sym"), a struct, or
# a trace event.  Nothing for a line that names none (text, "enum {").
ctx_name() {
	local ctx=$1 inner
	case $ctx in
	TRACE_EVENT\(*|DEFINE_EVENT\(*|DECLARE_EVENT_CLASS\(*)
		inner=${ctx#*(}; [ "${ctx%%(*}" = DEFINE_EVENT ] && inner=${inner#*,}
		inner=${inner#"${inner%%[A-Za-z_]*}"}; echo "event ${inner%%[!A-Za-z0-9_]*}" ;;
	[A-Z_]*\(*)
		case ${ctx%%(*} in
		*[!A-Z0-9_]*) ;;
		*) inner=${ctx#*(}; inner=${inner#"${inner%%[A-Za-z_]*}"}
		   echo "sym ${inner%%[!A-Za-z0-9_]*}"; return ;;
		esac ;;&
	*\(*) ctx=${ctx%%(*}; echo "func ${ctx##*[!A-Za-z0-9_]}" ;;
	*=*|*\;)
		ctx=${ctx%%=*}; ctx=${ctx%%;*}; ctx=${ctx%%[*}
		ctx=${ctx%"${ctx##*[A-Za-z0-9_]}"}; echo "sym ${ctx##*[!A-Za-z0-9_]}" ;;
	"struct "*\{*|*" struct "*\{*)
		ctx=${ctx#*struct }; echo "struct ${ctx%%[!A-Za-z0-9_]*}" ;;
	esac
}

# The regular expression for the line that defines (or, in a header,
# declares) KIND NAME.
def_pattern() {
	local b='[^A-Za-z0-9_>.]'
	case $1 in
	func) echo "^(([A-Za-z_][^;]*)?$b)?$2\\(" ;;
	sym) echo "^(([A-Za-z_][^;]*)?$b)?$2([][(),;=[:space:]]|\$)" ;;
	struct) echo "^struct $2 \\{" ;;
	event) echo "^(TRACE_EVENT|DEFINE_EVENT)\\(([A-Za-z0-9_]+,[[:space:]]*)?$2," ;;
	esac
}

# Where KIND NAME lives in the new tree, as FILE:LINE: in FILE if it is
# still there, else its definition in a .c file, else anywhere in the
# directories this series touches.
where_defined() {
	local kind=$1 name=$2 file=$3 pat hits
	pat=$(def_pattern "$kind" "$name")
	[ -n "$pat" ] || return 0
	if [ -f "$tree/$file" ]; then
		hits=$(grep -nE "$pat" "$tree/$file" | head -n 1 | cut -d: -f1)
		[ -z "$hits" ] || { echo "$file:$hits"; return 0; }
	fi
	hits=$(cd "$tree" && grep -rnE --include='*.c' --include='*.h' "$pat" \
		include mm net kernel 2>/dev/null | grep -v '^[^:]*:[0-9]*:extern ') || true
	{ printf '%s\n' "$hits" | grep '^[^:]*\.c:'; printf '%s\n' "$hits"; } |
		awk 'NF' | head -n 1 | cut -d: -f1,2
}

# Report one hunk that needs work.
report_hunk() {
	local status=$1 file=$2 n=$3 ctx=$4 name= def where
	case $file in
	*.c|*.h) name=$(ctx_name "$ctx") ;;
	esac
	if [ -z "$name" ]; then
		where="(header: ${ctx:-none})"
	else
		def=$(where_defined $name "$file")
		if [ -z "$def" ]; then
			where="$name: not in $version (renamed, removed, or added by a hunk that failed)"
		elif [ "${def%%:*}" = "$file" ]; then
			where="$name: same file, line ${def#*:}"
		else
			where="$name: moved to $def"
		fi
	fi
	printf '     %-7s %s hunk %d: %s\n' "$status" "$file" "$n" "$where"
}

if [ -n "$report" ]; then
	: >"$report" || die "cannot write $report"
	exec > >(tee "$report")
fi
echo "rebase-report: $(basename "$series") from $patchdir onto $(basename "$tarball") ($version)"
total_p=0 clean_p=0 total_h=0 fail_h=0 fuzz_h=0 nofile_h=0
for p in $patches; do
	total_p=$((total_p + 1))
	list=$(hunks "$patchdir/$p")
	nh=$(printf '%s\n' "$list" | awk 'NF' | wc -l)
	total_h=$((total_h + nh))
	if patch -d "$tree" -p1 -F0 -t -N --dry-run -s <"$patchdir/$p" >/dev/null 2>&1; then
		patch -d "$tree" -p1 -F0 -t -N -s <"$patchdir/$p" >/dev/null
		clean_p=$((clean_p + 1))
		printf '%s: %d hunks, all apply at fuzz 0\n' "${p%.patch}" "$nh"
		continue
	fi
	# Apply what can be applied (fuzz 3), and read patch's verdict per hunk.
	out=$(patch -d "$tree" -p1 -F3 -t -N --no-backup-if-mismatch -r - \
		<"$patchdir/$p" 2>&1) || true
	verdicts=$(printf '%s\n' "$out" | awk '
	/^(patching|checking) file / { f = $3; next }
	/^can.t find file to patch/ { f = ""; next }
	/^Hunk #[0-9]+ FAILED/ { n = substr($2, 2); print f "\t" n "\tFAIL"; next }
	/^Hunk #[0-9]+ succeeded .* with fuzz/ {
		n = substr($2, 2); z = $0; sub(/.*with fuzz /, "", z); sub(/[^0-9].*/, "", z)
		print f "\t" n "\tFUZZ " z
	}')
	pf=0 pz=0 pn=0 lines=
	while IFS=$(printf '\t') read -r file n line ctx; do
		[ -n "$file" ] || continue
		status=$(printf '%s\n' "$verdicts" |
			awk -F'\t' -v f="$file" -v n="$n" '$1 == f && $2 == n { print $3; exit }')
		if [ -z "$status" ] && [ ! -e "$tree/$file" ] &&
			! grep -q "^--- /dev/null" "$patchdir/$p"; then
			status=NOFILE
		fi
		case $status in
		FAIL) pf=$((pf + 1)) ;;
		FUZZ*) pz=$((pz + 1)) ;;
		NOFILE) pn=$((pn + 1)) ;;
		*) continue ;;
		esac
		lines="$lines$(report_hunk "$status" "$file" "$n" "$ctx")
"
	done <<EOF
$list
EOF
	fail_h=$((fail_h + pf)) fuzz_h=$((fuzz_h + pz)) nofile_h=$((nofile_h + pn))
	printf '%s: %d hunks, %d at fuzz 0, %d only with fuzz, %d fail, %d in missing files\n' \
		"${p%.patch}" "$nh" $((nh - pf - pz - pn)) "$pz" "$pf" "$pn"
	printf '%s' "$lines"
	# Anything else patch said (a reversed or already-applied patch, a
	# file it could not find) is shown as it said it.
	printf '%s\n' "$out" | grep -vE '^(patching|checking) file |^Hunk #|hunks? FAILED|^$' |
		sed 's/^/     patch: /' || true
done

echo "summary: $total_p patches onto $version: $clean_p apply at fuzz 0, $((total_p - clean_p)) need work"
echo "summary: $total_h hunks: $((total_h - fail_h - fuzz_h - nofile_h)) at fuzz 0, $fuzz_h only with fuzz, $fail_h fail, $nofile_h in missing files"
