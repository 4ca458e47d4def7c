#!/usr/bin/env bash
# cluster.sh - a throw-away local Slurm cluster (one slurmctld, N slurmd's
# via Slurm's multiple-slurmd mode, a private munged) on loopback.
#
# Usage:
#   cluster.sh start --dir DIR --mesh WxH[xD] [options]
#       --dir DIR              the cluster's directory (every command)
#       --mesh WxH[xD]         the mesh: one slurmd per node
#       --select TYPE          SelectType (default select/mesh)
#       --allocator NAME       Allocator= in the generated mesh.conf (mc1x1)
#       --plugin-dir DIR       extra PluginDir entry (our built plugins)
#       --mesh-conf FILE       use FILE as DIR/etc/mesh.conf instead of
#                              generating one
#       --extra-slurm-conf L   append/override a slurm.conf line (repeatable;
#                              a simple Key=Value replaces the default Key)
#       --port-base N          first TCP port (default: auto, see README)
#       --timeout SECS         bound for every wait (default 30; the wait
#                              for all nodes idle gets 1 s more per 8 nodes)
#       --batch N              start the slurmd's N at a time (default 64)
#       --keep-state           do not wipe DIR/state (recover old jobs)
#       --ctld-daemon          run slurmctld as a daemon (its own fork, no
#                              -D), as sites do: since Slurm 23.11 a failed
#                              reconfigure then leaves the old process
#                              running; its pid follows SlurmctldPidFile
#       --accounting           real accounting: MariaDB and slurmdbd
#                              (accounting.sh), started before slurmctld
#       --daemon-env K=V       set K=V for slurmctld and the slurmd's only
#                              (repeatable; e.g. libfaketime's LD_PRELOAD)
#       --munged-env K=V       set K=V for munged only (repeatable)
#       --gres NAME[:TYPE]:N   N of GRES NAME on every node (repeatable, or
#                              comma list): Gres= on the nodes, GresTypes=,
#                              a Count-only DIR/etc/gres.conf line; gpu gets
#                              File= links to /dev/null (22.05's slurmd drops
#                              a GPU without File=)
#       --gres-conf FILE       use FILE as DIR/etc/gres.conf instead
#       --node-params P        the nodes' resources (default "CPUs=1
#                              RealMemory=1000"; with more CPUs than the
#                              host has, add SlurmdParameters=config_overrides)
#   cluster.sh stop --dir DIR          stop everything recorded in DIR/run/pids
#   cluster.sh restart-ctld --dir DIR  restart only slurmctld (keeps state)
#   cluster.sh env --dir DIR           print 'export SLURM_CONF=...' lines
#   cluster.sh status --dir DIR        show recorded daemons and sinfo
#   cluster.sh -h, --help              this help
#   cluster.sh -V, --version           the source revision
#
# Every port comes from one reservation (ports.sh): slurmctld on the
# block's first port, the slurmds after it, with --accounting MariaDB and
# slurmdbd on the last two.
# The daemons inherit cluster.sh's environment, so variables a plugin reads
# can be set before 'start'. Exit status: 0 ok, 1 failure, 2 usage error.
set -euo pipefail

# Debian's real binaries are /usr/sbin/*-wlm (the plain names are
# alternatives that slurm-wlm-emulator can switch); a Slurm without the
# -wlm names (not Debian's) falls back to the plain one.
pick_sbin() {   # name
    if [ -x "/usr/sbin/$1-wlm" ]; then echo "/usr/sbin/$1-wlm"; else echo "/usr/sbin/$1"; fi
}
SLURMCTLD=${SLURMCTLD:-$(pick_sbin slurmctld)}
SLURMD=${SLURMD:-$(pick_sbin slurmd)}
SLURMSTEPD=${SLURMSTEPD:-$(pick_sbin slurmstepd)}
MUNGED=${MUNGED:-/usr/sbin/munged}
DEBIAN_PLUGIN_DIR=/usr/lib/x86_64-linux-gnu/slurm-wlm

