# setup-phases.sh - timed phases for the setup scripts (setup-debian.sh,
# setup-trixie.sh), sourced.  Needs: log.
# shellcheck shell=bash
export DEBIAN_FRONTEND=noninteractive
# Wait for a concurrent apt/dpkg run instead of failing on the lock.
APT_OPTS=(-y -q -o DPkg::Lock::Timeout=900)

declare -a TIMINGS=()
phase_start=0
phase_begin() { phase_name=$1; phase_start=$SECONDS; log "== $phase_name"; }
phase_end() {
    local dt=$((SECONDS - phase_start))
    TIMINGS+=("$(printf '%-28s %4ds' "$phase_name" "$dt")")
    log "   done in ${dt}s"
}
print_timings() {
    local t
    log "timings:"
    for t in "${TIMINGS[@]}"; do log "  $t"; done
}

# Slurm's configure flags as Debian's packaging passes them, for the
# multiarch triplet $1, into the array SLURM_DEBIAN_FLAGS (the caller adds
# --with-pmix where it has it).
slurm_debian_flags() {
    # shellcheck disable=SC2016  # ${prefix} is for configure, not bash
    SLURM_DEBIAN_FLAGS=(--build="$1" --prefix=/usr
        '--includedir=${prefix}/include'
        '--mandir=${prefix}/share/man'
        '--infodir=${prefix}/share/info'
        --sysconfdir=/etc --localstatedir=/var
        --disable-option-checking --disable-silent-rules
        "--libdir=\${prefix}/lib/$1"
        --runstatedir=/run --disable-maintainer-mode
        --disable-dependency-tracking
        --sysconfdir=/etc/slurm --with-munge --enable-pam --without-rpath
        --disable-debug --enable-multiple-slurmd
        SUCMD=/bin/su SLEEP_CMD=/bin/sleep)
}
