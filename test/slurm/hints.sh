#!/usr/bin/env bash
# hints.sh - issue 9.3: per-job hints reach select/mesh in slurmctld.
# spank_mesh.so (plugstack.conf) turns --mesh-shape into MESH_SHAPE in the
# job's SPANK environment; select/mesh reads it from the job record into
# the request, and the mc allocator places the requested shape.  A job
# without a hint gets mesh.conf's DefaultMeshShape=.  A bad value, or a
# shape whose volume is not the job's node count, is refused by sbatch,
# salloc or srun with a clear message; mc1x1, which ignores shapes, says
# so in SystemComment.  Allocator=auto's per-job choice runs under
# select/mesh, and on 24.11 under cons_tres with topology/mesh.
. "$(dirname "$0")/lib.sh"
mesh_setup hints

same() {   # nodelist axis(x|y) -> 0 if all 4 nodes share that coordinate
    local f='$1 % 4'
    [ "$2" = y ] && f='int($1 / 4)'
    [ "$(hosts "$1" | wc -l)" -eq 4 ] &&
        [ "$(hosts "$1" | sed 's/^n//' | awk "{print $f}" | sort -u | wc -l)" -eq 1 ]
}

echo "required $work/plugins/spank_mesh.so" >"$work/plugstack.conf"
printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc\nDefaultMeshShape=1x4\n' \
    >"$work/mesh.conf"
d="$work/c"
if ! cluster_start "$d" --select select/mesh --mesh-conf "$work/mesh.conf" \
    --extra-slurm-conf "PlugStackConfig=$work/plugstack.conf"; then
    fail "cluster start"
