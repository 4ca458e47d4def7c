#!/usr/bin/env bash
# suspend.sh - a suspended job keeps its nodes: no other job is placed on
# them while it is suspended, and resuming it never overlaps anything.
. "$(dirname "$0")/lib.sh"
mesh_setup suspend

d="$work/c"
cluster_start "$d" --allocator mc1x1 || { fail "cluster start"; exit 1; }
a=$(submit -N8 -t 5 --wrap 'sleep 600')
wait_state "$a" RUNNING 30 || fail "job $a RUNNING"
a_nodes=$(hosts "$(job_field "$a" NodeList)")
sl scontrol suspend "$a" && wait_state "$a" SUSPENDED 15 \
    && pass "job $a (8 nodes) suspended" || fail "suspend $a"
b=$(submit -N8 -t 5 --wrap 'sleep 600')
wait_state "$b" RUNNING 30 || fail "job $b RUNNING"
big=$(submit -N4 -t 5 --wrap 'sleep 600')
b_nodes=$(hosts "$(job_field "$b" NodeList)")
shared=$(comm -12 <(echo "$a_nodes") <(echo "$b_nodes"))
[ -z "$shared" ] && pass "job $b got the 8 free nodes, none of suspended job $a's" \
    || fail "job $b placed on suspended job $a's nodes: $shared"
sleep 3
[ "$(job_field "$big" JobState)" = PENDING ] \
    && pass "a 4-node job waits: the only idle-looking nodes are the suspended job's ($(job_field "$big" Reason))" \
    || fail "4-node job is $(job_field "$big" JobState) on $(job_field "$big" NodeList)"
sl scontrol resume "$a" && wait_state "$a" RUNNING 15 \
    && pass "job $a resumed" || fail "resume $a"
no_overlap && pass "no node held by two running jobs after resume" || fail "overlap after resume"
ctld_alive && pass "slurmctld still running" || fail "slurmctld died"
mesh_finish
