#!/bin/bash
# cli_meshsim.sh - the meshsim command line on small generated traces:
# outputs, file formats, and clear errors for bad flags and bad input.
set -u
meshsim=${MESHSIM:-../src/meshsim/meshsim}
. "$(dirname "$0")/cli_lib.sh"

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
check "skips the missing runtime (-1) with a count, keeps runtime 0" 'grep -q "jobs skipped  *1 (runtime 1" "$tmp/out" && grep -q "jobs simulated  *4" "$tmp/out"'
check "skipped jobs are announced on stderr" 'grep -q "warning: .*t.swf: 1 of 5 jobs not simulated (skipped: runtime 1," "$tmp/err"'
check "csv header" '[ "$(head -1 "$tmp/j.csv")" = "job_id,submit,start,end,wait,run,nodes,sum_pairwise,avg_pairwise,diameter,coords,trace_run,io_time,stretch,sys_balance_factor" ]'
check "csv has one row per simulated job" '[ "$(wc -l <"$tmp/j.csv")" -eq 5 ]'
check "mc1x1 gives job 1 a 2x2 block (sum 8, 4 coords)" 'grep -q "^1,0,0,100,0,100,4,8,1.333333,2,[0-9]:[0-9] [0-9]:[0-9] [0-9]:[0-9] [0-9]:[0-9],100,0,1,$" "$tmp/j.csv"'
check "stretch is 1 under the trace model, also for the zero-length job 3" '[ "$(cut -d, -f14 "$tmp/j.csv" | sort -u | tr "\n" " ")" = "1 stretch " ]'
for key in jobs skipped makespan utilization mean_wait mean_bounded_slowdown \
	mean_sum_pairwise mean_avg_pairwise_multi allocator scheduler mesh; do
	check "summary has $key" "grep -q '\"$key\":' '$tmp/s.json'"
done
check "summary is JSON" 'python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/s.json" 2>/dev/null || ! command -v python3 >/dev/null'
# A 5-node job has no 5-node rectangle in 4x4 (1x5 and 5x1 do not fit),
# so contig-ff refuses it even on the empty mesh: counted and announced.
cat >"$tmp/r.swf" <<'SWF'
; MaxProcs: 16
1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1
2 10 -1 50 5 -1 -1 5 100 -1 1 1 1 -1 -1 -1 -1 -1
SWF
"$meshsim" --allocator contig-ff --jobs-csv "$tmp/r.csv" "$tmp/r.swf" >"$tmp/out" 2>"$tmp/err"
check "refused job: exit 0, counted, only job 1 in the CSV" '[ $? -eq 0 ] && grep -q "^jobs never placeable  *1$" "$tmp/out" && [ "$(cut -d, -f1 "$tmp/r.csv" | tr "\n" " ")" = "job_id 1 " ]'
check "refused job is announced on stderr in one line" '[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^meshsim: warning: .*r.swf: 1 of 2 jobs not simulated (skipped: runtime 0, size 0, more than 16 usable nodes 0, submit time 0; never placeable: 1)$" "$tmp/err"'
"$meshsim" --allocator mc1x1 "$tmp/r.swf" >/dev/null 2>"$tmp/err"
check "no warning of jobs not simulated when every job is placed (mc1x1 places 5 nodes)" '[ $? -eq 0 ] && ! grep -q "not simulated" "$tmp/err"'
check "--keep-zero-runtime (the default) counts the zero-length job" '"$meshsim" --keep-zero-runtime "$tmp/t.swf" 2>/dev/null | grep -q "jobs simulated  *4"'
check "--skip-zero-runtime skips it" '"$meshsim" --skip-zero-runtime "$tmp/t.swf" 2>/dev/null | grep -q "jobs skipped  *2 (runtime 2"'
check "summary records zero-runtime handling, seed and version" '"$meshsim" --skip-zero-runtime --seed 7 --summary - "$tmp/t.swf" 2>/dev/null | python3 -c "import json,sys; d=json.load(sys.stdin); sys.exit(0 if d[\"zero_runtime\"] == \"skip\" and d[\"seed\"] == 7 and d[\"version\"] and d[\"fates\"][\"total\"] == 5 else 1)"'
check "list-allocators lists the curve fits and mc1x1" '"$meshsim" --list-allocators | grep -q "^hilbert-freelist" && "$meshsim" --list-allocators | grep -q "^mc1x1"'
# --list-allocators names exactly the bases sl: takes: every allocator
# that sl:<it> accepts is named (the curve fits as "curve fits"), and
# every name there is accepted.
bases=" $("$meshsim" --list-allocators | sed -n 's/^sl:mc1x1 .*bases: \([^(]*\) (.*/\1/p' | sed 's/curve fits/curvefits/; s/,/ /g') "
bad=""
for a in $("$meshsim" --list-allocators | awk '$1 !~ /^sl:/ { print $1 }'); do
	if "$meshsim" --mesh 4x4 --io-nodes 0,0 --allocator "sl:$a" "$tmp/t.swf" >/dev/null 2>&1; then took=1; else took=0; fi
	case "$a" in
	rowmajor-* | snake-* | colsnake-* | hilbert-*) named=$(case "$bases" in *" curvefits "*) echo 1 ;; *) echo 0 ;; esac) ;;
	*) named=$(case "$bases" in *" $a "*) echo 1 ;; *) echo 0 ;; esac) ;;
	esac
	[ "$took" = "$named" ] || bad="$bad $a(sl:$took,listed:$named)"
done
check "--list-allocators names exactly the bases sl: takes${bad:+ (not:$bad)}" '[ -z "$bad" ] && [ "$bases" != "  " ]'

# Contention runtime model: a 4-node row under all-to-all runs 4/3 as
# long as the 2x2 block mc1x1 gives: 4 flows on its middle link against
# 3 injected by each node (doc/runtime-models.md).
"$meshsim" --allocator snake-ff --runtime-model contention --comm all-to-all \
	--comm-share 1 --jobs-csv "$tmp/c.csv" --summary "$tmp/c.json" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "contention: snake-ff row of 4 runs 133.3 s for 100 traced" '[ $? -eq 0 ] && grep -q "^1,0,0,133\.33333333333[0-9]*,0,133\.33333333333[0-9]*,4,.*,100,0,1\.3333333333333[0-9]*,$" "$tmp/c.csv"'
