# net.ipv4.tcp_mem exists in every network namespace, starts from the
# initial namespace's values, keeps writes to itself, and is read and
# written for the namespace the file belongs to, whichever namespace the
# reader is in (series: v8 5/9; stock has the file in init_net only).
. /tests/lib/common.sh

f=/proc/sys/net/ipv4/tcp_mem
host=$(cat $f)

inside=$(unshare -n cat $f) || fail "no $f in a new network namespace"
expect_eq "$inside" "$host" "a new namespace's tcp_mem"

inside=$(unshare -n sh -c "writefile $f '10 20 30' >/dev/null; cat $f")
expect_eq "$inside" "$(printf '10\t20\t30')" "tcp_mem after a write inside"
expect_eq "$(cat $f)" "$host" "init_net's tcp_mem after a write elsewhere"

# Open the file in the new namespace, read and write it from init_net.
# (The shell must outlive nsenter, or the namespace dies with it: no exec
# of a last command.)
seen=$(unshare -n sh -c "writefile $f '11 22 33' >/dev/null
	exec 4<$f
	nsenter -t 1 -n cat <&4
	exit \$?")
expect_eq "$seen" "$(printf '11\t22\t33')" "read in init_net through a new namespace's file"
seen=$(unshare -n sh -c "exec 5>$f
	nsenter -t 1 -n sh -c 'printf \"12 24 36\" >&5'
	cat $f")
expect_eq "$seen" "$(printf '12\t24\t36')" "a write from init_net through a new namespace's file"
expect_eq "$(cat $f)" "$host" "init_net's tcp_mem after those"
