#!/usr/bin/env bash
# topology_mesh.sh - issue 9.2: topology/mesh ranks the nodes along the
# Hilbert curve of mesh.conf, so that the stock select/cons_tres and
# select/linear allocate along it.  Four 4-node jobs on an empty 4x4 must
# each get a compact 2x2 block (name order would give the rows n[0-3],
# n[4-7], ...).  Runs cons_tres and linear; topology_mesh_gres.sh runs the
# case cons_tres-gres: GRES from gres.conf (cluster.sh --gres gpu:2,bw:4:
# bw Count only, gpu with File= links to /dev/null, which 22.05's slurmd
# needs) and jobs with --gres=gpu:1.  It must build no switch records
# (scontrol show topology stays empty).
# Usage: topology_mesh.sh [cons_tres|linear|cons_tres-gres ...]
. "$(dirname "$0")/lib.sh"
mesh_setup topo

# Nodes=n[0-15] on 4x4: n<i> sits at x = i % 4, y = i / 4.
is_2x2() {   # nodelist -> 0 if its 4 nodes form a 2x2 square
    local xs ys
    xs=$(hosts "$1" | sed 's/^n//' | awk '{print $1 % 4}' | sort -un)
    ys=$(hosts "$1" | sed 's/^n//' | awk '{print int($1 / 4)}' | sort -un)
    [ "$(hosts "$1" | wc -l)" -eq 4 ] &&
        [ "$(echo $xs | wc -w)" -eq 2 ] && [ "$(echo $ys | wc -w)" -eq 2 ] &&
        [ $(( $(echo $xs | cut -d' ' -f2) - $(echo $xs | cut -d' ' -f1) )) -eq 1 ] &&
        [ $(( $(echo $ys | cut -d' ' -f2) - $(echo $ys | cut -d' ' -f1) )) -eq 1 ]
}

run_case() {   # label select-type [cluster.sh options]
    local label=$1 sel=$2 d="$work/$1" j jobs=() nl ok=1 order
    shift 2
    printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\nCurve=hilbert\n' \
        >"$work/mesh-$label.conf"
    if ! cluster_start "$d" --select "$sel" --mesh-conf "$work/mesh-$label.conf" \
        --extra-slurm-conf "TopologyPlugin=topology/mesh" "$@"; then
        fail "$label: cluster start"; return
    fi
    # slurmctld's node table follows a Hilbert curve of the 4x4: all 16
    # nodes, each a mesh neighbour of the previous one, starting at n0
    # (name order n0..n15 jumps from n3 to n4).
    order=$(sl scontrol -o show nodes | sed -n 's/^NodeName=\([^ ]*\) .*/\1/p' | tr '\n' ' ')
    if [ "$(echo $order | wc -w)" -eq 16 ] && [ "${order%% *}" = n0 ] &&
        echo $order | tr ' ' '\n' | sed 's/^n//' | awk '
            NR > 1 { dx = $1 % 4 - p % 4; dy = int($1 / 4) - int(p / 4)
                     if (dx * dx + dy * dy != 1) bad = 1 }
            { p = $1; seen[$1]++ } END { exit bad || length(seen) != 16 }'; then
        pass "$label: node table along a Hilbert curve: ${order% }"
    else
        fail "$label: node table order '${order% }' is not a curve through the 4x4"
    fi
    if grep -q 'topology/mesh: .*ranked along the hilbert curve' "$d/log/slurmctld.log"; then
        pass "$label: slurmctld logged the ranking"
    else
        fail "$label: no ranking line in slurmctld.log"
    fi
    if [ -z "$(sl scontrol show topology 2>/dev/null | grep -i switchname)" ]; then
        pass "$label: no switch records"
    else
        fail "$label: switch records: $(sl scontrol show topology)"
    fi
    for j in 1 2 3 4; do
        jobs+=("$(submit -N4 -t 5 --wrap 'sleep 60' "${GRES_OPT[@]}")")
    done
    for j in "${jobs[@]}"; do
        if [ -z "$j" ] || ! wait_state "$j" RUNNING 30; then
            fail "$label: job '$j' did not start"; ok=0; continue
        fi
        nl=$(job_field "$j" NodeList)
        if is_2x2 "$nl"; then
            echo "  job $j: $nl"
        else
            fail "$label: job $j got $nl, not a 2x2 block"; ok=0
        fi
    done
    [ "$ok" -eq 0 ] || pass "$label: four -N4 jobs got four 2x2 blocks"
    no_overlap && pass "$label: no node held twice" || fail "$label: overlap"
    [ "${#GRES_OPT[@]}" -eq 0 ] || gres_checks "$label" "${jobs[@]}"
    sl scancel "${jobs[@]}" 2>/dev/null
    [ "${#GRES_OPT[@]}" -eq 0 ] || gres_env_check "$label"
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1
}

