#!/usr/bin/env bash
# alloc_box_first.sh - Allocator=box-first in select/mesh on a 4tx4t
# torus: a size that no box of the torus fits (5 nodes: 5x1 is longer
# than a ring) runs at once on the most compact set, where a
# contiguous-only allocator would never start it; a size that a free box
# fits gets the box (8 nodes: two rings; then 3 nodes: a line of 3).
. "$(dirname "$0")/lib.sh"
mesh_setup boxfirst

d="$work/c"
if cluster_start "$d" --mesh 4tx4t --allocator box-first; then
    pass "cluster with select/mesh, Allocator=box-first, 4tx4t"
else
    fail "cluster start"; exit 1
fi

# bbox=AxBx1 in the placement comment -> A*B
box_volume() {
    sed -n 's/.*bbox=\([0-9]*\)x\([0-9]*\)x\([0-9]*\) .*/\1 \2 \3/p' |
        awk '{ print $1 * $2 * $3 }'
}

a=$(submit -N5 -t 5 --wrap 'sleep 120')
if wait_state "$a" RUNNING 30; then
    c=$(job_comment "$a")
    # the plus of a centre and its four neighbours: sum 16 over 10 pairs
    case "$c" in
        *"sumdist=16 avgdist=1.60"*)
            pass "-N5 (no 5-node box on 4tx4t) runs at once, compactly: $(job_field "$a" NodeList) $c" ;;
        *) fail "-N5 on $(job_field "$a" NodeList): '$c' (want sumdist 16, a plus)" ;;
    esac
else
    fail "-N5 job $a not RUNNING: box-first must place what fits by count"
fi
sl scancel "$a"
wait_state "$a" CANCELLED 30 || fail "job $a not CANCELLED"
for t in 1 2 3 4 5 6 7 8 9 10; do [ -z "$(running_nodes)" ] && break; sleep 1; done

# 8 nodes: two whole rings; 3 of the two rings left: a line, as compact
# as any 3; the last 5 nodes run at once.
b=$(submit -N8 -t 5 --wrap 'sleep 120')
wait_state "$b" RUNNING 30 || fail "job $b RUNNING"
c3=$(submit -N3 -t 5 --wrap 'sleep 120')
wait_state "$c3" RUNNING 30 || fail "job $c3 RUNNING"
for j in "$b" "$c3"; do
    c=$(job_comment "$j")
    n=$(job_field "$j" NumNodes)
    v=$(echo "$c" | box_volume)
    if [ -n "$v" ] && [ "$v" -eq "$n" ]; then
        pass "-N$n on a box: $(job_field "$j" NodeList) $c"
    else
        fail "-N$n job $j not on a box: '$c'"
    fi
done
e=$(submit -N5 -t 5 --wrap 'sleep 120')
wait_state "$e" RUNNING 30 && pass "-N5 on the last 5 nodes runs: $(job_comment "$e")" \
    || fail "-N5 job $e not RUNNING with 5 nodes free"
no_overlap && pass "no node held by two running jobs" || fail "overlap"
ctld_alive && pass "slurmctld still running" || fail "slurmctld died"
sl scancel "$b" "$c3" "$e"
mesh_finish
