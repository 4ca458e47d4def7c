#!/usr/bin/env bash
# ports_chroot.sh - check that port reservations made on the host and inside
# the trixie chroot (contrib/trixie/run.sh) do not drop each other.
#
# Usage: test/slurm/ports_chroot.sh [--root DIR]
#
# Uses a private lock directory (SLURM_MESH_PORT_LOCKS=/tmp/slurm-mesh-
# ports-check.PID), never the real one.  One reservation is made on the host
# for a directory that exists only on the host, one inside the chroot for a
# directory that exists only there, both asking for the same base port.  Then
# each side lists the live reservations (which is where a dead owner's file
# is removed) and both must still be there, on different blocks.  Finally
# the chroot side is run without SLURM_MESH_PORT_ROOT to show that it would
# drop the host's reservation (the bug this guards against).
# Exit status: 0 pass, 1 fail, 77 no chroot.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd -P)
top=$(cd "$here/../.." && pwd -P)
root=${SLURM_MESH_TRIXIE:-/var/lib/slurm-mesh/trixie}
[ "${1:-}" != --root ] || { root=$2; shift 2; }
if [ ! -x "$root/bin/sh" ]; then
    echo "SKIP: no chroot at $root (contrib/setup-trixie.sh)" >&2
    exit 77
fi
root=$(cd "$root" && pwd -P)

locks=/tmp/slurm-mesh-ports-check.$$
hdir=/tmp/slurm-mesh-ports-check-host.$$          # host only
cdir=/tmp/slurm-mesh-ports-check-chroot.$$        # chroot only
incopy=/tmp/slurm-mesh-ports-check-lib.$$         # ports.sh inside the chroot
# run.sh makes $root$locks as the bind mount's target; it is empty once
# the last chroot side has ended.
cleanup() {
    rm -rf "$locks" "$hdir" "$root$cdir" "$root$incopy"
    rmdir "$root$locks" 2>/dev/null || true
}
trap cleanup EXIT
mkdir -p "$locks" "$hdir" "$root$cdir" "$root$incopy"
cp "$top/contrib/slurm-local/ports.sh" "$root$incopy/ports.sh"
export SLURM_MESH_PORT_LOCKS=$locks SLURM_MESH_PORT_BASE=26000

fail=0
host() {   # bash snippet, with ports.sh sourced
    bash -c 'log() { echo "host: $*" >&2; }; die() { log "$*"; exit 1; }
             . "$1"; shift; eval "$*"' host "$top/contrib/slurm-local/ports.sh" "$@"
}
chroot_side() {   # [env...] -- bash snippet
    local envv=()
    while [ "$1" != -- ]; do envv+=("$1"); shift; done
    shift
    "$top/contrib/trixie/run.sh" --root "$root" -- env "${envv[@]}" SLURM_MESH_PORT_LOCKS="$locks" \
        SLURM_MESH_PORT_BASE=26000 bash -c \
        'log() { echo "chroot: $*" >&2; }; die() { log "$*"; exit 1; }
         . "$1"; shift; eval "$*"' chroot "$incopy/ports.sh" "$@"
}
show() { for f in "$locks"/[0-9]*; do [ -e "$f" ] && echo "  $(basename "$f"): $(cat "$f")"; done; }

hb=$(host "reserve_ports $hdir 4")
cb=$(chroot_side -- "reserve_ports $cdir 4")
echo "host reserved $hb for $hdir, chroot reserved $cb for $cdir"
show
[ "$hb" != "$cb" ] || { echo "FAIL: both sides got block $hb"; fail=1; }
grep -qx "$root$cdir 4" "$locks/$cb" \
    || { echo "FAIL: the chroot's owner is not recorded in host terms"; fail=1; }

# Each side lists reservations of others (and drops the dead ones).
h_sees=$(host "port_reservations /nonexistent-owner" | sort)
c_sees=$(chroot_side -- "port_reservations /nonexistent-owner" | sort)
echo "host sees:   $(echo "$h_sees" | tr '\n' ' ')"
echo "chroot sees: $(echo "$c_sees" | tr '\n' ' ')"
want=$(printf '%s 4\n%s 4\n' "$hb" "$cb" | sort)
[ "$h_sees" = "$want" ] || { echo "FAIL: the host dropped a reservation"; fail=1; }
[ "$c_sees" = "$want" ] || { echo "FAIL: the chroot dropped a reservation"; fail=1; }
[ -e "$locks/$hb" ] && [ -e "$locks/$cb" ] || { echo "FAIL: a reservation file is gone"; fail=1; }

# Each side releases only its own.
chroot_side -- "release_ports $cdir"
[ -e "$locks/$hb" ] && [ ! -e "$locks/$cb" ] \
    || { echo "FAIL: chroot release_ports removed the wrong file"; fail=1; }
cb=$(chroot_side -- "reserve_ports $cdir 4")

# Without SLURM_MESH_PORT_ROOT (the old behaviour) the chroot drops the
# host's reservation: its owner directory does not exist in the chroot.
chroot_side -u SLURM_MESH_PORT_ROOT -- "port_reservations /nonexistent-owner" >/dev/null
if [ -e "$locks/$hb" ]; then
    echo "note: without SLURM_MESH_PORT_ROOT the host's reservation survived too"
else
    echo "without SLURM_MESH_PORT_ROOT the chroot dropped the host's reservation $hb (expected)"
fi
if [ "$fail" -eq 0 ]; then echo "PASS"; else echo "FAILED"; fi
exit "$fail"
