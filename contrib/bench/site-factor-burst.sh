#!/usr/bin/env bash
# site-factor-burst.sh - what site_factor/iobalance costs slurmctld while
# a burst of jobs with I/O hints is submitted onto a long queue.
#
# For each configuration, a local cluster (contrib/slurm-local/cluster.sh)
# with real accounting (MariaDB, slurmdbd: priority/multifactor's decay
# pass runs only with it), the SPANK plugin and priority/multifactor.
# QUEUED held one-node jobs are submitted first, then BURST one-node jobs
# through Slurm's submit API (test/slurm/submit-env), BURST/10 at each of
# the I/O intensities 0.0, 0.1, ..., 0.9.  Printed per configuration:
# the burst's client wall time per submission (mean, max) and sdiag's
# REQUEST_SUBMIT_BATCH_JOB statistics (count, mean and total microseconds
# in slurmctld, locks included), and the mean as a ratio to stock.
#
#   stock  no site factor plugin;
#   walk   site_factor/iobalance before its first decay pass
#          (PriorityCalcPeriod=1000): every set() walks the whole queue,
#          as every set() did before the aggregates;
#   agg    site_factor/iobalance after a decay pass (PriorityCalcPeriod=1):
#          set() values the job from that pass's aggregates.
# stock and agg start their burst just after a decay pass (the pass
# rewrites StateSaveLocation/priority_last_decay_ran), so that none runs
# during it; the passes counted during the burst are printed.
#
# Usage: site-factor-burst.sh [--queued N] [--burst N] [--runs R]
#                             [--configs stock,walk,agg]
# Defaults: 5000 queued, 1000 in the burst, 1 run.  Needs root (daemons),
# a build (make, and make -C test slurm/submit-env) and Slurm installed.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd -P)
CLUSTER=$top/contrib/slurm-local/cluster.sh
SUBMIT=$top/test/slurm/submit-env
plugins=$top/plugin/.libs
queued=5000
burst=1000
runs=1
configs=stock,walk,agg
die() { echo "site-factor-burst: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --queued) queued=$2; shift ;;
        --burst) burst=$2; shift ;;
        --runs) runs=$2; shift ;;
        --configs) configs=$2; shift ;;
        -h|--help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument $1" ;;
    esac
    shift
done
for v in "$queued" "$burst" "$runs"; do
    case "$v" in ''|*[!0-9]*|0) die "not a positive number: '$v'" ;; esac
done
[ $((burst % 10)) -eq 0 ] || die "--burst must be a multiple of 10"
IFS=, read -r -a cfgs <<<"$configs"
for c in "${cfgs[@]}"; do
    case "$c" in stock|walk|agg) ;; *) die "unknown configuration '$c'" ;; esac
done
[ -x "$SUBMIT" ] || die "$SUBMIT not built (make -C test slurm/submit-env)"
[ -f "$plugins/site_factor_iobalance.so" ] || die "plugins not built (make)"

work=$(mktemp -d "${TMPDIR:-/tmp}/site-factor-burst.XXXXXX")
dirs=()
cleanup() {
    local d
    for d in "${dirs[@]}"; do "$CLUSTER" stop --dir "$d" >/dev/null 2>&1 || true; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# decay_ran DIR: the mtime of the last decay pass's record, or 0
decay_ran() {
    stat -c %Y "$1/state/priority_last_decay_ran" 2>/dev/null || echo 0
}
# wait_decay DIR AFTER: until a pass is recorded after AFTER (75 s)
wait_decay() {
    local end=$((SECONDS + 75))
    until [ "$(decay_ran "$1")" -gt "$2" ]; do
        [ "$SECONDS" -lt "$end" ] || return 1
        sleep 0.2
    done
}

declare -A mean_us
run_one() {   # config run
    local cfg=$1 d=$work/$1.$2 period=1 site=() t0 n0 n1 line rpc
    [ "$cfg" = walk ] && period=1000
    [ "$cfg" = stock ] || site=(--extra-slurm-conf "PrioritySiteFactorPlugin=site_factor/iobalance"
                               --extra-slurm-conf "PrioritySiteFactorParameters=alpha=0.5")
    printf 'required %s\n' "$plugins/spank_mesh.so" >"$work/plugstack.conf"
    dirs+=("$d")
    "$CLUSTER" start --dir "$d" --mesh 2x2 --accounting --plugin-dir "$plugins" \
        --timeout 60 \
        --extra-slurm-conf "PlugStackConfig=$work/plugstack.conf" \
        --extra-slurm-conf "PriorityType=priority/multifactor" \
        --extra-slurm-conf "PriorityCalcPeriod=$period" \
        --extra-slurm-conf "MaxJobCount=$((2 * (queued + burst) + 100))" \
        --extra-slurm-conf "SlurmctldDebug=info" \
        --extra-slurm-conf "SlurmdDebug=error" \
        --extra-slurm-conf "DebugFlags=NO_CONF_HASH" \
        "${site[@]}" >"$d.start.log" 2>&1 \
        || { cat "$d.start.log" >&2; die "$cfg: the cluster did not start"; }
    export SLURM_CONF=$d/etc/slurm.conf
    (cd "$work" && "$SUBMIT" -n "$queued" -H 1 MESH_IO_INTENSITY=0.5) >"$d.queue.log" \
        || die "$cfg: the queue could not be submitted"
    if [ "$cfg" != walk ]; then
        t0=$(decay_ran "$d")
        wait_decay "$d" "$t0" || die "$cfg: no decay pass within 75 s"
    fi
    n0=$(decay_ran "$d")
    sdiag -r >/dev/null
    for io in 0.0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9; do
        (cd "$work" && "$SUBMIT" -n $((burst / 10)) 1 "MESH_IO_INTENSITY=$io")
    done >"$d.burst.log" || die "$cfg: the burst failed"
    n1=$(decay_ran "$d")
    rpc=$(sdiag | awk '/REQUEST_SUBMIT_BATCH_JOB/ {
        for (i = 1; i <= NF; i++) { split($i, kv, ":"); v[kv[1]] = kv[2] }
        print v["count"], v["ave_time"], v["total_time"]; exit }')
    line=$(awk '{ s += $3; n += $1; if ($9 + 0 > m) m = $9 + 0 }
        END { printf "%.3f %.3f", 1e3 * s / n, m }' "$d.burst.log")
    read -r cmean cmax <<<"$line"
    read -r count ave total <<<"$rpc"
    mean_us[$cfg.$2]=$ave
    printf '| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n' "$cfg" "$2" \
        "$(awk '{print $1}' "$d.queue.log")" "$count" "$cmean" "$cmax" "$ave" \
        "$total" "$([ "$n0" = "$n1" ] && echo 0 || echo "1+")"
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1 || true
    unset SLURM_CONF
}

echo "site-factor-burst: $queued held jobs queued, then a burst of $burst with I/O hints"
echo
echo "| config | run | queued | burst (sdiag count) | client mean ms | client max ms | slurmctld mean us | slurmctld total us | decay passes in burst |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for r in $(seq 1 "$runs"); do
    for c in "${cfgs[@]}"; do run_one "$c" "$r"; done
done
if [ -n "${mean_us[stock.1]:-}" ]; then
    echo
    for r in $(seq 1 "$runs"); do
        for c in "${cfgs[@]}"; do
            awk -v c="$c" -v r="$r" -v a="${mean_us[$c.$r]}" -v s="${mean_us[stock.$r]}" \
                'BEGIN { printf "run %d: %s / stock, slurmctld mean: %.2f\n", r, c, a / s }'
        done
    done
fi
