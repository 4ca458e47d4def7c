#!/bin/sh
# revision.sh - print the source revision of slurm-mesh: git describe
# (with -dirty when tracked files differ from the commit) in a git
# checkout, the revision a tarball recorded (.tarball-revision, written
# by make dist), or VERSION-unknown.  Run at every build (src/Makefile.am),
# so the revision changes with each commit.
# Usage: revision.sh TOP_SRCDIR [PACKAGE_VERSION]  (default: configure.ac's)
top=$1 version=${2:-$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$1/configure.ac" 2>/dev/null)}
if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$top" && pwd -P)" ]; then
    rev=$(git -C "$top" describe --tags --match 'v[0-9]*' --dirty --abbrev=12 2>/dev/null) ||
        rev=$version-g$(git -C "$top" describe --always --dirty --abbrev=12 2>/dev/null)
    [ "$rev" != "$version-g" ] || rev=$version-unknown
elif [ -s "$top/.tarball-revision" ]; then
    rev=$(cat "$top/.tarball-revision")
else
    rev=$version-unknown
fi
echo "$rev"
