#!/usr/bin/env bash
# will_run_bound.sh - PlanMaxPlacements= bounds select/mesh's WILL_RUN
# search under slurmctld's locks (issue 53.3).  4x4 mesh, n(x,y) =
# n[x + 4y]; job A on n[1-2,6-7,11,14] ends first, B on
# n[3-4,8-9,12-13] next, C on n15 last; n[0,5,10] are free.  A
# --contiguous -N8 job has nine nodes free at A's end but no 2x4 box
# until B's end (rows 0-1): its search refuses at A's end, so it scans.
# With the default bound it starts at B's end; with PlanMaxPlacements=2
# the second placement is kept for the latest candidate, C's end, and
# slurmctld logs one line saying the search was cut.  Two clusters side
# by side, the same jobs on each.
. "$(dirname "$0")/lib.sh"
mesh_setup will_run_bound

printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\n' >"$work/default.conf"
printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\nPlanMaxPlacements=2\n' \
    >"$work/bound.conf"
start_bg "$work/def" --mesh-conf "$work/default.conf"
start_bg "$work/bnd" --mesh-conf "$work/bound.conf"
wait_started || { fail "cluster start"; exit 1; }

# jobs DIR: A, B and C running there; prints "A_END B_END C_END".
jobs_on() {
    local d=$1 a b c
    cd "$work/jobs" || return
    a=$(on "$d" sbatch -o /dev/null -w 'n[1-2,6-7,11,14]' -N6 -t 10 --wrap 'sleep 600' | awk '{print $NF}')
    b=$(on "$d" sbatch -o /dev/null -w 'n[3-4,8-9,12-13]' -N6 -t 20 --wrap 'sleep 600' | awk '{print $NF}')
    c=$(on "$d" sbatch -o /dev/null -w n15 -N1 -t 30 --wrap 'sleep 600' | awk '{print $NF}')
    wait_run_on "$d" 30 "$a" "$b" "$c" || { echo "not running"; return; }
    echo "$(field_on "$d" "$a" EndTime) $(field_on "$d" "$b" EndTime) $(field_on "$d" "$c" EndTime)"
}

# start_of DIR ARGS...: the --test-only start, or "refused".
start_of() {
    local d=$1 out re=' to start at ([^ ]+) using '
    shift
    out=$(cd "$work/jobs" && on "$d" sbatch --test-only -o /dev/null -t 5 "$@" --wrap true 2>&1)
    [[ $out =~ $re ]] && echo "${BASH_REMATCH[1]}" || echo "refused"
}

cut_lines() { grep -c 'WILL_RUN stopped at the bound' "$1/log/slurmctld.log"; }

for c in def bnd; do
    read -r a_end b_end c_end <<<"$(jobs_on "$work/$c")"
    eval "${c}_ends=\"$a_end $b_end $c_end\""
    echo "  $c: A ends $a_end, B $b_end, C $c_end"
    [ -n "$c_end" ] && [ "$a_end" != "$b_end" ] && [ "$b_end" != "$c_end" ] \
        || fail "$c: three distinct ends needed, got '$a_end' '$b_end' '$c_end'"
done

read -r a_end b_end c_end <<<"$def_ends"
got=$(start_of "$work/def" --contiguous -N8)
[ "$got" = "$b_end" ] && pass "default bound: --contiguous -N8 starts at B's end $got" \
    || fail "default bound: '$got', expected B's end $b_end"
got=$(start_of "$work/def" -N8)
[ "$got" = "$a_end" ] && pass "default bound: -N8 starts at A's end $got" \
    || fail "default bound: -N8 '$got', expected $a_end"
[ "$(cut_lines "$work/def")" -eq 0 ] && pass "default bound: no search cut" \
    || fail "default bound: $(cut_lines "$work/def") cut line(s)"

read -r a_end b_end c_end <<<"$bnd_ends"
got=$(start_of "$work/bnd" --contiguous -N8)
[ "$got" = "$c_end" ] && pass "PlanMaxPlacements=2: --contiguous -N8 planned at the latest candidate, C's end $got" \
    || fail "PlanMaxPlacements=2: '$got', expected C's end $c_end"
# counting needs no scan: one placement, not cut
got=$(start_of "$work/bnd" -N8)
[ "$got" = "$a_end" ] && pass "PlanMaxPlacements=2: -N8 (no scan) still at A's end $got" \
    || fail "PlanMaxPlacements=2: -N8 '$got', expected $a_end"
n=$(cut_lines "$work/bnd")
[ "$n" -eq 1 ] && pass "slurmctld.log: one line for the cut search: $(grep -m1 'WILL_RUN stopped' "$work/bnd/log/slurmctld.log" | sed 's/^.*select\/mesh: //')" \
    || fail "$n cut lines in slurmctld.log, expected 1"
# a second cut within the minute adds no line
start_of "$work/bnd" --contiguous -N8 >/dev/null
n=$(cut_lines "$work/bnd")
[ "$n" -eq 1 ] && pass "a second cut search within a minute logs nothing more" \
    || fail "$n cut lines after the second search"
# every mesh.conf load times one decision (an error() line past 1 ms)
grep -q "allocator mc1x1: one 4-node decision on the idle mesh took" \
    "$work/def/log/slurmctld.log" \
    && pass "slurmctld.log: $(grep -m1 'decision on the idle mesh' "$work/def/log/slurmctld.log" | sed 's/^.*select\/mesh: //')" \
    || fail "no timed decision at load in slurmctld.log"
for c in def bnd; do
    conf="$work/$c/etc/slurm.conf"
    no_overlap && pass "$c: no node held by two running jobs" || fail "$c: overlap"
    ctld_alive && pass "$c: slurmctld still running" || fail "$c: slurmctld died"
done
mesh_finish