prog=${0##*/}
here=$(dirname "$(realpath "$0")")
MESH_LIB='@MESH_LIBEXECDIR@'   # set by make install
case $MESH_LIB in @*) MESH_LIB=$here/../lib ;; esac
# shellcheck source=../lib/meshcli.sh
. "$MESH_LIB/meshcli.sh"
# shellcheck source=ports.sh
. "$here/ports.sh"
log() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() { printf '%s: ERROR: %s\n' "$prog" "$*" >&2; exit 1; }
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }
val() { [ $# -ge 2 ] || usage_die "option '$1' needs a value"; }

# ---------------------------------------------------------------- options
cmd=""
dir=""
mesh=""
select_type="select/mesh"
allocator="mc1x1"
plugin_dir=""
mesh_conf_src=""
port_base=""
timeout_s=30
batch=64
keep_state=0
ctld_daemon=0
accounting=0
extra_conf=()
daemon_env=()
munged_env=()
gres_specs=()
gres_conf_src=""
node_params="CPUs=1 RealMemory=1000"

parse_args() {
    local a
    for a in "$@"; do
        case "$a" in
            -h|--help|help) usage; exit 0 ;;
            -V|--version) mesh_version; exit 0 ;;
        esac
    done
    [ $# -gt 0 ] || usage_die "missing command (start, stop, restart-ctld, env or status)"
    case "$1" in
        -*) usage_die "unknown option '$1'" ;;
    esac
    cmd=$1
    shift
    while [ $# -gt 0 ]; do
        case "$1" in
            --dir) val "$@"; dir=$2; shift ;;
            --mesh) val "$@"; mesh=$2; shift ;;
            --select) val "$@"; select_type=$2; shift ;;
            --allocator) val "$@"; allocator=$2; shift ;;
            --plugin-dir) val "$@"; plugin_dir=$2; shift ;;
            --mesh-conf) val "$@"; mesh_conf_src=$2; shift ;;
            --extra-slurm-conf) val "$@"; extra_conf+=("$2"); shift ;;
            --port-base) val "$@"; port_base=$2; shift ;;
            --timeout) val "$@"; timeout_s=$2; shift ;;
            --batch) val "$@"; batch=$2; shift ;;
            --keep-state) keep_state=1 ;;
            --ctld-daemon) ctld_daemon=1 ;;
            --accounting) accounting=1 ;;
            --daemon-env|--munged-env)
                case "${2:-}" in
                    [A-Za-z_]*=*) ;;
                    *) usage_die "$1 needs NAME=VALUE, got '${2:-}'" ;;
                esac
                if [ "$1" = --daemon-env ]; then daemon_env+=("$2"); else munged_env+=("$2"); fi
                shift ;;
            --gres)
                local g
                val "$@"
                IFS=, read -ra g <<<"$2"
                gres_specs+=("${g[@]}"); shift ;;
            --gres-conf) val "$@"; gres_conf_src=$2; shift ;;
            --node-params) val "$@"; node_params=$2; shift ;;
            -*) usage_die "unknown option '$1'" ;;
            *) usage_die "unexpected argument '$1'" ;;
        esac
        shift
    done
    [ -n "$dir" ] || usage_die "--dir is required"
    case "$timeout_s" in ''|*[!0-9]*) usage_die "--timeout must be a number" ;; esac
    case "$batch" in ''|0|*[!0-9]*) usage_die "--batch must be a positive number" ;; esac
    if [ "$cmd" = start ]; then
        mkdir -p "$dir" || die "cannot create $dir"
    fi
    [ -d "$dir" ] || die "$dir does not exist"
    dir=$(cd "$dir" && pwd -P)
}

# ------------------------------------------------------------- utilities
pids_file() { printf '%s/run/pids' "$dir"; }
conf_file() { printf '%s/etc/slurm.conf' "$dir"; }

# True if PID is a live (non-zombie) process whose command name contains
# WANT (guards against PID reuse).
# No subshells: stop and the waits call this for every slurmd (512+).
pid_alive() {
    local pid=$1 want=${2:-} stat comm argv
    [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || return 1
    read -r stat 2>/dev/null <"/proc/$pid/stat" || return 1
    comm=${stat#*(}; comm=${comm%)*}
    stat=${stat##*) }
    [ "${stat%% *}" != Z ] || return 1
    [ -z "$want" ] && return 0
    case "$comm" in *"$want"*) return 0 ;; esac
    # comm is truncated to 15 chars; fall back to argv[0].
    argv=()
    mapfile -d '' argv 2>/dev/null <"/proc/$pid/cmdline" || true
    case "${argv[*]}" in
        *"$want"*) return 0 ;;
    esac
    return 1
}

# Read DIR/run/pids ("name pid" per line) into parallel arrays.
rec_names=()
rec_pids=()
load_pids() {
    rec_names=(); rec_pids=()
    local f name pid
    f=$(pids_file)
    [ -f "$f" ] || return 0
    while read -r name pid; do
        if [ -z "${name:-}" ] || [ -z "${pid:-}" ]; then continue; fi
        rec_names+=("$name"); rec_pids+=("$pid")
    done <"$f"
}

record_pid() {   # name pid
    printf '%s %s\n' "$1" "$2" >>"$(pids_file)"
}

drop_pid_record() {   # name
    local f tmp
    f=$(pids_file)
    [ -f "$f" ] || return 0
    tmp="$f.tmp.$$"
    awk -v n="$1" '$1 != n' "$f" >"$tmp" || true
    mv -f "$tmp" "$f"
}

# Binary name a record should match (for pid_alive's reuse check).
want_for() {
    case "$1" in
        munged) echo munged ;;
        slurmctld) echo slurmctld ;;
        slurmd-*) echo slurmd ;;
        *) echo "" ;;
    esac
}

# Number of nodes for a mesh spec like 4x4, 4x4x2, 4tx4t.
mesh_node_count() {
    local spec=$1 n=1 d IFS=x
    # shellcheck disable=SC2206  # intentional split on 'x'
    local dims=($spec)
    [ "${#dims[@]}" -ge 1 ] && [ "${#dims[@]}" -le 3 ] || return 1
    for d in "${dims[@]}"; do
        d=${d%t}
        case "$d" in ''|*[!0-9]*) return 1 ;; esac
        [ "$d" -ge 1 ] || return 1
        n=$((n * d))
    done
    echo "$n"
}

# Run a Slurm client with a bounded time and our config.
sl() { SLURM_CONF=$(conf_file) timeout 10 "$@"; }

ctld_pings() {
    sl scontrol ping 2>/dev/null | grep 'is UP' >/dev/null
}

tail_ctld_log() {
    local f="$dir/log/slurmctld.log"
    {
        echo "----- tail of $f -----"
        if [ -s "$f" ]; then tail -n 40 "$f"; else echo "(empty)"; fi
        # Fatal config errors happen before the log file is opened.
        if [ ! -s "$f" ] && [ -s "$dir/log/slurmctld.stdout" ]; then
            echo "----- tail of $dir/log/slurmctld.stdout -----"
            tail -n 20 "$dir/log/slurmctld.stdout"
        fi
        echo "-----"
    } >&2
}

