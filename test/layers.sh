#!/bin/sh
# layers.sh - the source tree's layering: the #include "..." graph of
# src/ has no cycle, crop.c calls nothing that alloc.c (the allocator
# registry) defines, so that the registry wraps crops and not the other
# way round, and within each Slurm plugin the calls between its files
# have no cycle (entry points call strategies, strategies call the
# placement core, never back up).  Also run by hand: test/layers.sh
# [SRC_DIR]; with -v it lists the include and call edges.
#
# The plugin call graph is read from the objects of the build
# ($TOP_BUILDDIR/plugin/.libs/<plugin>_la-<file>.o, as linked for the
# configured Slurm release): an edge A -> B when A's object needs a
# function B's defines (nm: U in A, T in B).  Without built plugins (no
# Slurm configured) that part says so and passes.  The cycle finder is
# first run on a made-up graph with a cycle, which it must report.
#
# A cycle is found by a depth-first walk over the graph whose nodes are
# the files under src/ and whose edges are their quoted includes, each
# resolved against the including file's directory and then src/mesh
# (the library's -I); system includes (<...>) are not followed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
verbose=0
if [ "${1:-}" = -v ]; then
	verbose=1
	shift
fi
src=${1:-$top/src}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# The edges "from to", paths relative to $src.
(cd "$src" && find . -name '*.[ch]' | sed 's|^\./||' | sort) >"$tmp/files"
while read -r f; do
	dir=$(dirname "$f")
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' \
	    "$src/$f" | while read -r inc; do
		for cand in "$dir/$inc" "mesh/$inc"; do
			cand=$(echo "$cand" | sed 's|^\./||')
			if [ -f "$src/$cand" ]; then
				echo "$f $cand"
				break
			fi
		done
	done
done <"$tmp/files" >"$tmp/edges"
[ "$verbose" = 1 ] && cat "$tmp/edges"

# Depth-first search with colours over "from to" lines on stdin or in
# the file given; prints one cycle if there is one (exit 1).
find_cycle() {
	awk '
	{ n[$1]++; e[$1, n[$1]] = $2; node[$1] = 1; node[$2] = 1 }
	function visit(v, path,    i, w) {
		colour[v] = 1
		for (i = 1; i <= n[v]; i++) {
			w = e[v, i]
			if (colour[w] == 1) {
				print "cycle: " path " -> " w
				found = 1
			} else if (!colour[w])
				visit(w, path " -> " w)
		}
		colour[v] = 2
	}
	END {
		for (v in node)
			if (!colour[v])
				visit(v, v)
		exit found
	}' "$@"
}
find_cycle "$tmp/edges" || fail=1
edges=$(wc -l <"$tmp/edges")
[ "$fail" = 0 ] && echo "PASS: no include cycle among $(wc -l <"$tmp/files") files ($edges edges)"

# Functions that alloc.c defines (a definition starts at column 0 and
# its name is followed by "("), called from crop.c.
defs=$(sed -n 's/^[a-z][a-z_0-9 ]*[ *]\([a-z_][a-z_0-9]*\)(.*/\1/p' \
	"$src/mesh/alloc.c" | sort -u)
[ -n "$defs" ] || { echo "FAIL: found no function in alloc.c"; exit 1; }
calls=
for fn in $defs; do
	grep -q "\\b$fn[[:space:]]*(" "$src/mesh/crop.c" && calls="$calls $fn"
done
if [ -n "$calls" ]; then
	echo "FAIL: crop.c calls into alloc.c:$calls"
	fail=1
else
	echo "PASS: crop.c calls none of alloc.c's $(echo "$defs" | wc -l) functions"
fi
# The cycle finder must see a cycle it is shown.
if printf 'a b\nb c\nc a\n' | find_cycle >/dev/null; then
	echo "FAIL: the cycle finder misses a -> b -> c -> a"
	fail=1
fi

# The plugins' decision core (plugin/core) knows no Slurm and calls
# nothing above it: it includes no Slurm or plugin header, and no plugin
# function (sm_*, tm_*) nor any of Slurm's is named in it.
core=$top/plugin/core
if [ -d "$core" ]; then
	bad=$(grep -nE '#[[:space:]]*include[[:space:]]*"(src/|slurm/|select_mesh|topology_mesh|job_hints|compat)' \
		"$core"/*.[ch])
	bad="$bad$(grep -nwE '(sm|tm)_[a-z_]+|xmalloc|xfree|bit_[a-z_]+|list_[a-z_]+|slurm_[a-z_]+' \
		"$core"/*.c)"
	if [ -n "$bad" ]; then
		echo "FAIL: plugin/core reaches above itself:"
		echo "$bad"
		fail=1
	else
		echo "PASS: plugin/core ($(ls "$core"/*.c | wc -l) files) names no Slurm or plugin header or function"
	fi
fi

# Calls between the files of each built plugin.
build=${TOP_BUILDDIR:-$top}
libs=$build/plugin/.libs
if ! ls "$libs"/*_la-*.o >/dev/null 2>&1 || ! command -v nm >/dev/null; then
	echo "PASS: plugin call graph not checked: no plugin built in $libs"
	exit $fail
fi
for plugin in $(ls "$libs"/*_la-*.o | sed 's|.*/||; s|_la-.*||' | sort -u); do
	: >"$tmp/calls"
	for o in "$libs/${plugin}_la-"*.o; do
		f=${o##*/${plugin}_la-}
		nm --defined-only "$o" | awk -v f="${f%.o}" '$2 == "T" { print $3, f }'
	done | sort >"$tmp/defs"
	for o in "$libs/${plugin}_la-"*.o; do
		f=${o##*/${plugin}_la-}
		nm -u "$o" | awk '{ print $2 }' | sort |
			join - "$tmp/defs" | awk -v f="${f%.o}" '$2 != f { print f, $2 }'
	done | sort -u >"$tmp/calls"
	[ "$verbose" = 1 ] && sed "s/^/$plugin: /" "$tmp/calls"
	files=$(ls "$libs/${plugin}_la-"*.o | wc -l)
	if cycle=$(find_cycle "$tmp/calls"); then
		echo "PASS: $plugin: no call cycle among $files files ($(wc -l <"$tmp/calls") edges)"
	else
		echo "FAIL: $plugin: call $cycle"
		fail=1
	fi
done
exit $fail
