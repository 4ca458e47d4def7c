#!/usr/bin/env bash
# sdiag-compare.sh - scheduler cost of select/mesh vs stock select/linear.
#
# Starts the local 4x4 cluster (contrib/slurm-local/cluster.sh) once per
# select plugin, submits the same seeded stream of N batch jobs (1-8 nodes,
# sleep 0-2 s, time limits 1-3 min), waits until all have finished and
# prints the main-scheduler and backfill cycle times reported by sdiag.
#
# Usage: sdiag-compare.sh [--jobs N] [--allocator NAME] [--seed S]
#                         [--plugin PATH/select_mesh.so] [--keep]
#                         [--mesh WxH[xD]] [--mesh-conf FILE]
# --mesh sets the cluster (default 4x4); --mesh-conf gives select/mesh its
# own mesh.conf (e.g. Dimensions=2048x2048 over the same 32 nodes).
# "submit" is the mean sbatch wall time in milliseconds.
# Needs a built plugin (make) and Slurm installed (contrib/setup-debian.sh).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd -P)
CLUSTER=$top/contrib/slurm-local/cluster.sh
plugin=$top/plugin/.libs/select_mesh.so
jobs=200
allocator=mc1x1
seed=42
keep=0
mesh=4x4
mesh_conf=""
while [ $# -gt 0 ]; do
    case "$1" in
        --jobs) jobs=$2; shift ;;
        --allocator) allocator=$2; shift ;;
        --seed) seed=$2; shift ;;
        --plugin) plugin=$2; shift ;;
        --keep) keep=1 ;;
        --mesh) mesh=$2; shift ;;
        --mesh-conf) mesh_conf=$(cd "$(dirname "$2")" && pwd -P)/$(basename "$2"); shift ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "sdiag-compare: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
[ -f "$plugin" ] || { echo "sdiag-compare: $plugin not built (run make)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/sdiag-compare.XXXXXX")
dirs=()
cleanup() {
    local d
    for d in "${dirs[@]}"; do "$CLUSTER" stop --dir "$d" >/dev/null 2>&1 || true; done
    [ "$keep" -eq 1 ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/plugins" "$work/jobs"
install -m 0755 "$plugin" "$work/plugins/.select_mesh.so.$$"
mv -f "$work/plugins/.select_mesh.so.$$" "$work/plugins/select_mesh.so"

# sdiag_field SECTION-REGEX FIELD: value of "FIELD: v" after the section.
sdiag_field() {
    awk -v sec="$1" -v f="$2" '
        $0 ~ sec {in_sec = 1; next}
        in_sec && /^[A-Z][a-z].*:$/ && $0 !~ sec {in_sec = 0}
        in_sec && index($0, f ":") {sub(/.*: */, ""); print $1; exit}' "$3"
}

run_one() {   # select-type label
    local sel=$1 label=$2 d="$work/$2" i n s t left end t0 ts sub
    local extra=()
    dirs+=("$d")
    [ -z "$mesh_conf" ] || [ "$sel" != select/mesh ] || extra=(--mesh-conf "$mesh_conf")
    "$CLUSTER" start --dir "$d" --mesh "$mesh" --select "$sel" --allocator "$allocator" \
        --plugin-dir "$work/plugins" --timeout 60 "${extra[@]}" >/dev/null 2>&1 \
        || { echo "cluster start failed for $sel" >&2; return 1; }
    export SLURM_CONF=$d/etc/slurm.conf
    sdiag --reset >/dev/null
    RANDOM=$seed
    t0=$SECONDS
    ts=$(date +%s%N)
    for ((i = 0; i < jobs; i++)); do
        n=$((1 + RANDOM % 8)); s=$((RANDOM % 3)); t=$((1 + RANDOM % 3))
        (cd "$work/jobs" && sbatch -Q -o /dev/null -N "$n" -t "$t" --wrap "sleep $s")
    done
    sub=$(( ($(date +%s%N) - ts) / jobs / 1000 ))
    sub=$((sub / 1000)).$(printf '%03d' $((sub % 1000)))
    end=$((SECONDS + 900))
    while :; do
        left=$(squeue -h | grep -c . || true)
        [ "$left" -gt 0 ] || break
        [ "$SECONDS" -lt "$end" ] || { echo "$label: $left jobs left after 900 s" >&2; break; }
        sleep 2
    done
    sdiag >"$work/$label.sdiag"
    printf '%-14s %6s %8s %8s %8s %7s | %8s %8s %8s %7s %6s | %5ss %8s\n' "$label" \
        "$(sdiag_field 'Main schedule statistics' 'Total cycles' "$work/$label.sdiag")" \
        "$(sdiag_field 'Main schedule statistics' 'Last cycle' "$work/$label.sdiag")" \
        "$(sdiag_field 'Main schedule statistics' 'Max cycle' "$work/$label.sdiag")" \
        "$(sdiag_field 'Main schedule statistics' 'Mean cycle' "$work/$label.sdiag")" \
        "$(sdiag_field 'Main schedule statistics' 'Mean depth cycle' "$work/$label.sdiag")" \
        "$(sdiag_field 'Backfilling stats' 'Last cycle' "$work/$label.sdiag")" \
        "$(sdiag_field 'Backfilling stats' 'Max cycle' "$work/$label.sdiag")" \
        "$(sdiag_field 'Backfilling stats' 'Mean cycle' "$work/$label.sdiag")" \
        "$(sdiag_field 'Backfilling stats' 'Total cycles' "$work/$label.sdiag")" \
        "$(sdiag_field 'Backfilling stats' 'Total backfilled jobs (since last slurm start)' "$work/$label.sdiag")" \
        "$((SECONDS - t0))" "$sub"
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1 || true
}

echo "$jobs jobs (1-8 nodes, sleep 0-2 s) on a $mesh cluster${mesh_conf:+ (select/mesh: $mesh_conf)}, seed $seed; cycle times in microseconds, submit in ms"
printf '%-14s %6s %8s %8s %8s %7s | %8s %8s %8s %7s %6s | %6s %8s\n' "select" \
    "main#" "last" "max" "mean" "depth" "bf-last" "bf-max" "bf-mean" "bf#" "bf-job" "wall" "submit"
run_one select/mesh "mesh-$allocator"
run_one select/linear linear
