#!/bin/bash
# cli_sweep.sh - meshsweep and meshplot end to end: a sweep of 3
# allocators x 3 loads x 3 seeds on a generated workload gives the tidy
# and aggregated CSVs (means and 95% CIs checked against the rows), and
# all three plot kinds render to valid PNG and SVG files with the
# expected labels.  Also: the version, fate and by-size columns; resuming
# skips finished points (and refuses an older CSV); bad grid lines name
# file:line:key; meshsim's per-start system balance factor.  Without
# gnuplot only the plot checks are skipped.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
sweep=${MESHSWEEP:-$top/src/meshsweep/meshsweep}
meshsim=${MESHSIM:-$top/src/meshsim/meshsim}
plot=${MESHPLOT:-$top/contrib/plots/meshplot}
table=${MESHTABLE:-$top/contrib/plots/meshtable}
export MESHSIM=$meshsim MESHGEN=${MESHGEN:-$top/src/meshgen/meshsim-gen}
. "$(dirname "$0")/cli_lib.sh"
io=$(seq -s';' -f '0,%g' 0 7)
cat >"$tmp/g.grid" <<GRID
# 3 allocators x 3 loads x 3 seeds on Mache's Workload I
workload  = mache:jobs=120:interarrival=900:nodes=64
mesh      = 9x8
io-nodes  = "$io"
allocator = plas, random, mc1x1
load      = 0.6, 0.8, 1.0
seed      = 1, 2, 3
GRID
"$sweep" -j 2 --no-progress --out "$tmp/t.csv" "$tmp/g.grid" >"$tmp/out" 2>"$tmp/err"
check "sweep of 27 points succeeds" '[ $? -eq 0 ]'
check "no job-set warning where every allocator ran every job" '! grep -q "different job sets" "$tmp/err"'
check "tidy CSV: header and 27 rows, all ok" '[ "$(wc -l <"$tmp/t.csv")" -eq 28 ] && [ "$(grep -c ",ok," "$tmp/t.csv")" -eq 27 ]'
check "tidy CSV has the options, version, how each point ran, fates and metrics as columns" 'head -1 "$tmp/t.csv" | grep -q "^point,workload,mesh,io-nodes,allocator,load,seed,flags,status,wall_s,version,workload_seed,run_trace,run_trace_sha256,run_job_attrs,run_job_attrs_sha256,run_mesh_conf,run_mesh_conf_sha256,run_mesh,.*,run_node_bandwidth,run_link_bandwidth,run_ion_bandwidth,run_rank_order,jobs,skipped,skipped_runtime,skipped_size,skipped_too_large,skipped_submit,refused,offered_load,.*,mean_sum_pairwise,.*,avg_balance_factor"'
ver=$("$meshsim" --version | awk '{ print $NF }')
check "every row names meshsim's version ($ver)" 'python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); sys.exit(0 if r and all(x[\"version\"] == sys.argv[2] for x in r) else 1)" "$tmp/t.csv" "$ver"'
check "fates add up: jobs + skipped + refused = 120, and skipped = its reasons" 'python3 - "$tmp/t.csv" <<PY
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    f = {k: int(r[k]) for k in ("jobs", "skipped", "skipped_runtime", "skipped_size", "skipped_too_large", "skipped_submit", "refused")}
    assert f["jobs"] + f["skipped"] + f["refused"] == 120, f
    assert f["skipped"] == f["skipped_runtime"] + f["skipped_size"] + f["skipped_too_large"] + f["skipped_submit"], f
PY'
check "by-size CSV: per point, the classes sum to its jobs and their weighted wait and slowdown to its means" 'python3 - "$tmp/t.csv" "$tmp/t-by-size.csv" <<PY
import csv, sys
tidy = {r["point"]: r for r in csv.DictReader(open(sys.argv[1]))}
rows = list(csv.DictReader(open(sys.argv[2])))
assert list(rows[0])[:8] == ["point", "workload", "mesh", "io-nodes", "allocator", "load", "seed", "size_min"], list(rows[0])
pts = {}
for r in rows:
    pts.setdefault(r["point"], []).append(r)
assert set(pts) == set(tidy), (len(pts), len(tidy))
for p, cls in pts.items():
    t = tidy[p]
    assert all(c["allocator"] == t["allocator"] and c["seed"] == t["seed"] for c in cls)
    assert len(cls) >= 3 and [int(c["size_min"]) for c in cls] == sorted(int(c["size_min"]) for c in cls)
    n = sum(int(c["jobs"]) for c in cls)
    assert n == int(t["jobs"]), (n, t["jobs"])
    for m in ("mean_wait", "mean_bounded_slowdown"):
        w = sum(int(c["jobs"]) * float(c[m]) for c in cls) / n
        assert abs(w - float(t[m])) <= 1e-6 * max(1, w), (m, w, t[m])
PY'
check "aggregated CSV: 9 groups of 3 seeds" 'python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); sys.exit(0 if len(r) == 9 and all(x[\"n\"] == \"3\" for x in r) else 1)" "$tmp/t-agg.csv"'
check "aggregated mean and 95% CI equal a recomputation" 'python3 - "$tmp/t.csv" "$tmp/t-agg.csv" <<PY
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
agg = list(csv.DictReader(open(sys.argv[2])))
for a in agg:
    v = [float(r["mean_wait"]) for r in rows if r["allocator"] == a["allocator"] and r["load"] == a["load"]]
    m = statistics.mean(v); ci = 4.303 * statistics.stdev(v) / len(v) ** 0.5
    assert abs(m - float(a["mean_wait_mean"])) <= 1e-6 * max(1, m), (m, a["mean_wait_mean"])
    assert abs(ci - float(a["mean_wait_ci95"] or 0)) <= 1e-6 * max(1, ci), (ci, a["mean_wait_ci95"])
PY'
check "seeds change the generated workload (the CI is not all zero)" 'python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); sys.exit(0 if any(float(x[\"makespan_ci95\"] or 0) > 0 for x in r) else 1)" "$tmp/t-agg.csv"'
check "PLAS balances better than mc1x1 at every load" 'python3 - "$tmp/t-agg.csv" <<PY
import csv, sys
a = {(r["allocator"], r["load"]): float(r["avg_balance_factor_mean"]) for r in csv.DictReader(open(sys.argv[1]))}
assert all(a[("plas", l)] < a[("mc1x1", l)] for l in ("0.6", "0.8", "1.0")), a
PY'

