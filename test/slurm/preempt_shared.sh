#!/usr/bin/env bash
# preempt_shared.sh - select/mesh over cons_tres preempts no more jobs
# than the placement needs when nodes are shared, also past the search's
# bound, and does not preempt again while its victims complete.
#
# 4x4 nodes of 4 CPUs (CR_Core_Memory, OTHER_CONS_TRES), 64 one-CPU jobs
# in a low partition fill every CPU; PreemptMode=CANCEL and an Epilog
# that takes 8 s keep each victim's node COMPLETING for a while.  A high
# job of -N4 --ntasks-per-node=1 needs one CPU on each of four nodes:
# four victims.  mesh.conf's PlanMaxPlacements=1 cuts the compact search
# at once, so the victims come from Slurm's order, which releases all
# four jobs of a node before the next one's; the placement needs one of
# them per node.
#   - the high job runs, after exactly four victims, one on each of its
#     nodes (not a prefix of Slurm's order, and no new victims while the
#     first four complete);
. "$(dirname "$0")/lib.sh"
mesh_not_on 2411 "SelectTypeParameters=OTHER_CONS_TRES is gone since Slurm 24.05; preemption under topology/mesh is Slurm's own (topology_eval_share.sh)"
mesh_setup preempt_shared

d=$work/mesh
cat >"$work/epilog" <<'EOF'
#!/bin/sh
sleep 8
EOF
chmod 0755 "$work/epilog"
cat >"$work/mesh.conf" <<'EOF'
Dimensions=4x4
Nodes=n[0-15]
Allocator=mc1x1
PlanMaxPlacements=1
EOF
cluster_start "$d" --select select/mesh --mesh-conf "$work/mesh.conf" \
    --node-params "CPUs=4 RealMemory=4000" \
    --extra-slurm-conf "SlurmdParameters=config_overrides" \
    --extra-slurm-conf "SelectTypeParameters=CR_Core_Memory,OTHER_CONS_TRES" \
    --extra-slurm-conf "DefMemPerCPU=100" \
    --extra-slurm-conf "PreemptType=preempt/partition_prio" \
    --extra-slurm-conf "PreemptMode=CANCEL" \
    --extra-slurm-conf "Epilog=$work/epilog" \
    --extra-slurm-conf "PartitionName=low Nodes=n[0-15] MaxTime=INFINITE State=UP OverSubscribe=NO PriorityTier=1" \
    --extra-slurm-conf "PartitionName=high Nodes=n[0-15] MaxTime=INFINITE State=UP OverSubscribe=NO PriorityTier=10" \
    >"$d.start" 2>&1 || { tail -n 20 "$d.start"; fail "cluster start"; mesh_finish; exit 1; }

(cd "$work/jobs" && sl sbatch -Q -p low -N1 -n1 --array=0-63 -o /dev/null --wrap 'sleep 300') ||
    fail "the low jobs were not submitted"
if wait_until 90 sh -c "[ \$(SLURM_CONF=$conf squeue -h -t R -p low -o %i | wc -l) -eq 64 ]"; then
    pass "64 low jobs run, every CPU busy"
else
    fail "only $(sl squeue -h -t R -p low -o %i | wc -l) of 64 low jobs run"
fi

h=$(cd "$work/jobs" && sl sbatch --parsable -p high -N4 --ntasks-per-node=1 -o /dev/null --wrap 'sleep 300')
if wait_run_on "$d" 90 "$h"; then
    pass "the high job runs on $(field_on "$d" "$h" NodeList)"
else
    fail "high job $h is $(field_on "$d" "$h" JobState) ($(field_on "$d" "$h" Reason))"
fi
sleep 3	# a late second round of victims would show
grep -oE "preempted JobId=[0-9_()]+ has been killed to reclaim resources for JobId=$h\$" \
    "$d/log/slurmctld.log" | sed -E 's/preempted JobId=[0-9]+_[0-9]+\(([0-9]+)\).*/\1/' >"$d.victims"
n=$(wc -l <"$d.victims")
[ "$n" -eq 4 ] && pass "four victims, as the placement needs" ||
    fail "$n victims ($(paste -sd, "$d.victims")); the placement needs 4"
# Each victim's node, from slurmctld's log of its start (main scheduler
# or backfill).
hn=$(sl scontrol show hostnames "$(field_on "$d" "$h" NodeList)" | sort | paste -sd' ')
vn=$(while read -r id; do
    sed -nE "s/.*(Allocate JobId=[0-9]+_[0-9]+\($id\) NodeList=|Started JobId=[0-9]+_[0-9]+\($id\) in low on )(n[0-9]+).*/\2/p" \
        "$d/log/slurmctld.log" | head -n 1
done <"$d.victims" | sort | paste -sd' ')
[ -n "$hn" ] && [ "$vn" = "$hn" ] && pass "one victim on each of the high job's nodes ($vn)" ||
    fail "victims on [$vn], the high job on [$hn]"
mesh_finish
