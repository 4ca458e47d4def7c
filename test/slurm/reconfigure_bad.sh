#!/usr/bin/env bash
# reconfigure_bad.sh - a bad mesh.conf on 'scontrol reconfigure' never
# kills slurmctld: the error names file:line:key, the running mesh and
# allocator stay in use, a job running before keeps running (not requeued,
# not started twice), new jobs are still placed, and once the file is
# fixed a reconfigure applies the new configuration.  On 22.05 the plugin
# logs the error and keeps its mesh.  Since 23.11 a reconfigure starts a
# new slurmctld process, which stops on the bad file (fatal, file:line:key)
# while the old process resumes: slurmctld runs as a daemon here
# (cluster.sh --ctld-daemon), as sites run it.
. "$(dirname "$0")/lib.sh"
mesh_setup reconfbad

d="$work/c"
daemon=()
[ "$mesh_series" = 2205 ] || daemon=(--ctld-daemon)
cluster_start "$d" --allocator mc1x1 "${daemon[@]}" || { fail "cluster start"; exit 1; }
mc="$d/etc/mesh.conf"
log="$d/log/slurmctld.log"
starts="$work/jobs/a.starts"
a=$(submit -N4 -t 10 --wrap "echo started >>$starts; sleep 600")
wait_state "$a" RUNNING 30 || fail "job $a RUNNING"
a_nodes=$(job_field "$a" NodeList)
a_start=$(job_field "$a" StartTime)

# bad_reconf NAME EXPECT-REGEX TEXT: install TEXT as mesh.conf, reconfigure.
bad_reconf() {
    local name=$1 want=$2 before line
    before=$(wc -l <"$log")
    printf '%b' "$3" >"$mc.tmp" && mv -f "$mc.tmp" "$mc"
    sl scontrol reconfigure
    echo "  $name: scontrol reconfigure exit status $?"
    sleep 2
    ctld_alive && pass "$name: slurmctld survives the bad reconfigure" \
        || { fail "$name: slurmctld died: $(tail -n +"$before" "$log" | grep -m1 fatal)"; return 1; }
    if [ "$mesh_series" = 2205 ]; then
        line=$(tail -n +"$before" "$log" | grep -m1 "error: select/mesh")
        keep="running mesh and allocator stay in use"
    else
        line=$(tail -n +"$before" "$log" | grep -m1 "fatal: select/mesh")
        keep="this reconfigure stops here"
        tail -n +"$before" "$log" | matches "Resuming operation, reconfigure failed" \
            && pass "$name: the old slurmctld resumed ('Resuming operation, reconfigure failed')" \
            || fail "$name: no 'Resuming operation' in the log"
    fi
    if echo "$line" | matches -E "$want" && echo "$line" | matches "$keep"; then
        pass "$name: ${line#*] }"
    else
        fail "$name: want /$want/ and '$keep', log says: $line"
    fi
}

bad_reconf typo "mesh\.conf:3:Nodes: node n15 is defined in slurm.conf but has no position" \
    "Dimensions=4x4\nAllocator=mc1x1\nNodes=n[0-14]\n" || { mesh_finish; exit 1; }
bad_reconf syntax "mesh\.conf:1:Dimensions" \
    "Dimensions=4x4x\nNodes=n[0-15]\nAllocator=mc1x1\n" || { mesh_finish; exit 1; }

[ "$(job_field "$a" JobState)" = RUNNING ] && [ "$(job_field "$a" NodeList)" = "$a_nodes" ] \
    && [ "$(job_field "$a" StartTime)" = "$a_start" ] && [ "$(job_field "$a" Restarts)" = 0 ] \
    && pass "job $a still RUNNING on $a_nodes since $a_start, never requeued" \
    || fail "job $a: $(job_field "$a" JobState) on $(job_field "$a" NodeList) since $(job_field "$a" StartTime), Restarts=$(job_field "$a" Restarts)"
b=$(submit -N4 -t 10 --wrap 'sleep 600')
wait_state "$b" RUNNING 30 && pass "new job $b placed on $(job_field "$b" NodeList) with the kept mesh ($(job_comment "$b"))" \
    || fail "new job $b not started ($(job_field "$b" Reason))"
job_comment "$b" | matches "alloc=mc1x1" || fail "job $b not placed by the kept allocator mc1x1"
no_overlap && pass "no node held by two running jobs" || fail "overlap"

# Fix the file, with another allocator: the reconfigure must apply it.
printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=snake-ff\n' >"$mc.tmp" && mv -f "$mc.tmp" "$mc"
before=$(wc -l <"$log")
sl scontrol reconfigure || fail "scontrol reconfigure with the fixed file"
applied() { tail -n +"$before" "$log" | matches "select/mesh: .*allocator snake-ff"; }
wait_until 20 applied || true
tail -n +"$before" "$log" | matches "select/mesh: .*mesh.conf: 16 nodes in a 4x4x1 mesh, allocator snake-ff" \
    && pass "fixed mesh.conf applied by reconfigure (allocator snake-ff)" \
    || fail "fixed mesh.conf not applied: $(tail -n +"$before" "$log" | grep -m2 'select/mesh')"
c=$(submit -N2 -t 10 --wrap 'sleep 600')
wait_state "$c" RUNNING 30 || fail "job $c RUNNING"
job_comment "$c" | matches "alloc=snake-ff" && pass "job $c placed by snake-ff: $(job_comment "$c")" \
    || fail "job $c: $(job_comment "$c"), want alloc=snake-ff"
no_overlap && pass "no overlap after the fixed reconfigure" || fail "overlap after fixed reconfigure"
[ "$(job_field "$a" JobState)" = RUNNING ] && [ "$(wc -l <"$starts")" -eq 1 ] \
    && pass "job $a ran exactly once and is still running" \
    || fail "job $a: $(job_field "$a" JobState), started $(wc -l <"$starts") times"
ctld_alive && pass "slurmctld still running" || fail "slurmctld died"
mesh_finish