# meshtable: one row per allocator at load 0.6, ranked by balance factor.
"$table" "$tmp/t-agg.csv" --where load=0.6 --metrics avg_balance_factor,utilization --rank avg_balance_factor >"$tmp/tab.md" 2>"$tmp/err"
check "meshtable: 3 rows, plas ranked first, its mean as aggregated" '[ $? -eq 0 ] && [ "$(grep -c "^| [a-z]" "$tmp/tab.md")" -eq 4 ] && python3 - "$tmp/t-agg.csv" "$tmp/tab.md" <<PY
import csv, sys
agg = [r for r in csv.DictReader(open(sys.argv[1])) if r["load"] == "0.6"]
rows = {l.split("|")[1].strip(): [c.strip() for c in l.split("|")[2:-1]] for l in open(sys.argv[2]) if l.startswith("| ") and not l.startswith("| allocator")}
assert rows["plas"][-1] == "1", rows
m = float([r for r in agg if r["allocator"] == "plas"][0]["avg_balance_factor_mean"])
assert abs(float(rows["plas"][1].split()[0]) - m) < 0.0006, (rows["plas"], m)
PY'
"$table" "$tmp/t-agg.csv" --metrics nosuch >/dev/null 2>"$tmp/err"
check "meshtable: an unknown metric names the column" '[ $? -eq 1 ] && grep -q "no column .nosuch_mean." "$tmp/err"'

# Resume: the finished points are skipped; a deleted row is redone, and
# its by-size rows (left behind) are not doubled.
sort "$tmp/t-by-size.csv" >"$tmp/bys.before"
sed -i '$d' "$tmp/t.csv"
"$sweep" -j 2 --no-progress --out "$tmp/t.csv" "$tmp/g.grid" >"$tmp/out" 2>"$tmp/err"
check "resume reruns only the missing point" '[ $? -eq 0 ] && grep -q "26 of 27 points already in" "$tmp/err" && [ "$(wc -l <"$tmp/t.csv")" -eq 28 ]'
check "resume: the by-size rows are the same, none doubled" 'sort "$tmp/t-by-size.csv" | cmp -s - "$tmp/bys.before"'
# A tidy CSV of an older meshsweep (no version or fate columns) is refused.
python3 - "$tmp/t.csv" "$tmp/old.csv" <<PY
import csv, sys
r = list(csv.reader(open(sys.argv[1])))
drop = {r[0].index(c) for c in ("version", "skipped_runtime", "skipped_size", "skipped_too_large", "skipped_submit")}
csv.writer(open(sys.argv[2], "w"), lineterminator="\n").writerows([[v for i, v in enumerate(x) if i not in drop] for x in r[:5]])
PY
cp "$tmp/old.csv" "$tmp/old.keep"
"$sweep" --no-progress --out "$tmp/old.csv" "$tmp/g.grid" >/dev/null 2>"$tmp/err"
check "resume refuses an older meshsweep's CSV, naming it, and leaves it alone" '[ $? -eq 1 ] && grep -q "old.csv: its header is not the one this meshsweep writes" "$tmp/err" && cmp -s "$tmp/old.csv" "$tmp/old.keep"'

# Provenance: every row names the run's options (defaults included), the
# SHA-256 of its trace and sidecar, and the generator's seed; the
# generated workloads are kept next to the CSV and can be made again
# byte for byte from the command in their header.
check "rows record every option, defaults included, and the inputs' SHA-256" 'python3 - "$tmp/t.csv" <<PY
import csv, hashlib, sys
for r in csv.DictReader(open(sys.argv[1])):
    assert r["run_scheduler"] == "easy" and r["run_priority"] == "fcfs" and r["run_estimate"] == "clamp", r
    assert r["run_allocator"] == r["allocator"] and float(r["run_load"]) == float(r["load"]) and r["run_seed"] == r["seed"], r
    assert r["run_mesh"] == "9x8" and r["run_io_nodes"] == "0,0;0,1;0,2;0,3;0,4;0,5;0,6;0,7", r["run_io_nodes"]
    assert r["workload_seed"] == r["seed"], r
    for k in ("trace", "job_attrs"):
        assert hashlib.sha256(open(r["run_" + k], "rb").read()).hexdigest() == r["run_" + k + "_sha256"], (k, r["point"])
PY'
check "the generated workloads are kept next to the CSV: one trace and sidecar per seed" '[ "$(ls "$tmp/t-workloads" | tr "\n" " ")" = "mache+jobs=120+interarrival=900+nodes=64-seed1.csv mache+jobs=120+interarrival=900+nodes=64-seed1.swf mache+jobs=120+interarrival=900+nodes=64-seed2.csv mache+jobs=120+interarrival=900+nodes=64-seed2.swf mache+jobs=120+interarrival=900+nodes=64-seed3.csv mache+jobs=120+interarrival=900+nodes=64-seed3.swf " ]'
w=$tmp/t-workloads/mache+jobs=120+interarrival=900+nodes=64-seed2
cmd=$(sed -n 's/^; Note: meshsim-gen //p' "$w.swf")
# shellcheck disable=SC2086  # the recorded command's words
"$MESHGEN" $cmd --swf "$tmp/again.swf" --attrs "$tmp/again.csv"
check "a kept workload is made again byte for byte from the command in its header" '[ -n "$cmd" ] && cmp -s "$w.swf" "$tmp/again.swf" && cmp -s "$w.csv" "$tmp/again.csv"'
ws=$(python3 -c 'import csv, sys; print(next(csv.DictReader(open(sys.argv[1])))["workload_seed"])' "$tmp/t.csv")
"$MESHGEN" --workload mache --jobs 120 --interarrival 900 --nodes 64 --seed "$ws" --swf "$tmp/again1.swf"
check "and from the grid's workload and a row's workload_seed ($ws)" '[ -n "$ws" ] && cmp -s "$tmp/t-workloads/mache+jobs=120+interarrival=900+nodes=64-seed$ws.swf" "$tmp/again1.swf"'

