#!/bin/bash
# Measure what the series costs: the same loopback TCP workloads on the
# stock and the patched kernel, timed by an instruction-counting guest.
#
# usage: bench.sh STOCK_BZIMAGE PATCHED_BZIMAGE INITRAMFS OUT_DIR
#
# Each kernel boots twice under TCG with -icount shift=0,sleep=off and
# one CPU: once with the cgroup v1 memory controller, once on cgroup v2.
# The guest's run-bench runs tcpbench's workloads in each placement; see
# initramfs/run-bench.  The scenarios:
#   a  stock,   root cgroup (v1)          c  patched, root cgroup, no limit
#   b  stock,   child with a TCP limit    d  patched, child with a limit
#                                         e  patched, grandchild of a limit
#   f  stock,   cgroup v2 child           g  patched, cgroup v2 child
# Printed, and kept in OUT_DIR/bench-report.txt: median, min and max
# guest nanoseconds (= instructions) per scenario and workload, then the
# ratios of medians c/a, g/f (targets 1.005), d/b (1.03) and e/b (1.05).
# OUT_DIR/bench-ratios.png charts the ratios.  Exit status 1 if a run
# failed or a ratio misses its target.
#
# Environment: BENCH_RUNS (timed runs per workload, after one warm-up;
# default 5), BENCH_STREAM_MIB (64), BENCH_RR (1000), BENCH_MANY (200).
set -eu

die() { echo "bench: $*" >&2; exit 1; }

[ $# -eq 4 ] || die "usage: bench.sh STOCK_BZIMAGE PATCHED_BZIMAGE INITRAMFS OUT_DIR"
stock=$1 patched=$2 initramfs=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
runs=${BENCH_RUNS:-5} stream=${BENCH_STREAM_MIB:-64}
rr=${BENCH_RR:-1000} many=${BENCH_MANY:-200}
[ "$runs" -ge 5 ] || die "BENCH_RUNS must be at least 5"
command -v gnuplot >/dev/null || die "gnuplot not found: apt-get install gnuplot-nox"
mkdir -p "$out"

start=$(date +%s)
results=$out/bench-results.txt
: >"$results"
for kernel in stock patched; do
	eval "image=\$$kernel"
	for mode in v1 v2; do
		log=$out/bench-$kernel-$mode.log
		echo "bench: $kernel kernel, cgroup $mode: stream $stream MiB, rr $rr, many $many, $runs runs"
		QEMU_ICOUNT=1 QEMU_SMP=1 QEMU_MEM=2G QEMU_TIMEOUT=${QEMU_TIMEOUT:-3000} \
		QEMU_APPEND="tcpmemcg.bench=$mode,$runs,$stream,$rr,$many" \
			"$here/run-qemu.sh" "$image" "$initramfs" "$log" >/dev/null || true
		tr -d '\r' <"$log" | grep -q '^BENCH-DONE$' || {
			tr -d '\r' <"$log" | grep '^BENCH-FAIL' >&2 || true
			die "the $kernel $mode run did not finish; serial log $log"
		}
		tr -d '\r' <"$log" | sed -n "s/^BENCH /$kernel /p" >>"$results"
	done
done
elapsed=$(($(date +%s) - start))

# "KERNEL PLACEMENT WORKLOAD RUN NS BYTES" -> "SCENARIO WORKLOAD NS"
awk '
$1 == "stock"   && $2 == "root"             { s = "a" }
$1 == "stock"   && $2 == "child-limit"      { s = "b" }
$1 == "patched" && $2 == "root"             { s = "c" }
$1 == "patched" && $2 == "child-limit"      { s = "d" }
$1 == "patched" && $2 == "grandchild-limit" { s = "e" }
$1 == "stock"   && $2 == "v2-child"         { s = "f" }
$1 == "patched" && $2 == "v2-child"         { s = "g" }
$1 == "stock"   && $2 == "grandchild-limit" { s = "" }	# not charged on stock
s != "" { print s, $3, $5 }
{ s = "" }' "$results" | sort -k1,1 -k2,2 -k3,3n >"$out/bench-scenarios.txt"

# median, min, max per scenario and workload
awk '
function flush() {
	if (n)
		print key, (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2), v[1], v[n], n
	n = 0
}
{ k = $1 " " $2; if (k != key) { flush(); key = k } v[++n] = $3 }
END { flush() }' "$out/bench-scenarios.txt" >"$out/bench-medians.txt"

report=$out/bench-report.txt
kver=$(strings "$patched" 2>/dev/null | grep -m1 -o '^[0-9]\+\.[0-9]\+\.[0-9]\+[^ ]*' || echo unknown)
{
	echo "make bench, $(date -u +%Y-%m-%d), kernel $kver, TCG -icount shift=0 (1 ns = 1 instruction), -smp 1"
	echo "workloads: stream $stream MiB, rr $rr round trips, many $many connections x 64 KiB; $runs runs after a warm-up"
	echo
	printf '%-3s %-8s %14s %14s %14s %5s\n' sc workload median min max runs
	awk '{ printf "%-3s %-8s %14d %14d %14d %5d\n", $1, $2, $3, $4, $5, $6 }' "$out/bench-medians.txt"
	echo
	printf '%-6s %-8s %8s %8s  %s\n' ratio workload value target verdict
	awk '
	{ m[$1 " " $2] = $3; w[$2] = 1 }
	END {
		split("c/a 1.005 g/f 1.005 d/b 1.03 e/b 1.05", t, " ")
		for (i = 1; i < 8; i += 2) {
			split(t[i], p, "/")
			for (wl in w) {
				if (!((p[1] " " wl) in m) || !((p[2] " " wl) in m))
					continue
				r = m[p[1] " " wl] / m[p[2] " " wl]
				printf "%-6s %-8s %8.4f %8s  %s\n", t[i], wl, r, t[i + 1], \
					(r <= t[i + 1] ? "met" : "MISSED")
			}
		}
	}' "$out/bench-medians.txt" | sort -k1,1 -k2,2
	echo
	echo "guest runs took $elapsed s of host time"
} >"$report"
cat "$report"

# The chart: one group of bars per ratio, one bar per workload.
awk '$1 ~ /\// { print $1, $2, $3, $4 }' "$report" >"$out/bench-ratios.dat"
gnuplot <<EOF
set terminal pngcairo size 900,500 noenhanced
set output "$out/bench-ratios.png"
set title "tcp-memcg-v8: cost ratios of medians ($kver, guest instructions)"
set ylabel "ratio"
set yrange [0.95:1.08]
set grid ytics
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key top left
set arrow from graph 0, first 1.005 to graph 1, first 1.005 nohead dt 2 lc rgb "black"
set arrow from graph 0, first 1.03 to graph 1, first 1.03 nohead dt 2 lc rgb "gray40"
set arrow from graph 0, first 1.05 to graph 1, first 1.05 nohead dt 2 lc rgb "gray60"
plot "< awk '\$2 == \"many\"' $out/bench-ratios.dat" using 3:xtic(1) title "many", \
     "< awk '\$2 == \"rr\"' $out/bench-ratios.dat" using 3 title "rr", \
     "< awk '\$2 == \"stream\"' $out/bench-ratios.dat" using 3 title "stream"
EOF
echo "bench: report $report, chart $out/bench-ratios.png"
! grep -q 'MISSED$' "$report" || die "a ratio missed its target (see $report)"
