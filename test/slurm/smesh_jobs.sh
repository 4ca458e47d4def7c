#!/usr/bin/env bash
# smesh_jobs.sh - issue 12.6: smesh takes Slurm's job-id forms (52, 52_1,
# 53+1), shows every task of an array and every component of a hetjob,
# and show mesh labels array tasks 52_3 and components 53+1.  The array
# and the hetjob are real ones, run by select/mesh.
. "$(dirname "$0")/lib.sh"
mesh_setup smeshjobs

d="$work/c"
if cluster_start "$d" --allocator mc1x1; then pass "cluster up"; else fail "cluster start"; exit 1; fi
smesh() { SLURM_CONF=$conf "$SMESH" "$@" 2>&1; }

a=$(submit -N2 -t 5 --array=1-3 --wrap 'sleep 120')
cat >"$work/jobs/het.sh" <<'SH'
#!/bin/bash
#SBATCH -N2 -t 5
#SBATCH hetjob
#SBATCH -N3 -t 5
sleep 120
SH
h=$(submit "$work/jobs/het.sh")
for t in 1 2 3; do wait_state "${a}_$t" RUNNING 30 || fail "array task ${a}_$t RUNNING"; done
for k in 0 1; do wait_state "$h+$k" RUNNING 30 || fail "hetjob component $h+$k RUNNING under select/mesh"; done
no_overlap && pass "array tasks and hetjob components run on disjoint nodes" || fail "overlap"

out=$(smesh show job "$a")
n=$(echo "$out" | grep -cE "^JobId=${a}_[1-3] JobState=RUNNING NumNodes=2 ")
[ "$n" -eq 3 ] && pass "smesh show job $a shows the 3 tasks: $(echo "$out" | grep -o "^JobId=[^ ]*" | tr '\n' ' ')" \
    || fail "smesh show job $a: $out"
out=$(smesh show job "${a}_2")
if [ "$(echo "$out" | grep -c '^JobId=')" -eq 1 ] && echo "$out" | grep >/dev/null "^JobId=${a}_2 JobState=RUNNING NumNodes=2 " &&
    echo "$out" | grep >/dev/null "^BBox="; then
    pass "smesh show job ${a}_2: $(echo "$out" | head -1)"
else
    fail "smesh show job ${a}_2: $out"
fi
out=$(smesh show job "$h")
if echo "$out" | grep >/dev/null "^JobId=$h+0 JobState=RUNNING NumNodes=2 " &&
    echo "$out" | grep >/dev/null "^JobId=$h+1 JobState=RUNNING NumNodes=3 "; then
    pass "smesh show job $h shows both components: $(echo "$out" | grep -o "^JobId=[^ ]* [^ ]* [^ ]*" | tr '\n' ' ')"
else
    fail "smesh show job $h: $out"
fi
out=$(smesh show job "$h+1")
if [ "$(echo "$out" | grep -c '^JobId=')" -eq 1 ] && echo "$out" | grep >/dev/null "^JobId=$h+1 .*NumNodes=3 "; then
    pass "smesh show job $h+1: $(echo "$out" | head -1)"
else
    fail "smesh show job $h+1: $out"
fi
out=$(smesh show job "${a}_9"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep >/dev/null "no such array task" && pass "smesh show job ${a}_9: $out" \
    || fail "smesh show job ${a}_9: rc=$rc $out"
map=$(smesh show mesh)
if echo "$map" | matches -E "job ${a}_3 +RUNNING" && echo "$map" | matches -E "job $h\+1 +RUNNING"; then
    pass "smesh show mesh labels ${a}_3 and $h+1"
else
    fail "smesh show mesh: $map"
fi
sl scancel "$a" "$h"
mesh_finish
