#!/usr/bin/env bash
# sdiag-compare.sh - scheduler cost of select/mesh vs stock select/linear.
#
# Starts the local cluster (contrib/slurm-local/cluster.sh) once per select
# plugin and run, submits the same seeded stream of N batch jobs, waits until
# all have finished and prints the main-scheduler and backfill cycle times
# reported by sdiag, slurmctld's peak RSS and CPU time and the load average.
#
# Usage: sdiag-compare.sh [--jobs N] [--allocator NAME]... [--seed S]
#                         [--plugin PATH/select_mesh.so] [--keep]
#                         [--mesh WxH[xD]] [--mesh-conf FILE]
#                         [--nodes MIN-MAX] [--size-dist uniform|log]
#                         [--sleep MIN-MAX] [--limit MIN-MAX]
#                         [--repeat R] [--quiet-logs] [--batch N]
#                         [--max-wait S] [--hold] [--also-plugin NAME=PATH]...
#                         [--sched-params LIST] [--only-mesh]
#                         [--over cons_tres]
# Defaults: 200 jobs, mc1x1, seed 42, 4x4, --nodes 1-8 uniform, --sleep 0-2
# (seconds), --limit 1-3 (minutes), 1 run, max wait 900 s per run.
# --allocator can be repeated (or a comma list): one select/mesh run each.
# --mesh-conf gives select/mesh its own mesh.conf (e.g. Dimensions=2048x2048
# over the same 32 nodes). --size-dist log draws log2(size) uniformly, then
# the size uniformly within that power of two (many small, some large jobs).
# --repeat R runs every plugin R times (interleaved: mesh, linear, mesh, ...)
# and ends with the median of each column. --quiet-logs sets
# SlurmctldDebug=info, SlurmdDebug=error and no DebugFlags=SelectType (use it
# at scale: the default debug log writes lines per decision). --batch is
# cluster.sh's slurmd start batch. --hold submits every job held and
# releases them all with one scontrol release: sdiag is reset and the wall
# clock starts at the release, so the submission (slow when the machine is
# loaded) is not part of the measurement and every run starts from the
# same queue of N pending jobs. --also-plugin adds, in every round, a
# select/mesh run of another build of select_mesh.so (e.g. the one before a
# change) with the first allocator, labelled mesh-ALLOCATOR@NAME.
# --sched-params replaces cluster.sh's SchedulerParameters
# (bf_interval=1,sched_interval=2), e.g. to raise bf_max_time.
# --only-mesh skips select/linear.
# --over cons_tres compares select/mesh over cons_tres
# (SelectTypeParameters=CR_Core_Memory,OTHER_CONS_TRES) with plain
# select/cons_tres (CR_Core_Memory, label "cons_tres") and with
# select/cons_tres plus topology/mesh (label "tres-topo"), instead of
# select/linear: nodes of 4 CPUs, 4000 MB and Gres=gpu:2, a partition gpu
# (OverSubscribe=NO) that the jobs use, each job asking --gres=gpu:1 or :2
# per node (seeded).  On Slurm 24.11 (the plugins built for it), which
# has no OTHER_CONS_TRES, the select/mesh runs are left out and tres-topo
# is topology/mesh placing inside cons_tres with the first --allocator.
# Columns: main/backfill cycle counts and times (microseconds, from sdiag),
# bf-dep = mean jobs tested per backfill cycle (sdiag's Depth Mean; a
# cycle stops after bf_max_time, 1 s here, so at scale compare bf-mean /
# bf-dep, the time per tested job), bf-job = jobs started by backfill, wall = seconds from the first submit
# (--hold: from the release) until the queue is empty, submit = mean sbatch
# wall time (ms), hwm = slurmctld VmHWM (MiB), cpu = slurmctld user+system
# CPU seconds (both include the submission), load = mean of the 1-minute
# load average sampled every 2 s during the run.  ran = jobs that got
# nodes; dist = mean over those with two or more nodes of their mean
# pairwise distance on the mesh (smesh show job, AvgDist).
# Needs a built plugin (make) and Slurm installed (contrib/setup-debian.sh).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd -P)
CLUSTER=$top/contrib/slurm-local/cluster.sh
SMESH=$top/src/smesh/smesh
plugin=$top/plugin/.libs/select_mesh.so
jobs=200
allocators=()
seed=42
keep=0
mesh=4x4
mesh_conf=""
nodes=1-8
size_dist=uniform
sleep_r=0-2
limit_r=1-3
repeat=1
quiet=0
batch=64
max_wait=900
hold=0
also=()
sched_params=""
only_mesh=0
over=""
usage_die() { echo "sdiag-compare: $*" >&2; exit 2; }
range() {   # NAME VALUE -> prints "MIN MAX"
    case "$2" in
        *[!0-9-]* | -* | *- | *-*-* | '') usage_die "$1 wants MIN-MAX, got '$2'" ;;
        *-*) ;;
        *) echo "$2 $2"; return 0 ;;
    esac
    [ "${2%-*}" -le "${2#*-}" ] || usage_die "$1: MIN > MAX in '$2'"
    echo "${2%-*} ${2#*-}"
}
while [ $# -gt 0 ]; do
    case "$1" in
        --jobs) jobs=$2; shift ;;
        --allocator) IFS=, read -r -a a <<<"$2"; allocators+=("${a[@]}"); shift ;;
        --seed) seed=$2; shift ;;
        --plugin) plugin=$2; shift ;;
        --keep) keep=1 ;;
        --mesh) mesh=$2; shift ;;
        --mesh-conf) mesh_conf=$(cd "$(dirname "$2")" && pwd -P)/$(basename "$2"); shift ;;
        --nodes) nodes=$2; shift ;;
        --size-dist) size_dist=$2; shift ;;
        --sleep) sleep_r=$2; shift ;;
        --limit) limit_r=$2; shift ;;
        --repeat) repeat=$2; shift ;;
        --quiet-logs) quiet=1 ;;
        --batch) batch=$2; shift ;;
        --max-wait) max_wait=$2; shift ;;
        --hold) hold=1 ;;
        --also-plugin) also+=("$2"); shift ;;
        --sched-params) sched_params=$2; shift ;;
        --only-mesh) only_mesh=1 ;;
        --over) over=$2; shift ;;
        -h|--help) sed -n '2,55p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) usage_die "unknown argument $1" ;;
    esac
    shift
