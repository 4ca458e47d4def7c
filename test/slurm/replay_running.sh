#!/usr/bin/env bash
# replay_running.sh - meshreplay --use-running on a cluster it did not
# start, whose MinJobAge (2 s) purges a finished job's record within about
# 12 s of its end:
#  (a) a 14-job replay of about 25 s of wall time reads every job back
#      (each as soon as it leaves the queue), although slurmctld has purged
#      the first jobs' records by the end; it warns about the small
#      MinJobAge; --progress forced into a file gives one line per poll
#      with jobs submitted, running, queued and done, and the outputs stay
#      clean CSV and JSON;
#  (b) SIGINT during a replay cancels the replay's own jobs only: another
#      job of the same user survives, and the cluster stays up.
. "$(dirname "$0")/lib.sh"
mesh_setup replay_running
PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) \
    || { echo "SKIP: python3 not installed"; exit 77; }
MESHREPLAY=${MESHREPLAY:-$top_src/contrib/replay/meshreplay}

if cluster_start "$work/c" --mesh 2x2 --extra-slurm-conf MinJobAge=2 \
        --extra-slurm-conf SchedulerParameters=bf_interval=1,sched_interval=1 \
        >/dev/null 2>&1; then
    pass "cluster 2x2 with MinJobAge=2"
else
    fail "cluster start"; exit 1
fi
# Another job of the same user, held so it does not take a node.
other=$(submit --hold -N1 -t 5 -J other --wrap "sleep 300")
[ -n "$other" ] && pass "the user's other job $other (held)" || fail "sbatch of the other job"

swf() {   # file jobs gap run: jobs of 1-2 nodes every GAP trace s
    "$PY" - "$@" <<'EOF'
import sys
path, n, gap, run = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
with open(path, "w") as f:
    f.write("; MaxProcs: 4\n")
    for i in range(1, n + 1):
        k = 1 + i % 2
        f.write("%d %d -1 %d %d -1 -1 %d %d -1 1 1 1 -1 1 1 -1 -1\n"
                % (i, (i - 1) * gap, run, k, k, 2 * run))
EOF
}
replay() {   # name swf [options]: in the background; sets rpid
    local name=$1 t=$2
    shift 2
    SLURM_CONF=$conf MESHSIM=$top_build/src/meshsim/meshsim "$PY" "$MESHREPLAY" \
        --use-running --mesh-conf "$work/c/etc/mesh.conf" --speedup 60 \
        --timeout 60 "$@" "$t" >"$work/$name.out" 2>"$work/$name.err" &
    rpid=$!
}

# (a) 14 jobs, one every 90 trace s (1.5 s wall), 60 s runtimes.
swf "$work/a.swf" 14 90 60
t0=$SECONDS
replay a "$work/a.swf" --progress --jobs-csv "$work/a.csv" --summary "$work/a.json"
wait "$rpid"
rc=$?
echo "  (replay took $((SECONDS - t0)) s)"
grep -v '^meshreplay: [0-9]*/14 submitted' "$work/a.err" | sed 's/^/  /'
tail -1 "$work/a.out" | sed 's/^/  /'
[ "$rc" -eq 0 ] && pass "replay exit 0" || fail "replay rc=$rc"
"$PY" - "$work/a.csv" "$work/a.json" <<'EOF' && pass "14 jobs read back, 0 lost; CSV and JSON parse" || fail "outputs"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
s = json.load(open(sys.argv[2]))
print("  jobs %d, lost %d, CSV rows %d" % (s["jobs"], s["lost"], len(rows)))
sys.exit(0 if s["jobs"] == 14 and s["lost"] == 0 and len(rows) == 14
         and all(r["start"] and r["coords"] for r in rows) else 1)
EOF
grep -q "warning: the running cluster's MinJobAge is 2 s" "$work/a.err" \
    && pass "warns about MinJobAge=2" || fail "no MinJobAge warning"
# The first job's record is gone from slurmctld (purged), yet it was
# reported: it was read back before the purge.
end=$((SECONDS + 15))
while first=$(sl squeue -h -t all -n swf1 -o %i); sq=$?
        [ -n "$first" ] && [ "$SECONDS" -lt "$end" ]; do
    sleep 1
done
[ "$sq" -eq 0 ] && [ -z "$first" ] && pass "slurmctld purged job swf1's record (it was still reported)" \
    || fail "swf1's record not purged: the test did not exercise MinJobAge"
n=$(grep -c '^meshreplay: [0-9]*/14 submitted, [0-9]* running, [0-9]* queued, [0-9]* done; trace [0-9]* s (last submit 1170 s) in [0-9]* s wall (x60)$' "$work/a.err")
[ "$n" -ge 10 ] && pass "--progress: $n progress lines in the log" || fail "--progress: $n lines"
grep -q '^meshreplay: 14/14 submitted, 0 running, 0 queued, 14 done;' "$work/a.err" \
    && pass "last progress line: 14/14 submitted, 14 done" || fail "no final progress line"
grep -q $'\r' "$work/a.err" "$work/a.out" "$work/a.csv" "$work/a.json" \
    && fail "a carriage return in a log or output" || pass "no carriage return outside a terminal"

# (b) SIGINT while the replay's jobs run.
swf "$work/b.swf" 6 30 600
replay b "$work/b.swf"
end=$((SECONDS + 60)) running=""
while [ "$SECONDS" -lt "$end" ] && kill -0 "$rpid" 2>/dev/null; do
    running=$(sl squeue -h -t R -o '%j' | grep '^swf')
    [ -z "$running" ] || break
    sleep 0.2
done
[ -n "$running" ] && pass "replay jobs running: $(echo $running)" || fail "no replay job running"
kill -INT "$rpid"
wait "$rpid"
rc=$?
[ "$rc" -eq 130 ] && pass "SIGINT: exit 130" || fail "SIGINT: exit $rc"
grep -q "interrupted by SIGINT: cancelled the replay's [1-9][0-9]* submitted jobs, left the running cluster of SLURM_CONF=$conf up" \
    "$work/b.err" && pass "says it cancelled its own jobs and left the cluster up" \
    || { fail "message"; cat "$work/b.err"; }
left=$(sl squeue -h -o '%j %T' | grep '^swf' | grep -v COMPLETING)
[ -z "$left" ] && pass "no replay job left pending or running" || fail "replay jobs left: $left"
[ "$(job_field "$other" JobState)" = PENDING ] \
    && pass "the user's other job $other is still there (PENDING)" \
    || fail "other job $other: $(job_field "$other" JobState)"
ctld_alive && pass "the running cluster is still up" || fail "slurmctld gone"
mesh_finish
