#!/usr/bin/env bash
# odd_requests.sh - job requests of every odd shape reach select/mesh:
# node ranges, task counts, memory and GRES beyond the nodes, nodelists
# that conflict with --exclude, contiguous lines, reservations.  Each is
# either placed (on the right number of distinct free nodes), left
# pending with a reason, or refused at submission; slurmctld never dies
# and no node is ever held by two running jobs.
. "$(dirname "$0")/lib.sh"
mesh_setup odd

d="$work/c"
cluster_start "$d" --allocator mc1x1 || { fail "cluster start"; exit 1; }

try() {   # label expect(run|pend|reject|any) sbatch-args...
    local label=$1 expect=$2 j st out
    shift 2
    out=$(cd "$work/jobs" && sl sbatch --parsable -o /dev/null -t 2 "$@" --wrap 'sleep 120' 2>&1)
    if ! [[ "$out" =~ ^[0-9]+ ]]; then
        [ "$expect" = reject ] || [ "$expect" = any ] \
            && pass "$label: refused at submission: ${out##*error: }" \
            || fail "$label: refused: $out"
        return
    fi
    j=${out%%;*}
    # A job expected to run may need a scheduler pass or two on a loaded
    # machine; one expected to wait gets two passes to prove it waits.
    if [ "$expect" = run ]; then
        wait_state "$j" RUNNING 30 >/dev/null || true
    else
        sleep 2
    fi
    st=$(job_field "$j" JobState)
    case "$expect:$st" in
        run:RUNNING | pend:PENDING | any:RUNNING | any:PENDING)
            pass "$label: job $j $st $(job_field "$j" NodeList) $(job_field "$j" Reason)" ;;
        *) fail "$label: job $j is $st ($(job_field "$j" Reason)), expected $expect" ;;
    esac
    ctld_alive || fail "$label: slurmctld died"
    [ "$st" = RUNNING ] && sl scancel "$j"
    [ "$st" = PENDING ] && sl scancel "$j"
    wait_state "$j" CANCELLED 15 >/dev/null 2>&1 || true
}

try "node range -N2-6 on an empty mesh" run -N2-6
try "-n7 with 1 CPU per node" run -n7
try "--ntasks-per-node=2 on 1-CPU nodes" reject -N2 --ntasks-per-node=2
try "--mem beyond RealMemory" reject -N1 --mem=999999
try "--gres=gpu:1 on nodes without GRES" reject -N1 --gres=gpu:1
try "--exclusive" run -N3 --exclusive
try "-w n0,n15 -N2 (opposite corners)" run -w n0,n15 -N2
try "-w n0 with --exclude n0" reject -w n0 -x n0 -N1
try "--contiguous -N4" run --contiguous -N4
try "--contiguous -N16 (the whole mesh)" run --contiguous -N16
try "-N0" any -N0
try "--switches=1" any -N2 --switches=1
sl scontrol create reservation ReservationName=r1 Nodes=n[0-7] \
    StartTime=now Duration=10 Users=root Flags=IGNORE_JOBS >/dev/null 2>&1 \
    && pass "reservation r1 on n[0-7]" || fail "create reservation"
try "-N4 in reservation r1" run -N4 --reservation=r1
try "-N9 in an 8-node reservation" any -N9 --reservation=r1
j=$(submit -N8 -t 2 --wrap 'sleep 120')
wait_state "$j" RUNNING 20 || fail "job $j outside the reservation"
bad=$(hosts "$(job_field "$j" NodeList)" | grep -xE 'n[0-7]')
[ -z "$bad" ] && pass "a job outside the reservation stays off n[0-7]: $(job_field "$j" NodeList)" \
    || fail "job outside the reservation on reserved nodes: $bad"
# NodeCnt= makes slurmctld ask the plugin (resv_test) to pick the nodes.
sl scontrol create reservation ReservationName=r2 NodeCnt=4 \
    StartTime=now+600 Duration=10 Users=root >/dev/null 2>&1
r2=$(sl scontrol -o show reservation r2 2>/dev/null | tr ' ' '\n' | sed -n 's/^Nodes=//p')
[ "$(hosts "$r2" | sort -u | wc -l)" -eq 4 ] && pass "reservation NodeCnt=4 picked by the plugin: $r2" \
    || fail "NodeCnt=4 reservation: '$r2'"
no_overlap && pass "no node held by two running jobs" || fail "overlap"
ctld_alive && pass "slurmctld still running" || fail "slurmctld died"
mesh_finish
