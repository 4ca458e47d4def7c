#!/usr/bin/env bash
# weight_preempt.sh - issue 39 items 3 and 4 on a 4x4x2 mesh (32 nodes),
# select/mesh against select/linear side by side, same configuration
# (partitions low, PriorityTier=1, and high, PriorityTier=10, with
# preempt/partition_prio and PreemptMode=REQUEUE).
#   Node Weight: after 'scontrol update nodename=n[0-15] weight=100', a
#   -N4 job, then a -N12 job, fill the light plane n[16-31] (select/linear
#   takes n[16-19] and n[20-31]); a further -N4 job goes to the heavy
#   nodes.  select/mesh (mc1x1) must keep each job within the lightest
#   tier that holds it.
#   Preemption: 30 one-node low jobs pinned to n0..n29, then a high -N3
#   job.  select/linear preempts one job.  select/mesh must preempt one
#   too, with contig-ff (the job on n29, which frees n[29-31]) and with
#   mc1x1, where the high job must get a compact block (diameter at most
#   2; any of the victims next to n30/n31 gives one) instead of
#   n[0,30-31] (diameter 7).
. "$(dirname "$0")/lib.sh"
mesh_setup weight

conf_common=(--mesh 4x4x2 --timeout 40
    --extra-slurm-conf "PreemptType=preempt/partition_prio"
    --extra-slurm-conf "PreemptMode=REQUEUE"
    --extra-slurm-conf "PartitionName=low Nodes=n[0-31] MaxTime=INFINITE State=UP PriorityTier=1"
    --extra-slurm-conf "PartitionName=high Nodes=n[0-31] MaxTime=INFINITE State=UP PriorityTier=10")
M="$work/mesh" L="$work/linear"
start_bg "$M" --select select/mesh --allocator mc1x1 "${conf_common[@]}"
start_bg "$L" --select select/linear "${conf_common[@]}"
wait_started || { mesh_finish; exit 1; }

sub() { local d=$1; shift; (cd "$work/jobs" && on "$d" sbatch --parsable -o /dev/null -t 10 "$@" | cut -d';' -f1); }
field() { field_on "$@"; }
wait_run() { wait_run_on "$@"; }
nodes() { on "$1" scontrol show hostnames "$(field "$1" "$2" NodeList)" | sed 's/^n//' | sort -n | paste -sd' '; }
# Largest Manhattan distance between two of the node numbers given (4x4x2,
# n<i> at x = i % 4, y = i / 4 % 4, z = i / 16).
diameter() {
    echo "$@" | tr ' ' '\n' | awk '{ x[NR] = $1 % 4; y[NR] = int($1 / 4) % 4; z[NR] = int($1 / 16) }
        END { for (a = 1; a <= NR; a++) for (b = a + 1; b <= NR; b++) {
                dx = x[a] - x[b]; dy = y[a] - y[b]; dz = z[a] - z[b]
                d = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy) + (dz < 0 ? -dz : dz); if (d > m) m = d }
              print m + 0 }'
}

# ------------------------------------------------------------ Node Weight
for d in "$M" "$L"; do
    on "$d" scontrol update nodename=n[0-15] weight=100 || fail "${d##*/}: weight update"
    a=$(sub "$d" -N4 --wrap 'sleep 300')
    wait_run "$d" 30 "$a" || fail "${d##*/}: -N4 job $a does not run"
    b=$(sub "$d" -N12 --wrap 'sleep 300')
    wait_run "$d" 30 "$b" || fail "${d##*/}: -N12 job $b does not run"
    c=$(sub "$d" -N4 --wrap 'sleep 300')
    wait_run "$d" 30 "$c" || fail "${d##*/}: second -N4 job $c does not run"
    na=$(nodes "$d" "$a") nb=$(nodes "$d" "$b") nc=$(nodes "$d" "$c")
    echo "  ${d##*/}: weight 100 on n0-15: -N4 on [$na], then -N12 on [$nb], then -N4 on [$nc]"
    light=$(echo "$na $nb" | tr ' ' '\n' | awk '$1 >= 16' | wc -l)
    heavy=$(echo "$nc" | tr ' ' '\n' | awk '$1 < 16' | wc -l)
    [ "$light" -eq 16 ] && [ "$heavy" -eq 4 ] \
        && pass "${d##*/}: the -N4 and -N12 jobs stay on the light nodes n[16-31], the next -N4 on the heavy ones" \
        || fail "${d##*/}: light nodes used by the first two jobs $light/16, heavy by the third $heavy/4"
    on "$d" scancel -u root
    on "$d" scontrol update nodename=n[0-15] weight=1
