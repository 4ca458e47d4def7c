#!/usr/bin/env bash
# site_factor.sh - site_factor/iobalance (Özden's I/O-balancing priority)
# in a real slurmctld with real accounting (MariaDB + slurmdbd, started by
# the harness), fed by the SPANK option --io-intensity.
#
# 2x2 mesh.  R (4 nodes, --io-intensity=1) runs; J_io (1.0) and J_cpu
# (0.0), 4 nodes each, are submitted held in that order and released.
# Running mean 1, workload mean 2/3: starting J_io makes the mean 1
# (delta 1/3), J_cpu 1/2 (delta 1/6), so normalised deltas are 1 and 0
# and queue positions 0 and 1: wp = alpha and 1 - alpha, site factor
# 1000 * (1 - wp).  alpha = 0.8: SITE 200 and 800, and J_cpu starts
# first when R ends.  alpha = 0 (after scontrol reconfigure): SITE 1000
# and 0, submit order kept.  Before the first decay pass set() computes
# the whole queue; after one (24.11's reconfigure restarts slurmctld,
# whose decay thread then runs at once) a released job may first get a
# value from stale aggregates, so each round waits up to 75 s for these.
#
# After a decay pass (PriorityCalcPeriod=1, one a minute) set() values a
# new job from that pass's aggregates alone: with R running and nothing
# pending at the pass, J_io alone gets wp 0 (SITE 1000) and J_cpu, newest
# and the widest delta, wp 1 (SITE 0); the next pass makes them 200 and
# 800 again.  Bad option values are refused by sbatch.
source "$(dirname "$0")/lib.sh"
mesh_setup site_factor

printf 'required %s\n' "$work/plugins/spank_mesh.so" >"$work/plugstack.conf"
cluster_start "$work/c" --mesh 2x2 --accounting \
    --extra-slurm-conf "PlugStackConfig=$work/plugstack.conf" \
    --extra-slurm-conf "PriorityType=priority/multifactor" \
    --extra-slurm-conf "PrioritySiteFactorPlugin=site_factor/iobalance" \
    --extra-slurm-conf "PrioritySiteFactorParameters=alpha=0.8" \
    --extra-slurm-conf "PriorityCalcPeriod=1" \
    --extra-slurm-conf "DebugFlags=SelectType,Priority" \
    || { fail "cluster with accounting did not start"; mesh_finish; exit 1; }

site_of() {   # jobid: the SITE column of sprio (waits for it)
    local end=$((SECONDS + 10)) v
    while :; do
        v=$(sl sprio -h -o '%i %S' 2>&1 | awk -v j="$1" '$1 == j {print $2}')
        [ -z "$v" ] || { echo "$v"; return 0; }
        [ "$SECONDS" -lt "$end" ] || { sl sprio -l >&2; return 1; }
        sleep 0.5
    done
}

# One round: R runs, J_io and J_cpu queue; prints "io cpu" job ids.
round() {
    local r jio jcpu
    r=$(submit -N4 --io-intensity=1 --wrap 'sleep 150')
    [ -n "$r" ] && wait_state "$r" RUNNING 30 >&2 || return 1
    jio=$(submit -H -N4 -t 1 --io-intensity=1 --wrap 'sleep 2')
    jcpu=$(submit -H -N4 -t 1 --io-intensity=0 --wrap 'sleep 2')
    [ -n "$jio" ] && [ -n "$jcpu" ] || return 1
    sl scontrol release "$jio,$jcpu" >/dev/null
    echo "$r $jio $jcpu"
}

# Which of two jobs started first (by StartTime); waits for both.
first_started() {
    wait_state "$1" COMPLETED 60 >/dev/null
    wait_state "$2" COMPLETED 60 >/dev/null
    local s1 s2
    s1=$(job_field "$1" StartTime)
    s2=$(job_field "$2" StartTime)
    if [[ "$s1" < "$s2" ]]; then echo "$1"; else echo "$2"; fi
}

# sites_are JOB1 WANT1 JOB2 WANT2: until both SITE values are as wanted
# (75 s: a decay pass makes them exact if set() saw stale aggregates);
# prints the last "site1 site2".
sites_are() {
    local end=$((SECONDS + 75)) a b
    while :; do
        a=$(site_of "$1") b=$(site_of "$3")
        { [ "$a" = "$2" ] && [ "$b" = "$4" ]; } || [ "$SECONDS" -ge "$end" ] && break
        sleep 1
    done
    echo "$a $b"
}