else
    # A row: --mesh-shape=4x1 (all four share y).
    j=$(submit -N4 -t 5 --mesh-shape=4x1 --wrap 'sleep 30')
    if [ -n "$j" ] && wait_state "$j" RUNNING 30 &&
        same "$(job_field "$j" NodeList)" y; then
        pass "--mesh-shape=4x1 gets a row: $(job_field "$j" NodeList)"
    else
        fail "--mesh-shape=4x1 got '$(job_field "$j" NodeList)'"
    fi
    sl scancel "$j"; sleep 2
    # No hint: DefaultMeshShape=1x4, a column (all four share x).
    j=$(submit -N4 -t 5 --wrap 'sleep 30')
    if [ -n "$j" ] && wait_state "$j" RUNNING 30 &&
        same "$(job_field "$j" NodeList)" x; then
        pass "no hint: DefaultMeshShape=1x4 gives a column: $(job_field "$j" NodeList)"
    else
        fail "no hint got '$(job_field "$j" NodeList)' (want a column)"
    fi
    sl scancel "$j"
    # Bad values are refused at submission, naming the value.
    out=$(cd "$work/jobs" && sl sbatch -N1 --io-intensity=1.5 --wrap true 2>&1)
    if [ $? -ne 0 ] && echo "$out" | grep >/dev/null '1.5'; then
        pass "--io-intensity=1.5 refused: $(echo "$out" | head -1)"
    else
        fail "--io-intensity=1.5 not refused: $out"
    fi
    # salloc and srun refuse a bad value client-side too (spank_mesh in
    # their local context): a non-zero exit, a message naming the option
    # and the value, and no job reaches slurmctld.
    out=$(cd "$work/jobs" && sl salloc -N1 -J badhint --comm=ring true 2>&1)
    rc=$?
    if [ $rc -ne 0 ] && echo "$out" | grep >/dev/null 'comm.*ring'; then
        pass "salloc --comm=ring refused: $(echo "$out" | grep -m1 ring)"
    else
        fail "salloc --comm=ring not refused (rc=$rc): $out"
    fi
    out=$(cd "$work/jobs" && sl srun -N1 -J badhint --mesh-shape=4y2 true 2>&1)
    rc=$?
    if [ $rc -ne 0 ] && echo "$out" | grep >/dev/null 'mesh-shape.*4y2'; then
        pass "srun --mesh-shape=4y2 refused: $(echo "$out" | grep -m1 4y2)"
    else
        fail "srun --mesh-shape=4y2 not refused (rc=$rc): $out"
    fi
    out=$(cd "$work/jobs" && sl srun -N1 -J badhint --io-intensity=-0.2 true 2>&1)
    rc=$?
    if [ $rc -ne 0 ] && echo "$out" | grep >/dev/null 'io-intensity.*-0.2'; then
        pass "srun --io-intensity=-0.2 refused: $(echo "$out" | grep -m1 -- -0.2)"
    else
        fail "srun --io-intensity=-0.2 not refused (rc=$rc): $out"
    fi
    n=$(sl squeue -h -t all -n badhint | wc -l)
    [ "$n" -eq 0 ] && pass "no job of a refused salloc/srun reached slurmctld" ||
        fail "$n badhint jobs reached slurmctld: $(sl squeue -h -t all -n badhint)"
    grep -q 'hints shape=4x1x1' "$d/log/slurmctld.log" &&
        pass "slurmctld logged the hint" || fail "no hint line in slurmctld.log"
    # A bad hint through the submit API (no spank_mesh check): the shape
    # "4xz" is ignored whole (DefaultMeshShape=1x4 places a column, not
    # the 4x1 row a half-read "4" would give), its good neighbour is
    # kept, and the error is logged once, not on every scheduling and
    # backfill pass it waits through (bf_interval=1).
    submit_env=$top_build/test/slurm/submit-env
    if [ ! -x "$submit_env" ]; then
        fail "no $submit_env (built with smesh)"
    else
        hold=$(submit -N16 -t 5 --wrap 'sleep 60')
        wait_state "$hold" RUNNING 30 || true
        b=$(cd "$work/jobs" && sl "$submit_env" 4 MESH_SHAPE=4xz MESH_COMM=nearest)
        for i in 1 2 3; do submit -N1 -t 1 --wrap true >/dev/null; sleep 2; done
        # b waited through those passes; it starts once all 16 nodes are
        # idle again, so that nodes still completing the 16-node job (or
        # the 1-node jobs) cannot push it off the column.
        sl scontrol hold "$b"
        sl scancel "$hold"
        wait_idle_on "$d" 16 60 || echo "  not all 16 nodes idle after 60 s"
        sl scontrol release "$b"
        wait_state "$b" RUNNING 30 || true
        nl=$(job_field "$b" NodeList)
        if [ -n "$b" ] && same "$nl" x; then
            pass "MESH_SHAPE=4xz (submit API) ignored: DefaultMeshShape's column $nl"
        else
            fail "MESH_SHAPE=4xz (submit API) got '$nl' (want a column)"
        fi
        n=$(grep -c "JobId=$b: ignoring a bad hint.*4xz" "$d/log/slurmctld.log")
        passes=$(grep "JobId=$b mode=" "$d/log/slurmctld.log" |
            sed 's/.*repeats_not_logged=//' | awk '{ n += 1 + $1 } END { print n + 0 }')
        if [ "$n" -eq 1 ] && [ "$passes" -gt 1 ]; then
            pass "the bad hint logged once over at least $passes placement calls: $(grep -m1 "JobId=$b: ignoring" "$d/log/slurmctld.log" | sed 's/^.*select\/mesh: //')"
        else
            fail "the bad hint of job $b logged $n times over at least $passes placement calls"
        fi
        sl scancel "$b"
    fi
    # A shape whose volume is not the node count is refused at submission
    # (issue 39.7), as is one larger than any mesh; a node range that
    # holds the volume is accepted.
    for c in "sbatch -N4 --mesh-shape=3x3|is 9 nodes, but the job asks for 4" \
        "srun -N4 --mesh-shape=3x3|is 9 nodes, but the job asks for 4" \
        "sbatch --mesh-shape=100000x100000x100000|more than any mesh holds" \
        "sbatch -N2-3 --mesh-shape=2x2|outside the job's node range 2-3"; do
        cmd=(${c%%|*} -J badhint -t 1)	# the command line, split
        if [ "${cmd[0]}" = srun ]; then cmd+=(true); else cmd+=(--wrap true); fi
        out=$(cd "$work/jobs" && sl "${cmd[@]}" 2>&1)
        rc=$?
        if [ $rc -ne 0 ] && echo "$out" | grep >/dev/null -- "${c#*|}"; then
            pass "${c%%|*} refused: $(echo "$out" | grep -m1 -- "${c#*|}")"
        else
            fail "${c%%|*} not refused as wanted (rc=$rc): $out"
        fi
    done
    n=$(sl squeue -h -t all -n badhint | wc -l)
    [ "$n" -eq 0 ] || fail "$n jobs with a refused shape reached slurmctld"
    j=$(submit -N2-6 -t 5 --mesh-shape=2x2 --wrap 'sleep 30')
    [ -n "$j" ] && pass "-N2-6 --mesh-shape=2x2 accepted (job $j)" || fail "-N2-6 --mesh-shape=2x2 refused"
    sl scancel "$j" 2>/dev/null
    # An allocator that ignores shapes says so in SystemComment; mc, which
    # uses them, does not.
    comment_of() { sl scontrol -o show job "$1" | grep -o 'SystemComment=mesh:v1 [^=]*=[^ ]* [^ ]* [^ ]* [^ ]* [^ ]*\( shape=[a-z]*\)\{0,1\}'; }
    j=$(submit -N4 -t 5 --mesh-shape=2x2 --wrap 'sleep 30')
    wait_state "$j" RUNNING 30 || true
    c_mc=$(comment_of "$j")
    sl scancel "$j"
    printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\nDefaultMeshShape=1x4\n' >"$d/etc/mesh.conf.new"
    mv -f "$d/etc/mesh.conf.new" "$d/etc/mesh.conf"
    sl scontrol reconfigure
    sleep 2
    j=$(submit -N4 -t 5 --mesh-shape=2x2 --wrap 'sleep 30')
    wait_state "$j" RUNNING 30 || true
    c_mc1=$(comment_of "$j")
    echo "  Allocator=mc: ${c_mc:-?}; Allocator=mc1x1: ${c_mc1:-?}"
    case "$c_mc1" in
        *" shape=ignored") pass "mc1x1 says in SystemComment that it ignores the shape" ;;
        *) fail "mc1x1 SystemComment: '$c_mc1'" ;;
    esac
    case "$c_mc" in
        *alloc=mc\ *shape=ignored | "") fail "mc SystemComment: '$c_mc'" ;;
        *alloc=mc\ *) pass "mc, which uses the shape, does not say shape=ignored" ;;
        *) fail "mc SystemComment: '$c_mc'" ;;
    esac
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1
fi