done
sleep 3

# ------------------------------------------------------------- preemption
# preempt_case DIR TAG: 30 low jobs on n0..n29, a high -N3; writes
# TAG.victims and TAG.high (node numbers).
preempt_case() {
    local d=$1 tag=$2 i low=() h from
    # The jobs before ignore SIGTERM: their nodes complete for KillWait
    # first, longer on a loaded machine.
    wait_idle_on "$d" 32 90 || fail "$tag: not all 32 nodes idle after 90 s"
    from=$(wc -l <"$d/log/slurmctld.log")
    for i in $(seq 0 29); do
        low+=("$(sub "$d" -p low -N1 -w "n$i" --requeue --wrap "trap '' TERM; sleep 600")")
    done
    wait_run "$d" 120 "${low[@]}" || fail "$tag: 30 low jobs not all RUNNING"
    h=$(sub "$d" -p high -N3 --wrap 'sleep 300')
    if wait_run "$d" 40 "$h"; then
        pass "$tag: high -N3 job $h runs"
    else
        fail "$tag: high job $h is $(field "$d" "$h" JobState) ($(field "$d" "$h" Reason))"
    fi
    sleep 3	# any further preemption would show
    tail -n +"$from" "$d/log/slurmctld.log" | grep -oE 'preempted JobId=[0-9]+ has been requeued' \
        | awk '{ print $2 }' | sed 's/JobId=//' | sort -u | grep -Fxf <(printf '%s\n' "${low[@]}") \
        | wc -l >"$work/$tag.victims"
    nodes "$d" "$h" >"$work/$tag.high"
    no_overlap_on "$d" || fail "$tag: a node held by two running jobs"
    on "$d" scancel -u root
    sleep 4
}
no_overlap_on() {
    local dup
    dup=$(for j in $(on "$1" squeue -h -t R -o '%i'); do on "$1" scontrol show hostnames "$(field "$1" "$j" NodeList)"; done | sort | uniq -d)
    [ -z "$dup" ]
}

preempt_case "$L" linear &
preempt_case "$M" mc1x1
wait
printf 'Dimensions=4x4x2\nNodes=n[0-31]\nAllocator=contig-ff\n' >"$M/etc/mesh.conf.new"
mv -f "$M/etc/mesh.conf.new" "$M/etc/mesh.conf"
on "$M" scontrol reconfigure || fail "reconfigure to contig-ff"
wait_until 20 grep -q 'allocator contig-ff' "$M/log/slurmctld.log" || true
grep -q 'allocator contig-ff' "$M/log/slurmctld.log" || fail "contig-ff not loaded on reconfigure"
preempt_case "$M" contig-ff

vl=$(cat "$work/linear.victims") vf=$(cat "$work/contig-ff.victims") vm=$(cat "$work/mc1x1.victims")
hf=$(cat "$work/contig-ff.high") hm=$(cat "$work/mc1x1.high")
echo "  victims: select/linear $vl (high job on [$(cat "$work/linear.high")]), select/mesh contig-ff $vf (on [$hf]), select/mesh mc1x1 $vm (on [$hm], diameter $(diameter $hm))"
[ "$vl" -eq 1 ] && [ "$vf" -eq "$vl" ] \
    && pass "contig-ff preempts $vf job as select/linear does" \
    || fail "contig-ff preempts $vf job(s), select/linear $vl"
[ "$hf" = "29 30 31" ] && pass "contig-ff: the high job runs on n[29-31], freed by the one victim" \
    || fail "contig-ff: the high job runs on [$hf], not n[29-31]"
[ "$vm" -eq 1 ] && [ "$(diameter $hm)" -le 2 ] \
    && pass "mc1x1 preempts one job and places the high job compactly (diameter $(diameter $hm))" \
    || fail "mc1x1: $vm victim(s), high job on [$hm] (diameter $(diameter $hm))"
on "$M" scontrol ping | matches 'is UP' && pass "slurmctld still running" || fail "slurmctld died"
mesh_finish
