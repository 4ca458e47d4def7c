#!/bin/bash
# cli_conventions.sh - the commands of the build tree follow the project's
# command-line convention (conventions.sh: --help describes every option,
# --version and -V name the revision the build recorded, an unknown option
# is one line and a pointer to --help, a closed pipe is quiet), and the man
# pages' headers agree: one date, one "slurm-mesh VERSION", one section
# name per section.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${TOP_BUILDDIR:-$top}
rev=$(sed -n 's/^#define CLI_REVISION "\(.*\)"$/\1/p' "$build/src/cli/revision.h")
cmds=(meshsim="${MESHSIM:-$build/src/meshsim/meshsim}"
	meshsim-gen="${MESHGEN:-$build/src/meshgen/meshsim-gen}"
	meshsweep="${MESHSWEEP:-$build/src/meshsweep/meshsweep}"
	sacct2swf="${SACCT2SWF:-$build/src/sacct2swf/sacct2swf}"
	meshplot="${MESHPLOT:-$top/contrib/plots/meshplot}"
	meshtable="${MESHTABLE:-$top/contrib/plots/meshtable}"
	meshcheck="${MESHCHECK:-$top/contrib/check/meshcheck}"
	meshreplay="$top/contrib/replay/meshreplay"
	meshsweep-array="$top/contrib/slurm-array/meshsweep-array"
	cluster.sh="$top/contrib/slurm-local/cluster.sh"
	accounting.sh="$top/contrib/slurm-local/accounting.sh")
smesh=${SMESH:-$build/src/smesh/smesh}
[ ! -x "$smesh" ] || cmds+=(smesh="$smesh")
bash "$top/test/conventions.sh" "$top" "$rev" "${cmds[@]}"
rc=$?

. "$top/test/cli_lib.sh"
version=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$top/configure.ac")
# .TH NAME SECTION "DATE" "SOURCE" "MANUAL"
heads=$(for f in "$top"/doc/*.[15]; do
	sed -n 's/^\.TH [^ ]* \([15]\) \("[^"]*"\) \("[^"]*"\) \("[^"]*"\).*/\1|\2|\3|\4/p' "$f"
done)
check "every man page has a .TH line" '[ "$(echo "$heads" | grep -c .)" -eq "$(ls "$top"/doc/*.[15] | wc -l)" ]'
check "man pages: one date" '[ "$(echo "$heads" | cut -d"|" -f2 | sort -u | wc -l)" -eq 1 ]'
check "man pages: one source, \"slurm-mesh $version\"" '[ "$(echo "$heads" | cut -d"|" -f3 | sort -u)" = "\"slurm-mesh $version\"" ]'
check "man pages: \"User Commands\" for section 1, \"File Formats\" for 5" '[ "$(echo "$heads" | cut -d"|" -f1,4 | sort -u | tr "\n" " ")" = "1|\"User Commands\" 5|\"File Formats\" " ]'
finish && exit $rc