# Allocator=auto (per-job policy, doc/allocators.md) on a 4x4 with the I/O
# column x=0.  Three jobs, each submitted once the ones before it run, so
# each is placed on a known set of free nodes:
#   A  -N4 --io-intensity=0.9            -> plas
#   B  -N4 --io-intensity=0.1 --comm=all-to-all -> mc1x1
#   C  -N2 --io-intensity=0.1 --comm=none       -> hilbert-bf
# The wanted nodes are computed by meshsim running that single allocator
# on a mesh.conf that names only the nodes then free (the I/O positions
# keep their nodes, as in slurmctld).  For C the test also checks that
# mc1x1 would place it elsewhere, so a policy that ignores --comm fails.
meshsim=$top_build/src/meshsim/meshsim
expect_nodes() {   # allocator k busy-node... -> node names, sorted
    local a=$1 k=$2 i f="$work/expect.conf"
    shift 2
    local busy=" $* "
    {
        printf 'Dimensions=4x4\nIONodes=0,0;0,1;0,2;0,3\nAllocator=%s\n' "$a"
        for i in $(seq 0 15); do
            case "$busy" in *" n$i "*) ;; *) echo "NodeName=n$i Coord=$((i % 4)),$((i / 4))" ;; esac
        done
    } >"$f"
    echo "1 0 -1 1000 $k -1 -1 $k 1000 -1 1 1 1 -1 1 -1 -1 -1" >"$work/expect.swf"
    "$meshsim" --mesh-conf "$f" --jobs-csv "$work/expect.out" "$work/expect.swf" \
        >/dev/null 2>&1 || return 1
    awk -F, 'NR == 2 { print $11 }' "$work/expect.out" | tr ' ' '\n' |
        awk -F: 'NF == 2 { print "n" ($2 * 4 + $1) }' | sort -V | paste -sd ' '
}
got_nodes() { hosts "$(job_field "$1" NodeList)" | sort -V | paste -sd ' '; }

