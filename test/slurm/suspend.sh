#!/usr/bin/env bash
# suspend.sh - a suspended job keeps its nodes under select/mesh: no other
# job is placed on them while it is suspended (scontrol suspend, an admin
# suspend), and resuming it never overlaps anything.  select/linear runs
# the same steps side by side: it hands an admin-suspended job's nodes to
# the next job, so after resume two jobs run on the same nodes; both
# outcomes are printed and checked, since doc/select-mesh.md states them.
. "$(dirname "$0")/lib.sh"
mesh_setup suspend

M="$work/mesh" L="$work/linear"
start_bg "$M" --allocator mc1x1
start_bg "$L" --select select/linear
wait_started || { mesh_finish; exit 1; }

# run_case DIR: suspend an 8-node job, then an 8-node and a 4-node job;
# writes DIR.res: "shared=<nodes of both> small=<state> overlap=<0|1>".
run_case() {
    local d=$1 a b big a_nodes b_nodes shared ov=0
    conf=$d/etc/slurm.conf
    a=$(submit -N8 -t 5 --wrap 'sleep 600')
    wait_state "$a" RUNNING 30 || fail "${d##*/}: job $a RUNNING"
    a_nodes=$(hosts "$(job_field "$a" NodeList)")
    sl scontrol suspend "$a" && wait_state "$a" SUSPENDED 15 \
        || fail "${d##*/}: suspend $a"
    b=$(submit -N8 -t 5 --wrap 'sleep 600')
    wait_state "$b" RUNNING 30 || fail "${d##*/}: job $b RUNNING"
    big=$(submit -N4 -t 5 --wrap 'sleep 600')
    # select/linear starts it on the suspended job's nodes, select/mesh
    # must not: up to 15 s for it to start (a loaded machine is slow).
    wait_state "$big" RUNNING 15 >/dev/null || true
    b_nodes=$(hosts "$(job_field "$b" NodeList)")
    shared=$(comm -12 <(echo "$a_nodes") <(sort <(echo "$b_nodes"; hosts "$(job_field "$big" NodeList)")) | paste -sd,)
    sl scontrol resume "$a" && wait_state "$a" RUNNING 15 || fail "${d##*/}: resume $a"
    no_overlap >/dev/null || ov=1
    echo "shared=${shared:-none} small=$(job_field "$big" JobState) overlap=$ov" >"$d.res"
    echo "  ${d##*/}: suspended job $a on $(job_field "$a" NodeList); nodes given to other jobs: ${shared:-none}; 4-node job $(job_field "$big" JobState); after resume, nodes held twice: $([ $ov -eq 1 ] && echo yes || echo no)"
    ctld_alive || fail "${d##*/}: slurmctld died"
}
run_case "$M"
run_case "$L"
case "$(cat "$M.res")" in
    "shared=none small=PENDING overlap=0")
        pass "select/mesh keeps the suspended job's nodes: none given away, the 4-node job waits, no overlap after resume" ;;
    *) fail "select/mesh: $(cat "$M.res")" ;;
esac
case "$(cat "$L.res")" in
    "shared=none"*) fail "select/linear kept the suspended job's nodes ($(cat "$L.res")): doc/select-mesh.md says it gives them away" ;;
    *"overlap=1") pass "select/linear gives the suspended job's nodes away and two jobs share nodes after resume, as doc/select-mesh.md says" ;;
    *) fail "select/linear: $(cat "$L.res")" ;;
esac
mesh_finish
