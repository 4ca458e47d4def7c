#!/usr/bin/env bash
# setup-debian.sh - prepare a Debian 12 (bookworm) machine for slurm-mesh.
#
# Usage: contrib/setup-debian.sh [--no-slurm] [--no-trixie] [--help]
#
# Runs as root, non-interactively, and is idempotent (safe to re-run).
#
#   1. apt-get update; install build tools, the Slurm runtime and the build
#      dependencies that Slurm's configure needs with Debian's flags,
#      expect (for Slurm's own tests, contrib/slurm-local/upstream-expect.sh)
#      and faketime (libfaketime, for meshreplay --clock faketime).
#   2. Add a deb-src entry (/etc/apt/sources.list.d/slurm-mesh-src.sources) and
#      fetch the Debian source of slurm-wlm matching the installed slurmctld
#      into $SLURM_SRC_PARENT (default /usr/local/src/slurm-mesh).
#   3. Run Slurm's configure in <srcdir>/obj-x86_64-linux-gnu with Debian's
#      flags (skipped when config.h already exists). Slurm is not built.
#   4. Write the source dir to /usr/local/src/slurm-mesh/SLURM_SRC (and
#      $SLURM_SRC_PARENT/SLURM_SRC).
#   5. Build the Debian 13 (trixie) chroot with Debian's Slurm 24.11 and its
#      configured source: contrib/setup-trixie.sh (chroot in
#      $SLURM_MESH_TRIXIE, default /var/lib/slurm-mesh/trixie; quick when
#      it is complete).  Commands run in it with contrib/trixie/run.sh.
#   6. Print the (host's) source dir on stdout.
#
# --no-slurm installs only the build tools needed for the library/meshsim
# and skips everything Slurm-related (the chroot too).
# --no-trixie skips step 5.
#
# All progress output goes to stderr; stdout carries only the source dir.
set -euo pipefail

DEFAULT_PARENT=/usr/local/src/slurm-mesh
SLURM_SRC_PARENT=${SLURM_SRC_PARENT:-$DEFAULT_PARENT}
SRC_LIST=/etc/apt/sources.list.d/slurm-mesh-src.sources
MULTIARCH=x86_64-linux-gnu

BUILD_PKGS=(build-essential autoconf automake libtool pkg-config check
    valgrind clang-format clang libclang-rt-14-dev gnuplot-nox python3)
SLURM_PKGS=(procps iproute2 munge libmunge-dev slurmctld slurmd slurm-client libslurm-dev
    slurmdbd mariadb-server expect faketime
    slurm-wlm-basic-plugins slurm-wlm-basic-plugins-dev dpkg-dev)
SLURM_BUILD_DEPS=(libpmix-dev libpam0g-dev libhwloc-dev liblua5.1-0-dev
    libjson-c-dev libhttp-parser-dev libjwt-dev liblz4-dev libdbus-1-dev
    libcurl4-openssl-dev libncurses-dev)

with_slurm=1
with_trixie=1
here=$(cd "$(dirname "$0")" && pwd -P)

log() { printf 'setup-debian: %s\n' "$*" >&2; }
die() { printf 'setup-debian: ERROR: %s\n' "$*" >&2; exit 1; }

usage() {
    sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case "$1" in
        --no-slurm) with_slurm=0 ;;
        --no-trixie) with_trixie=0 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
    shift
done

[ "$(id -u)" -eq 0 ] || die "must run as root"
command -v apt-get >/dev/null || die "apt-get not found (Debian/Ubuntu only)"

# shellcheck source=lib/setup-phases.sh
. "$here/lib/setup-phases.sh"

# apt-get update does not honour DPkg::Lock::Timeout for the lists lock in
# every apt version; retry a bounded number of times.
apt_update() {
    local i
    for i in 1 2 3 4 5 6 7 8 9 10; do
        if apt-get "${APT_OPTS[@]}" update >&2; then
            return 0
        fi
        log "apt-get update failed (attempt $i), retrying in 10s"
        sleep 10
    done
    die "apt-get update kept failing"
}

apt_install() {
    apt-get "${APT_OPTS[@]}" install --no-install-recommends "$@" >&2
}

# --- deb-src entry -------------------------------------------------------
# Derive deb-src stanzas from the machine's own deb822 Debian sources so the
# same mirror (URIs) and Signed-By are used; fall back to deb.debian.org.
write_src_list() {
    local base=/etc/apt/sources.list.d/debian.sources tmp
    tmp=$(mktemp)
    {
        echo "# Added by slurm-mesh contrib/setup-debian.sh: source packages"
        echo "# (needed for 'apt-get source slurm-wlm')."
    } >"$tmp"
    if [ -r "$base" ] && grep -q '^Types:.*\bdeb\b' "$base"; then
        # Keep every stanza, turn its Types line into deb-src.
        sed -e 's/^Types:.*/Types: deb-src/' "$base" >>"$tmp"
    else
        cat >>"$tmp" <<'EOF'

Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    fi
    if [ -f "$SRC_LIST" ] && cmp -s "$tmp" "$SRC_LIST"; then
        rm -f "$tmp"
        return 1        # unchanged
    fi
    install -m 0644 "$tmp" "$SRC_LIST"
    rm -f "$tmp"
    return 0            # changed
}

