#!/usr/bin/env bash
# bad_conf.sh - (f) a broken or inconsistent mesh.conf stops slurmctld
# with a message naming the file, the line and the problem; a valid but
# sparse one (issue 12.4: positions outnumber named nodes more than 64
# times) starts with a warning that names both counts, and one at the
# limit starts without it.
. "$(dirname "$0")/lib.sh"
mesh_setup badconf

check_bad() {   # name expect-regex mesh.conf-text
    local name=$1 want=$2 d="$work/$1" out logs
    printf '%b' "$3" >"$work/$name.conf"
    out=$(cluster_start "$d" --mesh-conf "$work/$name.conf" 2>&1)
    if [ $? -eq 0 ]; then
        fail "$name: slurmctld started with a broken mesh.conf"
        return
    fi
    logs=$(cat "$d/log/slurmctld.log" "$d/log/slurmctld.stdout" 2>/dev/null)
    line=$(echo "$logs" | grep -m1 "fatal: select/mesh")
    if echo "$line" | grep -qE "$want"; then
        pass "$name: ${line#*] }"
    else
        fail "$name: want /$want/, log says: $(echo "$logs" | grep -i fatal | head -3)"
    fi
}

check_bad same_coord "mesh\.conf:4:Coord: node n3 is on the same coordinate as node n0 \\(line 2" \
    "Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\nNodeName=n3 Coord=0,0\n"
check_bad unknown_alloc "mesh\.conf:3:Allocator: unknown allocator \"nosuch\"" \
    "Dimensions=4x4\nNodes=n[0-15]\nAllocator=nosuch\n"
check_bad missing_node "mesh\.conf:2:Nodes: node n1[0-5] is defined in slurm.conf but has no position" \
    "Dimensions=4x4\nNodes=n[0-9]\nAllocator=mc1x1\n"
check_bad unknown_key "mesh\.conf:1:Colour: unknown key" \
    "Colour=red\nDimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\n"
check_bad outside "mesh\.conf:2:Nodes: more node names than mesh positions" \
    "Dimensions=3x3\nNodes=n[0-15]\nAllocator=mc1x1\n"

check_sparse() {   # name dims warn(1|0)
    local name=$1 d="$work/$1" line j
    printf 'Dimensions=%s\nNodes=n[0-15]\nAllocator=mc1x1\n' "$2" >"$work/$name.conf"
    if ! cluster_start "$d" --mesh-conf "$work/$name.conf" >/dev/null 2>&1; then
        fail "$name: slurmctld did not start with Dimensions=$2"
        return
    fi
    line=$(grep -m1 "select/mesh: WARNING: .*positions but only" "$d/log/slurmctld.log")
    if [ "$3" = 1 ]; then
        echo "$line" | grep -q "mesh.conf: the mesh has $(( ${2%x*} * ${2#*x} )) positions but only 16 named nodes" &&
            pass "$name: ${line#*] }" ||
            fail "$name: no sparse-mesh warning for Dimensions=$2: '$line'"
    else
        [ -z "$line" ] && pass "$name: no sparse-mesh warning for Dimensions=$2 (64 positions per node)" ||
            fail "$name: warned for Dimensions=$2: $line"
    fi
    j=$(submit -N4 -t 5 --wrap 'sleep 1')
    wait_state "$j" RUNNING 30 || wait_state "$j" COMPLETED 30 &&
        pass "$name: a 4-node job runs on the sparse mesh" ||
        fail "$name: job $j is $(job_field "$j" JobState) ($(job_field "$j" Reason))"
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1
}
check_sparse sparse 64x64 1
check_sparse at_limit 32x32 0
mesh_finish
