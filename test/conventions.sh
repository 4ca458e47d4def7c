#!/bin/bash
# conventions.sh - every command follows one command-line convention
# (Slurm's tools and GNU's):
#   - --help (and -h) exits 0 and describes every option the command's
#     source accepts: each is in a line of the options list, with words
#     after it or on the next, indented line;
#   - --version and -V print one line, "NAME (slurm-mesh) REVISION", with
#     the revision the build recorded;
#   - an unknown option prints exactly "NAME: unknown option '--OPT'" and
#     "Try 'NAME --help'." on stderr, nothing on stdout, and exits 2;
#   - a closed pipe ends it quietly (nothing on stderr).
# Usage: conventions.sh SRCDIR REVISION NAME=PATH...
# The accepted options are read from the command's source in SRCDIR (the
# long_opts tables of the C programs, argparse's add_argument calls, the
# case patterns of the shell scripts).  Used by cli_conventions.sh (the
# build tree) and installcheck.sh (an installation).
set -u
src=$1 rev=$2
shift 2
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
ko() { echo "FAIL: $1"; fail=$((fail + 1)); }
check() { if eval "$2"; then ok "$1"; else ko "$1"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source_of() {   # name -> the files that define its options
	case "$1" in
	meshsim) echo "$src/src/meshsim/options.c" ;;
	meshsim-gen) echo "$src/src/meshgen/meshsim-gen.c" ;;
	meshsweep) echo "$src/src/meshsweep/meshsweep.c" ;;
	sacct2swf) echo "$src/src/sacct2swf/sacct2swf.c" ;;
	smesh) echo "$src/src/smesh/smesh.c" ;;
	meshplot | meshtable) echo "$src/contrib/plots/$1" ;;
	meshcheck) echo "$src/contrib/check/meshcheck" ;;
	meshreplay) echo "$src/contrib/replay/meshreplay" ;;
	meshsweep-array) echo "$src/contrib/slurm-array/meshsweep-array" ;;
	*.sh) echo "$src/contrib/slurm-local/$1" ;;
	esac
}

# The long options a source accepts, one a line.
options_of() {   # file
	case "$1" in
	*.c) sed -n 's/.*{ "\([a-z][a-z-]*\)", *\(no\|required\|optional\)_argument.*/--\1/p' "$1" ;;
	*) if head -1 "$1" | grep -q python; then
		grep -o '\(add_argument\|^    a\)("--[a-z][a-z-]*"' "$1" | grep -o -- '--[a-z-]*'
	   else
		grep -o '^ *\(-[A-Za-z]|\)\?--[a-z][a-z-]*\(|[^)]*\)\?)' "$1" |
			grep -o -- '--[a-z][a-z-]*' | sort -u
	   fi ;;
	esac | sort -u
}

# Is option o listed and described in the help text in file h?
described() {   # help-file option
	awk -v o="$2" '
		function described_at(line) {
			rest = substr(line, index(line, o) + length(o))
			return rest ~ /[^ ]  +[A-Za-z(]/ || rest ~ /^ [A-Za-z]+[^ ]* +[a-z(]/ ||
				rest ~ /^  +[A-Za-z(]/
		}
		prev != "" { if ($0 ~ /^        +[A-Za-z(]/) found = 1; prev = "" }
		/^ *(-|[a-z.-]+ -)/ && index($0, o) > 0 && index($0, o) <= 40 {
			i = index($0, o); after = substr($0, i + length(o), 1)
			if (after !~ /[a-z-]/) { if (described_at($0)) found = 1; else prev = $0 }
		}
		END { exit !found }' "$1"
}

for nc in "$@"; do
	name=${nc%%=*} cmd=${nc#*=}
	"$cmd" --help >"$tmp/help" 2>"$tmp/err"
	check "$name --help exits 0, stdout only" '[ $? -eq 0 ] && [ -s "$tmp/help" ] && [ ! -s "$tmp/err" ]'
	"$cmd" -h >"$tmp/h" 2>&1
	check "$name -h is --help" 'cmp -s "$tmp/h" "$tmp/help"'
	missing=""
	for o in $(options_of "$(source_of "$name")"); do
		described "$tmp/help" "$o" || missing="$missing $o"
	done
	check "$name --help describes every option it accepts${missing:+ (not:$missing)}" '[ -z "$missing" ] && [ -n "$(options_of "$(source_of "$name")")" ]'
	"$cmd" --version >"$tmp/v" 2>"$tmp/err"
	check "$name --version: \"$name (slurm-mesh) $rev\"" '[ $? -eq 0 ] && [ "$(cat "$tmp/v")" = "$name (slurm-mesh) $rev" ] && [ ! -s "$tmp/err" ]'
	"$cmd" -V >"$tmp/V" 2>&1
	check "$name -V is --version" 'cmp -s "$tmp/V" "$tmp/v"'
	"$cmd" --no-such-option >"$tmp/out" 2>"$tmp/err"
	check "$name --no-such-option: one line and the pointer to --help, exit 2" '[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(cat "$tmp/err")" = "$name: unknown option '"'"'--no-such-option'"'"'
Try '"'"'$name --help'"'"'." ]'
	# The reader is gone before the command writes.
	(sleep 0.3; "$cmd" --help 2>"$tmp/err") | true
	check "$name --help into a closed pipe is quiet" '[ ! -s "$tmp/err" ]'
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
