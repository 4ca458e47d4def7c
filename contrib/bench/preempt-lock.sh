#!/usr/bin/env bash
# preempt-lock.sh - what one preempting job costs slurmctld's locks when
# thousands of preemptable one-node jobs run (issue 53.2), against stock.
#
# For each configuration and run, a local cluster (contrib/slurm-local/
# cluster.sh) of MESH nodes with CPUS CPUs each, preempt/partition_prio
# with PreemptMode=CANCEL, a partition low (PriorityTier=1) and a
# partition high (PriorityTier=10) on every node, CR_Core_Memory.  JOBS
# one-node, one-CPU jobs run in low (a job array); once they all run and
# the machine is quiet, one job is submitted to high, and the select
# plugin's select_p_job_test calls are timed with perf uprobes until it
# runs.  slurmctld holds its job and node write locks around each call.
# Printed per configuration and run:
#   victims: low jobs slurmctld killed for the high job;
#   first RUN_NOW: the wall time of the first SELECT_MODE_RUN_NOW call,
#     the one that chose the victims, taken before any was killed;
#   RUN_NOW calls, their longest and their total: the later calls run
#     while the victims die, and the kills (hundreds of processes on a
#     small host) take the CPU from slurmctld, so their wall times grow
#     with the victims' number, not only with the plugin's work;
#   main max cycle: sdiag's longest main scheduling cycle;
#   wait: seconds from the high job's submission until it ran (">300":
#     it did not); low left: low jobs still running; nodes: where it ran.
#
#   cons_tres   stock select/cons_tres (Slurm's own victim order);
#   mesh        select/mesh over cons_tres (OTHER_CONS_TRES), this build;
#   NAME=PATH   select/mesh over cons_tres with another build's
#               select_mesh.so (e.g. one from before a change).
# The high job is -N K --ntasks-per-node=1 (one CPU on each of K nodes;
# with every CPU busy, one victim per node is enough) or, with --exclusive,
# K whole nodes.
#
# Usage: preempt-lock.sh [--mesh WxH] [--cpus C] [--jobs N] [--high K]
#                        [--exclusive] [--allocator NAME] [--runs R]
#                        [--configs cons_tres,mesh,NAME=PATH...] [--keep]
# Defaults: 8x8, 32 CPUs, 2000 jobs, K = 16, mc1x1, 1 run, cons_tres,mesh.
# --keep leaves the clusters' directories (logs) behind, daemons stopped.
# Needs root (daemons and perf probes), perf, a build (make) and Debian's
# Slurm 22.05 (the layer over cons_tres does not exist on 24.11, where
# preemption is Slurm's own under topology/mesh).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd -P)
CLUSTER=$top/contrib/slurm-local/cluster.sh
plugins=$top/plugin/.libs
mesh=8x8
cpus=32
jobs=2000
high=16
exclusive=""
allocator=mc1x1
runs=1
configs=cons_tres,mesh
keep=""
die() { echo "preempt-lock: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --mesh) mesh=$2; shift ;;
        --cpus) cpus=$2; shift ;;
        --jobs) jobs=$2; shift ;;
        --high) high=$2; shift ;;
        --exclusive) exclusive=--exclusive ;;
        --allocator) allocator=$2; shift ;;
        --runs) runs=$2; shift ;;
        --configs) configs=$2; shift ;;
        --keep) keep=1 ;;
        -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
        *) die "unknown argument $1" ;;
    esac
    shift
done
for v in "$cpus" "$jobs" "$high" "$runs"; do
    case "$v" in ''|*[!0-9]*|0) die "not a positive number: '$v'" ;; esac
done
[[ $mesh =~ ^([0-9]+)x([0-9]+)$ ]] || die "--mesh wants WxH, not '$mesh'"
nodes=$((BASH_REMATCH[1] * BASH_REMATCH[2]))
[ "$jobs" -le $((nodes * cpus)) ] || die "$jobs jobs do not fit on $nodes nodes of $cpus CPUs"
[ "$high" -le "$nodes" ] || die "--high $high is more than the $nodes nodes"
IFS=, read -r -a cfgs <<<"$configs"
declare -A so
for c in "${cfgs[@]}"; do
    case "$c" in
        cons_tres) ;;
        mesh) so[$c]=$plugins/select_mesh.so ;;
        *=*) so[${c%%=*}]=${c#*=} ;;
        *) die "unknown configuration '$c'" ;;
    esac
