#!/usr/bin/env bash
# upstream-expect.sh - run Slurm's own expect regression tests
# (testsuite/expect of the Debian Slurm source tree) against one select
# plugin on a throw-away local cluster (cluster.sh), and compare two runs.
#
# Usage:
#   upstream-expect.sh run --select TYPE --out DIR [options]
#       --select TYPE        select/mesh or select/linear (any SelectType)
#       --out DIR            results: DIR/results.tsv, DIR/logs/TEST.log,
#                            DIR/cluster (the cluster's files), DIR/summary
#       --plugin-dir DIR     our built plugins (needed for select/mesh)
#       --tests 'GLOB...'    test names (default 'test1.* test15.* test17.*')
#       --list FILE          test names from FILE (one a line, # comments)
#       --test-timeout SECS  bound per test (default 120; counts as fail)
#       --budget SECS        start no test after SECS (rest: notrun)
#       --mesh WxH           cluster shape (default 4x4)
#       --extra-slurm-conf L a slurm.conf line for cluster.sh (repeatable)
#   upstream-expect.sh compare [--allow FILE] A_DIR B_DIR
#       Prints every test whose status differs between the runs; exit 1
#       if one of them is not in the allow-list FILE (lines "TEST reason").
#   upstream-expect.sh check --plugin-dir DIR --out DIR --allow FILE
#                            [--list FILE | --tests GLOBS] [--test-timeout S]
#                            [--over cons_tres|topology]
#       run for select/mesh and select/linear, then compare; with --over
#       cons_tres, select/mesh over cons_tres (SelectTypeParameters=
#       CR_Core_Memory,OTHER_CONS_TRES) against plain select/cons_tres
#       (CR_Core_Memory); with --over topology, select/cons_tres with
#       TopologyPlugin=topology/mesh (placement inside cons_tres on 24.11,
#       node ranking on 22.05) against plain select/cons_tres, both
#       CR_Core_Memory.
#   upstream-expect.sh -h|--help | -V|--version
#
# SLURM_SRC (default: the tree named in /usr/local/src/slurm-mesh/SLURM_SRC)
# is the configured Slurm source tree; its testsuite/expect is copied to
# OUT/testsuite/expect so the tests' scratch files never touch it. Statuses:
# pass (exit 0), skip (SKIPPED, exit 255), fail, timeout, notrun.
# Runs as root (like cluster.sh). Exit status: 0 ok, 1 failure, 2 usage.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd -P)
CLUSTER=$here/cluster.sh
prog=${0##*/}
# shellcheck source=../lib/meshcli.sh
. "$here/../lib/meshcli.sh"
die() { printf '%s: ERROR: %s\n' "$prog" "$*" >&2; exit 1; }
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }
val() { [ $# -ge 2 ] || usage_die "option '$1' needs a value"; }

slurm_src() {
    if [ -n "${SLURM_SRC:-}" ]; then
        echo "$SLURM_SRC"
    elif [ -r /usr/local/src/slurm-mesh/SLURM_SRC ]; then
        cat /usr/local/src/slurm-mesh/SLURM_SRC
    else
        die "SLURM_SRC not set and /usr/local/src/slurm-mesh/SLURM_SRC missing (run contrib/setup-debian.sh)"
    fi
}

select_type=""
out=""
plugin_dir=""
tests='test1.* test15.* test17.*'
list=""
test_timeout=120
budget=0
mesh=4x4
allow=""
over=""
extra_conf=()

parse_opts() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --select) val "$@"; select_type=$2; shift ;;
            --out) val "$@"; out=$2; shift ;;
            --plugin-dir) val "$@"; plugin_dir=$2; shift ;;
            --tests) val "$@"; tests=$2; shift ;;
            --list) val "$@"; list=$2; shift ;;
            --test-timeout) val "$@"; test_timeout=$2; shift ;;
            --budget) val "$@"; budget=$2; shift ;;
            --mesh) val "$@"; mesh=$2; shift ;;
            --allow) val "$@"; allow=$2; shift ;;
            --over) val "$@"; over=$2; shift ;;
            --extra-slurm-conf) val "$@"; extra_conf+=(--extra-slurm-conf "$2"); shift ;;
            -h|--help) usage; exit 0 ;;
            -V|--version) mesh_version; exit 0 ;;
            -*) usage_die "unknown option '$1'" ;;
            *) args+=("$1") ;;
        esac
        shift
    done
    case "$test_timeout$budget" in *[!0-9]*) usage_die "--test-timeout/--budget must be numbers" ;; esac
}

