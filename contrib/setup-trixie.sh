#!/usr/bin/env bash
# setup-trixie.sh - build a Debian 13 (trixie) chroot with Debian's Slurm
# 24.11 in which slurm-mesh can be built and its slurm-local harness run;
# with --suite sid, a binaries-only chroot with Debian sid's Slurm 26.05
# (topology/torus3d), the peer of contrib/bench/torus3d-peer.sh.
#
# Usage: contrib/setup-trixie.sh [--suite trixie|sid] [--help]
#
#   --suite sid  ROOT is $SLURM_MESH_SID (default /var/lib/slurm-mesh/sid);
#                only Slurm's daemons, clients and plugins, munge and the
#                harness's tools are installed, and steps 4-5 are skipped:
#                the archive serves no 26.05 source, so nothing is built
#                against it.  The stamp records the slurmctld version.
#
# Runs as root on a Debian 12 host, non-interactively; idempotent.
#
#   1. Install debootstrap on the host if it is missing.
#   2. debootstrap --variant=minbase trixie $ROOT (ROOT: $SLURM_MESH_TRIXIE,
#      default /var/lib/slurm-mesh/trixie).  A chroot whose debootstrap
#      never finished is removed and built again.
#   3. Inside it (apt sources for trixie and trixie-security; a
#      policy-rc.d that exits 101, so no service starts): install Slurm's
#      daemons, clients, development files and basic plugins, munge,
#      MariaDB, the project's build tools and Slurm's configure
#      dependencies.
#   4. Download slurm-wlm_VERSION.orig.tar.gz for the chroot's installed
#      slurmctld from deb.debian.org (checked against the signed Sources
#      index when apt can give its SHA256), unpack it to
#      $ROOT/usr/local/src/slurm-mesh/slurm-VERSION and run Slurm's
#      configure in its obj-x86_64-linux-gnu inside the chroot with
#      Debian-like flags (--enable-multiple-slurmd).  Slurm is not built.
#   5. Write /usr/local/src/slurm-mesh/SLURM_SRC inside the chroot (the
#      source dir as the chroot sees it), record the finished build in
#      $ROOT/var/lib/slurm-mesh-setup/complete and print $ROOT on stdout.
#
# A re-run finds the stamp and only checks the tree (a few seconds); a
# chroot whose later phases did not finish resumes at them.  Every command
# inside the chroot goes through contrib/trixie/run.sh: a private mount
# namespace with only /proc (and the port-reservation directory) mounted,
# so no mount is left behind; the host's /dev is never mounted.
#
# All progress output goes to stderr; stdout carries only $ROOT.
set -euo pipefail

SUITE=trixie
MIRROR=http://deb.debian.org/debian
SECURITY_MIRROR=http://deb.debian.org/debian-security
POOL=$MIRROR/pool/main/s/slurm-wlm
MULTIARCH=x86_64-linux-gnu
SRC_PARENT=/usr/local/src/slurm-mesh          # inside the chroot

here=$(cd "$(dirname "$0")" && pwd -P)
RUN=$here/trixie/run.sh

# Package names, each checked with apt-cache in trixie (December 2026):
# every one below exists there.  Changes against the brief's list and
# setup-debian.sh's bookworm list:
#  - libncurses-dev is a real package in trixie (not libncurses5-dev).
#  - dpkg-dev comes with build-essential; listed for dpkg-buildflags.
#  - faketime is optional: installed only if apt knows it.
# Names apt does not know are dropped with a warning (install_list), so
# an archive change shows up in the log instead of failing the install.
SLURM_PKGS=(slurmctld slurmd slurm-client slurmdbd libslurm-dev
    slurm-wlm-basic-plugins slurm-wlm-basic-plugins-dev
    munge libmunge-dev mariadb-server)
BUILD_PKGS=(build-essential dpkg-dev autoconf automake libtool pkg-config check
    python3 procps iproute2 expect git ca-certificates gnuplot-nox curl)
OPTIONAL_PKGS=(faketime)
SLURM_BUILD_DEPS=(libpam0g-dev libhwloc-dev libpmix-dev liblua5.1-0-dev
    libjson-c-dev libjwt-dev liblz4-dev libdbus-1-dev libyaml-dev
    libnuma-dev libncurses-dev libreadline-dev libhttp-parser-dev
    libcurl4-openssl-dev)
