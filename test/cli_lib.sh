# cli_lib.sh - sourced by the cli_*.sh tests: a scratch directory $tmp,
# removed on exit; check NAME 'COMMAND' (evaluated; PASS if it succeeds),
# ok NAME and ko NAME count passes and failures; finish prints the counts
# and returns non-zero if anything failed.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
ko() { echo "FAIL: $1"; fail=$((fail + 1)); }
check() { if eval "$2"; then ok "$1"; else ko "$1"; fi; }
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
