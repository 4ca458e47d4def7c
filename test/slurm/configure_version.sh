#!/usr/bin/env bash
# configure_version.sh - configure reads the Slurm release from the build
# tree and (1) refuses a tree whose version differs from the Slurm
# installed under its prefix (the plugin must match the micro release
# exactly), (2) refuses a release it does not support, naming the
# supported ones, (3) finds a build tree outside the source tree
# (--with-slurm-build) as well as obj-* inside it, and (4) accepts the
# matching tree.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd -P)
src_file=/usr/local/src/slurm-mesh/SLURM_SRC
if [ ! -r /usr/include/slurm/slurm_version.h ] || [ ! -r "$src_file" ]; then
    echo "SKIP: Slurm headers or configured source not installed"
    exit 77
fi
real=$(cat "$src_file")
obj=$(ls -d "$real"/obj-* 2>/dev/null | head -1)
[ -n "$obj" ] || { echo "SKIP: $real has no obj-* build tree"; exit 77; }
work=$(mktemp -d /tmp/slurm-mesh-cfgver.XXXXXX)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
ko() { echo "FAIL: $1"; fail=$((fail + 1)); }

# fake_tree DIR VERSION_NUMBER [BUILD]: a source tree with the files
# configure reads, and its build tree (default DIR/obj-x86_64-linux-gnu)
# with slurm_version.h set to VERSION_NUMBER.
fake_tree() {
    local d=$1 v=$2 b=${3:-$1/obj-x86_64-linux-gnu} f
    mkdir -p "$d/slurm" "$b/slurm"
    for f in slurm/slurm_version.h.in src/common/log.h src/common/select.h \
            src/interfaces/select.h; do
        [ -r "$real/$f" ] || continue
        mkdir -p "$d/$(dirname "$f")"
        cp "$real/$f" "$d/$f"
    done
    cp "$obj/config.h" "$b/"
    sed "s|^S\[\"prefix\"\]=.*|S[\"prefix\"]=\"/usr\"|" "$obj/config.status" >"$b/config.status"
    sed "s/^#define SLURM_VERSION_NUMBER .*/#define SLURM_VERSION_NUMBER $v/" \
        "$obj/slurm/slurm_version.h" >"$b/slurm/slurm_version.h"
}

installed=$(sed -n 's/^#define SLURM_VERSION_NUMBER *//p' /usr/include/slurm/slurm_version.h)
bumped=$(printf '0x%06x' $((installed + 1)))
fake_tree "$work/fake" "$bumped"
fake_tree "$work/old" 0x170207                  # 23.02.7: not supported
fake_tree "$work/outside" "$installed" "$work/outside-build"
rm -rf "$work/outside/obj-x86_64-linux-gnu"

# configure runs in a clean copy: the source tree may be configured.
git clone -q "$top" "$work/tree" 2>/dev/null || cp -a "$top" "$work/tree"
cp "$top/m4/slurm.m4" "$work/tree/m4/slurm.m4"
cd "$work/tree" && autoreconf -fi >/dev/null 2>&1 || { ko "autoreconf"; exit 1; }

# refused WHAT SOURCE REGEX: configure with SOURCE fails, saying REGEX.
refused() {
    local out rc
    out=$(./configure -q --with-slurm-source="$2" 2>&1)
    rc=$?
    if [ $rc -ne 0 ] && echo "$out" | grep >/dev/null "$3"; then
        ok "$1 refused: $(echo "$out" | grep error: | head -1)"
    else
        ko "$1 not refused (rc=$rc): $out"
    fi
}
refused "mismatched source ($bumped vs $installed)" "$work/fake" \
    "is version $bumped but the installed Slurm is $installed"
refused "unsupported release 23.02.7" "$work/old" \
    "Slurm 23.02.7 .* is not supported; slurm-mesh builds against Slurm 22.05 and 24.11"
refused "source without a build tree" "$work/outside" "no configured build of"
out=$(./configure --with-slurm-source="$work/outside" \
    --with-slurm-build="$work/outside-build" 2>&1)
if [ $? -eq 0 ] && echo "$out" | grep >/dev/null "Slurm release of $work/outside-build\.\.\. " &&
        grep -q "^HAVE_SLURM_TRUE=''" config.log; then
    ok "build tree outside the source tree accepted (--with-slurm-build)"
else
    ko "--with-slurm-build outside the source tree rejected: $(echo "$out" | tail -3)"
fi

series=$(printf '%02d%02d' $((installed >> 16)) $(((installed >> 8) & 255)))
out=$(./configure -q --with-slurm-source="$real" 2>&1)
if [ $? -eq 0 ] && grep -q "^HAVE_SLURM_TRUE=''" config.log &&
        grep -q "^SLURM_SERIES='$series'" config.log; then
    ok "matching source $installed accepted (series $series)"
else
    ko "matching source rejected: $(echo "$out" | tail -3)"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
