#!/usr/bin/env bash
# alloc_mc1x1.sh - (a) placements chosen by the mesh.conf allocator.
#   mc1x1: four 4-node jobs on an empty 4x4 each get a 2x2 block with
#   avgdist 4/3, seen in SystemComment (scontrol) and in smesh;
#   snake-ff: two 3-node jobs follow the snake curve.
. "$(dirname "$0")/lib.sh"
mesh_setup alloc

d="$work/mc1x1"
if cluster_start "$d" --allocator mc1x1; then
    pass "cluster with select/mesh, Allocator=mc1x1"
else
    fail "cluster start"; exit 1
fi
ids=()
for i in 1 2 3 4; do ids+=("$(submit -N4 -t 5 --wrap 'sleep 120')"); done
all=""
for j in "${ids[@]}"; do
    if ! wait_state "$j" RUNNING 30; then fail "job $j RUNNING"; continue; fi
    nl=$(job_field "$j" NodeList)
    c=$(job_comment "$j")
    all="$all $(hosts "$nl" | tr '\n' ' ')"
    case "$c" in
        *"bbox=2x2x1 sumdist=8 avgdist=1.33 diam=2"*)
            pass "job $j on $nl: SystemComment=$c" ;;
        *) fail "job $j on $nl: SystemComment='$c' (want a 2x2 block, avgdist 1.33)" ;;
    esac
    out=$(SLURM_CONF=$conf "$SMESH" show job "$j" 2>&1)
    if echo "$out" | grep >/dev/null "BBox=2x2x1 SumDist=8 AvgDist=1.33"; then
        pass "smesh show job $j: $(echo "$out" | grep Coords)"
    else
        fail "smesh show job $j: $out"
    fi
done
n=$(echo "$all" | tr ' ' '\n' | grep . | sort -u | grep -c .)
if [ "$n" -eq 16 ]; then pass "the four jobs tile the 4x4 mesh"; else fail "four jobs cover $n distinct nodes"; fi
out=$(SLURM_CONF=$conf "$SMESH" show job 424242 2>&1)
rc=$?
[ $rc -eq 1 ] && echo "$out" | grep >/dev/null "424242: Invalid job id" \
    && pass "smesh show job 424242 (no such job): $out" \
    || fail "smesh on a missing job: rc=$rc: $out"
map=$(SLURM_CONF=$conf "$SMESH" show mesh 2>&1)
if [ "$(echo "$map" | grep -cE '^  y=[0-3] +[A-D]{4}$')" -eq 4 ]; then
    pass "smesh show mesh:"; echo "$map" | sed 's/^/    /'
else
    fail "smesh show mesh: $map"
fi
# The same picture meshsim results get (meshplot snapshot), of the live
# cluster; needs gnuplot.
if command -v gnuplot >/dev/null; then
    SLURM_CONF=$conf MESHPLOT=$top_src/contrib/plots/meshplot \
        "$SMESH" show mesh --svg "$work/mesh.svg" >/dev/null 2>"$work/svg.err"
    rc=$?
    if [ $rc -eq 0 ] && grep -q '<svg' "$work/mesh.svg" &&
        [ "$(grep -o 'job [0-9]*: 4 nodes, avg dist 1.33' "$work/mesh.svg" | sort -u | wc -l)" -eq 4 ]; then
        pass "smesh show mesh --svg draws the four 2x2 jobs ($(stat -c %s "$work/mesh.svg") bytes)"
    else
        fail "smesh show mesh --svg: rc=$rc $(cat "$work/svg.err")"
    fi
    # A live cluster's picture names the cluster and the time, not a
    # simulated "t = 0 s"; each job's id is drawn once, in a box above
    # its nodes, in type of at least 10 points.
    if grep -q "Slurm cluster meshlocal at 20[0-9-]* [0-9:]*: 4 jobs" "$work/mesh.svg" &&
        ! grep -q "Running at t =" "$work/mesh.svg" &&
        python3 - "$work/mesh.svg" "${ids[@]}" <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
# The labels in a box (gnuplot's textbox filter): one per job.
boxed = re.findall(r'<g transform="translate\([\d.]+,[\d.]+\)"[^>]*font-size="([\d.]+)"[^>]*filter:url\(#textbox\)[^>]*>\s*<text><tspan[^>]*>([^<]*)</tspan>', svg)
assert sorted(t for _, t in boxed) == sorted(sys.argv[2:]), boxed
assert all(float(f) >= 10 for f, _ in boxed), boxed
PY
    then
        pass "smesh show mesh --svg: captioned with the cluster and the time; each job id once, readable"
    else
        fail "smesh show mesh --svg: caption or labels: $(grep -o "Slurm cluster[^<]*\|Running at[^<]*" "$work/mesh.svg")"
    fi
else
    echo "SKIP: smesh --svg (gnuplot not installed)"
fi
for j in "${ids[@]}"; do sl scancel "$j"; done
"$CLUSTER" stop --dir "$d" >/dev/null 2>&1

d="$work/snake"
if cluster_start "$d" --allocator snake-ff; then
    pass "cluster with Allocator=snake-ff"
else
    fail "cluster start (snake-ff)"; exit 1
fi
j1=$(submit -N3 -t 5 --wrap 'sleep 120')
wait_state "$j1" RUNNING 30 || fail "job $j1 RUNNING"
j2=$(submit -N3 -t 5 --wrap 'sleep 120')
wait_state "$j2" RUNNING 30 || fail "job $j2 RUNNING"
# Snake order on 4x4: 0 1 2 3 7 6 5 4 8 ...: the second job turns the
# corner (row-major would give n[3-5]).
nl1=$(job_field "$j1" NodeList); nl2=$(job_field "$j2" NodeList)
if [ "$nl1" = "n[0-2]" ] && [ "$nl2" = "n[3,6-7]" ]; then
    pass "snake-ff follows the curve: $nl1, $nl2"
else
    fail "snake-ff: got $nl1, $nl2; want n[0-2], n[3,6-7]"
fi
# snake-ff would now give n[4-5,8] (an L); --contiguous must get a line.
j3=$(submit -N3 --contiguous -t 5 --wrap 'sleep 120')
wait_state "$j3" RUNNING 30 || fail "job $j3 RUNNING"
case "$(job_comment "$j3")" in
    *bbox=3x1x1*|*bbox=1x3x1*) pass "--contiguous -N3 with snake-ff gets a line: $(job_field "$j3" NodeList) $(job_comment "$j3")" ;;
    *) fail "--contiguous -N3: $(job_field "$j3" NodeList) $(job_comment "$j3")" ;;
esac
case "$(job_comment "$j3")" in
    *alloc=contig-*) pass "SystemComment names the contiguous allocator that placed it" ;;
    *) fail "SystemComment of $j3 should name a contig allocator: $(job_comment "$j3")" ;;
esac
case "$(job_comment "$j2")" in
    *alloc=snake-ff*) pass "SystemComment names snake-ff" ;;
    *) fail "SystemComment of $j2: $(job_comment "$j2")" ;;
esac
mesh_finish
