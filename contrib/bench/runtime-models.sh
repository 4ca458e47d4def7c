#!/usr/bin/env bash
# runtime-models.sh - wall time of whole replays under each runtime model
# (median of 3 runs of wall and CPU seconds, side by side in one run).
#
# Usage: contrib/bench/runtime-models.sh [BUILD_DIR]
#
# 1. NASA iPSC (../shared/traces, 18,239 jobs) on 16x8 and on 32x32, EASY,
#    mc1x1 and hilbert-bf, under trace, contention (all-to-all, share 0.3)
#    and pfs (I/O share 0.3).
# 2. A generated trace of LLNL size (21,000 jobs, meshsim-gen mache on
#    1024 nodes, sizes up to 1024) on 32x32 plus an I/O column (33x32),
#    all I/O, under trace and contention: the issue 7 budget is 10 s.
# 3. A saturated queue (issue 55.5): NASA on 16x8 with four I/O nodes,
#    contention (nearest, 0.5; I/O 0.2), plas and contig-ff under each
#    scheduler, one run each, and each run's wall time over EASY's.
#    plas saturates the machine (hundreds of queued jobs), which makes
#    conservative rebuild hundreds of reservations at every event.
# Figures go to doc/benchmarks.md; they are comparable only within a run.
set -euo pipefail
build=${1:-.}
meshsim=$build/src/meshsim/meshsim
gen=$build/src/meshgen/meshsim-gen
nasa=${SHARED_DIR:-../shared}/traces/NASA-iPSC-1993-3.1-cln.swf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$meshsim" ] && [ -x "$gen" ] || { echo "build first (make)" >&2; exit 1; }

# Median of 3 runs of a command: "wall_s cpu_s" (CPU = user + system of
# the child, which a loaded machine inflates far less than wall time).
median3() {
    python3 - "$@" <<'PY'
import os, subprocess, sys, time
walls, cpus = [], []
for _ in range(3):
    t = time.monotonic()
    p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if status:
        sys.exit("failed: " + " ".join(sys.argv[1:]))
    walls.append(time.monotonic() - t)
    cpus.append(ru.ru_utime + ru.ru_stime)
print("%.3f %.3f" % (sorted(walls)[1], sorted(cpus)[1]))
PY
}

models=(
    "trace|"
    "contention|--runtime-model contention --comm all-to-all --comm-share 0.3"
    "pfs|--runtime-model pfs --io-share 0.3"
)
# One run: "wall_s".
once() {
    python3 - "$@" <<'PY'
import subprocess, sys, time
t = time.monotonic()
if subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,
                  stderr=subprocess.DEVNULL).returncode:
    sys.exit("failed: " + " ".join(sys.argv[1:]))
print("%.2f" % (time.monotonic() - t))
PY
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -r "$nasa" ]; then
    printf '\n== NASA iPSC, 18,239 jobs, EASY: median wall s of 3 ==\n'
    printf '%-8s %-12s %-11s %8s %8s\n' mesh allocator model wall_s cpu_s
    for mesh in 16x8 32x32; do
        for a in hilbert-bf mc1x1; do
            for m in "${models[@]}"; do
                # shellcheck disable=SC2086
                s=$(median3 "$meshsim" --mesh "$mesh" --allocator "$a" \
                    --scheduler easy ${m#*|} "$nasa")
                printf '%-8s %-12s %-11s %8s %8s\n' "$mesh" "$a" "${m%%|*}" $s
            done
        done
    done
else
    echo "NASA trace not found at $nasa: skipped"
fi
"$gen" --workload mache --jobs 21000 --seed 1 --nodes 1024 \
    --interarrival 400 --swf "$tmp/llnl.swf" --attrs "$tmp/llnl.csv"
io=$(seq -s';' -f '0,%g' 0 31)
printf '\n== generated, 21,000 jobs (LLNL size), 33x32 with 32 I/O nodes, EASY ==\n'
printf '%-12s %-11s %8s %8s\n' allocator model wall_s cpu_s
for a in hilbert-bf mc1x1 plas; do
    for m in trace contention; do
        s=$(median3 "$meshsim" --mesh 33x32 --io-nodes "$io" --allocator "$a" \
            --scheduler easy --job-attrs "$tmp/llnl.csv" --runtime-model "$m" \
            "$tmp/llnl.swf")
        printf '%-12s %-11s %8s %8s\n' "$a" "$m" $s
    done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -r "$nasa" ]; then
    printf '\n== saturated: NASA on 16x8 + 4 I/O nodes, contention, one run ==\n'
    printf '%-10s %-19s %8s %8s\n' allocator scheduler wall_s "/ easy"
    for a in plas contig-ff; do
        easy=""
        for sch in easy conservative conservative-count; do
            [ "$a/$sch" = contig-ff/conservative-count ] && continue
            w=$(once "$meshsim" --mesh 16x8 --io-nodes '0,0;15,0;0,7;15,7' \
                --allocator "$a" --scheduler "$sch" --runtime-model contention \
                --comm nearest --comm-share 0.5 --io-share 0.2 "$nasa")
            easy=${easy:-$w}
            printf '%-10s %-19s %8s %8.0f\n' "$a" "$sch" "$w" \
                "$(echo "$w / $easy" | bc -l)"
        done
    done
    echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
