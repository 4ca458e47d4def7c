#!/usr/bin/env bash
# topology_eval_share.sh - issue 51: topology/mesh's placement inside
# cons_tres (Slurm 24.11) where cons_tres shares or takes back resources,
# each case on two 4x4 clusters, stock cons_tres and cons_tres with
# topology/mesh (nodes of 4 CPUs, CR_Core, Allocator=mc1x1,
# Curve=rowmajor, so only eval_nodes can make a box):
#   - core sharing: two -N4 jobs of 2 CPUs per node run at once; under
#     topology/mesh both are 2x2 boxes; no node gives out more CPUs than
#     it has, and the two jobs hold 16 CPUs in all;
#   - backfill's start estimate: a 16-node job behind them gets one
#     (squeue --start) on both clusters;
#   - preemption (preempt/partition_prio, REQUEUE): 16 one-node jobs of a
#     low partition fill the machine, a -N4 job of a high one preempts
#     exactly 4 of them and runs; no node is held by two running jobs.
#     Under topology/mesh it runs where stock puts it: cons_tres frees the
#     candidates one at a time in Slurm's order and asks eval_nodes after
#     each (cons_tres/job_test.c, _run_now), so the mesh allocator only
#     ever sees the nodes of the first victims (a row here), and cannot
#     choose victims for a box as select/mesh does (doc/topology-mesh.md).
. "$(dirname "$0")/lib.sh"
mesh_not_on 2205 "topology_p_eval_nodes exists since Slurm 24.05"
mesh_setup topo-share

# Sum of CPUAlloc over the nodes; fails if a node gives out more than it has.
cpus_alloc() {
    sl scontrol -o show node | awk '
        { a = t = -1
          for (i = 1; i <= NF; i++) {
              if ($i ~ /^CPUAlloc=/) a = substr($i, 10)
              if ($i ~ /^CPUTot=/) t = substr($i, 8)
          }
          if (a < 0 || t < 0 || a > t) bad = 1; s += a }
        END { print s; exit bad }'
}
me=$(id -un)
declare -A got

run_cluster() {   # label [cluster.sh options]
    local label=$1 d="$work/$1" a b c hi low=() i n start
    shift
    printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\nCurve=rowmajor\n' \
        >"$work/mesh-$label.conf"
    if ! cluster_start "$d" --select select/cons_tres --mesh-conf "$work/mesh-$label.conf" \
        --node-params "CPUs=4 RealMemory=4000" \
        --extra-slurm-conf "SlurmdParameters=config_overrides" \
        --extra-slurm-conf "SelectTypeParameters=CR_Core" \
        --extra-slurm-conf "PreemptType=preempt/partition_prio" \
        --extra-slurm-conf "PreemptMode=REQUEUE" \
        --extra-slurm-conf "PartitionName=low Nodes=n[0-15] PriorityTier=1 OverSubscribe=NO MaxTime=INFINITE State=UP Default=YES" \
        --extra-slurm-conf "PartitionName=high Nodes=n[0-15] PriorityTier=10 OverSubscribe=NO MaxTime=INFINITE State=UP" \
        "$@"; then
        fail "$label: cluster start"; return 1
    fi

    # Core sharing, then backfill's estimate for a job behind.
    a=$(submit -p high -N4 --ntasks-per-node=1 -c 2 -t 5 --wrap 'sleep 600')
    b=$(submit -p high -N4 --ntasks-per-node=1 -c 2 -t 5 --wrap 'sleep 600')
    if wait_state "$a" RUNNING 30 && wait_state "$b" RUNNING 30; then
        got[$label,share]="$(job_field "$a" NodeList) $(job_field "$b" NodeList)"
        n=$(cpus_alloc) && [ "$n" -eq 16 ] &&
            pass "$label: two jobs of 2 CPUs per node on 4 nodes hold 16 CPUs, no node over its 4" ||
            fail "$label: CPUs allocated: $n (want 16, none over a node's 4)"
    else
        fail "$label: sharing jobs $a $b not RUNNING"
    fi
    c=$(submit -p high -N16 --exclusive -t 5 --wrap 'sleep 1')
    wait_until 30 sh -c "SLURM_CONF=$conf squeue -h -j $c --start -o %S 2>/dev/null | grep '^20' >/dev/null" &&
        start=$(sl squeue -h -j "$c" --start -o %S) || start=none
    got[$label,start]=$start
    [ "$start" != none ] && pass "$label: backfill gives the 16-node job a start: $start" ||
        fail "$label: no start estimate for the 16-node job ($(job_field "$c" Reason))"
    sl scancel "$a" "$b" "$c" 2>/dev/null
    wait_until 60 sh -c "[ -z \"\$(SLURM_CONF=$conf squeue -h -t R,CG,PD 2>/dev/null)\" ]" ||
        fail "$label: sharing jobs did not end"

    # Preemption: the low partition fills the machine.
    for i in $(seq 16); do
        low+=("$(submit -p low -N1 --exclusive -t 10 --requeue --wrap "sleep 600")")
    done
    wait_until 60 sh -c "[ \$(SLURM_CONF=$conf squeue -h -t R -p low | wc -l) -eq 16 ]" ||
        fail "$label: 16 low jobs not RUNNING"
    hi=$(submit -p high -N4 --exclusive -t 5 --wrap 'sleep 600')
    if wait_state "$hi" RUNNING 60; then
        got[$label,preempt]=$(job_field "$hi" NodeList)
        sleep 2
        n=$(sl squeue -h -t R -p low | wc -l)
        [ "$n" -eq 12 ] && pass "$label: the -N4 high job preempted exactly 4 low jobs" ||
            fail "$label: $n low jobs still RUNNING (want 12)"
        no_overlap && pass "$label: no node held by two running jobs after preemption" ||
            fail "$label: overlap after preemption"
    else
        fail "$label: high job $hi not RUNNING ($(job_field "$hi" Reason))"
    fi
    ctld_alive && pass "$label: slurmctld still running" || fail "$label: slurmctld died"
    sl scancel -u "$me" 2>/dev/null
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1
}

run_cluster stock
run_cluster mesh --extra-slurm-conf "TopologyPlugin=topology/mesh"

printf '  %-8s %-30s %s\n' case stock topology/mesh
for k in share start preempt; do
    printf '  %-8s %-30s %s\n' "$k" "${got[stock,$k]:-none}" "${got[mesh,$k]:-none}"
done
n=0
for nl in ${got[mesh,share]:-}; do mesh4_is_square "$nl" && n=$((n + 1)); done
[ "$n" -eq 2 ] && pass "mesh: both core-sharing jobs are 2x2 boxes: ${got[mesh,share]}" ||
    fail "mesh: $n of 2 core-sharing jobs are 2x2 boxes: '${got[mesh,share]:-}'"
t=${got[mesh,preempt]:-}
[ -n "$t" ] && [ "$t" = "${got[stock,preempt]:-}" ] &&
    pass "mesh: the preempting job runs on the nodes cons_tres freed in its order, as stock: $t" ||
    fail "mesh: the preempting job got '$t', stock '${got[stock,preempt]:-}'"
mesh_finish
