#!/usr/bin/env bash
# oversubscribe.sh - OverSubscribe=FORCE:2 and YES:4 (with --oversubscribe)
# under PreemptMode=SUSPEND,GANG share whole nodes as select/linear does.
#
# Partition f2 (n[0-7], FORCE:2): two 4-node jobs take the idle nodes, two
# more share them, each with exactly the nodes of an earlier job (linear's
# "job mate"), a fifth waits.  Partition y4 (n[8-15], YES:4): five 8-node
# jobs with --oversubscribe, four start; a job without --oversubscribe
# waits.  The same is run with select/linear; select/mesh must start the
# same number of jobs in each partition, never put more than max_share
# jobs on a node, and never run the jobs PENDING before this change.
#
# Backfill shares now, as select/linear's does.  With the main scheduling
# loop off (sched_interval=-1, defer), only backfill starts jobs.
# Partition y2 (n[0-15], YES:2): X (-N16 --oversubscribe) runs, then S
# (-N4 --oversubscribe) can share X's nodes: backfill starts it under both
# selectors.  Then T (-N16 --oversubscribe) cannot share now (four nodes
# hold X and S): it waits under both, with Slurm's own pending reason
# (Resources), which is what blocks it.
. "$(dirname "$0")/lib.sh"
mesh_setup oversub

# Started = RUNNING or SUSPENDED (gang time-slicing).
started() { local j n=0 st; for j in "$@"; do st=$(job_field "$j" JobState)
    case $st in RUNNING|SUSPENDED) n=$((n + 1)) ;; esac; done; echo $n; }

# Most jobs (running or suspended) holding one node of NODES.
max_per_node() {
    local j
    for j in $(sl squeue -h -t R,S -o '%i'); do
        hosts "$(job_field "$j" NodeList)"
    done | sort | uniq -c | awk -v want="$1" '$2 ~ want {if ($1 > m) m = $1} END {print m + 0}'
}

