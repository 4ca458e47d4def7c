#!/usr/bin/env bash
# replay.sh - meshreplay: a 100-job slice of a generated trace replayed
# through select/mesh at 60x on a 4x4 cluster.  Every job is accounted
# for, no node is ever held by two running jobs, the comparison with
# meshsim is printed, and the agreement figures are within the margins
# measured and explained in doc/replay.md.
. "$(dirname "$0")/lib.sh"
mesh_setup replay
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }

gen=$top_build/src/meshgen/meshsim-gen
"$gen" --workload mache --jobs 100 --seed 7 --nodes 16 --interarrival 30 \
    --runtime-scale 0.1 --swf "$work/t.swf" --attrs "$work/t.csv"
printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\n' >"$work/mesh.conf"
t0=$SECONDS
MESHSIM=$top_build/src/meshsim/meshsim python3 "$top_src/contrib/replay/meshreplay" \
    --mesh-conf "$work/mesh.conf" --speedup 60 --plugin-dir "$work/plugins" \
    --jobs-csv "$work/r.csv" --summary "$work/r.json" --compare --timeout 240 --progress \
    "$work/t.swf" >"$work/out" 2>"$work/err"
rc=$?
cat "$work/out"
echo "  (replay took $((SECONDS - t0)) s)"
[ $rc -eq 0 ] && pass "meshreplay exit 0 (no job lost, no overlap)" || { fail "meshreplay rc=$rc"; tail -20 "$work/err"; }
grep -q '^meshreplay: 100/100 submitted, 0 running, 0 queued, 100 done; trace' "$work/err" \
    && pass "--progress: last line 100/100 submitted, 100 done ($(grep -c ' submitted, ' "$work/err") lines)" \
    || fail "--progress: no final progress line"
val() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, {'d': d}))" "$work/r.json" "$1"; }
if [ -s "$work/r.json" ]; then
    [ "$(val 'd["jobs"]')" = 100 ] && [ "$(val 'd["lost"]')" = 0 ] \
        && pass "all 100 jobs replayed and read back" || fail "jobs $(val 'd["jobs"]'), lost $(val 'd["lost"]')"
    [ "$(val 'd["overlaps"]')" = 0 ] && pass "no node held by two running jobs" || fail "overlaps: $(val 'd["overlaps"]')"
    sp=$(val 'round(d["achieved_speedup"])')
    [ "$sp" -ge 50 ] && pass "achieved speed-up x$sp (target 60)" || fail "achieved speed-up x$sp"
    "$top_build/src/meshsim/meshsim" --mesh-conf "$work/mesh.conf" --jobs-csv "$work/ms.csv" \
        "$work/t.swf" >/dev/null 2>&1
    [ -s "$work/ms.csv" ] && [ "$(head -1 "$work/r.csv")" = "$(head -1 "$work/ms.csv")" ] \
        && pass "per-job CSV in meshsim's format" \
        || fail "CSV header: $(head -1 "$work/r.csv"), meshsim's: $(head -1 "$work/ms.csv" 2>/dev/null)"
    same=$(val 'd["compare"]["identical_node_sets"]')
    med=$(val 'd["compare"]["start_diff_median"]')
    p95=$(val 'd["compare"]["start_diff_p95"]')
    echo "  agreement: identical node sets $same, start diff median $med s, p95 $p95 s"
    # Measured (doc/replay.md): 72-75% identical node sets, median start
    # difference 1110-1299 trace s, p95 2262-2373 s on an idle machine;
    # 1937 / 3455 s with both cores shared by about eight other jobs (the
    # difference is per-job wall latency, which load stretches).  Margins
    # cover the loaded case plus noise.
    python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 0.6 else 1)" "$same" \
        && pass "identical node sets $same >= 0.6" || fail "identical node sets $same < 0.6"
    python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 2400 else 1)" "$med" \
        && pass "median start difference $med <= 2400 trace s" || fail "median start difference $med > 2400"
    python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 4200 else 1)" "$p95" \
        && pass "p95 start difference $p95 <= 4200 trace s" || fail "p95 start difference $p95 > 4200"
    d=$(val 'abs(d["compare"]["metrics"]["mean_sum_pairwise"]["slurm"] - d["compare"]["metrics"]["mean_sum_pairwise"]["meshsim"])')
    python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 10 else 1)" "$d" \
        && pass "mean sum of pairwise distances within 10 of meshsim's ($d)" || fail "pairwise difference $d"
fi
mesh_finish
