#!/usr/bin/env bash
# meshsweep-array.sh - run the points of a meshsweep grid as a Slurm job
# array: array task N runs `meshsweep --point N` (one meshsim run, one tidy
# row in OUT.parts/point-N.csv); a final job, dependent on the whole array
# (afterany), merges the rows into OUT and writes the aggregated CSV with
# `meshsweep --aggregate`.  A failed or missing point is named in the merge
# log and makes the merge job fail: the merge never claims success for an
# incomplete sweep.  Rerunning resubmits; points already ok are skipped.
#
# Usage: meshsweep-array.sh [--wait] [--sbatch ARG]... --out TIDY.csv GRID
#        meshsweep-array.sh --merge --out TIDY.csv GRID
# See meshsweep-array(1).
set -uo pipefail

usage() {
    cat <<USAGE
Usage: meshsweep-array.sh [--wait] [--sbatch ARG]... --out TIDY.csv GRID
       meshsweep-array.sh --merge --out TIDY.csv GRID
Run every point of a meshsweep grid as one task of a Slurm job array, then
merge the rows into TIDY.csv and TIDY-agg.csv in a dependent job.
  --out FILE     merged tidy CSV; per-task rows and logs go to FILE.parts/
  --sbatch ARG   extra sbatch argument for the array and the merge job
                 (repeatable), e.g. --sbatch=--partition=short
  --wait         wait for the merge job; exit with its status
  --merge        (what the merge job runs) merge FILE.parts/ now
meshsweep is found in \$MESHSWEEP, in this script's build tree, next to it,
or on PATH; meshsim and meshsim-gen as meshsweep finds them (\$MESHSIM, \$MESHGEN).
USAGE
}

die() { echo "meshsweep-array: $*" >&2; exit 2; }

out="" grid="" wait=0 merge=0 extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --out) [ $# -ge 2 ] || die "--out needs a file"; out=$2; shift ;;
        --out=*) out=${1#--out=} ;;
        --sbatch) [ $# -ge 2 ] || die "--sbatch needs an argument"; extra+=("$2"); shift ;;
        --sbatch=*) extra+=("${1#--sbatch=}") ;;
        --wait) wait=1 ;;
        --merge) merge=1 ;;
        -h|--help) usage; exit 0 ;;
        -*) usage >&2; die "unknown option $1" ;;
        *) [ -z "$grid" ] || die "expected exactly one grid file"; grid=$1 ;;
    esac
    shift
done
[ -n "$out" ] || die "--out FILE is required"
[ -n "$grid" ] || die "expected a grid file"
[ -r "$grid" ] || die "$grid: cannot read the grid file"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
self=$here/$(basename "${BASH_SOURCE[0]}")
sweep=${MESHSWEEP:-}
if [ -z "$sweep" ]; then
    if [ -x "$here/../../src/meshsweep/meshsweep" ]; then
        sweep=$here/../../src/meshsweep/meshsweep     # build tree
    elif [ -x "$here/meshsweep" ]; then
        sweep=$here/meshsweep                         # installed together
    else
        sweep=$(command -v meshsweep) || die "meshsweep not found; set MESHSWEEP"
    fi
fi
# Tasks run elsewhere, maybe in another directory: absolute paths only.
grid=$(realpath "$grid")
out=$(realpath -m "$out")
sweep=$(realpath "$sweep")
parts=${out%.csv}.parts
np=$("$sweep" --points "$grid") || exit 2

if [ "$merge" -eq 1 ]; then
    # One tidy CSV from the parts: the header once, then every row.  The
    # points with no ok row are named by meshsweep --aggregate; here, the
    # tail of their task's log says why.
    bys=${out%.csv}-by-size.csv
    rm -f "$out" "$bys"
    bad=0
    for ((i = 0; i < np; i++)); do
        f=$parts/point-$i.csv
        if [ -s "$f" ]; then
            [ -s "$out" ] || head -n 1 "$f" >"$out"
            tail -n +2 "$f" >>"$out"
        fi
        if [ -s "${f%.csv}-by-size.csv" ]; then
            [ -s "$bys" ] || head -n 1 "${f%.csv}-by-size.csv" >"$bys"
            tail -n +2 "${f%.csv}-by-size.csv" >>"$bys"
        fi
        if [ ! -s "$f" ] || ! tail -n +2 "$f" | grep -q ',ok,'; then
            bad=$((bad + 1))
            echo "meshsweep-array: point $i: array task $i left no ok row in $f; its log $parts/point-$i.log ends:" >&2
            tail -n 3 "$parts/point-$i.log" 2>/dev/null | sed 's/^/    /' >&2
        fi
    done
    "$sweep" --aggregate --no-progress --out "$out" "$grid"
    rc=$?
    if [ "$rc" -eq 0 ] && [ "$bad" -eq 0 ]; then
        echo "meshsweep-array: $np of $np points ok: $out and ${out%.csv}-agg.csv"
        exit 0
    fi
    echo "meshsweep-array: FAILED: $bad of $np points missing or failed; $out is incomplete" >&2
    exit 1
fi

command -v sbatch >/dev/null || die "sbatch not found"
[ "$np" -gt 0 ] || die "$grid: the grid has no points"
mkdir -p "$parts" || die "cannot create $parts"
q() { printf '%q' "$1"; }
array=$(sbatch --parsable --job-name=meshsweep --array="0-$((np - 1))" \
        --output="$parts/point-%a.log" "${extra[@]}" \
        --wrap="exec $(q "$sweep") --no-progress --point \$SLURM_ARRAY_TASK_ID --out $(q "$parts")/point-\$SLURM_ARRAY_TASK_ID.csv $(q "$grid")") \
    || die "sbatch of the array failed"
array=${array%%;*}
wopt=()
[ "$wait" -eq 0 ] || wopt=(--wait)
echo "meshsweep-array: $np points: array job $array; rows in $parts/"
merge_out=$parts/merge.log
if [ "$wait" -eq 1 ]; then
    echo "meshsweep-array: waiting for the merge job (log $merge_out)"
fi
mj=$(sbatch --parsable --job-name=meshsweep-merge \
     --dependency="afterany:$array" --kill-on-invalid-dep=yes \
     --output="$merge_out" "${extra[@]}" "${wopt[@]}" \
     --wrap="exec $(q "$self") --merge --out $(q "$out") $(q "$grid")")
rc=$?
mj=${mj%%;*}
if [ "$wait" -eq 1 ]; then
    cat "$merge_out" 2>/dev/null
    echo "meshsweep-array: merge job $mj exit $rc"
    exit "$rc"
fi
[ -n "$mj" ] || die "sbatch of the merge job failed (array $array is queued)"
echo "meshsweep-array: merge job $mj (afterany:$array) writes $out; log $merge_out"
