#!/usr/bin/env bash
# impossible.sh - (e) requests no placement can satisfy are refused the
# usual Slurm way and the controller keeps running.
. "$(dirname "$0")/lib.sh"
mesh_setup impossible

d="$work/c"
cluster_start "$d" --allocator mc1x1 \
    --extra-slurm-conf EnforcePartLimits=ALL || { fail "cluster start"; exit 1; }
out=$(cd "$work/jobs" && sl sbatch -N17 --wrap 'sleep 1' 2>&1); rc=$?
[ "$rc" -ne 0 ] && echo "$out" | grep >/dev/null "Node count specification invalid\|Requested node configuration is not available\|More processors requested than permitted" \
    && pass "-N17 on 16 nodes refused: $out" || fail "-N17: rc=$rc $out"
# A contiguous 5-node sub-mesh does not exist in 4x4 (5 = 5x1 does not fit).
out=$(cd "$work/jobs" && sl sbatch -N5 --contiguous --wrap 'sleep 1' 2>&1); rc=$?
[ "$rc" -ne 0 ] && echo "$out" | grep >/dev/null "Requested node configuration is not available" \
    && pass "--contiguous -N5 refused: $out" || fail "--contiguous -N5: rc=$rc $out"
out=$(cd "$work/jobs" && sl sbatch -N3 -w n0,n1,n2,n3 --wrap 'sleep 1' 2>&1); rc=$?
if [ "$mesh_series" = 2205 ]; then
    [ "$rc" -ne 0 ] && pass "-N3 with 4 required nodes refused: $out" || fail "-w 4 nodes -N3: rc=$rc $out"
else	# since 23.02 --nodelist may name more nodes than -N: 3 of those 4
    w=${out##* }
    if [ "$rc" -eq 0 ] && wait_state "$w" COMPLETED 30; then
        n=$(job_field "$w" NodeList)
        got=$(hosts "$n")
        if [ "$(echo "$got" | wc -l)" -eq 3 ] && [ -z "$(echo "$got" | grep -vxE 'n[0-3]')" ]; then
            pass "-N3 -w n0,n1,n2,n3: Slurm 24.11 runs it on 3 of the 4 listed nodes ($n)"
        else
            fail "-w 4 nodes -N3 ran on $n"
        fi
    else
        fail "-w 4 nodes -N3: rc=$rc $out, state $(job_field "$w" JobState)"
    fi
fi
ok=$(submit -N4 --contiguous -t 5 --wrap 'sleep 60')
wait_state "$ok" RUNNING 30 && case "$(job_comment "$ok")" in
    *bbox=2x2x1*|*bbox=4x1x1*|*bbox=1x4x1*) pass "--contiguous -N4 runs on a full box: $(job_comment "$ok")" ;;
    *) fail "--contiguous -N4: $(job_comment "$ok")" ;;
esac
w=$(submit -N2 -w n3,n12 -t 5 --wrap 'sleep 60')
wait_state "$w" RUNNING 30 || true
nl=$(job_field "$w" NodeList)
[ "$nl" = "n[3,12]" ] && pass "--nodelist n3,n12 honoured" || fail "--nodelist: got $nl"
x=$(submit -N2 -x n[0-14] -t 5 --wrap 'sleep 60' 2>/dev/null)
[ -z "$x" ] && pass "-N2 with 15 of 16 nodes excluded refused" \
    || fail "exclude: job $x is $(job_field "$x" JobState) on $(job_field "$x" NodeList)"
y=$(submit -N3 -x n[8-15] -t 5 --wrap 'sleep 60')
wait_state "$y" RUNNING 30 || true
bad=$(hosts "$(job_field "$y" NodeList)" | grep -E '^n(8|9|1[0-5])$')
[ -n "$(job_field "$y" NodeList)" ] && [ -z "$bad" ] \
    && pass "--exclude n[8-15] honoured: $(job_field "$y" NodeList)" || fail "--exclude: $(job_field "$y" NodeList)"
# A job that cannot start while n5 and n10 are drained (no 2x4 or 4x2
# box avoids both) is asked RUN_NOW and TEST_ONLY by every scheduler pass
# (sched_interval=2): under DebugFlags=SelectType its repeated answers are
# not logged again (issue 39.7; before, 3 lines every 2 s).
sl scancel -u root
sl scontrol update nodename=n5,n10 state=drain reason=impossible.sh
end=$((SECONDS + 20))
while [ "$(sl sinfo -h -N -t idle -o '%N' | sort -u | wc -l)" -lt 14 ] && [ "$SECONDS" -lt "$end" ]; do
    sleep 0.5
done
k=$(submit -N8 --contiguous -t 5 --wrap 'sleep 1')
# Wait for the first decision line (a loaded machine can delay it), then
# for two more scheduler passes: each kind of question asked once.
wait_until 30 grep -q "select/mesh: JobId=$k mode=" "$d/log/slurmctld.log" || true
sleep 6
n0=$(grep -c "select/mesh: JobId=$k mode=" "$d/log/slurmctld.log")
sleep 8
n1=$(grep -c "select/mesh: JobId=$k mode=" "$d/log/slurmctld.log")
echo "  job $k ($(job_field "$k" JobState), $(job_field "$k" Reason)): $n0 decision lines first, $((n1 - n0)) in the next 8 s"
[ "$(job_field "$k" JobState)" = PENDING ] && [ "$n0" -ge 1 ] && [ "$((n1 - n0))" -eq 0 ] \
    && pass "a job that cannot start logs its repeated decisions once" \
    || fail "job $k: $n0 then $((n1 - n0)) decision lines"
ctld_alive && pass "slurmctld still running" || fail "slurmctld died"
mesh_finish