# -------------------------------------------------------------- stopping
# Send SIG to PID and every process in the session PID leads (slurmstepd's
# and job tasks started by a slurmd run under setsid keep its session).
# One ps for all sessions: with 512 slurmds a ps per session took minutes.
session_members() {   # comm-regex sid...
    local re=$1
    shift
    [ $# -gt 0 ] || return 0
    ps -e -o pid= -o sid= -o comm= 2>/dev/null \
        | awk -v list="$*" -v re="$re" '
            BEGIN {n = split(list, a, " "); for (i = 1; i <= n; i++) want[a[i]] = 1}
            ($2 in want) && $1 != $2 && $3 ~ re {print $1}'
}

# slurmstepd calls setsid(), so steps and their tasks leave slurmd's
# session. Find our stepds and print "pid sid" for each (the tasks share
# the session under proctrack/pgid). A stepd is ours if it inherited
# SLURM_CONF=<our slurm.conf> from slurmd (22.05) or holds a descriptor of
# a file in DIR (its SlurmdLogFile, DIR/log/slurmd-nX.log): 24.11's
# slurmstepd overwrites its environment with its process title
# ("slurmstepd: [3.batch]"), so /proc/PID/environ reads blank there.
stepd_sessions() {
    local conf pid sid st comm cand=() fds=() ours=" " f
    conf=$(conf_file)
    while read -r pid sid st comm; do
        case "$st" in Z*) continue ;; esac
        case "$comm" in slurmstepd*) ;; *) continue ;; esac
        cand+=("$pid $sid")
        if tr '\0' '\n' 2>/dev/null <"/proc/$pid/environ" \
                | grep -xF "SLURM_CONF=$conf" >/dev/null; then
            ours+="$pid "
        else
            fds+=("/proc/$pid/fd")
        fi
    done < <(ps -e -o pid= -o sid= -o stat= -o comm= 2>/dev/null)
    # One find for all the remaining stepds' descriptors.  Inside the
    # trixie chroot (contrib/trixie/run.sh sets SLURM_MESH_PORT_ROOT to
    # its root) a stepd started from another run.sh call is in another
    # mount namespace, and its links read with the host's prefix.
    if [ "${#fds[@]}" -gt 0 ]; then
        local alt=()
        [ -z "${SLURM_MESH_PORT_ROOT:-}" ] \
            || alt=(-o -lname "${SLURM_MESH_PORT_ROOT%/}$dir/*")
        while read -r f; do
            f=${f#/proc/}; ours+="${f%%/*} "
        done < <(find "${fds[@]}" -mindepth 1 -maxdepth 1 \( -lname "$dir/*" "${alt[@]}" \) 2>/dev/null)
    fi
    for f in "${cand[@]}"; do
        case "$ours" in *" ${f%% *} "*) echo "$f" ;; esac
    done
}

# Job tasks of this cluster that no stepd session covers any more (24.11:
# a batch script or step task can outlive its slurmstepd and slurmd): live
# processes whose environment has SLURM_CONF=<our slurm.conf> and a
# SLURM_JOB_ID, except this script and its ancestors.
job_task_pids() {
    local conf p anc=" " f
    conf=$(conf_file)
    p=$$
    while [ -n "$p" ] && [ "$p" != 0 ]; do
        anc+="$p "
        read -r f 2>/dev/null <"/proc/$p/stat" || break
        f=${f##*) }          # after "(comm) ": state ppid ...
        read -r _ p _ <<<"$f"
    done
    grep -lzxF "SLURM_CONF=$conf" /proc/[0-9]*/environ 2>/dev/null \
        | xargs -r grep -lz '^SLURM_JOB_ID=' 2>/dev/null \
        | while read -r f; do
            f=${f#/proc/}; f=${f%/environ}
            case "$anc" in *" $f "*) continue ;; esac
            pid_alive "$f" && echo "$f"
        done
}

wait_gone() {   # timeout pid...
    local t=$1 end p any
    shift
    end=$((SECONDS + t))
    while :; do
        any=0
        for p in "$@"; do
            if pid_alive "$p"; then any=1; break; fi
        done
        [ "$any" -eq 1 ] || return 0
        [ "$SECONDS" -lt "$end" ] || return 1
        sleep 0.2
    done
}

# Stop the named records (all if none given): TERM, bounded wait, KILL.
stop_records() {
    local names=("$@") i n pid want targets=() members=() sids=() m
    local stepds=() sid dead_sids=()
    load_pids
    for i in "${!rec_names[@]}"; do
        n=${rec_names[$i]}; pid=${rec_pids[$i]}
        if [ "${#names[@]}" -gt 0 ]; then
            case " ${names[*]} " in *" $n "*) ;; *) continue ;; esac
        fi
        want=$(want_for "$n")
        if pid_alive "$pid" "$want"; then
            targets+=("$pid")
            sids+=("$pid")
        else
            # The PID may have been reused: only pick up our own leftovers.
            dead_sids+=("$pid")
        fi
    done
    # Sessions of our slurmstepd's (steps and job tasks) unless only
    # slurmctld is being stopped.
    if [ "${#names[@]}" -eq 0 ] || [ "${names[*]}" != slurmctld ]; then
        while read -r m sid; do
            [ -n "$m" ] || continue
            stepds+=("$m"); sids+=("$sid")
        done < <(stepd_sessions)
    fi
    # Members of those sessions and of the daemons' own sessions
    # (slurmscriptd), even if the daemon itself is already gone.
    while read -r m; do
        [ -n "$m" ] || continue
        case " ${stepds[*]} " in *" $m "*) continue ;; esac
        members+=("$m")
    done < <(session_members . "${sids[@]}")
    while read -r m; do
        [ -z "$m" ] || members+=("$m")
    done < <(session_members '^(slurm|munge)' "${dead_sids[@]}")
    # Job tasks outside every session found above (their stepd is gone).
    if [ "${#names[@]}" -eq 0 ] || [ "${names[*]}" != slurmctld ]; then
        while read -r m; do
            [ -n "$m" ] || continue
            case " ${members[*]} ${stepds[*]} " in *" $m "*) continue ;; esac
            members+=("$m")
        done < <(job_task_pids)
    fi
    # Job tasks and client helpers (srun inside a batch job keeps retrying
    # after TERM) get a short grace period; slurmstepd ignores TERM anyway.
    if [ "${#targets[@]}" -gt 0 ]; then
        kill -TERM "${targets[@]}" 2>/dev/null || true
    fi
    if [ "${#members[@]}" -gt 0 ]; then
        kill -TERM "${members[@]}" 2>/dev/null || true
    fi
    if [ "${#stepds[@]}" -gt 0 ]; then
        kill -KILL "${stepds[@]}" 2>/dev/null || true
    fi
    if ! wait_gone 2 "${members[@]}" "${stepds[@]}"; then
        for pid in "${members[@]}" "${stepds[@]}"; do
            if pid_alive "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
        done
    fi
    if ! wait_gone 15 "${targets[@]}"; then
        for pid in "${targets[@]}"; do
            if pid_alive "$pid"; then
                log "pid $pid did not exit on TERM, sending KILL"
                kill -KILL "$pid" 2>/dev/null || true
            fi
        done
    fi
    wait_gone 5 "${targets[@]}" "${members[@]}" "${stepds[@]}" \
        || log "WARNING: some processes survived KILL"
    return 0
}

