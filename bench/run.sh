#!/bin/sh
# run.sh [COUNT] — benchmark ringreport's replay steps (internal/sim) and
# the Go peers (bench/peers, a separate module) on the same workload,
# 10⁶ keys, 100 nodes, 160 points per node, in one run, and print one
# table of ns/key (medians over COUNT runs, default 10) with the ratios:
# against the floor (read a uint32, write a uint16 per key) and the peer
# for the rule. Then, unless SCALE=0, the scaling check: every rule's
# step at 10⁴ … 10⁷ keys (ns/key should stay flat or fall as K grows).
# Raw results and benchstat summaries go to $OUT (default bench/out, not
# committed).
set -eu
count=${1:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/bench/out}
mkdir -p "$out"
(cd "$root" && go test -run '^$' -bench 'Floor/keys=1e6|BinarySearch|Step' -count "$count" ./internal/sim) >"$out/sim.txt"
(cd "$root/bench/peers" && go test -run '^$' -bench . -count "$count" .) >"$out/peers.txt"
if [ "${BENCHSTAT:-1}" = 1 ]; then
	(cd "$root" && go run golang.org/x/perf/cmd/benchstat@latest "$out/sim.txt" "$out/peers.txt") >"$out/benchstat.txt" 2>&1 || true
fi
cat "$out/sim.txt" "$out/peers.txt" | awk '
# median ns/key per benchmark name (without the -GOMAXPROCS suffix)
/ns\/key/ {
	name = $1; sub(/-[0-9]+$/, "", name)
	for (i = 2; i < NF; i++) if ($(i+1) == "ns/key") v = $i
	n[name]++; val[name, n[name]] = v
}
function median(name,   k, i, j, t, a) {
	k = n[name]; if (k == 0) return 0
	for (i = 1; i <= k; i++) a[i] = val[name, i]
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
function peer(lib) { return median("BenchmarkPeers/lib=" lib "/keys=1e6/nodes=100/vnodes=160") }
END {
	floor = median("BenchmarkFloor/keys=1e6")
	bs = median("BenchmarkBinarySearch/keys=1e6/nodes=100/vnodes=160")
	printf "%-22s %10s %10s  %-18s %10s %10s\n", "ringreport step", "ns/key", "x floor", "peer", "ns/key", "peer/ours"
	printf "%-22s %10.3f %10.2f\n", "floor (u32→u16 loop)", floor, 1
	printf "%-22s %10.3f %10.2f\n", "per-key binary search", bs, bs / floor
	split("ring ring-fail ketama jump rendezvous maglev modulo multiprobe bounded slots", rules, " ")
	# the peer of each rule; "a|b" takes the faster of a and b in this run
	split("groupcache groupcache groupcache go-jump go-rendezvous go-maglev gomemcache go-mpchash|go-mpchash-siphash buraksezer -", peers, " ")
	for (r = 1; r <= 10; r++) {
		ours = median("BenchmarkStep/rule=" rules[r] "/keys=1e6/nodes=100/vnodes=160")
		if (peers[r] == "-") {
			printf "%-22s %10.3f %10.2f  %-18s\n", rules[r], ours, ours / floor, "(none)"
			continue
		}
		np = split(peers[r], alt, "|")
		name = alt[1]; p = peer(alt[1])
		for (a = 2; a <= np; a++) if (peer(alt[a]) < p) { name = alt[a]; p = peer(alt[a]) }
		printf "%-22s %10.3f %10.2f  %-18s %10.3f %10.1f\n", rules[r], ours, ours / floor, name, p, p / ours
	}
	print ""
	split("groupcache stathat serialx buraksezer go-jump go-rendezvous go-maglev go-maglev-prehashed go-mpchash go-mpchash-siphash gomemcache modulo-xxhash", libs, " ")
	for (l = 1; l <= 12; l++) printf "peer %-20s %10.3f ns/key\n", libs[l], peer(libs[l])
	printf "peer %-20s %10.3f ns/key per step (Add, Remove: partitions redistributed)\n", "buraksezer-rebuild",
		median("BenchmarkPeerSteps/lib=buraksezer-rebuild/keys=1e6/nodes=100/vnodes=160")
}'
[ "${SCALE:-1}" = 1 ] || exit 0
(cd "$root" && go test -run '^$' -bench 'Floor|Scale' -count "$count" -timeout 2h ./internal/sim) >"$out/scale.txt"
if [ "${BENCHSTAT:-1}" = 1 ]; then
	(cd "$root" && go run golang.org/x/perf/cmd/benchstat@latest -col /keys "$out/scale.txt") >"$out/benchstat-scale.txt" 2>&1 || true
fi
echo
awk '
/ns\/key/ {
	split($1, f, "/"); rule = f[2]; keys = f[3]
	if (f[1] == "BenchmarkFloor") { rule = "floor"; keys = f[2]; sub(/-[0-9]+$/, "", keys) }
	sub(/^rule=/, "", rule); sub(/^keys=/, "", keys)
	for (i = 2; i < NF; i++) if ($(i+1) == "ns/key") v = $i
	k = rule SUBSEP keys; n[k]++; val[k, n[k]] = v
	if (!(rule in seen)) { seen[rule] = 1; order[++nr] = rule }
}
function median(k,   m, i, j, t, a) {
	m = n[k]; if (m == 0) return 0
	for (i = 1; i <= m; i++) a[i] = val[k, i]
	for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
}
END {
	split("1e4 1e5 1e6 1e7", sizes, " ")
	printf "%-22s %10s %10s %10s %10s   (ns/key per step, by keys)\n", "scaling", sizes[1], sizes[2], sizes[3], sizes[4]
	for (r = 1; r <= nr; r++) {
		printf "%-22s", order[r]
		for (s = 1; s <= 4; s++) printf " %10.3f", median(order[r] SUBSEP sizes[s])
		printf "\n"
	}
}' "$out/scale.txt"