run_case() {   # SELECT: results into $work/TAG.res as key=value lines
    local sel=$1 tag d f=() y=() i lone r c
    tag=${sel#select/}
    d="$work/$tag"
    cluster_start "$d" --select "$sel" --allocator mc1x1 \
        --extra-slurm-conf "PreemptType=preempt/partition_prio" \
        --extra-slurm-conf "PreemptMode=SUSPEND,GANG" \
        --extra-slurm-conf "SchedulerTimeSlice=5" \
        --extra-slurm-conf "PartitionName=f2 Nodes=n[0-7] OverSubscribe=FORCE:2 MaxTime=INFINITE State=UP" \
        --extra-slurm-conf "PartitionName=y4 Nodes=n[8-15] OverSubscribe=YES:4 MaxTime=INFINITE State=UP" \
        >/dev/null 2>&1 || { fail "$tag: cluster start"; return; }
    for i in 1 2; do
        f+=("$(submit -p f2 -N4 -t 10 --wrap 'sleep 600')")
        wait_state "${f[-1]}" RUNNING 30 || fail "$tag: f2 job ${f[-1]} RUNNING"
    done
    for i in 1 2 3; do f+=("$(submit -p f2 -N4 -t 10 --wrap 'sleep 600')"); done
    for i in 1 2 3 4 5; do
        y+=("$(submit -p y4 -N8 -t 10 --oversubscribe --wrap 'sleep 600')")
    done
    lone=$(submit -p y4 -N1 -t 10 --wrap 'sleep 600')
    # Poll (a loaded machine can delay the scheduler): until four jobs
    # hold each partition and gang has time-sliced them, at most 40 s;
    # then two more scheduler passes, in which nothing more may start.
    settled() {
        [ "$(started "${f[@]}")" -ge 4 ] && [ "$(started "${y[@]}")" -ge 4 ] &&
            grep -q 'gang: suspending' "$d/log/slurmctld.log"
    }
    wait_until 40 settled || true
    sleep 4
    r="$work/$tag.res"
    {
        echo "f2=$(started "${f[@]}")"
        echo "y4=$(started "${y[@]}")"
        echo "lone=$(job_field "$lone" JobState)"
        echo "max_f2=$(max_per_node '^n[0-7]$')"
        echo "max_y4=$(max_per_node '^n([89]|1[0-5])$')"
        # jobs 3 and 4 each on exactly the nodes of job 1 or 2
        for i in 2 3; do
            c=$(job_field "${f[$i]}" NodeList)
            if [ "$c" = "$(job_field "${f[0]}" NodeList)" ] || [ "$c" = "$(job_field "${f[1]}" NodeList)" ]; then
                echo "mate$i=yes"
            else
                echo "mate$i=no($c)"
            fi
        done
        echo "f2_wait=$(job_field "${f[4]}" JobState)/$(job_field "${f[4]}" Reason)"
        echo "gang=$(grep -c 'gang: suspending' "$d/log/slurmctld.log")"
        echo "warn=$(grep -c 'error: select/mesh: partition \(f2 OverSubscribe=FORCE:2\|y4 OverSubscribe=YES:4\)' "$d/log/slurmctld.log")"
    } >"$r"
    sed "s/^/  $tag: /" "$r"
    ctld_alive && pass "$tag: slurmctld alive" || fail "$tag: slurmctld died"
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1
}

# Runs FN for select/linear and select/mesh at once, on clusters in
# $work/PREFIXlinear and $work/PREFIXmesh, and counts their checks.
run_both() {   # fn prefix
    local fn=$1 pre=$2 sel out
    for sel in select/linear select/mesh; do
        clusters+=("$work/$pre${sel#select/}")
        "$fn" "$sel" >"$work/$pre${sel#select/}.out" 2>&1 &
    done
    wait
    out=$(cat "$work/${pre}linear.out" "$work/${pre}mesh.out")
    grep -E '^(PASS|FAIL|  )' <<<"$out"
    npass=$((npass + $(grep -c '^PASS:' <<<"$out")))
    nfail=$((nfail + $(grep -c '^FAIL:' <<<"$out")))
}

run_both run_case ""
val() { sed -n "s/^$2=//p" "$work/$1.res" 2>/dev/null; }

for k in f2 y4; do
    [ -n "$(val linear $k)" ] && [ "$(val mesh $k)" = "$(val linear $k)" ] \
        && pass "$k: select/mesh started $(val mesh $k) jobs, as select/linear" \
        || fail "$k: select/mesh started $(val mesh $k) jobs, select/linear $(val linear $k)"
done
[ "$(val mesh f2)" = 4 ] && [ "$(val mesh y4)" = 4 ] \
    && pass "FORCE:2 runs 4 four-node jobs on 8 nodes, YES:4 four eight-node jobs" \
    || fail "expected 4 and 4 started, got $(val mesh f2) and $(val mesh y4)"
[ "$(val mesh max_f2)" -le 2 ] && [ "$(val mesh max_y4)" -le 4 ] \
    && pass "at most 2 jobs per node in f2 ($(val mesh max_f2)), 4 in y4 ($(val mesh max_y4))" \
    || fail "too many jobs per node: f2 $(val mesh max_f2), y4 $(val mesh max_y4)"
[ "$(val mesh mate2)" = yes ] && [ "$(val mesh mate3)" = yes ] \
    && pass "sharing jobs take exactly the nodes of an earlier job (linear: $(val linear mate2) $(val linear mate3))" \
    || fail "sharing jobs not on an earlier job's nodes: $(val mesh mate2) $(val mesh mate3) (linear: $(val linear mate2) $(val linear mate3))"
[ "$(val mesh lone)" = PENDING ] && [ "$(val linear lone)" = PENDING ] \
    && pass "a job without --oversubscribe in YES:4 waits for an idle node (both plugins)" \
    || fail "non-sharing job: mesh $(val mesh lone), linear $(val linear lone)"
case "$(val mesh f2_wait)" in
    PENDING/*) pass "fifth f2 job waits: $(val mesh f2_wait) (linear: $(val linear f2_wait))" ;;
    *) fail "fifth f2 job: $(val mesh f2_wait)" ;;
esac
[ "$(val mesh gang)" -ge 1 ] \
    && pass "gang time-slices the sharing jobs ($(val mesh gang) gang suspends; linear $(val linear gang))" \
    || fail "no gang suspend seen with select/mesh (linear: $(val linear gang))"
[ "$(val mesh warn)" -ge 2 ] && pass "startup warning for each sharing partition" \
    || fail "no startup warning per sharing partition ($(val mesh warn))"

run_bf() {   # SELECT: S's state and reason into $work/bf-TAG.res
    local sel=$1 tag d x h j
    tag=bf-${sel#select/}
    d="$work/$tag"
    cluster_start "$d" --select "$sel" --allocator mc1x1 \
        --extra-slurm-conf "SchedulerParameters=bf_interval=1,sched_interval=-1,defer" \
        --extra-slurm-conf "PartitionName=y2 Nodes=n[0-15] OverSubscribe=YES:2 MaxTime=INFINITE State=UP" \
        >"$work/$tag.start" 2>&1 || { fail "$tag: cluster start: $(tail -3 "$work/$tag.start")"; return; }
    x=$(submit -p y2 -N16 -t 10 --oversubscribe --wrap 'sleep 600')
    wait_state "$x" RUNNING 30 || fail "$tag: X $x RUNNING"
    j=$(submit -p y2 -N4 -t 10 --oversubscribe --wrap 'sleep 600')
    # several backfill passes (bf_interval=1), more on a loaded machine
    wait_state "$j" RUNNING 30 >/dev/null || true
    h=$(submit -p y2 -N16 -t 10 --oversubscribe --wrap 'sleep 600')
    sleep 4	# T must still wait after several backfill passes
    {
        echo "x=$(job_field "$x" JobState)"
        echo "s=$(job_field "$j" JobState)"
        echo "t=$(job_field "$h" JobState)"
        echo "reason=$(sl squeue -h -j "$h" -o '%r')"
    } >"$work/$tag.res"
    sed "s/^/  $tag: /" "$work/$tag.res"
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1
}
run_both run_bf bf-
[ "$(val bf-linear x)" = RUNNING ] && [ "$(val bf-linear s)" = RUNNING ] &&
    pass "backfill only: select/linear's backfill shares X's nodes with S" ||
    fail "backfill only: select/linear X $(val bf-linear x), S $(val bf-linear s) ($(val bf-linear reason))"
[ "$(val bf-mesh x)" = RUNNING ] && [ "$(val bf-mesh s)" = RUNNING ] &&
    pass "backfill only: select/mesh's backfill shares X's nodes with S, as select/linear's" ||
    fail "backfill only: select/mesh X $(val bf-mesh x), S $(val bf-mesh s)"
echo "  T waits: select/linear $(val bf-linear t) ($(val bf-linear reason)), select/mesh $(val bf-mesh t) ($(val bf-mesh reason))"
[ "$(val bf-mesh t)" = PENDING ] && [ "$(val bf-mesh reason)" = "$(val bf-linear reason)" ] &&
    [ "$(val bf-linear t)" = PENDING ] &&
    pass "backfill only: T, which cannot share now, waits with Slurm's reason '$(val bf-mesh reason)' under both" ||
    fail "backfill only: T select/mesh $(val bf-mesh t) '$(val bf-mesh reason)', select/linear $(val bf-linear t) '$(val bf-linear reason)'"
mesh_finish