# The sid peer runs Debian's daemons and the harness, and builds nothing.
PEER_PKGS=(slurmctld slurmd slurm-client slurm-wlm-basic-plugins munge)
PEER_TOOLS=(python3 procps iproute2 ca-certificates)

log() { printf 'setup-trixie: %s\n' "$*" >&2; }
die() { printf 'setup-trixie: ERROR: %s\n' "$*" >&2; exit 1; }

usage() {
    sed -n '2,42p' "$0" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --suite) [ $# -ge 2 ] || die "--suite needs trixie or sid"; SUITE=$2; shift ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
    shift
done
case "$SUITE" in
    trixie) ROOT=${SLURM_MESH_TRIXIE:-/var/lib/slurm-mesh/trixie}; PEER=0 ;;
    sid) ROOT=${SLURM_MESH_SID:-/var/lib/slurm-mesh/sid}; PEER=1 ;;
    *) die "--suite: expected trixie or sid, got '$SUITE'" ;;
esac
STAMP_DIR=$ROOT/var/lib/slurm-mesh-setup
DEBOOTSTRAP_OK=$STAMP_DIR/debootstrap.ok
STAMP=$STAMP_DIR/complete
if [ "$PEER" -eq 1 ]; then
    SLURM_PKGS=("${PEER_PKGS[@]}")
    BUILD_PKGS=("${PEER_TOOLS[@]}")
    SLURM_BUILD_DEPS=()
fi

