#!/usr/bin/env bash
# sweep_array.sh - contrib/slurm-array/meshsweep-array on the local
# cluster: a 2 allocators x 2 loads x 2 seeds grid on a meshsim-gen
# workload, run as an 8-task job array plus a dependent merge job, gives
# the same tidy rows (every metric) and aggregated CSV as meshsweep run
# locally.  A failing point is reported and fails the merge job; a missing
# point makes the merge refuse to claim success.
. "$(dirname "$0")/lib.sh"
mesh_setup sweep_array

export MESHSWEEP=$top_build/src/meshsweep/meshsweep
export MESHSIM=$top_build/src/meshsim/meshsim
export MESHGEN=$top_build/src/meshgen/meshsim-gen
ARRAY=$top_src/contrib/slurm-array/meshsweep-array

if cluster_start "$work/c"; then
    pass "cluster with select/mesh"
else
    fail "cluster start"; exit 1
fi
run_array() {   # meshsweep-array args...
    (cd "$work/jobs" && SLURM_CONF=$conf timeout 60 "$ARRAY" --wait "$@")
}
rows() { tail -n +2 "$1" | sort; }
# The tidy rows of two CSVs agree in every column but where the point's
# generated workload was kept (run_trace, run_job_attrs: each array task
# keeps its own copy); their SHA-256 columns must agree too.
same_rows() {   # a.csv b.csv
    python3 - "$1" "$2" <<'PY'
import csv, sys
def rows(p):
    return sorted(tuple(v for k, v in r.items() if k not in ("run_trace", "run_job_attrs", "wall_s"))
                  for r in csv.DictReader(open(p)))
a, b = rows(sys.argv[1]), rows(sys.argv[2])
if not a or a != b:
    for x, y in zip(a, b):
        if x != y:
            print([(i, u, v) for i, (u, v) in enumerate(zip(x, y)) if u != v][:3])
            break
    sys.exit(1)
PY
}

cat >"$work/g.grid" <<GRID
workload  = mache:jobs=60:interarrival=900:nodes=32
mesh      = 8x8
allocator = mc1x1, hilbert-bf
load      = 0.6, 1.0
seed      = 1, 2
GRID
"$MESHSWEEP" -j 2 --no-progress --out "$work/local.csv" "$work/g.grid" 2>"$work/local.err"
[ $? -eq 0 ] && [ "$(rows "$work/local.csv" | grep -c ',ok,')" -eq 8 ] \
    && pass "local meshsweep: 8 ok rows" || fail "local meshsweep: $(cat "$work/local.err")"

t0=$SECONDS
run_array --out "$work/arr.csv" "$work/g.grid" >"$work/arr.out" 2>&1
rc=$?
aj=$(sed -n 's/.*array job \([0-9]*\).*/\1/p' "$work/arr.out")
if [ "$rc" -eq 0 ] && grep -q "8 of 8 points ok" "$work/arr.out"; then
    pass "array job $aj + merge job: exit 0, 8 of 8 points ok ($((SECONDS - t0))s)"
else
    fail "array run: rc=$rc: $(cat "$work/arr.out")"
fi
n=$(ls "$work"/arr.parts/point-*[0-9].csv 2>/dev/null | wc -l)
[ "$n" -eq 8 ] && pass "8 array tasks wrote one row file each" || fail "$n row files, wanted 8"
if same_rows "$work/local.csv" "$work/arr.csv" >"$work/diff"; then
    pass "tidy rows from the array equal meshsweep's (8 rows, every metric and input SHA-256)"
else
    fail "tidy rows differ: $(head -5 "$work/diff")"
fi
if [ -n "$(rows "$work/arr-by-size.csv")" ] && diff <(rows "$work/local-by-size.csv") <(rows "$work/arr-by-size.csv") >/dev/null; then
    pass "by-size rows from the array equal meshsweep's ($(($(wc -l <"$work/arr-by-size.csv") - 1)) rows)"
else
    fail "by-size rows differ or are missing"
fi
if [ -s "$work/arr-agg.csv" ] && diff <(sort "$work/local-agg.csv") <(sort "$work/arr-agg.csv") >/dev/null; then
    pass "aggregated CSV equals meshsweep's ($(($(wc -l <"$work/arr-agg.csv") - 1)) groups)"
else
    fail "aggregated CSV differs or is missing"
fi

# A failing point: its task fails, is named, and the merge job fails.
cat >"$work/bad.grid" <<GRID
workload  = mache:jobs=30:interarrival=900:nodes=32
mesh      = 8x8
allocator = mc1x1, no-such-allocator
seed      = 1
GRID
run_array --out "$work/bad.csv" "$work/bad.grid" >"$work/bad.out" 2>&1
rc=$?
bj=$(sed -n 's/.*array job \([0-9]*\).*/\1/p' "$work/bad.out")
st=$(job_field "${bj}_1" JobState)
if [ "$rc" -ne 0 ] && [ "$st" = FAILED ]; then
    pass "failing point: array task ${bj}_1 FAILED, merge exit $rc"
else
    fail "failing point: task state '$st', merge rc=$rc"
fi
if grep -q "point 1: array task 1 left no ok row" "$work/bad.out" \
        && grep -q "INCOMPLETE: 1 of 2 points missing or failed" "$work/bad.out" \
        && grep -q "no-such-allocator" "$work/bad.out"; then
    pass "merge log names the failed point and meshsim's message"
else
    fail "merge log: $(cat "$work/bad.out")"
fi
grep -q ',failed,' "$work/bad.csv" && [ "$(grep -c ',ok,' "$work/bad.csv")" -eq 1 ] \
    && pass "the failed row is kept (status failed), not dropped" \
    || fail "bad.csv: $(cat "$work/bad.csv")"

# A missing point (task never wrote its row): the merge refuses.
rm -f "$work/arr.parts/point-5.csv"
out=$(SLURM_CONF=$conf "$ARRAY" --merge --out "$work/arr.csv" "$work/g.grid" 2>&1)
rc=$?
if [ "$rc" -ne 0 ] && echo "$out" | grep >/dev/null "point 5: array task 5 left no ok row" \
        && echo "$out" | grep >/dev/null "INCOMPLETE: 1 of 8" && ! echo "$out" | grep >/dev/null "points ok"; then
    pass "missing point 5: merge exit $rc, INCOMPLETE"
else
    fail "missing point: rc=$rc: $out"
fi
# Rerunning the array redoes only the missing point.
run_array --out "$work/arr.csv" "$work/g.grid" >"$work/re.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && same_rows "$work/local.csv" "$work/arr.csv" >/dev/null; then
    pass "rerun completes the sweep (rows equal meshsweep's again)"
else
    fail "rerun: rc=$rc: $(cat "$work/re.out")"
fi
ctld_alive && pass "slurmctld alive" || fail "slurmctld died"
mesh_finish