# --- main ---------------------------------------------------------------
total_start=$SECONDS

phase_begin "apt-get update"
apt_update
phase_end

if [ "$with_slurm" -eq 0 ]; then
    phase_begin "install build tools"
    apt_install "${BUILD_PKGS[@]}"
    phase_end
    print_timings
    log "done (--no-slurm) in $((SECONDS - total_start))s"
    exit 0
fi

phase_begin "install packages"
apt_install "${BUILD_PKGS[@]}" "${SLURM_PKGS[@]}" "${SLURM_BUILD_DEPS[@]}"
phase_end

if dpkg-query -W -f='${Status}' slurm-wlm-emulator 2>/dev/null \
        | grep 'install ok installed' >/dev/null; then
    log "WARNING: slurm-wlm-emulator is installed; it switches the"
    log "  slurmctld/slurmd/slurmstepd alternatives to emulator builds."
    log "  slurm-mesh always calls /usr/sbin/*-wlm explicitly."
fi

phase_begin "deb-src entry + update"
if write_src_list; then
    log "wrote $SRC_LIST"
    apt_update
else
    log "$SRC_LIST already up to date"
fi
phase_end

full_ver=$(dpkg-query -W -f='${Version}' slurmctld)
[ -n "$full_ver" ] || die "cannot determine installed slurmctld version"
up_ver=${full_ver#*:}       # drop epoch
up_ver=${up_ver%-*}         # drop Debian revision
src_dir="$SLURM_SRC_PARENT/slurm-wlm-$up_ver"
log "installed slurmctld $full_ver -> source dir $src_dir"

src_version_of() {
    # First line of debian/changelog: "slurm-wlm (VERSION) dist; ..."
    sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$1/debian/changelog" 2>/dev/null
}

phase_begin "apt-get source slurm-wlm"
mkdir -p "$SLURM_SRC_PARENT"
have_ver=""
[ -d "$src_dir" ] && have_ver=$(src_version_of "$src_dir")
if [ "$have_ver" = "$full_ver" ] && [ -f "$src_dir/.pc/applied-patches" ]; then
    log "source $full_ver already present"
else
    if [ -e "$src_dir" ]; then
        log "removing stale source tree ($have_ver)"
        rm -rf "$src_dir"
    fi
    (
        cd "$SLURM_SRC_PARENT"
        # Remove leftover downloads of other versions of the source package.
        rm -f slurm-wlm_*.dsc slurm-wlm_*.orig.tar.* slurm-wlm_*.debian.tar.*
        if ! apt-get -q source "slurm-wlm=$full_ver" >&2; then
            log "exact version $full_ver not available as source;"
            log "falling back to the candidate source version"
            apt-get -q source slurm-wlm >&2
        fi
    )
    [ -d "$src_dir" ] || die "apt-get source did not create $src_dir"
    have_ver=$(src_version_of "$src_dir")
    if [ "$have_ver" != "$full_ver" ]; then
        log "WARNING: source version $have_ver != installed $full_ver;"
        log "  plugins built from it will not load into the installed Slurm."
    fi
fi
phase_end

phase_begin "configure Slurm"
obj="$src_dir/obj-$MULTIARCH"
if [ -f "$obj/config.h" ] && [ -f "$obj/slurm/slurm_version.h" ]; then
    log "$obj/config.h exists, skipping configure"
else
    mkdir -p "$obj"
    (
        cd "$obj"
        export DEB_BUILD_MAINT_OPTIONS="hardening=+all,-bindnow"
        eval "$(dpkg-buildflags --export=sh)"
        slurm_debian_flags "$MULTIARCH"
        ../configure "${SLURM_DEBIAN_FLAGS[@]}" \
            "--with-pmix=/usr/lib/$MULTIARCH/pmix2" >configure.log 2>&1
    ) || { tail -n 30 "$obj/configure.log" >&2 || true
           rm -f "$obj/config.h"
           die "Slurm configure failed, see $obj/configure.log"; }
    log "configure log: $obj/configure.log"
fi
grep -q '^#define MULTIPLE_SLURMD 1' "$obj/config.h" \
    || die "$obj/config.h lacks MULTIPLE_SLURMD"
phase_end

mkdir -p "$DEFAULT_PARENT"
printf '%s\n' "$src_dir" >"$DEFAULT_PARENT/SLURM_SRC"
if [ "$SLURM_SRC_PARENT" != "$DEFAULT_PARENT" ]; then
    printf '%s\n' "$src_dir" >"$SLURM_SRC_PARENT/SLURM_SRC"
fi

if [ "$with_trixie" -eq 1 ]; then
    phase_begin "trixie chroot (Slurm 24.11)"
    # Its stdout (the chroot's root) goes to stderr: ours carries only the
    # host's source dir.
    "$here/setup-trixie.sh" >&2 || die "contrib/setup-trixie.sh failed (--no-trixie skips it)"
    phase_end
else
    log "--no-trixie: not building the trixie chroot"
fi

print_timings
log "total $((SECONDS - total_start))s"
log "Slurm source: $src_dir (also in $DEFAULT_PARENT/SLURM_SRC)"
printf '%s\n' "$src_dir"
