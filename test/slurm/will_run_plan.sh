#!/usr/bin/env bash
# will_run_plan.sh - WILL_RUN start times come from the earliest-start
# planner (mesh_plan_earliest, issues 7 and 10): on a 4x4 mesh with the
# diagonal n[0,5,10,15] free, job A on six nodes ending first and job B on
# six nodes ending later, laid out so that no 2x4 or 4x2 box is free until
# B ends:
#   -N4            now (the diagonal)
#   -N8, -N10      A's end (counting suffices)
#   -N12           B's end: it must wait for both running jobs
#   --contiguous -N8
#                  B's end, although 10 nodes are free at A's end: the
#                  start time follows the placement, not a node count
#   -N17           refused
# checked with sbatch --test-only (job_start_data: the WILL_RUN start
# when nothing else is pending) and with the backfill plan of a pending
# -N12 job (squeue --start).  Nothing changes while planning.
. "$(dirname "$0")/lib.sh"
mesh_setup will_run_plan

d="$work/c"
cluster_start "$d" --allocator mc1x1 || { fail "cluster start"; exit 1; }

# n(x,y) = n[x + 4y].  B's n9 = (1,2) and n3 = (3,0) block every 2x4 and
# 4x2 box of the mesh.
a=$(submit -w 'n[1-2,6-7,11,14]' -N6 -t 10 --wrap 'sleep 600')
b=$(submit -w 'n[3-4,8-9,12-13]' -N6 -t 20 --wrap 'sleep 600')
wait_state "$a" RUNNING 30 || fail "job A RUNNING"
wait_state "$b" RUNNING 30 || fail "job B RUNNING"
a_end=$(job_field "$a" EndTime)
b_end=$(job_field "$b" EndTime)
echo "  A=$a on $(job_field "$a" NodeList) ends $a_end; B=$b on $(job_field "$b" NodeList) ends $b_end"
[ "$a_end" != "$b_end" ] || fail "A and B end together ($a_end): the test needs them apart"

# test_only ARGS...: "START NODES" from sbatch --test-only, or "refused:
# MESSAGE".
test_only() {
    local out re=' to start at ([^ ]+) using .* on nodes ([^ ]+)'
    out=$(cd "$work/jobs" && sl sbatch --test-only -o /dev/null -t 5 "$@" \
        --wrap true 2>&1)
    if [[ $out =~ $re ]]; then
        echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
    else
        echo "refused: $out" | tr '\n' ' '
    fi
}

expect_start() {   # label expected-time args...
    local label=$1 want=$2 got
    shift 2
    got=$(test_only "$@")
    if [ "${got%% *}" = "$want" ]; then
        pass "$label: starts $want on ${got#* }"
    else
        fail "$label: '$got', expected start $want"
    fi
}

before=$(date +%s)
got=$(test_only -N4)
after=$(date +%s)
gs=$(date -d "${got%% *}" +%s 2>/dev/null || echo 0)
if [ "$gs" -ge "$before" ] && [ "$gs" -le "$after" ] &&
   [ "$(hosts "${got#* }" | tr '\n' ' ')" = "n0 n10 n15 n5 " ]; then
    pass "-N4: starts now on the free diagonal ${got#* }"
else
    fail "-N4: '$got', expected now ($before..$after) on n[0,5,10,15]"
fi
expect_start "-N8" "$a_end" -N8
expect_start "-N10 (all nodes free at A's end)" "$a_end" -N10
expect_start "-N12 waits for both running jobs" "$b_end" -N12
expect_start "--contiguous -N8 (no free box until B ends)" "$b_end" --contiguous -N8
got=$(test_only -N17)
case "$got" in
    refused:*) pass "-N17 $got" ;;
    *) fail "-N17: '$got'" ;;
esac

# Backfill's plan for a pending job is the same answer.
blocked=$(submit -N12 -t 5 --wrap 'sleep 600')
end=$((SECONDS + 30)); st=""
while [ "$SECONDS" -lt "$end" ]; do
    st=$(sl squeue -h -j "$blocked" --start -o '%S')
    [ -z "$st" ] || [ "$st" = N/A ] || break
    sleep 0.5
done
[ "$st" = "$b_end" ] && pass "backfill plans the pending -N12 job $blocked at B's end $st" \
    || fail "backfill start of the pending -N12 job: '$st', expected $b_end"
grep -q "JobId=$blocked mode=WILL_RUN.*start=$(date -d "$b_end" +%s)" \
    "$d/log/slurmctld.log" \
    && pass "slurmctld.log: WILL_RUN for $blocked answered start=$(date -d "$b_end" +%s)" \
    || fail "no WILL_RUN line with start=$(date -d "$b_end" +%s) for job $blocked"

# Planning changed nothing: A and B as they were, and a 4-node job still
# starts on the diagonal (before B's end, so backfill may start it).
[ "$(job_field "$a" JobState) $(job_field "$b" JobState)" = "RUNNING RUNNING" ] \
    && pass "A and B still running" || fail "A/B state changed"
small=$(submit -N4 -t 5 --wrap 'sleep 600')
if wait_state "$small" RUNNING 30; then
    nl=$(job_field "$small" NodeList)
    [ "$(hosts "$nl" | tr '\n' ' ')" = "n0 n10 n15 n5 " ] \
        && pass "a real -N4 job starts on the diagonal $nl" \
        || fail "-N4 job on $nl"
else
    fail "-N4 job did not start"
fi
[ "$(job_field "$blocked" JobState)" = PENDING ] \
    && pass "-N12 job still pending" || fail "-N12 job $(job_field "$blocked" JobState)"
# DebugFlags=SelectType logs a job's WILL_RUN answer only when it
# changes (issue 12.5).  Backfill runs again (bf_interval=1) once job
# state has changed: each held submission below makes a cycle that asks
# WILL_RUN for the pending job again, with the same answer, and no two
# consecutive lines for it may repeat an answer.
c0=$(sl sdiag | awk -F: '/Total backfilled jobs \(since last slurm start\)/ {f=1} /Total cycles/ && f {print $2+0; exit}')
for i in 1 2 3 4 5; do
    submit -H -N1 -t 1 --wrap true >/dev/null
    sleep 1.5
done
c1=$(sl sdiag | awk -F: '/Total backfilled jobs \(since last slurm start\)/ {f=1} /Total cycles/ && f {print $2+0; exit}')
grep "JobId=$blocked mode=WILL_RUN" "$d/log/slurmctld.log" \
    | sed -e 's/.*-> //' -e 's/ repeats_not_logged=.*//' >"$work/answers"
n_lines=$(wc -l <"$work/answers")
n_repeats=$(uniq -d "$work/answers" | wc -l)
[ $((c1 - c0)) -ge 3 ] && [ "$n_lines" -ge 1 ] && [ "$n_repeats" -eq 0 ] \
    && pass "$((c1 - c0)) backfill cycles, $n_lines WILL_RUN line(s) for $blocked, none repeating the one before" \
    || fail "backfill cycles $c0 -> $c1, $n_lines lines for $blocked, $n_repeats repeated"
no_overlap && pass "no node held by two running jobs" || fail "overlap"
ctld_alive && pass "slurmctld still running" || fail "slurmctld died"
mesh_finish
