#!/usr/bin/env bash
# restart.sh - (c) after a slurmctld restart (and a reconfigure) with
# running jobs, new jobs never overlap the running ones: the plugin
# rebuilds its usage from the job list.
. "$(dirname "$0")/lib.sh"
mesh_setup restart

d="$work/c"
cluster_start "$d" --allocator mc1x1 || { fail "cluster start"; exit 1; }
a=$(submit -N4 -t 10 --wrap 'sleep 600')
b=$(submit -N5 -t 10 --wrap 'sleep 600')
wait_state "$a" RUNNING 30 && wait_state "$b" RUNNING 30 \
    && pass "jobs $a, $b running on $(job_field "$a" NodeList) $(job_field "$b" NodeList)" \
    || fail "first jobs RUNNING"
before=$(job_comment "$a")
if "$CLUSTER" restart-ctld --dir "$d" --timeout 60 >/dev/null 2>&1; then
    pass "slurmctld restarted"
else
    fail "slurmctld restart"; exit 1
fi
[ "$(job_field "$a" JobState)" = RUNNING ] && [ "$(job_field "$b" JobState)" = RUNNING ] \
    && pass "jobs survive the restart" || fail "jobs lost by restart"
[ "$(job_comment "$a")" = "$before" ] && pass "SystemComment survives: $before" \
    || fail "SystemComment changed: '$before' -> '$(job_comment "$a")'"
grep -q "usage rebuilt from 2 running" "$d/log/slurmctld.log" \
    && pass "usage rebuilt from the 2 running jobs" || fail "no rebuild line in log"
c=$(submit -N4 -t 10 --wrap 'sleep 600')
e=$(submit -N1 -t 10 --wrap 'sleep 600')
wait_state "$c" RUNNING 30 && wait_state "$e" RUNNING 30 \
    && pass "new jobs $c, $e running on $(job_field "$c" NodeList) $(job_field "$e" NodeList)" \
    || fail "new jobs RUNNING"
no_overlap && pass "no overlap after restart" || fail "overlap after restart"
sl scontrol reconfigure && pass "scontrol reconfigure" || fail "scontrol reconfigure"
sleep 2
f=$(submit -N2 -t 10 --wrap 'sleep 600')
wait_state "$f" RUNNING 30 && pass "job $f running on $(job_field "$f" NodeList) after reconfigure" \
    || fail "job $f RUNNING after reconfigure"
no_overlap && pass "no overlap after reconfigure" || fail "overlap after reconfigure"
g=$(submit -N1 -t 10 --wrap 'sleep 600')
sleep 3
[ "$(job_field "$g" JobState)" = PENDING ] \
    && pass "a 1-node job waits: the mesh is full ($(job_field "$g" Reason))" \
    || fail "job $g is $(job_field "$g" JobState) on a full mesh"
mesh_finish