printf 'Dimensions=4x4\nNodes=n[0-15]\nIONodes=n[0,4,8,12]\nAllocator=auto\n' \
    >"$work/mesh-auto.conf"
auto_case() {   # label cluster.sh-options...
    local label=$1 d="$work/$1" want got busy other a b c
    shift
    if ! cluster_start "$d" --mesh-conf "$work/mesh-auto.conf" \
        --extra-slurm-conf "PlugStackConfig=$work/plugstack.conf" "$@"; then
        fail "$label: cluster start"
        return
    fi
    want=$(expect_nodes plas 4)
    a=$(submit -N4 -t 5 --io-intensity=0.9 --wrap 'sleep 300')
    wait_state "$a" RUNNING 30; got=$(got_nodes "$a")
    if [ -n "$want" ] && [ "$got" = "$want" ]; then
        pass "$label: --io-intensity=0.9 gets plas's nodes $got"
    else
        fail "$label: --io-intensity=0.9 got '$got', plas gives '$want'"
    fi
    busy=$got
    want=$(expect_nodes mc1x1 4 $busy)
    b=$(submit -N4 -t 5 --io-intensity=0.1 --comm=all-to-all --wrap 'sleep 300')
    wait_state "$b" RUNNING 30; got=$(got_nodes "$b")
    if [ -n "$want" ] && [ "$got" = "$want" ]; then
        pass "$label: --comm=all-to-all gets mc1x1's block $got beside the I/O job"
    else
        fail "$label: --comm=all-to-all got '$got', mc1x1 gives '$want' (busy: $busy)"
    fi
    busy="$busy $got"
    want=$(expect_nodes hilbert-bf 2 $busy)
    other=$(expect_nodes mc1x1 2 $busy)
    c=$(submit -N2 -t 5 --io-intensity=0.1 --comm=none --wrap 'sleep 300')
    wait_state "$c" RUNNING 30; got=$(got_nodes "$c")
    if [ -n "$want" ] && [ "$got" = "$want" ] && [ -n "$other" ] &&
        [ "$want" != "$other" ]; then
        pass "$label: --comm=none gets hilbert-bf's $got (mc1x1 would give $other)"
    else
        fail "$label: --comm=none got '$got', hilbert-bf gives '$want', mc1x1 '$other' (busy: $busy)"
    fi
    sl scancel "$a" "$b" "$c"
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1
}
auto_case auto --select select/mesh
# On 24.11 topology/mesh places inside cons_tres with the same hints and
# policy (topology_p_eval_nodes): the same three jobs, the same nodes.
[ "$mesh_series" = 2205 ] ||
    auto_case topology-auto --select select/cons_tres \
        --extra-slurm-conf "SelectTypeParameters=CR_Core" \
        --extra-slurm-conf "TopologyPlugin=topology/mesh"
mesh_finish
