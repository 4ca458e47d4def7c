#!/bin/bash
# cli_meshtable.sh - meshtable on hand-made meshsweep CSVs whose means,
# confidence intervals and percent changes against a baseline are worked
# out by hand in the comments (t(0.975, 2) = 4.303, t(0.975, 1) = 12.706).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
table=${MESHTABLE:-$top/contrib/plots/meshtable}
. "$top/test/cli_lib.sh"
# The cells of the table row whose label is $1, "|"-separated, trimmed.
row() { grep "^| $1 |" "$tmp/out" | sed 's/ *| */|/g'; }

# Tidy CSV (meshsweep --out).  A is the baseline.
#   makespan  A: 100 200 400   B: 90 220 320 (seeds 1-3; seed 4 failed)
#   B vs A per seed: -10%, +10%, -20%: mean -6.667%, s^2 = 700/3,
#   CI 4.303 * sqrt(700/9) = 37.949.  (The change of the means would be
#   203.333 / 233.333 - 1 = -12.857%: pairing matters.)
#   A: mean 233.333, s^2 = 70000/3, CI 4.303 * sqrt(70000/9) = 379.489;
#   B: mean 210, s^2 = 13300, CI 4.303 * sqrt(13300/3) = 286.506.
#   total_io_time  A: 0 50 100   B: 10 40 150: seed 1's baseline is 0,
#   so it is left out; seeds 2, 3: -20%, +50%: mean +15%, s^2 = 2450,
#   CI 12.706 * sqrt(2450/2) = 444.710.  Means: A 50 (s^2 = 2500, CI
#   4.303 * sqrt(2500/3) = 124.217), B 66.667 (s^2 = 32600/6, CI
#   4.303 * sqrt(32600/18) = 183.124).
#   C (seed 1 only): makespan 50: -50% (one pair, no CI); total_io_time
#   has no usable pair: n/a.
#   B with flags --pf: 1.5 x A on every seed: +50.0% +- 0.0, against
#   A without flags when --baseline also sets flags to empty.
cat >"$tmp/t.csv" <<'CSV'
point,workload,allocator,seed,flags,status,makespan,total_io_time
p1,w,A,1,,ok,100,0
p2,w,A,2,,ok,200,50
p3,w,A,3,,ok,400,100
p4,w,B,1,,ok,90,10
p5,w,B,2,,ok,220,40
p6,w,B,3,,ok,320,150
p7,w,B,4,,failed,,
p8,w,C,1,,ok,50,7
p9,w,B,1,--pf,ok,150,0
p10,w,B,2,--pf,ok,300,75
p11,w,B,3,--pf,ok,600,150
CSV

"$table" "$tmp/t.csv" --metrics makespan,total_io_time --where flags= --digits 1 >"$tmp/out" 2>"$tmp/err"
check "tidy CSV without --baseline: mean +- CI per group, failed run left out" '[ $? -eq 0 ] && [ "$(row A)" = "|A|3|233.3 ± 379.5|50.0 ± 124.2|" ] && [ "$(row B)" = "|B|3|210.0 ± 286.5|66.7 ± 183.1|" ] && [ "$(row C)" = "|C|1|50.0|7.0|" ]'

"$table" "$tmp/t.csv" --metrics makespan,total_io_time --where flags= --baseline allocator=A >"$tmp/out" 2>"$tmp/err"
check "--baseline: header names the baseline" 'grep -q "^| allocator | n | makespan | makespan vs allocator=A | total_io_time | total_io_time vs allocator=A |$" "$tmp/out"'
check "--baseline: the baseline row shows –" '[ "$(row A | cut -d"|" -f5,7)" = "–|–" ]'
check "--baseline: B paired by seed: −6.7% ± 37.9, and +15.0% ± 444.7 without the zero baseline" '[ "$(row B | cut -d"|" -f5,7)" = "−6.7% ± 37.9|+15.0% ± 444.7" ]'
check "--baseline: one pair has no CI; no usable pair is n/a" '[ "$(row C | cut -d"|" -f5,7)" = "−50.0%|n/a" ]'

