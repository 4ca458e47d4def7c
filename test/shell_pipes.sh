#!/bin/bash
# shell_pipes.sh - no "| grep -q" in a script that runs under pipefail.
# grep -q exits at its first match; the writer then dies of SIGPIPE, and
# pipefail turns the match into a failure (1 run in ~3000 here; it failed
# CI twice).  Such scripts use "grep ... >/dev/null" (test/slurm/lib.sh
# has matches() for it), which reads to the end.
set -u
top=$(cd "$(dirname "$0")/.." && pwd -P)
pass=0 fail=0

# Lines of file $1 that pipe into grep -q (a pipe may end the line before).
early_exits() {
	awk '
		/^[ \t]*#/ { prev = ""; next }
		{ line = prev $0; prev = ($0 ~ /(^|[^|])\|[ \t]*\\?$/) ? "| " : "" }
		line ~ /(^|[^|])\|[ \t]*grep[ \t]+(-[A-Za-ln-z]*q|.*[ \t]-q[ \t])/ { print FILENAME ":" FNR ": " $0 }
	' "$1"
}

under_pipefail() {
	grep -E '^[^#]*set -[a-z]*o pipefail|^\. .*[/"]lib\.sh"?$' "$1" >/dev/null
}

# The detector itself must see what it is there to catch.
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
printf '%s\n' 'set -uo pipefail' 'echo "$x" | grep -qE "a"' \
	'ps -e |' '    grep -q sleep' 'echo "$x" | grep -E a >/dev/null' \
	'# echo | grep -q in a comment' 'true || grep -q a file' >"$t/bad.sh"
found=$(early_exits "$t/bad.sh" | wc -l)
if [ "$found" -eq 2 ] && under_pipefail "$t/bad.sh"; then
	echo "PASS: the check finds both early exits in its fixture, and nothing else"
	pass=$((pass + 1))
else
	echo "FAIL: the check found $found early exits in its fixture (want 2)"
	fail=$((fail + 1))
fi

scripts=$(cd "$top" && { ls test/*.sh test/slurm/*.sh contrib/*.sh contrib/*/*.sh .ci/run 2>/dev/null
	grep -lr '^#!/bin/bash' contrib 2>/dev/null; } | sort -u)
n=0 bad=""
for f in $scripts; do
	[ "$f" != test/shell_pipes.sh ] || continue
	under_pipefail "$top/$f" || continue
	n=$((n + 1))
	hits=$(cd "$top" && early_exits "$f")
	[ -z "$hits" ] || bad="$bad$hits"$'\n'
done
if [ -z "$bad" ] && [ "$n" -ge 10 ]; then
	echo "PASS: $n scripts under pipefail, none pipes into grep -q"
	pass=$((pass + 1))
else
	echo "FAIL: $n scripts under pipefail; pipes into grep -q:"
	printf '%s' "$bad"
	fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
