#!/usr/bin/env bash
# willrun-cost.sh - what WILL_RUN costs slurmctld's backfill, per plugin
# build: a steady state where every backfill cycle asks WILL_RUN about the
# same pending jobs while the same jobs run.
#
# On the local cluster (contrib/slurm-local/cluster.sh, select/mesh), one
# 1-node job per node runs with time limits 10, 11, ... minutes (distinct
# ends; --scatter: the i-th on the i-th node of a fixed shuffle, so that
# nodes free up scattered over the mesh, not where the plugin put the
# jobs), then P jobs of 2..N nodes are submitted (--contiguous: with
# --contiguous, of w x h nodes, w = 2..W in turn, h = 1 + 5i mod H); none
# can start, so each backfill cycle tests all of them with WILL_RUN.  After a settle delay sdiag is reset; after S seconds the
# backfill cycle statistics are read.
# "us/job" = backfill mean cycle / "Depth Mean (try depth)" (jobs that
# backfill tried to schedule per cycle, i.e. WILL_RUN calls).  Cycle
# times are wall clock and grow with the machine's load; "cpu-ms" is the
# CPU time slurmctld used over the S seconds (all threads, /proc), and
# "cpu/bf-us" that per backfill cycle, "cpu/job-us" per job tried: less
# sensitive to other load.  bf_max_time=60 lets every cycle test the
# whole queue.
# SelectType debug logging is off (DebugFlags=NO_CONF_HASH,
# SlurmctldDebug=info) so that logging does not dominate.
#
# A build is LABEL=PATH/select_mesh.so, or "linear": stock select/linear,
# the same whole-node allocation in Slurm's own node order.
#
# --lock times every WILL_RUN call of select_p_job_test (mode 2) with perf
# uprobes (uprobe-calls.sh; root, perf); slurmctld holds its job and node
# locks around each.  Printed per build: sdiag's backfill cycles, their
# mean and longest (a pass over the queue, its WILL_RUN calls and Slurm's
# own planning), the WILL_RUN calls in the S seconds, the longest and
# their mean; then, when "linear" is among the builds, the longest call,
# the mean call and the mean cycle as ratios to linear's in the round.
#
# --calls counts instead, with perf uprobes (root, perf): select_p_job_test
# calls and allocator calls (mesh_alloc_place) in the S seconds, and
# placements per job_test.  The probes cost microseconds per hit, so no
# CPU time is printed then.  The plugin is then linked, not copied, into
# the PluginDir (a uprobe follows the file).
#
# Usage: willrun-cost.sh [--mesh WxH[xD]] [--mesh-conf FILE] [--allocator NAME]
#                        [--pending P] [--seconds S] [--repeat R]
#                        [--contiguous] [--scatter] [--calls | --lock]
#                        linear LABEL=PATH/select_mesh.so ...
# The builds run alternately, R rounds.  Needs Slurm installed
# (contrib/setup-debian.sh).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd -P)
CLUSTER=$top/contrib/slurm-local/cluster.sh
mesh=4x4
mesh_conf=""
allocator=mc1x1
pending=50
seconds=20
repeat=1
calls=0
lock=0
contig=""
scatter=0
builds=()
while [ $# -gt 0 ]; do
    case "$1" in
        --mesh) mesh=$2; shift ;;
        --mesh-conf) mesh_conf=$(cd "$(dirname "$2")" && pwd -P)/$(basename "$2"); shift ;;
        --allocator) allocator=$2; shift ;;
        --pending) pending=$2; shift ;;
        --seconds) seconds=$2; shift ;;
        --repeat) repeat=$2; shift ;;
        --calls) calls=1 ;;
        --lock) lock=1 ;;
        --contiguous) contig=--contiguous ;;
        --scatter) scatter=1 ;;
        -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
        *=*|linear) builds+=("$1") ;;
        *) echo "willrun-cost: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
[ "${#builds[@]}" -gt 0 ] || { echo "willrun-cost: give linear or LABEL=PATH/select_mesh.so" >&2; exit 2; }
[ "$calls" -eq 0 ] || [ "$lock" -eq 0 ] || { echo "willrun-cost: --calls or --lock, not both" >&2; exit 2; }
[ "$calls" -eq 0 ] || [[ " ${builds[*]} " != *" linear "* ]] ||
    { echo "willrun-cost: --calls counts select/mesh's allocator calls; linear has none" >&2; exit 2; }
[[ $mesh =~ ^[1-9][0-9]*(x[1-9][0-9]*){1,2}$ ]] ||
    { echo "willrun-cost: --mesh takes WxH or WxHxD, got '$mesh'" >&2; exit 2; }