# Job attributes for a trace, one file per generator seed (attrs).
"$MESHGEN" --workload bluegene --jobs 40 --seed 3 --swf "$tmp/at.swf"
cat >"$tmp/at.grid" <<GRID
trace         = at.swf
mesh          = 5tx4tx4t
attrs         = comm=mix:phases, io-fraction=1:io-intensity=0.2-0.3
runtime-model = contention+pfs
seed          = 1, 2
GRID
"$sweep" --no-progress --out "$tmp/at.csv" "$tmp/at.grid" >/dev/null 2>"$tmp/err"
check "attrs: each (attrs, seed) gets its own sidecar, recorded with its SHA-256 and seed" '[ $? -eq 0 ] && python3 - "$tmp/at.csv" <<PY
import csv, hashlib, sys
r = list(csv.DictReader(open(sys.argv[1])))
assert len(r) == 4 and all(x["status"] == "ok" for x in r), r
assert len({x["run_job_attrs"] for x in r}) == 4, r
for x in r:
    assert x["workload_seed"] == x["seed"], x
    assert x["run_job_attrs"].endswith("-seed" + x["seed"] + ".csv"), x
    assert hashlib.sha256(open(x["run_job_attrs"], "rb").read()).hexdigest() == x["run_job_attrs_sha256"], x
PY'
a=$tmp/at-workloads/at.swf+io-fraction=1+io-intensity=0.2-0.3-seed2.csv
cmd=$(sed -n '1s/^# meshsim-gen //p' "$a" | sed "s|--trace [^ ]*|--trace $tmp/at.swf|")
# shellcheck disable=SC2086  # the recorded command's words
"$MESHGEN" $cmd --attrs "$tmp/at-again.csv"
check "attrs: a kept sidecar is made again byte for byte from its first line" '[ -n "$cmd" ] && cmp -s "$a" "$tmp/at-again.csv"'
printf 'workload = mache:jobs=10\nattrs = comm=mix\nmesh = 4x4\n' >"$tmp/atbad.grid"
"$sweep" --no-progress --out "$tmp/atbad.csv" "$tmp/atbad.grid" >/dev/null 2>"$tmp/err"
check "attrs without a trace: exit 2, named" '[ $? -eq 2 ] && grep -q "atbad.grid:2:attrs: attrs generates a trace" "$tmp/err"'

# The generator's seed (workload-seed) apart from the allocator's (seed).
# Allocators compared over different job sets: on 4x4 no box holds 7
# nodes, so contig-ff refuses every job that mc1x1 places.
cat >"$tmp/js.grid" <<GRID
workload  = pods:jobs=20:sizes=7
mesh      = 4x4
allocator = contig-ff, mc1x1
seed      = 1, 2
GRID
"$sweep" -j 2 --no-progress --out "$tmp/js.csv" "$tmp/js.grid" >"$tmp/out" 2>"$tmp/err"
check "allocators that ran different job sets are named per workload, and counted" '[ $? -eq 0 ] && grep -q "warning: allocators ran different job sets (workload=pods:jobs=20:sizes=7 mesh=4x4 seed=1): contig-ff 0 jobs, mc1x1 20 jobs" "$tmp/err" && grep -q "warning: 2 workload(s) where the allocators ran different job sets" "$tmp/err"'

# A deterministic allocator on one workload: five seeds, identical
# replications, every interval exactly 0 (a sum of squares left 1e-4).
cat >"$tmp/det.grid" <<GRID
workload      = mache:jobs=80:interarrival=300:nodes=16
mesh          = 4x4
allocator     = mc1x1
workload-seed = 5
seed          = 1, 2, 3, 4, 5
GRID
"$sweep" --no-progress --out "$tmp/det.csv" "$tmp/det.grid" >/dev/null 2>"$tmp/err"
check "identical replications: every 95% interval is exactly 0, every mean the value itself" '[ $? -eq 0 ] && python3 - "$tmp/det.csv" "$tmp/det-agg.csv" <<PY
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
agg = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == 5 and len(agg) == 1 and agg[0]["n"] == "5", (len(rows), agg)
checked = 0
for k, v in agg[0].items():
    if k.endswith("_ci95") and v != "":
        m = k[:-5]
        assert v == "0", (k, v)
        assert float(agg[0][m + "_mean"]) == float("%.10g" % float(rows[0][m])), m
        checked += 1
assert checked >= 20, checked
PY'

cat >"$tmp/ws.grid" <<GRID
workload      = mache:jobs=60:interarrival=900:nodes=16
mesh          = 4x4
allocator     = random
workload-seed = 5
seed          = 1, 2
GRID
"$sweep" --no-progress --out "$tmp/ws.csv" "$tmp/ws.grid" >/dev/null 2>"$tmp/err"
check "workload-seed seeds the generator, seed the allocator: one workload, two allocator seeds" '[ $? -eq 0 ] && python3 - "$tmp/ws.csv" "$tmp/ws-agg.csv" <<PY
import csv, sys
r = sorted(csv.DictReader(open(sys.argv[1])), key=lambda x: x["seed"])
assert [x["workload_seed"] for x in r] == ["5", "5"] and [x["run_seed"] for x in r] == ["1", "2"], r
assert r[0]["run_trace_sha256"] == r[1]["run_trace_sha256"] and r[0]["mean_sum_pairwise"] != r[1]["mean_sum_pairwise"], r
a = list(csv.DictReader(open(sys.argv[2])))
assert len(a) == 1 and a[0]["n"] == "2" and "workload-seed" not in a[0], a
PY'

# window is a replication key: three windows of one workload per
# allocator form one group of n = 3; meshtable pairs the tidy rows by
# window, and meshplot ratio accepts them as replications.
cat >"$tmp/win.grid" <<GRID
workload      = mache:jobs=90:interarrival=600:nodes=16
mesh          = 4x4
allocator     = hilbert-bf, mc1x1
workload-seed = 5
window        = 1/3, 2/3, 3/3
warmup        = 1800
GRID
"$sweep" --no-progress --out "$tmp/win.csv" "$tmp/win.grid" >/dev/null 2>"$tmp/err"
check "window is a replication key: one group of 3 windows per allocator, the measured jobs a metric" '[ $? -eq 0 ] && python3 - "$tmp/win.csv" "$tmp/win-agg.csv" <<PY
import csv, statistics, sys
r = list(csv.DictReader(open(sys.argv[1])))
assert sorted(x["window"] for x in r) == ["1/3", "1/3", "2/3", "2/3", "3/3", "3/3"], r
assert all(0 < int(x["measured"]) < int(x["jobs"]) for x in r), [(x["measured"], x["jobs"]) for x in r]
a = list(csv.DictReader(open(sys.argv[2])))
assert len(a) == 2 and all(x["n"] == "3" for x in a) and "window" not in a[0], a
for g in a:
    v = [float(x["mean_wait"]) for x in r if x["allocator"] == g["allocator"]]
    assert abs(float(g["mean_wait_mean"]) - statistics.mean(v)) <= 1e-6 * max(1, abs(statistics.mean(v))), (g, v)
