#!/usr/bin/env bash
# hints.sh - issue 9.3: per-job hints reach select/mesh in slurmctld.
# spank_mesh.so (plugstack.conf) turns --mesh-shape into MESH_SHAPE in the
# job's SPANK environment; select/mesh reads it from the job record into
# the request, and the mc allocator places the requested shape.  A job
# without a hint gets mesh.conf's DefaultMeshShape=.  A bad value is
# refused by sbatch with a clear message.
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
    if [ $? -ne 0 ] && echo "$out" | grep -q '1.5'; then
        pass "--io-intensity=1.5 refused: $(echo "$out" | head -1)"
    else
        fail "--io-intensity=1.5 not refused: $out"
    fi
    grep -q 'hints shape=4x1x1' "$d/log/slurmctld.log" &&
        pass "slurmctld logged the hint" || fail "no hint line in slurmctld.log"
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1
fi

# Allocator=auto (per-job policy) on a 4x4 with the I/O column x=0: an
# I/O-heavy job (plas) and a compute job (mc1x1) on the same empty mesh
# get different node sets; the compute job a compact 2x2 block.
printf 'Dimensions=4x4\nNodes=n[0-15]\nIONodes=n[0,4,8,12]\nAllocator=auto\n' \
    >"$work/mesh-auto.conf"
d="$work/auto"
if ! cluster_start "$d" --select select/mesh --mesh-conf "$work/mesh-auto.conf" \
    --extra-slurm-conf "PlugStackConfig=$work/plugstack.conf"; then
    fail "auto: cluster start"
else
    j=$(submit -N4 -t 5 --io-intensity=0.9 --wrap 'sleep 30')
    wait_state "$j" RUNNING 30; io_nl=$(job_field "$j" NodeList)
    sl scancel "$j"; sleep 2
    j=$(submit -N4 -t 5 --io-intensity=0.1 --comm=all-to-all --wrap 'sleep 30')
    wait_state "$j" RUNNING 30; cp_nl=$(job_field "$j" NodeList)
    sl scancel "$j"
    xs=$(hosts "$cp_nl" | sed 's/^n//' | awk '{print $1 % 4}' | sort -u | wc -l)
    ys=$(hosts "$cp_nl" | sed 's/^n//' | awk '{print int($1 / 4)}' | sort -u | wc -l)
    if [ -n "$io_nl" ] && [ -n "$cp_nl" ] && [ "$io_nl" != "$cp_nl" ] &&
        [ "$xs" -eq 2 ] && [ "$ys" -eq 2 ]; then
        pass "auto: I/O-heavy job got $io_nl, compute job the 2x2 $cp_nl"
    else
        fail "auto: I/O-heavy job got '$io_nl', compute job '$cp_nl'"
    fi
fi
mesh_finish
