#!/bin/bash
# installcheck.sh - the installed commands work from the installation
# alone (make installcheck): run with PATH holding only the installation's
# bin and the system, none of the build tree's variables, from a directory
# outside the source tree.
#   - every command and the harness are installed, no placeholder is left;
#   - each follows the command-line convention (conventions.sh);
#   - meshsim-gen and meshsim run; meshsweep runs a grid whose trace and
#     mesh.conf paths are relative to the grid file, from elsewhere;
#     meshtable and meshplot (with gnuplot) read its CSVs;
#   - meshreplay --help, and with Slurm's daemons installed and root, a
#     replay of 6 jobs on a 2x2 cluster: the installed meshreplay finds the
#     installed harness and the plugin in the installed PluginDir, and
#     leaves no temporary directory.
# Usage: installcheck.sh BINDIR PKGLIBEXECDIR SRCDIR
set -u
bindir=$1 libexecdir=$2 src=$3
for v in MESHSIM MESHGEN MESHSWEEP MESHPLOT MESHTABLE SMESH TOP_BUILDDIR; do
	unset "$v"
done
work=$(mktemp -d)
export TMPDIR=$work/tmp PATH=$bindir:/usr/sbin:/usr/bin:/sbin:/bin
mkdir -p "$TMPDIR"
cd "$work" || exit 1
tmp=$work/t
mkdir -p "$tmp"
trap 'cd /; rm -rf "$work"' EXIT
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
ko() { echo "FAIL: $1"; fail=$((fail + 1)); }
check() { if eval "$2"; then ok "$1"; else ko "$1"; return 1; fi; }

cmds="meshsim meshsim-gen meshsweep sacct2swf meshplot meshtable meshcheck meshreplay meshsweep-array"
[ ! -e "$bindir/smesh" ] || cmds="$cmds smesh"
missing=""
for c in $cmds; do [ -x "$bindir/$c" ] || missing="$missing $c"; done
for f in cluster.sh accounting.sh; do [ -x "$libexecdir/$f" ] || missing="$missing $f"; done
for f in ports.sh meshcli.sh meshcli.py; do [ -r "$libexecdir/$f" ] || missing="$missing $f"; done
check "installed: $cmds, and the harness in $libexecdir${missing:+ (missing:$missing)}" '[ -z "$missing" ]'
check "no placeholder left in the installed scripts" '! grep -l "@MESH_[A-Z]*@" "$bindir"/meshplot "$bindir"/meshtable "$bindir"/meshcheck "$bindir"/meshreplay "$bindir"/meshsweep-array "$libexecdir"/*'

rev=$(meshsim --version | awk '{ print $NF }')
args=()
for c in $cmds; do args+=("$c=$bindir/$c"); done
args+=(cluster.sh="$libexecdir/cluster.sh" accounting.sh="$libexecdir/accounting.sh")
bash "$src/test/conventions.sh" "$src" "$rev" "${args[@]}" >"$tmp/conv" 2>&1
check "every installed command follows the command-line convention (revision $rev)" '[ $? -eq 0 ]' || grep -v "^PASS" "$tmp/conv"

meshsim-gen --workload mache --jobs 40 --nodes 16 --seed 2 --swf "$tmp/w.swf" --attrs "$tmp/w.csv"
meshsim --mesh 4x4 --job-attrs "$tmp/w.csv" --summary "$tmp/s.json" --jobs-csv "$tmp/j.csv" "$tmp/w.swf" >/dev/null 2>"$tmp/err"
check "meshsim-gen and meshsim run" '[ $? -eq 0 ] && grep -q "\"jobs\": 40," "$tmp/s.json" && grep -q "\"version\": \"$rev\"" "$tmp/s.json"'
meshcheck --summary "$tmp/s.json" --trace "$tmp/w.swf" "$tmp/j.csv" >"$tmp/out" 2>"$tmp/err"
check "meshcheck finds meshsim's schedule feasible" '[ $? -eq 0 ] && grep -q ": ok: 40 jobs, 0 overlapping pairs" "$tmp/out"'

mkdir -p "$work/exp/grids" "$work/exp/traces" "$work/elsewhere"
cp "$tmp/w.swf" "$work/exp/traces/"
printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\n' >"$work/exp/grids/m.conf"
printf 'trace = ../traces/w.swf\nmesh-conf = m.conf\nload = 0.8, 1\n' >"$work/exp/grids/a.grid"
printf 'workload = mache:jobs=30:nodes=16\nmesh = 4x4\nallocator = mc1x1, random\nseed = 1, 2\n' >"$work/exp/grids/b.grid"
(cd "$work/elsewhere" && meshsweep --no-progress --out a.csv ../exp/grids/a.grid &&
	meshsweep --no-progress --out b.csv ../exp/grids/b.grid) >/dev/null 2>"$tmp/err"
check "meshsweep finds meshsim and meshsim-gen next to it; grid paths relative to the grid file" '[ $? -eq 0 ] && [ "$(grep -c ",ok," "$work/elsewhere/a.csv")" -eq 2 ] && [ "$(grep -c ",ok," "$work/elsewhere/b.csv")" -eq 4 ] && [ -d "$work/elsewhere/b-workloads" ]'
meshtable "$work/elsewhere/b-agg.csv" --metrics mean_wait >"$tmp/tab.md" 2>"$tmp/err"
check "meshtable reads the aggregated CSV" '[ $? -eq 0 ] && grep -q "^| allocator | n | mean_wait |$" "$tmp/tab.md" && [ "$(grep -c "^| mc1x1 | 2 \|^| random | 2 " "$tmp/tab.md")" -eq 2 ]'
if command -v gnuplot >/dev/null; then
	meshplot curve "$work/elsewhere/b-agg.csv" --y mean_wait --out "$tmp/c.png" 2>"$tmp/err"
	check "meshplot draws the aggregated CSV" '[ $? -eq 0 ] && [ "$(head -c 4 "$tmp/c.png" | od -An -c | tr -d " ")" = "211PNG" ]'
else
	echo "SKIP: meshplot (gnuplot not installed)"
fi
meshreplay --help >"$tmp/out" 2>"$tmp/err"
check "meshreplay --help" '[ $? -eq 0 ] && grep -q "^usage: meshreplay" "$tmp/out"'

if [ "$(id -u)" -eq 0 ] && [ -x /usr/sbin/slurmctld-wlm ] && [ -x /usr/sbin/munged ] &&
	command -v sbatch >/dev/null; then
	meshreplay --mesh 2x2 --jobs 6 --speedup 600 --summary "$tmp/r.json" \
		--jobs-csv "$tmp/r.csv" --no-progress "$tmp/w.swf" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "the installed meshreplay replays 6 jobs on a 2x2 cluster with the installed harness and plugin" '[ $rc -eq 0 ] && grep -q "6 jobs replayed, 0 lost" "$tmp/out" && grep -q "\"jobs\": 6" "$tmp/r.json"' ||
		tail -n 20 "$tmp/err"
	check "and leaves no temporary directory" '[ -z "$(ls -A "$TMPDIR")" ]' || ls -A "$TMPDIR"
else
	echo "SKIP: the replay (needs root and Slurm's daemons)"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