PY'
"$table" "$tmp/win.csv" --metrics measured --baseline allocator=hilbert-bf >"$tmp/wt.md" 2>"$tmp/err"
check "meshtable pairs tidy rows by window (n 3, the same measured jobs: +0.0%)" '[ $? -eq 0 ] && grep -q "^| mc1x1 | 3 | .* | +0.0% ± 0.0 |$" "$tmp/wt.md"'
if command -v gnuplot >/dev/null; then
	"$plot" ratio "$tmp/win.csv" --x workload-seed --baseline hilbert-bf --y mean_wait --out "$tmp/wr.png" >/dev/null 2>"$tmp/err"
	check "meshplot ratio takes the windows as replications" '[ $? -eq 0 ] && [ -s "$tmp/wr.png" ]'
fi

# bootstrap-seed is a replication key too.
cat >"$tmp/boot.grid" <<GRID
workload       = mache:jobs=60:interarrival=40000:nodes=16
mesh           = 4x4
allocator      = hilbert-bf, mc1x1
workload-seed  = 5
bootstrap      = week
bootstrap-seed = 1, 2, 3
GRID
"$sweep" --no-progress --out "$tmp/boot.csv" "$tmp/boot.grid" >/dev/null 2>"$tmp/err"
check "bootstrap-seed is a replication key: one group of 3 per allocator, the replications differ" '[ $? -eq 0 ] && python3 - "$tmp/boot.csv" "$tmp/boot-agg.csv" <<PY
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
assert len(r) == 6 and len({x["run_trace_sha256"] for x in r}) == 1, r
assert len({x["mean_wait"] + "/" + x["jobs"] for x in r if x["allocator"] == "mc1x1"}) > 1, r
a = list(csv.DictReader(open(sys.argv[2])))
assert len(a) == 2 and all(x["n"] == "3" for x in a) and "bootstrap-seed" not in a[0], a
PY'

# Rows of another meshsim revision are not resumed from unless asked.
python3 - "$tmp/ws.csv" "$tmp/wsold.csv" <<PY
import csv, sys
r = list(csv.reader(open(sys.argv[1])))
r[1][r[0].index("version")] = "0.0.1-gdeadbeef0000"
csv.writer(open(sys.argv[2], "w"), lineterminator="\n").writerows(r)
PY
cp "$tmp/wsold.csv" "$tmp/wsold.keep"
"$sweep" --no-progress --out "$tmp/wsold.csv" "$tmp/ws.grid" >/dev/null 2>"$tmp/err"
check "resume refuses rows of another revision, naming both and the flag, and leaves the CSV alone" '[ $? -eq 1 ] && grep -q "was run by meshsim 0.0.1-gdeadbeef0000, not " "$tmp/err" && grep -q -- "--resume-other-revision" "$tmp/err" && cmp -s "$tmp/wsold.csv" "$tmp/wsold.keep"'
"$sweep" --no-progress --resume-other-revision --out "$tmp/wsold.csv" "$tmp/ws.grid" >/dev/null 2>"$tmp/err"
check "--resume-other-revision keeps them" '[ $? -eq 0 ] && grep -q "2 of 2 points already in" "$tmp/err" && cmp -s "$tmp/wsold.csv" "$tmp/wsold.keep"'

# Paths in a grid are relative to the grid file, wherever meshsweep runs.
mkdir -p "$tmp/rel/grids" "$tmp/rel/traces" "$tmp/elsewhere"
cp "$tmp/w.swf" "$tmp/rel/traces/w.swf" 2>/dev/null || "$MESHGEN" --workload mache --jobs 50 --nodes 16 --seed 1 --swf "$tmp/rel/traces/w.swf"
printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\n' >"$tmp/rel/grids/m.conf"
printf 'trace = ../traces/w.swf\nmesh-conf = m.conf\n' >"$tmp/rel/grids/rel.grid"
(cd "$tmp/elsewhere" && "$sweep" --no-progress --out r.csv ../rel/grids/rel.grid >/dev/null 2>"$tmp/err")
check "relative trace and mesh-conf paths are taken from the grid file's directory" '[ $? -eq 0 ] && grep -q ",ok," "$tmp/elsewhere/r.csv" && grep -q "^trace=../traces/w.swf;mesh-conf=m.conf,../traces/w.swf,m.conf," "$tmp/elsewhere/r.csv"'

# Signals: SIGTERM to meshsweep alone, or SIGINT to its whole process
# group (a terminal's Ctrl-C), stops its meshsim runs and reaps them,
# removes its temporary directory, keeps the rows that finished, and
# exits 128 + the signal; a rerun resumes from those rows.  Points 0 and
# 1 (EASY) take a fraction of a second, points 2 and 3 (conservative, a
# saturated queue of 3000 jobs) minutes: the signal comes once 0 and 1
# have their rows, while 2 and 3 run.
cat >"$tmp/slow.grid" <<GRID
workload  = mache:jobs=3000:interarrival=300:nodes=64
mesh      = 8x8
scheduler = easy, conservative
seed      = 1, 2
GRID
mkdir -p "$tmp/tmpd"
rows() { if [ -f "$1" ]; then tail -n +2 "$1" | grep -c ",ok," || true; else echo 0; fi; }
for sig in TERM INT; do
	out=$tmp/slow-$sig.csv
	if [ $sig = TERM ]; then
		TMPDIR=$tmp/tmpd "$sweep" -j 2 --no-progress --out "$out" "$tmp/slow.grid" >/dev/null 2>"$tmp/err-$sig" &
		pid=$!
	else
		TMPDIR=$tmp/tmpd setsid "$sweep" -j 2 --no-progress --out "$out" "$tmp/slow.grid" >/dev/null 2>"$tmp/err-$sig" &
		pid=$!
	fi
	for i in $(seq 1 300); do
		[ "$(rows "$out")" -ge 2 ] && [ "$(pgrep -f -- "--summary $tmp/tmpd/" | wc -l)" -eq 2 ] && break
		sleep 0.1
	done
	running=$(pgrep -f -- "--summary $tmp/tmpd/" | wc -l)
	tdir=$(pgrep -af -- "--summary $tmp/tmpd/" | sed -n 's/.*--summary \([^ ]*\)\/p[0-9]*\.json.*/\1/p' | head -1)
	if [ $sig = TERM ]; then kill -TERM $pid; else kill -INT -- -$pid; fi
	wait $pid
	rc=$?
	sleep 0.5
	left=$(pgrep -f -- "--summary $tmp/tmpd/" | wc -l)
	check "SIG$sig to meshsweep$([ $sig = INT ] && echo "'s process group") mid-sweep: exit $((128 + $(kill -l $sig))), its 2 meshsim runs stopped and reaped, its temporary directory gone, the 2 finished rows kept" \
		'[ "$running" -eq 2 ] && [ -n "$tdir" ] && [ $rc -eq $((128 + $(kill -l $sig))) ] && [ "$left" -eq 0 ] && [ ! -e "$tdir" ] && [ -z "$(ls -A "$tmp/tmpd")" ] && [ "$(rows "$out")" -eq 2 ] && [ "$(wc -l <"$out")" -eq 3 ] && grep -q "interrupted: 2 of 4 points ran" "$tmp/err-$sig"'
	pkill -KILL -f -- "--summary $tmp/tmpd/" 2>/dev/null
