# Every file the series makes writable refuses malformed input with EINVAL
# or ERANGE and changes nothing, in that file or any other: empty, blank,
# text, trailing text, a sign, hex, numbers beyond 64 bits, two numbers
# where one is taken and four where three are.  The largest 64-bit value
# is refused too, except where the contract gives it a meaning: it clamps
# a limit and, being a number, resets failcnt and max_usage (series: v8
# 1/9, 5/9, 6/9, 8/9, 9/9; stock takes hex, blanks and any reset write).
. /tests/lib/common.sh

cg_make t-matrix
cg=$MEMCG/t-matrix
max=9223372036854771712
u64_max=18446744073709551615
nl='
'
tcp_mem=/proc/sys/net/ipv4/tcp_mem
on_exit "writefile $tcp_mem '$(cat $tcp_mem)' >/dev/null"

# Counters that a wrongly taken reset would visibly change: failcnt > 0
# and max_usage > usage (0, once the sockets are closed).
expect_write "$cg/memory.kmem.tcp.limit_in_bytes" 256K OK
tcpfill_start -c 2 -g "$cg"
tcpfill_stop
wait_usage_zero "$cg"
expect_gt "$(cg_read "$cg" kmem.tcp.failcnt)" 0 "failcnt after filling"
expect_gt "$(cg_read "$cg" kmem.tcp.max_usage_in_bytes)" 0 "max_usage after filling"

# Everything a write to one of these files could change.
state() {
	for _f in "$cg/memory.independent_kmem_limit" \
		  "$cg/memory.kmem.tcp.limit_in_bytes" \
		  "$cg/memory.kmem.tcp.failcnt" \
		  "$cg/memory.kmem.tcp.max_usage_in_bytes" \
		  "$MEMCG/memory.independent_kmem_limit" \
		  "$MEMCG/memory.kmem.tcp.limit_in_bytes" \
		  "$tcp_mem"; do
		echo "$_f: $(cat "$_f" 2>&1)"
	done
}

cases=0
# refused FILE VALUE: EINVAL or ERANGE, and state() is as it was.
refused() {
	state >/tmp/matrix.before
	_got=$(writefile "$1" "$2")
	case $_got in
	EINVAL|ERANGE) ;;
	*) fail "write '$2' to $1: expected EINVAL or ERANGE, got $_got" ;;
	esac
	state >/tmp/matrix.after
	diff /tmp/matrix.before /tmp/matrix.after >/tmp/matrix.diff ||
		fail "refused write '$2' to $1 changed: $(cat /tmp/matrix.diff)"
	cases=$((cases + 1))
}

# refused_all FILE PREFIX: each malformed value, after PREFIX (for
# tcp_mem, whose other two values are then valid).  "Empty" is a bare
# newline, what 'echo "" >FILE' writes: a write of 0 bytes never reaches
# the file's handler.
refused_all() {
	for _v in "$nl" "   " "abc" "1X" "-2" "+1" "0x10" \
		  "18446744073709551616" "99999999999999999999999" "1 2"; do
		refused "$1" "$2$_v"
	done
}

refused_all "$cg/memory.independent_kmem_limit" ""
refused_all "$MEMCG/memory.independent_kmem_limit" ""
refused_all "$cg/memory.kmem.tcp.limit_in_bytes" ""
refused_all "$MEMCG/memory.kmem.tcp.limit_in_bytes" ""
refused_all "$cg/memory.kmem.tcp.failcnt" ""
refused_all "$cg/memory.kmem.tcp.max_usage_in_bytes" ""
refused_all "$tcp_mem" "1 2 "
# tcp_mem: four values, and the largest 64-bit value (beyond a long);
# a sign on a value that would otherwise be in order.
refused "$tcp_mem" "1 2 3 4"
refused "$tcp_mem" "+1 2 3"
refused "$tcp_mem" "1 2 $u64_max"
# the child may not differ from its parent, whatever the number says.
refused "$cg/memory.independent_kmem_limit" "$u64_max"
# the root's limit is never written.
refused "$MEMCG/memory.kmem.tcp.limit_in_bytes" "$u64_max"
echo "$cases malformed writes refused, nothing changed"

# Where the largest 64-bit value means something, it does that only.
# expect_only FILE VALUE READBACK: the write succeeds, FILE reads
# READBACK, and no other file changed.
expect_only() {
	state | grep -v "^$1: " >/tmp/matrix.before
	expect_write "$1" "$2" OK
	expect_eq "$(cat "$1")" "$3" "$1 after writing '$2'"
	state | grep -v "^$1: " >/tmp/matrix.after
	diff /tmp/matrix.before /tmp/matrix.after >/tmp/matrix.diff ||
		fail "write '$2' to $1 changed another file: $(cat /tmp/matrix.diff)"
}
expect_only "$cg/memory.kmem.tcp.limit_in_bytes" "$u64_max" $max
expect_only "$cg/memory.kmem.tcp.failcnt" "$u64_max" 0
expect_only "$cg/memory.kmem.tcp.max_usage_in_bytes" "$u64_max" 0
