#!/usr/bin/env bash
# preempt.sh - preemption takes the fewest victims, as select/linear does.
#
# 4x4 mesh, partitions low (PriorityTier=1) and high (PriorityTier=10),
# PreemptType=preempt/partition_prio.  14 one-node jobs run in low, so 2
# nodes are idle; then a 3-node job is submitted to high.  One victim is
# enough.  For PreemptMode REQUEUE, CANCEL and SUSPEND,GANG the number of
# preempted jobs (slurmctld's "preempted JobId=..." lines) must equal what
# select/linear does on the same configuration, the high job must run, no
# node may be held by two running jobs, and select/mesh must pick victims
# only once (never again while the first victim is still completing: the
# low jobs ignore SIGTERM, so each lingers KillWait=2 s).
. "$(dirname "$0")/lib.sh"
mesh_setup preempt

# Distinct low jobs slurmctld preempted (requeued, killed or suspended).
victims() {   # logfile lowjobids...
    local log=$1
    shift
    grep -oE 'preempted JobId=[0-9]+ (has been requeued|has been killed|suspended by gang)' "$log" \
        | awk '{print $2}' | sed 's/JobId=//' | sort -u \
        | grep -Fxf <(printf '%s\n' "$@") | wc -l
}

# run_case MODE SELECT: PASS/FAIL lines on stdout, the number of victims
# into $work/TAG.n.  Runs in the background, three clusters at a time.
run_case() {
    local mode=$1 sel=$2 d os="NO" low=() i hi st tag end
    tag=$(echo "$mode-$sel" | tr ',/' '__')
    d="$work/$tag"
    [ "$mode" = "SUSPEND,GANG" ] && os="FORCE:1"
    cluster_start "$d" --select "$sel" --allocator mc1x1 \
        --extra-slurm-conf "PreemptType=preempt/partition_prio" \
        --extra-slurm-conf "PreemptMode=$mode" \
        --extra-slurm-conf "PartitionName=low Nodes=n[0-15] PriorityTier=1 OverSubscribe=$os MaxTime=INFINITE State=UP" \
        --extra-slurm-conf "PartitionName=high Nodes=n[0-15] PriorityTier=10 OverSubscribe=$os MaxTime=INFINITE State=UP" \
        >/dev/null 2>&1 || { fail "$tag: cluster start"; echo -1 >"$work/$tag.n"; return; }
    for i in $(seq 14); do
        low+=("$(submit -p low -N1 -t 10 --requeue --wrap "trap '' TERM; sleep 600")")
    done
    end=$((SECONDS + 30))
    while [ "$(sl squeue -h -t R -p low | wc -l)" -lt 14 ] && [ $SECONDS -lt $end ]; do
        sleep 0.5
    done
    [ "$(sl squeue -h -t R -p low | wc -l)" -eq 14 ] || fail "$tag: 14 low jobs RUNNING"
    hi=$(submit -p high -N3 -t 5 --wrap 'sleep 600')
    if wait_state "$hi" RUNNING 40; then
        pass "$tag: high job $hi runs on $(job_field "$hi" NodeList)"
    else
        fail "$tag: high job $hi not RUNNING ($(job_field "$hi" Reason))"
    fi
    sleep 3	# let requeued jobs restart and any further preemption show
    no_overlap && pass "$tag: no node held by two running jobs" \
        || fail "$tag: overlap"
    ctld_alive || fail "$tag: slurmctld died"
    victims "$d/log/slurmctld.log" "${low[@]}" >"$work/$tag.n"
    if [ "$sel" = select/mesh ]; then
        st=$(grep -c "JobId=$hi preempts " "$d/log/slurmctld.log")
        [ "$st" -eq 1 ] && pass "$tag: victims chosen once for job $hi" \
            || fail "$tag: victims chosen $st times for job $hi (expected once)"
    fi
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1
}

modes=(REQUEUE CANCEL "SUSPEND,GANG")
for sel in select/linear select/mesh; do
    for mode in "${modes[@]}"; do
        tag=$(echo "$mode-$sel" | tr ',/' '__')
        clusters+=("$work/$tag")	# the EXIT trap stops it if need be
        run_case "$mode" "$sel" >"$work/$tag.out" 2>&1 &
    done
    wait
done
for mode in "${modes[@]}"; do
    for sel in select/linear select/mesh; do
        out="$work/$(echo "$mode-$sel" | tr ',/' '__').out"
        grep -E '^(PASS|FAIL):' "$out"
        npass=$((npass + $(grep -c '^PASS:' "$out")))
        nfail=$((nfail + $(grep -c '^FAIL:' "$out")))
    done
    lin=$(cat "$work/$(echo "$mode-select/linear" | tr ',/' '__').n" 2>/dev/null || echo -1)
    mesh=$(cat "$work/$(echo "$mode-select/mesh" | tr ',/' '__').n" 2>/dev/null || echo -1)
    echo "  $mode: victims select/linear=$lin select/mesh=$mesh"
    if [ "$lin" -ge 1 ] && [ "$mesh" -eq "$lin" ]; then
        pass "$mode: select/mesh preempted $mesh job(s), as select/linear"
    else
        fail "$mode: select/mesh preempted $mesh job(s), select/linear $lin"
    fi
done
mesh_finish