cmd_stop() {
    local f
    f=$(pids_file)
    if [ ! -f "$f" ]; then
        # No daemons recorded, but steps and job tasks of this cluster may
        # have outlived them (24.11): end those.
        if [ -f "$(conf_file)" ]; then stop_records; fi
        log "nothing recorded in $f (already stopped)"
        return 0
    fi
    refresh_ctld_pid
    # slurmctld first (no node-down noise), then slurmds with their
    # stepds/tasks, munged last (stepds may still talk to it).
    stop_records slurmctld
    load_pids
    local n slurmds=()
    for n in "${rec_names[@]}"; do
        case "$n" in slurmd-*) slurmds+=("$n") ;; esac
    done
    [ "${#slurmds[@]}" -gt 0 ] && stop_records "${slurmds[@]}"
    stop_records
    rm -f "$f"
    release_ports "$dir" "$dir/acct"
    log "stopped cluster in $dir"
}

# -------------------------------------------------------------- starting
write_slurm_conf() {   # nnodes base
    local n=$1 base=$2 last host user nodes ports pdir
    last=$((n - 1))
    host=$(hostname -s 2>/dev/null || hostname)
    user=$(id -un)
    nodes="n[0-$last]"
    [ "$n" -gt 1 ] || nodes="n0"
    ports="[$((base + 1))-$((base + n))]"
    [ "$n" -gt 1 ] || ports="$((base + 1))"
    pdir=$DEBIAN_PLUGIN_DIR
    [ -z "$plugin_dir" ] || pdir="$pdir:$plugin_dir"

    local -a lines=(
        "# Generated by slurm-mesh contrib/slurm-local/cluster.sh; do not edit."
        "ClusterName=meshlocal"
        "SlurmctldHost=$host(127.0.0.1)"
        "SlurmctldPort=$base"
        "SlurmUser=$user"
        "SlurmdUser=$user"
        "AuthType=auth/munge"
        "CredType=cred/munge"
        "AuthInfo=socket=$dir/munge/munge.socket"
        "PluginDir=$pdir"
        "StateSaveLocation=$dir/state"
        "SlurmdSpoolDir=$dir/spool/%n"
        "SlurmctldPidFile=$dir/run/slurmctld.pid"
        "SlurmdPidFile=$dir/run/slurmd-%n.pid"
        "SlurmctldLogFile=$dir/log/slurmctld.log"
        "SlurmdLogFile=$dir/log/slurmd-%n.log"
        "SlurmctldDebug=debug"
        "SlurmdDebug=info"
        "DebugFlags=SelectType"
        "SelectType=$select_type"
        "SchedulerType=sched/backfill"
        "SchedulerParameters=bf_interval=1,sched_interval=2"
        "ProctrackType=proctrack/pgid"
        "TaskPlugin=task/none"
        "JobAcctGatherType=jobacct_gather/none"
        "AccountingStorageType=accounting_storage/none"
        "JobCompType=jobcomp/none"
        "MpiDefault=none"
        "SwitchType=switch/none"
        "ReturnToService=2"
        "MinJobAge=300"
        "KillWait=2"
        "MessageTimeout=10"
        "SlurmdTimeout=60"
        "InactiveLimit=0"
        "MailProg=/bin/true"
        "NodeName=DEFAULT $node_params State=UNKNOWN${gres_node:+ Gres=$gres_node}"
        "NodeName=$nodes NodeHostname=$host NodeAddr=127.0.0.1 Port=$ports"
        "PartitionName=mesh Nodes=$nodes Default=YES MaxTime=INFINITE State=UP OverSubscribe=EXCLUSIVE"
    )
    [ -z "$gres_types" ] || lines+=("GresTypes=$gres_types")
    # --extra-slurm-conf: a simple Key=Value replaces the same key; lines for
    # multi-record keys (NodeName, PartitionName, ...) are appended.
    local e key i lkey replaced
    for e in "${extra_conf[@]}"; do
        key=${e%%=*}
        key=$(printf '%s' "$key" | tr '[:upper:]' '[:lower:]' | tr -d ' ')
        replaced=0
        case "$key" in
            nodename|partitionname|nodeset|frontendname|downnodes|include|slurmctldhost) ;;
            *)
                for i in "${!lines[@]}"; do
                    lkey=${lines[$i]%%=*}
                    lkey=$(printf '%s' "$lkey" | tr '[:upper:]' '[:lower:]')
                    if [ "$lkey" = "$key" ]; then
                        lines[i]=$e; replaced=1
                    fi
                done
                ;;
        esac
        [ "$replaced" -eq 1 ] || lines+=("$e")
    done
    printf '%s\n' "${lines[@]}" >"$dir/etc/slurm.conf"
}

