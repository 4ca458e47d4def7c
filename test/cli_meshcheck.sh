#!/bin/bash
# cli_meshcheck.sh - the independent schedule checker: it finds each kind
# of violation in hand-made CSVs, passes meshsim's own output under every
# scheduler (figures recomputed from the summary), and fails on a planted
# overlap and a planted summary figure.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
meshsim=${MESHSIM:-$top/src/meshsim/meshsim}
gen=${MESHGEN:-$top/src/meshgen/meshsim-gen}
checker=${MESHCHECK:-$top/contrib/check/meshcheck}
. "$top/test/cli_lib.sh"

head='job_id,submit,start,end,wait,run,nodes,sum_pairwise,avg_pairwise,diameter,coords,trace_run,io_time,stretch,sys_balance_factor'
# 4x1 line.  Job 1 on 0:0 1:0 over [0, 10); job 2 on 1:0 2:0 over
# [5, 15): they share node 1:0 from 5.  Job 3 (zero runtime) on 1:0 at
# 5 holds nothing.  Job 4 on 3:0 over [20, 30) is fine.
cat >"$tmp/overlap.csv" <<CSV
$head
1,0,0,10,0,10,2,1,1.000000,1,0:0 1:0,10,0,1,
2,0,5,15,5,10,2,1,1.000000,1,1:0 2:0,10,0,1,
3,5,5,5,0,0,1,0,0.000000,0,1:0,0,0,1,
4,20,20,30,0,10,1,0,0.000000,0,3:0,10,0,1,
CSV
"$checker" --mesh 4x1 "$tmp/overlap.csv" >"$tmp/out" 2>&1
rc=$?
check "overlap: exit 1" '[ $rc -eq 1 ] && grep -q FAILED "$tmp/out"'
check "overlap: names the jobs, node and time" \
	'grep -q "jobs 1 \[0, 10) and 2 \[5, 15) both hold node 1:0 at 5" "$tmp/out"'
check "overlap: one pair counted" 'grep -q "1 overlapping pairs" "$tmp/out"'

# Each per-job defect on its own line of a 3x1 mesh.
cat >"$tmp/defects.csv" <<CSV
$head
1,0,0,10,0,10,2,1,1.000000,1,0:0 0:0,10,0,1,
2,5,4,14,-1,10,1,0,0.000000,0,1:0,10,0,1,
3,0,0,12,0,10,1,0,0.000000,0,2:0,10,0,1,
4,0,20,30,20,10,1,0,0.000000,0,5:0,10,0,1,
5,0,40,50,40,10,2,7,7.000000,1,0:0 1:0,10,0,1,
CSV
"$checker" --mesh 3x1 --max-report 5 "$tmp/defects.csv" >"$tmp/out" 2>&1
rc=$?
check "defects: exit 1" '[ $rc -eq 1 ]'
check "defects: duplicate node" 'grep -q "duplicate: job 1 holds a node twice" "$tmp/out"'
check "defects: start before submit" 'grep -q "early: job 2 starts at 4 before its submit time 5" "$tmp/out"'
check "defects: end != start + run" 'grep -q "end: job 3: end 12" "$tmp/out"'
check "defects: off the mesh" 'grep -q "off-mesh: job 4" "$tmp/out"'
check "defects: wrong dispersal" 'grep -q "dispersal: job 5: sum_pairwise 7 but its coordinates give 1" "$tmp/out"'

# Three 2-node jobs at once on 4 usable nodes (no node shared: a 2x3
# mesh with 2 I/O nodes that do not compute).
cat >"$tmp/busy.csv" <<CSV
$head
1,0,0,10,0,10,2,1,1.000000,1,0:0 1:0,10,0,1,
2,0,0,10,0,10,2,1,1.000000,1,0:1 1:1,10,0,1,
3,0,0,10,0,10,2,1,1.000000,1,0:2 1:2,10,0,1,
CSV
"$checker" --mesh 2x3 --io-nodes "0,2;1,2" "$tmp/busy.csv" >"$tmp/out" 2>&1
check "busy above usable and I/O nodes computing: exit 1" '[ $? -eq 1 ]'
check "busy: 6 of 4" 'grep -q "busy: 6 nodes busy at t = 0, only 4 usable" "$tmp/out"'
check "io-node: named" 'grep -q "io-node: job 3 runs on I/O node 0:2" "$tmp/out"'
"$checker" --mesh 2x3 --io-nodes "0,2;1,2" --io-nodes-compute "$tmp/busy.csv" >"$tmp/out" 2>&1
check "--io-nodes-compute: all six usable, feasible" '[ $? -eq 0 ] && grep -q "ok: 3 jobs, 0 overlapping pairs, at most 6 of 6" "$tmp/out"'

# meshsim's own output, every scheduler, on a generated workload with
# zero runtimes: feasible, and the summary's figures are the CSV's.
"$gen" --workload mache --jobs 300 --seed 3 --nodes 64 --interarrival 40 \
	--swf "$tmp/w.swf" --attrs "$tmp/w.csv" 2>/dev/null
