#!/usr/bin/env bash
# resize.sh - shrinking a running job (scontrol update NumNodes=) releases
# exactly the dropped nodes: a new job may use them, never the kept ones.
# Run under select/mesh and select/linear side by side, with the kept
# nodes of both printed.  Under select/mesh the placement text follows
# the resize (issue 39 item 5): SystemComment and squeue's PLACEMENT
# describe the kept nodes, also after a slurmctld restart.
. "$(dirname "$0")/lib.sh"
mesh_setup resize

M="$work/mesh" L="$work/linear"
start_bg "$M" --allocator mc1x1
start_bg "$L" --select select/linear
wait_started || { mesh_finish; exit 1; }

use_cluster() { conf=$1/etc/slurm.conf; }	# for sl, submit, job_field
for d in "$M" "$L"; do
    use_cluster "$d"
    a=$(submit -N8 -t 5 --wrap 'sleep 600')
    wait_state "$a" RUNNING 30 || fail "${d##*/}: job $a RUNNING"
    before=$(job_field "$a" NodeList)
    sl scontrol update JobId="$a" NumNodes=4 >/dev/null 2>&1
    sleep 1
    kept=$(hosts "$(job_field "$a" NodeList)")
    echo "  ${d##*/}: job $a resized from $before to $(job_field "$a" NodeList)"
    [ "$(echo "$kept" | wc -l)" -eq 4 ] && pass "${d##*/}: job $a shrunk to 4 nodes: $(echo $kept)" \
        || fail "${d##*/}: job $a holds: $(echo $kept)"
    b=$(submit -N12 -t 5 --wrap 'sleep 600')
    wait_state "$b" RUNNING 30 && pass "${d##*/}: a 12-node job starts on the 16 - 4 free nodes" \
        || fail "${d##*/}: 12-node job $b is $(job_field "$b" JobState) ($(job_field "$b" Reason))"
    b_nodes=$(hosts "$(job_field "$b" NodeList)")
    shared=$(comm -12 <(echo "$kept") <(echo "$b_nodes"))
    [ -z "$shared" ] && pass "${d##*/}: none of job $a's kept nodes given to job $b" \
        || fail "${d##*/}: job $b got kept nodes: $shared"
    no_overlap && pass "${d##*/}: no node held by two running jobs" || fail "${d##*/}: overlap"
    echo "$a" >"$d.job"
done

# select/mesh: the placement text is that of the 4 kept nodes, as smesh
# recomputes it from the node list and mesh.conf.
use_cluster "$M"
a=$(cat "$M.job")
if [ "$mesh_series" = 2205 ]; then
    placement() { sl squeue -h -j "$a" -O SelectJobInfo:80 | sed 's/ *$//'; }
else	# no SelectJobInfo since 23.02: SystemComment only
    placement() { local c; c=$(job_comment "$a"); echo "${c#mesh:v1 }"; }
fi
check_text() {   # when
    local c p want
    c=$(job_comment "$a") p=$(placement)
    want=$(SLURM_CONF=$conf "$SMESH" show job "$a" 2>/dev/null |
        sed -n 's/^BBox=\([^ ]*\) SumDist=\([^ ]*\) AvgDist=\([^ ]*\) Diameter=\(.*\)/bbox=\1 sumdist=\2 avgdist=\3 diam=\4/p')
    echo "  after $1: SystemComment '$c', PLACEMENT '$p' (kept nodes: $want)"
    case "$c" in
        *"$want"*) [ -n "$want" ] && [ "${c#mesh:v1 }" = "$p" ] \
            && pass "select/mesh: placement text follows the resize ($1)" \
            || fail "select/mesh: placement text ($1): '$c' / '$p'" ;;
        *) fail "select/mesh: SystemComment after $1 is '$c', the kept nodes have $want" ;;
    esac
}
check_text resize
"$CLUSTER" restart-ctld --dir "$M" >/dev/null 2>&1 || fail "slurmctld restart"
check_text "slurmctld restart"
ctld_alive && pass "slurmctld still running" || fail "slurmctld died"
mesh_finish