# --gres NAME[:TYPE]:N specs -> gres_node (the Gres= value of every node),
# gres_types (GresTypes=) and gres_lines (gres.conf, without NodeName=).
# Slurm 22.05's slurmd deletes every gpu record that has no File=
# (gres_g_node_config_load(): "Remove every GPU with an empty File"), so a
# gpu gets File= names DIR/dev/gpuK, links to /dev/null: character devices,
# as slurmd checks, that nothing opens (TaskPlugin=task/none, no cgroups).
gres_node=""
gres_types=""
gres_lines=()
parse_gres() {
    local spec name type cnt f nf files ngpu=0 IFS=:
    for spec in "${gres_specs[@]}"; do
        # shellcheck disable=SC2206  # intentional split on ':'
        f=($spec)
        nf=${#f[@]}
        name=${f[0]:-}; type=""; cnt=${f[$((nf - 1))]:-}
        [ "$nf" -ne 3 ] || type=${f[1]}
        if [ "$nf" -lt 2 ] || [ "$nf" -gt 3 ] ||
            ! [[ $name =~ ^[A-Za-z][A-Za-z0-9_]*$ ]] ||
            ! [[ $type =~ ^[A-Za-z0-9_.-]*$ ]] ||
            ! [[ $cnt =~ ^[1-9][0-9]{0,5}$ ]]; then
            usage_die "bad --gres '$spec' (want NAME[:TYPE]:COUNT, e.g. gpu:2 or nic:tcp:4)"
        fi
        gres_node+=${gres_node:+,}$spec
        case ",$gres_types," in
            *",$name,"*) ;;
            *) gres_types+=${gres_types:+,}$name ;;
        esac
        if [ "$name" = gpu ]; then
            [ $((ngpu + cnt)) -le 64 ] || usage_die "--gres: at most 64 gpu per node"
            files="gpu$ngpu-$((ngpu + cnt - 1))"
            [ "$cnt" -eq 1 ] || files="gpu[${files#gpu}]"
            [ "$cnt" -gt 1 ] || files="gpu$ngpu"
            gres_lines+=("Name=gpu${type:+ Type=$type} File=$dir/dev/$files")
            ngpu=$((ngpu + cnt))
        else
            gres_lines+=("Name=$name${type:+ Type=$type} Count=$cnt")
        fi
    done
    if [ "$ngpu" -gt 0 ]; then
        case "$dir" in *[][,\ ]*) usage_die "--gres gpu: --dir must not contain [ ] , \\ or blanks (File= list)" ;; esac
    fi
}

write_gres_conf() {   # nnodes
    local n=$1 nodes="n[0-$(($1 - 1))]" l k i
    [ "$n" -gt 1 ] || nodes="n0"
    rm -f "$dir/etc/gres.conf"
    rm -rf "${dir:?}/dev"
    if [ -n "$gres_conf_src" ]; then
        [ -r "$gres_conf_src" ] || die "--gres-conf $gres_conf_src not readable"
        cp -f "$gres_conf_src" "$dir/etc/gres.conf.tmp"
        mv -f "$dir/etc/gres.conf.tmp" "$dir/etc/gres.conf"
        return 0
    fi
    [ "${#gres_lines[@]}" -gt 0 ] || return 0
    for l in "${gres_lines[@]}"; do
        case "$l" in
            *" File=$dir/dev/gpu"*)
                mkdir -p "$dir/dev"
                # gpu[0-1] or gpu3 -> links gpu0, gpu1 / gpu3
                k=${l##*/dev/gpu}; k=${k#[}; k=${k%]}
                for ((i = ${k%-*}; i <= ${k#*-}; i++)); do
                    ln -sfn /dev/null "$dir/dev/gpu$i"
                done
                ;;
        esac
    done
    {
        echo "# Generated by slurm-mesh contrib/slurm-local/cluster.sh (--gres)"
        for l in "${gres_lines[@]}"; do echo "NodeName=$nodes $l"; done
    } >"$dir/etc/gres.conf"
}

# Major version of the installed slurmctld ("slurm-wlm 24.11.5" -> 24).
slurm_major() {
    local v
    v=$("$SLURMCTLD" -V 2>/dev/null | awk '{print $2}')
    v=${v%%.*}
    case "$v" in ''|*[!0-9]*) echo 0 ;; *) echo "$v" ;; esac
}

# cgroup.conf: since 23.02 slurmd initialises the cgroup plugin even with
# proctrack/pgid and task/none, and fails without a cgroup filesystem
# ("cgroup filesystem not mounted in /sys/fs/cgroup/"), e.g. in a chroot
# without /sys.  CgroupPlugin=disabled (23.02+) keeps it away.  22.05 with
# /sys/fs/cgroup gets no cgroup.conf, as before.
write_cgroup_conf() {
    rm -f "$dir/etc/cgroup.conf"
    if [ "$(slurm_major)" -ge 23 ] || [ ! -d /sys/fs/cgroup ]; then
        cat >"$dir/etc/cgroup.conf" <<EOF
# Generated by slurm-mesh contrib/slurm-local/cluster.sh: no cgroups
# (proctrack/pgid, task/none).
CgroupPlugin=disabled
EOF
    fi
}

write_mesh_conf() {   # nnodes
    local n=$1 nodes="n[0-$(($1 - 1))]"
    [ "$n" -gt 1 ] || nodes="n0"
    if [ -n "$mesh_conf_src" ]; then
        [ -r "$mesh_conf_src" ] || die "--mesh-conf $mesh_conf_src not readable"
        cp -f "$mesh_conf_src" "$dir/etc/mesh.conf.tmp"
        mv -f "$dir/etc/mesh.conf.tmp" "$dir/etc/mesh.conf"
        return 0
    fi
    cat >"$dir/etc/mesh.conf" <<EOF
# Generated by slurm-mesh contrib/slurm-local/cluster.sh
Dimensions=$mesh
Nodes=$nodes
Allocator=$allocator
EOF
}

# Start "$@" in the background in a new session, stdin from /dev/null,
# stdout+stderr appended to LOG, with no other inherited descriptors (so a
# caller capturing our output, e.g. x=$(cluster.sh start ...), never waits
# for the daemons). setsid and env exec in place, so $! is the daemon's PID.
spawned_pid=""
spawn() {   # log cmd...
    local logf=$1
    shift
    (
        for fd in /proc/"$BASHPID"/fd/*; do
            fd=${fd##*/}
            case "$fd" in ''|*[!0-9]*) continue ;; esac
            if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
        done
        exec setsid "$@" </dev/null >>"$logf" 2>&1
    ) &
    spawned_pid=$!
}

