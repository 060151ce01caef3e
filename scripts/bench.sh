#!/bin/bash
# Measure what the series costs: the same loopback TCP workloads on the
# stock and the patched kernel, timed by an instruction-counting guest.
#
# usage: bench.sh STOCK_BZIMAGE PATCHED_BZIMAGE INITRAMFS OUT_DIR
#
# Each kernel boots under TCG with -icount shift=0,sleep=off and one
# CPU, once with the cgroup v1 memory controller, once on cgroup v2, and
# once more on cgroup v2 for kubelet's layout alone (v and w run first in
# their boot, as f and g do in theirs: a workload after others pays for
# what they left behind), and that BENCH_BOOTS times, the two kernels
# taking turns.  One boot's runs agree closely, but a boot can land in a
# mode of its own (6.12.118, the same binaries: stock's v2 rr medians
# 124.24 M and 124.41 M in two boots, 0.14% apart, more than a 0.1%
# target): the medians are taken over the runs of every boot, and the
# report gives the largest spread between one kernel's boots.
# The guest's run-bench runs tcpbench's workloads in each placement; see
# initramfs/run-bench.  The scenarios:
#   a  stock,   root cgroup (v1)          c  patched, root cgroup, no limit
#   b  stock,   child with a TCP limit    d  patched, child with a limit
#                                         e  patched, grandchild of a limit
#                                         k  patched, kubepods/burstable/
#                                            pod/ctr, the limit on the pod
#   f  stock,   cgroup v2 child           g  patched, cgroup v2 child
#                                         h  patched, v2 child with its
#                                            own memory.tcp.max
#                                         v  patched, kubelet's v2 layout
#                                            (kubepods.slice/...-burstable
#                                            .slice/...-pod.slice/cri-
#                                            containerd-ID.scope), the cap
#                                            on the pod
#   w  stock,   the same v2 layout, no cap
# Printed, and kept in OUT_DIR/bench-report.txt: median, min and max
# guest nanoseconds (= instructions) per scenario and workload, then the
# ratios of medians c/a, g/f (targets 1.001), d/b (1.005), e/b (1.01),
# k/b (1.015), h/f (1.005) and v/f (1.01), and, without a target, w/f
# (what kubelet's depth costs stock itself) and v/w (what the series adds
# in that layout).  Then two sweeps on both kernels, each with its chart:
# instructions per 64 KiB written against the depth of the socket's
# cgroup below a limited one (stream; OUT_DIR/bench-depth.png), and
# against the number of filled connections (many, in the limited child;
# OUT_DIR/bench-conns.png), with the per-level and per-connection
# increments of each kernel (least-squares slopes of the medians).
# OUT_DIR/bench-ratios.png charts the ratios.  Exit status 1 if a run
# failed or a ratio misses its target.
#
# Environment: BENCH_BOOTS (boots per kernel and cgroup version;
# default 3), BENCH_RUNS (timed runs per workload and boot, after one
# warm-up; default 5), BENCH_STREAM_MIB (64), BENCH_RR (1000),
# BENCH_MANY (200), BENCH_DEPTHS (the depths swept, "1 2 3 4 5 6 7 8"), BENCH_CONNS (the
# connection counts swept, "200 1000 2000").
set -eu

die() { echo "bench: $*" >&2; exit 1; }

[ $# -eq 4 ] || die "usage: bench.sh STOCK_BZIMAGE PATCHED_BZIMAGE INITRAMFS OUT_DIR"
stock=$1 patched=$2 initramfs=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
boots=${BENCH_BOOTS:-3} runs=${BENCH_RUNS:-5} stream=${BENCH_STREAM_MIB:-64}
rr=${BENCH_RR:-1000} many=${BENCH_MANY:-200}
depths=${BENCH_DEPTHS:-1 2 3 4 5 6 7 8} conns=${BENCH_CONNS:-200 1000 2000}
[ "$runs" -ge 5 ] || die "BENCH_RUNS must be at least 5"
case $boots in
'' | *[!0-9]* | 0) die "BENCH_BOOTS takes a positive number, not '$boots'" ;;
esac
for n in $depths $conns; do
	case $n in
	'' | *[!0-9]* | 0) die "BENCH_DEPTHS and BENCH_CONNS take positive numbers, not '$n'" ;;
	esac
