#!/usr/bin/env bash
# every_allocator.sh - every allocator in the library is selectable in
# slurmctld: for each name meshsim lists, mesh.conf is rewritten,
# `scontrol reconfigure` reloads it, and a 3-node job must run on 3
# distinct nodes with a SystemComment naming that allocator.
. "$(dirname "$0")/lib.sh"
mesh_setup everyalloc
MESHSIM=$top_build/src/meshsim/meshsim

d="$work/c"
cat >"$work/mesh.conf" <<CONF
Dimensions=4x4
Nodes=n[0-15]
IONodes=0,1;0,2
Allocator=mc1x1
CONF
cluster_start "$d" --mesh-conf "$work/mesh.conf" || { fail "cluster start"; exit 1; }
names=$("$MESHSIM" --list-allocators | awk '{print $1}')
[ -n "$names" ] || { fail "meshsim --list-allocators"; exit 1; }
# On 24.11 a reconfigure restarts slurmctld (about 5 s each): of the
# curve and contiguous allocators only the -bf fits run there, the other
# fits being the same code behind the same name lookup (22.05 runs them
# all).
if [ "$(mesh_series)" = 2411 ]; then
    names=$(printf '%s\n' $names | grep -Ev -- '-(ff|freelist|sos)$')
fi
for name in $names; do
    sed "s/^Allocator=.*/Allocator=$name/" "$work/mesh.conf" >"$d/etc/mesh.conf.new"
    mv -f "$d/etc/mesh.conf.new" "$d/etc/mesh.conf"
    if ! sl scontrol reconfigure >/dev/null 2>&1 || ! ctld_alive; then
        fail "$name: reconfigure failed"
        continue
    fi
    j=$(submit -N3 -t 2 --wrap 'sleep 60')
    if ! wait_state "$j" RUNNING 30; then
        fail "$name: job $j is $(job_field "$j" JobState) ($(job_field "$j" Reason))"
        sl scancel "$j"
        continue
    fi
    nodes=$(hosts "$(job_field "$j" NodeList)" | sort -u | wc -l)
    comment=$(job_comment "$j")
    if [ "$nodes" -eq 3 ] && [[ "$comment" == "mesh:v1 alloc=$name "* ]]; then
        pass "$name: $(job_field "$j" NodeList) $comment"
    else
        fail "$name: $nodes nodes, SystemComment '$comment'"
    fi
    sl scancel "$j"
    wait_state "$j" CANCELLED 15 >/dev/null || true
done
ctld_alive && pass "slurmctld still running" || fail "slurmctld died"
mesh_finish