"$table" "$tmp/t.csv" --metrics makespan --where flags= --baseline allocator=A --gain >"$tmp/out" 2>"$tmp/err"
check "--gain: Tang's (b − v)/b, the sign flipped" '[ $? -eq 0 ] && [ "$(row B | cut -d"|" -f5)" = "+6.7% ± 37.9" ] && grep -q "makespan gain allocator=A" "$tmp/out"'

"$table" "$tmp/t.csv" --metrics makespan --rows allocator,flags --baseline allocator=A --baseline flags= >"$tmp/out" 2>"$tmp/err"
check "two --baseline columns: B --pf against A without flags, +50.0% ± 0.0" '[ $? -eq 0 ] && [ "$(row "B --pf" | cut -d"|" -f5)" = "+50.0% ± 0.0" ] && [ "$(row B | cut -d"|" -f5)" = "−6.7% ± 37.9" ]'

"$table" "$tmp/t.csv" --metrics makespan --rows allocator,flags --baseline allocator=A >"$tmp/out" 2>"$tmp/err"
check "a group without a baseline row exits 1 naming both" '[ $? -eq 1 ] && grep -q "no baseline row for workload=w, allocator=B, flags=--pf (wanted workload=w, allocator=A, flags=--pf)" "$tmp/err"'
"$table" "$tmp/t.csv" --metrics makespan --baseline seed=1 >/dev/null 2>"$tmp/err"
check "--baseline on seed exits 2" '[ $? -eq 2 ] && grep -q "seed is a replication key: it pairs the runs" "$tmp/err"'
"$table" "$tmp/t.csv" --metrics makespan --baseline window=1 >/dev/null 2>"$tmp/err"
check "--baseline on window exits 2 naming window, not seed" '[ $? -eq 2 ] && grep -q "window is a replication key: it pairs the runs" "$tmp/err"'
"$table" "$tmp/t.csv" --metrics makespan --gain >/dev/null 2>"$tmp/err"
check "--gain without --baseline exits 2" '[ $? -eq 2 ] && grep -q "gain needs --baseline" "$tmp/err"'
"$table" "$tmp/t.csv" --metrics makespan --baseline allocator >/dev/null 2>"$tmp/err"
check "--baseline without = exits 2" '[ $? -eq 2 ] && grep -q "wants COL=VALUE" "$tmp/err"'

# Aggregated CSV (meshsweep --agg): no seeds, so the change of the means,
# -12.857% for B's makespan, and no CI.
cat >"$tmp/a.csv" <<'CSV'
workload,allocator,flags,n,makespan_mean,makespan_ci95
w,A,,3,233.33333333333334,379.489
w,B,,3,203.33333333333334,300.0
CSV
"$table" "$tmp/a.csv" --metrics makespan --baseline allocator=A --digits 1 >"$tmp/out" 2>"$tmp/err"
check "aggregated CSV: change of the means, no CI" '[ $? -eq 0 ] && [ "$(row B)" = "|B|3|203.3 ± 300.0|−12.9%|" ]'

# Two files of the same kind are read as one; different columns are not.
head -1 "$tmp/t.csv" >"$tmp/t2.csv"
sed -n '/,C,/p' "$tmp/t.csv" >>"$tmp/t2.csv"
grep -v ",C," "$tmp/t.csv" >"$tmp/t1.csv"
"$table" "$tmp/t1.csv" "$tmp/t2.csv" --metrics makespan --where flags= --baseline allocator=A >"$tmp/out" 2>"$tmp/err"
check "two tidy files read as one" '[ $? -eq 0 ] && [ "$(row C | cut -d"|" -f5)" = "−50.0%" ]'
"$table" "$tmp/t.csv" "$tmp/a.csv" --metrics makespan >/dev/null 2>"$tmp/err"
check "files with different columns exit 1" '[ $? -eq 1 ] && grep -q "columns differ" "$tmp/err"'