check "contention: per-job stretch is run/trace_run and averages to mean_stretch" 'python3 -c "
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ok = all(abs(float(r[\"stretch\"]) - (float(r[\"run\"]) / float(r[\"trace_run\"]) if float(r[\"trace_run\"]) > 0 else 1)) < 1e-9 for r in rows)
m = sum(float(r[\"stretch\"]) for r in rows) / len(rows)
sys.exit(0 if ok and max(float(r[\"stretch\"]) for r in rows) > 1 and abs(m - json.load(open(sys.argv[2]))[\"mean_stretch\"]) < 1e-9 else 1)" "$tmp/c.csv" "$tmp/c.json"'
check "contention: summary names the model" 'grep -q "\"runtime_model\": \"contention\"" "$tmp/c.json" && grep -q "\"comm\": \"all-to-all\"" "$tmp/c.json"'
"$meshsim" --allocator mc1x1 --runtime-model contention --comm all-to-all \
	--comm-share 1 --jobs-csv "$tmp/c.csv" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "contention: mc1x1 2x2 block keeps 100 s" '[ $? -eq 0 ] && grep -q "^1,0,0,100,0,100,4," "$tmp/c.csv"'
"$meshsim" --runtime-model fluid "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "bad --runtime-model exits 2 naming it" '[ $? -eq 2 ] && grep -q -- "--runtime-model: invalid value \"fluid\"" "$tmp/err"'
# The runtime models' capacities and the combined model; pairs and
# phases from the sidecar.
"$meshsim" --runtime-model contention+pfs --io-nodes "0,0" --io-share 0.5 \
	--ion-bandwidth inf --link-bandwidth 25 --summary "$tmp/cp.json" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "contention+pfs runs; capacities recorded, unlimited as \"inf\"" '[ $? -eq 0 ] && grep -q "\"runtime_model\": \"contention+pfs\"" "$tmp/cp.json" && grep -q "\"ion_bandwidth\": \"inf\"" "$tmp/cp.json" && grep -q "\"link_bandwidth\": 25," "$tmp/cp.json" && grep -q "\"pfs_bandwidth\": 48," "$tmp/cp.json" && python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/cp.json"'
"$meshsim" --runtime-model contention --link-bandwidth 0 "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--link-bandwidth 0 exits 2" '[ $? -eq 2 ] && grep -q -- "--link-bandwidth: invalid value \"0\": expected GB/s > 0, or inf for unlimited" "$tmp/err"'
printf 'job_id,comm,comm_share\n1,pairs:0>3 3>0,1\n' >"$tmp/pairs.csv"
"$meshsim" --allocator snake-ff --job-attrs "$tmp/pairs.csv" --runtime-model contention --link-bandwidth 1 --node-bandwidth 4 --jobs-csv "$tmp/pairs.out" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--job-attrs pairs: 0>3 over a row of 4 is 3 hops, alone at full speed" '[ $? -eq 0 ] && grep -q "^1,0,0,100,0,100,4," "$tmp/pairs.out"'
printf 'job_id,comm\n1,pairs:0>9\n' >"$tmp/pairs9.csv"
"$meshsim" --job-attrs "$tmp/pairs9.csv" --runtime-model contention "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--job-attrs pairs naming rank 9 of a 4-node job: exit 1, named" '[ $? -eq 1 ] && grep -q "job 1: its communication pattern does not fit its 4 nodes" "$tmp/err"'
printf 'job_id,comm\n1,pairs:0-1\n' >"$tmp/pairsbad.csv"
"$meshsim" --job-attrs "$tmp/pairsbad.csv" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--job-attrs bad pairs: file:line:comm named" '[ $? -eq 1 ] && grep -q "pairsbad.csv:2:comm: expected sender>receiver rank pairs, got \"0-1\"" "$tmp/err"'

printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=snake-ff\nLinkBandwidth=3\nIONodeBandwidth=inf\n' >"$tmp/bw.conf"
"$meshsim" --mesh-conf "$tmp/bw.conf" --link-bandwidth 5 --summary "$tmp/bw.json" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "mesh.conf capacities apply, the command line overrides them" '[ $? -eq 0 ] && grep -q "\"link_bandwidth\": 5," "$tmp/bw.json" && grep -q "\"ion_bandwidth\": \"inf\"" "$tmp/bw.json" && grep -q "\"node_bandwidth\": 12.5," "$tmp/bw.json"'
printf 'Dimensions=4x4\nNodes=n[0-15]\nFileSystemBandwidth=lots\n' >"$tmp/bwbad.conf"
"$meshsim" --mesh-conf "$tmp/bwbad.conf" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "a bad capacity in mesh.conf names file:line:key" '[ $? -eq 2 ] && grep -q "bwbad.conf:3:FileSystemBandwidth: bad value \"lots\"" "$tmp/err"'

# PFS model: 4 jobs writing all the time at 12.5 GB/s per node into a
# 10 GB/s file system are all slowed.
"$meshsim" --runtime-model pfs --io-share 1 --pfs-bandwidth 10 --summary "$tmp/f.json" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "pfs: jobs slowed by a small file system" '[ $? -eq 0 ] && grep -q "\"runtime_model\": \"pfs\"" "$tmp/f.json" && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d[\"mean_stretch\"] > 1.5 else 1)" "$tmp/f.json"'
"$meshsim" --runtime-model pfs --pfs-bandwidth 0 "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--pfs-bandwidth 0 exits 2" '[ $? -eq 2 ] && grep -q -- "--pfs-bandwidth: invalid value \"0\": expected GB/s > 0" "$tmp/err"'
"$meshsim" --comm ring "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "bad --comm exits 2 listing the patterns" '[ $? -eq 2 ] && grep -q "expected all-to-all, one-to-all, nearest, chain or none" "$tmp/err"'
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

# Conservative backfilling with placement-aware reservations.
"$meshsim" --scheduler conservative --allocator contig-ff --summary "$tmp/c2.json" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--scheduler conservative runs and is recorded" '[ $? -eq 0 ] && grep -q "\"scheduler\": \"conservative\"" "$tmp/c2.json"'
"$meshsim" --scheduler sjf "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "bad --scheduler lists the four" '[ $? -eq 2 ] && grep -q "expected fcfs, easy, conservative or conservative-count" "$tmp/err"'
"$meshsim" --scheduler conservative-count --allocator mc1x1 --summary "$tmp/c3.json" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--scheduler conservative-count runs and is recorded" '[ $? -eq 0 ] && grep -q "\"scheduler\": \"conservative-count\"" "$tmp/c3.json"'
"$meshsim" --scheduler conservative-count --allocator contig-ff "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--scheduler conservative-count refuses contig-ff and says why" '[ $? -eq 1 ] && grep -q "allocator contig-ff may refuse a job while enough nodes are free.*use conservative" "$tmp/err"'

# Tang's walltime-aware schemes.
"$meshsim" --allocator sl:contig-ff --paired-filling --spatial-estimate adjusted \
	--summary "$tmp/w.json" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "sl:contig-ff with PF and AdjEst runs and is recorded" '[ $? -eq 0 ] && grep -q "\"paired_filling\": true" "$tmp/w.json" && grep -q "\"spatial_estimate\": \"adjusted\"" "$tmp/w.json"'
"$meshsim" --spatial-estimate oracle "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "bad --spatial-estimate exits 2" '[ $? -eq 2 ] && grep -q "expected user, adjusted or actual" "$tmp/err"'
"$meshsim" --pf-max-size -3 "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "bad --pf-max-size exits 2" '[ $? -eq 2 ] && grep -q -- "--pf-max-size: invalid value" "$tmp/err"'

# Holes in mesh.conf are never allocated; a job larger than the named
# nodes is too large (issue: Dimensions=4x2, Nodes=n[0-5], an 8-node job).
printf 'Dimensions=4x2\nNodes=n[0-5]\nAllocator=rowmajor-ff\n' >"$tmp/holes.conf"
printf '1 0 -1 10 8 -1 -1 8 10 -1 1 1 1 -1 -1 -1 -1 -1\n2 0 -1 10 6 -1 -1 6 10 -1 1 1 1 -1 -1 -1 -1 -1\n' >"$tmp/h.swf"
"$meshsim" --mesh-conf "$tmp/holes.conf" --jobs-csv "$tmp/h.csv" "$tmp/h.swf" >"$tmp/out" 2>"$tmp/err"
check "mesh.conf holes: the 8-node job is too large for 6 named nodes" '[ $? -eq 0 ] && grep -q "larger than mesh 1" "$tmp/out" && grep -q "(8 nodes, 6 usable)" "$tmp/out"'
check "mesh.conf holes: the 6-node job gets exactly the named positions" '[ "$(cut -d, -f11 "$tmp/h.csv" | tail -1)" = "0:0 1:0 2:0 3:0 0:1 1:1" ]'
check "mesh.conf holes: utilization counts named nodes only" 'grep -q "^utilization  *1.0000" "$tmp/out"'
# I/O positions are not compute nodes unless --io-nodes-compute.
printf '1 0 -1 10 16 -1 -1 16 10 -1 1 1 1 -1 -1 -1 -1 -1\n2 0 -1 10 14 -1 -1 14 10 -1 1 1 1 -1 -1 -1 -1 -1\n' >"$tmp/io.swf"
"$meshsim" --mesh 4x4 --io-nodes "0,0;0,1" --allocator rowmajor-ff --jobs-csv "$tmp/io.csv" "$tmp/io.swf" >"$tmp/out" 2>"$tmp/err"
check "--io-nodes: a 16-node job is too large for 14 compute nodes" '[ $? -eq 0 ] && grep -q "larger than mesh 1" "$tmp/out"'
check "--io-nodes: no job gets an I/O position" '! cut -d, -f11 "$tmp/io.csv" | tail -n +2 | tr " " "\n" | grep -qx "0:0\|0:1"'
"$meshsim" --mesh 4x4 --io-nodes "0,0;0,1" --io-nodes-compute "$tmp/io.swf" >"$tmp/out" 2>"$tmp/err"
check "--io-nodes-compute: all 16 positions run jobs" 'grep -q "jobs simulated  *2" "$tmp/out"'
# Outputs are opened before the simulation; '-' is stdout.
"$meshsim" --summary "$tmp/no/such/dir/s.json" "$tmp/t.swf" >"$tmp/out" 2>"$tmp/err"
check "unwritable --summary fails at once (exit 2, nothing simulated)" '[ $? -eq 2 ] && grep -q -- "--summary: cannot create .*no/such/dir/s.json: No such file or directory" "$tmp/err" && [ ! -s "$tmp/out" ]'
"$meshsim" --jobs-csv - "$tmp/t.swf" >"$tmp/out" 2>"$tmp/err"
check "--jobs-csv - writes the CSV to stdout and the table to stderr" 'head -1 "$tmp/out" | grep -q "^job_id," && grep -q "^mesh " "$tmp/err"'
"$meshsim" --jobs-csv - --summary - "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "both outputs on stdout is a usage error" '[ $? -eq 2 ]'
gzip -c "$tmp/t.swf" >"$tmp/t.swf.gz"
"$meshsim" "$tmp/t.swf.gz" >/dev/null 2>"$tmp/err"
check "a gzip trace is named as compressed" '[ $? -ne 0 ] && grep -q "gzip-compressed data: decompress it first" "$tmp/err"'
"$meshsim" "$tmp" >/dev/null 2>"$tmp/err"
check "a directory as trace says so" '[ $? -ne 0 ] && grep -q "is a directory" "$tmp/err"'
printf '1 0 -1 10 4 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1 19 20\n' >"$tmp/extra.swf"
"$meshsim" --mesh 4x4 "$tmp/extra.swf" >/dev/null 2>"$tmp/err"
check "extra fields are quoted without the newline" '[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "(extra \"19 20\")$" "$tmp/err"'
printf '; MaxProcs: 13\n1 0 -1 10 4 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1\n' >"$tmp/prime.swf"
"$meshsim" "$tmp/prime.swf" >/dev/null 2>"$tmp/err"
check "a prime MaxProcs warns that the mesh is a line" 'grep -q "MaxProcs gives 13 nodes, a prime, so the default mesh is 13x1" "$tmp/err"'

# The job-attribute sidecar.
printf 'job_id,comm,io_intensity,shape\n1,all-to-all,0.5,4x1\n2,none,,\n' >"$tmp/a.csv"
"$meshsim" --allocator mc --job-attrs "$tmp/a.csv" --runtime-model contention --comm-share 0.5 --summary "$tmp/a.json" --jobs-csv "$tmp/a.out" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--job-attrs: runs and is recorded in the summary" '[ $? -eq 0 ] && grep -q "\"job_attrs\": \".*a.csv\"" "$tmp/a.json"'
check "--job-attrs: shape 4x1 gives job 1 a row (sum of distances 10)" 'grep -q "^1,0,0,[^,]*,0,[^,]*,4,10," "$tmp/a.out"'
check "--job-attrs: job 1's 4x1 all-to-all row is stretched" 'awk -F, "\$1 == 1 && \$6 > \$12 {ok = 1} END {exit !ok}" "$tmp/a.out"'
printf 'job_id,comm,io_intensity,comm_share\n1,all-to-all,0,1\n' >"$tmp/cs.csv"
"$meshsim" --allocator snake-ff --job-attrs "$tmp/cs.csv" --runtime-model contention --jobs-csv "$tmp/cs.out" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--job-attrs: comm_share 1 stretches the snake-ff row to 133.3 s" '[ $? -eq 0 ] && grep -q "^1,0,0,133\.33333333333[0-9]*,0,133\.33333333333[0-9]*,4," "$tmp/cs.out"'
# Allocator auto (Mache Ch. VIII): from the sidecar, the I/O-heavy job
# is placed as plas places it, the compute job as mc1x1 does, on 8x4
# compute nodes with the I/O nodes in column x = 0.
printf '1 0 -1 1000 4 -1 -1 4 1000 -1 1 1 1 -1 1 -1 -1 -1\n2 1 -1 1000 4 -1 -1 4 1000 -1 1 1 1 -1 1 -1 -1 -1\n' >"$tmp/auto.swf"
printf 'job_id,io_intensity,comm\n1,0.9,none\n2,0.1,all-to-all\n' >"$tmp/auto.csv"
for a in auto plas mc1x1; do
	"$meshsim" --mesh 9x4 --io-nodes "0,0;0,1;0,2;0,3" --allocator $a --job-attrs "$tmp/auto.csv" \
		--jobs-csv "$tmp/auto-$a.out" "$tmp/auto.swf" >/dev/null 2>"$tmp/err" || echo "meshsim $a failed: $(cat "$tmp/err")"
done
coords() { awk -F, -v j="$2" '$1 == j { print $11 }' "$1"; }
check "auto: the I/O-heavy job gets plas's nodes" '[ -n "$(coords "$tmp/auto-plas.out" 1)" ] && [ "$(coords "$tmp/auto-auto.out" 1)" = "$(coords "$tmp/auto-plas.out" 1)" ]'
check "auto: the compute job gets a compact 2x2 block (sum 8), not plas's" 'awk -F, "\$1 == 2 && \$8 == 8 {ok = 1} END {exit !ok}" "$tmp/auto-auto.out" && [ "$(coords "$tmp/auto-auto.out" 2)" != "$(coords "$tmp/auto-plas.out" 2)" ]'
check "auto: the two jobs get different placement styles" '[ "$(coords "$tmp/auto-auto.out" 1 | tr " " "\n" | cut -d: -f1 | sort -u | wc -l)" -eq 1 ] && [ "$(coords "$tmp/auto-auto.out" 2 | tr " " "\n" | cut -d: -f1 | sort -u | wc -l)" -eq 2 ]'
# The comm hint steers auto too: a third job, 2 nodes, not I/O-heavy,
# placed beside the first two.  With comm=none it gets hilbert-bf's best
# fit on the nodes left free (a mesh.conf that names only those), with
# all-to-all mc1x1's block; the two differ.
printf '3 2 -1 1000 2 -1 -1 2 1000 -1 1 1 1 -1 1 -1 -1 -1\n' >>"$tmp/auto.swf"
for c in none all-to-all; do
	printf 'job_id,io_intensity,comm\n1,0.9,none\n2,0.1,all-to-all\n3,0.1,%s\n' $c >"$tmp/auto3.csv"
	"$meshsim" --mesh 9x4 --io-nodes "0,0;0,1;0,2;0,3" --allocator auto --job-attrs "$tmp/auto3.csv" \
		--jobs-csv "$tmp/auto3-$c.out" "$tmp/auto.swf" >/dev/null 2>"$tmp/err" || echo "meshsim auto comm=$c failed: $(cat "$tmp/err")"
done
{
	printf 'Dimensions=9x4\nIONodes=0,0;0,1;0,2;0,3\nAllocator=hilbert-bf\n'
	for x in 1 2 3 4 5 6 7 8; do
		for y in 0 1 2 3; do
			case " $(coords "$tmp/auto3-none.out" 1) $(coords "$tmp/auto3-none.out" 2) " in
			*" $x:$y "*) ;;
			*) echo "NodeName=c${x}_$y Coord=$x,$y" ;;
			esac
		done
	done
} >"$tmp/left.conf"
printf '3 0 -1 1000 2 -1 -1 2 1000 -1 1 1 1 -1 1 -1 -1 -1\n' >"$tmp/one.swf"
"$meshsim" --mesh-conf "$tmp/left.conf" --jobs-csv "$tmp/left.out" "$tmp/one.swf" >/dev/null 2>"$tmp/err" || echo "meshsim hilbert-bf failed: $(cat "$tmp/err")"
check "auto: comm=none gets hilbert-bf's best fit on the nodes left" '[ -n "$(coords "$tmp/left.out" 3)" ] && [ "$(coords "$tmp/auto3-none.out" 3)" = "$(coords "$tmp/left.out" 3)" ]'
check "auto: comm=none and all-to-all place the third job differently" '[ "$(coords "$tmp/auto3-none.out" 1) $(coords "$tmp/auto3-none.out" 2)" = "$(coords "$tmp/auto3-all-to-all.out" 1) $(coords "$tmp/auto3-all-to-all.out" 2)" ] && [ -n "$(coords "$tmp/auto3-all-to-all.out" 3)" ] && [ "$(coords "$tmp/auto3-none.out" 3)" != "$(coords "$tmp/auto3-all-to-all.out" 3)" ]'
printf 'job_id,comm\n1,ring\n' >"$tmp/bad.csv"
"$meshsim" --job-attrs "$tmp/bad.csv" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--job-attrs: a bad line names file:line:column" '[ $? -ne 0 ] && grep -q "bad.csv:2:comm: bad communication pattern \"ring\"" "$tmp/err"'

# meshsim-gen: a seeded workload that meshsim replays in full.
gen=${MESHGEN:-${meshsim%/meshsim/meshsim}/meshgen/meshsim-gen}
for w in mache ozden bluegene pods; do
	"$gen" --workload $w --jobs 200 --seed 3 --swf "$tmp/g.swf" --attrs "$tmp/g.csv" 2>"$tmp/err"
	check "meshsim-gen $w writes a trace and a sidecar" '[ $? -eq 0 ] && [ "$(grep -vc "^;" "$tmp/g.swf")" -eq 200 ] && [ "$(grep -vc "^#" "$tmp/g.csv")" -eq 201 ]'
	"$meshsim" --job-attrs "$tmp/g.csv" --runtime-model pfs "$tmp/g.swf" >"$tmp/out" 2>"$tmp/err"
	check "meshsim replays every $w job (no warning but saturation)" '[ $? -eq 0 ] && grep -q "jobs simulated  *200" "$tmp/out" && ! grep -v "saturated: offered load" "$tmp/err" | grep -q .'
done
"$gen" --workload mache --jobs 50 --seed 3 >"$tmp/a1.swf" && "$gen" --workload mache --jobs 50 --seed 3 >"$tmp/a2.swf" && "$gen" --workload mache --jobs 50 --seed 4 >"$tmp/a3.swf"
check "meshsim-gen: same seed, same trace; another seed, another" 'cmp -s "$tmp/a1.swf" "$tmp/a2.swf" && ! cmp -s "$tmp/a1.swf" "$tmp/a3.swf"'
"$gen" --workload mache --io-fraction 2 >/dev/null 2>"$tmp/err"
check "meshsim-gen: bad --io-fraction exits 2 naming it" '[ $? -eq 2 ] && grep -q -- "--io-fraction: invalid value \"2\"" "$tmp/err"'
"$gen" attrs --trace "$tmp/g.swf" --seed 4 --comm mix --phases --attrs "$tmp/ga.csv" 2>"$tmp/err"
check "meshsim-gen attrs: a sidecar for an existing trace, its command in the first line" '[ $? -eq 0 ] && [ "$(grep -vc "^#" "$tmp/ga.csv")" -eq 201 ] && head -1 "$tmp/ga.csv" | grep -q "^# meshsim-gen attrs --trace .*g.swf --seed 4 .*--comm mix .*--phases$"'
"$meshsim" --job-attrs "$tmp/ga.csv" --runtime-model contention+pfs --summary "$tmp/ga.json" "$tmp/g.swf" >/dev/null 2>"$tmp/err"
check "meshsim replays the trace with those attributes" '[ $? -eq 0 ] && grep -q "\"jobs\": 200," "$tmp/ga.json"'
"$gen" attrs --trace "$tmp/g.swf" --seed 4 --comm mix --phases >"$tmp/ga2.csv" 2>"$tmp/err"
check "meshsim-gen attrs: the same seed gives the same file (stdout by default)" 'cmp -s "$tmp/ga.csv" "$tmp/ga2.csv"'
"$gen" attrs --seed 4 >/dev/null 2>"$tmp/err"
check "meshsim-gen attrs without --trace exits 2" '[ $? -eq 2 ] && grep -q "attrs: --trace is required" "$tmp/err"'
"$gen" --jobs 10 >/dev/null 2>"$tmp/err"
check "meshsim-gen: --workload is required" '[ $? -eq 2 ] && grep -q "workload is required" "$tmp/err"'
"$gen" --workload pods --sizes 3,5,6,12 --jobs 300 --seed 2 --swf "$tmp/p.swf" 2>"$tmp/err"
check "meshsim-gen pods --sizes: those sizes only" '[ $? -eq 0 ] && [ "$(awk "!/^;/ { print \$5 }" "$tmp/p.swf" | sort -nu | tr "\n" " ")" = "3 5 6 12 " ]'
# shellcheck disable=SC2046 # the header's options, word-split
"$gen" $(sed -n 's/^; Note: meshsim-gen //p' "$tmp/p.swf") >"$tmp/p2.swf" 2>"$tmp/err"
check "meshsim-gen pods: the header's command regenerates the trace" 'grep -q "^; Note: meshsim-gen --workload pods .*--sizes 3,5,6,12$" "$tmp/p.swf" && cmp -s "$tmp/p.swf" "$tmp/p2.swf"'
for bad in 3,,5 0 3, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17 x; do
	"$gen" --workload pods --sizes "$bad" >/dev/null 2>"$tmp/err"
	check "meshsim-gen --sizes $bad exits 2 naming it" '[ $? -eq 2 ] && grep -q -- "--sizes: invalid value \"$bad\": expected 1 to 16 whole numbers" "$tmp/err"'
done
"$gen" --workload bluegene --sizes 4 >/dev/null 2>"$tmp/err"
check "meshsim-gen --sizes with another workload exits 2" '[ $? -eq 2 ] && grep -q -- "--sizes applies to --workload pods only" "$tmp/err"'

# --cores-per-node: sizes that count processors.  24 jobs of 12, 20, 36
# ... processors (multiples of 4, none a power of two) on MaxProcs 64.
awk 'BEGIN { print "; MaxProcs: 64"
	for (i = 1; i <= 24; i++) { p = 4 * (3 + 2 * (i % 4)) - (i == 24 ? 3 : 0)
		printf "%d %d -1 100 %d -1 -1 %d 200 -1 1 1 1 -1 1 -1 -1 -1\n", i, i * 10, p, p } }' >"$tmp/cores.swf"
"$meshsim" "$tmp/cores.swf" >/dev/null 2>"$tmp/err"
check "sizes that are multiples of 4 but not powers of two: a warning naming --cores-per-node 4" 'grep -q "nearly all multiples of 4, as if they counted cores on nodes of 4; meshsim places one per node unless --cores-per-node 4" "$tmp/err"'
"$meshsim" --cores-per-node 4 --summary "$tmp/cores.json" --jobs-csv "$tmp/cores.csv" "$tmp/cores.swf" >"$tmp/out" 2>"$tmp/err"
check "--cores-per-node 4: no warning, the default mesh of 16 nodes, ceil(p / 4) nodes a job" '[ $? -eq 0 ] && ! grep -q "cores-per-node" "$tmp/err" && grep -q "^mesh  *4x4 (16 nodes)" "$tmp/out" && [ "$(cut -d, -f1,7 "$tmp/cores.csv" | grep -c "^24,3$")" -eq 1 ] && [ "$(cut -d, -f1,7 "$tmp/cores.csv" | grep -c "^1,5$")" -eq 1 ] && grep -q "\"cores_per_node\": 4," "$tmp/cores.json"'
check "meshcheck --trace matches the sizes through the summary's cores_per_node" '"${MESHCHECK:-${meshsim%/src/meshsim/meshsim}/contrib/check/meshcheck}" --summary "$tmp/cores.json" --trace "$tmp/cores.swf" "$tmp/cores.csv" >/dev/null'
printf '; MaxProcs: 64\n' >"$tmp/pow2.swf"
for i in $(seq 1 30); do echo "$i $((i * 10)) -1 100 $((1 << (i % 6))) -1 -1 $((1 << (i % 6))) 200 -1 1 1 1 -1 1 -1 -1 -1"; done >>"$tmp/pow2.swf"
"$meshsim" "$tmp/pow2.swf" >/dev/null 2>"$tmp/err"
check "sizes that are all powers of two: no --cores-per-node warning" '! grep -q "cores-per-node" "$tmp/err"'
{ printf '; MaxNodes: 16\n'; cat "$tmp/pow2.swf"; } >"$tmp/mn.swf"
"$meshsim" --mesh 4x4 "$tmp/mn.swf" >/dev/null 2>"$tmp/err"
check "MaxProcs 64 on MaxNodes 16: a warning naming --cores-per-node 4" 'grep -q "MaxProcs 64 is not MaxNodes 16: the sizes count processors, 4 per node; meshsim places one per node unless --cores-per-node 4" "$tmp/err"'
"$meshsim" --mesh 4x4 --cores-per-node 4 "$tmp/mn.swf" >/dev/null 2>"$tmp/err"
check "... and none with --cores-per-node 4" '! grep -q "MaxNodes" "$tmp/err"'
"$meshsim" --mesh 4x4 --cores-per-node 2 "$tmp/mn.swf" >/dev/null 2>"$tmp/err"
check "... and with --cores-per-node 2: the header disagrees" 'grep -q "MaxProcs 64 on 16 nodes (MaxNodes) is not 2 per node (--cores-per-node)" "$tmp/err"'
for bad in 0 4097 x -2; do
	"$meshsim" --cores-per-node "$bad" "$tmp/pow2.swf" >/dev/null 2>"$tmp/err"
	check "--cores-per-node $bad exits 2 naming it" '[ $? -eq 2 ] && grep -q -- "--cores-per-node: invalid value \"$bad\": expected a whole number from 1 to 4096" "$tmp/err"'
done
# CoresPerNode= in mesh.conf: the same mapping, no warning; the command
# line, where given, wins (as the bandwidths do).
printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=hilbert-bf\nCoresPerNode=4\n' >"$tmp/cores.conf"
"$meshsim" --mesh-conf "$tmp/cores.conf" --summary "$tmp/cc.json" --jobs-csv "$tmp/cc.csv" "$tmp/cores.swf" >/dev/null 2>"$tmp/err"
check "mesh.conf CoresPerNode=4: ceil(p / 4) nodes a job, no warning, cores_per_node 4 in the summary" '[ $? -eq 0 ] && ! grep -q "cores-per-node" "$tmp/err" && [ "$(cut -d, -f1,7 "$tmp/cc.csv" | grep -c "^24,3$")" -eq 1 ] && grep -q "\"cores_per_node\": 4," "$tmp/cc.json"'
"$meshsim" --mesh-conf "$tmp/cores.conf" --cores-per-node 8 --summary "$tmp/cc.json" --jobs-csv "$tmp/cc.csv" "$tmp/cores.swf" >/dev/null 2>"$tmp/err"
check "... and --cores-per-node 8 beside it: 8 (job 24 of 9 processors: 2 nodes)" '[ $? -eq 0 ] && [ "$(cut -d, -f1,7 "$tmp/cc.csv" | grep -c "^24,2$")" -eq 1 ] && grep -q "\"cores_per_node\": 8," "$tmp/cc.json"'
printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=hilbert-bf\nCoresPerNode=0\n' >"$tmp/cores0.conf"
"$meshsim" --mesh-conf "$tmp/cores0.conf" "$tmp/cores.swf" >/dev/null 2>"$tmp/err"
check "mesh.conf CoresPerNode=0 exits 2 naming file, line 4 and the key" '[ $? -eq 2 ] && grep -q "cores0.conf:4:CoresPerNode: bad value \"0\": expected the processors of one node, 1 to 4096" "$tmp/err"'

# --window I/N, --warmup, --cooldown: 30 jobs submitted at 0, 10, ...,
# 290 (span 290), one node for 5 s but job 13 (submit 120), all 4 nodes
# of 2x2 for 100 s.  Part 2 of 3 holds submits in [96.67, 193.33), jobs
# 11..20; a warm-up of 20 s and a cool-down of 10 s leave 120..180
# measured, jobs 13..19.  Behind job 13, 14..17 start at 220 and 18..20
# at 225: measured waits 0, 90, 80, 70, 60, 55, 45 (mean 400 / 7).
awk 'BEGIN { print "; MaxProcs: 4"
	for (i = 1; i <= 30; i++) { p = i == 13 ? 4 : 1; r = i == 13 ? 100 : 5
		printf "%d %d -1 %d %d -1 -1 %d %d -1 1 1 1 -1 1 -1 -1 -1\n", i, (i - 1) * 10, r, p, p, r } }' >"$tmp/win.swf"
"$meshsim" --mesh 2x2 --window 2/3 --warmup 20 --cooldown 10 --summary "$tmp/win.json" --jobs-csv "$tmp/win.csv" "$tmp/win.swf" >"$tmp/out" 2>"$tmp/err"
check "--window 2/3: jobs 11..20 run, 20 outside the window" '[ $? -eq 0 ] && grep -q "^jobs simulated  *10$" "$tmp/out" && grep -q "^jobs outside window  *20$" "$tmp/out" && [ "$(cut -d, -f1 "$tmp/win.csv" | sed 1d | sort -n | tr "\n" " ")" = "11 12 13 14 15 16 17 18 19 20 " ]'
check "... --warmup 20 --cooldown 10: jobs 13..19 measured (the measured column, the summary)" '[ "$(awk -F, "NR > 1 && \$NF == 1 { print \$1 }" "$tmp/win.csv" | sort -n | tr "\n" " ")" = "13 14 15 16 17 18 19 " ] && head -1 "$tmp/win.csv" | grep -q ",measured$" && grep -q "^jobs measured  *7 " "$tmp/out" && grep -q "\"measured\": 7," "$tmp/win.json"'
check "... the means and tails over the measured jobs: mean wait 400 / 7, p50 60, max 90" 'grep -q "^mean wait (s)  *57.14$" "$tmp/out" && grep -q "^wait p50/p95/p99/max (s) 60 / 90 / 90 / 90$" "$tmp/out"'
check "... the summary: window \"2/3\", warmup 20, cooldown 10, fates total 30" 'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert (d[\"window\"], d[\"warmup\"], d[\"cooldown\"], d[\"outside_window\"], d[\"fates\"][\"total\"]) == (\"2/3\", 20, 10, 20, 30), d" "$tmp/win.json"'
check "meshcheck recomputes the measured means through the measured column" '"${MESHCHECK:-${meshsim%/src/meshsim/meshsim}/contrib/check/meshcheck}" --summary "$tmp/win.json" "$tmp/win.csv" >/dev/null'
"$meshsim" --mesh 2x2 --window 3/3 "$tmp/win.swf" >"$tmp/out" 2>"$tmp/err"
check "--window 3/3: the latest job (290) is in the last part (jobs 21..30)" 'grep -q "^jobs simulated  *10$" "$tmp/out"'
"$meshsim" --mesh 2x2 --warmup 100 "$tmp/win.swf" >"$tmp/out" 2>"$tmp/err"
check "--warmup without --window trims the whole trace's start: 20 of 30 measured" 'grep -q "^jobs simulated  *30$" "$tmp/out" && grep -q "^jobs measured  *20 " "$tmp/out"'
"$meshsim" --mesh 2x2 --window 1/3 --warmup 100 "$tmp/win.swf" >"$tmp/out" 2>"$tmp/err"
check "a warm-up as long as the window: a warning that no job is measured" 'grep -q "no job measured: the warm-up and cool-down cover the whole window" "$tmp/err"'
"$meshsim" --mesh 2x2 "$tmp/win.swf" >"$tmp/out" 2>"$tmp/err"
check "without them: no window lines" '! grep -q "window\|measured" "$tmp/out"'
for bad in 0/3 4/3 3 1/ /3 -1/3 1/-3 1/10001 x/y 1/3x; do
	"$meshsim" --window "$bad" "$tmp/win.swf" >/dev/null 2>"$tmp/err"
	check "--window $bad exits 2 naming it" '[ $? -eq 2 ] && grep -q -- "--window: invalid value \"$bad\": expected I/N" "$tmp/err"'
done
for bad in -1 x inf nan 1e999; do
	"$meshsim" --warmup "$bad" "$tmp/win.swf" >/dev/null 2>"$tmp/err"
	check "--warmup $bad exits 2 naming it" '[ $? -eq 2 ] && grep -q -- "--warmup: invalid value \"$bad\": expected seconds >= 0" "$tmp/err"'
done
"$meshsim" --cooldown -5 "$tmp/win.swf" >/dev/null 2>"$tmp/err"
check "--cooldown -5 exits 2 naming it" '[ $? -eq 2 ] && grep -q -- "--cooldown: invalid value \"-5\"" "$tmp/err"'

# --bootstrap week: three weeks of 10 jobs each, every job of week w
# w + 1 nodes (2x2); a replication lays 3 weeks drawn with replacement end
# to end, each with its jobs.  --bootstrap job keeps every arrival time
# and draws each job from all 30.
awk 'BEGIN { print "; MaxProcs: 4"; id = 0
	for (w = 0; w < 3; w++) for (i = 0; i < 10; i++) { id++
		printf "%d %d -1 5 %d -1 -1 %d 5 -1 1 1 1 -1 1 -1 -1 -1\n", id, w * 604800 + i * 3600, w + 1, w + 1 } }' >"$tmp/bw.swf"
weeks() { awk -F, 'NR > 1 { w = int($2 / 604800); if (w in s && s[w] != $7) bad = 1; s[w] = $7; n[w]++ }
	END { for (w = 0; w < 3; w++) printf "%s:%s ", s[w], n[w]; if (bad) print "MIXED" }' "$1"; }
for sd in 1 2 3 4 5 6; do
	"$meshsim" --mesh 2x2 --bootstrap week --bootstrap-seed $sd --jobs-csv "$tmp/bw$sd.csv" --summary "$tmp/bw$sd.json" "$tmp/bw.swf" >"$tmp/out$sd" 2>/dev/null
	echo "$(weeks "$tmp/bw$sd.csv")" >>"$tmp/bw.weeks"
done
check "--bootstrap week: every replication is 3 whole weeks of 10 jobs, each week one of the trace's" '! grep -q "MIXED\|:[^1]\|:1[^0]" "$tmp/bw.weeks" && [ "$(wc -l <"$tmp/bw.weeks")" -eq 6 ]'
check "... the seeds draw different weeks, some twice (6 seeds, more than one draw)" '[ "$(sort -u "$tmp/bw.weeks" | wc -l)" -gt 1 ] && grep -Eq "(^| )([123]):10 .*\2:10" "$tmp/bw.weeks"'
check "... the table and the summary name it" 'grep -q "^bootstrap  *by week, seed 3$" "$tmp/out3" && grep -q "\"bootstrap\": \"week\"," "$tmp/bw3.json" && grep -q "\"bootstrap_seed\": 3," "$tmp/bw3.json"'
"$meshsim" --mesh 2x2 --bootstrap week --bootstrap-seed 3 --jobs-csv "$tmp/bw3b.csv" "$tmp/bw.swf" >/dev/null 2>&1
check "... a seed gives the same replication again" 'cmp -s "$tmp/bw3.csv" "$tmp/bw3b.csv"'
check "... meshcheck accepts a replication (a job drawn twice appears twice)" '"${MESHCHECK:-${meshsim%/src/meshsim/meshsim}/contrib/check/meshcheck}" --summary "$tmp/bw3.json" --trace "$tmp/bw.swf" "$tmp/bw3.csv" >/dev/null'
"$meshsim" --mesh 2x2 --bootstrap job --bootstrap-seed 7 --jobs-csv "$tmp/bj.csv" "$tmp/bw.swf" >/dev/null 2>&1
check "--bootstrap job: the 30 arrival times kept, the jobs drawn with repeats" '[ "$(cut -d, -f2 "$tmp/bj.csv" | sed 1d | sort -n | tr "\n" " ")" = "$(awk "!/^;/ { print \$2 }" "$tmp/bw.swf" | sort -n | tr "\n" " ")" ] && [ "$(cut -d, -f1 "$tmp/bj.csv" | sed 1d | sort -u | wc -l)" -lt 30 ]'
for bad in day 1 ""; do
	"$meshsim" --bootstrap "$bad" "$tmp/bw.swf" >/dev/null 2>"$tmp/err"
	check "--bootstrap '$bad' exits 2 naming it" '[ $? -eq 2 ] && grep -q -- "--bootstrap: invalid value \"$bad\": expected job or week" "$tmp/err"'
done
for o in --seed --bootstrap-seed; do
	for bad in -1 x 1x 99999999999999999999; do
		"$meshsim" $o "$bad" "$tmp/bw.swf" >/dev/null 2>"$tmp/err"
		check "$o $bad exits 2 naming it" '[ $? -eq 2 ] && grep -q -- "$o: invalid value \"$bad\": expected a non-negative integer" "$tmp/err"'
	done
done

# Provenance: the summary names the exact revision, every option
# (defaults included) and the SHA-256 of every input file.
top=$(cd "$(dirname "$0")/.." && pwd)
"$meshsim" --job-attrs "$tmp/a.csv" --summary "$tmp/prov.json" "$tmp/t.swf" >"$tmp/out" 2>"$tmp/err"
check "summary: SHA-256 of the trace and of the job attributes, as sha256sum gives them" 'python3 - "$tmp/prov.json" "$(sha256sum <"$tmp/t.swf" | cut -d" " -f1)" "$(sha256sum <"$tmp/a.csv" | cut -d" " -f1)" <<PY
import json, sys
d = json.load(open(sys.argv[1]))
assert d["trace_sha256"] == sys.argv[2] and d["job_attrs_sha256"] == sys.argv[3], d
assert d["mesh_conf_sha256"] is None
PY'
printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\n' >"$tmp/prov.conf"
"$meshsim" --mesh-conf "$tmp/prov.conf" --summary "$tmp/prov2.json" "$tmp/t.swf" >/dev/null 2>&1
check "summary: SHA-256 of the mesh.conf" 'grep -q "\"mesh_conf_sha256\": \"$(sha256sum <"$tmp/prov.conf" | cut -d" " -f1)\"" "$tmp/prov2.json"'
check "summary: every option that shapes a run, defaults included" 'python3 - "$tmp/prov.json" <<PY
import json, sys
d = json.load(open(sys.argv[1]))
want = {"mesh": "4x4", "allocator": "colsnake-bf", "allocator_params": None, "seed": 0,
        "scheduler": "easy", "priority": "fcfs", "alpha": 0, "paired_filling": False,
        "pf_max_size": 0, "spatial_estimate": "user", "load": 1, "limit_quantum": 0,
        "estimate": "clamp", "size_field": "alloc", "zero_runtime": "keep",
        "runtime_model": "trace", "comm": "none", "comm_share": 0, "io_share": 0,
        "pfs_bandwidth": 48, "node_bandwidth": 12.5, "io_nodes": [], "io_nodes_compute": False,
        "window": None, "warmup": 0, "cooldown": 0, "bootstrap": None, "bootstrap_seed": 1}
bad = {k: (d.get(k, "missing"), v) for k, v in want.items() if d.get(k, "missing") != v}
assert not bad, bad
PY'
if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$top" ]; then
	rev=$(sh "$top/src/cli/revision.sh" "$top" "$(sed -n 's/^AC_INIT(\[slurm-mesh\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")")
	check "--version and the summary carry this checkout's revision ($rev), not a fixed number" '"$meshsim" --version | grep -qx "meshsim (slurm-mesh) $rev" && grep -q "\"version\": \"$rev\"" "$tmp/prov.json" && echo "$rev" | grep -q -- "-g[0-9a-f]\{12\}"'
fi
check "-V is --version" '[ "$("$meshsim" -V)" = "$("$meshsim" --version)" ]'
# Offered load: t.swf's simulated jobs do 100*4 + 50*8 + 0*2 + 30*1 =
# 830 node-seconds of work, submitted over 40 s on 16 nodes: 1.296875.
check "offered load: 830 / (16 * 40) in the summary and the table, flagged saturated" 'grep -q "\"offered_load\": 1.296875," "$tmp/prov.json" && grep -q "^offered load  *1.2969 (saturated)$" "$tmp/out"'
check "a saturated run warns in one line" '[ "$(grep -c "saturated: offered load 1.297 > 1" "$tmp/err")" -eq 1 ]'
printf '; MaxProcs: 16\n1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n2 1000 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n' >"$tmp/light.swf"
"$meshsim" --summary "$tmp/light.json" "$tmp/light.swf" >/dev/null 2>"$tmp/err"
check "an unsaturated run (offered load 800 / 16000 = 0.05) is silent" '[ $? -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q "\"offered_load\": 0.050000000000000003," "$tmp/light.json"'
"$meshsim" --runtime-model contention "$tmp/t.swf" 2>/dev/null >"$tmp/out"
check "the table keeps a blank between a long label and its value" 'grep -q "^mean stretch (contention) 1.0000$" "$tmp/out"'

# Messages that say what is wrong (issue 40).
"$meshsim" --mesh 99999999x99999999 "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--mesh 99999999x99999999 names the size limit" '[ $? -eq 2 ] && grep -q "dimension 1 is too large (a mesh has at most 4194304 nodes)" "$tmp/err"'
{ printf '\377'; head -c 4000 /dev/urandom | tr -d '\000\n' | head -c 300; } >"$tmp/random.swf"
"$meshsim" --mesh 4x4 "$tmp/random.swf" >/dev/null 2>"$tmp/err"
check "a random-bytes trace: file:line:field, its bytes escaped (only printable ASCII on stderr)" '[ $? -eq 1 ] && grep -q "random.swf:1:job_number: expected a number, got \"\\\\xFF" "$tmp/err" && ! LC_ALL=C tr -d "\n -~" <"$tmp/err" | grep -q .'
printf '; MaxProcs: 16\n; nothing else\n\n' >"$tmp/empty.swf"
"$meshsim" "$tmp/empty.swf" >/dev/null 2>"$tmp/err"
check "an empty trace warns (exit 0)" '[ $? -eq 0 ] && grep -q "warning: .*empty.swf: no job lines (only comments or blank lines): nothing to simulate" "$tmp/err"'
printf '; MaxProcs: 16\n7 0 -1 10 4 -1 -1 4 10 -1 1 1 1 -1 -1 -1 -1 -1\n8 900 -1 10 4 -1 -1 4 10 -1 1 1 1 -1 -1 -1 -1 -1\n7 1800 -1 10 4 -1 -1 4 10 -1 1 1 1 -1 -1 -1 -1 -1\n7 2700 -1 10 4 -1 -1 4 10 -1 1 1 1 -1 -1 -1 -1 -1\n' >"$tmp/dup.swf"
"$meshsim" "$tmp/dup.swf" >"$tmp/out" 2>"$tmp/err"
check "a job id on several lines is warned about, with the lines; every line runs" '[ $? -eq 0 ] && [ "$(cat "$tmp/err")" = "meshsim: warning: $tmp/dup.swf: job id 7 is on 3 lines (2, 4, ...); each is simulated as a job" ] && grep -q "jobs simulated  *4" "$tmp/out"'

# A job no placement can ever hold is refused at submission, not held at
# the head of FCFS until the machine drains: the 7-node job (no 7-node box
# in 4x4) no longer delays the 8-node job behind it (it started at 1000,
# with loss of capacity 0.68).
printf '; MaxProcs: 16\n1 0 -1 1000 4 -1 -1 4 1000 -1 1 1 1 -1 -1 -1 -1 -1\n2 1 -1 100 7 -1 -1 7 100 -1 1 1 1 -1 -1 -1 -1 -1\n3 2 -1 100 8 -1 -1 8 100 -1 1 1 1 -1 -1 -1 -1 -1\n' >"$tmp/never.swf"
for sch in fcfs easy conservative; do
	"$meshsim" --mesh 4x4 --scheduler $sch --allocator contig-ff --jobs-csv "$tmp/never.csv" --summary "$tmp/never.json" "$tmp/never.swf" >"$tmp/out" 2>"$tmp/err"
	check "$sch: a never-placeable job is refused at submission; job 3 starts at once; no loss of capacity" '[ $? -eq 0 ] && grep -q "^jobs never placeable  *1$" "$tmp/out" && grep -q "^3,2,2,102," "$tmp/never.csv" && grep -q "\"loss_of_capacity\": 0,$" "$tmp/never.json"'
done

# EASY keeps its promise to the queue head under a contiguous allocator:
# the head's reservation is a placement (through the planner), so no
# backfilled job takes the box it will start on (with a node-count
# reservation 13 heads started up to 66,791 s late on this trace).
"$gen" --workload mache --jobs 1000 --seed 1 --nodes 64 --interarrival 100 --swf "$tmp/easy.swf"
for a in contig-ff contig-bf sl:contig-ff hilbert-bf; do
	"$meshsim" --mesh 8x8 --allocator $a --summary "$tmp/easy.json" "$tmp/easy.swf" >/dev/null 2>&1
	check "EASY, $a: no head starts after the shadow computed when it became head" '[ $? -eq 0 ] && grep -q "\"late_heads\": 0,$" "$tmp/easy.json" && grep -q "\"max_head_delay\": 0,$" "$tmp/easy.json"'
done

# Conservative's promise: rebuilt at every event, a placement-aware
# reservation may land later than the job's first (32 jobs, up to
# 27,720 s on this workload with random); conservative-count keeps each
# reservation and only moves it earlier, and its starts do not depend on
# the allocator.
"$gen" --workload mache --jobs 1000 --seed 3 --nodes 64 --interarrival 300 --swf "$tmp/cons.swf"
"$meshsim" --mesh 8x8 --allocator random --scheduler conservative --summary "$tmp/cons.json" "$tmp/cons.swf" >/dev/null 2>&1
check "conservative, random: some job starts after its first reservation (counted)" '[ $? -eq 0 ] && grep -q "\"late_reserved\": [1-9][0-9]*,$" "$tmp/cons.json"'
for a in random hilbert-bf mc1x1; do
	"$meshsim" --mesh 8x8 --allocator $a --scheduler conservative-count --summary "$tmp/cons.json" --jobs-csv "$tmp/cons.$a.csv" "$tmp/cons.swf" >/dev/null 2>&1
	check "conservative-count, $a: no job starts after its first reservation" '[ $? -eq 0 ] && grep -q "\"late_reserved\": 0,$" "$tmp/cons.json" && grep -q "\"max_reserved_delay\": 0,$" "$tmp/cons.json"'
done
check "conservative-count: the same starts under random, hilbert-bf and mc1x1" '[ "$(cut -d, -f1-3 "$tmp/cons.random.csv")" = "$(cut -d, -f1-3 "$tmp/cons.hilbert-bf.csv")" ] && [ "$(cut -d, -f1-3 "$tmp/cons.random.csv")" = "$(cut -d, -f1-3 "$tmp/cons.mc1x1.csv")" ]'

# Estimates that are runtimes without being asked for are said and counted.
printf '; MaxProcs: 16\n1 0 -1 100 4 -1 -1 4 -1 -1 1 1 1 -1 -1 -1 -1 -1\n2 5 -1 50 4 -1 -1 4 -1 -1 1 1 1 -1 -1 -1 -1 -1\n' >"$tmp/noreq.swf"
"$meshsim" --summary "$tmp/noreq.json" "$tmp/noreq.swf" >/dev/null 2>"$tmp/err"
check "no requested times: a warning that the estimates are perfect, counted in the summary" '[ $? -eq 0 ] && grep -q "noreq.swf: no job has a requested time (field 9): every estimate is the job.s runtime" "$tmp/err" && grep -q "\"estimate_no_request\": 2,$" "$tmp/noreq.json"'
printf '; MaxProcs: 16\n1 0 -1 100 4 -1 -1 4 60 -1 1 1 1 -1 -1 -1 -1 -1\n2 5 -1 50 4 -1 -1 4 60 -1 1 1 1 -1 -1 -1 -1 -1\n' >"$tmp/over.swf"
"$meshsim" --summary "$tmp/over.json" "$tmp/over.swf" >/dev/null 2>"$tmp/err"
check "a job past its request: clamp says it hands the scheduler the runtime, counted" '[ $? -eq 0 ] && grep -q "over.swf: 1 jobs ran past their requested time: --estimate clamp gives the scheduler their runtimes" "$tmp/err" && grep -q "\"estimate_clamped\": 1,$" "$tmp/over.json"'

# Every run ends.  Far from time 0 a floating-point step of the clock is
# larger than the work a job may have left (3e9 s: 4.8e-7 s), so an end
# that rounds to now must still end the job: this trace hung under the
# contention model before.
"$gen" --workload mache --jobs 200 --seed 1 --nodes 16 --interarrival 60 --swf "$tmp/late0.swf"
awk '/^;/ { print; next } { $2 += 3000000000; print }' "$tmp/late0.swf" >"$tmp/late.swf"
for a in random mbs; do
	timeout 60 "$meshsim" --mesh 4x4 --allocator $a --runtime-model contention --comm all-to-all \
		--comm-share 0.3 "$tmp/late.swf" >"$tmp/out" 2>"$tmp/err"
	check "contention model, submits 3e9 s from the epoch, $a: the run ends, all 200 jobs simulated" '[ $? -eq 0 ] && grep -q "jobs simulated  *200$" "$tmp/out"'
done
# Phases shorter than the clock's resolution cannot advance it: the run
# stops with an internal error naming the job and the time.
printf '; MaxProcs: 16\n1 1000000000 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n' >"$tmp/tiny.swf"
printf 'job_id,io_intensity,io_volume,comm,compute_phase,checkpoint_phase,comm_share\n1,,,nearest,1e-12,1e-12,0.3\n' >"$tmp/tiny.attrs"
timeout 60 "$meshsim" --mesh 4x4 --runtime-model contention --job-attrs "$tmp/tiny.attrs" "$tmp/tiny.swf" >/dev/null 2>"$tmp/err"
check "a clock that cannot advance stops the run (exit 1), naming the job and the time" '[ $? -eq 1 ] && grep -q "tiny.swf: 2:runtime_model: job 1: the simulated clock stopped at 1000000000 s" "$tmp/err"'

# Outputs are complete or untouched: written to a temporary file beside
# the real one and renamed when complete.  SIGINT or SIGTERM mid-run
# removes the temporary files, leaves files that existed as they were,
# and exits 128 + the signal (a saturated conservative run of 50,000 jobs
# on 32x32 takes minutes; it is signalled as soon as its temporary files
# exist).
"$gen" --workload mache --jobs 50000 --interarrival 20 --seed 1 --swf "$tmp/slow.swf"
for sig in INT TERM; do
	mkdir -p "$tmp/sig$sig"
	printf '{"old": "%s"}\n' $sig >"$tmp/sig$sig/prev.json"
	printf 'old,csv\n' >"$tmp/sig$sig/prev.csv"
	cp "$tmp/sig$sig/prev.json" "$tmp/sig$sig/prev.json.keep"
	cp "$tmp/sig$sig/prev.csv" "$tmp/sig$sig/prev.csv.keep"
	timeout -s KILL 300 "$meshsim" --mesh 32x32 --allocator mc --scheduler conservative \
		--summary "$tmp/sig$sig/prev.json" --jobs-csv "$tmp/sig$sig/prev.csv" \
		"$tmp/slow.swf" >/dev/null 2>&1 &
	pid=$!
	for i in $(seq 1 100); do
		[ "$(ls -A "$tmp/sig$sig" | grep -c '^\.prev\.')" -eq 2 ] && break
		sleep 0.1
	done
	ntemp=$(ls -A "$tmp/sig$sig" | grep -c '^\.prev\.')
	kill -$sig $pid
	wait $pid
	rc=$?
	want=$((128 + $(kill -l $sig)))
	check "SIG$sig mid-run: exit $want, temporary files removed, old summary and jobs CSV unchanged" \
		'[ "$ntemp" -eq 2 ] && [ $rc -eq $want ] && [ -z "$(ls -A "$tmp/sig$sig" | grep "^\.")" ] && cmp -s "$tmp/sig$sig/prev.json" "$tmp/sig$sig/prev.json.keep" && cmp -s "$tmp/sig$sig/prev.csv" "$tmp/sig$sig/prev.csv.keep"'
done
# A device, a FIFO or a symlink to one is written in place: renamed over,
# /dev/null would become a regular file for the whole machine.
check_in_place "--summary" '"makespan":' "$meshsim" --summary @OUT@ "$tmp/t.swf"
check_in_place "--jobs-csv" '^job_id,submit' "$meshsim" --jobs-csv @OUT@ "$tmp/t.swf"
cp "$tmp/sigINT/prev.json.keep" "$tmp/prev.json"
printf '1 0 -1 10 x -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n' >"$tmp/badjob.swf"
"$meshsim" --summary "$tmp/prev.json" "$tmp/badjob.swf" >/dev/null 2>&1
check "a failed run leaves an existing summary as it was" '[ $? -ne 0 ] && cmp -s "$tmp/prev.json" "$tmp/sigINT/prev.json.keep"'
"$meshsim" --summary "$tmp/prev.json" "$tmp/t.swf" >/dev/null 2>&1
check "a run that succeeds replaces it, with the file mode of a new file" '[ $? -eq 0 ] && grep -q "\"mean_wait\"" "$tmp/prev.json" && touch "$tmp/new" && [ "$(stat -c %a "$tmp/prev.json")" = "$(stat -c %a "$tmp/new")" ]'
cp "$tmp/a1.swf" "$tmp/gen-old.swf"
"$gen" --workload mache --jobs 20 --swf "$tmp/gen-old.swf" --attrs "$tmp/no/such/dir/a.csv" >/dev/null 2>"$tmp/err"
check "meshsim-gen: an output that cannot be made leaves the other one's old file as it was" '[ $? -ne 0 ] && grep -q -- "--attrs: cannot create .*no/such/dir/a.csv" "$tmp/err" && cmp -s "$tmp/gen-old.swf" "$tmp/a1.swf" && [ -z "$(ls -A "$tmp" | grep "^\.")" ]'

# Bad flags: exit 2 and name the flag.
"$meshsim" --mesh 4y4 "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "bad --mesh exits 2" '[ $? -eq 2 ] && grep -q "mesh" "$tmp/err"'
"$meshsim" --load -1 "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "bad --load exits 2 naming the flag" '[ $? -eq 2 ] && grep -q -- "--load: invalid value \"-1\"" "$tmp/err"'
"$meshsim" --load 2 --summary "$tmp/l1.json" "$tmp/easy.swf" >"$tmp/l1.out" 2>&1
"$meshsim" --arrival-scale 2 --summary "$tmp/l2.json" "$tmp/easy.swf" >"$tmp/l2.out" 2>&1
check "--arrival-scale is --load: the same run, arrival_scale and load in the summary" 'cmp -s "$tmp/l1.out" "$tmp/l2.out" && grep -q "\"arrival_scale\": 2," "$tmp/l2.json" && grep -q "\"load\": 2," "$tmp/l2.json" && cmp -s <(grep -v "\"version\"" "$tmp/l1.json") <(grep -v "\"version\"" "$tmp/l2.json")'
"$meshsim" --arrival-scale -1 "$tmp/easy.swf" >/dev/null 2>"$tmp/err"
check "bad --arrival-scale exits 2 naming that flag" '[ $? -eq 2 ] && grep -q -- "--arrival-scale: invalid value \"-1\"" "$tmp/err"'
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
mkdir "$tmp/confdir"
"$meshsim" --mesh-conf "$tmp/confdir" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--mesh-conf DIR says the path is a directory" '[ $? -eq 2 ] && grep -q "confdir: is a directory" "$tmp/err"'
printf '\xef\xbb\xbfDimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\n' >"$tmp/bom.conf"
"$meshsim" --mesh-conf "$tmp/bom.conf" "$tmp/t.swf" >"$tmp/out" 2>"$tmp/err"
check "--mesh-conf with a UTF-8 byte-order mark is read" '[ $? -eq 0 ] && grep -q "^mesh  *4x4" "$tmp/out"'
printf 'Dimensions=4x4\nNodes=n[0000000000-0000000015]\nAllocator=mc1x1\n' >"$tmp/digits.conf"
"$meshsim" --mesh-conf "$tmp/digits.conf" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--mesh-conf with 10-digit bounds names the digit limit" '[ $? -eq 2 ] && grep -q "digits.conf:2:Nodes: a range bound .* has more than 9 digits" "$tmp/err"'

# Progress on stderr: forced on, off, and by default only on a terminal
# (script(1) gives meshsim one).
"$meshsim" --progress "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "--progress ends with one line 4/4 jobs started" '[ "$(tr "\r" "\n" <"$tmp/err" | grep -c "^meshsim: 4/4 jobs started$")" -eq 1 ]'
head -3 "$tmp/t.swf" >"$tmp/one.swf" # all jobs start at the first event
"$meshsim" --progress "$tmp/one.swf" >/dev/null 2>"$tmp/err"
check "--progress: one job, one line" '[ "$(tr "\r" "\n" <"$tmp/err" | grep -v "^$")" = "meshsim: 1/1 jobs started" ]'
"$meshsim" "$tmp/t.swf" >/dev/null 2>"$tmp/err"
check "no progress when stderr is not a terminal" '! grep -q "jobs started" "$tmp/err"'
if command -v script >/dev/null; then
	script -qc "'$meshsim' '$tmp/t.swf' >/dev/null" /dev/null >"$tmp/tty" 2>&1
	check "progress by default on a terminal" 'tr "\r" "\n" <"$tmp/tty" | grep -q "^meshsim: 4/4 jobs started"'
	script -qc "'$meshsim' --no-progress '$tmp/t.swf' >/dev/null" /dev/null >"$tmp/tty" 2>&1
	check "--no-progress on a terminal" '! grep -q "jobs started" "$tmp/tty"'
fi

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

finish