done
[ "${#allocators[@]}" -gt 0 ] || allocators=(mc1x1)
case "$over" in "" | cons_tres) ;; *) usage_die "--over: only cons_tres is supported" ;; esac
read -r nmin nmax <<<"$(range --nodes "$nodes")"
read -r smin smax <<<"$(range --sleep "$sleep_r")"
read -r tmin tmax <<<"$(range --limit "$limit_r")"
[ "$nmin" -ge 1 ] || usage_die "--nodes must start at 1 or more"
[ "$tmin" -ge 1 ] || usage_die "--limit must start at 1 minute or more"
case "$size_dist" in uniform|log) ;; *) usage_die "--size-dist is uniform or log" ;; esac
for v in "$jobs" "$repeat" "$batch" "$max_wait" "$seed"; do
    case "$v" in ''|*[!0-9]*) usage_die "not a number: '$v'" ;; esac
done
[ -f "$plugin" ] || { echo "sdiag-compare: $plugin not built (run make)" >&2; exit 1; }
hold_opt=""
[ "$hold" -eq 0 ] || hold_opt=--hold

work=$(mktemp -d "${TMPDIR:-/tmp}/sdiag-compare.XXXXXX")
dirs=()
cleanup() {
    local d
    for d in "${dirs[@]}"; do "$CLUSTER" stop --dir "$d" >/dev/null 2>&1 || true; done
    if [ "$keep" -eq 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
mkdir -p "$work/plugins" "$work/jobs"
install -m 0755 "$plugin" "$work/plugins/.select_mesh.so.$$"
mv -f "$work/plugins/.select_mesh.so.$$" "$work/plugins/select_mesh.so"
if [ -n "$over" ]; then   # tres-topo: topology/mesh, built beside select_mesh.so
    [ -f "$(dirname "$plugin")/topology_mesh.so" ] || usage_die "--over: no topology_mesh.so beside $plugin"
    install -m 0755 "$(dirname "$plugin")/topology_mesh.so" "$work/plugins/topology_mesh.so"
fi
for e in "${also[@]}"; do
    case "$e" in *=*) ;; *) usage_die "--also-plugin wants NAME=PATH, got '$e'" ;; esac
    [ -f "${e#*=}" ] || usage_die "--also-plugin ${e%%=*}: ${e#*=} not found"
    mkdir -p "$work/plugins-${e%%=*}"
    install -m 0755 "${e#*=}" "$work/plugins-${e%%=*}/select_mesh.so"
