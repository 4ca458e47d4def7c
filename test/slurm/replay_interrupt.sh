#!/usr/bin/env bash
# replay_interrupt.sh - meshreplay stopped by a signal leaves no daemon
# behind: (a) SIGTERM while cluster.sh is still starting its cluster (the
# cluster handle did not exist yet before issue 8's audit, so what was
# started stayed up), (b) SIGINT once the cluster is up and the replay's
# jobs are running.  Each time meshreplay exits 128 + the signal with a
# message saying what it did, no process of that run remains (none with
# its cluster directory in its command line or environment: munged,
# slurmctld, slurmd, slurmstepd, payload), the temporary directory is
# gone, and no output file is left, not even half-written.
. "$(dirname "$0")/lib.sh"
mesh_setup replay_interrupt
PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) \
    || { echo "SKIP: python3 not installed"; exit 77; }
MESHREPLAY=${MESHREPLAY:-$top_src/contrib/replay/meshreplay}

# Six 600 s jobs of 1-3 nodes: 10 s of wall each at 60x.
"$PY" - "$work/long.swf" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("; MaxProcs: 4\n")
    for i in range(1, 7):
        n = 1 + i % 3
        f.write("%d %d -1 600 %d -1 -1 %d 1200 -1 1 1 1 -1 1 1 -1 -1\n"
                % (i, (i - 1) * 30, n, n))
EOF
printf 'Dimensions=2x2\nNodes=n[0-3]\nAllocator=mc1x1\n' >"$work/mesh.conf"

# Live (non-zombie) processes with DIR in their command line or environment.
leftovers() {   # dir
    "$PY" - "$1" <<'EOF'
import os, sys
d = sys.argv[1].encode()
for p in os.listdir("/proc"):
    if not p.isdigit() or int(p) == os.getpid():
        continue
    try:
        stat = open("/proc/%s/stat" % p).read()
        if stat.rsplit(")", 1)[1].split()[0] == "Z":
            continue
        blob = open("/proc/%s/cmdline" % p, "rb").read() + b"\0" + \
            open("/proc/%s/environ" % p, "rb").read()
    except OSError:
        continue
    if d in blob:
        print(p, stat.split(")")[0].split("(", 1)[1])
EOF
}

# replay NAME: start meshreplay in the background; sets rpid.
replay() {
    "$PY" "$MESHREPLAY" --mesh-conf "$work/mesh.conf" --speedup 60 \
        --plugin-dir "$work/plugins" --timeout 60 --jobs-csv "$work/$1.csv" \
        "$work/long.swf" >"$work/$1.out" 2>"$work/$1.err" &
    rpid=$!
}

# cluster_dir NAME: the temporary cluster directory meshreplay announces.
cluster_dir() {
    sed -n "s/^meshreplay: starting .* slurmd's in \(.*\)$/\1/p" "$work/$1.err"
}

# check NAME DIR RC SIG: what every interrupted run must show.
check() {
    local name=$1 d=$2 rc=$3 sig=$4 left
    [ "$rc" -eq "$5" ] && pass "$name: meshreplay exits $rc (128 + $sig)" \
        || { fail "$name: exit $rc, want $5"; cat "$work/$name.err"; }
    grep -q "interrupted by $sig: cancelled the replay's .* stopped the cluster in $d; no output written" \
        "$work/$name.err" && pass "$name: says it was interrupted and stopped the cluster" \
        || { fail "$name: message"; cat "$work/$name.err"; }
    left=$(leftovers "$d")
    [ -z "$left" ] && pass "$name: no process of $d left" \
        || fail "$name: left behind: $(echo $left)"
    [ ! -e "$d" ] && pass "$name: cluster directory removed" || fail "$name: $d still there"
    [ ! -e "$work/$name.csv" ] && pass "$name: no jobs CSV written (nor the empty one opened to check the path)" \
        || fail "$name: jobs CSV left: $(head -3 "$work/$name.csv")"
}

# (a) SIGTERM during cluster.sh start: as soon as slurmctld is recorded.
replay start
d="" end=$((SECONDS + 60))
while [ "$SECONDS" -lt "$end" ] && kill -0 "$rpid" 2>/dev/null; do
    d=$(cluster_dir start)
    [ -n "$d" ] && grep -q '^slurmctld ' "$d/run/pids" 2>/dev/null && break
    sleep 0.05
done
if [ -n "$d" ] && kill -TERM "$rpid"; then
    wait "$rpid"
    rc=$?
    grep -q "^cluster.sh: interrupted during start; stopping what was started in $d" \
        "$work/start.err" && grep -q "cancelled the replay's 0 submitted jobs" "$work/start.err" \
        && pass "start: interrupted while cluster.sh was starting the daemons" \
        || fail "start: not interrupted during the start: $(cat "$work/start.err")"
    check start "$d" "$rc" SIGTERM 143
else
    fail "start: no cluster directory with slurmctld recorded"
    kill -TERM "$rpid" 2>/dev/null; wait "$rpid"
fi

# (b) SIGINT once jobs are running.
replay run
d="" end=$((SECONDS + 90)) running=""
while [ "$SECONDS" -lt "$end" ] && kill -0 "$rpid" 2>/dev/null; do
    d=$(cluster_dir run)
    if [ -n "$d" ] && [ -f "$d/etc/slurm.conf" ]; then
        running=$(SLURM_CONF=$d/etc/slurm.conf timeout 5 squeue -h -t R -o %i 2>/dev/null)
        [ -z "$running" ] || break
    fi
    sleep 0.2
done
if [ -n "$running" ]; then
    before=$(leftovers "$d" | grep -c .)
    kill -INT "$rpid"
    wait "$rpid"
    rc=$?
    echo "  (signalled with running jobs $(echo $running), $before processes of the run)"
    grep -q "cancelled the replay's [1-9][0-9]* submitted jobs" "$work/run.err" \
        && pass "run: cancelled the replay's submitted jobs" || fail "run: $(cat "$work/run.err")"
    check run "$d" "$rc" SIGINT 130
else
    fail "run: no job running within 90 s"
    kill -TERM "$rpid" 2>/dev/null; wait "$rpid"
fi
mesh_finish
