#!/usr/bin/env bash
# meshsim-scale.sh - meshsim's own overhead at machine scale (issue 37):
# whole replays, EASY, of T3D-like traces (contrib/bench/t3d-like.py,
# generated into a scratch directory, never kept) on 32x32x32 and 32x32,
# each timed beside the meshsim of OLD_REV (default 2c3cfe7, main just
# before issue 37), which build-rev.sh compiles with this
# build's CFLAGS.  Old and new runs alternate (the machine's speed drifts
# here); each row is the median of SCALE_RUNS (default 3) runs of wall
# and CPU (user + system) seconds, and the largest peak RSS (getrusage's
# ru_maxrss, what /usr/bin/time -v reports as "Maximum resident set
# size").  The two builds' tables and --summary files (but for its
# "version", the build's revision) must be identical (column "same";
# test/cli_identical.sh also compares --jobs-csv).
#
# Usage: contrib/bench/meshsim-scale.sh [BUILD_DIR]   (from the checkout)
#
# 1. 21,323 jobs, sizes x128 capped at 32,768, --mesh 32x32x32:
#    hilbert-bf, mc1x1 (issue 37's targets: 1.5 s and 4 s).
# 2. 106,615 jobs (that trace's 256-PE form x5 in time), sizes x4,
#    --mesh 32x32: hilbert-bf, mc1x1, paging (targets 0.5 s and 1 s).
# 3. 1,000,000 jobs, sizes x4, --mesh 32x32: hilbert-bf (target 10 s and
#    1 GiB; SCALE_MILLION=0 leaves it out).
# 4. Conservative backfilling, hilbert-bf: the first 3,000 jobs of 1 on
#    32x32x32 and the first 20,000 of 2 on 32x32 (whole, the old path
#    takes minutes; SCALE_CONSERVATIVE=0 leaves them out).
set -euo pipefail
build=$(cd "${1:-.}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
meshsim=$build/src/meshsim/meshsim
old_rev=${OLD_REV:-2c3cfe7}
runs=${SCALE_RUNS:-3}
[ -x "$meshsim" ] || { echo "build first (make)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The library's flags as configure chose them (CFLAGS, VECT_CFLAGS).
flags=$(sed -n 's/^\(CFLAGS\|VECT_CFLAGS\) = //p' "$build/src/Makefile" |
	tr '\n' ' ')
# shellcheck disable=SC2086
SRCDIR=$here/../.. "$here/build-rev.sh" "$old_rev" "$tmp/old" "$build" $flags
echo "old: meshsim of $old_rev, cc -std=c11 $flags"
echo "new: $meshsim"

# pair NAME ARGS...: one row; both builds run in $tmp on the same args.
pair() {
	local name=$1
	shift
	(cd "$tmp" && python3 - "$runs" "$name" "$tmp/old" "$meshsim" "$@" <<'PY'
import os, subprocess, sys, time

runs, name, old, new, args = int(sys.argv[1]), sys.argv[2], sys.argv[3], \
    sys.argv[4], sys.argv[5:]

def output(path):
    """The file's lines, but for the summary's "version" (the build)."""
    with open(path) as f:
        return [l for l in f if not l.startswith('  "version": ')]

res = {"old": [], "new": []}
for i in range(runs):
    for b, exe in (("old", old), ("new", new)):
        with open(b + ".out", "w") as out:
            p = subprocess.Popen([exe, "--summary", b + ".json"] + args,
                                 stdout=out, stderr=subprocess.DEVNULL)
            t = time.monotonic()
            _, status, ru = os.wait4(p.pid, 0)
            wall = time.monotonic() - t
        if status:
            sys.exit("%s failed: %s" % (b, " ".join(args)))
        res[b].append((wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss))
    if i == 0:
        same = all(output("old." + f) == output("new." + f)
                   for f in ("out", "json"))
def med(b, k):
    return sorted(r[k] for r in res[b])[runs // 2]
o = [med("old", 0), med("new", 0), med("old", 1), med("new", 1)]
rss = [max(r[2] for r in res[b]) / 1024 for b in ("old", "new")]
print("%-24s %8.2f %8.2f %6.1f  %8.2f %8.2f %6.1f  %7.0f %7.0f  %s" % (
    name, o[0], o[1], o[0] / o[1], o[2], o[3], o[2] / o[3], rss[0], rss[1],
    "yes" if same else "NO"))
sys.exit(0 if same else 1)
PY
	)
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '\n== machine scale, EASY (4: conservative): median of %s runs; wall and CPU s, peak RSS MB ==\n' "$runs"
printf '%-24s %8s %8s %6s  %8s %8s %6s  %7s %7s  %s\n' workload/allocator \
	old_wall new_wall ratio old_cpu new_cpu ratio old_MB new_MB same
t3d=$here/t3d-like.py
"$t3d" --scale 128 --cap 32768 >"$tmp/w1.swf"
"$t3d" --scale 4 --repeat 5 >"$tmp/w2.swf"
status=0
for a in hilbert-bf mc1x1; do
	pair "1: 32x32x32 $a" --mesh 32x32x32 --allocator "$a" w1.swf || status=1
done
for a in hilbert-bf mc1x1 paging; do
	pair "2: 32x32 $a" --mesh 32x32 --allocator "$a" w2.swf || status=1
done
if [ "${SCALE_MILLION:-1}" != 0 ]; then
	"$t3d" --jobs 1000000 --scale 4 >"$tmp/w3.swf"
	pair "3: 10^6 jobs hilbert-bf" --mesh 32x32 --allocator hilbert-bf \
		w3.swf || status=1
fi
if [ "${SCALE_CONSERVATIVE:-1}" != 0 ]; then
	awk '/^;/ || n++ < 3000' "$tmp/w1.swf" >"$tmp/w1c.swf"
	awk '/^;/ || n++ < 20000' "$tmp/w2.swf" >"$tmp/w2c.swf"
	pair "4: 32x32x32 conservative" --mesh 32x32x32 --allocator hilbert-bf \
		--scheduler conservative w1c.swf || status=1
	pair "4: 32x32 conservative" --mesh 32x32 --allocator hilbert-bf \
		--scheduler conservative w2c.swf || status=1
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