done

# sdiag_field SECTION-REGEX FIELD: value of "FIELD: v" after the section
# ("-" if sdiag does not print it, e.g. no backfill cycle yet).
sdiag_field() {
    awk -v sec="$1" -v f="$2" '
        $0 ~ sec {in_sec = 1; next}
        in_sec && /^[A-Z][a-z].*:$/ && $0 !~ sec {in_sec = 0}
        in_sec && index($0, f ":") {sub(/.*: */, ""); v = $1; exit}
        END {print (v == "") ? "-" : v}' "$3"
}

# Job size: uniform in [nmin, nmax], or log: a power of two 2^k drawn
# uniformly among those that meet the range, then uniform in
# [2^k, 2^(k+1)) clipped to the range.
job_size() {
    local k lo hi ks=()
    if [ "$size_dist" = uniform ]; then
        size=$((nmin + RANDOM % (nmax - nmin + 1)))
        return
    fi
    for ((k = 0; (1 << k) <= nmax; k++)); do
        [ $(((1 << (k + 1)) - 1)) -lt "$nmin" ] || ks+=("$k")
    done
    k=${ks[RANDOM % ${#ks[@]}]}
    lo=$((1 << k)); hi=$(((1 << (k + 1)) - 1))
    [ "$lo" -ge "$nmin" ] || lo=$nmin
    [ "$hi" -le "$nmax" ] || hi=$nmax
    size=$((lo + RANDOM % (hi - lo + 1)))
}

ctld_pid() { awk '$1 == "slurmctld" {print $2}' "$1/run/pids"; }

# "ran dist" of the jobs in DIR.ids (SLURM_CONF set): how many got nodes,
# and the mean of smesh's AvgDist over those with two or more.
placement_stats() {
    local j nl
    while read -r j; do
        nl=$(scontrol -o show job "$j" 2>/dev/null | sed -n 's/.* NodeList=\([^ ]*\) .*/\1/p')
        [ -n "$nl" ] && [ "$nl" != "(null)" ] || continue
        if [ "$(scontrol show hostnames "$nl" | wc -l)" -lt 2 ]; then
            echo one
        else
            "$SMESH" show job "$j" 2>/dev/null | sed -n 's/.* AvgDist=\([^ ]*\) .*/\1/p'
        fi
    done <"$1.ids" | awk '{ n++ } $1 != "one" { s += $1; m++ }
        END { printf "%d %s\n", n, m ? sprintf("%.3f", s / m) : "-" }'
}

# Cluster options and per-job options of --over cons_tres for SELECT
# (select/mesh, select/cons_tres or select/cons_tres+topology): into
# over_cluster and over_job.
over_options() {
    local sel=$1 n
    over_cluster=() over_job=()
    [ -n "$over" ] || return 0
    n=$(echo "$mesh" | tr -d t | tr x '\n' | awk 'BEGIN { p = 1 } { p *= $1 } END { print p }')
    over_cluster=(--gres gpu:2 --node-params "CPUs=4 RealMemory=4000"
        --extra-slurm-conf SlurmdParameters=config_overrides
        --extra-slurm-conf DefMemPerCPU=500
        --extra-slurm-conf "PartitionName=gpu Nodes=n[0-$((n - 1))] MaxTime=INFINITE State=UP OverSubscribe=NO")
    case "$sel" in
        select/mesh) over_cluster+=(--extra-slurm-conf "SelectTypeParameters=CR_Core_Memory,OTHER_CONS_TRES") ;;
        *topology) over_cluster+=(--extra-slurm-conf "SelectTypeParameters=CR_Core_Memory"
                      --extra-slurm-conf "TopologyPlugin=topology/mesh") ;;
        *) over_cluster+=(--extra-slurm-conf "SelectTypeParameters=CR_Core_Memory") ;;
    esac
    over_job=(-p gpu)
}

