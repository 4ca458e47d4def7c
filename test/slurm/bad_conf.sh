#!/usr/bin/env bash
# bad_conf.sh - (f) a broken or inconsistent mesh.conf stops slurmctld
# with a message naming the file, the line and the problem.  A sparse one
# (issue 12.4: positions outnumber named nodes more than 64 times) with an
# allocator that scans every position is refused with the reason and the
# allocators that suit it (issue 39.7); with mc1x1 it starts, and at the
# limit even mbs starts.
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
    if echo "$line" | matches -E "$want"; then
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

# A sparse mesh with an allocator that scans every position per decision
# is refused, naming the allocators that suit it (found by trying each on
# a sparse probe mesh): mbs is not among them, mc1x1 is.
check_bad sparse_mbs "mesh\.conf:Allocator: mbs scans all 4096 positions per decision, but the mesh names only 16 nodes" \
    "Dimensions=64x64\nNodes=n[0-15]\nAllocator=mbs\n"
line=$(grep -m1 "allocators that work on the free nodes of a sparse mesh" "$work/sparse_mbs/log/slurmctld.log" 2>/dev/null)
if echo "$line" | matches ' mc1x1,' && ! echo "$line" | matches -E '[ ,]mbs(,|$)'; then
    pass "sparse_mbs: ${line#*] }"
else
    fail "sparse_mbs: allocator list: '$line'"
fi

check_sparse() {   # name dims allocator
    local name=$1 d="$work/$1" j
    printf 'Dimensions=%s\nNodes=n[0-15]\nAllocator=%s\n' "$2" "$3" >"$work/$name.conf"
    if ! cluster_start "$d" --mesh-conf "$work/$name.conf" >/dev/null 2>&1; then
        fail "$name: slurmctld did not start with Dimensions=$2 Allocator=$3"
        return
    fi
    pass "$name: slurmctld starts with Dimensions=$2 Allocator=$3"
    j=$(submit -N4 -t 5 --wrap 'sleep 1')
    wait_state "$j" RUNNING 30 || wait_state "$j" COMPLETED 30 &&
        pass "$name: a 4-node job runs on the mesh" ||
        fail "$name: job $j is $(job_field "$j" JobState) ($(job_field "$j" Reason))"
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1
}
# mc1x1 works on the free nodes' box: a sparse mesh is fine; at the limit
# (64 positions per node) the mesh is not sparse, so even mbs starts.
check_sparse sparse 64x64 mc1x1
check_sparse at_limit 32x32 mbs
mesh_finish
