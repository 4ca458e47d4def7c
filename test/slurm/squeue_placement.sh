#!/usr/bin/env bash
# squeue_placement.sh - issue 9.5: select_jobinfo carries a versioned
# placement summary.  squeue -O SelectJobInfo / %s shows it; it survives
# a slurmctld restart; and a job state file written by the plugin build
# before this format (jobinfo packed nothing) still loads with its jobs.
# Slurm 23.02 removed squeue's SelectJobInfo: there only SystemComment
# carries the summary, and only its survival of a restart is checked.
. "$(dirname "$0")/lib.sh"
mesh_setup squeue

# The last commit whose plugin packed an empty select_jobinfo.
OLD_REV=7bd63e0aabd05e15c33a035c7500e81a87e351bd

if [ "$mesh_series" = 2205 ]; then
    placement() { sl squeue -h -j "$1" -O "SelectJobInfo:100" 2>&1 | sed 's/ *$//'; }
else
    placement() { c=$(job_comment "$1"); echo "${c#mesh:v1 }"; }
fi
swap_plugin() {   # .so -> $work/plugins/select_mesh.so (new inode)
    install -m 0755 "$1" "$work/plugins/.select_mesh.so.$$"
    mv -f "$work/plugins/.select_mesh.so.$$" "$work/plugins/select_mesh.so"
}

d="$work/new"
if cluster_start "$d" --allocator mc1x1; then pass "cluster up"; else fail "cluster start"; exit 1; fi
j=$(submit -N4 -t 5 --wrap 'sleep 300')
wait_state "$j" RUNNING 30 || fail "job $j RUNNING"
c=$(job_comment "$j")
p=$(placement "$j")
if [ -n "$p" ] && [ "mesh:v1 $p" = "$c" ] && echo "$p" | matches "bbox=2x2x1 sumdist=8 avgdist=1.33"; then
    pass "squeue -O SelectJobInfo: '$p' (SystemComment '$c')"
else
    fail "squeue -O SelectJobInfo: '$p', SystemComment '$c'"
fi
if [ "$mesh_series" != 2205 ]; then
    echo "SKIP: squeue -o %s (no SelectJobInfo since Slurm 23.02)"
else
    h=$(sl squeue -j "$j" -o "%.8i %s" 2>&1 | head -1)
    s=$(sl squeue -h -j "$j" -o "%s" 2>&1)
    if echo "$h" | matches PLACEMENT && [ "$s" = "$p" ]; then
        pass "squeue -o %s: header '$h', data '$s'"
    else
        fail "squeue -o %s: header '$h', data '$s'"
    fi
fi
if "$CLUSTER" restart-ctld --dir "$d" --timeout 60 >/dev/null 2>&1; then
    p2=$(placement "$j")
    if [ "$p2" = "$p" ] && [ "$(job_field "$j" JobState)" = RUNNING ]; then
        pass "after a slurmctld restart job $j is RUNNING with '$p2'"
    else
        fail "after restart: '$p2' state $(job_field "$j" JobState)"
    fi
else
    fail "slurmctld restart"
fi
sl scancel "$j"
"$CLUSTER" stop --dir "$d" >/dev/null 2>&1

# State from the previous plugin build: build it from git into $work/old.
if [ "$mesh_series" != 2205 ]; then
    echo "SKIP: old-state check (the build before the format, $OLD_REV, is 22.05 only)"
    mesh_finish; exit
fi
old="$work/old"
if ! git -C "$top_src" cat-file -e "$OLD_REV^{commit}" 2>/dev/null; then
    echo "SKIP: old-state check ($OLD_REV not in a git checkout at $top_src)"
    mesh_finish; exit
fi
mkdir -p "$old"
if (git -C "$top_src" archive "$OLD_REV" | tar -x -C "$old" && cd "$old" &&
    autoreconf -fi && ./configure && make -C src -j2 libmesh.la &&
    make -C plugin -j2 select_mesh.la) >"$work/old-build.log" 2>&1; then
    pass "previous plugin built from $OLD_REV"
else
    fail "building $OLD_REV: $(tail -3 "$work/old-build.log")"; mesh_finish; exit
fi
new_so="$work/plugins/select_mesh.so.new"
cp "$work/plugins/select_mesh.so" "$new_so"
swap_plugin "$old/plugin/.libs/select_mesh.so"
d="$work/old-state"
if cluster_start "$d" --allocator mc1x1; then pass "cluster up with the previous build"; else fail "cluster start (old)"; mesh_finish; exit; fi
r=$(submit -N4 -t 5 --wrap 'sleep 300')
q=$(submit -N2 -t 5 -H --wrap 'sleep 300')
wait_state "$r" RUNNING 30 || fail "job $r RUNNING (old build)"
before=$(sl squeue -h -j "$r,$q" -o "%i %T %N %D" 2>&1 | sort)
swap_plugin "$new_so"
if "$CLUSTER" restart-ctld --dir "$d" --timeout 60 >/dev/null 2>&1 && ctld_alive; then
    after=$(sl squeue -h -j "$r,$q" -o "%i %T %N %D" 2>&1 | sort)
    if [ -n "$before" ] && [ "$before" = "$after" ] && [ "$(echo "$after" | wc -l)" -eq 2 ]; then
        pass "new build loads the old state: $(echo $after)"
    else
        fail "old state: before '$before', after '$after'"
    fi
    if grep -q "Incomplete job state\|unpack error" "$d/log/slurmctld.log"; then
        fail "slurmctld log: $(grep -m1 'Incomplete job state\|unpack error' "$d/log/slurmctld.log")"
    else
        pass "no unpack error in slurmctld.log"
    fi
else
    fail "slurmctld with the new build on the old state did not come up: $(grep -m2 'fatal\|error' "$d/log/slurmctld.log")"
fi
sl scancel "$r" "$q"
mesh_finish
