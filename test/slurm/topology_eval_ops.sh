#!/usr/bin/env bash
# topology_eval_ops.sh - issue 51: topology/mesh's placement inside
# cons_tres (Slurm 24.11) in the paths beyond a plain job start, each
# against stock cons_tres on the same 4x4 cluster (CR_Core, Allocator=
# mc1x1, Curve=rowmajor, so only eval_nodes can make a box):
#   - a reservation of n[0-7]: two -N4 jobs in it run inside it, as two
#     2x2 boxes under topology/mesh (stock: the two rows);
#   - sbatch --test-only (WILL_RUN) on the empty machine names the nodes
#     the job would get, a 2x2 box under topology/mesh;
#   - a slurmctld restart with running jobs: they survive, and a new job
#     is placed on free nodes as a box, with no node held twice.
. "$(dirname "$0")/lib.sh"
mesh_not_on 2205 "topology_p_eval_nodes exists since Slurm 24.05"
mesh_setup topo-ops

inside() {   # nodelist set -> 0 if every node of the first is in the second
    [ -z "$(comm -23 <(hosts "$1") <(hosts "$2"))" ]
}
me=$(id -un)
declare -A got

run_cluster() {   # label [cluster.sh options]
    local label=$1 d="$work/$1" a b t c
    shift
    printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\nCurve=rowmajor\n' \
        >"$work/mesh-$label.conf"
    if ! cluster_start "$d" --select select/cons_tres --mesh-conf "$work/mesh-$label.conf" \
        --extra-slurm-conf "SelectTypeParameters=CR_Core" "$@"; then
        fail "$label: cluster start"; return 1
    fi

    t=$(sl sbatch --test-only -N4 -t 5 --wrap 'sleep 60' 2>&1)
    got[$label,testonly]=$(echo "$t" | sed -n 's/.* on nodes \([^ ]*\).*/\1/p')
    [ -n "${got[$label,testonly]}" ] || fail "$label: sbatch --test-only said: $t"

    if sl scontrol create reservation ReservationName=r8 Nodes='n[0-7]' \
        StartTime=now Duration=30 Users="$me" Flags=IGNORE_JOBS >/dev/null 2>&1; then
        a=$(submit -N4 -t 5 --reservation=r8 --wrap 'sleep 60')
        b=$(submit -N4 -t 5 --reservation=r8 --wrap 'sleep 60')
        if wait_state "$a" RUNNING 30 && wait_state "$b" RUNNING 30; then
            got[$label,resv]="$(job_field "$a" NodeList) $(job_field "$b" NodeList)"
        else
            fail "$label: reservation jobs $a $b not RUNNING"
        fi
        sl scancel "$a" "$b" 2>/dev/null
        wait_until 30 sh -c "[ -z \"\$(SLURM_CONF=$conf squeue -h -t R,CG 2>/dev/null)\" ]" ||
            fail "$label: reservation jobs did not end"
        sl scontrol delete ReservationName=r8 >/dev/null 2>&1 ||
            fail "$label: delete reservation"
    else
        fail "$label: create reservation"
    fi

    a=$(submit -N4 -t 10 --wrap 'sleep 600')
    b=$(submit -N4 -t 10 --wrap 'sleep 600')
    wait_state "$a" RUNNING 30 && wait_state "$b" RUNNING 30 ||
        fail "$label: jobs before the restart not RUNNING"
    if "$CLUSTER" restart-ctld --dir "$d" --timeout 60 >/dev/null 2>&1; then
        if [ "$(job_field "$a" JobState)" = RUNNING ] &&
            [ "$(job_field "$b" JobState)" = RUNNING ]; then
            pass "$label: jobs $a, $b survive a slurmctld restart"
        else
            fail "$label: jobs lost by the restart"
        fi
        c=$(submit -N4 -t 10 --wrap 'sleep 600')
        if wait_state "$c" RUNNING 30; then
            got[$label,restart]="$(job_field "$a" NodeList) $(job_field "$b" NodeList) then $(job_field "$c" NodeList)"
            got[$label,after]=$(job_field "$c" NodeList)
        else
            fail "$label: job $c after the restart not RUNNING"
        fi
        no_overlap && pass "$label: no node held twice after the restart" ||
            fail "$label: overlap after the restart"
    else
        fail "$label: slurmctld restart"
    fi
    ctld_alive && pass "$label: slurmctld still running" || fail "$label: slurmctld died"
    sl scancel -u "$me" 2>/dev/null
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1
}

run_cluster stock
run_cluster mesh --extra-slurm-conf "TopologyPlugin=topology/mesh"

printf '  %-10s %-30s %s\n' case stock topology/mesh
for k in testonly resv restart; do
    printf '  %-10s %-30s %s\n' "$k" "${got[stock,$k]:-none}" "${got[mesh,$k]:-none}"
done
t=${got[mesh,testonly]:-}
[ -n "$t" ] && mesh4_is_square "$t" && pass "mesh: --test-only names a 2x2 box: $t" ||
    fail "mesh: --test-only named '$t', not a 2x2 box"
n=0
for nl in ${got[mesh,resv]:-}; do
    inside "$nl" 'n[0-7]' && mesh4_is_square "$nl" && n=$((n + 1))
done
[ "$n" -eq 2 ] && pass "mesh: both reservation jobs are 2x2 boxes inside n[0-7]: ${got[mesh,resv]}" ||
    fail "mesh: $n of 2 reservation jobs are boxes inside n[0-7]: '${got[mesh,resv]:-}'"
n=0
for nl in ${got[stock,resv]:-}; do inside "$nl" 'n[0-7]' && n=$((n + 1)); done
[ "$n" -eq 2 ] && pass "stock: both reservation jobs inside n[0-7] too" ||
    fail "stock: $n of 2 reservation jobs inside n[0-7]"
t=${got[mesh,after]:-}
[ -n "$t" ] && mesh4_is_square "$t" && pass "mesh: the job after the restart is a 2x2 box: $t" ||
    fail "mesh: the job after the restart got '$t', not a 2x2 box"
mesh_finish