done
TMPDIR=$tmp/tmpd "$sweep" -j 2 --no-progress --out "$tmp/slow-TERM.csv" "$tmp/slow.grid" >/dev/null 2>"$tmp/err" &
pid=$!
for i in $(seq 1 100); do
	[ "$(pgrep -f -- "--summary $tmp/tmpd/" | wc -l)" -eq 2 ] && break
	sleep 0.1
done
started=$(pgrep -af -- "--summary $tmp/tmpd/" | sed -n 's/.*--summary [^ ]*\/p\([0-9]*\)\.json.*/\1/p' | sort | tr '\n' ' ')
kill -TERM $pid
wait $pid
check "the rerun resumes: the 2 rows are kept, only points 2 and 3 run" '[ $? -eq 143 ] && grep -q "2 of 4 points already in" "$tmp/err" && [ "$started" = "2 3 " ] && [ "$(rows "$tmp/slow-TERM.csv")" -eq 2 ]'
pkill -KILL -f -- "--summary $tmp/tmpd/" 2>/dev/null

# Bad grid lines.
printf 'trace = x.swf\nallocater = mc1x1\n' >"$tmp/bad.grid"
"$sweep" --out "$tmp/b.csv" "$tmp/bad.grid" >/dev/null 2>"$tmp/err"
check "unknown key names file:line:key" '[ $? -eq 2 ] && grep -q "bad.grid:2:allocater: unknown key" "$tmp/err"'
printf 'trace = x.swf\nload 0.5\n' >"$tmp/bad.grid"
"$sweep" --out "$tmp/b.csv" "$tmp/bad.grid" >/dev/null 2>"$tmp/err"
check "a line without = names its line" '[ $? -eq 2 ] && grep -q "bad.grid:2:line: expected key = value" "$tmp/err"'
printf 'trace = x.swf\nio-nodes = "0,0\n' >"$tmp/bad.grid"
"$sweep" --out "$tmp/b.csv" "$tmp/bad.grid" >/dev/null 2>"$tmp/err"
check "an unterminated quote is named" '[ $? -eq 2 ] && grep -q "bad.grid:2:io-nodes: unterminated quote" "$tmp/err"'
printf 'trace = %s/none.swf\nallocator = mc1x1\n' "$tmp" >"$tmp/fail.grid"
"$sweep" --no-progress --out "$tmp/f.csv" "$tmp/fail.grid" >/dev/null 2>"$tmp/err"
check "a failing point is reported, recorded as failed, and the sweep exits 1" '[ $? -eq 1 ] && grep -q "failed (exit 1): meshsim: .*none.swf: cannot open" "$tmp/err" && grep -q ",failed," "$tmp/f.csv"'

# --point-timeout: a run past its wall-time limit is stopped and recorded
# as failed; each failure is one line; every row has its wall time.
"$MESHGEN" --workload mache --jobs 50000 --interarrival 20 --seed 1 --swf "$tmp/stuck.swf"
printf 'trace = stuck.swf\nmesh = 32x32\nallocator = mc\nscheduler = conservative\nseed = 1, 2\n' >"$tmp/stuck.grid"
t0=$SECONDS
"$sweep" --no-progress -j 2 --point-timeout 2 --out "$tmp/stuck.csv" "$tmp/stuck.grid" >/dev/null 2>"$tmp/err"
rc=$? took=$((SECONDS - t0))
check "--point-timeout 2: both points stopped within seconds, one line each, rows failed with wall_s of about 2" '[ $rc -eq 1 ] && [ $took -lt 30 ] && [ "$(grep -c "^meshsweep: point .*failed (timed out after 2 s (--point-timeout))$" "$tmp/err")" -eq 2 ] && python3 - "$tmp/stuck.csv" <<PY
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2 and all(r["status"] == "failed" for r in rows), rows
assert all(2 <= float(r["wall_s"]) < 20 for r in rows), [r["wall_s"] for r in rows]
PY'
check "a successful row has its wall time" 'python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); sys.exit(0 if r and all(x[\"status\"] != \"ok\" or float(x[\"wall_s\"]) >= 0 for x in r) and any(x[\"status\"] == \"ok\" for x in r) else 1)" "$tmp/t.csv"'
"$sweep" --point-timeout -1 --out "$tmp/x.csv" "$tmp/stuck.grid" >/dev/null 2>"$tmp/err"
check "--point-timeout -1 is a usage error" '[ $? -eq 2 ] && grep -q "point-timeout: invalid value" "$tmp/err"'

