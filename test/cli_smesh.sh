#!/bin/bash
# cli_smesh.sh - smesh's own error handling, checked without a cluster:
# bad usage, bad job ids and bad mesh.conf files are reported by smesh
# itself before Slurm is contacted.  Skips if smesh was not built.
set -u
smesh=${SMESH:-../src/smesh/smesh}
[ -x "$smesh" ] || { echo "SKIP: smesh not built (configure without a Slurm source)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { if eval "$2"; then echo "PASS: $1"; pass=$((pass + 1)); else echo "FAIL: $1"; fail=$((fail + 1)); fi; }

"$smesh" >/dev/null 2>"$tmp/err"
check "no arguments: one line and the pointer to --help, exit 2" '[ $? -eq 2 ] && [ "$(cat "$tmp/err")" = "smesh: missing command ('"'"'show job JOBID'"'"' or '"'"'show mesh'"'"')
Try '"'"'smesh --help'"'"'." ]'
"$smesh" show jobs 1 >/dev/null 2>"$tmp/err"
check "unknown verb: named in one line, exit 2" '[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 2 ] && grep -q "got .show jobs ...." "$tmp/err"'
"$smesh" --bogus show mesh >/dev/null 2>"$tmp/err"
check "unknown option: one line and the pointer to --help, exit 2" '[ $? -eq 2 ] && [ "$(cat "$tmp/err")" = "smesh: unknown option '"'"'--bogus'"'"'
Try '"'"'smesh --help'"'"'." ]'
"$smesh" --help >"$tmp/out"
check "--help describes every option" 'for o in --mesh-conf --svg --help --version -h -V; do grep -q -- "^  .*$o" "$tmp/out" || exit 1; done'
printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\n' >"$tmp/good.conf"
SLURM_CONF=$tmp/none.conf "$smesh" --mesh-conf "$tmp/good.conf" show mesh --svg "$tmp/x.txt" >"$tmp/out" 2>"$tmp/err"
check "--svg with a name meshplot cannot draw: said before anything is printed or asked of Slurm" '[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "svg .*x.txt: the picture.s name must end in .svg or .png" "$tmp/err" && [ ! -e "$tmp/x.txt" ]'
SLURM_CONF=$tmp/none.conf MESHPLOT=$tmp/no-meshplot "$smesh" --mesh-conf "$tmp/good.conf" show mesh --svg "$tmp/x.svg" >"$tmp/out" 2>"$tmp/err"
check "--svg without meshplot: said before anything is printed" '[ $? -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "meshplot not found" "$tmp/err"'
"$smesh" --svg "$tmp/x.svg" show job 5 >/dev/null 2>"$tmp/err"
check "--svg is for show mesh only" '[ $? -eq 2 ] && grep -q "svg is for .show mesh." "$tmp/err"'
"$smesh" show job -- -3 >/dev/null 2>"$tmp/err"
check "job id \"-3\" (after --) refused, exit 2" '[ $? -eq 2 ] && grep -q "invalid job id \"-3\"" "$tmp/err"'
for id in abc 0 99999999999 12x 52_ 52+ 52_1_2 52+x _1 52_-1 0_1; do
	"$smesh" show job "$id" >/dev/null 2>"$tmp/err"
	check "job id \"$id\" refused, exit 2" '[ $? -eq 2 ] && grep -q "invalid job id \"$id\"" "$tmp/err"'
done
"$smesh" --mesh-conf "$tmp/none.conf" show mesh >/dev/null 2>"$tmp/err"
check "missing mesh.conf named" '[ $? -eq 1 ] && grep -q "none.conf: cannot open" "$tmp/err"'
printf 'Dimensions=4x4\nNodes=n[0-15]\nAllocator=mc1x1\nNodeName=n3 Coord=9,9\n' >"$tmp/bad.conf"
"$smesh" --mesh-conf "$tmp/bad.conf" show mesh >/dev/null 2>"$tmp/err"
check "bad mesh.conf: file:line:key" '[ $? -eq 1 ] && grep -q "bad.conf:4:Coord" "$tmp/err"'
mkdir "$tmp/confdir"
"$smesh" --mesh-conf "$tmp/confdir" show mesh >/dev/null 2>"$tmp/err"
check "--mesh-conf DIR says the path is a directory" '[ $? -eq 1 ] && grep -q "confdir: is a directory" "$tmp/err"'
printf 'Dimensions=4\xc3\x974\nNodes=n[0-15]\nAllocator=mc1x1\n' >"$tmp/times.conf"
"$smesh" --mesh-conf "$tmp/times.conf" show mesh >/dev/null 2>"$tmp/err"
check "Dimensions=4x4 with U+00D7 names the character" '[ $? -eq 1 ] && grep -q "times.conf:1:Dimensions: unexpected .* (U+00D7) .*letter .x." "$tmp/err"'
"$smesh" --version >"$tmp/out"
check "--version" 'grep -q "^smesh (slurm-mesh)" "$tmp/out"'
check "-V is --version" '[ "$("$smesh" -V)" = "$(cat "$tmp/out")" ]'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
