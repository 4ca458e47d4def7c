#!/usr/bin/env bash
# sacct_roundtrip.sh - a site's own workload, end to end: a job stream
# on a select/mesh cluster with real accounting (MariaDB, slurmdbd), its
# sacct dump, sacct2swf, and meshsim on the same 4x2 mesh.  Each job is
# compared with what it recorded itself (its node count, when its script
# ran) and with what the test did to it (submit time and order, exit 3,
# scancel): sizes, run times, waits, statuses and order in the SWF; the
# job cancelled while pending and the one contig-ff refuses at submission
# (no 5-node box in 4x2; sacct lists it as FAILED) counted as never
# started; and meshsim replaying every job at its size and run time.
. "$(dirname "$0")/lib.sh"
for b in /usr/sbin/slurmdbd /usr/sbin/mariadbd /usr/bin/mariadb-install-db; do
    [ -x "$b" ] || { echo "SKIP: $b not installed (run contrib/setup-debian.sh)"; exit 77; }
done
mesh_setup sacct
SACCT2SWF=$top_build/src/sacct2swf/sacct2swf
MESHSIM=$top_build/src/meshsim/meshsim

d="$work/c"
cluster_start "$d" --mesh 4x2 --allocator contig-ff --accounting --timeout 90 \
    >"$work/start.out" 2>&1 || { tail -n 20 "$work/start.out"; fail "cluster start"; exit 1; }
log=$work/jobs/log
t0=$(date +%s)

# Each job writes "id start end nodes" itself, from its own clock.
job() {   # nodes seconds [exit status]
    printf 's=$(date +%%s.%%N); sleep %s; echo "$SLURM_JOB_ID $s $(date +%%s.%%N) $SLURM_JOB_NUM_NODES" >>%s; exit %s' \
        "$2" "$log" "${3:-0}"
}
declare -A want_status submitted
ids=()
add() {   # status nodes seconds [exit] -> submits, remembers
    local st=$1 n=$2 s=$3 rc=${4:-0} id
    id=$(submit -N"$n" -t 2 --wrap "$(job "$n" "$s" "$rc")")
    [ -n "$id" ] || { fail "sbatch -N$n"; return 1; }
    ids+=("$id")
    want_status[$id]=$st
    submitted[$id]=$(date +%s.%N)
    sleep 0.4
}
add 1 2 3 && add 1 4 4 && add 1 1 2 && add 1 8 3 && add 0 3 2 3 &&
    add 1 2 5 && add 1 1 1
if refused=$(submit -N5 -t 2 --wrap 'sleep 1' 2>&1) && [ -n "$refused" ]; then
    fail "a 5-node job on 4x2 under contig-ff was accepted ($refused)"
else
    pass "contig-ff refuses a 5-node job at submission"
fi
add 1 6 2
victim=$(submit -N2 -t 2 --wrap 'sleep 300')
submitted[$victim]=$(date +%s.%N)
pending=$(submit -N8 -t 2 --wrap 'sleep 300')   # cannot start beside $victim
wait_state "$victim" RUNNING 60 || fail "job $victim RUNNING"
sleep 1
if [ "$(job_field "$pending" JobState)" = PENDING ]; then
    pass "job $pending pending when it is cancelled"
else
    fail "job $pending is $(job_field "$pending" JobState), not PENDING"
fi
sl scancel "$pending" "$victim"
want_status[$victim]=5
ids+=("$victim")

