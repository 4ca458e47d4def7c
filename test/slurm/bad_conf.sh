#!/usr/bin/env bash
# bad_conf.sh - (f) a broken or inconsistent mesh.conf stops slurmctld
# with a message naming the file, the line and the problem.
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
mesh_finish
