#!/usr/bin/env python3
"""torus3d-peer.py - slurm-mesh's torus placement against Slurm 26.05's
topology/torus3d on real daemons, one job stream for all (issue 56).

Every configuration runs 64 slurmd's on a 4t x 4t x 4t torus (one per
node, mapped x-major as torus3d maps them) and replays the same seeded
stream through contrib/replay/meshreplay (--use-running), real time:

  torus3d@26.05     sid chroot: cons_tres + topology/torus3d, placements
                    1x1x1 2x1x1 2x2x1 2x2x2 4x2x2 4x4x2 (anchors aligned,
                    torus3d's defaults)
  cons_tres@26.05   sid chroot: cons_tres, no topology (its stock)
  box-first@24.11   trixie chroot: cons_tres + topology/mesh, box-first
  box-first-wait@24.11  the same with AllocatorParameters=wait=1 (a size
                    that has a box waits for one, as under torus3d)
  mc1x1@24.11, contig-ff@24.11  trixie chroot: cons_tres + topology/mesh
                    with that allocator (issue 51's stream)
  select-mesh-contig-ff@24.11  trixie chroot: select/mesh (whole nodes,
                    its own WILL_RUN planner), contig-ff
  cons_tres@24.11   trixie chroot: cons_tres, no topology (its stock)
  box-first@22.05   host: select/mesh, box-first
  box-first-wait@22.05  the same with wait=1
  contig-ff@22.05   host: select/mesh, contig-ff
  mc1x1@22.05       host: select/mesh, mc1x1
  linear@22.05      host: select/linear (its stock)

Streams (--jobs, default 200; arrivals Poisson at --rate per second,
default 3; each job sleeps a whole number of seconds drawn from 2-20 and
asks a 1-minute limit; sizes drawn uniformly from the list):
  A  1 2 4 8 16   (each size a torus3d placement)
  B  3 5 6 12     (none is; no 5-node box exists on 4x4x4)

The placement metrics are computed here from the node names Slurm gave,
not taken from any plugin: mean pairwise distance with wrap-around (per
job, and over all pairs of all jobs), the share of multi-node jobs whose
nodes are exactly a (wrapping) box, makespan (last end - first submit)
and mean wait, in wall seconds.  The mean main and backfill cycle times
come from sdiag (microseconds) after the replay.  Each configuration runs
--runs times (default 3), interleaved; the table gives medians with
[min-max].

Needs: the sid chroot (contrib/setup-trixie.sh --suite sid) for the
@26.05 rows; the 24.11 build of the plugins in the trixie chroot
(/build/slurm-mesh, as .ci/run leaves it) for @24.11; the host's build
(make) and Slurm 22.05 for @22.05.  A configuration whose parts are
missing is skipped with the reason.  Takes about 5 minutes per
configuration, stream and run (about 5.5 hours with the defaults).

--save FILE writes each run's figures as JSON lines as they come;
--merge FILE... prints the table from such files (for configurations
run by separate invocations) and runs nothing.

Usage: torus3d-peer.py [--runs R] [--jobs N] [--rate R] [--seed S]
                       [--speedup S] [--configs LIST] [--streams A,B]
                       [--keep] [--save FILE] [--trixie-build DIR]
       torus3d-peer.py --merge FILE...
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RUN = os.path.join(TOP, "contrib", "trixie", "run.sh")
SID = os.environ.get("SLURM_MESH_SID", "/var/lib/slurm-mesh/sid")
TRIXIE = os.environ.get("SLURM_MESH_TRIXIE", "/var/lib/slurm-mesh/trixie")
TRIXIE_BUILD = "/build/slurm-mesh"          # inside the trixie chroot (--trixie-build)
# the copy of TOP in a chroot, one per run of this script
CHROOT_TREE = "/root/slurm-mesh-bench.%d" % os.getpid()
DIMS = (4, 4, 4)
PLACEMENTS = [(1, 1, 1), (2, 1, 1), (2, 2, 1), (2, 2, 2), (4, 2, 2), (4, 4, 2)]
STREAMS = {"A": [1, 2, 4, 8, 16], "B": [3, 5, 6, 12]}

# name: (where, cluster.sh options, allocator, extra file to write in
# etc/[, AllocatorParameters])
CONFIGS = {
    "torus3d@26.05": ("sid", ["--select", "select/cons_tres",
                              "--extra-slurm-conf", "TopologyPlugin=topology/torus3d"],
                      None, "topology.yaml"),
    "cons_tres@26.05": ("sid", ["--select", "select/cons_tres"], None, None),
    "box-first@24.11": ("trixie", ["--select", "select/cons_tres",
                                   "--extra-slurm-conf", "TopologyPlugin=topology/mesh"],
                        "box-first", None),
    "box-first-wait@24.11": ("trixie", ["--select", "select/cons_tres",
                                        "--extra-slurm-conf", "TopologyPlugin=topology/mesh"],
                             "box-first", None, "wait=1"),
    "mc1x1@24.11": ("trixie", ["--select", "select/cons_tres",
                               "--extra-slurm-conf", "TopologyPlugin=topology/mesh"],
                    "mc1x1", None),
    "contig-ff@24.11": ("trixie", ["--select", "select/cons_tres",
                                   "--extra-slurm-conf", "TopologyPlugin=topology/mesh"],
                        "contig-ff", None),
    "select-mesh-contig-ff@24.11": ("trixie", ["--select", "select/mesh"],
                                    "contig-ff", None),
    "cons_tres@24.11": ("trixie", ["--select", "select/cons_tres"], None, None),
    "box-first@22.05": ("host", ["--select", "select/mesh"], "box-first", None),
    "box-first-wait@22.05": ("host", ["--select", "select/mesh"], "box-first", None,
                             "wait=1"),
    "contig-ff@22.05": ("host", ["--select", "select/mesh"], "contig-ff", None),
    "mc1x1@22.05": ("host", ["--select", "select/mesh"], "mc1x1", None),
    "linear@22.05": ("host", ["--select", "select/linear"], None, None),
}
DEFAULT_CONFIGS = ["torus3d@26.05", "cons_tres@26.05", "box-first@24.11",
                   "box-first-wait@24.11", "mc1x1@24.11", "contig-ff@24.11",
                   "select-mesh-contig-ff@24.11", "cons_tres@24.11",
                   "box-first@22.05", "box-first-wait@22.05", "linear@22.05"]


def die(msg):
    print("torus3d-peer: " + msg, file=sys.stderr)
    sys.exit(1)


def topology_yaml():
    n = DIMS[0] * DIMS[1] * DIMS[2]
    out = ["- topology: torus", "  cluster_default: true", "  torus3d:",
           "    toruses:", "      - name: t0", "        dims:"]
    out += ["          %s: %d" % (a, d) for a, d in zip("xyz", DIMS)]
    out += ["        nodes: n[0-%d]" % (n - 1), "        placements:"]
    for p in PLACEMENTS:
        out.append("          - dims:")
        out += ["              %s: %d" % (a, d) for a, d in zip("xyz", p)]
    return "\n".join(out) + "\n"


def write_stream(path, sizes, jobs, rate, seed):
    """An SWF trace: fractional submit seconds, whole-second runtimes."""
    rng = random.Random(seed)
    t = 0.0
    with open(path, "w") as f:
        f.write("; torus3d-peer stream, sizes %s, seed %d\n; MaxNodes: %d\n"
                % (" ".join(map(str, sizes)), seed, DIMS[0] * DIMS[1] * DIMS[2]))
        for i in range(1, jobs + 1):
            t += rng.expovariate(rate)
            size = rng.choice(sizes)
            run = rng.randint(2, 20)
            f.write("%d %.3f -1 %d %d -1 -1 %d 60 -1 1 1 1 -1 1 -1 -1 -1\n"
                    % (i, t, run, size, size))


# ------------------------------------------------------------- metrics
def ring_dist(a, b, n):
    d = abs(a - b)
    return min(d, n - d)


def pair_sum(cs):
    s = 0
    for i in range(len(cs)):
        for j in range(i + 1, len(cs)):
            s += sum(ring_dist(cs[i][d], cs[j][d], DIMS[d]) for d in range(3))
    return s


def cyclic_interval(vals, n):
    """Whether the set of ring positions is one run of consecutive ones."""
    vals = set(vals)
    return any(all(((s + i) % n) in vals for i in range(len(vals)))
               for s in vals)


def is_box(cs):
    per = [set(c[d] for c in cs) for d in range(3)]
    size = 1
    for d in range(3):
        if not cyclic_interval(per[d], DIMS[d]):
            return False
        size *= len(per[d])
    return size == len(set(cs)) == len(cs)


def metrics(csv_path, n_jobs):
    import csv
    rows = list(csv.DictReader(open(csv_path)))
    multi = []
    waits = []
    for r in rows:
        cs = [tuple(int(v) for v in c.split(":")) for c in r["coords"].split()]
        if len(cs) != int(r["nodes"]) or len(set(cs)) != len(cs):
            die("%s: job %s: %d coordinates for %s nodes (or a node twice)"
                % (csv_path, r["job_id"], len(cs), r["nodes"]))
        waits.append(float(r["wait"]))
        if len(cs) >= 2:
            pairs = len(cs) * (len(cs) - 1) // 2
            multi.append((pair_sum(cs), pairs, is_box(cs)))
    placed = len(rows)
    out = {"placed": placed, "jobs": n_jobs}
    if multi:
        out["dist_job"] = statistics.mean(s / p for s, p, _ in multi)
        out["dist_pairs"] = sum(s for s, _, _ in multi) / sum(p for _, p, _ in multi)
        out["box"] = sum(b for _, _, b in multi) / len(multi)
    if rows:
        out["makespan"] = (max(float(r["end"]) for r in rows)
                           - min(float(r["submit"]) for r in rows))
        out["wait"] = statistics.mean(waits)
    return out


def sdiag_cycles(path):
    """Mean main and backfill cycle (microseconds) from an sdiag dump."""
    out = {}
    try:
        text = open(path).read()
    except OSError:
        return out
    for key, head in (("main_us", "Main schedule statistics"),
                      ("bf_us", "Backfilling stats")):
        at = text.find(head)
        m = re.search(r"Mean cycle:\s*(\d+)", text[at:]) if at >= 0 else None
        if m:
            out[key] = float(m.group(1))
    return out


# ------------------------------------------------------------- running
class Bench:
    def __init__(self, args):
        self.args = args
        self.copied = set()
        self.work = tempfile.mkdtemp(prefix="torus3d-peer.")

    def missing(self, where, alloc):
        if where == "sid":
            if not os.path.exists(os.path.join(SID, "usr/sbin/slurmctld")):
                return "no sid chroot at %s (contrib/setup-trixie.sh --suite sid)" % SID
        elif where == "trixie":
            so = TRIXIE + self.args.trixie_build + "/plugin/.libs/topology_mesh.so"
            if alloc and not os.path.exists(so):
                return "no 24.11 build %s (.ci/run's check-slurm step makes it)" % so
            if not os.path.exists(os.path.join(TRIXIE, "usr/sbin/slurmctld")):
                return "no trixie chroot at %s (contrib/setup-trixie.sh)" % TRIXIE
        elif where == "host":
            if not shutil.which("slurmctld"):
                return "no Slurm on the host (contrib/setup-debian.sh)"
            if alloc and not os.path.exists(os.path.join(TOP, "plugin/.libs/select_mesh.so")):
                return "select_mesh.so not built (make)"
        return None

    def root(self, where):
        return {"sid": SID, "trixie": TRIXIE, "host": ""}[where]

    def one(self, name, stream_path, n_jobs, tag):
        where, opts, alloc, extra = CONFIGS[name][:4]
        params = CONFIGS[name][4] if len(CONFIGS[name]) > 4 else None
        root = self.root(where)
        # The cluster's directory as the daemons see it, and as we do.
        base = "/tmp" if where != "host" else self.work
        inner = tempfile.mkdtemp(prefix="t3p-%s." % tag, dir=root + base)[len(root):]
        outer = root + inner
        os.makedirs(outer + "/etc", exist_ok=True)
        shutil.copy(stream_path, outer + "/stream.swf")
        if extra == "topology.yaml":
            with open(outer + "/etc/topology.yaml", "w") as f:
                f.write(topology_yaml())
        tree = TOP if where == "host" else CHROOT_TREE
        cl = [tree + "/contrib/slurm-local/cluster.sh", "start", "--dir", inner,
              "--mesh", "x".join("%dt" % d for d in DIMS), "--timeout", "120"] + opts
        if params:
            n = DIMS[0] * DIMS[1] * DIMS[2]
            with open(outer + "/mesh-in.conf", "w") as f:
                f.write("Dimensions=%s\nNodes=n[0-%d]\nAllocator=%s\n"
                        "AllocatorParameters=%s\n"
                        % ("x".join("%dt" % d for d in DIMS), n - 1, alloc, params))
            cl += ["--mesh-conf", inner + "/mesh-in.conf"]
        elif alloc:
            cl += ["--allocator", alloc]
        if where == "host" and alloc:
            os.makedirs(outer + "/plugins", exist_ok=True)
            shutil.copy(os.path.join(TOP, "plugin/.libs/select_mesh.so"), outer + "/plugins/")
            cl += ["--plugin-dir", inner + "/plugins"]
        if where == "trixie" and alloc:
            cl += ["--plugin-dir", self.args.trixie_build + "/plugin/.libs"]
        # The cluster is stopped however the replay ends (also on TERM).
        script = ('set -u; export SLURM_CONF=%(d)s/etc/slurm.conf; '
                  'trap "%(tree)s/contrib/slurm-local/cluster.sh stop --dir %(d)s >/dev/null 2>&1" EXIT; '
                  'trap "exit 143" TERM INT HUP; '
                  '%(start)s >%(d)s/start.log 2>&1 || { tail -20 %(d)s/start.log >&2; exit 1; }; '
                  'python3 %(tree)s/contrib/replay/meshreplay --use-running --no-progress '
                  '--speedup %(speedup)g '
                  '--mesh-conf %(d)s/etc/mesh.conf --jobs-csv %(d)s/jobs.csv '
                  '--summary %(d)s/summary.json --timeout 900 %(d)s/stream.swf '
                  '>%(d)s/replay.log 2>&1; rc=$?; sdiag >%(d)s/sdiag.txt 2>&1; '
                  '[ $rc -le 1 ] || tail -20 %(d)s/replay.log >&2; exit $rc'
                  % {"d": inner, "start": " ".join("'%s'" % c for c in cl), "tree": tree,
                     "speedup": self.args.speedup})
        cmd = ["bash", "-c", script]
        if where != "host":
            copy = []
            if where not in self.copied:
                copy = ["--copy", TOP, CHROOT_TREE]
                self.copied.add(where)
            cmd = [RUN, "--root", root] + copy + ["--"] + cmd
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
        try:
            err = p.communicate()[1]
        except BaseException:
            # meshreplay cancels its jobs; run.sh may end before the
            # chroot's trap has stopped the cluster, so stop it here too
            # before its directory goes.
            os.killpg(p.pid, signal.SIGTERM)
            p.wait(timeout=180)
            stop = [tree + "/contrib/slurm-local/cluster.sh", "stop", "--dir", inner]
            if where != "host":
                stop = [RUN, "--root", root, "--"] + stop
            subprocess.run(stop, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=300)
            if not self.args.keep:
                shutil.rmtree(outer, ignore_errors=True)
            raise
        # meshreplay exits 1 when a job was lost or refused (torus3d refuses
        # sizes it has no placement for) and also when a node was held twice.
        log = open(outer + "/replay.log").read() if os.path.exists(outer + "/replay.log") else ""
        seen = re.search(r"(\d+) jobs replayed, (\d+) lost.*node overlaps seen: (\d+)", log)
        if p.returncode > 1 or not seen or not os.path.exists(outer + "/jobs.csv"):
            sys.stderr.write(err[-2000:])
            die("%s on stream %s failed (kept %s)" % (name, tag, outer))
        if int(seen.group(3)):
            die("%s on stream %s: meshreplay saw %s node overlaps (kept %s)"
                % (name, tag, seen.group(3), outer))
        m = metrics(outer + "/jobs.csv", n_jobs)
        m.update(sdiag_cycles(outer + "/sdiag.txt"))
        if m["placed"] + int(seen.group(2)) != n_jobs:
            die("%s on stream %s: %d placed + %s lost is not %d jobs (kept %s)"
                % (name, tag, m["placed"], seen.group(2), n_jobs, outer))
        if not self.args.keep:
            shutil.rmtree(outer, ignore_errors=True)
        return m


def fmt(vals, f):
    vals = [v for v in vals if v is not None]
    if not vals:
        return "-"
    med = statistics.median(vals)
    if len(vals) == 1:
        return f % med
    return (f % med) + " [" + (f % min(vals)) + "-" + (f % max(vals)) + "]"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=200)
    ap.add_argument("--rate", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--speedup", type=float, default=1.0,
                    help="meshreplay's --speedup (default 1: real time, as the "
                    "stream was specified)")
    ap.add_argument("--configs", default=",".join(DEFAULT_CONFIGS))
    ap.add_argument("--streams", default="A,B")
    ap.add_argument("--keep", action="store_true",
                    help="keep each cluster's directory (jobs.csv, logs)")
    ap.add_argument("--save", metavar="FILE")
    ap.add_argument("--trixie-build", default=TRIXIE_BUILD, metavar="DIR",
                    help="the 24.11 build inside the trixie chroot (default %s)"
                    % TRIXIE_BUILD)
    ap.add_argument("--merge", nargs="+", metavar="FILE")
    args = ap.parse_args()
    if args.merge:
        res, head = {}, None
        for path in args.merge:
            try:
                lines = open(path).read().splitlines()
            except OSError as e:
                die("%s: %s" % (path, e.strerror))
            for n, line in enumerate(lines, 1):
                try:
                    r = json.loads(line)
                    res.setdefault((r["stream"], r["config"]), []).append(r["m"])
                    h = (r["jobs"], r["rate"], r["seed"], r["speedup"])
                except (ValueError, KeyError, TypeError):
                    die("%s:%d: not a torus3d-peer --save line" % (path, n))
                if head and h != head:
                    die("%s:%d: jobs, rate, seed or speedup differ from the "
                        "first file's" % (path, n))
                head = h
        if not res:
            die("nothing to merge")
        args.jobs, args.rate, args.seed, args.speedup = head
        runs = max(len(v) for v in res.values())
        streams = [s for s in STREAMS if any(k[0] == s for k in res)]
        runnable = [c for c in CONFIGS if any(k[1] == c for k in res)]
        report(args, res, streams, runnable, runs)
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGHUP, lambda *_: sys.exit(129))
    if os.geteuid() != 0:
        die("must run as root (the chroots and the daemons)")
    if args.runs < 1 or args.jobs < 1 or args.rate <= 0 or args.speedup <= 0:
        die("--runs, --jobs, --rate and --speedup must be positive")
    configs = [c for c in args.configs.split(",") if c]
    for c in configs:
        if c not in CONFIGS:
            die("unknown configuration %s (known: %s)" % (c, ", ".join(CONFIGS)))
    streams = [s for s in args.streams.split(",") if s]
    for s in streams:
        if s not in STREAMS:
            die("unknown stream %s (A or B)" % s)
    b = Bench(args)
    runnable = []
    for c in configs:
        why = b.missing(CONFIGS[c][0], CONFIGS[c][2])
        if why:
            print("torus3d-peer: skipping %s: %s" % (c, why), file=sys.stderr)
        else:
            runnable.append(c)
    if not runnable:
        print("torus3d-peer: no configuration can run here; nothing measured",
              file=sys.stderr)
        return
    paths = {}
    for s in streams:
        paths[s] = os.path.join(b.work, "stream-%s.swf" % s)
        write_stream(paths[s], STREAMS[s], args.jobs, args.rate, args.seed)
    res = {}
    save = open(args.save, "a") if args.save else None
    try:
        for run in range(args.runs):
            for s in streams:
                for c in runnable:
                    m = b.one(c, paths[s], args.jobs, s)
                    res.setdefault((s, c), []).append(m)
                    if save:
                        save.write(json.dumps({
                            "stream": s, "config": c, "run": run + 1,
                            "jobs": args.jobs, "rate": args.rate,
                            "seed": args.seed, "speedup": args.speedup,
                            "m": m}) + "\n")
                        save.flush()
                    print("torus3d-peer: run %d stream %s %-20s %s" % (
                        run + 1, s, c, json.dumps({k: round(v, 3) for k, v in m.items()})),
                        file=sys.stderr, flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(b.work, ignore_errors=True)
        for where in b.copied:
            shutil.rmtree(b.root(where) + CHROOT_TREE, ignore_errors=True)
    report(args, res, streams, runnable, args.runs)


def report(args, res, streams, runnable, runs):
    print("4t x 4t x 4t, %d jobs at %g/s, seed %d, %d run(s): median [min-max]"
          % (args.jobs, args.rate, args.seed, runs))
    for s in streams:
        print("\nstream %s (sizes %s)" % (s, " ".join(map(str, STREAMS[s]))))
        print("  %-28s %13s %21s %21s %16s %13s %19s %19s %19s" % (
            "configuration", "placed", "distance/job", "distance/pairs",
            "on a box", "makespan s", "mean wait s", "main cycle us",
            "bf cycle us"))
        for c in runnable:
            ms = res.get((s, c))
            if not ms:
                continue
            print("  %-28s %13s %21s %21s %16s %13s %19s %19s %19s" % (
                c, fmt([m["placed"] for m in ms], "%d"),
                fmt([m.get("dist_job") for m in ms], "%.3f"),
                fmt([m.get("dist_pairs") for m in ms], "%.3f"),
                fmt([m.get("box") for m in ms], "%.2f"),
                fmt([m.get("makespan") for m in ms], "%.0f"),
                fmt([m.get("wait") for m in ms], "%.1f"),
                fmt([m.get("main_us") for m in ms], "%.0f"),
                fmt([m.get("bf_us") for m in ms], "%.0f")))

    def med(s, c, k):
        v = [m.get(k) for m in res.get((s, c), []) if m.get(k) is not None]
        return statistics.median(v) if v else None

    print("\ntargets (issue 56), medians:")
    if ("A", "torus3d@26.05") in res and ("A", "cons_tres@26.05") in res:
        print("  A torus3d@26.05: wait / cons_tres@26.05 %.3f" % (
            med("A", "torus3d@26.05", "wait") / med("A", "cons_tres@26.05", "wait")))
    for bf, stock in (("box-first@24.11", "cons_tres@24.11"),
                      ("box-first-wait@24.11", "cons_tres@24.11"),
                      ("box-first@22.05", "linear@22.05"),
                      ("box-first-wait@22.05", "linear@22.05")):
        if (("A", bf) in res) and ("A", "torus3d@26.05") in res:
            print("  A %s: on a box %.2f vs torus3d %.2f; distance/job %.3f vs %.3f; "
                  "wait / %s %.3f" % (
                      bf, med("A", bf, "box"), med("A", "torus3d@26.05", "box"),
                      med("A", bf, "dist_job"), med("A", "torus3d@26.05", "dist_job"),
                      stock, med("A", bf, "wait") / med("A", stock, "wait")
                      if ("A", stock) in res else float("nan")))
        if ("B", bf) in res and ("B", "linear@22.05") in res:
            print("  B %s: placed %d of %d; distance/job / linear@22.05 %.3f" % (
                bf, med("B", bf, "placed"), args.jobs,
                med("B", bf, "dist_job") / med("B", "linear@22.05", "dist_job")))

    topo = [c for c in ("mc1x1@24.11", "contig-ff@24.11", "box-first@24.11",
                        "select-mesh-contig-ff@24.11")
            if any((s, c) in res for s in streams)]
    if topo and any((s, "cons_tres@24.11") in res for s in streams):
        print("\ntopology/mesh (and select/mesh) against stock cons_tres on 24.11 "
              "(issue 51), medians:")
        for s in streams:
            if (s, "cons_tres@24.11") not in res:
                continue
            for c in topo:
                if (s, c) not in res:
                    continue

                def ratio(k):
                    a, b = med(s, c, k), med(s, "cons_tres@24.11", k)
                    return "%.3f" % (a / b) if a is not None and b else "-"
                print("  %s %-27s on a box %.2f vs %.2f; distance/job %s; wait %s; "
                      "main cycle %s; backfill cycle %s (ratios to stock)" % (
                          s, c, med(s, c, "box") or 0, med(s, "cons_tres@24.11", "box") or 0,
                          ratio("dist_job"), ratio("wait"), ratio("main_us"), ratio("bf_us")))


if __name__ == "__main__":
    main()