run_one() {   # select-type allocator label [plugin-dir]
    local sel=$1 alloc=$2 label=$3 pdir=${4:-$work/plugins} d i s t left end t0 ts sub pid hwm cpu
    local loads=0 nload=0 load size
    local extra=()
    d=${label//#/-r}   # '#' starts a comment in slurm.conf
    d="$work/${d//@/-}"
    dirs+=("$d")
    [ -z "$mesh_conf" ] || [ "$sel" != select/mesh ] || extra+=(--mesh-conf "$mesh_conf")
    [ "$quiet" -eq 0 ] || extra+=(--extra-slurm-conf SlurmctldDebug=info
        --extra-slurm-conf SlurmdDebug=error --extra-slurm-conf DebugFlags=NO_CONF_HASH)
    [ -z "$sched_params" ] || extra+=(--extra-slurm-conf "SchedulerParameters=$sched_params")
    over_options "$sel"
    extra+=("${over_cluster[@]}")
    sel=${sel%+topology}
    # Up to three tries: another cluster on this machine may take a port of
    # our block between the port check and a slurmd's bind (a 512-node
    # start takes ~20 s).
    for i in 1 2 3; do
        if "$CLUSTER" start --dir "$d" --mesh "$mesh" --select "$sel" \
                --allocator "${alloc:-mc1x1}" --plugin-dir "$pdir" \
                --timeout 60 --batch "$batch" "${extra[@]}" >"$d.start" 2>&1; then
            break
        fi
        echo "$label: cluster start failed (try $i of 3):" >&2
        grep -m 3 'error\|ERROR' "$d.start" >&2 || tail -n 5 "$d.start" >&2
        [ "$i" -lt 3 ] || return 1
        sleep 5
    done
    export SLURM_CONF=$d/etc/slurm.conf
    pid=$(ctld_pid "$d")
    [ "$hold" -eq 1 ] || sdiag --reset >/dev/null
    RANDOM=$seed
    t0=$SECONDS
    ts=$(date +%s%N)
    : >"$d.ids"
    for ((i = 0; i < jobs; i++)); do
        job_size
        s=$((smin + RANDOM % (smax - smin + 1))); t=$((tmin + RANDOM % (tmax - tmin + 1)))
        gres=()
        [ -z "$over" ] || gres=(--gres=gpu:$((1 + RANDOM % 2)))
        (cd "$work/jobs" && sbatch --parsable ${hold_opt:+"$hold_opt"} -o /dev/null \
            "${over_job[@]}" "${gres[@]}" -N "$size" -t "$t" --wrap "sleep $s") >>"$d.ids"
    done
    sub=$(( ($(date +%s%N) - ts) / jobs / 1000 ))
    sub=$((sub / 1000)).$(printf '%03d' $((sub % 1000)))
    if [ "$hold" -eq 1 ]; then
        sdiag --reset >/dev/null
        t0=$SECONDS
        scontrol release "$(paste -sd, "$d.ids")"
    fi
    end=$((SECONDS + max_wait))
    while :; do
        read -r load _ </proc/loadavg
        loads=$(awk -v a="$loads" -v b="$load" 'BEGIN {print a + b}'); nload=$((nload + 1))
        left=$(squeue -h | grep -c . || true)
        [ "$left" -gt 0 ] || break
        [ "$SECONDS" -lt "$end" ] || { echo "$label: $left jobs left after $max_wait s" >&2; break; }
        sleep 2
    done
    sdiag >"$d.sdiag"
    hwm=$(awk '/^VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")
    cpu=$(awk -v hz="$(getconf CLK_TCK)" '{sub(/.*\) /, ""); printf "%.1f", ($12 + $13) / hz}' "/proc/$pid/stat")
    load=$(awk -v a="$loads" -v n="$nload" 'BEGIN {printf "%.2f", a / n}')
    read -r ran dist < <(placement_stats "$d")
    printf '%-19s %6s %8s %8s %8s %7s | %8s %8s %8s %7s %6s %6s | %6s %8s %6s %6s %5s | %4s %6s\n' "$label" \
        "$(sdiag_field 'Main schedule statistics' 'Total cycles' "$d.sdiag")" \
        "$(sdiag_field 'Main schedule statistics' 'Last cycle' "$d.sdiag")" \
        "$(sdiag_field 'Main schedule statistics' 'Max cycle' "$d.sdiag")" \
        "$(sdiag_field 'Main schedule statistics' 'Mean cycle' "$d.sdiag")" \
        "$(sdiag_field 'Main schedule statistics' 'Mean depth cycle' "$d.sdiag")" \
        "$(sdiag_field 'Backfilling stats' 'Last cycle' "$d.sdiag")" \
        "$(sdiag_field 'Backfilling stats' 'Max cycle' "$d.sdiag")" \
        "$(sdiag_field 'Backfilling stats' 'Mean cycle' "$d.sdiag")" \
        "$(sdiag_field 'Backfilling stats' 'Total cycles' "$d.sdiag")" \
        "$(sdiag_field 'Backfilling stats' 'Depth Mean' "$d.sdiag")" \
        "$(sdiag_field 'Backfilling stats' 'Total backfilled jobs (since last slurm start)' "$d.sdiag")" \
        "$((SECONDS - t0))s" "$sub" "$hwm" "$cpu" "$load" "$ran" "$dist" | tee -a "$work/rows"
    "$CLUSTER" stop --dir "$d" >/dev/null 2>&1 || true
    rm -rf "$d/log" "$d/spool"
}

if [ "$size_dist" = uniform ]; then sz="$nodes nodes"; else sz="$nodes nodes, log-uniform"; fi
echo "$jobs jobs ($sz, sleep $sleep_r s, limit $limit_r min${hold_opt:+, submitted held, released at once}) on a $mesh cluster${mesh_conf:+ (select/mesh: $mesh_conf)}${sched_params:+, SchedulerParameters=$sched_params}, seed $seed; cycle times in microseconds, submit in ms, hwm in MiB, cpu in s"
header() {
    printf '%-19s %6s %8s %8s %8s %7s | %8s %8s %8s %7s %6s %6s | %6s %8s %6s %6s %5s | %4s %6s\n' select \
        "main#" "last" "max" "mean" "depth" "bf-last" "bf-max" "bf-mean" "bf#" "bf-dep" "bf-job" \
        "wall" "submit" "hwm" "cpu" "load" "ran" "dist"
}
# The Slurm series the plugins were built for (plugin/Makefile).
series=$(sed -n 's/^SLURM_SERIES = //p' "$top/plugin/Makefile" 2>/dev/null)
over_mesh=1
if [ -n "$over" ] && [ "$series" != 2205 ]; then
    over_mesh=0
    echo "Slurm series $series: no OTHER_CONS_TRES, so no select/mesh over cons_tres; tres-topo places with ${allocators[0]}"
fi
header
: >"$work/rows"
for ((r = 1; r <= repeat; r++)); do
    for a in "${allocators[@]}"; do
        [ "$over_mesh" -eq 1 ] || break
        run_one select/mesh "$a" "mesh-$a$([ "$repeat" -eq 1 ] || echo "#$r")"
    done
    for e in "${also[@]}"; do
        run_one select/mesh "${allocators[0]}" \
            "mesh-${allocators[0]}@${e%%=*}$([ "$repeat" -eq 1 ] || echo "#$r")" \
            "$work/plugins-${e%%=*}"
    done
    if [ "$only_mesh" -eq 1 ]; then
        :
    elif [ -n "$over" ]; then
        run_one select/cons_tres "" "cons_tres$([ "$repeat" -eq 1 ] || echo "#$r")"
        run_one select/cons_tres+topology "${allocators[0]}" "tres-topo$([ "$repeat" -eq 1 ] || echo "#$r")"
    else
        run_one select/linear "" "linear$([ "$repeat" -eq 1 ] || echo "#$r")"
    fi
done
if [ "$repeat" -gt 1 ]; then
    echo "median of $repeat runs:"
    header
    sed 's/|//g' "$work/rows" | awk '
        { lab = $1; sub(/#[0-9]+$/, "", lab)
          if (!(lab in n)) order[++nl] = lab
          n[lab]++
          for (c = 2; c <= NF; c++) { x = $c; sub(/s$/, "", x); v[lab, c, n[lab]] = x } }
        function med(lab, c,   k, i, j, t, a) {
          k = n[lab]
          for (i = 1; i <= k; i++) a[i] = v[lab, c, i] + 0
          for (i = 2; i <= k; i++)
            for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
          return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
        }
        END {
          for (l = 1; l <= nl; l++) {
            lab = order[l]
            printf "%-19s %6s %8s %8s %8s %7s | %8s %8s %8s %7s %6s %6s | %5ss %8s %6s %6s %5s | %4s %6s\n", lab,
              med(lab, 2), med(lab, 3), med(lab, 4), med(lab, 5), med(lab, 6),
              med(lab, 7), med(lab, 8), med(lab, 9), med(lab, 10), med(lab, 11),
              med(lab, 12), med(lab, 13), med(lab, 14), med(lab, 15), med(lab, 16),
              med(lab, 17), med(lab, 18), med(lab, 19)
          }
        }'
fi