start_munged() {
    local m="$dir/munge" pid end
    mkdir -p "$m"
    chmod 0700 "$m"
    if [ ! -s "$m/munge.key" ]; then
        if ! mungekey --create --keyfile="$m/munge.key" >/dev/null 2>&1; then
            dd if=/dev/urandom of="$m/munge.key" bs=1024 count=1 status=none
        fi
    fi
    chmod 0600 "$m/munge.key"
    rm -f "$m/munge.socket" "$m/munge.socket.lock" "$m/munged.pid"
    spawn "$dir/log/munged.stdout" env "${munged_env[@]}" "$MUNGED" --foreground --force \
        --key-file="$m/munge.key" --socket="$m/munge.socket" \
        --pid-file="$m/munged.pid" --log-file="$dir/log/munged.log" \
        --seed-file="$m/munged.seed"
    pid=$spawned_pid
    record_pid munged "$pid"
    end=$((SECONDS + timeout_s))
    until munge -n -S "$m/munge.socket" 2>/dev/null \
            | unmunge -S "$m/munge.socket" >/dev/null 2>&1; do
        if ! pid_alive "$pid"; then
            tail -n 20 "$dir/log/munged.log" "$dir/log/munged.stdout" >&2 || true
            return 1
        fi
        [ "$SECONDS" -lt "$end" ] || { log "munged not answering"; return 1; }
        sleep 0.2
    done
}

# A daemonized slurmctld (--ctld-daemon, remembered in DIR/run/ctld-daemon)
# forks away from the process started, and a successful 23.11+
# reconfigure replaces it with a new process: its pid is the one in
# SlurmctldPidFile.  Record that one.
ctld_daemon_pid() {
    local p
    [ -f "$dir/run/ctld-daemon" ] && [ -r "$dir/run/slurmctld.pid" ] || return 1
    read -r p <"$dir/run/slurmctld.pid" 2>/dev/null || return 1
    pid_alive "$p" slurmctld || return 1
    echo "$p"
}

refresh_ctld_pid() {
    local p
    p=$(ctld_daemon_pid) || return 0
    drop_pid_record slurmctld
    record_pid slurmctld "$p"
}

start_slurmctld() {
    local pid end fg=-D
    # Slurm decides whether it runs inside the controller by its program
    # name (running_in_slurmctld()); Debian's binary is slurmctld-wlm, so
    # it is started through a link named slurmctld.  Otherwise, e.g., the
    # slurmdbd agent never keeps its connection and slurmctld crashes at
    # start-up with accounting.
    mkdir -p "$dir/run/bin"
    ln -sfn "$SLURMCTLD" "$dir/run/bin/slurmctld"
    if [ -f "$dir/run/ctld-daemon" ]; then
        fg=""
        rm -f "$dir/run/slurmctld.pid"
    fi
    spawn "$dir/log/slurmctld.stdout" \
        env "${daemon_env[@]}" SLURM_CONF="$(conf_file)" "$dir/run/bin/slurmctld" $fg
    pid=$spawned_pid
    drop_pid_record slurmctld
    record_pid slurmctld "$pid"
    end=$((SECONDS + timeout_s))
    while ! ctld_pings; do
        if [ -n "$fg" ] && ! pid_alive "$pid"; then
            log "slurmctld (pid $pid) exited during startup"
            return 1
        fi
        if [ "$SECONDS" -ge "$end" ]; then
            log "slurmctld did not answer 'scontrol ping' within ${timeout_s}s"
            return 1
        fi
        sleep 0.3
    done
    if [ -z "$fg" ]; then
        pid=$(ctld_daemon_pid) || { log "slurmctld answers but wrote no live pid to $dir/run/slurmctld.pid"; return 1; }
        drop_pid_record slurmctld
        record_pid slurmctld "$pid"
    fi
}

