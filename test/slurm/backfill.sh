#!/usr/bin/env bash
# backfill.sh - (b) under sched/backfill, small jobs that start while a
# large job waits never collide with the large job's reservation: either
# their nodes are outside its SchedNodeList or they end before it starts.
. "$(dirname "$0")/lib.sh"
mesh_setup backfill

d="$work/c"
cluster_start "$d" --allocator mc1x1 || { fail "cluster start"; exit 1; }
big_run=$(submit -N8 -t 2 --wrap 'sleep 600')
wait_state "$big_run" RUNNING 30 || fail "8-node job RUNNING"
blocked=$(submit -N12 -t 3 --wrap 'sleep 600')
# Wait for backfill to plan the blocked job.
end=$((SECONDS + 30)); sched=""
while [ "$SECONDS" -lt "$end" ]; do
    sched=$(job_field "$blocked" SchedNodeList)
    [ -z "$sched" ] || [ "$sched" = "(null)" ] || break
    sleep 0.5
done
bstart=$(job_field "$blocked" StartTime)
if [ -n "$sched" ] && [ "$sched" != "(null)" ]; then
    pass "12-node job $blocked reserved on $sched at $bstart"
else
    fail "12-node job $blocked got no reservation (SchedNodeList '$sched')"
fi
short=$(submit -N2 -t 1 --wrap 'sleep 600')
long=$(submit -N2 -t 30 --wrap 'sleep 600')
# Poll rather than sleep: a loaded CI machine can delay the backfill pass.
wait_state "$short" RUNNING 30 || true
sleep 2
bsec=$(date -d "$bstart" +%s 2>/dev/null || echo 0)
resv=$(hosts "$sched")
started=0
for j in "$short" "$long"; do
    st=$(job_field "$j" JobState)
    if [ "$st" != RUNNING ]; then
        echo "  job $j is $st (reason $(job_field "$j" Reason))"
        continue
    fi
    started=$((started + 1))
    nl=$(job_field "$j" NodeList)
    s=$(date -d "$(job_field "$j" StartTime)" +%s)
    lim=$(( $(job_field "$j" TimeLimit | awk -F: '{print $(NF-1)*60 + $NF + ($(NF-2) ? $(NF-2)*3600 : 0)}') ))
    common=$(comm -12 <(echo "$resv") <(hosts "$nl") | tr '\n' ' ')
    if [ -z "$common" ]; then
        pass "backfilled job $j on $nl, outside the reservation $sched"
    elif [ $((s + lim)) -le "$bsec" ]; then
        pass "backfilled job $j on $nl ends before the reservation starts"
    else
        fail "backfilled job $j on $nl collides with reservation $sched ($common)"
    fi
done
if [ "$(job_field "$short" JobState)" = RUNNING ]; then
    pass "the short 2-node job was backfilled while the 12-node job waits"
else
    fail "the short 2-node job was not backfilled ($(job_field "$short" Reason))"
fi
[ "$(job_field "$blocked" JobState)" = PENDING ] \
    && pass "12-node job still pending" || fail "12-node job state $(job_field "$blocked" JobState)"
no_overlap && pass "no node held by two running jobs" || fail "overlap"
grep -q "JobId=$blocked mode=WILL_RUN" "$d/log/slurmctld.log" \
    && pass "WILL_RUN decisions logged (DebugFlags=SelectType)" \
    || fail "no WILL_RUN line for job $blocked in slurmctld.log"
# Let the big jobs go: the blocked job must start once nodes free up.
sl scancel "$big_run" "$short" "$long"
if wait_state "$blocked" RUNNING 40; then
    pass "12-node job started after the 8-node job ended: $(job_field "$blocked" NodeList)"
else
    fail "12-node job did not start"
fi
mesh_finish