# GRES: every node registered its 2 gpu and 4 bw (none INVAL/drained, as
# the harness once had them), slurmctld hands out GPU indices, and counts
# beyond a node's are refused.  Exclusive nodes (the partition is
# OverSubscribe=EXCLUSIVE) get all of their GRES.
gres_checks() {   # label jobid...
    local label=$1 j bad n out used
    shift
    bad=$(sl sinfo -h -N -o '%N %T %G' | awk '$2 !~ /^(allocated|mixed|idle)$/ || $3 != "gpu:2,bw:4"')
    n=$(sl sinfo -h -N -o '%N' | sort -u | wc -l)
    if [ -z "$bad" ] && [ "$n" -eq 16 ]; then
        pass "$label: all 16 nodes up with Gres=gpu:2,bw:4"
    else
        fail "$label: nodes not all up with gpu:2,bw:4: $bad"
        sl sinfo -N -o '%N %T %G %E' | head -n 20
    fi
    bad=0
    for j in "$@"; do
        # scontrol -d: "Nodes=n[0-1,4-5] CPU_IDs=0 Mem=0 GRES=gpu:2(IDX:0-1),bw(CNT:4)";
        # TresPerNode is gres:gpu:1 in 22.05, gres/gpu:1 since 23.02
        tpn=$(job_field "$j" TresPerNode)
        if [ "$tpn" != gres:gpu:1 ] && [ "$tpn" != gres/gpu:1 ] ||
            ! sl scontrol -d show job "$j" | matches 'GRES=gpu:2(IDX:0-1),bw(CNT:4)'; then
            echo "  job $j: $(sl scontrol -d show job "$j" | grep -i 'tresper\|gres')"
            bad=1
        fi
    done
    used=$(sl sinfo -h -N -O 'NodeList:8,GresUsed:30' | awk '$2 != "gpu:2,bw:4"')
    if [ "$bad" -eq 0 ] && [ -z "$used" ]; then
        pass "$label: each job holds GPUs IDX 0-1 and bw 4 on its nodes; GresUsed full on all 16"
    else
        fail "$label: GRES allocation: $used"
    fi
    for j in gpu:3 bw:5; do
        out=$(cd "$work/jobs" && sl sbatch -N1 --gres=$j -o /dev/null --wrap true 2>&1)
        case "$out" in
            *"Requested node configuration is not available"*)
                pass "$label: --gres=$j refused (nodes have gpu:2,bw:4)" ;;
            *) fail "$label: --gres=$j not refused: $out" ;;
        esac
    done
}

# The stepd side: a batch job on an exclusive node sees both GPUs, a step
# asking for one sees one.
gres_env_check() {   # label
    local label=$1 j out="$work/jobs/gpu-env.out" got
    j=$(submit -N1 --gres=gpu:1 -t 2 -o "$out" \
        --wrap 'echo "job=$SLURM_JOB_GPUS"; srun -n1 --gres=gpu:1 printenv CUDA_VISIBLE_DEVICES | sed "s/^/step=/"')
    if [ -z "$j" ] || ! wait_state "$j" COMPLETED 40; then
        fail "$label: GPU env job '$j' did not complete"; return
    fi
    got=$(tr '\n' ' ' <"$out" 2>/dev/null)
    if [ "$got" = "job=0,1 step=0 " ]; then
        pass "$label: batch job SLURM_JOB_GPUS=0,1, its step CUDA_VISIBLE_DEVICES=0"
    else
        fail "$label: GPU env job output '$got', wanted 'job=0,1 step=0'"
    fi
}

# Cases to run: the arguments (topology_mesh_gres.sh passes cons_tres-gres,
# so that each script stays under a minute), by default cons_tres linear.
[ $# -gt 0 ] || set -- cons_tres linear
for c in "$@"; do
    GRES_OPT=()
    case $c in
        cons_tres)
            run_case cons_tres select/cons_tres --extra-slurm-conf "SelectTypeParameters=CR_Core" ;;
        linear)
            run_case linear select/linear ;;
        cons_tres-gres)
            GRES_OPT=(--gres=gpu:1)
            run_case cons_tres-gres select/cons_tres \
                --extra-slurm-conf "SelectTypeParameters=CR_Core" --gres gpu:2,bw:4 ;;
        *) fail "unknown case '$c'" ;;
    esac
done
mesh_finish