awk '/^;/ || NR % 7 { print; next } { $4 = 0; print }' "$tmp/w.swf" >"$tmp/z.swf"
for sched in fcfs easy conservative; do
	for alloc in contig-ff mc1x1 box-first; do
		"$meshsim" --mesh 8tx8 --io-nodes "0,0;7,7" --allocator $alloc \
			--scheduler $sched --job-attrs "$tmp/w.csv" \
			--jobs-csv "$tmp/j.csv" --summary "$tmp/s.json" \
			"$tmp/z.swf" >/dev/null 2>&1
		check "meshsim $sched $alloc: meshcheck --summary --trace passes" \
			'"$checker" --summary "$tmp/s.json" --trace "$tmp/z.swf" "$tmp/j.csv" >"$tmp/out" 2>&1'
	done
done

# A planted overlap: job 2's coordinates made those of a job running at
# the same time; a planted summary figure.
python3 - "$tmp/j.csv" "$tmp/planted.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for a in rows:
    for b in rows:
        if (a is not b and int(a["nodes"]) == int(b["nodes"]) and
                float(a["start"]) <= float(b["start"]) < float(a["end"]) and
                float(b["end"]) > float(b["start"])):
            b["coords"] = a["coords"]
            b["sum_pairwise"], b["avg_pairwise"], b["diameter"] = (
                a["sum_pairwise"], a["avg_pairwise"], a["diameter"])
            break
    else:
        continue
    break
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), rows[0].keys())
w.writeheader()
w.writerows(rows)
PY
"$checker" --summary "$tmp/s.json" "$tmp/planted.csv" >"$tmp/out" 2>&1
check "planted overlap found" '[ $? -eq 1 ] && grep -q "overlap: jobs" "$tmp/out"'
sed 's/"mean_wait": [0-9.e+-]*/"mean_wait": 1.5/' "$tmp/s.json" >"$tmp/bad.json"
"$checker" --summary "$tmp/bad.json" "$tmp/j.csv" >"$tmp/out" 2>&1
check "planted mean_wait found" '[ $? -eq 1 ] && grep -q "summary: mean_wait is 1.5 in the summary" "$tmp/out"'
sed 's/"box_share_multi": [0-9.e+-]*/"box_share_multi": 0.25/' "$tmp/s.json" >"$tmp/bad.json"
"$checker" --summary "$tmp/bad.json" "$tmp/j.csv" >"$tmp/out" 2>&1
check "planted box_share_multi found" '[ $? -eq 1 ] && grep -q "summary: box_share_multi is 0.25 in the summary" "$tmp/out"'
sed 's/"wait_p95": [0-9.e+-]*/"wait_p95": 1234.5/' "$tmp/s.json" >"$tmp/bad.json"
"$checker" --summary "$tmp/bad.json" "$tmp/j.csv" >"$tmp/out" 2>&1
check "planted wait_p95 found" '[ $? -eq 1 ] && grep -q "summary: wait_p95 is 1234.5 in the summary" "$tmp/out"'
# a job on x = 0 and x = 7 of the 8 columns, but not on all 8, wraps
wraps='import csv, sys
xs = [{int(c.split(":")[0]) for c in r["coords"].split()}
      for r in csv.DictReader(open(sys.argv[1]))]
sys.exit(not any({0, 7} <= x and len(x) < 8 for x in xs))'
# contig-bf's jobs are all on boxes, wrapping ones too, by meshsim's count
# and by meshcheck's (which passed above)
"$meshsim" --mesh 8tx8 --allocator contig-bf --summary "$tmp/c.json" \
	--jobs-csv "$tmp/c.csv" "$tmp/z.swf" >/dev/null 2>&1
check "contig-bf on 8tx8: every multi-node job on a box, some wrapping" \
	'grep -q "\"box_share_multi\": 1\$" "$tmp/c.json" && "$checker" --summary "$tmp/c.json" "$tmp/c.csv" >/dev/null &&
	 python3 -c "$wraps" "$tmp/c.csv"'

# A job of a whole 32x32x32 mesh: its coords field (264,191 characters)
# is past the csv module's default limit of 131,072.
printf '; MaxProcs: 32768\n1 0 -1 10 32768 -1 -1 32768 20 -1 1 1 1 -1 -1 -1 -1 -1\n' >"$tmp/big.swf"
"$meshsim" --mesh 32x32x32 --summary "$tmp/big.json" --jobs-csv "$tmp/big.csv" \
	"$tmp/big.swf" >/dev/null 2>&1
"$checker" --summary "$tmp/big.json" "$tmp/big.csv" >"$tmp/out" 2>&1
check "a 32768-node job's row is read" '[ $? -eq 0 ] && grep -q "ok: 1 jobs" "$tmp/out"'

# Usage.
"$checker" --bogus >"$tmp/out" 2>&1
check "unknown option: exit 2, one line and Try" '[ $? -eq 2 ] && grep -q "^Try .meshcheck --help." "$tmp/out" && [ $(wc -l <"$tmp/out") -eq 2 ]'
"$checker" "$tmp/nonexistent.csv" --mesh 4x1 >"$tmp/out" 2>&1
check "missing file: exit 2, named" '[ $? -eq 2 ] && grep -q "nonexistent.csv" "$tmp/out"'
"$checker" --mesh 4y1 "$tmp/overlap.csv" >"$tmp/out" 2>&1
check "bad --mesh: exit 2" '[ $? -eq 2 ] && grep -q "bad dimension" "$tmp/out"'
check "--help describes every option" '"$checker" --help | grep -q -- "--io-nodes-compute  *I/O nodes may run jobs"'
check "--version and -V" '"$checker" --version | grep -q meshcheck && "$checker" -V | grep -q meshcheck'
finish
