#!/usr/bin/env bash
# will_run_bound.sh - PlanMaxPlacements= bounds select/mesh's WILL_RUN
# search under slurmctld's locks (issue 53.3), and a search whose
# refusals are monotone is binary, so the bound does not cut it.  4x4
# mesh, n(x,y) = n[x + 4y]; job A on n[1-2,6-7,11,14] ends first, B on
# n[3-4,8-9,12-13] next, C on n15 last; n[0,5,10] are free.  An 8-node
# box (2x4 or 4x2) is free from B's end, not at A's, where nine nodes are.
#  - def (mc1x1, default bound): --contiguous -N8 starts at B's end, -N8
#    at A's;
#  - bnd (mc1x1, PlanMaxPlacements=2): the same; --contiguous -N8 is
#    refused at A's end, then found by a binary search, which the bound
#    does not cut;
#  - wait (box-first wait=1, PlanMaxPlacements=2): the allocator may
#    refuse, so every candidate is tried in turn: -N8 is refused at A's
#    end and the second placement is kept for the latest candidate, C's
#    end; slurmctld logs one line saying the search was cut.  -N5 (no
#    box holds 5) starts at A's end.
# Three clusters side by side, the same jobs on each.
. "$(dirname "$0")/lib.sh"
mesh_setup will_run_bound

printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\n' >"$work/default.conf"
printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\nPlanMaxPlacements=2\n' \
    >"$work/bound.conf"
printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=box-first\nAllocatorParameters=wait=1\nPlanMaxPlacements=2\n' \
    >"$work/wait.conf"
start_bg "$work/def" --mesh-conf "$work/default.conf"
start_bg "$work/bnd" --mesh-conf "$work/bound.conf"
start_bg "$work/wait" --mesh-conf "$work/wait.conf"
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

declare -A ends
for c in def bnd wait; do
    read -r a_end b_end c_end <<<"$(jobs_on "$work/$c")"
    ends[$c]="$a_end $b_end $c_end"
    echo "  $c: A ends $a_end, B $b_end, C $c_end"
    [ -n "$c_end" ] && [ "$a_end" != "$b_end" ] && [ "$b_end" != "$c_end" ] \
        || fail "$c: three distinct ends needed, got '$a_end' '$b_end' '$c_end'"
done

for c in def bnd; do
    read -r a_end b_end c_end <<<"${ends[$c]}"
    got=$(start_of "$work/$c" --contiguous -N8)
    [ "$got" = "$b_end" ] && pass "$c: --contiguous -N8 starts at B's end $got" \
        || fail "$c: --contiguous -N8 '$got', expected B's end $b_end"
    got=$(start_of "$work/$c" -N8)
    [ "$got" = "$a_end" ] && pass "$c: -N8 starts at A's end $got" \
        || fail "$c: -N8 '$got', expected $a_end"
    [ "$(cut_lines "$work/$c")" -eq 0 ] && pass "$c: no search cut" \
        || fail "$c: $(cut_lines "$work/$c") cut line(s)"
done

read -r a_end b_end c_end <<<"${ends[wait]}"
got=$(start_of "$work/wait" -N8)
[ "$got" = "$c_end" ] && pass "wait: -N8 planned at the latest candidate, C's end $got" \
    || fail "wait: -N8 '$got', expected C's end $c_end"
got=$(start_of "$work/wait" -N5)
[ "$got" = "$a_end" ] && pass "wait: -N5 (placed at the first candidate) at A's end $got" \
    || fail "wait: -N5 '$got', expected $a_end"
n=$(cut_lines "$work/wait")
[ "$n" -eq 1 ] && pass "slurmctld.log: one line for the cut search: $(grep -m1 'WILL_RUN stopped' "$work/wait/log/slurmctld.log" | sed 's/^.*select\/mesh: //')" \
    || fail "$n cut lines in slurmctld.log, expected 1"
# a second cut within the minute adds no line
start_of "$work/wait" -N8 >/dev/null
n=$(cut_lines "$work/wait")
[ "$n" -eq 1 ] && pass "a second cut search within a minute logs nothing more" \
    || fail "$n cut lines after the second search"
# every mesh.conf load times one decision (an error() line past 1 ms)
grep -q "allocator mc1x1: one 4-node decision on the idle mesh took" \
    "$work/def/log/slurmctld.log" \
    && pass "slurmctld.log: $(grep -m1 'decision on the idle mesh' "$work/def/log/slurmctld.log" | sed 's/^.*select\/mesh: //')" \
    || fail "no timed decision at load in slurmctld.log"
for c in def bnd wait; do
    conf="$work/$c/etc/slurm.conf"
    no_overlap && pass "$c: no node held by two running jobs" || fail "$c: overlap"
    ctld_alive && pass "$c: slurmctld still running" || fail "$c: slurmctld died"
done
mesh_finish
