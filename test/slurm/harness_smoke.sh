#!/usr/bin/env bash
# harness_smoke.sh - smoke test of contrib/slurm-local/cluster.sh with the
# stock select/linear plugin on a 4x4 mesh.
#
# Exit status: 0 all passed, 1 something failed, 77 skipped (Slurm daemons
# not installed). Prints one PASS/FAIL line per check and a summary line.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
top=$(cd "$here/../.." && pwd -P)
CLUSTER=${CLUSTER_SH:-$top/contrib/slurm-local/cluster.sh}

for b in /usr/sbin/slurmctld-wlm /usr/sbin/slurmd-wlm /usr/sbin/munged; do
    if [ ! -x "$b" ]; then
        echo "SKIP: $b not installed (run contrib/setup-debian.sh)"
        exit 77
    fi
done
for c in sbatch srun scontrol sinfo; do
    if ! command -v "$c" >/dev/null 2>&1; then
        echo "SKIP: $c not installed (run contrib/setup-debian.sh)"
        exit 77
    fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/slurm-mesh-smoke.XXXXXX")
dir="$work/cluster"
baddir="$work/bad"
npass=0
nfail=0

pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }

cleanup() {
    "$CLUSTER" stop --dir "$dir" >/dev/null 2>&1 || true
    "$CLUSTER" stop --dir "$baddir" >/dev/null 2>&1 || true
    "$CLUSTER" stop --dir "$work/twin-a" >/dev/null 2>&1 || true
    "$CLUSTER" stop --dir "${twin_b:-$work/none}" >/dev/null 2>&1 || true
    if [ "$nfail" -eq 0 ]; then
        rm -rf "$work"
    else
        echo "logs kept in $work"
    fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

conf="$dir/etc/slurm.conf"
sl() { SLURM_CONF=$conf timeout 30 "$@"; }

# Non-zombie processes that belong to the cluster in DIR: daemons whose
# arguments mention DIR (munged) or that inherited SLURM_CONF=DIR/... .
leftovers() {   # dir
    local d=$1 pid st comm
    ps -e -o pid= -o stat= -o comm= | while read -r pid st comm; do
        case "$st" in Z*) continue ;; esac
        [ "$pid" != "$$" ] || continue
        case "$comm" in slurm*|munged|sleep) ;; *) continue ;; esac
        if tr '\0' '\n' 2>/dev/null </proc/"$pid"/cmdline | grep -F "$d/" >/dev/null; then
            echo "$pid $comm"
        elif tr '\0' '\n' 2>/dev/null </proc/"$pid"/environ \
                | grep -xF "SLURM_CONF=$d/etc/slurm.conf" >/dev/null; then
            echo "$pid $comm"
        fi
    done
}

job_field() {   # jobid field
    sl scontrol -o show job "$1" 2>/dev/null | tr ' ' '\n' \
        | sed -n "s/^$2=//p" | head -n 1
}

# Wait (bounded) until job $1 is in state $2.
wait_state() {   # jobid state secs
    local end=$((SECONDS + $3)) st
    while :; do
        st=$(job_field "$1" JobState)
        [ "$st" != "$2" ] || return 0
        [ "$SECONDS" -lt "$end" ] || { echo "  job $1 state '$st', wanted $2"; return 1; }
        sleep 0.5
    done
}

# --- 1. start -----------------------------------------------------------
t0=$SECONDS
if "$CLUSTER" start --dir "$dir" --mesh 4x4 --select select/linear --timeout 30; then
    pass "cluster start 4x4 select/linear ($((SECONDS - t0))s)"
else
    fail "cluster start 4x4 select/linear"
    echo "$npass passed, $nfail failed"
    exit 1
fi

n_idle=$(sl sinfo -h -N -t idle -o '%N' | sort -u | grep -c .)
if [ "$n_idle" -eq 16 ]; then pass "16 nodes idle"; else fail "16 nodes idle (got $n_idle)"; fi

# --- 2. two 4-node batch jobs on disjoint nodes --------------------------
j1=$(cd "$work" && sl sbatch --parsable -N4 --wrap 'sleep 5' | cut -d';' -f1)
j2=$(cd "$work" && sl sbatch --parsable -N4 --wrap 'sleep 5' | cut -d';' -f1)
if [ -n "$j1" ] && [ -n "$j2" ]; then
    pass "sbatch -N4 twice (jobs $j1 $j2)"
else
    fail "sbatch -N4 twice"
fi

if wait_state "$j1" RUNNING 20 && wait_state "$j2" RUNNING 20; then
    pass "both jobs RUNNING"
    nl1=$(job_field "$j1" NodeList)
    nl2=$(job_field "$j2" NodeList)
    h1=$(sl scontrol show hostnames "$nl1" | sort)
    h2=$(sl scontrol show hostnames "$nl2" | sort)
    common=$(comm -12 <(echo "$h1") <(echo "$h2") | grep -c .)
    c1=$(echo "$h1" | grep -c .)
    c2=$(echo "$h2" | grep -c .)
    if [ "$c1" -eq 4 ] && [ "$c2" -eq 4 ] && [ "$common" -eq 0 ]; then
        pass "disjoint allocations: $nl1 / $nl2"
    else
        fail "disjoint allocations: '$nl1' ($c1) / '$nl2' ($c2), $common shared"
    fi
