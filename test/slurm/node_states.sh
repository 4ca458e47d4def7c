#!/usr/bin/env bash
# node_states.sh - (d) DOWN and DRAIN nodes are never allocated.
. "$(dirname "$0")/lib.sh"
mesh_setup states

d="$work/c"
cluster_start "$d" --allocator mc1x1 || { fail "cluster start"; exit 1; }
sl scontrol update NodeName=n5 State=DRAIN Reason=test-drain
sl scontrol update NodeName=n10 State=DOWN Reason=test-down
sl scontrol update NodeName=n0 State=DRAIN Reason=test-drain
sleep 1
ids=()
for n in 4 4 3 2; do ids+=("$(submit -N$n -t 5 --wrap 'sleep 600')"); done
big=$(submit -N14 -t 5 --wrap 'sleep 600')
for j in "${ids[@]}"; do
    wait_state "$j" RUNNING 30 || fail "job $j RUNNING"
done
bad=$(running_nodes | awk '$1 == "n0" || $1 == "n5" || $1 == "n10"')
[ -z "$bad" ] && pass "13 nodes allocated, none of n0 (drain) n5 (drain) n10 (down): $(running_nodes | awk '{print $1}' | tr '\n' ' ')" \
    || fail "unavailable nodes allocated: $bad"
no_overlap && pass "no overlap" || fail "overlap"
[ "$(job_field "$big" JobState)" = PENDING ] && pass "14-node job pending on 13 usable nodes ($(job_field "$big" Reason))" \
    || fail "14-node job is $(job_field "$big" JobState)"
map=$(SLURM_CONF=$conf "$SMESH" show mesh)
echo "$map" | matches '^  y=0 *x' && echo "$map" | matches '^  y=2 *..X' \
    && pass "smesh shows drained/down nodes" || fail "smesh map: $map"
echo "$map" | sed 's/^/    /'
mesh_finish