# Without --rows, the rows are labelled by the grid columns whose values
# differ (here allocator and load), not by allocator alone.
cat >"$tmp/loads.csv" <<'CSV'
workload,allocator,load,flags,version,n,makespan_mean,makespan_ci95
w,A,0.5,,r1,2,10,1
w,A,0.7,,r1,2,20,1
w,B,0.5,,r1,2,30,1
w,B,0.7,,r1,2,40,1
CSV
"$table" "$tmp/loads.csv" --metrics makespan >"$tmp/out" 2>"$tmp/err"
check "default --rows: the grid columns that vary (allocator load), four distinct labels" '[ $? -eq 0 ] && grep -q "^| allocator load | n | makespan |$" "$tmp/out" && [ "$(grep -c "^| [AB] 0\.[57] |" "$tmp/out")" -eq 4 ]'
"$table" "$tmp/loads.csv" --where load=0.5 --metrics makespan >"$tmp/out" 2>"$tmp/err"
check "default --rows after --where: only allocator still varies" '[ $? -eq 0 ] && grep -q "^| allocator | n |" "$tmp/out" && [ "$(grep -c "^| [AB] |" "$tmp/out")" -eq 2 ]'

# --out: the same table, written whole or not at all.
"$table" "$tmp/loads.csv" --metrics makespan >"$tmp/stdout.md"
echo old >"$tmp/t.md"
"$table" "$tmp/loads.csv" --metrics makespan --out "$tmp/t.md" >"$tmp/out" 2>"$tmp/err"
check "--out writes the table stdout would get, and nothing to stdout" '[ $? -eq 0 ] && cmp -s "$tmp/t.md" "$tmp/stdout.md" && [ ! -s "$tmp/out" ]'
echo old >"$tmp/t.md"
"$table" "$tmp/loads.csv" --metrics nosuch --out "$tmp/t.md" >/dev/null 2>"$tmp/err"
check "a failed run leaves --out as it was" '[ $? -eq 1 ] && [ "$(cat "$tmp/t.md")" = old ] && [ -z "$(ls -A "$tmp" | grep "^\.")" ]'
check_in_place "meshtable --out" '^\| ' "$table" "$tmp/loads.csv" --metrics makespan --out @OUT@
# SIGTERM while meshtable waits for its input (a FIFO): exit 143, no
# traceback, --out untouched.
mkfifo "$tmp/fifo.csv"
"$table" "$tmp/fifo.csv" --metrics makespan --out "$tmp/t.md" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 0.5
kill -TERM $pid
wait $pid
check "SIGTERM: exit 143, quiet, --out untouched" '[ $? -eq 143 ] && [ ! -s "$tmp/err" ] && [ "$(cat "$tmp/t.md")" = old ]'
exec 3<>"$tmp/fifo.csv"; exec 3>&-

# A closed pipe ends meshtable quietly (5000 rows, the reader gone).
python3 - "$tmp/big.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("allocator,load,n,makespan_mean,makespan_ci95\n")
    for i in range(5000):
        f.write("A,%d,2,%d,1\n" % (i, i))
PY
"$table" "$tmp/big.csv" --metrics makespan 2>"$tmp/err" | head -n 2 >/dev/null
check "a closed pipe is quiet (no traceback)" '[ ! -s "$tmp/err" ]'

# Replications that all agree are labelled, never given an interval: D's
# three seeds give 0.1 each (their float mean is not 0.1 exactly), E's
# makespan varies but its io time does not.
cat >"$tmp/det.csv" <<'CSV'
point,workload,allocator,seed,flags,status,makespan,total_io_time
q1,w,D,1,,ok,0.1,7
q2,w,D,2,,ok,0.1,7
q3,w,D,3,,ok,0.1,7
q4,w,E,1,,ok,10,7
q5,w,E,2,,ok,20,7
CSV
"$table" "$tmp/det.csv" --metrics makespan,total_io_time >"$tmp/out"
check "identical replications: 'n (identical)', no interval" '[ "$(row D)" = "|D|3 (identical)|0.100|7.000|" ]'
check "a metric identical in a row that varies: (=), and the legend" '[ "$(row E)" = "|E|2|15.000 ± 63.530|7.000 (=)|" ] && grep -q "^(=): the same value in all n replications" "$tmp/out"'

finish
