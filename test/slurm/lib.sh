# lib.sh - shared helpers of the real-Slurm tests of select/mesh (sourced).
#
# Each test: mesh_setup NAME; cluster_start [cluster.sh options]; checks
# with pass/fail; mesh_finish.  Every wait is bounded; the cluster is
# stopped by the EXIT trap.  Skips (exit 77) only if Slurm is not
# installed.  Needs: TOP_BUILDDIR (default: two levels up).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
top_src=$(cd "$here/../.." && pwd -P)
top_build=${TOP_BUILDDIR:-$top_src}
CLUSTER=${CLUSTER_SH:-$top_src/contrib/slurm-local/cluster.sh}
SMESH=$top_build/src/smesh/smesh
PLUGIN_SO=$top_build/plugin/.libs/select_mesh.so
# The Slurm series the plugins were built for (2205, 2411): configure's
# SLURM_SERIES, as plugin/Makefile has it.
mesh_series=$(sed -n 's/^SLURM_SERIES = //p' "$top_build/plugin/Makefile" 2>/dev/null)

npass=0
nfail=0
clusters=()
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }

mesh_require_slurm() {
    local b
    for b in /usr/sbin/slurmctld-wlm /usr/sbin/slurmd-wlm /usr/sbin/munged \
             "$(command -v sbatch)" "$(command -v scontrol)"; do
        if [ -z "$b" ] || [ ! -x "$b" ]; then
            echo "SKIP: Slurm is not installed (run contrib/setup-debian.sh)"
            exit 77
        fi
    done
    if [ ! -f "$PLUGIN_SO" ] || [ ! -x "$SMESH" ]; then
        echo "FAIL: $PLUGIN_SO or $SMESH not built; configure with a Slurm source (contrib/setup-debian.sh) and run make"
        exit 1
    fi
}

# mesh_not_on SERIES REASON: on the Slurm series SERIES the test does not
# apply; say why and skip (exit 77).
mesh_not_on() {
    if [ "$mesh_series" = "$1" ]; then
        echo "SKIP: not applicable on Slurm ${1:0:2}.${1:2:2}: $2"
        exit 77
    fi
}

mesh_cleanup() {
    local d
    for d in "${clusters[@]}"; do
        "$CLUSTER" stop --dir "$d" >/dev/null 2>&1 || true
    done
    if [ "$nfail" -eq 0 ] && [ -z "${KEEP_LOGS:-}" ]; then
        rm -rf "$work"
    else
        echo "logs kept in $work"
    fi
}

# mesh_setup NAME: work dir, plugin installed by rename into it.
mesh_setup() {
    mesh_require_slurm
    work=$(mktemp -d "${TMPDIR:-/tmp}/slurm-mesh-$1.XXXXXX")
    mkdir -p "$work/plugins" "$work/jobs"
    local so
    for so in "$PLUGIN_SO" "$(dirname "$PLUGIN_SO")"/*.so; do
        [ -f "$so" ] || continue
        install -m 0755 "$so" "$work/plugins/.${so##*/}.$$"
        mv -f "$work/plugins/.${so##*/}.$$" "$work/plugins/${so##*/}"
    done
    trap mesh_cleanup EXIT
    trap 'exit 1' INT TERM
}

# cluster_start DIR [cluster.sh start options]; sets conf for sl().
cluster_start() {
    local d=$1
    shift
    clusters+=("$d")
    conf="$d/etc/slurm.conf"
    "$CLUSTER" start --dir "$d" --mesh 4x4 --plugin-dir "$work/plugins" \
        --timeout 30 "$@"
}

sl() { SLURM_CONF=$conf timeout 30 "$@"; }

# Clusters side by side (a select/mesh one and a stock selector's):
# start_bg DIR [cluster_start options] for each, then wait_started.  The
# EXIT trap stops them; wait_started fails (and says which) unless all
# came up.
bg_pids=()
bg_dirs=()
start_bg() {
    local d=$1
    clusters+=("$d")
    cluster_start "$@" >"$d.start" 2>&1 &
    bg_pids+=("$!")
    bg_dirs+=("$d")
}
wait_started() {
    local i rc=0
    for i in "${!bg_pids[@]}"; do
        if ! wait "${bg_pids[$i]}"; then
            fail "${bg_dirs[$i]##*/}: cluster start"
            tail -n 20 "${bg_dirs[$i]}.start"
            rc=1
        fi
    done
    bg_pids=()
    bg_dirs=()
    return $rc
}