# Slurm takes its program name from argv[0] (log_init) and decides by it
# whether code runs in slurmd (running_in_slurmd(), run_in_daemon()).
# Started as slurmd-wlm, slurmd drops the Gres= of its node's slurm.conf
# line (node_conf.c: config_ptr->gres is set only "in slurmctld,slurmd"),
# so every gres.conf count is "more configured than expected", it registers
# 0 and slurmctld sets the node INVAL.  Likewise slurmd execs the stepd as
# -d gives it, and slurmstepd-wlm is not running_in_slurmstepd().  So both
# run through links with the real names, as slurmctld does.
# The slurmds start in batches of --batch: each batch is started, then
# waited for until every one of them has written its pid file (it has
# opened its port and is about to register) or died. On 2 cores, 512
# slurmds started at once starve slurmctld, which then answers the
# registrations only after many retries.
start_slurmds() {   # nnodes
    local n=$1 i j pid end conf pids=()
    conf=$(conf_file)
    mkdir -p "$dir/run/bin"
    ln -sfn "$SLURMD" "$dir/run/bin/slurmd"
    ln -sfn "$SLURMSTEPD" "$dir/run/bin/slurmstepd"
    for ((i = 0; i < n; i++)); do
        mkdir -p "$dir/spool/n$i"
        spawn "$dir/log/slurmd-n$i.stdout" \
            env "${daemon_env[@]}" SLURM_CONF="$conf" "$dir/run/bin/slurmd" -D \
            -d "$dir/run/bin/slurmstepd" -N "n$i"
        pid=$spawned_pid
        pids[i]=$pid
        record_pid "slurmd-n$i" "$pid"
        if [ $(((i + 1) % batch)) -ne 0 ] && [ $((i + 1)) -ne "$n" ]; then
            continue
        fi
        end=$((SECONDS + timeout_s))
        for ((j = i + 1 - ((i % batch) + 1); j <= i; j++)); do
            while [ ! -s "$dir/run/slurmd-n$j.pid" ]; do
                # No name check: until the child has exec'd, it is a
                # copy of this script (comm bash), and under load the
                # check can come first (a false "exited" in CI).
                if ! pid_alive "${pids[j]}"; then
                    log "slurmd n$j (pid ${pids[j]}) exited during startup:"
                    tail -n 5 "$dir/log/slurmd-n$j.log" "$dir/log/slurmd-n$j.stdout" >&2 2>/dev/null || true
                    return 1
                fi
                if [ "$SECONDS" -ge "$end" ]; then
                    log "slurmd n$j did not write its pid file within ${timeout_s}s"
                    return 1
                fi
                sleep 0.1
            done
        done
        [ "$n" -le "$batch" ] || log "$((i + 1)) of $n slurmd's started"
    done
}

# Wait until sinfo reports all N nodes idle.
wait_idle() {   # nnodes
    local n=$1 end idle i ctld_pid
    end=$((SECONDS + timeout_s + n / 8))
    while :; do
        idle=$(sl sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | grep -c . || true)
        [ "$idle" -lt "$n" ] || return 0
        load_pids
        for i in "${!rec_names[@]}"; do
            if [ "${rec_names[$i]}" = slurmctld ]; then ctld_pid=${rec_pids[$i]}; fi
        done
        if ! pid_alive "${ctld_pid:-}" slurmctld; then
            log "slurmctld exited while waiting for nodes"
            return 1
        fi
        if [ "$SECONDS" -ge "$end" ]; then
            log "only $idle of $n nodes idle after $((timeout_s + n / 8))s:"
            sl sinfo -N -o '%N %T %E' 2>&1 | head -n 40 >&2 || true
            return 1
        fi
        sleep 0.5
    done
}

already_running() {
    local i
    load_pids
    for i in "${!rec_names[@]}"; do
        if pid_alive "${rec_pids[$i]}" "$(want_for "${rec_names[$i]}")"; then
            return 0
        fi
    done
    return 1
}

# INT or TERM during start: stop every daemon started so far (each is
# recorded in DIR/run/pids right after it is spawned; one spawned but not
# yet recorded is spawned_pid), so an interrupted start leaves nothing
# behind.  Bash runs the trap once the current foreground command (a
# sleep, a bounded scontrol ping) returns.
interrupted_start() {
    trap '' INT TERM
    log "interrupted during start; stopping what was started in $dir"
    if [ -n "$spawned_pid" ] && pid_alive "$spawned_pid"; then
        kill -TERM "$spawned_pid" 2>/dev/null || true
    fi
    cmd_stop >/dev/null 2>&1 || true
    exit 130
}

fail_start() {
    tail_ctld_log
    log "start failed; stopping everything"
    cmd_stop >/dev/null 2>&1 || true
    exit 1
}

