#!/bin/sh
# build-rev.sh - build the meshsim of another git revision, to run it
# beside the current build: contrib/bench/meshsim-scale.sh times the two,
# test/cli_identical.sh compares their outputs.
#
# usage: contrib/bench/build-rev.sh REV OUT CONFIG_DIR [CFLAGS...]
#
# Compiles REV's src/mesh/*.c, src/meshsim/*.c and, where REV has them,
# src/cli/*.c (git archive, so the checkout's files are not touched) into
# the executable OUT with $CC (default cc), -std=c11
# -D_POSIX_C_SOURCE=200809L, the config.h of CONFIG_DIR (the top build
# directory) and CFLAGS (default -O2 -g, what configure gives the
# library).  The revision it reports (--version, the summary's "version")
# is "REV-build-rev".  Run it from inside the checkout, or set SRCDIR.
# Exit status 77 (automake's "skipped") when SRCDIR is not a git checkout
# or does not have REV (a tarball, a shallow clone).
set -eu

if [ $# -lt 3 ]; then
	echo "usage: $0 REV OUT CONFIG_DIR [CFLAGS...]" >&2
	exit 2
fi
rev=$1 out=$2 config=$3
shift 3
[ $# -gt 0 ] || set -- -O2 -g
src=${SRCDIR:-.}
# SRCDIR must be the top of its own checkout: an unpacked tarball inside
# another checkout (make distcheck) has no history of its own.
if ! command -v git >/dev/null ||
	[ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" != "$(cd "$src" && pwd -P)" ] ||
	! id=$(git -C "$src" rev-parse --verify --quiet "$rev^{commit}" 2>/dev/null); then
	echo "$0: $rev: not a revision of ${src} (no git history here)" >&2
	exit 77
fi
[ -f "$config/config.h" ] || {
	echo "$0: $config/config.h: not found (configure first)" >&2
	exit 2
}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
git -C "$src" archive "$id" src | tar -x -C "$dir"
cli=
if [ -d "$dir/src/cli" ]; then
	printf '#define CLI_REVISION "%s-build-rev"\n' "$rev" >"$dir/src/cli/revision.h"
	cli=$dir/src/cli
fi
# shellcheck disable=SC2086
"${CC:-cc}" -std=c11 -D_POSIX_C_SOURCE=200809L "$@" -I"$dir/src/mesh" \
	${cli:+-I"$cli"} -I"$config" -o "$out" "$dir"/src/mesh/*.c \
	"$dir"/src/meshsim/*.c ${cli:+"$cli"/*.c} -lm