done
for list in "$depths" "$conns"; do
	[ "$(echo "$list" | wc -w)" -ge 2 ] ||
		die "BENCH_DEPTHS and BENCH_CONNS need two values each, for a slope"
done
# one word each on the kernel command line
dlist=$(echo "$depths" | tr -s ' ' :) clist=$(echo "$conns" | tr -s ' ' :)
command -v gnuplot >/dev/null || die "gnuplot not found: apt-get install gnuplot-nox"
mkdir -p "$out"

start=$(date +%s)
results=$out/bench-results.txt
: >"$results"
for boot in $(seq "$boots"); do
for kernel in stock patched; do
	eval "image=\$$kernel"
	for mode in v1 v2 v2-pod; do
		log=$out/bench-$kernel-$mode-$boot.log
		echo "bench: boot $boot of $boots, $kernel kernel, cgroup $mode: stream $stream MiB, rr $rr, many $many, $runs runs"
		QEMU_ICOUNT=1 QEMU_SMP=1 QEMU_MEM=2G QEMU_TIMEOUT=${QEMU_TIMEOUT:-3000} \
		QEMU_APPEND="tcpmemcg.bench=$mode,$runs,$stream,$rr,$many,$dlist,$clist" \
			"$here/run-qemu.sh" "$image" "$initramfs" "$log" >/dev/null || true
		tr -d '\r' <"$log" | grep -q '^BENCH-DONE$' || {
			tr -d '\r' <"$log" | grep '^BENCH-FAIL' >&2 || true
			die "the $kernel $mode run of boot $boot did not finish; serial log $log"
		}
		tr -d '\r' <"$log" | sed -n "s/^BENCH \(.*\)/$kernel \1 $boot/p" >>"$results"
	done
done
done
elapsed=$(($(date +%s) - start))

# "KERNEL PLACEMENT WORKLOAD RUN NS BYTES BOOT" -> "SCENARIO WORKLOAD NS BOOT"
awk '
$1 == "stock"   && $2 == "root"             { s = "a" }
$1 == "stock"   && $2 == "child-limit"      { s = "b" }
$1 == "patched" && $2 == "root"             { s = "c" }
$1 == "patched" && $2 == "child-limit"      { s = "d" }
$1 == "patched" && $2 == "grandchild-limit" { s = "e" }
$1 == "patched" && $2 == "pod-limit"        { s = "k" }
$1 == "stock"   && $2 == "v2-child"         { s = "f" }
$1 == "patched" && $2 == "v2-child"         { s = "g" }
$1 == "patched" && $2 == "v2-child-max"     { s = "h" }
$1 == "patched" && $2 == "v2-pod-max"       { s = "v" }
$1 == "stock"   && $2 == "v2-pod"           { s = "w" }
# not charged on stock (no limit of their own); sweeps: below
$1 == "stock"   && ($2 == "grandchild-limit" || $2 == "pod-limit") { s = "" }
$2 ~ /^(depth|conns)-/ { s = "" }
s != "" { print s, $3, $5, $7 }
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