done
for c in "${!so[@]}"; do [ -f "${so[$c]}" ] || die "$c: no ${so[$c]} (make)"; done
command -v perf >/dev/null || die "needs perf (Debian: apt-get install linux-perf)"
/usr/sbin/slurmctld -V 2>/dev/null | grep ' 22\.05\.' >/dev/null ||
    die "needs Slurm 22.05 (select/mesh over cons_tres)"

work=$(mktemp -d "${TMPDIR:-/tmp}/preempt-lock.XXXXXX")
dirs=()
probes=()
cleanup() {
    local d p
    for p in "${probes[@]}"; do perf probe -q -d "$p" >/dev/null 2>&1 || true; done
    for d in "${dirs[@]}"; do "$CLUSTER" stop --dir "$d" >/dev/null 2>&1 || true; done
    if [ -n "$keep" ]; then echo "preempt-lock: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# until CMD prints a number >= WANT, at most SECS seconds
wait_count() {   # want secs cmd...
    local want=$1 end=$((SECONDS + $2)) n
    shift 2
    while n=$("$@") && [ "$n" -lt "$want" ]; do
        [ "$SECONDS" -lt "$end" ] || return 1
        sleep 1
    done
}
running() { squeue -h -t RUNNING -p low -o %i | wc -l; }
# until at most 2 tasks are runnable (/proc/loadavg's fourth field) in
# 10 samples in a row, 0.5 s apart (at most 300 s): the start of the low
# jobs, or the kills of an earlier run, are over
settle() {
    local end=$((SECONDS + 300)) quiet=0
    while [ "$quiet" -lt 10 ] && [ "$SECONDS" -lt "$end" ]; do
        if awk '{ split($4, r, "/"); exit !(r[1] <= 2) }' /proc/loadavg; then
            quiet=$((quiet + 1))
        else
            quiet=0
        fi
        sleep 0.5
    done
}
. "$top/contrib/bench/uprobe-calls.sh"
sdiag_field() {   # section-pattern field
    sdiag | awk -v s="$1" -v f="$2" '$0 ~ s { on = 1 } on && index($0, f ":") { print $NF; exit }'
}

# until job J runs (at most 300 s): 0, else 1
wait_running() {
    local end=$((SECONDS + 300))
    until [ "$(squeue -h -j "$1" -o %T 2>/dev/null)" = RUNNING ]; do
        [ "$SECONDS" -lt "$end" ] || return 1
        sleep 0.5
    done
}

submit_high() {
    t0=$(date +%s.%N)
    j=$(cd "$work" && sbatch --parsable -p high -N "$high" --ntasks-per-node=1 $exclusive \
        -o /dev/null --wrap 'sleep 100000') || return 1
    echo "$j" >"$work/high.id"
    if wait_running "$j"; then
        echo "$(date +%s.%N) - $t0" | bc >"$work/high.wait"
    else
        echo ">300" >"$work/high.wait"
    fi
}

declare -A first_us
run_one() {   # config run
    local cfg=$1 name=${1%%=*} sel=() pdir=$plugins lib
    local d=$work/${name//[^A-Za-z0-9_]/_}.$2 j calls main_max victims wait nodes
    if [ "$cfg" = cons_tres ]; then
        lib=/usr/lib/x86_64-linux-gnu/slurm-wlm/select_cons_tres.so
        sel=(--select select/cons_tres --extra-slurm-conf "SelectTypeParameters=CR_Core_Memory")
    else
        pdir=$work/plugins.${name//[^A-Za-z0-9_]/_}.$2
        mkdir -p "$pdir"
        cp "${so[$name]}" "$pdir/select_mesh.so"
        lib=$pdir/select_mesh.so
        sel=(--allocator "$allocator" --extra-slurm-conf "SelectTypeParameters=CR_Core_Memory,OTHER_CONS_TRES")
    fi
    dirs+=("$d")
    "$CLUSTER" start --dir "$d" --mesh "$mesh" --plugin-dir "$pdir" --timeout 120 \
        --node-params "CPUs=$cpus RealMemory=$((cpus * 1000))" \
        --extra-slurm-conf "SlurmdParameters=config_overrides" \
        --extra-slurm-conf "DefMemPerCPU=100" \
        --extra-slurm-conf "PreemptType=preempt/partition_prio" \
        --extra-slurm-conf "PreemptMode=CANCEL" \
        --extra-slurm-conf "MaxJobCount=$((2 * jobs + 100))" \
        --extra-slurm-conf "MaxArraySize=$((jobs + 1))" \
        --extra-slurm-conf "SlurmctldDebug=info" \
        --extra-slurm-conf "SlurmdDebug=error" \
        --extra-slurm-conf "DebugFlags=NO_CONF_HASH" \
        --extra-slurm-conf "PartitionName=low Nodes=ALL MaxTime=INFINITE State=UP OverSubscribe=NO PriorityTier=1" \
        --extra-slurm-conf "PartitionName=high Nodes=ALL MaxTime=INFINITE State=UP OverSubscribe=NO PriorityTier=10" \
        "${sel[@]}" >"$d.start.log" 2>&1 \
        || { cat "$d.start.log" >&2; die "$cfg: the cluster did not start"; }
    export SLURM_CONF=$d/etc/slurm.conf
    (cd "$work" && sbatch -Q -p low -N1 -n1 --array=0-$((jobs - 1)) -o /dev/null \
        --wrap 'sleep 100000') || die "$cfg: the low jobs were not submitted"
    wait_count "$jobs" 300 running || die "$cfg: $(running) of $jobs low jobs running after 300 s"
    settle
    sdiag -r >/dev/null
    add_probes "$lib" "${name//[^A-Za-z0-9_]/_}_$2" || die "$cfg: no probes"
    # mode 0, RUN_NOW: the first call chose the victims, before any died
    calls=$(probe_calls "$lib" "${name//[^A-Za-z0-9_]/_}_$2" "$(awk '$1 == "slurmctld" { print $2 }' "$d/run/pids" | tail -1)" \
        0 submit_high) || die "$cfg: the high job was not submitted"
    j=$(cat "$work/high.id")
    wait=$(cat "$work/high.wait")
    main_max=$(sdiag_field 'Main schedule' 'Max cycle')
    victims=$(grep -c "preempted JobId=.* for JobId=$j\$" "$d/log/slurmctld.log" || true)
    nodes=$(squeue -h -j "$j" -o %N)
    read -r first n max sum <<<"$calls"
    first_us[$name.$2]=$first
    printf '| %s | %d | %s | %s | %s / %s / %s | %s | %s | %s | %s |\n' "$name" "$2" \
        "$victims" "$first" "$n" "$max" "$sum" "$main_max" "$wait" "$(running)" \
        "${nodes:-(pending)}"
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1 || true
    unset SLURM_CONF
}

echo "preempt-lock: $jobs one-CPU jobs in low on $mesh x $cpus CPUs; one high job of" \
    "$high nodes${exclusive:+ (exclusive)}; allocator $allocator"
echo
echo "| config | run | victims | first RUN_NOW us | RUN_NOW calls / max us / total us | main max cycle us | wait s | low left | nodes |"
echo "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |"
for r in $(seq 1 "$runs"); do
    for c in "${cfgs[@]}"; do run_one "$c" "$r"; done
done
if [ -n "${first_us[cons_tres.1]:-}" ]; then
    echo
    for r in $(seq 1 "$runs"); do
        for c in "${cfgs[@]}"; do
            c=${c%%=*}
            awk -v c="$c" -v r="$r" -v a="${first_us[$c.$r]}" -v s="${first_us[cons_tres.$r]}" \
                'BEGIN { printf "run %d: %s / cons_tres, the preempting RUN_NOW decision: %.3f\n", r, c, a / s }'
        done
    done
fi
