#!/usr/bin/env bash
# topology_eval.sh - issue 51: on Slurm 24.11, topology/mesh chooses each
# job's nodes inside stock select/cons_tres (topology_p_eval_nodes) with
# mesh.conf's allocator, and cons_tres still accounts cores and GPUs.
#
# The same jobs run on two clusters of 16 nodes (4x4 mesh, CPUs=1, two
# GPUs per node, cons_tres CR_Core): "stock" (no topology plugin: name
# order, which on this mesh is row-major) and "mesh" (topology/mesh,
# Allocator=mc1x1, Curve=rowmajor, so the ranking alone would give the
# same rows as stock: a box can only come from eval_nodes).  Each job runs
# on an empty machine, then four -N4 jobs fill it.  Per job the script
# prints both placements and their mean pairwise distance; it asserts that
# under topology/mesh every job is a box with sides that differ by at
# most one (a 2x2 square or an adjacent pair, not a row), that the GPUs
# are allocated, that -w's node is in the job, and that no node is held
# twice.
. "$(dirname "$0")/lib.sh"
mesh_not_on 2205 "topology_p_eval_nodes exists since Slurm 24.05"
mesh_setup topo-eval

# n<i> sits at x = i % 4, y = i / 4.
is_box() {   # nodelist -> 0 if its nodes fill their bounding box and
             # its sides differ by at most one (2x2, 1x2; not a 1x4 row)
    mesh4_coords "$1" | awk '
        { n++; if (NR == 1 || $1 < x0) x0 = $1; if (NR == 1 || $1 > x1) x1 = $1
          if (NR == 1 || $2 < y0) y0 = $2; if (NR == 1 || $2 > y1) y1 = $2 }
        END { w = x1 - x0 + 1; h = y1 - y0 + 1
              exit !(n > 0 && n == w * h && w - h <= 1 && h - w <= 1) }'
}
mean_dist() {   # nodelist -> mean pairwise Manhattan distance
    mesh4_coords "$1" | awk '{ x[NR] = $1; y[NR] = $2 }
        END { for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) {
                  d = x[i] - x[j]; e = y[i] - y[j]
                  s += (d < 0 ? -d : d) + (e < 0 ? -e : e); p++ }
              printf "%.2f\n", p ? s / p : 0 }'
}

# The jobs, each alone on the empty machine: label|sbatch options.
JOBS=(
    "N4|-N4"
    "n4|-n4"
    "w5|-N4 -w n5"
    "contiguous|-N4 --contiguous"
    "gres|-N4 --gres=gpu:1"
    "gpus-per-node|-N2 --gpus-per-node=2"
    "gpus|--gpus=4"
    "mem|-n2 --mem-per-cpu=600"
)
declare -A placed