# The largest spread between the medians of one scenario's boots, as a
# share of the lowest of them: what one boot pair can resolve.
spread=$(sort -k1,1 -k2,2 -k4,4n -k3,3n "$out/bench-scenarios.txt" | awk '
function flush() {
	if (n)
		print key, (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2)
	n = 0
}
{ k = $1 " " $2 " " $4; if (k != key) { flush(); key = k } v[++n] = $3 }
END { flush() }' | awk '
{ k = $1 " " $2; if (!(k in lo) || $4 < lo[k]) lo[k] = $4; if ($4 > hi[k]) hi[k] = $4 }
END {
	for (k in lo) { r = (hi[k] - lo[k]) / lo[k]; if (r >= best) { best = r; at = k } }
	printf "%.2f%% (%s)", 100 * best, at
}')

# The sweeps: "KERNEL SWEEP X MEDIAN", the median of the runs' guest
# instructions per 64 KiB written (depth), or per run (conns).
awk '
$2 ~ /^depth-/ { sub(/^depth-/, "", $2); print $1, "depth", $2, $5 * 65536 / $6 }
$2 ~ /^conns-/ { sub(/^conns-/, "", $2); print $1, "conns", $2, $5 }' "$results" |
	sort -k1,1 -k2,2 -k3,3n -k4,4n | awk '
function flush() {
	if (n)
		print key, (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2)
	n = 0
}
{ k = $1 " " $2 " " $3; if (k != key) { flush(); key = k } v[++n] = $4 }
END { flush() }' >"$out/bench-sweeps.txt"
# sweep_table SWEEP DIVIDE: "X STOCK PATCHED", each median divided by X
# when DIVIDE is 1 (conns: per connection, which is 64 KiB written)
sweep_table() {
	awk -v s="$1" -v d="$2" '
	$2 == s { m[$1 " " $3] = $4 / (d ? $3 : 1); x[$3] = 1 }
	END { for (v in x) print v, m["stock " v], m["patched " v] }' \
		"$out/bench-sweeps.txt" | sort -n
}
# slope COLUMN: least-squares slope of COLUMN against column 1
slope() {
	awk -v c="$1" '{ n++; sx += $1; sy += $c; sxx += $1 * $1; sxy += $1 * $c }
	END { printf "%.1f", (n * sxy - sx * sy) / (n * sxx - sx * sx) }'
}
sweep_table depth 0 >"$out/bench-depth.dat"
sweep_table conns 1 >"$out/bench-conns.dat"
sweep_table conns 0 >"$out/bench-conns-total.dat"
for dat in "$out/bench-depth.dat" "$out/bench-conns.dat"; do
	[ "$(wc -l <"$dat")" -ge 2 ] || die "too few points in $dat ($out/bench-sweeps.txt)"
done
! grep -qv '^[0-9]* [0-9.]* [0-9.]*$' "$out/bench-depth.dat" "$out/bench-conns.dat" ||
	die "a sweep point is missing on one kernel ($out/bench-sweeps.txt)"
dstock=$(slope 2 <"$out/bench-depth.dat") dpatched=$(slope 3 <"$out/bench-depth.dat")
cstock=$(slope 2 <"$out/bench-conns-total.dat") cpatched=$(slope 3 <"$out/bench-conns-total.dat")
# Parallel enough: per level, the series adds at most 0.25% of stock's
# cost at the smallest depth (k/b's allowance over d/b, spread over its
# four levels); per connection, at most 0.5% of stock's (d/b's).
dbase=$(head -1 "$out/bench-depth.dat" | cut -d' ' -f2)
dverdict=$(awk -v s="$dstock" -v p="$dpatched" -v b="$dbase" \
	'BEGIN { print ((p - s) <= 0.0025 * b ? "met" : "MISSED") }')
cverdict=$(awk -v s="$cstock" -v p="$cpatched" \
	'BEGIN { print (p <= 1.005 * s ? "met" : "MISSED") }')

report=$out/bench-report.txt
kver=$(strings "$patched" 2>/dev/null | grep -m1 -o '^[0-9]\+\.[0-9]\+\.[0-9]\+[^ ]*' || echo unknown)
{
	echo "make bench, $(date -u +%Y-%m-%d), kernel $kver, TCG -icount shift=0 (1 ns = 1 instruction), -smp 1"
	echo "workloads: stream $stream MiB, rr $rr round trips, many $many connections x 64 KiB; $boots boots per kernel, $runs runs per boot after a warm-up"
	echo
	printf '%-3s %-8s %14s %14s %14s %5s\n' sc workload median min max runs
	awk '{ printf "%-3s %-8s %14d %14d %14d %5d\n", $1, $2, $3, $4, $5, $6 }' "$out/bench-medians.txt"
	echo
	printf '%-6s %-8s %8s %8s  %s\n' ratio workload value target verdict
	awk '
	{ m[$1 " " $2] = $3; w[$2] = 1 }
	END {
		n = split("c/a 1.001 g/f 1.001 d/b 1.005 e/b 1.01 k/b 1.015 h/f 1.005 v/f 1.01", t, " ")
		for (i = 1; i < n; i += 2) {
			split(t[i], p, "/")
			for (wl in w) {
				if (!((p[1] " " wl) in m) || !((p[2] " " wl) in m)) {
					printf "%-6s %-8s %8s %8s  %s\n", t[i], wl, "no runs", t[i + 1], "MISSED"
					continue
				}
				r = m[p[1] " " wl] / m[p[2] " " wl]
				printf "%-6s %-8s %8.4f %8s  %s\n", t[i], wl, r, t[i + 1], \
					(r <= t[i + 1] ? "met" : "MISSED")
			}
		}
	}' "$out/bench-medians.txt" | sort -k1,1 -k2,2
	# no target: v/f above counts what stock pays for the depth too
	awk '
	{ m[$1 " " $2] = $3; w[$2] = 1 }
	END {
		n = split("w/f v/w", t, " ")
		for (i = 1; i <= n; i++) {
			split(t[i], p, "/")
			for (wl in w)
				if ((p[1] " " wl) in m && (p[2] " " wl) in m)
					printf "%-6s %-8s %8.4f %8s  %s\n", t[i], wl,
						m[p[1] " " wl] / m[p[2] " " wl], "-", "(no target)"
		}
	}' "$out/bench-medians.txt" | sort -k1,1 -k2,2
	echo
	echo "depth sweep: stream in a cgroup L levels below a limited one (a limit of its own too),"
	echo "guest instructions per 64 KiB written, medians"
	printf '%5s %12s %12s %9s\n' L stock patched ratio
	awk '{ printf "%5d %12.0f %12.0f %9.4f\n", $1, $2, $3, $3 / $2 }' "$out/bench-depth.dat"
	echo "  per level: stock +$dstock, patched +$dpatched; the series adds $(awk -v s="$dstock" -v p="$dpatched" 'BEGIN { printf "%+.1f", p - s }') per level (target <= 0.25% of stock at L=$(head -1 "$out/bench-depth.dat" | cut -d' ' -f1): $(awk -v b="$dbase" 'BEGIN { printf "%.1f", 0.0025 * b }'))  $dverdict"
	echo
	echo "connection sweep: many N in the limited child (each connection given 64 KiB),"
	echo "guest instructions per connection = per 64 KiB written, medians"
	printf '%5s %12s %12s %9s\n' N stock patched ratio
	awk '{ printf "%5d %12.0f %12.0f %9.4f\n", $1, $2, $3, $3 / $2 }' "$out/bench-conns.dat"
	echo "  per connection (slope of the run's total): stock $cstock, patched $cpatched (target <= 1.005 x stock)  $cverdict"
	echo
	echo "largest spread between one kernel's boots (boot medians, one scenario): $spread"
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
set yrange [0.98:1.03]
set grid ytics
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key top left
set arrow from graph 0, first 1.001 to graph 1, first 1.001 nohead dt 2 lc rgb "black"
set arrow from graph 0, first 1.005 to graph 1, first 1.005 nohead dt 2 lc rgb "gray30"
set arrow from graph 0, first 1.01 to graph 1, first 1.01 nohead dt 2 lc rgb "gray50"
set arrow from graph 0, first 1.015 to graph 1, first 1.015 nohead dt 2 lc rgb "gray70"
plot "< awk '\$2 == \"many\"' $out/bench-ratios.dat" using 3:xtic(1) title "many", \
     "< awk '\$2 == \"rr\"' $out/bench-ratios.dat" using 3 title "rr", \
     "< awk '\$2 == \"stream\"' $out/bench-ratios.dat" using 3 title "stream"
EOF

for sweep in depth conns; do
	case $sweep in
	depth) xlabel="depth of the socket's cgroup below the limited one (levels)" ;;
	conns) xlabel="filled connections (64 KiB each)" ;;
	esac
	# a PNG, and the same chart as text for the report and the README
	for term in "pngcairo size 900,500 noenhanced" "dumb size 78,22"; do
		case $term in
		png*) file=$out/bench-$sweep.png grid="set grid" ;;
		*) file=$out/bench-$sweep.txt grid="unset grid" ;;
		esac
		gnuplot <<EOF
set terminal $term
set output "$file"
set title "guest instructions per 64 KiB written ($kver)"
set xlabel "$xlabel"
$grid
set key top left
plot "$out/bench-$sweep.dat" using 1:2 with linespoints title "stock", \\
     "$out/bench-$sweep.dat" using 1:3 with linespoints title "patched"
EOF
	done
	cat "$out/bench-$sweep.txt" >>"$report"
done
cat "$out/bench-depth.txt" "$out/bench-conns.txt"
echo "bench: report $report, charts $out/bench-ratios.png, $out/bench-depth.png, $out/bench-conns.png"
! grep -q 'MISSED$' "$report" || die "a target was missed (see $report)"