# Test names (sorted by family and number) from --list or --tests.
test_names() {
    local dir=$1 g f
    if [ -n "$list" ]; then
        [ -r "$list" ] || die "cannot read --list file $list"
        sed 's/#.*//' "$list" | awk 'NF { print $1 }'
        return
    fi
    for g in $tests; do
        for f in "$dir"/$g; do
            f=${f##*/}
            case "$f" in test*.*[!0-9.]* | *"*"*) continue ;; esac
            echo "$f"
        done
    done | sort -t. -k1,1V -k2,2n -u
}

cluster_dir=""
stop_cluster() {
    if [ -n "$cluster_dir" ]; then
        "$CLUSTER" stop --dir "$cluster_dir" >/dev/null 2>&1 || true
    fi
}

do_run() {
    [ -n "$select_type" ] || usage_die "run: --select is required"
    [ -n "$out" ] || usage_die "run: --out is required"
    command -v expect >/dev/null || die "expect is not installed (apt-get install expect; contrib/setup-debian.sh does it)"
    local src t start secs rc st n=0 t0
    src=$(slurm_src)
    [ -d "$src/testsuite/expect" ] || die "$src/testsuite/expect not found"
    mkdir -p "$out"
    out=$(cd "$out" && pwd -P)
    rm -rf "$out/testsuite" "$out/logs"
    mkdir -p "$out/testsuite" "$out/logs"
    cp -a "$src/testsuite/expect" "$out/testsuite/expect"
    local build=$src
    [ -f "$build/config.h" ] || build=$(dirname "$(ls -d "$src"/*/config.h 2>/dev/null | head -n 1)" 2>/dev/null || echo "$src")
    cat >"$out/testsuite/testsuite.conf" <<EOF
SlurmSourceDir=$src
SlurmBuildDir=$build
SlurmInstallDir=/usr
SlurmConfigDir=$out/cluster/etc
EOF
    cat >"$out/testsuite/expect/globals.local" <<EOF
set testsuite_colorize false
set testsuite_cleanup_on_failure true
EOF
    cluster_dir=$out/cluster
    trap stop_cluster EXIT
    trap 'exit 1' INT TERM
    local copt=(start --dir "$cluster_dir" --mesh "$mesh" --select "$select_type" --timeout 60)
    [ -z "$plugin_dir" ] || copt+=(--plugin-dir "$plugin_dir")
    copt+=("${extra_conf[@]}")
    "$CLUSTER" "${copt[@]}" >"$out/cluster-start.log" 2>&1 \
        || { cat "$out/cluster-start.log" >&2; die "cluster start failed"; }
    export SLURM_CONF=$cluster_dir/etc/slurm.conf
    export SLURM_TESTSUITE_CONF=$out/testsuite/testsuite.conf
    : >"$out/results.tsv"
    t0=$SECONDS
    for t in $(test_names "$out/testsuite/expect"); do
        if [ ! -f "$out/testsuite/expect/$t" ]; then
            printf '%s\tnotrun\t0\n' "$t" >>"$out/results.tsv"
            continue
        fi
        if [ "$budget" -gt 0 ] && [ $((SECONDS - t0)) -ge "$budget" ]; then
            printf '%s\tnotrun\t0\n' "$t" >>"$out/results.tsv"
            continue
        fi
        start=$SECONDS
        rc=0
        (cd "$out/testsuite/expect" \
            && timeout -k 10 "$test_timeout" expect "$t" </dev/null) \
            >"$out/logs/$t.log" 2>&1 || rc=$?
        secs=$((SECONDS - start))
        case $rc in
            0) st=pass ;;
            255) st=skip ;;
            124|137) st=timeout ;;
            *) st=fail ;;
        esac
        printf '%s\t%s\t%s\n' "$t" "$st" "$secs" >>"$out/results.tsv"
        n=$((n + 1))
        printf '%s %-10s %-7s %4ss\n' "$select_type" "$t" "$st" "$secs"
        # A test that left jobs behind must not disturb the next one.
        scancel --quiet --user=root >/dev/null 2>&1 || true
        # A test may have drained or downed nodes (e.g. after a timeout).
        scontrol update nodename=ALL state=resume >/dev/null 2>&1 || true
    done
    {
        printf 'select=%s tests=%d wall=%ss\n' "$select_type" "$n" $((SECONDS - t0))
        awk -F'\t' '{ c[$2]++ } END { for (s in c) printf "%s=%d\n", s, c[s] }' \
            "$out/results.tsv" | sort
    } | tee "$out/summary"
}

