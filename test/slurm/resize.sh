#!/usr/bin/env bash
# resize.sh - shrinking a running job (scontrol update NumNodes=) releases
# exactly the dropped nodes: a new job may use them, never the kept ones.
. "$(dirname "$0")/lib.sh"
mesh_setup resize

d="$work/c"
cluster_start "$d" --allocator mc1x1 || { fail "cluster start"; exit 1; }
a=$(submit -N8 -t 5 --wrap 'sleep 600')
wait_state "$a" RUNNING 30 || fail "job $a RUNNING"
sl scontrol update JobId="$a" NumNodes=4 >/dev/null 2>&1
sleep 1
kept=$(hosts "$(job_field "$a" NodeList)")
[ "$(echo "$kept" | wc -l)" -eq 4 ] && pass "job $a shrunk to 4 nodes: $(echo $kept)" \
    || fail "job $a holds: $(echo $kept)"
b=$(submit -N12 -t 5 --wrap 'sleep 600')
wait_state "$b" RUNNING 30 && pass "a 12-node job starts on the 16 - 4 free nodes" \
    || fail "12-node job $b is $(job_field "$b" JobState) ($(job_field "$b" Reason))"
b_nodes=$(hosts "$(job_field "$b" NodeList)")
shared=$(comm -12 <(echo "$kept") <(echo "$b_nodes"))
[ -z "$shared" ] && pass "none of job $a's kept nodes given to job $b" \
    || fail "job $b got kept nodes: $shared"
no_overlap && pass "no node held by two running jobs" || fail "overlap"
ctld_alive && pass "slurmctld still running" || fail "slurmctld died"
mesh_finish
