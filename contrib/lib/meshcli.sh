# meshcli.sh - sourced by slurm-mesh's shell commands (meshplot,
# meshsweep-array, the slurm-local harness): the version line (-V,
# --version: the exact source revision) and usage errors in one line and
# a pointer to --help, as the C and Python commands have them.  The
# sourcing script sets prog.  `make install` fills in the revision; in the
# source tree it comes from git (src/cli/revision.sh).
# shellcheck shell=bash
MESH_REVISION='@MESH_REVISION@'

mesh_version() {
    local top
    case $MESH_REVISION in
        @*)
            top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
            MESH_REVISION=$(sh "$top/src/cli/revision.sh" "$top" 2>/dev/null) ||
                MESH_REVISION=unknown
            ;;
    esac
    printf '%s (slurm-mesh) %s\n' "$prog" "$MESH_REVISION"
}

usage_die() {
    printf '%s: %s\n' "$prog" "$*" >&2
    printf "Try '%s --help'.\n" "$prog" >&2
    exit 2
}