nodes=$(( ${mesh//x/ * } ))
IFS=x read -r dim_w dim_h _ <<<"$mesh"

work=$(mktemp -d "${TMPDIR:-/tmp}/willrun-cost.XXXXXX")
dirs=()
probes=()
cleanup() {
    local d p
    for d in "${dirs[@]}"; do "$CLUSTER" stop --dir "$d" >/dev/null 2>&1 || true; done
    [ "$calls" -eq 0 ] || perf probe -q -d "probe_select_mesh:wrc$$*" >/dev/null 2>&1 || true
    for p in "${probes[@]}"; do perf probe -q -d "$p" >/dev/null 2>&1 || true; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
. "$top/contrib/bench/uprobe-calls.sh"
if [ "$lock" -eq 1 ] || [ "$calls" -eq 1 ]; then
    command -v perf >/dev/null || { echo "willrun-cost: needs perf (Debian: apt-get install linux-perf)" >&2; exit 2; }
fi
mkdir -p "$work/jobs"

sdiag_field() {   # SECTION-REGEX FIELD FILE
    awk -v sec="$1" -v f="$2" '
        $0 ~ sec {in_sec = 1; next}
        in_sec && /^[A-Z][a-z].*:$/ && $0 !~ sec {in_sec = 0}
        in_sec && index($0, f ":") {sub(/.*: */, ""); print $1; exit}' "$3"
}

hz=$(getconf CLK_TCK)
cpu_ticks() {   # PID: user + system CPU ticks of the process (all threads)
    awk '{print $14 + $15}' "/proc/$1/stat"
}

# the node of the i-th running job: n<i>, or with --scatter the i-th of
# a shuffle seeded once, the same for every build
if [ "$scatter" -eq 1 ]; then
    mapfile -t order < <(awk -v n="$nodes" 'BEGIN {
        srand(53); for (i = 0; i < n; i++) p[i] = i
        for (i = n - 1; i > 0; i--) { j = int(rand() * (i + 1)); t = p[i]; p[i] = p[j]; p[j] = t }
        for (i = 0; i < n; i++) print p[i] }')
fi

declare -A max_us call_us bf_us
run_one() {   # label so round index
    local label=$1 so=$2 d="$work/$1.$3" i n f cyc mean depth ev np nt pid
    local pe="probe_select_mesh:wrc$$_$4" lib sel=() extra=() at=() calls_out
    dirs+=("$d")
    mkdir -p "$d.plugins"
    if [ "$label" = linear ]; then
        lib=/usr/lib/x86_64-linux-gnu/slurm-wlm/select_linear.so
        sel=(--select select/linear)
    elif [ "$calls" -eq 1 ]; then
        so=$(realpath "$so")
        ln -s "$so" "$d.plugins/select_mesh.so"
        if [ "$3" -eq 1 ]; then
            perf probe -q -x "$so" --add "wrc$$_$4_place=mesh_alloc_place" &&
            perf probe -q -x "$so" --add "wrc$$_$4_test=select_p_job_test" \
                || { echo "willrun-cost: perf probe failed on $so" >&2; return 1; }
        fi
    else
        install -m 0755 "$so" "$d.plugins/select_mesh.so"
        lib=$d.plugins/select_mesh.so
    fi
    [ -z "$mesh_conf" ] || extra=(--mesh-conf "$mesh_conf")
    "$CLUSTER" start --dir "$d" --mesh "$mesh" --allocator "$allocator" \
        --plugin-dir "$d.plugins" --timeout 60 "${extra[@]}" "${sel[@]}" \
        --extra-slurm-conf DebugFlags=NO_CONF_HASH \
        --extra-slurm-conf SchedulerParameters=bf_interval=1,sched_interval=2,bf_max_time=60 \
        --extra-slurm-conf SlurmctldDebug=info >/dev/null 2>&1 \
        || { echo "cluster start failed for $label" >&2; return 1; }
    export SLURM_CONF=$d/etc/slurm.conf
    for ((i = 0; i < nodes; i++)); do
        [ "$scatter" -eq 0 ] || at=(-w "n${order[i]}")
        (cd "$work/jobs" && sbatch -Q -o /dev/null -N1 "${at[@]}" -t $((10 + i)) --wrap 'sleep 3600')
    done
    for ((i = 0; i < 60; i++)); do
        [ "$(squeue -h -t R | grep -c . || true)" -lt "$nodes" ] || break
        sleep 1
    done
    for ((i = 0; i < pending; i++)); do
        n=$((2 + i % (nodes - 1)))
        # a contiguous job is a w x h box (select/mesh refuses a count
        # no box of the mesh holds, such as a prime above the width)
        [ -z "$contig" ] || n=$(((2 + i % (dim_w - 1)) * (1 + (i * 5) % dim_h)))
        (cd "$work/jobs" && sbatch -Q -o /dev/null -N "$n" $contig -t 5 --wrap true)
    done
    sleep 3
    pid=$(cat "$d/run/slurmctld.pid")
    sdiag --reset >/dev/null
    if [ "$calls" -eq 1 ]; then
        ev=$(perf stat -x, -e "${pe}_place" -e "${pe}_test" -p "$pid" \
            -- sleep "$seconds" 2>&1 >/dev/null)
        np=$(echo "$ev" | awk -F, '/_place/ {print $1}')
        nt=$(echo "$ev" | awk -F, '/_test/ {print $1}')
        printf '%-10s %5s %9s %9s %9s\n' "$label" "$3" "$nt" "$np" \
            "$(awk -v p="${np:-0}" -v t="${nt:-0}" 'BEGIN {printf "%.2f", (t > 0) ? p / t : 0}')"
        "$CLUSTER" stop --dir "$d" >/dev/null 2>&1 || true
        return 0
    fi
    f=$d.sdiag
    if [ "$lock" -eq 1 ]; then
        add_probes "$lib" "wrl_$4_$3" || return 1
        # sdiag reset after the probes are live: the calls and the cycles
        # cover the same S seconds
        calls_out=$(probe_calls "$lib" "wrl_$4_$3" "$pid" 2 \
            bash -c 'sdiag --reset >/dev/null && sleep "$1" && sdiag >"$2"' _ "$seconds" "$f") ||
            { echo "willrun-cost: perf record failed for $label" >&2; return 1; }
        read -r _ n max sum <<<"$calls_out"
        mean=$(sdiag_field 'Backfilling stats' 'Mean cycle' "$f")
        max_us[$label.$3]=$max
        call_us[$label.$3]=$(awk -v s="$sum" -v n="$n" 'BEGIN {printf "%.0f", (n > 0) ? s / n : 0}')
        bf_us[$label.$3]=$mean
        printf '%-10s %5s %7s %9s %9s %8s %9s %9s\n' "$label" "$3" \
            "$(sdiag_field 'Backfilling stats' 'Total cycles' "$f")" "$mean" \
            "$(sdiag_field 'Backfilling stats' 'Max cycle' "$f")" "$n" "$max" "${call_us[$label.$3]}"
        "$CLUSTER" stop --dir "$d" >/dev/null 2>&1 || true
        return 0
    fi
    c0=$(cpu_ticks "$pid")
    sleep "$seconds"
    c1=$(cpu_ticks "$pid")
    sdiag >"$f"
    cyc=$(sdiag_field 'Backfilling stats' 'Total cycles' "$f")
    mean=$(sdiag_field 'Backfilling stats' 'Mean cycle' "$f")
    depth=$(sdiag_field 'Backfilling stats' 'Depth Mean (try depth)' "$f")
    printf '%-10s %5s %7s %8s %8s %8s %9s %9s %9s\n' "$label" "$3" "$cyc" "$mean" "$depth" \
        "$(awk -v m="${mean:-0}" -v d="${depth:-0}" 'BEGIN {printf "%.1f", (d > 0) ? m / d : 0}')" \
        "$(( (c1 - c0) * 1000 / hz ))" \
        "$(awk -v c=$((c1 - c0)) -v n="${cyc:-0}" -v hz="$hz" 'BEGIN {printf "%.0f", (n > 0) ? c * 1e6 / hz / n : 0}')" \
        "$(awk -v c=$((c1 - c0)) -v n="${cyc:-0}" -v d="${depth:-0}" -v hz="$hz" 'BEGIN {printf "%.0f", (n * d > 0) ? c * 1e6 / hz / n / d : 0}')"
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1 || true
}

[ -z "$mesh_conf" ] || allocator=$(sed -n 's/^Allocator=\([^ ]*\).*/\1/p' "$mesh_conf" | tail -n 1)
echo "$nodes running 1-node jobs$([ "$scatter" -eq 0 ] || echo ' (scattered)'), $pending pending ${contig:+contiguous }jobs of 2..$nodes nodes, $mesh cluster${mesh_conf:+ (mesh.conf $mesh_conf)}, allocator $allocator; backfill over ${seconds}s, times in microseconds"
if [ "$calls" -eq 1 ]; then
    printf '%-10s %5s %9s %9s %9s\n' build round job_test placements "per-call"
elif [ "$lock" -eq 1 ]; then
    printf '%-10s %5s %7s %9s %9s %8s %9s %9s\n' build round "bf#" "bf-mean" "bf-max" "WILL_RUN" "max-us" "mean-us"
else
    printf '%-10s %5s %7s %8s %8s %8s %9s %9s %9s\n' build round "bf#" "bf-mean" depth "us/job" "cpu-ms" "cpu/bf-us" "cpu/job-us"
fi
for ((r = 1; r <= repeat; r++)); do
    i=0
    for b in "${builds[@]}"; do
        run_one "${b%%=*}" "${b#*=}" "$r" "$i"
        i=$((i + 1))
    done
done
if [ "$lock" -eq 1 ] && [[ " ${builds[*]} " == *" linear "* ]]; then
    echo
    for ((r = 1; r <= repeat; r++)); do
        for b in "${builds[@]}"; do
            b=${b%%=*}
            [ "$b" != linear ] || continue
            awk -v b="$b" -v r="$r" -v m="${max_us[$b.$r]:-0}" -v lm="${max_us[linear.$r]:-0}" \
                -v c="${call_us[$b.$r]:-0}" -v lc="${call_us[linear.$r]:-0}" \
                -v f="${bf_us[$b.$r]:-0}" -v lf="${bf_us[linear.$r]:-0}" '
                function ratio(x, y) { return (y > 0) ? sprintf("%.2f", x / y) : "-" }
                BEGIN { printf "round %d: %s / linear: longest WILL_RUN %s, mean WILL_RUN %s, backfill mean cycle %s\n",
                        r, b, ratio(m, lm), ratio(c, lc), ratio(f, lf) }'
        done
    done
fi