cmd_start() {
    local n base t0
    t0=$SECONDS
    [ -n "$mesh" ] || usage_die "start needs --mesh WxH[xD]"
    n=$(mesh_node_count "$mesh") || usage_die "bad --mesh '$mesh' (want e.g. 4x4, 4x4x2, 4tx4t)"
    [ "$n" -le 4096 ] || usage_die "mesh too large ($n nodes)"
    parse_gres
    local b
    for b in "$SLURMCTLD" "$SLURMD" "$SLURMSTEPD" "$MUNGED"; do
        [ -x "$b" ] || die "$b not found (run contrib/setup-debian.sh)"
    done
    if [ -n "$plugin_dir" ]; then
        [ -d "$plugin_dir" ] || die "--plugin-dir $plugin_dir is not a directory"
        plugin_dir=$(cd "$plugin_dir" && pwd -P)
    fi
    if already_running; then
        die "a cluster is already running in $dir (run '$prog stop --dir $dir')"
    fi
    # Every daemon raises its soft descriptor limit to the hard one; slurmctld
    # holds a few per node while it fans out RPCs (agent threads).
    local hard
    hard=$(ulimit -Hn)
    if [ "$hard" != unlimited ] && [ "$hard" -lt $((4 * n + 1024)) ]; then
        log "WARNING: open-file hard limit $hard is low for $n nodes (want >= $((4 * n + 1024)))"
    fi

    mkdir -p "$dir"/{etc,state,spool,log,run,munge}
    rm -f "$(pids_file)" "$dir"/run/*.pid "$dir/run/ctld-daemon"
    [ "$ctld_daemon" -eq 0 ] || : >"$dir/run/ctld-daemon"
    rm -f "$dir"/log/*.log "$dir"/log/*.stdout
    [ "$keep_state" -eq 1 ] || rm -rf "${dir:?}/state" "${dir:?}/spool"
    mkdir -p "$dir/state" "$dir/spool"
    trap interrupted_start INT TERM

    # One block for every daemon: slurmctld on base, the slurmds on
    # base+1..base+n, with accounting MariaDB and slurmdbd on base+n+1 and
    # base+n+2.
    local nports=$((n + 2 * accounting))
    case "$port_base" in *[!0-9]*) usage_die "--port-base must be a number" ;; esac
    base=$(reserve_ports "$dir" "$nports" "$port_base") || exit 1
    echo "$base" >"$dir/run/port_base"
    echo "$nports" >"$dir/run/port_count"
    if [ "$accounting" -eq 1 ]; then
        [ "$keep_state" -eq 1 ] || rm -rf "${dir:?}/acct"
        local line acct_lines
        acct_lines=$("$here/accounting.sh" prepare --dir "$dir" \
            --ports "$((base + n + 1)),$((base + n + 2))") \
            || die "accounting.sh prepare failed"
        while read -r line; do
            extra_conf+=("$line")
        done <<<"$acct_lines"
    fi
    write_slurm_conf "$n" "$base"
    write_mesh_conf "$n"
    write_gres_conf "$n"
    write_cgroup_conf

    log "starting munged"
    start_munged || fail_start
    if [ "$accounting" -eq 1 ]; then
        log "starting MariaDB and slurmdbd"
        "$here/accounting.sh" start --dir "$dir" \
            --timeout "$timeout_s" || fail_start
    fi
    log "starting slurmctld ($select_type, port $base)"
    start_slurmctld || fail_start
    log "starting $n slurmd's (ports $((base + 1))-$((base + n)))"
    start_slurmds "$n" || fail_start
    wait_idle "$n" || fail_start
    trap - INT TERM
    log "cluster up in $((SECONDS - t0))s: $n nodes idle; SLURM_CONF=$(conf_file)"
}

# Wait until no node is UNKNOWN or not responding ('*'): after a restart
# slurmctld knows node states only once every slurmd has re-registered.
wait_registered() {
    local end bad n
    n=$(sl sinfo -h -N -o '%N' 2>/dev/null | grep -c . || true)
    end=$((SECONDS + timeout_s + n / 8))
    while :; do
        bad=$(sl sinfo -h -N -o '%N %T' 2>/dev/null \
            | awk 'BEGIN {b = 0; n = 0} {n++; if ($2 ~ /unknown|\*$/) b++}
                   END {print (n == 0) ? -1 : b}')
        [ "$bad" != 0 ] || return 0
        if [ "$SECONDS" -ge "$end" ]; then
            log "nodes not all registered after $((timeout_s + n / 8))s:"
            sl sinfo -N -o '%N %T %E' 2>&1 | head -n 40 >&2 || true
            return 1
        fi
        sleep 0.5
    done
}

cmd_restart_ctld() {
    [ -f "$(conf_file)" ] || die "no cluster configured in $dir"
    local t0=$SECONDS
    refresh_ctld_pid
    stop_records slurmctld
    drop_pid_record slurmctld
    log "restarting slurmctld"
    if ! start_slurmctld; then
        tail_ctld_log
        stop_records slurmctld
        drop_pid_record slurmctld
        exit 1
    fi
    wait_registered || exit 1
    log "slurmctld back up in $((SECONDS - t0))s, all nodes registered"
}

cmd_env() {
    [ -f "$(conf_file)" ] || die "no cluster configured in $dir"
    printf 'export SLURM_CONF=%q\n' "$(conf_file)"
    printf 'export SLURM_MESH_CLUSTER_DIR=%q\n' "$dir"
}

cmd_status() {
    local i rc=0 st
    refresh_ctld_pid
    load_pids
    if [ "${#rec_names[@]}" -eq 0 ]; then
        echo "no daemons recorded in $(pids_file)"
        return 1
    fi
    for i in "${!rec_names[@]}"; do
        if pid_alive "${rec_pids[$i]}" "$(want_for "${rec_names[$i]}")"; then
            st=running
        else
            st=DEAD; rc=1
        fi
        printf '%-12s %7s %s\n' "${rec_names[$i]}" "${rec_pids[$i]}" "$st"
    done
    sl sinfo 2>&1 || rc=1
    return "$rc"
}

main() {
    parse_args "$@"
    case "$cmd" in
        start) cmd_start ;;
        stop) cmd_stop ;;
        restart-ctld) cmd_restart_ctld ;;
        env) cmd_env ;;
        status) cmd_status ;;
        *) usage_die "unknown command: $cmd" ;;
    esac
}

main "$@"
