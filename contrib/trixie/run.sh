#!/usr/bin/env bash
# run.sh - run a command as root inside slurm-mesh's Debian 13 (trixie)
# chroot, the one contrib/setup-trixie.sh builds (Debian's Slurm 24.11).
#
# Usage: contrib/trixie/run.sh [--root DIR] [--copy SRC_DIR DEST] -- CMD...
#
#   --root DIR       the chroot (default $SLURM_MESH_TRIXIE, else
#                    /var/lib/slurm-mesh/trixie)
#   --copy SRC DEST  before CMD, copy the git checkout SRC (its tracked
#                    and untracked-not-ignored files, i.e. the working
#                    tree without build products) to DEST inside the
#                    chroot; DEST is removed first.  Repeatable.  The
#                    host's revision (src/cli/revision.sh) is written to
#                    DEST/.tarball-revision when SRC has that script.
#
# CMD runs in a private mount namespace (unshare --mount --propagation
# private): proc is mounted on DIR/proc and the host's port-reservation
# directory (/tmp/slurm-mesh-ports, or $SLURM_MESH_PORT_LOCKS, see
# contrib/slurm-local/ports.sh) is bind-mounted onto the same path in the
# chroot, so clusters inside and outside share one set of reservations.
# A private devpts instance (newinstance) is mounted on DIR/dev/pts, for
# the ptys that expect and srun --pty need.  These mounts exist only in
# that namespace: they go away with its last process, and the host's mount
# table never shows them.  The host's /dev is never mounted (debootstrap
# made the chroot's own device nodes).
#
# The environment is clean: env -i with PATH, HOME=/root, LANG=C.UTF-8,
# TERM, CI (if set) and SLURM_MESH_PORT_ROOT=DIR (ports.sh then writes
# reservation owners in host terms).  CMD starts in /.
# Exit status: CMD's; 2 for a usage error, 1 if the chroot is missing.
set -euo pipefail

prog=run.sh
log() { printf 'trixie-run: %s\n' "$*" >&2; }
die() { printf 'trixie-run: ERROR: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; }
usage_die() { printf '%s: %s\n' "$prog" "$*" >&2; printf "Try '%s --help'.\n" "$prog" >&2; exit 2; }

root=${SLURM_MESH_TRIXIE:-/var/lib/slurm-mesh/trixie}
ports_dir=${SLURM_MESH_PORT_LOCKS:-/tmp/slurm-mesh-ports}
copies=()

while [ $# -gt 0 ]; do
    case "$1" in
        --root) [ $# -ge 2 ] || usage_die "--root needs a value"; root=$2; shift 2 ;;
        --copy) [ $# -ge 3 ] || usage_die "--copy needs SRC_DIR and DEST"
                copies+=("$2" "$3"); shift 3 ;;
        -h|--help) usage; exit 0 ;;
        --) shift; break ;;
        *) usage_die "unknown argument '$1' (the command follows --)" ;;
    esac
done
[ $# -gt 0 ] || usage_die "missing command after --"
[ "$(id -u)" -eq 0 ] || die "must run as root"
[ -d "$root" ] || die "no chroot at $root (run contrib/setup-trixie.sh)"
root=$(cd "$root" && pwd -P)
[ "$root" != / ] || die "--root must not be /"
[ -x "$root/bin/sh" ] || die "$root does not look like a chroot (no /bin/sh)"
[ -c "$root/dev/null" ] || die "$root/dev/null is not a character device"
case "$ports_dir" in /*) ;; *) die "SLURM_MESH_PORT_LOCKS must be absolute" ;; esac

# --- --copy --------------------------------------------------------------
# DEST is rm -rf'd inside the chroot: refuse anything that is not a
# plain absolute path at least two levels deep.
check_dest() {
    local d=$1
    case "$d" in
        /*) ;;
        *) usage_die "--copy DEST must be absolute: $d" ;;
    esac
    case "/$d/" in
        */../*|*/./*) usage_die "--copy DEST must not contain . or ..: $d" ;;
    esac
    d=${d%/}
    case "${d#/}" in
        */*) ;;
        *) usage_die "--copy DEST must be at least two levels deep: $1" ;;
    esac
    case "$d" in
        /usr|/usr/lib|/usr/lib64|/usr/bin|/usr/sbin|/usr/share|/usr/include|/usr/local|/var/lib|/etc/*)
            usage_die "--copy DEST is a system directory: $1" ;;
    esac
}

copy_tree() {   # src dest
    local src=$1 dest=$2 f tmp n=0
    check_dest "$dest"
    dest=${dest%/}
    [ -d "$src" ] || die "--copy: $src is not a directory"
    src=$(cd "$src" && pwd -P)
    git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1 \
        || die "--copy: $src is not a git checkout"
    tmp=$(mktemp)
    # Tracked files still present plus untracked files not ignored: the
    # working tree without build products.
    while IFS= read -r -d '' f; do
        if [ -e "$src/$f" ] || [ -L "$src/$f" ]; then
            printf '%s\0' "$f" >>"$tmp"; n=$((n + 1))
        fi
    done < <(git -C "$src" ls-files -z --cached --others --exclude-standard)
    rm -rf "${root:?}$dest"
    mkdir -p "$root$dest"
    tar -C "$src" --null -T "$tmp" -cf - | tar -C "$root$dest" -xf -
    rm -f "$tmp"
    if [ -f "$src/src/cli/revision.sh" ]; then
        sh "$src/src/cli/revision.sh" "$src" >"$root$dest/.tarball-revision" 2>/dev/null \
            || rm -f "$root$dest/.tarball-revision"
    fi
    log "copied $n files of $src to $root$dest"
}

i=0
while [ "$i" -lt "${#copies[@]}" ]; do
    copy_tree "${copies[$i]}" "${copies[$((i + 1))]}"
    i=$((i + 2))
done

# --- the command ---------------------------------------------------------
mkdir -p "$ports_dir" "$root/proc" "$root$ports_dir"
envv=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
      HOME=/root LANG=C.UTF-8 "TERM=${TERM:-dumb}" "SLURM_MESH_PORT_ROOT=$root")
[ -z "${CI+x}" ] || envv+=("CI=$CI")
[ "$ports_dir" = /tmp/slurm-mesh-ports ] || envv+=("SLURM_MESH_PORT_LOCKS=$ports_dir")

rc=0
# The inner script runs in the new mount namespace; its mounts die with
# the namespace.  "$@" after the script: root, ports dir, env..., --, CMD.
unshare --mount --propagation private -- /bin/bash -c '
    set -e
    root=$1 ports=$2; shift 2
    envv=()
    while [ "$1" != -- ]; do envv+=("$1"); shift; done
    shift
    mount -t proc -o nosuid,nodev,noexec proc "$root/proc"
    # A private devpts instance (not the host'"'"'s): expect and srun --pty
    # need ptys; the chroot'"'"'s /dev/ptmx opens the instance at ../pts.
    mount -t devpts -o newinstance,ptmxmode=0666,mode=0620,nosuid,noexec devpts "$root/dev/pts"
    mount --bind "$ports" "$root$ports"
    exec chroot "$root" /usr/bin/env -i "${envv[@]}" /bin/sh -c "cd / && exec \"\$@\"" sh "$@"
' run-inner "$root" "$ports_dir" "${envv[@]}" -- "$@" || rc=$?

if mount | grep -F " $root/" >/dev/null; then
    log "WARNING: mounts under $root are still present:"
    mount | grep -F " $root/" >&2 || true
fi
exit "$rc"
