#!/bin/sh
# genscenario.sh KEYS [NODES] [STEPS] [RULES] — print a large scenario to stdout:
# KEYS keys, NODES nodes with 160 points each, STEPS membership changes
# (a repeating add / fail / recover / remove cycle), and RULES, a YAML
# flow list (default the five rules that have Go peers).
keys=${1:?usage: genscenario.sh KEYS [NODES] [STEPS] [RULES]}
nodes=${2:-100}
steps=${3:-100}
rules=${4:-"[ring, modulo, jump, rendezvous, maglev]"}
cat <<YAML
title: "Scale: $keys keys, $nodes nodes, $steps steps"
seed: 1
keys: $keys
nodes: $nodes
rules: $rules
steps:
YAML
i=0
n=$nodes
while [ "$i" -lt "$steps" ]; do
	case $((i % 4)) in
	0) n=$((n + 1)); echo "  - add: node-$n" ;;
	1) echo "  - fail: random" ;;
	2) echo "  - recover: all" ;;
	3) echo "  - remove: random" ;;
	esac
	i=$((i + 1))
done