[ "$(id -u)" -eq 0 ] || die "must run as root"
command -v apt-get >/dev/null || die "apt-get not found (Debian only)"
command -v unshare >/dev/null || die "unshare not found (util-linux)"
[ -x "$RUN" ] || die "$RUN not found or not executable"
case "$ROOT" in
    /*/*) ;;
    *) die "SLURM_MESH_TRIXIE must be an absolute path below a directory: $ROOT" ;;
esac
ROOT=${ROOT%/}

# shellcheck source=lib/setup-phases.sh
. "$here/lib/setup-phases.sh"

# Run a command inside the chroot (private mount namespace, clean env).
in_root() { "$RUN" --root "$ROOT" -- "$@"; }
in_root_apt() {
    # No /dev/pts in the chroot: dpkg's pty log would only complain.
    in_root env DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" \
        -o Dpkg::Use-Pty=0 "$@"
}

# apt-get update does not honour DPkg::Lock::Timeout for the lists lock in
# every apt version; retry a bounded number of times.
retry_update() {   # command...
    local i
    for i in 1 2 3 4 5 6 7 8 9 10; do
        if "$@" update >&2; then
            return 0
        fi
        log "apt-get update failed (attempt $i), retrying in 10s"
        sleep 10
    done
    die "apt-get update kept failing"
}
host_apt() { apt-get "${APT_OPTS[@]}" "$@"; }

# Key of what a complete build contains: a change of the package lists or
# of the configure flags (this script) makes the next run redo the work.
stamp_key() {
    sha256sum "$0" | cut -d' ' -f1
}

mounts_under_root() { grep -F " $ROOT/" /proc/self/mounts || grep -F " $ROOT " /proc/self/mounts || true; }

# Processes whose root directory is the chroot (e.g. a harness cluster).
procs_in_root() {
    local p r
    for p in /proc/[0-9]*; do
        r=$(readlink "$p/root" 2>/dev/null) || continue
        case "$r" in "$ROOT"|"$ROOT"/*) echo "${p#/proc/}" ;; esac
    done
}

remove_root() {
    local m
    m=$(mounts_under_root)
    [ -z "$m" ] || die "mounts under $ROOT, not removing it: $m"
    [ -z "$(procs_in_root)" ] \
        || die "processes run inside $ROOT (pids $(procs_in_root | tr '\n' ' ')); stop them first"
    # Only ever delete something that looks like a debootstrap target.
    if [ -n "$(ls -A "$ROOT" 2>/dev/null)" ] && [ ! -d "$ROOT/debootstrap" ] \
            && [ ! -d "$STAMP_DIR" ] && [ ! -f "$ROOT/etc/debian_version" ]; then
        die "$ROOT is not empty and does not look like a chroot; not removing it"
    fi
    rm -rf --one-file-system "${ROOT:?}"
}

# --- main ---------------------------------------------------------------
total_start=$SECONDS
mkdir -p "$(dirname "$ROOT")"
# One setup at a time per chroot.
exec 8>"$(dirname "$ROOT")/.$(basename "$ROOT").setup-lock"
flock -w 1800 8 || die "another setup-trixie.sh holds $(dirname "$ROOT")/.$(basename "$ROOT").setup-lock"

key=$(stamp_key)
if [ "$PEER" -eq 1 ] && [ -f "$STAMP" ] && [ "$(sed -n 's/^key=//p' "$STAMP")" = "$key" ] \
        && [ -c "$ROOT/dev/null" ] && [ -x "$ROOT/usr/sbin/slurmctld" ]; then
    log "chroot $ROOT complete (stamp $STAMP); slurmctld $(sed -n 's/^slurmctld=//p' "$STAMP")"
    printf '%s\n' "$ROOT"
    exit 0
fi
if [ -f "$STAMP" ] && [ "$(sed -n 's/^key=//p' "$STAMP")" = "$key" ]; then
    src_dir=$(sed -n 's/^src=//p' "$STAMP")
    obj=$ROOT$src_dir/obj-$MULTIARCH
    if [ -n "$src_dir" ] && [ -c "$ROOT/dev/null" ] && [ -x "$ROOT/usr/sbin/slurmctld" ] \
            && grep -q '^#define MULTIPLE_SLURMD 1' "$obj/config.h" 2>/dev/null \
            && [ -f "$obj/slurm/slurm_version.h" ] \
            && [ "$(cat "$ROOT$SRC_PARENT/SLURM_SRC" 2>/dev/null)" = "$src_dir" ]; then
        log "chroot $ROOT complete (stamp $STAMP); Slurm source $src_dir"
        log "total $((SECONDS - total_start))s"
        printf '%s\n' "$ROOT"
        exit 0
    fi
    log "stamp present but the tree is incomplete; redoing the missing phases"
fi
rm -f "$STAMP"

phase_begin "host: debootstrap"
if command -v debootstrap >/dev/null 2>&1; then
    log "debootstrap already installed"
else
    if ! host_apt install --no-install-recommends debootstrap >&2; then
        retry_update host_apt
        host_apt install --no-install-recommends debootstrap >&2
    fi
fi
phase_end

phase_begin "debootstrap $SUITE"
if [ -f "$DEBOOTSTRAP_OK" ] && [ -x "$ROOT/usr/bin/apt-get" ]; then
    log "$ROOT already bootstrapped"
else
    if [ -e "$ROOT" ]; then
        log "$ROOT has no finished debootstrap: removing it to build it again"
        remove_root
    fi
    # debootstrap mounts proc (and maybe sys) into the target during its
    # second stage; a private mount namespace guarantees none of it
    # outlives the run, even when it fails.
    unshare --mount --propagation private -- \
        debootstrap --variant=minbase "$SUITE" "$ROOT" "$MIRROR" >&2 \
        || die "debootstrap failed; $ROOT is left for inspection and is rebuilt on the next run"
    mkdir -p "$STAMP_DIR"
    date -u +%FT%TZ >"$DEBOOTSTRAP_OK"
fi
[ -c "$ROOT/dev/null" ] || die "$ROOT/dev/null is not a character device"
[ -z "$(mounts_under_root)" ] || die "debootstrap left mounts under $ROOT"
phase_end

phase_begin "chroot: sources, policy-rc.d"
# No service may start while packages are installed.
printf '#!/bin/sh\n# slurm-mesh setup-trixie.sh: never start services in this chroot.\nexit 101\n' \
    >"$ROOT/usr/sbin/policy-rc.d"
chmod 0755 "$ROOT/usr/sbin/policy-rc.d"
rm -f "$ROOT/etc/apt/sources.list"
if [ "$PEER" -eq 1 ]; then
    # sid has no -updates or -security suite, and no source is fetched.
    # The archive as reached here serves a sid whose Release file has
    # passed its Valid-Until; it is still signed, so only the date check
    # is relaxed.
    cat >"$ROOT/etc/apt/sources.list.d/debian.sources" <<EOF
# Written by slurm-mesh contrib/setup-trixie.sh --suite $SUITE.
Types: deb
URIs: $MIRROR
Suites: $SUITE
Components: main
Check-Valid-Until: no
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
else
cat >"$ROOT/etc/apt/sources.list.d/debian.sources" <<EOF
# Written by slurm-mesh contrib/setup-trixie.sh.  deb-src only for the
# SHA256 of Slurm's orig tarball (the signed Sources index).
Types: deb deb-src
URIs: $MIRROR
Suites: $SUITE $SUITE-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb deb-src
URIs: $SECURITY_MIRROR
Suites: $SUITE-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
fi
cat >"$ROOT/etc/apt/apt.conf.d/90slurm-mesh" <<'EOF'
// Written by slurm-mesh contrib/setup-trixie.sh.
APT::Install-Recommends "false";
APT::Install-Suggests "false";
EOF
# Name resolution like the host's (the harness uses 127.0.0.1 and the
# host name; debootstrap copies only resolv.conf and hostname).
if [ -r /etc/hosts ]; then
    cp -f /etc/hosts "$ROOT/etc/hosts"
fi
phase_end

phase_begin "chroot: apt-get update"
retry_update in_root_apt
phase_end

# Names apt knows in the chroot, in the order given; unknown ones are
# reported and dropped.
install_list() {   # optional(0/1) pkg...
    local opt=$1 p cand
    shift
    for p in "$@"; do
        cand=$(in_root apt-cache policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: //p')
        if [ -n "$cand" ] && [ "$cand" != "(none)" ]; then
            echo "$p"
        elif [ "$opt" -eq 1 ]; then
            log "optional package $p not in $SUITE; skipped"
        else
            log "WARNING: package $p not in $SUITE; dropped"
        fi
    done
}

phase_begin "chroot: install packages"
mapfile -t pkgs < <(install_list 0 "${SLURM_PKGS[@]}" "${BUILD_PKGS[@]}" "${SLURM_BUILD_DEPS[@]}"
                    install_list 1 "${OPTIONAL_PKGS[@]}")
for p in "${SLURM_PKGS[@]}"; do
    case " ${pkgs[*]} " in *" $p "*) ;; *) die "required package $p is not in $SUITE" ;; esac
done
log "installing ${#pkgs[@]} packages (and their dependencies)"
in_root_apt install "${pkgs[@]}"
phase_end

full_ver=$(in_root dpkg-query -W -f='${Version}' slurmctld)
[ -n "$full_ver" ] || die "cannot determine the chroot's slurmctld version"
if [ "$PEER" -eq 1 ]; then
    [ -z "$(mounts_under_root)" ] || die "mounts left under $ROOT: $(mounts_under_root)"
    printf 'key=%s\nsrc=\nslurmctld=%s\ndate=%s\n' "$key" "$full_ver" \
        "$(date -u +%FT%TZ)" >"$STAMP.tmp"
    mv -f "$STAMP.tmp" "$STAMP"
    print_timings
    log "total $((SECONDS - total_start))s; slurmctld $full_ver (binaries only)"
    log "run commands in it with: $RUN --root $ROOT -- CMD..."
    printf '%s\n' "$ROOT"
    exit 0
fi
up_ver=${full_ver#*:}       # drop epoch
up_ver=${up_ver%-*}         # drop Debian revision
tarball=slurm-wlm_$up_ver.orig.tar.gz
src_dir=$SRC_PARENT/slurm-$up_ver                  # inside the chroot
host_src=$ROOT$src_dir
obj=$host_src/obj-$MULTIARCH
log "chroot slurmctld $full_ver -> source dir $src_dir"

phase_begin "Slurm $up_ver source"
if [ -f "$host_src/.slurm-mesh-tarball" ] \
        && [ "$(cat "$host_src/.slurm-mesh-tarball")" = "$tarball" ]; then
    log "source $tarball already unpacked in $host_src"
else
    mkdir -p "$ROOT$SRC_PARENT"
    tb=$ROOT$SRC_PARENT/$tarball
    # SHA256 from the signed Sources index (deb-src above), if apt has it.
    want_sha=$(in_root apt-get source -qq --print-uris "slurm-wlm=$full_ver" 2>/dev/null \
        | awk -v f="$tarball" '$2 == f {sub(/^SHA256:/, "", $4); print $4}' || true)
    if [ ! -s "$tb" ] || { [ -n "$want_sha" ] \
            && [ "$(sha256sum "$tb" | cut -d' ' -f1)" != "$want_sha" ]; }; then
        rm -f "$ROOT$SRC_PARENT"/slurm-wlm_*.orig.tar.*
        log "downloading $POOL/$tarball"
        code=$(curl -sS -L -o "$tb.part" -w '%{http_code}' "$POOL/$tarball") || code=000
        if [ "$code" != 200 ]; then
            rm -f "$tb.part"
            die "$POOL/$tarball is not served (HTTP $code): the chroot's slurmctld is $full_ver, and Slurm's source must be exactly $up_ver"
        fi
        mv -f "$tb.part" "$tb"
    fi
    have_sha=$(sha256sum "$tb" | cut -d' ' -f1)
    if [ -n "$want_sha" ]; then
        [ "$have_sha" = "$want_sha" ] \
            || die "$tarball: SHA256 $have_sha, the Sources index says $want_sha"
        log "$tarball SHA256 $have_sha matches the signed Sources index"
    else
        log "WARNING: no SHA256 for $tarball from apt; not verified (SHA256 $have_sha)"
    fi
    top=$(tar -tzf "$tb" | head -n 1) || true
    top=${top%%/*}
    [ -n "$top" ] || die "cannot read $tb"
    tmpd=$(mktemp -d "$ROOT$SRC_PARENT/.unpack.XXXXXX")
    tar -C "$tmpd" -xzf "$tb"
    [ -d "$tmpd/$top" ] || die "$tarball has no top directory $top"
    rm -rf "$host_src"
    mv "$tmpd/$top" "$host_src"            # slurm-slurm-24-11-5-1 -> slurm-24.11.5
    rmdir "$tmpd"
    printf '%s\n' "$tarball" >"$host_src/.slurm-mesh-tarball"
    log "unpacked $top as $host_src"
fi
[ "$(awk '$1 == "Version:" {print $2}' "$host_src/META" 2>/dev/null)" = "$up_ver" ] \
    || die "$host_src/META does not say Version: $up_ver"
phase_end

phase_begin "configure Slurm (chroot)"
if [ -f "$obj/config.h" ] && [ -f "$obj/slurm/slurm_version.h" ] \
        && [ -f "$obj/.slurm-mesh-configured" ]; then
    log "$obj/config.h exists, skipping configure"
else
    rm -rf "$obj"
    mkdir -p "$obj"
    pmix=()
    if [ -d "$ROOT/usr/lib/$MULTIARCH/pmix2" ]; then
        pmix=("--with-pmix=/usr/lib/$MULTIARCH/pmix2")
    else
        log "WARNING: no /usr/lib/$MULTIARCH/pmix2 in the chroot; configuring without --with-pmix"
    fi
    slurm_debian_flags "$MULTIARCH"
    # shellcheck disable=SC2016  # $1, $@ are the inner shell's
    if ! in_root /bin/bash -c '
            set -e
            cd "$1"; shift
            export DEB_BUILD_MAINT_OPTIONS="hardening=+all,-bindnow"
            eval "$(dpkg-buildflags --export=sh)"
            ../configure "$@" >configure.log 2>&1' configure \
            "${obj#"$ROOT"}" "${SLURM_DEBIAN_FLAGS[@]}" "${pmix[@]}"; then
        tail -n 30 "$obj/configure.log" >&2 || true
        rm -f "$obj/config.h"
        die "Slurm configure failed in the chroot, see $obj/configure.log"
    fi
    touch "$obj/.slurm-mesh-configured"
    log "configure log: $obj/configure.log"
fi
grep -q '^#define MULTIPLE_SLURMD 1' "$obj/config.h" \
    || die "$obj/config.h lacks MULTIPLE_SLURMD"
IFS=. read -r vmaj vmin vmic <<<"$up_ver"
vnum=$(printf '0x%02x%02x%02x' "$vmaj" "$vmin" "$vmic")
grep -q "^#define SLURM_VERSION_NUMBER $vnum\$" "$obj/slurm/slurm_version.h" \
    || die "$obj/slurm/slurm_version.h is not Slurm $up_ver (want SLURM_VERSION_NUMBER $vnum)"
phase_end

printf '%s\n' "$src_dir" >"$ROOT$SRC_PARENT/SLURM_SRC"
[ -z "$(mounts_under_root)" ] || die "mounts left under $ROOT: $(mounts_under_root)"
{
    echo "key=$key"
    echo "src=$src_dir"
    echo "slurmctld=$full_ver"
    echo "date=$(date -u +%FT%TZ)"
} >"$STAMP.tmp"
mv -f "$STAMP.tmp" "$STAMP"

print_timings
log "total $((SECONDS - total_start))s"
log "chroot: $ROOT; Slurm source (in the chroot): $src_dir (also in $SRC_PARENT/SLURM_SRC)"
if [ "$ROOT" = /var/lib/slurm-mesh/trixie ]; then
    log "run commands in it with: $RUN -- CMD..."
else
    log "run commands in it with: $RUN --root $ROOT -- CMD..."
fi
printf '%s\n' "$ROOT"