# --points / --point N / --aggregate (what contrib/slurm-array uses):
# one point per run gives meshsweep's rows; a missing point is named.
check "--points counts the grid" '[ "$("$sweep" --points "$tmp/g.grid")" = 27 ]'
for i in 4 13; do "$sweep" --no-progress --point $i --out "$tmp/p$i.csv" "$tmp/g.grid" 2>>"$tmp/err"; done
check "--point N writes exactly point N's row, equal to the full sweep's but for where its workload is kept" '[ "$(wc -l <"$tmp/p4.csv")" -eq 2 ] && [ ! -e "$tmp/p4-agg.csv" ] && tail -1 "$tmp/p4.csv" | grep -qF "allocator=plas;load=0.8;seed=2" && python3 - "$tmp/p13.csv" "$tmp/t.csv" <<PY
import csv, sys
one = list(csv.DictReader(open(sys.argv[1])))
assert len(one) == 1
full = {r["point"]: r for r in csv.DictReader(open(sys.argv[2]))}[one[0]["point"]]
diff = {k for k in full if full[k] != one[0][k]}
assert diff - {"wall_s"} == {"run_trace", "run_job_attrs"}, diff
assert one[0]["run_trace"].endswith("p13-workloads/mache+jobs=120+interarrival=900+nodes=64-seed2.swf"), one[0]["run_trace"]
PY'
"$sweep" --point 27 --out "$tmp/p.csv" "$tmp/g.grid" >/dev/null 2>"$tmp/err"
check "--point past the end is refused" '[ $? -eq 2 ] && grep -q "has 27 points (0 to 26)" "$tmp/err"'
"$sweep" --aggregate --out "$tmp/t.csv" --agg "$tmp/a2.csv" "$tmp/g.grid" >/dev/null 2>"$tmp/err"
check "--aggregate of a complete sweep runs nothing and rewrites the same aggregate" '[ $? -eq 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/a2.csv" "$tmp/t-agg.csv"'
# Every run removes its temporary directory, whatever mkdtemp names it:
# one name in 62 ends in X, which cleanup once took for the unfilled
# template (300 runs miss such a name with probability 0.8%).
mkdir -p "$tmp/tmpx"
for i in $(seq 1 300); do
	TMPDIR=$tmp/tmpx "$sweep" --aggregate --out "$tmp/t.csv" --agg "$tmp/a2.csv" "$tmp/g.grid" >/dev/null 2>&1 || break
done
check "300 runs leave no temporary directory, whatever its name" '[ "$i" -eq 300 ] && [ -z "$(ls -A "$tmp/tmpx")" ]'
(head -1 "$tmp/p4.csv"; tail -n +2 "$tmp/p4.csv"; tail -n +2 "$tmp/p13.csv") >"$tmp/two.csv"
"$sweep" --aggregate --out "$tmp/two.csv" "$tmp/g.grid" >/dev/null 2>"$tmp/err"
check "--aggregate of an incomplete sweep exits 1 and names the missing points" '[ $? -eq 1 ] && grep -q "point 0 (workload=.*seed=1) has no ok row" "$tmp/err" && grep -q "INCOMPLETE: 25 of 27 points missing or failed" "$tmp/err" && [ "$(wc -l <"$tmp/two.csv")" -eq 3 ]'

# meshsim's per-start system balance factor (a jobs CSV column): the mean
# of its absolute value is the summary's avg_balance_factor.
"$MESHGEN" --workload mache --jobs 120 --interarrival 300 --nodes 64 --seed 1 --swf "$tmp/w.swf" --attrs "$tmp/w.csv"
for a in plas mc1x1; do
	"$meshsim" --mesh 9x8 --io-nodes "$io" --allocator $a --job-attrs "$tmp/w.csv" --jobs-csv "$tmp/j-$a.csv" --summary "$tmp/s-$a.json" "$tmp/w.swf" >/dev/null
done
cp "$tmp/j-plas.csv" "$tmp/j.csv"
check "sys_balance_factor: mean |value| over starts = avg_balance_factor, and not all zero" 'python3 - "$tmp" <<PY
import csv, json, sys
for a in ("plas", "mc1x1"):
    v = [int(r["sys_balance_factor"]) for r in csv.DictReader(open(sys.argv[1] + "/j-" + a + ".csv"))]
    s = json.load(open(sys.argv[1] + "/s-" + a + ".json"))
    assert len(v) == s["jobs"] and any(v), (a, len(v))
    m = sum(abs(x) for x in v) / len(v)
    assert abs(m - s["avg_balance_factor"]) <= 1e-9 * max(1, m), (a, m, s["avg_balance_factor"])
PY'
"$meshsim" --mesh 4x4x2 --allocator mc1x1 --jobs-csv "$tmp/j3.csv" "$tmp/w.swf" >/dev/null 2>&1
check "sys_balance_factor is empty without I/O nodes" '[ "$(head -1 "$tmp/j3.csv" | tr , "\n" | tail -1)" = sys_balance_factor ] && [ -z "$(tail -n +2 "$tmp/j3.csv" | sed "s/.*,//" | sort -u)" ]'

if ! command -v "${GNUPLOT:-gnuplot}" >/dev/null; then
	echo "SKIP: the plot checks: gnuplot not installed (contrib/setup-debian.sh installs gnuplot-nox)"
	finish
	exit
fi

# Pictures: the three kinds, PNG and SVG.
valid_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && [ "$(stat -c %s "$1")" -gt 5000 ]; }
"$plot" curve "$tmp/t-agg.csv" --y avg_balance_factor --out "$tmp/curve.png" --title "balance" 2>"$tmp/err"
check "curve: a PNG of non-trivial size" 'valid_png "$tmp/curve.png"'
"$plot" curve "$tmp/t-agg.csv" --y avg_balance_factor --out "$tmp/curve.svg" --title "balance" 2>"$tmp/err"
check "curve SVG: axis labels, one series per allocator, each with 3 points and 3 vertical 95% CI bars" 'grep -q "<text>avg balance factor</text>" "$tmp/curve.svg" && grep -q "<text>utilization (fraction of usable nodes)</text>" "$tmp/curve.svg" && python3 - "$tmp/curve.svg" <<PY
import re, sys
svg = open(sys.argv[1]).read()
groups = re.findall(r"<g id=.gnuplot_plot_\\d+. ><title>([^<]*)</title>(.*?)(?=<g id=.gnuplot_plot_|$)", svg, re.S)
assert sorted(t for t, _ in groups) == ["mc1x1", "plas", "random"], [t for t, _ in groups]
for title, body in groups:
    d = " ".join(" ".join(re.findall(r"d=.([^\x27]*).", body)).split())
    segs = re.findall(r"M([\\d.]+),([\\d.]+) L([\\d.]+),([\\d.]+)(?= M| *$)", d)
    bars = [s for s in segs if s[0] == s[2] and s[1] != s[3]]
    pts = body.count("gpPt")
    assert len(bars) == 3 and pts == 4, (title, len(bars), pts)
