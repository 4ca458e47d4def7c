#!/usr/bin/env bash
# configure_version.sh - configure refuses a Slurm source tree whose
# version differs from the installed Slurm (the plugin must match the
# micro release exactly), and accepts the matching one.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd -P)
src_file=/usr/local/src/slurm-mesh/SLURM_SRC
if [ ! -r /usr/include/slurm/slurm_version.h ] || [ ! -r "$src_file" ]; then
    echo "SKIP: Slurm headers or configured source not installed"
    exit 77
fi
real=$(cat "$src_file")
work=$(mktemp -d /tmp/slurm-mesh-cfgver.XXXXXX)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
ko() { echo "FAIL: $1"; fail=$((fail + 1)); }

# A fake source tree one micro release ahead of the installed Slurm.
fake=$work/fake
mkdir -p "$fake/src/common" "$fake/obj-x86_64-linux-gnu/slurm"
cp "$real/src/common/select.h" "$fake/src/common/"
cp "$real/obj-x86_64-linux-gnu/config.h" "$fake/obj-x86_64-linux-gnu/"
installed=$(sed -n 's/^#define SLURM_VERSION_NUMBER *//p' /usr/include/slurm/slurm_version.h)
bumped=$(printf '0x%06x' $((installed + 1)))
sed "s/^#define SLURM_VERSION_NUMBER .*/#define SLURM_VERSION_NUMBER $bumped/" \
    "$real/obj-x86_64-linux-gnu/slurm/slurm_version.h" \
    >"$fake/obj-x86_64-linux-gnu/slurm/slurm_version.h"

# configure runs in a clean copy: the source tree may be configured.
git clone -q "$top" "$work/tree" 2>/dev/null || cp -a "$top" "$work/tree"
cp "$top/m4/slurm.m4" "$work/tree/m4/slurm.m4"
cd "$work/tree" && autoreconf -fi >/dev/null 2>&1 || { ko "autoreconf"; exit 1; }

out=$(./configure -q --with-slurm-source="$fake" 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "is version $bumped but the installed Slurm is $installed"; then
    ok "mismatched source ($bumped vs $installed) refused: $(echo "$out" | grep error: | head -1)"
else
    ko "mismatched source not refused (rc=$rc): $out"
fi
out=$(./configure -q --with-slurm-source="$real" 2>&1)
if [ $? -eq 0 ] && grep -q "^HAVE_SLURM_TRUE=''" config.log; then
    ok "matching source $installed accepted"
else
    ko "matching source rejected: $(echo "$out" | tail -3)"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
