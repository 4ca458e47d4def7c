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
