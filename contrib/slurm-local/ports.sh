# ports.sh - TCP port reservations of the slurm-local harness, sourced by
# cluster.sh and accounting.sh: every port the harness gives a daemon
# (slurmctld, the slurmds, MariaDB, slurmdbd) comes from one reservation
# made under one lock.
#
# A reservation is a block of ports base..base+count that nothing listens
# on and no other live reservation overlaps, recorded as the file
# $port_locks/BASE holding "OWNER COUNT", where OWNER is the directory of
# the cluster (or DIR/acct for accounting.sh prepare on its own).  Two
# harnesses starting at once never pick the same ports, also when their
# directories hash to the same block.  A reservation is dropped when its
# owner directory is gone, after 10 minutes (the daemons listen by then,
# which keeps their ports busy), or when its cluster stops.
#
# Inside a chroot that shares the lock directory with the host (e.g.
# contrib/trixie/run.sh, which bind-mounts it and sets
# SLURM_MESH_PORT_ROOT to the chroot's root as the host sees it), owners
# are recorded in host terms (SLURM_MESH_PORT_ROOT + DIR), so the host
# sees them as live directories.  The chroot cannot see the host's owner
# directories: an owner outside SLURM_MESH_PORT_ROOT is kept while its
# reservation is younger than 10 minutes.  Unset (the default), nothing
# changes.
# Needs: die, log.
# shellcheck shell=bash
port_locks=${SLURM_MESH_PORT_LOCKS:-/tmp/slurm-mesh-ports}
port_root=${SLURM_MESH_PORT_ROOT:-}
port_root=${port_root%/}

# The owner as recorded in a reservation file.
port_owner() {   # dir
    printf '%s%s' "$port_root" "$1"
}

# True while a recorded owner is live as far as this side can tell.
port_owner_alive() {   # recorded-owner reservation-file
    local d=$1
    if [ -n "$port_root" ]; then
        case "$d" in
            "$port_root"/*) d=${d#"$port_root"} ;;
            *) d="" ;;          # the host's: invisible from here
        esac
    fi
    [ -z "$d" ] || [ -d "$d" ] || return 1
    [ -n "$(find "$2" -mmin -10 2>/dev/null)" ]
}

# Ports currently in LISTEN state on this host.
listening_ports() {
    if command -v ss >/dev/null 2>&1; then
        ss -Htln 2>/dev/null | awk '{n=split($4,a,":"); print a[n]}'
    else
        local f
        for f in /proc/net/tcp /proc/net/tcp6; do
            [ -r "$f" ] || continue
            awk 'NR > 1 && $4 == "0A" {split($2,a,":"); print strtonum("0x" a[2])}' "$f"
        done
    fi
}

# "BASE COUNT" of every live reservation of another owner than $1.
port_reservations() {   # owner
    local f owner count me
    me=$(port_owner "$1")
    for f in "$port_locks"/[0-9]*; do
        [ -e "$f" ] || continue
        read -r owner count <"$f" 2>/dev/null || continue
        if [ "$owner" = "$me" ]; then
            continue
        elif port_owner_alive "$owner" "$f"; then
            echo "${f##*/} ${count:-0}"
        else
            rm -f "$f"
        fi
    done
}

# Reserve base..base+count for owner and print base.  Without a fixed
# base, the search starts from a block derived from the owner's name (so
# that owners tend not to collide) and stays below the ephemeral range
# (32768+); with one, only that block is tried.
reserve_ports() {   # owner count [fixed-base]
    local owner=$1 count=$2 fixed=${3:-} start base p busy listening r rbase rcount
    mkdir -p "$port_locks"
    exec 9>"$port_locks/.lock"
    flock -w 30 9 || log "WARNING: no lock on $port_locks/.lock after 30 s; choosing ports without it"
    listening=" $(listening_ports | sort -un | tr '\n' ' ') "
    r=$(port_reservations "$owner")
    if [ -n "$fixed" ]; then
        start=$fixed
    elif [ -n "${SLURM_MESH_PORT_BASE:-}" ]; then
        start=$SLURM_MESH_PORT_BASE
    else
        start=$(( 20000 + ($(printf '%s' "$owner" | cksum | cut -d' ' -f1) % 100) * 100 ))
    fi
    base=$start
    while :; do
        busy=0
        for ((p = base; p <= base + count; p++)); do
            case "$listening" in *" $p "*) busy=1; break ;; esac
        done
        while [ "$busy" -eq 0 ] && read -r rbase rcount; do
            [ -n "$rbase" ] || continue
            [ "$base" -gt $((rbase + rcount)) ] || [ "$rbase" -gt $((base + count)) ] \
                || { busy=1; p=$rbase; }
        done <<<"$r"
        if [ "$busy" -eq 0 ]; then
            echo "$(port_owner "$owner") $count" >"$port_locks/$base"
            echo "$base"
            return 0
        fi
        [ -z "$fixed" ] || die "port $p (in the block from $fixed) is in use"
        base=$((base + 100))
        [ $((base + count)) -lt 32768 ] || base=20000
        [ "$base" -ne "$start" ] || die "no free port block found"
    done
}

# Drop the reservations of the given owners.
release_ports() {   # owner...
    local f owner o
    for f in "$port_locks"/[0-9]*; do
        [ -e "$f" ] || continue
        read -r owner _ <"$f" 2>/dev/null || continue
        for o in "$@"; do
            [ "$owner" != "$(port_owner "$o")" ] || rm -f "$f"
        done
    done
}