PY'
"$plot" curve "$tmp/t-agg.csv" --y avg_balance_factor --logy --out "$tmp/curvelog.svg" 2>"$tmp/err"
check "curve --logy: decade ticks 1, 10 and 100 on the y axis, all points kept" '[ $? -eq 0 ] && python3 - "$tmp/curvelog.svg" <<PY
import re, sys
svg = open(sys.argv[1]).read()
t = [x.strip() for x in re.findall(r"text-anchor=.end.>\s*<text>(?:<tspan[^>]*>)?([^<]*)<", svg)]
assert {"1", "10", "100"} <= set(t), t
assert svg.count("gpPt") >= 9 + 3, svg.count("gpPt")
PY'
"$plot" ratio "$tmp/t.csv" --y mean_sum_pairwise --baseline mc1x1 --out "$tmp/ratio.svg" 2>"$tmp/err"
check "ratio plot: an SVG with the three allocators and the ratio label" 'grep -q "<svg" "$tmp/ratio.svg" && grep -q ">plas<" "$tmp/ratio.svg" && grep -q ">random<" "$tmp/ratio.svg" && grep -q "mean sum pairwise / mc1x1" "$tmp/ratio.svg"'
# Lines and bars that would join different experiments are refused.
awk -F, 'NR == 1 { print; next } { print; sub(/,9x8,/, ",9x8t,"); print }' "$tmp/t-agg.csv" >"$tmp/two-agg.csv"
"$plot" curve "$tmp/two-agg.csv" --x load --out "$tmp/mixed.png" 2>"$tmp/err"
check "curve: rows differing in an unfiltered key (mesh) are refused, naming it" '[ $? -eq 1 ] && grep -q "^meshplot: curve: the rows of allocator=[a-z0-9]*: mesh (9x8, 9x8t) differ in more than the line.s x" "$tmp/err" && [ ! -e "$tmp/mixed.png" ]'
"$plot" curve "$tmp/two-agg.csv" --out "$tmp/mixed.png" 2>"$tmp/err"
check "curve --x utilization_mean: load traces the line, mesh may not vary too" '[ $? -eq 1 ] && grep -q "load (0.6, 0.8, 1.0) mesh (9x8, 9x8t)\|mesh (9x8, 9x8t) load (0.6, 0.8, 1.0)" "$tmp/err"'
"$plot" curve "$tmp/two-agg.csv" --x load --where mesh=9x8t --out "$tmp/mixed.png" 2>"$tmp/err"
check "curve: with --where mesh=9x8t it draws" '[ $? -eq 0 ] && valid_png "$tmp/mixed.png"'
"$plot" curve "$tmp/t-agg.csv" --x allocator --out "$tmp/text.png" 2>"$tmp/err"
check "curve: a text x column is refused, pointing to meshplot bar" '[ $? -eq 1 ] && grep -q "^meshplot: curve: --x allocator has text values .*meshplot bar" "$tmp/err"'
sed '1s/,load,/,arrival,/' "$tmp/t.csv" >"$tmp/noload.csv"
"$plot" ratio "$tmp/noload.csv" --baseline mc1x1 --out "$tmp/r.png" 2>"$tmp/err"
check "ratio without a load column: says to name a key with --x" '[ $? -eq 1 ] && grep -q "has no column .load. (the default --x): name one of its grid keys with --x" "$tmp/err"'
"$plot" ratio "$tmp/noload.csv" --baseline mc1x1 --x arrival --out "$tmp/r.svg" 2>"$tmp/err"
check "ratio on another grid key (--x arrival)" '[ $? -eq 0 ] && grep -q ">arrival<" "$tmp/r.svg"'
python3 - "$tmp/t-agg.csv" "$tmp/det-agg.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0]))
w.writeheader()
for r in rows:
    if r["allocator"] == "mc1x1":
        r.update({k: "0" for k in r if k.endswith("_ci95")})
    w.writerow(r)
PY
"$plot" curve "$tmp/det-agg.csv" --y avg_balance_factor --out "$tmp/det.svg" 2>"$tmp/err"
check "curve: a series whose seeds were all identical says so in its legend entry, the others do not" '[ $? -eq 0 ] && grep -q ">mc1x1 (seeds identical)<" "$tmp/det.svg" && grep -q ">plas<" "$tmp/det.svg" && ! grep -q "plas (seeds" "$tmp/det.svg"'
"$plot" bar "$tmp/t-agg.csv" --y mean_wait --out "$tmp/bar.png" 2>"$tmp/err"
check "bar: rows of one allocator at several loads are refused, naming load" '[ $? -eq 1 ] && grep -q "^meshplot: bar: the rows of allocator=[a-z0-9]*: load (0.6, 0.8, 1.0) differ in more than --x" "$tmp/err"'
"$plot" bar "$tmp/t-agg.csv" --y mean_wait --by load --out "$tmp/bar.svg" 2>"$tmp/err"
check "bar --by load: an SVG with 9 bars, 9 confidence bars and the unit" '[ $? -eq 0 ] && grep -q "<text>mean wait (s)</text>" "$tmp/bar.svg" && python3 - "$tmp/bar.svg" "$tmp/t-agg.csv" <<PY
import csv, re, sys
svg = open(sys.argv[1]).read()
groups = re.findall(r"<g id=.gnuplot_plot_\\d+. ><title>([^<]*)</title>(.*?)(?=<g id=.gnuplot_plot_|$)", svg, re.S)
assert [t for t, _ in groups] == ["0.6", "0.8", "1.0"], [t for t, _ in groups]
for title, body in groups:
    assert len(re.findall(r"<path[^>]*fill[^>]*d=.M", body)) + body.count("<polygon") >= 3, title