do_compare() {
    [ "${#args[@]}" -eq 2 ] || usage_die "compare needs two run directories"
    local a=${args[0]}/results.tsv b=${args[1]}/results.tsv
    [ -r "$a" ] || die "cannot read $a"
    [ -r "$b" ] || die "cannot read $b"
    [ -z "$allow" ] || [ -r "$allow" ] || die "cannot read allow-list $allow"
    awk -F'\t' -v allow="${allow:-/dev/null}" -v an="${args[0]}" -v bn="${args[1]}" '
        FILENAME == allow { sub(/#.*/, ""); if (split($0, w, " ")) ok[w[1]] = 1; next }
        FILENAME == ARGV[2] { sa[$1] = $2; next }
        { sb[$1] = $2 }
        END {
            bad = 0
            for (t in sa) {
                if (!(t in sb) || sa[t] == sb[t]) continue
                if (sa[t] == "notrun" || sb[t] == "notrun") continue
                tag = (t in ok) ? "explained" : "UNEXPLAINED"
                if (!(t in ok)) bad++
                printf "%-10s %-8s %-8s %s\n", t, sa[t], sb[t], tag
            }
            if (bad) printf "%d unexplained difference(s) between %s and %s\n", bad, an, bn > "/dev/stderr"
            exit bad ? 1 : 0
        }' "${allow:-/dev/null}" "$a" "$b" | sort -t. -k1,1V -k2,2n
    return "${PIPESTATUS[0]}"
}

do_check() {
    [ -n "$out" ] || usage_die "check: --out is required"
    [ -n "$allow" ] || usage_die "check: --allow is required"
    local base=$out other=select/linear params=() ours=select/mesh ours_conf=()
    case "$over" in
        "") ;;
        cons_tres)
            other=select/cons_tres
            params=(--extra-slurm-conf "SelectTypeParameters=CR_Core_Memory")
            ours_conf=(--extra-slurm-conf "SelectTypeParameters=CR_Core_Memory,OTHER_CONS_TRES") ;;
        topology)
            other=select/cons_tres ours=select/cons_tres
            params=(--extra-slurm-conf "SelectTypeParameters=CR_Core_Memory")
            ours_conf=("${params[@]}" --extra-slurm-conf "TopologyPlugin=topology/mesh") ;;
        *) usage_die "--over: cons_tres or topology, not '$over'" ;;
    esac
    ( select_type=$ours; out=$base/mesh; extra_conf+=("${ours_conf[@]}")
      do_run ) || die "$ours run (ours) failed"
    ( select_type=$other; out=$base/${other#select/}; extra_conf+=("${params[@]}"); do_run ) \
        || die "$other run failed"
    args=("$base/mesh" "$base/${other#select/}")
    printf 'test       mesh     %s\n' "${other#select/}"
    do_compare || return 1
    # Equal results prove nothing when the environment fails every test
    # (no ptys, no expect): the stock plugin must pass some.
    local npass
    npass=$(awk -F'\t' '$2 == "pass"' "$base/${other#select/}/results.tsv" | wc -l)
    [ "$npass" -gt 0 ] || die "no test passed under $other: the environment is broken (see $base/${other#select/}/logs)"
}

[ $# -gt 0 ] || usage_die "missing command"
cmd=$1
shift
args=()
case "$cmd" in
    -h|--help|help) usage; exit 0 ;;
    -V|--version) mesh_version; exit 0 ;;
    -*) usage_die "unknown option '$cmd'" ;;
    run) parse_opts "$@"; do_run ;;
    compare) parse_opts "$@"; do_compare ;;
    check) parse_opts "$@"; do_check ;;
    *) usage_die "unknown command '$cmd' (run, compare or check)" ;;
esac
