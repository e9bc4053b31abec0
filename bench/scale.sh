#!/bin/sh
# scale.sh — the README's scaling table (issues 17 and 18). Builds
# generated scenarios with the command under GNU time and prints, per
# scenario, the wall time, the peak RSS, the bytes of its output folder,
# whether the default limits accept it, and the ratio of the wall time to
# groupcache's Get loop over the same lookups (keys × states × rules, at
# the same number of nodes), measured in the same run (bench/peers,
# BenchmarkGroupcacheNodes, median of COUNT runs, default 3).
#
# From a base of 10⁶ keys, 100 nodes of 160 points, 100 steps and one
# rule (ring, what groupcache is) it varies one dimension at a time: keys
# 10⁴ … 10⁸, nodes 10 … 10⁴, steps 10 … 10⁴. The steps cycle add a node,
# fail one at random, recover all, remove the added node, so the node
# names stay N + 1 at any step count (bench/genscenario.sh adds a new
# name every four steps, which -max-node-steps refuses at 10⁴ steps).
# Then the issue's two targets, as bench/genscenario.sh writes them (five
# rules: ring, modulo, jump, rendezvous, maglev): 10⁶ keys × 1,000 nodes
# × 100 steps, and 10⁷ keys × 100 nodes × 100 steps.
#
# Every scenario is built with the limits raised (RAISE, below) so that
# each row is measured; the "defaults" column says whether the default
# limits accept it (validate), or which flags they would need. The load
# average is printed before and after: the machine is shared. Files go to
# $OUT (default bench/out/scale, not committed).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/bench/out/scale}
count=${COUNT:-3}
RAISE="-max-keys 1e8 -max-work 1e13 -max-memory 20GiB -max-output 8GiB"
rm -rf "$out"
mkdir -p "$out"
bin=$out/ringreport
(cd "$root" && go build -o "$bin" ./cmd/ringreport)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; $(go version | cut -d' ' -f3-4)"
(cd "$root/bench/peers" && go test -run '^$' -bench 'GroupcacheNodes' -count "$count" .) >"$out/groupcache.txt"

# gc N: the median ns of one groupcache Get at N nodes.
gc() {
	awk -v n="nodes=$1/" '$1 ~ n && /ns\/key/ {
		for (i = 2; i < NF; i++) if ($(i+1) == "ns/key") v[++k] = $i
	} END {
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		print (k % 2) ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
	}' "$out/groupcache.txt"
}

# gen NAME KEYS NODES STEPS: the scaling scenario, one ring rule.
gen() {
	awk -v name="$1" -v k="$2" -v n="$3" -v s="$4" 'BEGIN {
		printf "title: \"Scale: %s keys, %s nodes, %s steps\"\nseed: 1\nkeys: %d\nnodes: %d\nrules: [{rule: ring, vnodes: 160}]\nsteps:\n", k, n, s, k, n
		split("add: extra|fail: random|recover: all|remove: extra", op, "|")
		for (i = 0; i < s; i++) printf "  - %s\n", op[i % 4 + 1]
	}'
}

# run NAME KEYS NODES STEPS RULES: build $out/NAME/NAME.yaml and print a row.
run() {
	name=$1 k=$2 n=$3 s=$4 r=$5
	dir=$out/$name
	defaults=built
	if ! "$bin" validate "$dir/$name.yaml" >/dev/null 2>"$dir/validate.txt"; then
		defaults="refused ($(grep -o 'raise it with -max-[a-z-]*' "$dir/validate.txt" | sed 's/raise it with //' | sort -u | paste -sd, -))"
	fi
	# shellcheck disable=SC2086 # RAISE is a list of flags
	/usr/bin/time -f '%e %M' -o "$dir/time.txt" "$bin" build -q -o "$dir/out" $RAISE "$dir/$name.yaml"
	bytes=$(du -sb "$dir/out/$name" | cut -f1)
	awk -v name="$name" -v k="$k" -v n="$n" -v s="$s" -v r="$r" -v b="$bytes" -v gc="$(gc "$n")" -v d="$defaults" '
	NR == 1 {
		look = k * (s + 1) * r; gs = look * gc / 1e9
		printf "| %s | %.0e | %d | %d | %d | %.2f | %.0f | %.1f | %s | %.3g | %.1f | %.3f |\n", name, k, n, s, r, $1, $2 / 1024, b / 1e6, d, look, gs, $1 / gs
	}' "$dir/time.txt"
}

echo "groupcache Get, ns (median of $count): nodes=10 $(gc 10), 100 $(gc 100), 1000 $(gc 1000), 10000 $(gc 10000)"
echo
echo "| scenario | keys | nodes | steps | rules | wall s | peak MiB | output MB | defaults | lookups | groupcache s | build / groupcache |"
echo "|---|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|"
for row in "keys-1e4 10000 100 100" "keys-1e5 100000 100 100" "base 1000000 100 100" "keys-1e7 10000000 100 100" "keys-1e8 100000000 100 100" \
	"nodes-10 1000000 10 100" "nodes-1e3 1000000 1000 100" "nodes-1e4 1000000 10000 100" \
	"steps-10 1000000 100 10" "steps-1e3 1000000 100 1000" "steps-1e4 1000000 100 10000"; do
	# shellcheck disable=SC2086 # the row's words are its arguments
	set -- $row
	mkdir -p "$out/$1"
	gen "$@" >"$out/$1/$1.yaml"
	run "$@" 1
done
for row in "target-1e3-nodes 1000000 1000 100" "target-1e7-keys 10000000 100 100"; do
	# shellcheck disable=SC2086
	set -- $row
	mkdir -p "$out/$1"
	"$root/bench/genscenario.sh" "$2" "$3" "$4" >"$out/$1/$1.yaml"
	run "$@" 5
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