# check_round ALPHA SITE_IO SITE_CPU FIRST(io|cpu)
check_round() {
    local r jio jcpu sio scpu f want
    read -r r jio jcpu < <(round)
    if [ -z "${jcpu:-}" ]; then
        fail "alpha=$1: the round could not start"
        return
    fi
    read -r sio scpu < <(sites_are "$jio" "$2" "$jcpu" "$3")
    if [ "$sio" = "$2" ] && [ "$scpu" = "$3" ]; then
        pass "alpha=$1: SITE $2 for the I/O job, $3 for the compute job"
    else
        fail "alpha=$1: SITE io=$sio cpu=$scpu, want $2 and $3"
    fi
    sl scancel "$r"
    f=$(first_started "$jio" "$jcpu")
    want=$jio
    [ "$4" = io ] || want=$jcpu
    if [ "$f" = "$want" ]; then
        pass "alpha=$1: the $4 job started first"
    else
        fail "alpha=$1: job $f started first, want $want ($4)"
    fi
}

check_round 0.8 200 800 cpu
sed -i 's/^PrioritySiteFactorParameters=.*/PrioritySiteFactorParameters=alpha=0/' "$conf"
sl scontrol reconfigure
check_round 0 1000 0 io

log="$work/c/log/slurmctld.log"
passes() { grep -c 'site_factor/iobalance: decay pass:' "$log"; }
# wait_pass N PATTERN: a decay pass after the first N, its line matching
wait_pass() {
    local end=$((SECONDS + 75))
    while [ "$SECONDS" -lt "$end" ]; do
        grep 'site_factor/iobalance: decay pass:' "$log" | tail -n +$(($1 + 1)) \
            | grep -q -- "$2" && return 0
        sleep 0.5
    done
    return 1
}
sed -i 's/^PrioritySiteFactorParameters=.*/PrioritySiteFactorParameters=alpha=0.8/' "$conf"
sl scontrol reconfigure
r=$(submit -N4 --io-intensity=1 --wrap 'sleep 300')
if [ -n "$r" ] && wait_state "$r" RUNNING 30 >/dev/null \
    && wait_pass "$(passes)" ': 0 pending, 1 running'; then
    pass "a decay pass saw R running and nothing pending"
    n=$(passes)
    jio=$(submit -N4 -t 1 --io-intensity=1 --wrap 'sleep 2')
    jcpu=$(submit -N4 -t 1 --io-intensity=0 --wrap 'sleep 2')
    sio=$(site_of "$jio")
    scpu=$(site_of "$jcpu")
    if [ "$(passes)" = "$n" ] && [ "$sio" = 1000 ] && [ "$scpu" = 0 ]; then
        pass "between passes, from the aggregates: SITE 1000 for J_io, 0 for J_cpu"
    else
        fail "between passes: SITE io=$sio cpu=$scpu (want 1000 and 0), passes $n -> $(passes)"
    fi
    if wait_pass "$n" ': 2 pending, 1 running'; then
        read -r sio scpu < <(sites_are "$jio" 200 "$jcpu" 800)
        [ "$sio" = 200 ] && [ "$scpu" = 800 ] \
            && pass "the next decay pass: SITE 200 and 800, as a full computation" \
            || fail "after the next pass: SITE io=$sio cpu=$scpu, want 200 and 800"
    else
        fail "no decay pass with J_io and J_cpu pending within 75 s"
    fi
    sl scancel "$r" "$jio" "$jcpu"
else
    fail "no decay pass with R running and nothing pending within 75 s"
fi

# The SPANK options refuse bad values at submission, naming the option.
for bad in "--io-intensity=1.5" "--mesh-shape=4×2" "--comm=ring"; do
    err=$(cd "$work/jobs" && sl sbatch -N1 "$bad" --wrap true 2>&1 >/dev/null)
    rc=$?
    opt=${bad%%=*}
    if [ "$rc" -ne 0 ] && grep -q -- "$opt: bad" <<<"$err"; then
        pass "sbatch $bad refused: $(grep -- "$opt: bad" <<<"$err" | head -n 1)"
    else
        fail "sbatch $bad: rc=$rc, output: $err"
    fi
done
ctld_alive && pass "slurmctld alive" || fail "slurmctld died"
mesh_finish