# The same on a given cluster DIR: a client command, a job's field, a wait
# until jobs run.
on() { local d=$1; shift; SLURM_CONF=$d/etc/slurm.conf timeout 30 "$@"; }
field_on() {   # dir jobid field
    on "$1" scontrol -o show job "$2" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$3=//p" | head -n 1
}
wait_run_on() {   # dir secs jobid...: 0 once all are RUNNING
    local d=$1 end=$((SECONDS + $2)) ids
    shift 2
    ids=$(IFS=,; echo "$*")
    # One squeue per round: a scontrol per job loads a busy slurmctld.
    until [ "$(on "$d" squeue -h -t R -o '%i' -j "$ids" 2>/dev/null | grep -c .)" -eq "$#" ]; do
        [ "$SECONDS" -lt "$end" ] || return 1
        sleep 0.5
    done
}
wait_idle_on() {   # dir nodes secs: 0 once that many nodes are idle
    local end=$(($3 + SECONDS))
    until [ "$(on "$1" sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | grep -c .)" -ge "$2" ]; do
        [ "$SECONDS" -lt "$end" ] || return 1
        sleep 0.5
    done
}

# Polls COMMAND every 0.5 s until it succeeds (0) or SECS pass (1): for
# events a loaded machine can delay, where a fixed sleep would flake.
wait_until() {   # secs command...
    local end=$((SECONDS + $1))
    shift
    until "$@"; do
        [ "$SECONDS" -lt "$end" ] || return 1
        sleep 0.5
    done
}

submit() {   # sbatch args...; prints the job id
    (cd "$work/jobs" && sl sbatch --parsable -o /dev/null "$@" | cut -d';' -f1)
}

job_field() {   # jobid field
    sl scontrol -o show job "$1" 2>/dev/null | tr ' ' '\n' \
        | sed -n "s/^$2=//p" | head -n 1
}

# SystemComment runs to the end of its value, which may contain blanks.
job_comment() {
    sl scontrol -o show job "$1" 2>/dev/null \
        | sed -n 's/.*SystemComment=\(mesh:v1[^=]*=[^ ]* [^ ]* [^ ]* [^ ]* [^ ]*\).*/\1/p'
}

wait_state() {   # jobid state secs
    local end=$((SECONDS + $3)) st
    while :; do
        st=$(job_field "$1" JobState)
        [ "$st" != "$2" ] || return 0
        [ "$SECONDS" -lt "$end" ] || { echo "  job $1 is '$st', wanted $2"; return 1; }
        sleep 0.5
    done
}

hosts() { sl scontrol show hostnames "$1" 2>/dev/null | sort; }

# "x y" of each node of a nodelist on a 4-wide mesh (nN at N % 4, N / 4).
mesh4_coords() { hosts "$1" | sed 's/^n//' | awk '{print $1 % 4, int($1 / 4)}'; }

# True if the nodelist's 4 nodes form a 2x2 box of the 4-wide mesh.
mesh4_is_square() {
    mesh4_coords "$1" | awk '
        { n++; if (NR == 1 || $1 < x0) x0 = $1; if (NR == 1 || $1 > x1) x1 = $1
          if (NR == 1 || $2 < y0) y0 = $2; if (NR == 1 || $2 > y1) y1 = $2 }
        END { exit !(n == 4 && x1 - x0 == 1 && y1 - y0 == 1) }'
}

# Nodes of all RUNNING jobs, one "node jobid" per line.
running_nodes() {
    local j nl
    for j in $(sl squeue -h -t R -o '%i'); do
        nl=$(job_field "$j" NodeList)
        hosts "$nl" | sed "s/\$/ $j/"
    done
}

# True if no node is held by two running jobs.
no_overlap() {
    local dup
    dup=$(running_nodes | awk '{print $1}' | sort | uniq -d)
    [ -z "$dup" ] || { echo "  nodes held twice: $dup"; return 1; }
}

# grep -q, for pipes: grep -q exits at its first match, and under pipefail
# the writer's SIGPIPE would then fail the pipeline.
matches() { grep "$@" >/dev/null; }

ctld_alive() { sl scontrol ping 2>/dev/null | matches 'is UP'; }

mesh_finish() {
    echo "$npass passed, $nfail failed"
    [ "$nfail" -eq 0 ]
}
