#!/bin/sh
# layers.sh - the source tree's layering: the #include "..." graph of
# src/ has no cycle, and crop.c calls nothing that alloc.c (the
# allocator registry) defines, so that the registry wraps crops and not
# the other way round.  Also run by hand: test/layers.sh [SRC_DIR]; with
# -v it lists the include edges.
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

# Depth-first search with colours; prints one cycle if there is one.
awk '
	{ n[$1]++; e[$1, n[$1]] = $2; node[$1] = 1; node[$2] = 1 }
	function visit(v, path,    i, w) {
		colour[v] = 1
		for (i = 1; i <= n[v]; i++) {
			w = e[v, i]
			if (colour[w] == 1) {
				print "include cycle: " path " -> " w
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
	}' "$tmp/edges" || fail=1
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
exit $fail
