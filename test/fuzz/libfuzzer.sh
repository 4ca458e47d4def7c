#!/bin/bash
# libfuzzer.sh - coverage-guided fuzzing of the parsers with clang's
# libFuzzer, ASan and UBSan: make fuzz [FUZZ_SECONDS=60] [FUZZ_JOBS=N].
# Each target starts from its seeds; the corpus grows in fuzz-out/.
# A crash leaves a reproducer there; replay it with
#   test/check_fuzz_<target> fuzz-out/crash-...
set -euo pipefail
top=${1:?usage: libfuzzer.sh TOP_SRCDIR BUILDDIR}
build=${2:?}
secs=${FUZZ_SECONDS:-60}
cc=${FUZZ_CC:-clang}
if ! command -v "$cc" >/dev/null; then
	echo "SKIP: $cc not found (apt-get install clang)"
	exit 77
fi
jobs=${FUZZ_JOBS:-$(nproc)}
case $jobs in
'' | *[!0-9]* | 0)
	echo "libfuzzer.sh: FUZZ_JOBS must be a positive integer, not '$jobs'" >&2
	exit 2
	;;
esac
out=$build/fuzz-out
mkdir -p "$out"
export top build secs cc out

# One target: build it, write its seeds, fuzz it. Its output goes to
# fuzz-out/fuzz_TARGET.log and is shown when it ends.
# It is called in a || list, where set -e does not hold: each step
# returns on failure itself.
fuzz_target() {
	local t=$1 bin=$out/fuzz_$1 lib=("$top"/src/mesh/*.c "$top"/plugin/core/*.c)
	"$cc" -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-I"$top/src/mesh" -I"$top/plugin/core" "${lib[@]}" "$top/test/fuzz/fuzz_$t.c" \
		"$top/test/fuzz/fuzz_common.c" -lm -o "$bin" || return
	mkdir -p "$out/corpus_$t" || return
	"$build/check_fuzz_$t" --write-seeds "$out/corpus_$t" || return
	echo "== fuzz_$t for ${secs}s"
	# -timeout: an input slower than 20 s is a bug to report (a mesh.conf
	# once took minutes), not a reason to run past the time budget
	(cd "$out" && "$bin" -max_total_time="$secs" -max_len=4096 \
		-timeout=20 -print_final_stats=1 "corpus_$t" 2>&1 | tail -12)
}
export -f fuzz_target

# The targets run FUZZ_JOBS at a time, each for FUZZ_SECONDS on its core.
printf '%s\n' swf conf spec jobattrs jobinfo | xargs -n 1 -P "$jobs" bash -c '
	set -euo pipefail
	rc=0
	fuzz_target "$0" >"$out/fuzz_$0.log" 2>&1 || rc=$?
	cat "$out/fuzz_$0.log"
	[ "$rc" -eq 0 ] || echo "FAIL: fuzz_$0 (exit $rc)"
	exit "$rc"' || {
	echo "libfuzzer.sh: a target failed (above); reproducers are in $out" >&2
	exit 1
}
