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
#
# Two more scenarios (REQUEUE), each on both selectors, with a third
# partition mid (PriorityTier=5) so that Slurm's candidate order is fixed
# (preempt/partition_prio sorts candidates by tier, then by node count;
# jobs are pinned with -w):
#   order:   low one-node jobs on n0 and n15, mid one-node jobs on every
#            other node, high -N2: the victims must be the two low jobs
#            (Slurm's first candidates), though preempting two adjacent
#            mid jobs would give a compact pair.
#   compact: free n10, n11, n14; a low two-node job on n[0,15]; mid jobs
#            on the rest; high -N4: one victim (the low job), and
#            select/mesh must place on the 2x2 n[10-11,14-15] of the free
#            nodes plus the victim's, not on n[0,10-11,14], which needs
#            the same victim (select/linear, which prefers runs of
#            consecutive nodes, picks the 2x2 too).
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

# preempt_cluster DIR SELECT MODE "NAME PARAMS"...: a 4x4 cluster with
# preempt/partition_prio and one partition on n[0-15] per argument.
preempt_cluster() {
    local d=$1 sel=$2 mode=$3 p parts=()
    shift 3
    for p in "$@"; do
        parts+=(--extra-slurm-conf "PartitionName=${p%% *} Nodes=n[0-15] ${p#* } MaxTime=INFINITE State=UP")
    done
    cluster_start "$d" --select "$sel" --allocator mc1x1 \
        --extra-slurm-conf "PreemptType=preempt/partition_prio" \
        --extra-slurm-conf "PreemptMode=$mode" "${parts[@]}" >"$d.start" 2>&1 ||
        { sed 's/^/  start: /' "$d.start" | tail -n 20; return 1; }
}

# run_case MODE SELECT: PASS/FAIL lines on stdout, the number of victims
# into $work/TAG.n.  Runs in the background, three clusters at a time.
run_case() {
    local mode=$1 sel=$2 d os="NO" low=() i hi st tag end
    tag=$(echo "$mode-$sel" | tr ',/' '__')
    d="$work/$tag"
    [ "$mode" = "SUSPEND,GANG" ] && os="FORCE:1"
    preempt_cluster "$d" "$sel" "$mode" "low PriorityTier=1 OverSubscribe=$os" \
        "high PriorityTier=10 OverSubscribe=$os" ||
        { fail "$tag: cluster start"; echo -1 >"$work/$tag.n"; return; }
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

# run_pinned NAME SELECT HIGH_N LOW_NODES MID_NODES: LOW_NODES and
# MID_NODES are space-separated groups, each one job pinned there (a group
# like n0,n15 is one two-node job).  Writes TAG.victims (preempted job
# nodes, sorted) and TAG.high (the high job's nodes).
run_pinned() {
    local name=$1 sel=$2 k=$3 lows=$4 mids=$5 d tag g ids=() n hi jid
    tag="$name-$(echo "$sel" | tr '/' '_')"
    d="$work/$tag"
    preempt_cluster "$d" "$sel" REQUEUE "low PriorityTier=1" "mid PriorityTier=5" \
        "high PriorityTier=10" || { fail "$tag: cluster start"; return; }
    for g in $lows; do
        n=$(echo "$g" | tr ',' '\n' | wc -l)
        jid=$(submit -p low -N"$n" -w "$g" -t 10 --requeue --wrap "trap '' TERM; sleep 600")
        ids+=("$jid"); echo "$jid $g" >>"$work/$tag.jobs"
    done
    for g in $mids; do
        jid=$(submit -p mid -N1 -w "$g" -t 10 --requeue --wrap "trap '' TERM; sleep 600")
        ids+=("$jid"); echo "$jid $g" >>"$work/$tag.jobs"
    done
    n=${#ids[@]}
    end=$((SECONDS + 30))
    while [ "$(sl squeue -h -t R | wc -l)" -lt "$n" ] && [ $SECONDS -lt $end ]; do
        sleep 0.5
    done
    [ "$(sl squeue -h -t R | wc -l)" -eq "$n" ] || fail "$tag: $n pinned jobs RUNNING"
    hi=$(submit -p high -N"$k" -t 5 --wrap 'sleep 600')
    wait_state "$hi" RUNNING 40 || fail "$tag: high job $hi not RUNNING ($(job_field "$hi" Reason))"
    hosts "$(job_field "$hi" NodeList)" | sort -V | paste -sd ' ' >"$work/$tag.high"
    sleep 2	# any further preemption would show
    no_overlap || fail "$tag: overlap"
    grep -oE 'preempted JobId=[0-9]+ has been requeued' "$d/log/slurmctld.log" |
        awk '{print $2}' | sed 's/JobId=//' | sort -u |
        while read -r jid; do awk -v j="$jid" '$1 == j { print $2 }' "$work/$tag.jobs"; done |
        sort -V | paste -sd ' ' >"$work/$tag.victims"
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1
}

mids_but() {   # nodes to leave out... -> the other nodes of n[0-15]
    local i out=""
    for i in $(seq 0 15); do
        case " $* " in *" n$i "*) ;; *) out="$out n$i" ;; esac
    done
    echo "$out"
}