else
    fail "both jobs RUNNING"
fi

if wait_state "$j1" COMPLETED 30 && wait_state "$j2" COMPLETED 30; then
    pass "both jobs COMPLETED"
else
    fail "both jobs COMPLETED"
fi

# --- 3. multi-node srun -------------------------------------------------
out=$(cd "$work" && sl srun -N2 -l hostname 2>&1)
if [ "$(echo "$out" | grep -c '^[01]: ')" -eq 2 ]; then
    pass "srun -N2 hostname"
else
    fail "srun -N2 hostname: $out"
fi
# Each task must run on its own node (fails if slurmd picks a front-end
# slurmstepd: every task then claims node 0).
out=$(cd "$work" && sl srun -N2 -l printenv SLURMD_NODENAME 2>&1)
names=$(echo "$out" | sed -n 's/^[01]: //p' | sort -u | grep -c .)
if [ "$names" -eq 2 ]; then
    pass "srun -N2 tasks on 2 distinct nodes ($(echo "$out" | tr '\n' ' '))"
else
    fail "srun -N2 tasks on 2 distinct nodes: $out"
fi

# --- 4. stop leaves nothing behind ---------------------------------------
# A running job too, so stop has to clean up stepds and tasks.
(cd "$work" && sl sbatch -N4 --wrap 'sleep 300' >/dev/null)
sleep 2
t0=$SECONDS
if "$CLUSTER" stop --dir "$dir"; then
    pass "cluster stop ($((SECONDS - t0))s)"
else
    fail "cluster stop"
fi
left=$(leftovers "$dir")
if [ -z "$left" ]; then
    pass "no processes left after stop"
else
    fail "processes left after stop: $left"
fi
if "$CLUSTER" stop --dir "$dir" >/dev/null 2>&1; then
    pass "stop is idempotent"
else
    fail "stop is idempotent"
fi

# --- 5. invalid SelectType fails fast and cleanly -------------------------
t0=$SECONDS
out=$("$CLUSTER" start --dir "$baddir" --mesh 4x4 --select select/doesnotexist \
      --timeout 30 2>&1)
rc=$?
dt=$((SECONDS - t0))
if [ "$rc" -ne 0 ] && echo "$out" | grep >/dev/null "Can't find plugin for select/doesnotexist" \
        && [ "$dt" -lt 15 ]; then
    pass "invalid SelectType: start failed (rc=$rc, ${dt}s) with log tail"
else
    fail "invalid SelectType: rc=$rc after ${dt}s, output: $out"
fi
left=$(leftovers "$baddir")
if [ -z "$left" ]; then
    pass "no processes left after failed start"
else
    fail "processes left after failed start: $left"
fi

# --- 6. two clusters started at once, directories on the same ports ----
# Auto ports derive from the directory's checksum: find a second name
# that hashes to the same block as twin-a, start both together, and both
# must come up on different ports (the block is reserved under a lock
# until slurmctld listens).
block() { echo $(( $(printf '%s' "$1" | cksum | cut -d' ' -f1) % 100 )); }
twin_b=""
for i in $(seq 1 2000); do
    if [ "$(block "$work/twin-$i")" = "$(block "$work/twin-a")" ]; then
        twin_b="$work/twin-$i"
        break
    fi
done
if [ -z "$twin_b" ]; then
    fail "no directory name hashing to twin-a's port block"
else
    "$CLUSTER" start --dir "$work/twin-a" --mesh 2x2 --select select/linear \
        --timeout 30 >"$work/twin-a.out" 2>&1 &
    pa=$!
    "$CLUSTER" start --dir "$twin_b" --mesh 2x2 --select select/linear \
        --timeout 30 >"$work/twin-b.out" 2>&1 &
    pb=$!
    wait "$pa"; ra=$?
    wait "$pb"; rb=$?
    ba=$(cat "$work/twin-a/run/port_base" 2>/dev/null)
    bb=$(cat "$twin_b/run/port_base" 2>/dev/null)
    if [ "$ra" -eq 0 ] && [ "$rb" -eq 0 ] && [ -n "$ba" ] && [ -n "$bb" ] \
            && [ "$ba" != "$bb" ]; then
        pass "two clusters started at once on one hashed block: ports $ba and $bb"
    else
        fail "concurrent start: rc $ra/$rb, ports '$ba'/'$bb'; $(tail -3 "$work/twin-b.out" | tr '\n' ' ')"
    fi
    "$CLUSTER" stop --dir "$work/twin-a" >/dev/null 2>&1
    "$CLUSTER" stop --dir "$twin_b" >/dev/null 2>&1
fi

echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
