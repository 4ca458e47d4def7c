#!/bin/bash
# libfuzzer.sh - coverage-guided fuzzing of the parsers with clang's
# libFuzzer, ASan and UBSan: make fuzz [FUZZ_SECONDS=60].
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
out=$build/fuzz-out
mkdir -p "$out"
lib=("$top"/src/mesh/*.c)
for t in swf conf spec jobattrs; do
	bin=$out/fuzz_$t
	"$cc" -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-I"$top/src/mesh" "${lib[@]}" "$top/test/fuzz/fuzz_$t.c" \
		"$top/test/fuzz/fuzz_common.c" -lm -o "$bin"
	mkdir -p "$out/corpus_$t"
	"$build/check_fuzz_$t" --write-seeds "$out/corpus_$t"
	echo "== fuzz_$t for ${secs}s"
	# -timeout: an input slower than 20 s is a bug to report (a mesh.conf
	# once took minutes), not a reason to run past the time budget
	(cd "$out" && "$bin" -max_total_time="$secs" -max_len=4096 \
		-timeout=20 -print_final_stats=1 "corpus_$t" 2>&1 | tail -12)
done
