#!/usr/bin/env bash
# contiguous.sh - issue 9.1: --contiguous parity with Slurm's own
# regression tests test1.83 (srun -N3-3 --contiguous) and test15.21
# (salloc -N3-3 --contiguous), which expect consecutive node indices.
# select/linear gives n[0-2] on an empty 4x4; select/mesh must too (a
# 3x1 row, not the column n[0,4,8]).  Both selectors run the same steps.
. "$(dirname "$0")/lib.sh"
mesh_setup contig

# Node indices of a node list (n<i> is index i here: Nodes=n[0-15]).
indices() { hosts "$1" | sed 's/^n//' | sort -n | tr '\n' ' '; }
consecutive() {   # "i j k " -> 0 if each is the previous + 1
    local prev="" i
    for i in $1; do
        [ -z "$prev" ] || [ "$i" -eq $((prev + 1)) ] || return 1
        prev=$i
    done
    [ -n "$prev" ]
}

run_case() {   # selector
    local sel=$1 d="$work/${1#select/}" out nl idx
    if ! cluster_start "$d" --select "$sel"; then
        fail "$sel: cluster start"; return
    fi
    # test1.83: srun -N3-3 --contiguous; the step's node names.
    out=$(cd "$work/jobs" && sl srun -N3-3 --contiguous -t 1 \
        printenv SLURMD_NODENAME 2>&1 | sort -V | tr '\n' ',')
    idx=$(echo "$out" | tr ',' '\n' | grep '^n[0-9]' | sed 's/^n//' | sort -n | tr '\n' ' ')
    if [ "$(echo $idx | wc -w)" -eq 3 ] && consecutive "$idx"; then
        pass "$sel: srun -N3-3 --contiguous runs on consecutive indices: $idx"
    else
        fail "$sel: srun -N3-3 --contiguous: $out"
    fi
    # test15.21: salloc -N3-3 --contiguous; the allocation's node list.
    # The srun's nodes must be idle again first: while they complete,
    # slurmctld offers none of them, and n[0-2] cannot be the answer.
    local end=$((SECONDS + 15))
    while [ "$(sl sinfo -h -N -t idle -o '%N' | sort -u | wc -l)" -lt 16 ] &&
        [ "$SECONDS" -lt "$end" ]; do
        sleep 0.2
    done
    nl=$(cd "$work/jobs" && sl salloc -N3-3 --contiguous -t 1 \
        bash -c 'echo "NL=$SLURM_JOB_NODELIST"' 2>/dev/null | sed -n 's/^NL=//p')
    idx=$(indices "$nl")
    if [ "$nl" = "n[0-2]" ] && consecutive "$idx"; then
        pass "$sel: salloc -N3-3 --contiguous gets $nl"
    else
        fail "$sel: salloc -N3-3 --contiguous got '$nl' (want n[0-2])"
    fi
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1
}

run_case select/linear
run_case select/mesh
mesh_finish
