#!/bin/bash
# valgrind-check.sh - the Check unit tests under valgrind's memcheck,
# VALGRIND_JOBS (default: the number of cores) at a time.
#
#   test/valgrind-check.sh [BUILDDIR]     (BUILDDIR: the top build directory)
#
# Without fork (CK_FORK=no), so that leaks in the tests themselves count.
# The counts are smaller than under make check, where the full ones run:
# PROPERTY_CASES=5000, FUZZ_ROUNDS=2000, EXACT_ROUNDS=5 unless set.
# check_alloc_exact and check_alloc_exact_l1, most of the time, run as
# two jobs each by their Check tags; the second job excludes the tag, so
# it takes any case added later.
# Exit status 1 if any job fails or runs no checks; its output is shown.
set -euo pipefail
top=$(cd "${1:-.}" && pwd)
jobs=${VALGRIND_JOBS:-$(nproc)}
export CK_FORK=no PROPERTY_CASES=${PROPERTY_CASES:-5000} \
	FUZZ_ROUNDS=${FUZZ_ROUNDS:-2000} EXACT_ROUNDS=${EXACT_ROUNDS:-5}
case $jobs in
'' | *[!0-9]* | 0)
	echo "valgrind-check.sh: VALGRIND_JOBS must be a positive integer, not '$jobs'" >&2
	exit 2
	;;
esac
command -v valgrind >/dev/null || {
	echo "valgrind-check.sh: valgrind not found (apt-get install valgrind)" >&2
	exit 2
}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# One job, a line "PROGRAM [VAR=VALUE]": the variable picks Check cases.
run_job() {
	local top=$1 logs=$2 prog=${3%% *} sel='' name log start rc=0
	[ "$prog" = "$3" ] || sel=${3#* }
	name=$prog${sel:+ ($sel)}
	log=$logs/${name//[^A-Za-z0-9_]/_}.log
	start=$SECONDS
	(
		cd "$top" || exit
		[ -z "$sel" ] || export "${sel?}"
		exec ./libtool --mode=execute valgrind -q --error-exitcode=1 \
			--leak-check=full --errors-for-leak-kinds=definite \
			"test/$prog"
	) >"$log" 2>&1 || rc=$?
	# a Check program prints its count, a fuzz replay its verdict
	if [ "$rc" -eq 0 ] && grep -Eq 'Checks: [1-9]|no invariant broken' "$log"; then
		printf 'ok    %4ds  %s\n' $((SECONDS - start)) "$name"
		return 0
	fi
	printf 'FAIL  %4ds  %s (exit %d, or no checks ran)\n' $((SECONDS - start)) "$name" "$rc"
	tail -40 "$log"
	return 1
}
export -f run_job

# The costliest first, so that the jobs share the cores evenly.
list() {
	printf '%s\n' 'check_alloc_exact_l1 CK_INCLUDE_TAGS=paths' \
		'check_alloc_exact CK_EXCLUDE_TAGS=large' \
		'check_alloc_exact_l1 CK_EXCLUDE_TAGS=paths' \
		'check_alloc_exact CK_INCLUDE_TAGS=large' \
		check_alloc_l1 check_alloc_paper check_crop
	for t in "$top"/test/check_*; do
		t=${t##*/}
		case $t in
		*.* | check_alloc_exact | check_alloc_exact_l1 | check_alloc_l1 | check_alloc_paper | check_crop) continue ;;
		esac
		# an if, not &&: a last file that is not a program must not
		# fail the list (pipefail) and so the run
		if [ -x "$top/test/$t" ]; then
			echo "$t"
		fi
	done
}

start=$SECONDS
if list | xargs -d '\n' -n 1 -P "$jobs" bash -c 'run_job "$0" "$1" "$2"' "$top" "$logs"; then
	echo "valgrind-check.sh: all passed in $((SECONDS - start)) s ($jobs at a time)"
else
	echo "valgrind-check.sh: FAILED (above)" >&2
	exit 1
fi
