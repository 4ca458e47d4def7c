#!/usr/bin/env bash
# harness_accounting.sh - two clusters with real accounting (cluster.sh
# --accounting: MariaDB and slurmdbd) started at the same moment, in
# directories whose names hash to the same port block.  Every port the
# harness gives a daemon - slurmctld, the slurmds, MariaDB, slurmdbd -
# must lie in its cluster's one reservation (run/port_base, run/port_count),
# the two clusters must share no port, both must come up with working
# accounting, and stopping them must drop their reservations.
#
# Exit status: 0 all passed, 1 something failed, 77 skipped (Slurm or
# MariaDB not installed).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
top=$(cd "$here/../.." && pwd -P)
CLUSTER=${CLUSTER_SH:-$top/contrib/slurm-local/cluster.sh}
for b in /usr/sbin/slurmctld-wlm /usr/sbin/slurmd-wlm /usr/sbin/munged \
         /usr/sbin/slurmdbd /usr/sbin/mariadbd /usr/bin/mariadb-install-db; do
    if [ ! -x "$b" ]; then
        echo "SKIP: $b not installed (run contrib/setup-debian.sh)"
        exit 77
    fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/slurm-mesh-acct.XXXXXX")
npass=0
nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
a=$work/twin-a
b=""
cleanup() {
    "$CLUSTER" stop --dir "$a" >/dev/null 2>&1 || true
    [ -z "$b" ] || "$CLUSTER" stop --dir "$b" >/dev/null 2>&1 || true
    if [ "$nfail" -eq 0 ]; then rm -rf "$work"; else echo "logs kept in $work"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# A second name whose auto port block is twin-a's.
block() { echo $(( $(printf '%s' "$1" | cksum | cut -d' ' -f1) % 100 )); }
for i in $(seq 1 2000); do
    if [ "$(block "$work/twin-$i")" = "$(block "$a")" ]; then
        b=$work/twin-$i
        break
    fi
done
[ -n "$b" ] || { fail "no directory name hashing to twin-a's port block"; exit 1; }

t0=$SECONDS
"$CLUSTER" start --dir "$a" --mesh 2x1 --select select/linear --accounting \
    --timeout 90 >"$a.out" 2>&1 &
pa=$!
"$CLUSTER" start --dir "$b" --mesh 2x1 --select select/linear --accounting \
    --timeout 90 >"$b.out" 2>&1 &
pb=$!
wait "$pa"; ra=$?
wait "$pb"; rb=$?
if [ "$ra" -eq 0 ] && [ "$rb" -eq 0 ]; then
    pass "two clusters with accounting started at once ($((SECONDS - t0)) s)"
else
    fail "concurrent start: rc $ra/$rb"
    for d in "$a" "$b"; do   # the harness's own words and the daemons' logs
        for f in "$d.out" "$d"/log/mariadb-install.log "$d"/log/mariadb.log \
                 "$d"/log/slurmdbd.log "$d"/log/sacctmgr.log "$d"/log/slurmctld.log; do
            [ -s "$f" ] || continue
            echo "  --- ${f#"$work"/} (last 15 lines)"
            tail -n 15 "$f" | sed 's/^/  /'
        done
    done
fi

# Every port a cluster's daemons were given: slurmctld, the slurmds
# (Port=[lo-hi] or one), slurmdbd (AccountingStoragePort, DbdPort) and
# MariaDB (StoragePort).
ports_of() {   # dir
    local c=$1/etc/slurm.conf d=$1/etc/slurmdbd.conf
    sed -n 's/^SlurmctldPort=//p; s/^AccountingStoragePort=//p' "$c"
    sed -n 's/.* Port=\[\([0-9]*\)-\([0-9]*\)\].*/\1 \2/p' "$c" |
        while read -r lo hi; do seq "$lo" "$hi"; done
    sed -n 's/.* Port=\([0-9][0-9]*\)\( .*\)\{0,1\}$/\1/p' "$c"
    sed -n 's/^DbdPort=//p; s/^StoragePort=//p' "$d"
}

all=()
for d in "$a" "$b"; do
    base=$(cat "$d/run/port_base" 2>/dev/null)
    count=$(cat "$d/run/port_count" 2>/dev/null || echo 2)
    mapfile -t used < <(ports_of "$d" | sort -un)
    out=""
    for p in "${used[@]}"; do
        if [ -z "$base" ] || [ "$p" -lt "$base" ] || [ "$p" -gt $((base + count)) ]; then
            out="$out $p"
        fi
    done
    if [ -n "$base" ] && [ "${#used[@]}" -eq 5 ] && [ -z "$out" ]; then
        pass "${d##*/}: all 5 ports (${used[*]}) in its reservation $base..$((base + count))"
    else
        fail "${d##*/}: ports ${used[*]}: outside its reservation ${base:-?}..$((${base:-0} + count)):${out:- none}"
    fi
    all+=("${used[@]}")
done
dup=$(printf '%s\n' "${all[@]}" | sort | uniq -d | tr '\n' ' ')
if [ "${#all[@]}" -eq 10 ] && [ -z "$dup" ]; then
    pass "the two clusters share no port"
else
    fail "the two clusters share ports: $dup"
fi

for d in "$a" "$b"; do
    name=$(SLURM_CONF=$d/etc/slurm.conf timeout 30 sacctmgr -n -P show cluster format=cluster 2>&1)
    dbd=$(sed -n 's/^DbdPort=//p' "$d/etc/slurmdbd.conf")
    db=$(sed -n 's/^StoragePort=//p' "$d/etc/slurmdbd.conf")
    listen=$(ss -Htln 2>/dev/null | awk '{n = split($4, x, ":"); print x[n]}')
    if [ "$name" = meshlocal ] && echo "$listen" | grep -x "$dbd" >/dev/null &&
        echo "$listen" | grep -x "$db" >/dev/null; then
        pass "${d##*/}: slurmdbd ($dbd) and MariaDB ($db) listen; sacctmgr sees cluster $name"
    else
        fail "${d##*/}: accounting: sacctmgr said '$name'; ports $dbd, $db"
    fi
done

locks=${SLURM_MESH_PORT_LOCKS:-/tmp/slurm-mesh-ports}
"$CLUSTER" stop --dir "$a" >/dev/null 2>&1
"$CLUSTER" stop --dir "$b" >/dev/null 2>&1
left=$(grep -lx "\($a\|$b\)\(/acct\)\{0,1\} [0-9]*" "$locks"/[0-9]* 2>/dev/null)
if [ -z "$left" ]; then
    pass "stop drops both reservations"
else
    fail "reservations left after stop: $left"
fi
echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
