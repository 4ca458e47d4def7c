#!/usr/bin/env bash
# topology_mesh.sh - issue 9.2: topology/mesh ranks the nodes along the
# Hilbert curve of mesh.conf, so that the stock select/cons_tres and
# select/linear allocate along it.  Four 4-node jobs on an empty 4x4 must
# each get a compact 2x2 block (name order would give the rows n[0-3],
# n[4-7], ...).  Runs cons_tres and linear.  It must build no switch
# records (scontrol show topology stays empty).  NOT YET: the GRES case
# (gres.conf Count only) - see doc/topology-mesh.md.
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
    sl scancel "${jobs[@]}" 2>/dev/null
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1
}

GRES_OPT=()
run_case cons_tres select/cons_tres --extra-slurm-conf "SelectTypeParameters=CR_Core"
run_case linear select/linear
mesh_finish