for sc in order compact; do
    for sel in select/linear select/mesh; do
        tag="$sc-$(echo "$sel" | tr '/' '_')"
        clusters+=("$work/$tag")
        case $sc in
        order) run_pinned order "$sel" 2 "n0 n15" "$(mids_but n0 n15)" ;;
        compact) run_pinned compact "$sel" 4 "n0,n15" "$(mids_but n0 n15 n10 n11 n14)" ;;
        esac >"$work/$tag.out" 2>&1 &
    done
    wait
    for sel in select/linear select/mesh; do
        tag="$sc-$(echo "$sel" | tr '/' '_')"
        grep -E '^(PASS|FAIL):' "$work/$tag.out"
        npass=$((npass + $(grep -c '^PASS:' "$work/$tag.out")))
        nfail=$((nfail + $(grep -c '^FAIL:' "$work/$tag.out")))
    done
    lv=$(cat "$work/$sc-select_linear.victims" 2>/dev/null)
    mv=$(cat "$work/$sc-select_mesh.victims" 2>/dev/null)
    lh=$(cat "$work/$sc-select_linear.high" 2>/dev/null)
    mh=$(cat "$work/$sc-select_mesh.high" 2>/dev/null)
    echo "  $sc: select/linear preempted [$lv] and ran the high job on [$lh]; select/mesh [$mv] on [$mh]"
    case $sc in
    order)
        [ "$mv" = "n0 n15" ] && [ "$mh" = "n0 n15" ] &&
            pass "order: select/mesh preempts the two lowest-tier jobs (n0, n15) first and runs there" ||
            fail "order: select/mesh preempted [$mv], ran on [$mh]; want the low jobs on n0 n15"
        [ "$mv" = "$lv" ] && pass "order: the same victims as select/linear" ||
            fail "order: victims select/mesh [$mv], select/linear [$lv]"
        ;;
    compact)
        [ "$mv" = "n0,n15" ] && pass "compact: select/mesh preempts only the low job on n[0,15]" ||
            fail "compact: select/mesh preempted [$mv]; want the low job n0,n15"
        [ "$mv" = "$lv" ] && pass "compact: the same victim as select/linear" ||
            fail "compact: victims select/mesh [$mv], select/linear [$lv]"
        [ "$mh" = "n10 n11 n14 n15" ] &&
            pass "compact: select/mesh places on the 2x2 n[10-11,14-15] (select/linear: [$lh])" ||
            fail "compact: select/mesh placed on [$mh]; want the 2x2 n10 n11 n14 n15"
        ;;
    esac
done
mesh_finish