PY'
"$plot" bar "$tmp/t-agg.csv" --y mean_wait --where load=1.0 --out "$tmp/bar.png" 2>"$tmp/err"
check "bar --where load=1.0: a PNG" '[ $? -eq 0 ] && valid_png "$tmp/bar.png"'
"$plot" snapshot "$tmp/j.csv" --mesh 9x8 --io-nodes "$io" --out "$tmp/snap.svg" --title "PLAS snapshot" 2>"$tmp/err"
check "snapshot: an SVG with the title, job legend and I/O marker note" 'grep -q "PLAS snapshot" "$tmp/snap.svg" && grep -q "nodes, avg dist" "$tmp/snap.svg" && grep -q "x = I/O node" "$tmp/snap.svg" && [ "$(stat -c %s "$tmp/snap.svg")" -gt 5000 ]'
"$plot" snapshot "$tmp/j.csv" --mesh 9x8 --io-nodes "$io" --out "$tmp/snap.png" 2>"$tmp/err"
check "snapshot: a PNG of non-trivial size" 'valid_png "$tmp/snap.png"'
"$plot" snapshot "$tmp/j3.csv" --mesh 4x4x2 --out "$tmp/snap3.svg" 2>"$tmp/err"
check "snapshot of a 3D mesh: one panel per z layer" 'grep -q "z = 0" "$tmp/snap3.svg" && grep -q "z = 1" "$tmp/snap3.svg"'
"$plot" timeseries "$tmp/j.csv" --nodes 64 --out "$tmp/ts.png" 2>"$tmp/err"
check "timeseries: a PNG of non-trivial size" 'valid_png "$tmp/ts.png"'
"$plot" timeseries "$tmp/j.csv" --nodes 64 --out "$tmp/ts.svg" 2>"$tmp/err"
check "timeseries: SVG labels name utilization and queue length with units" 'grep -q "utilization (fraction of 64 nodes)" "$tmp/ts.svg" && grep -q "queue length (jobs)" "$tmp/ts.svg" && grep -q "time (hours)" "$tmp/ts.svg"'
check "timeseries: with I/O nodes, a balance-factor panel with one point per job start; whole-job queue ticks" 'grep -q ">system balance factor<" "$tmp/ts.svg" && python3 - "$tmp/ts.svg" "$(($(wc -l <"$tmp/j.csv") - 1))" <<PY
import re, sys
svg = open(sys.argv[1]).read()
groups = re.findall(r"<g id=.gnuplot_plot_\\d+[a-z]*. ><title>([^<]*)</title>(.*?)(?=<g id=.gnuplot_plot_|$)", svg, re.S)
# one point per job start, + the key sample
n = sum(b.count("gpPt") for t, b in groups if t == "system balance factor at each job start (0 = balanced)")
assert n == int(sys.argv[2]) + 1 and n > 100, (n, sys.argv[2])
PY'
# A queue of at most one job: the job axis still has whole-job ticks only
# (gnuplot's own would be 0, 0.2, 0.4, ...).
printf 'job_id,submit,start,end,wait,run,nodes\n1,0,0,3600,0,3600,4\n2,60,3600,7200,3540,3600,4\n' >"$tmp/q1.csv"
"$plot" timeseries "$tmp/q1.csv" --nodes 4 --out "$tmp/q1.svg" 2>"$tmp/err"
check "timeseries: whole-job ticks on the queue axis when the queue is short" '[ $? -eq 0 ] && python3 - "$tmp/q1.svg" <<PY
import re, sys
svg = open(sys.argv[1]).read()
# the queue axis tick labels are the left-aligned (start-anchored) ones
t = [x.strip() for x in re.findall(r"text-anchor=.start.>\s*<text>(?:<tspan[^>]*>)?([^<]*)<", svg)]
assert t[:2] == ["0", "1"] and all(re.fullmatch(r"\d+", x) for x in t), t
PY'
"$plot" timeseries "$tmp/q1.csv" --out "$tmp/q1n.svg" 2>"$tmp/err"
check "timeseries without --nodes: the most nodes ever busy (4)" '[ $? -eq 0 ] && grep -q "utilization (fraction of 4 nodes)" "$tmp/q1n.svg"'
"$plot" timeseries "$tmp/j3.csv" --nodes 32 --out "$tmp/ts3.svg" 2>"$tmp/err"
check "timeseries: no balance-factor panel without I/O nodes" '[ $? -eq 0 ] && grep -q "queue length (jobs)" "$tmp/ts3.svg" && ! grep -q "system balance factor" "$tmp/ts3.svg"'
# meshplot draws into a temporary file beside --out: a signal while gnuplot
# draws (a stand-in that writes half a picture, then waits) removes it,
# stops gnuplot, leaves the old picture and exits 128 + the signal.
cat >"$tmp/slowgnuplot" <<'SH'
#!/bin/sh
out=$(sed -n "s/^set output '\(.*\)'$/\1/p" "$1")
printf 'half a picture' >"$out"
exec sleep 60
SH
chmod +x "$tmp/slowgnuplot"
mkdir -p "$tmp/pic"
cp "$tmp/curve.png" "$tmp/pic/old.png"
GNUPLOT=$tmp/slowgnuplot "$plot" curve "$tmp/t-agg.csv" --y avg_balance_factor --out "$tmp/pic/old.png" 2>"$tmp/err" &
pid=$!
for i in $(seq 1 100); do
	[ -n "$(ls -A "$tmp/pic" | grep '^\.old\.png\.')" ] && [ -s "$tmp/pic/$(ls -A "$tmp/pic" | grep '^\.old\.png\.' | head -1)" ] && break
	sleep 0.1
done
t0=$SECONDS
kill -TERM $pid
wait $pid
rc=$?
sleep 0.2
check "meshplot: SIGTERM while gnuplot draws: exit 143 at once, gnuplot stopped, the old picture kept, no temporary file" '[ $rc -eq 143 ] && [ $((SECONDS - t0)) -lt 5 ] && cmp -s "$tmp/pic/old.png" "$tmp/curve.png" && [ -z "$(ls -A "$tmp/pic" | grep "^\.")" ] && ! pgrep -f "$tmp/slowgnuplot" >/dev/null'
pkill -f "$tmp/slowgnuplot" 2>/dev/null
# An --out that is a symlink to a FIFO (or a device) is written in place.
mkdir -p "$tmp/inplace"
mkfifo "$tmp/inplace/fifo"
ln -s fifo "$tmp/inplace/p.png"
timeout 120 cat "$tmp/inplace/fifo" >"$tmp/inplace/got" &
reader=$!
timeout 120 "$plot" curve "$tmp/t-agg.csv" --y avg_balance_factor --out "$tmp/inplace/p.png" >/dev/null 2>"$tmp/err"
rc=$?
[ -p "$tmp/inplace/fifo" ] && [ -L "$tmp/inplace/p.png" ] || kill $reader 2>/dev/null
wait $reader
check "meshplot: --out a symlink to a FIFO stays a symlink, and the reader gets the PNG" '[ $rc -eq 0 ] && [ -L "$tmp/inplace/p.png" ] && [ -p "$tmp/inplace/fifo" ] && head -c 8 "$tmp/inplace/got" | od -An -c | grep -q "P   N   G" && [ -z "$(ls -A "$tmp/inplace" | grep "^\.")" ]'
"$plot" curve "$tmp/t-agg.csv" --out "$tmp/x.jpg" >/dev/null 2>"$tmp/err"
check "meshplot refuses an unknown output format" '[ $? -eq 2 ] && grep -q "must end in .png or .svg" "$tmp/err"'

finish