# All done, and all in the accounting database (slurmdbd gets the
# records asynchronously).
queue_empty() { [ -z "$(sl squeue -h -o %i)" ]; }
wait_until 120 queue_empty || fail "jobs still queued: $(sl squeue -h -o '%i %T')"
all=$(IFS=,; echo "${ids[*]}"),$pending
final() {
    local n
    n=$(sl sacct -a -X -n -P -j "$all" -o State 2>/dev/null |
        grep -c -E '^(COMPLETED|FAILED|CANCELLED)')
    [ "$n" -eq $(( ${#ids[@]} + 1 )) ]
}
wait_until 60 final || fail "sacct shows not all jobs finished: $(sl sacct -a -X -n -P -j "$all" -o JobIDRaw,State | tr '\n' ' ')"

fields=JobIDRaw,Submit,Start,End,ElapsedRaw,TimelimitRaw,NNodes,ReqNodes,AllocCPUS,ReqCPUS,TotalCPU,State,Partition,UID,GID,NodeList
SLURM_TIME_FORMAT=%s sl sacct -a -X --parsable2 \
    -S "$(date -d @$((t0 - 60)) +%Y-%m-%dT%H:%M:%S)" -E now \
    --format="$fields" >"$work/sacct.txt" 2>"$work/sacct.err"
if "$SACCT2SWF" --max-nodes 8 -o "$work/trace.swf" "$work/sacct.txt" 2>"$work/conv.err"; then
    pass "sacct2swf: $(cat "$work/conv.err")"
else
    fail "sacct2swf: $(cat "$work/conv.err")"
fi
matches -F "${#ids[@]} jobs written" "$work/conv.err" &&
    matches -F "2 never started" "$work/conv.err" &&
    pass "${#ids[@]} jobs written; the one cancelled while pending and the refused one counted as never started" ||
    fail "the account of the records: $(cat "$work/conv.err")"

# Per job: the SWF against the job's own record and the test's.
unix0=$(sed -n 's/^; UnixStartTime: //p' "$work/trace.swf")
bad=$(awk -v u0="$unix0" -v order="${ids[*]}" -v subm="$(for i in "${ids[@]}"; do printf '%s=%s ' "$i" "${submitted[$i]}"; done)" \
    -v st="$(for i in "${ids[@]}"; do printf '%s=%s ' "$i" "${want_status[$i]}"; done)" '
    function abs(x) { return x < 0 ? -x : x }
    BEGIN {
        n = split(order, ord, " ")
        split(subm, a, " "); for (k in a) { split(a[k], p, "="); submit[p[1]] = p[2] }
        split(st, a, " "); for (k in a) { split(a[k], p, "="); status[p[1]] = p[2] }
    }
    FILENAME == ARGV[1] { js[$1] = $2; je[$1] = $3; jn[$1] = $4; next }
    /^;/ { next }
    {
        m++
        if ($1 != ord[m]) printf "position %d: job %s, submitted %s\n", m, $1, ord[m]
        if (!($1 in status)) { printf "job %s: not submitted by the test\n", $1; next }
        if ($11 != status[$1]) printf "job %s: status %s, wanted %s\n", $1, $11, status[$1]
        if (abs(u0 + $2 - submit[$1]) > 2) printf "job %s: submit %s, sbatch returned at %.1f\n", $1, u0 + $2, submit[$1]
        if ($1 in js) {
            if ($5 != jn[$1]) printf "job %s: %s nodes, the job saw %s\n", $1, $5, jn[$1]
            if (abs($4 - (je[$1] - js[$1])) > 2.5) printf "job %s: run %s s, the script ran %.2f s\n", $1, $4, je[$1] - js[$1]
            if (abs(u0 + $2 + $3 - js[$1]) > 3) printf "job %s: start %s, the script began at %.1f\n", $1, u0 + $2 + $3, js[$1]
        } else if (status[$1] != 5) printf "job %s: no record of its own\n", $1
    }
    END { if (m != n) printf "%d jobs in the trace, %d submitted\n", m, n }' "$log" "$work/trace.swf")
if [ -z "$bad" ]; then
    pass "${#ids[@]} jobs in submission order; sizes, run times, starts and statuses as the jobs and the test saw them"
else
    fail "SWF against the jobs: $bad"
fi

# meshsim on the same mesh: every job at its traced size and run time.
if "$MESHSIM" --mesh 4x2 --allocator contig-ff --jobs-csv "$work/sim.csv" \
    --summary "$work/sim.json" "$work/trace.swf" >"$work/sim.out" 2>&1; then
    diff=$(awk 'NR == FNR { if (!/^;/) { size[$1] = $5; run[$1] = $4; n++ }; next }
        FNR > 1 { split($0, c, ","); seen++
                  if (c[7] != size[c[1]] || c[6] != run[c[1]]) print "job " c[1] ": " c[7] " nodes " c[6] " s" }
        END { if (seen != n) print seen " of " n " jobs simulated" }' \
        "$work/trace.swf" "$work/sim.csv")
    [ -z "$diff" ] && pass "meshsim replays all ${#ids[@]} jobs at their sizes and run times ($(sed -n 's/^mean wait (s) *//p' "$work/sim.out") s mean wait)" ||
        fail "meshsim: $diff"
else
    fail "meshsim: $(tail -n 3 "$work/sim.out")"
fi
# The per-job comparison: what the cluster did (sacct's start, the job's
# own run time) beside meshsim's replay of the same trace.
echo "  job  nodes(job/swf/sim)  run s(script/swf/sim)  wait s(cluster/sim)  status"
awk 'FILENAME == ARGV[1] { js[$1] = $2; je[$1] = $3; jn[$1] = $4; next }
     FILENAME == ARGV[2] { if (!/^;/) { sn[$1] = $5; sr[$1] = $4; sw[$1] = $3; ss[$1] = $11; ord[++n] = $1 }; next }
     FNR > 1 { split($0, c, ","); mn[c[1]] = c[7]; mr[c[1]] = c[6]; mw[c[1]] = c[5] }
     END { for (k = 1; k <= n; k++) { i = ord[k]
             printf "  %3s  %5s/%s/%s  %12s/%s/%s  %12s/%s  %s\n", i, (i in jn) ? jn[i] : "-", sn[i], mn[i],
                 (i in js) ? sprintf("%.1f", je[i] - js[i]) : "-", sr[i], mr[i], sw[i], mw[i], ss[i] } }' \
    "$log" "$work/trace.swf" "$work/sim.csv"
n_ok=$(awk '!/^;/ && $11 == 1' "$work/trace.swf" | wc -l)
got=$("$MESHSIM" --mesh 4x2 --status completed --summary - "$work/trace.swf" 2>/dev/null |
    sed -n 's/^  "jobs": \([0-9]*\),$/\1/p')
[ "$got" = "$n_ok" ] && [ "$n_ok" -eq $(( ${#ids[@]} - 2 )) ] &&
    pass "meshsim --status completed: the $n_ok completed jobs" ||
    fail "meshsim --status completed simulated '$got' jobs of $n_ok completed"
mesh_finish
