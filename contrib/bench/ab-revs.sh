#!/bin/sh
# ab-revs.sh - compare one allocator's decision time between two git
# revisions, in one process (contrib/bench/ab-place.c).
#
# usage: contrib/bench/ab-revs.sh OLD_REV NEW_REV ALLOCATOR K [REPS [MESH [OCC]]]
#        NEW_REV may be "worktree" for the files as they are now.
#
# Builds src/mesh of each revision as a shared object with the flags
# that configure gives the library (-std=c11 -O2 -g, plus
# -fvect-cost-model=cheap when the compiler takes it), builds the
# driver, and runs it.  Run it from the top of a checkout.  Prints one
# line: both medians, their ratio and whether the answers matched.
# Several allocators or sizes: call it once per line; the builds are
# kept in $AB_DIR (default /tmp/slurm-mesh-ab) between calls.
# AB_ALIGN=1 aligns every function to 64 bytes and every loop to 32 in
# both builds, so that a change's effect on the code around it (its
# layout) cannot pass for a gain or a loss: code that neither revision
# changed moves by 3-10% between unaligned builds here, under 1% between
# aligned ones.
# The builds' data evict each other between decisions, so a change that
# touches fewer cache lines from cold looks better here than in
# meshbench (a slice-major line cache: 0.80 here, 1.05-1.10 there):
# confirm memory-layout changes with interleaved meshbench runs.
set -eu

if [ $# -lt 4 ]; then
	echo "usage: $0 OLD_REV NEW_REV ALLOCATOR K [REPS [MESH [OCC]]]" >&2
	exit 2
fi
old=$1 new=$2
shift 2
dir=${AB_DIR:-/tmp/slurm-mesh-ab}
cc=${CC:-gcc}
mkdir -p "$dir"

flags="-std=c11 -O2 -g -fPIC -fno-semantic-interposition -D_POSIX_C_SOURCE=200809L"
tag=
if [ "${AB_ALIGN:-0}" = 1 ]; then
	flags="$flags -falign-functions=64 -falign-loops=32"
	tag=-aligned
fi
if echo 'int main(void){return 0;}' |
	"$cc" -fvect-cost-model=cheap -x c -o /dev/null - 2>/dev/null; then
	flags="$flags -fvect-cost-model=cheap"
fi

# build REV: $dir/REV.so (a revision's build is kept; the worktree's is
# rebuilt every time)
build() {
	rev=$1
	if [ "$rev" = worktree ]; then
		src=src/mesh
		so=$dir/worktree$tag.so
	else
		id=$(git rev-parse --verify --quiet "$rev^{commit}") || {
			echo "$0: $rev: not a revision" >&2
			exit 2
		}
		so=$dir/$id$tag.so
		[ -f "$so" ] && { echo "$so"; return; }
		rm -rf "${dir:?}/$id"
		mkdir -p "$dir/$id"
		git archive "$id" src/mesh | tar -x -C "$dir/$id"
		src=$dir/$id/src/mesh
	fi
	# shellcheck disable=SC2086
	"$cc" $flags -shared -I"$src" -o "$so" "$src"/*.c -lm
	echo "$so"
}

old_so=$(build "$old")
new_so=$(build "$new")
"$cc" -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Isrc/mesh \
	-o "$dir/ab-place" contrib/bench/ab-place.c -ldl
exec "$dir/ab-place" "$old_so" "$new_so" "$@"