run_cluster() {   # label [cluster.sh options]
    local label=$1 d="$work/$1" spec name opts j nl jobs=()
    shift
    printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\nCurve=rowmajor\n' \
        >"$work/mesh-$label.conf"
    if ! cluster_start "$d" --select select/cons_tres --mesh-conf "$work/mesh-$label.conf" \
        --gres gpu:2 --extra-slurm-conf "SelectTypeParameters=CR_Core" "$@"; then
        fail "$label: cluster start"; return 1
    fi
    for spec in "${JOBS[@]}"; do
        name=${spec%%|*}
        opts=${spec#*|}
        # shellcheck disable=SC2086
        j=$(submit $opts -t 5 --wrap 'sleep 60')
        if [ -z "$j" ] || ! wait_state "$j" RUNNING 30; then
            fail "$label $name: job '$j' ($opts) did not start"
            placed[$label,$name]=none
        else
            nl=$(job_field "$j" NodeList)
            placed[$label,$name]=$nl
            if [ "$name" = gres ] || [ "$name" = gpus-per-node ] || [ "$name" = gpus ]; then
                placed[$label,$name,gres]=$(sl scontrol -d show job "$j" |
                    grep -o 'GRES=gpu[^ ]*' | sort | uniq -c | tr -s ' ' | tr '\n' ';')
            fi
        fi
        sl scancel "$j" 2>/dev/null
        wait_until 30 sh -c "[ -z \"\$(SLURM_CONF=$conf squeue -h -j $j -t R,CG 2>/dev/null)\" ]" ||
            fail "$label $name: job $j did not end"
    done
    for j in 1 2 3 4; do
        jobs+=("$(submit -N4 -t 5 --wrap 'sleep 60')")
    done
    placed[$label,fill]=
    for j in "${jobs[@]}"; do
        if [ -z "$j" ] || ! wait_state "$j" RUNNING 30; then
            fail "$label fill: job '$j' did not start"; continue
        fi
        placed[$label,fill]+="$(job_field "$j" NodeList) "
    done
    no_overlap && pass "$label: fill: no node held twice" || fail "$label: fill: overlap"
    sl scancel "${jobs[@]}" 2>/dev/null
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1
}

run_cluster stock
run_cluster mesh --extra-slurm-conf "TopologyPlugin=topology/mesh"

if grep -q 'topology/mesh: .*placed by mc1x1' "$work/mesh/log/slurmctld.log"; then
    pass "mesh: slurmctld logged placement by mc1x1"
else
    fail "mesh: no 'placed by mc1x1' line in slurmctld.log"
fi

printf '  %-14s %-22s %-6s %-22s %-6s\n' job stock dist topology/mesh dist
for spec in "${JOBS[@]}"; do
    name=${spec%%|*}
    s=${placed[stock,$name]:-none}
    m=${placed[mesh,$name]:-none}
    printf '  %-14s %-22s %-6s %-22s %-6s\n' "$name" "$s" \
        "$([ "$s" = none ] || mean_dist "$s")" "$m" "$([ "$m" = none ] || mean_dist "$m")"
    [ "$m" != none ] || continue
    if is_box "$m"; then
        pass "mesh $name (${spec#*|}): $m is a square box"
    else
        fail "mesh $name (${spec#*|}): $m is not a square box"
    fi
done
for name in gres gpus-per-node gpus; do
    g=${placed[mesh,$name,gres]:-}
    # the partition is OverSubscribe=EXCLUSIVE: a job gets all GPUs of
    # its nodes
    want="GRES=gpu:2(IDX:0-1)"
    if [ -n "$g" ] && [ "$g" = "${placed[stock,$name,gres]:-}" ] && [[ $g == *"$want"* ]]; then
        pass "mesh $name: cons_tres allocated the GPUs as stock does: $g"
    else
        fail "mesh $name: GPUs '$g', stock '${placed[stock,$name,gres]:-}', wanted $want"
    fi
done
if hosts "${placed[mesh,w5]:-}" | matches -x n5; then
    pass "mesh w5: the required node n5 is in the job"
else
    fail "mesh w5: n5 not in '${placed[mesh,w5]:-}'"
fi
n=$(hosts "${placed[mesh,gpus]:-}" | wc -l)
[ "$n" -eq 2 ] && pass "mesh gpus: --gpus=4 on 2-GPU nodes took 2 nodes" ||
    fail "mesh gpus: --gpus=4 took $n nodes"
n=$(hosts "${placed[mesh,n4]:-}" | wc -l)
[ "$n" -eq 4 ] && pass "mesh n4: -n4 on 1-CPU nodes took 4 nodes" ||
    fail "mesh n4: -n4 took $n nodes"
echo "  fill: stock ${placed[stock,fill]}"
echo "  fill: mesh  ${placed[mesh,fill]}"
boxes=0
for nl in ${placed[mesh,fill]}; do
    is_box "$nl" && boxes=$((boxes + 1))
done
[ "$boxes" -eq 4 ] && pass "mesh fill: four -N4 jobs, four 2x2 boxes" ||
    fail "mesh fill: $boxes of 4 jobs are boxes"
mesh_finish
