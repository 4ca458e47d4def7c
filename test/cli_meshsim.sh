#!/bin/bash
# cli_meshsim.sh - the meshsim command line on small generated traces:
# outputs, file formats, and clear errors for bad flags and bad input.
set -u
meshsim=${MESHSIM:-../src/meshsim/meshsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
ko() { echo "FAIL: $1"; fail=$((fail + 1)); }
check() { if eval "$2"; then ok "$1"; else ko "$1"; fi; }

cat >"$tmp/t.swf" <<'SWF'
; MaxNodes: 16
; MaxProcs: 16
1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1
2 10 -1 50 8 12.5 -1 8 -1 -1 1 1 1 -1 -1 -1 -1 -1
3 20 -1 0 2 -1 -1 2 10 -1 1 1 1 -1 -1 -1 -1 -1
4 30 -1 -1 2 -1 -1 2 10 -1 1 1 1 -1 -1 -1 -1 -1
5 40 -1 30 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1
SWF

"$meshsim" --allocator mc1x1 --jobs-csv "$tmp/j.csv" --summary "$tmp/s.json" "$tmp/t.swf" >"$tmp/out" 2>"$tmp/err"
check "runs on a small trace" '[ $? -eq 0 ]'
check "default mesh from MaxProcs is 4x4" 'grep -q "^mesh  *4x4 (16 nodes)" "$tmp/out"'
check "skips missing/zero runtimes with a count" 'grep -q "jobs skipped  *2 (runtime 2" "$tmp/out"'
check "csv header" '[ "$(head -1 "$tmp/j.csv")" = "job_id,submit,start,end,wait,run,nodes,sum_pairwise,avg_pairwise,diameter,coords,trace_run,io_time" ]'
check "csv has one row per simulated job" '[ "$(wc -l <"$tmp/j.csv")" -eq 4 ]'
check "mc1x1 gives job 1 a 2x2 block (sum 8, 4 coords)" 'grep -q "^1,0,0,100,0,100,4,8,1.333333,2,[0-9]:[0-9] [0-9]:[0-9] [0-9]:[0-9] [0-9]:[0-9],100,0$" "$tmp/j.csv"'
for key in jobs skipped makespan utilization mean_wait mean_bounded_slowdown \
	mean_sum_pairwise mean_avg_pairwise_multi allocator scheduler mesh; do
	check "summary has $key" "grep -q '\"$key\":' '$tmp/s.json'"
done
check "summary is JSON" 'python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/s.json" 2>/dev/null || ! command -v python3 >/dev/null'
check "keep-zero-runtime counts the zero-length job" '"$meshsim" --keep-zero-runtime "$tmp/t.swf" | grep -q "jobs simulated  *4"'
check "list-allocators lists the curve fits and mc1x1" '"$meshsim" --list-allocators | grep -q "^hilbert-freelist" && "$meshsim" --list-allocators | grep -q "^mc1x1"'

# Contention runtime model: a 4-node row under all-to-all runs twice as
# long as the 2x2 block mc1x1 gives (doc/runtime-models.md).
"$meshsim" --allocator snake-ff --runtime-model contention --comm all-to-all \
	--comm-share 1 --jobs-csv "$tmp/c.csv" --summary "$tmp/c.json" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "contention: snake-ff row of 4 runs 200 s for 100 traced" '[ $? -eq 0 ] && grep -q "^1,0,0,200,0,200,4," "$tmp/c.csv" && grep -q ",100,0$" "$tmp/c.csv"'
check "contention: summary names the model" 'grep -q "\"runtime_model\": \"contention\"" "$tmp/c.json" && grep -q "\"comm\": \"all-to-all\"" "$tmp/c.json"'
"$meshsim" --allocator mc1x1 --runtime-model contention --comm all-to-all \
	--comm-share 1 --jobs-csv "$tmp/c.csv" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "contention: mc1x1 2x2 block keeps 100 s" '[ $? -eq 0 ] && grep -q "^1,0,0,100,0,100,4," "$tmp/c.csv"'
"$meshsim" --runtime-model fluid "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "bad --runtime-model exits 2 naming it" '[ $? -eq 2 ] && grep -q -- "--runtime-model: invalid value \"fluid\"" "$tmp/err"'
# PFS model: 4 jobs writing all the time at 12.5 GB/s per node into a
# 10 GB/s file system are all slowed.
"$meshsim" --runtime-model pfs --io-share 1 --pfs-bandwidth 10 --summary "$tmp/f.json" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "pfs: jobs slowed by a small file system" '[ $? -eq 0 ] && grep -q "\"runtime_model\": \"pfs\"" "$tmp/f.json" && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d[\"mean_stretch\"] > 1.5 else 1)" "$tmp/f.json"'
"$meshsim" --runtime-model pfs --pfs-bandwidth 0 "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--pfs-bandwidth 0 exits 2" '[ $? -eq 2 ] && grep -q -- "--pfs-bandwidth: invalid value \"0\": expected GB/s > 0" "$tmp/err"'
"$meshsim" --comm ring "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "bad --comm exits 2 listing the patterns" '[ $? -eq 2 ] && grep -q "expected all-to-all, one-to-all, nearest or none" "$tmp/err"'
"$meshsim" --comm-share 0.7 --io-share 0.5 "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "shares summing over 1 exit 2" '[ $? -eq 2 ] && grep -q "exceeds 1" "$tmp/err"'
"$meshsim" --io-share 1.5 "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--io-share out of range exits 2" '[ $? -eq 2 ] && grep -q -- "--io-share: invalid value \"1.5\"" "$tmp/err"'

# Queue priorities and the new summary keys.
"$meshsim" --priority wfp --summary "$tmp/p.json" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--priority wfp runs and is recorded" '[ $? -eq 0 ] && grep -q "\"priority\": \"wfp\"" "$tmp/p.json"'
for key in loss_of_capacity avg_balance_factor avg_max_contention by_size alpha; do
	check "summary has $key" "grep -q '\"$key\":' '$tmp/p.json'"
done
check "no I/O nodes: balance factor is null" 'grep -q "\"avg_balance_factor\": null" "$tmp/p.json"'
"$meshsim" --io-nodes "0,1;0,2" --summary "$tmp/p.json" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "I/O nodes: balance factor is a number" '[ $? -eq 0 ] && grep -q "\"avg_balance_factor\": [0-9]" "$tmp/p.json"'
"$meshsim" --priority sjf "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "bad --priority exits 2" '[ $? -eq 2 ] && grep -q "expected fcfs, wfp or ozden" "$tmp/err"'
"$meshsim" --priority ozden --alpha 1.2 "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--alpha out of range exits 2" '[ $? -eq 2 ] && grep -q -- "--alpha: invalid value \"1.2\"" "$tmp/err"'

# Tang's walltime-aware schemes.
"$meshsim" --allocator sl:contig-ff --paired-filling --spatial-estimate adjusted \
	--summary "$tmp/w.json" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "sl:contig-ff with PF and AdjEst runs and is recorded" '[ $? -eq 0 ] && grep -q "\"paired_filling\": true" "$tmp/w.json" && grep -q "\"spatial_estimate\": \"adjusted\"" "$tmp/w.json"'
"$meshsim" --spatial-estimate oracle "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "bad --spatial-estimate exits 2" '[ $? -eq 2 ] && grep -q "expected user, adjusted or actual" "$tmp/err"'
"$meshsim" --pf-max-size -3 "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "bad --pf-max-size exits 2" '[ $? -eq 2 ] && grep -q -- "--pf-max-size: invalid value" "$tmp/err"'

# Bad flags: exit 2 and name the flag.
"$meshsim" --mesh 4y4 "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "bad --mesh exits 2" '[ $? -eq 2 ] && grep -q "mesh" "$tmp/err"'
"$meshsim" --load -1 "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "bad --load exits 2 naming the flag" '[ $? -eq 2 ] && grep -q -- "--load: invalid value \"-1\"" "$tmp/err"'
"$meshsim" --scheduler sjf "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "bad --scheduler exits 2" '[ $? -eq 2 ] && grep -q -- "--scheduler" "$tmp/err"'
"$meshsim" --allocator nosuch "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "unknown allocator exits 2" '[ $? -eq 2 ] && grep -q "unknown allocator \"nosuch\"" "$tmp/err"'
"$meshsim" --mesh 2x2 "$tmp/t.swf" >"$tmp/out" 2>"$tmp/err"
check "jobs larger than the mesh are skipped and counted" '[ $? -eq 0 ] && grep -q "larger than mesh 1," "$tmp/out"'
"$meshsim" >/dev/null 2>"$tmp/err"
check "no trace exits 2" '[ $? -eq 2 ]'

# I/O nodes for the I/O-aware allocators.
"$meshsim" --io-nodes "0,1;0,2" --allocator plas "$tmp/t.swf" >"$tmp/out" 2>"$tmp/err"
check "--io-nodes lets plas run" '[ $? -eq 0 ] && grep -q "allocator  *plas" "$tmp/out"'
"$meshsim" --allocator plas "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "plas without I/O nodes exits 2 and says why" '[ $? -eq 2 ] && grep -q "needs designated I/O nodes" "$tmp/err"'
"$meshsim" --io-nodes "0,9" --allocator plas "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--io-nodes outside the mesh exits 2 naming it" '[ $? -eq 2 ] && grep -q "bad I/O node coordinate \"0,9\": expected x,y\[,z\] inside the dimensions 4x4" "$tmp/err"'
printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\n' >"$tmp/mesh.conf"
"$meshsim" --mesh-conf "$tmp/mesh.conf" --io-nodes "0,1" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--io-nodes with --mesh-conf is a conflict" '[ $? -eq 2 ] && grep -q "conflicts with --io-nodes" "$tmp/err"'

# Bad trace line: file, line and field named; non-zero exit; no output.
cp "$tmp/t.swf" "$tmp/bad.swf"
echo "6 50 -1 10 3.5 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1" >>"$tmp/bad.swf"
"$meshsim" --summary "$tmp/bad.json" "$tmp/bad.swf" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "bad trace line exits non-zero" '[ $rc -ne 0 ]'
check "bad trace line names file:line:field" 'grep -q "bad.swf:8:alloc_procs: expected an integer, got \"3.5\"" "$tmp/err"'
check "no summary written on a bad trace" '[ ! -e "$tmp/bad.json" ]'
"$meshsim" "$tmp/missing.swf" >/dev/null 2>"$tmp/err"
check "missing trace file is named" '[ $? -ne 0 ] && grep -q "missing.swf" "$tmp/err"'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
