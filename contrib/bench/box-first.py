#!/usr/bin/env python3
"""box-first.py - box-first against the contiguous and non-contiguous
allocators on a small torus, in meshsim (issue 56's two streams).

Stream A: accelerator pods, sizes 1, 2, 4, 8, 16 and 32 equally likely;
stream B: sizes 3, 5, 6 and 12 (no 5-node box fits in 4x4x4).  Each is
meshsim-gen --workload pods with 3,000 jobs on a 4tx4tx4t torus, under
EASY, for seeds 1-3; every allocator replays the same three traces.
Printed: the median over the seeds and, in brackets, the spread (max -
min) of the share of multi-node jobs on a box, their mean pairwise
distance, the mean wait, the mean bounded slowdown and the loss of
capacity, then the ratios the issue asks for.  Stream A is run again
under the contention model (the pods' sidecar: all-to-all, half of the
runtime communication), where a job's links shared with others stretch
its runtime.  Last, the parameters: slack= on four machines (2,000-job
pods streams, seeds 1-3) align=1 (aligned boxes first) and keep=1 (the box that leaves the
largest free box first), and box= and else= on stream A.
Deterministic: no timings.

With --machines TRACES_DIR instead: which compact allocator for a job
without hints, on meshes and tori - mc1x1, box-first and box-first with
else=mc1x1 - over the pods streams and the NASA iPSC/860 and HPC2N
excerpt traces of TRACES_DIR (EASY, trace runtimes; HPC2N's two
processors per node), the mean pairwise distance of multi-node jobs.

Usage: contrib/bench/box-first.py [BUILD_DIR]
       contrib/bench/box-first.py --machines TRACES_DIR [BUILD_DIR]
(meshsim and meshsim-gen from BUILD_DIR, else from PATH)
"""
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile

MESH = "4tx4tx4t"
SEEDS = (1, 2, 3)
STREAMS = (("A", "1,2,4,8,16,32", 170, "trace"),
           ("B", "3,5,6,12", 100, "trace"),
           ("A", "1,2,4,8,16,32", 170, "contention"))
# NAME or NAME:PARAMS (--allocator-params)
ALLOCATORS = ("box-first", "box-first:align=1", "box-first:keep=1",
              "box-first:wait=1", "box-first:wait=1,keep=1",
              "contig-ff", "contig-bf", "contig-bf:align=1",
              "contig-bf:keep=1", "mc1x1", "hilbert-bf", "snake-bf",
              "rowmajor-ff", "mm-inc")
FIGURES = (("box_share_multi", "on a box", "{:.3f}"),
           ("mean_avg_pairwise_multi", "distance", "{:.3f}"),
           ("mean_wait", "wait (s)", "{:.0f}"),
           ("mean_bounded_slowdown", "bsld", "{:.2f}"),
           ("loss_of_capacity", "LoC", "{:.4f}"))


def tool(build, path):
    return os.path.join(build, "src", path) if build else os.path.basename(path)


def run(build, tmp, stream, sizes, interarrival, seed, alloc, model):
    swf = os.path.join(tmp, f"{stream}{seed}.swf")
    attrs = os.path.join(tmp, f"{stream}{seed}.csv")
    if not os.path.exists(swf):
        subprocess.run([tool(build, "meshgen/meshsim-gen"),
                        "--workload", "pods", "--jobs", "3000",
                        "--seed", str(seed), "--sizes", sizes,
                        "--interarrival", str(interarrival),
                        "--swf", swf, "--attrs", attrs], check=True)
    summ = os.path.join(tmp, "s.json")
    extra = ([] if model == "trace" else
             ["--runtime-model", model, "--job-attrs", attrs])
    alloc, _, params = alloc.partition(":")
    if params:
        extra += ["--allocator-params", params]
    subprocess.run([tool(build, "meshsim/meshsim"),
                    "--mesh", MESH, "--allocator", alloc,
                    "--summary", summ] + extra + [swf],
                   check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    with open(summ) as f:
        return json.load(f)


def cell(values, fmt):
    med = statistics.median(values)
    return f"{fmt.format(med)} [{fmt.format(max(values) - min(values))}]"


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if len(sys.argv) > 2 and sys.argv[1] == "--machines":
        machines(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
        return
    build = sys.argv[1] if len(sys.argv) > 1 else None
    med = {}
    with tempfile.TemporaryDirectory() as tmp:
        for stream, sizes, ia, model in STREAMS:
            print(f"stream {stream}: meshsim-gen --workload pods --sizes "
                  f"{sizes} --jobs 3000 --interarrival {ia}, seeds 1-3; "
                  f"{MESH}, EASY, {model} runtimes")
            figures = FIGURES + ((("mean_stretch", "stretch", "{:.4f}"),)
                                 if model != "trace" else ())
            print(f"  {'allocator':<23} {'jobs':>5}" + "".join(
                f" {label:>15}" for _, label, _ in figures))
            for alloc in ALLOCATORS:
                runs = [run(build, tmp, stream, sizes, ia, s, alloc, model)
                        for s in SEEDS]
                jobs = statistics.median(r["jobs"] for r in runs)
                row = f"  {alloc:<23} {jobs:>5.0f}"
                for key, _, fmt in figures:
                    vals = [r[key] for r in runs]
                    med[stream + model, alloc, key] = statistics.median(vals)
                    row += f" {cell(vals, fmt):>15}"
                med[stream + model, alloc, "jobs"] = jobs
                print(row)
    a = lambda alloc, key: med["Atrace", alloc, key]
    b = lambda alloc, key: med["Btrace", alloc, key]
    print("targets (medians):")
    print(f"  A: on a box, box-first / contig-ff "
          f"{a('box-first', 'box_share_multi') / a('contig-ff', 'box_share_multi'):.3f}; "
          f"distance, box-first / contig-ff "
          f"{a('box-first', 'mean_avg_pairwise_multi') / a('contig-ff', 'mean_avg_pairwise_multi'):.3f}; "
          f"wait, box-first / mc1x1 "
          f"{a('box-first', 'mean_wait') / a('mc1x1', 'mean_wait'):.3f}")
    print(f"  B: jobs placed, box-first {b('box-first', 'jobs'):.0f} of "
          f"{b('mc1x1', 'jobs'):.0f}; distance, box-first / rowmajor-ff "
          f"{b('box-first', 'mean_avg_pairwise_multi') / b('rowmajor-ff', 'mean_avg_pairwise_multi'):.3f}")
    w = "box-first:wait=1"
    print(f"  A, wait=1: on a box / contig-ff "
          f"{a(w, 'box_share_multi') / a('contig-ff', 'box_share_multi'):.3f}; "
          f"distance / contig-ff "
          f"{a(w, 'mean_avg_pairwise_multi') / a('contig-ff', 'mean_avg_pairwise_multi'):.3f}; "
          f"wait / mc1x1 {a(w, 'mean_wait') / a('mc1x1', 'mean_wait'):.3f}")
    print(f"  B, wait=1: jobs placed {b(w, 'jobs'):.0f} of "
          f"{b('mc1x1', 'jobs'):.0f}; distance / rowmajor-ff "
          f"{b(w, 'mean_avg_pairwise_multi') / b('rowmajor-ff', 'mean_avg_pairwise_multi'):.3f}; "
          f"wait / mc1x1 {b(w, 'mean_wait') / b('mc1x1', 'mean_wait'):.3f}")
    parameters(build)


# (mesh, nodes, sizes, interarrival) for the slack study
SLACK_MESHES = (("4tx4tx4t", 64, "1,2,4,8,16,32", 170),
                ("8tx8t", 64, "1,2,4,8,16,32", 170),
                ("4x4x4", 64, "1,2,4,8,16,32", 170),
                ("16x22", 352, "1,2,3,5,6,7,12,20,24", 60))


def mean_distance(build, tmp, mesh, nodes, sizes, ia, alloc, params):
    vals = []
    for seed in SEEDS:
        swf = os.path.join(tmp, f"p{nodes}-{sizes}-{seed}.swf")
        if not os.path.exists(swf):
            subprocess.run([tool(build, "meshgen/meshsim-gen"),
                            "--workload", "pods", "--jobs", "2000",
                            "--seed", str(seed), "--nodes", str(nodes),
                            "--sizes", sizes, "--interarrival", str(ia),
                            "--swf", swf], check=True)
        summ = os.path.join(tmp, "p.json")
        subprocess.run([tool(build, "meshsim/meshsim"), "--mesh", mesh,
                        "--allocator", alloc, "--summary", summ] +
                       (["--allocator-params", params] if params else []) +
                       [swf], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        with open(summ) as f:
            vals.append(json.load(f)["mean_avg_pairwise_multi"])
    return statistics.mean(vals)


def parameters(build):
    print("parameters: mean distance of multi-node jobs, mean over seeds "
          "1-3 of 2,000-job pods streams, EASY")
    cols = ("slack=0", "slack=10", "slack=25", "slack=1000", "align=1",
            "keep=1")
    print(f"  {'mesh':<9} {'sizes':<21}" + "".join(f" {c:>10}" for c in
          cols + ("mm-inc", "mc1x1")))
    with tempfile.TemporaryDirectory() as tmp:
        for mesh, nodes, sizes, ia in SLACK_MESHES:
            row = f"  {mesh:<9} {sizes:<21}"
            for c in cols:
                row += f" {mean_distance(build, tmp, mesh, nodes, sizes, ia, 'box-first', c):>10.4f}"
            for alloc in ("mm-inc", "mc1x1"):
                row += f" {mean_distance(build, tmp, mesh, nodes, sizes, ia, alloc, None):>10.4f}"
            print(row)
        mesh, nodes, sizes, ia = SLACK_MESHES[0]
        row = "  box-first on 4tx4tx4t, default sizes:"
        for p in ("else=genalg", "else=mc1x1", "else=hilbert-bf",
                  "box=contig-ff", "box=sl:contig-bf"):
            row += f" {p} {mean_distance(build, tmp, mesh, nodes, sizes, ia, 'box-first', p):.4f};"
        print(row.rstrip(";"))


# (mesh, trace file or pods (nodes, sizes, interarrival), cores per node)
MACHINES = (("4x4x4", (64, "1,2,4,8,16,32", 170), 1),
            ("8x8", (64, "1,2,4,8,16,32", 170), 1),
            ("16x22", (352, "1,2,3,5,6,7,12,20,24", 60), 1),
            ("16x8", "NASA-iPSC-1993-3.1-cln.swf", 1),
            ("8x8x2", "NASA-iPSC-1993-3.1-cln.swf", 1),
            ("12x10", "HPC2N-excerpt-3171.swf", 2),
            ("5x4x6", "HPC2N-excerpt-3171.swf", 2),
            ("4tx4tx4t", (64, "1,2,4,8,16,32", 170), 1),
            ("8tx8t", (64, "1,2,4,8,16,32", 170), 1),
            ("16tx8t", "NASA-iPSC-1993-3.1-cln.swf", 1),
            ("8tx8tx2t", "NASA-iPSC-1993-3.1-cln.swf", 1),
            ("12tx10t", "HPC2N-excerpt-3171.swf", 2),
            ("5tx4tx6t", "HPC2N-excerpt-3171.swf", 2))
COMPACT = (("mc1x1", None), ("box-first", None), ("box-first", "else=mc1x1"))


def trace_distance(build, mesh, swf, cpn, alloc, params):
    with tempfile.TemporaryDirectory() as tmp:
        summ = os.path.join(tmp, "s.json")
        subprocess.run([tool(build, "meshsim/meshsim"), "--mesh", mesh,
                        "--cores-per-node", str(cpn), "--allocator", alloc,
                        "--summary", summ] +
                       (["--allocator-params", params] if params else []) +
                       [swf], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        with open(summ) as f:
            return json.load(f)["mean_avg_pairwise_multi"]


def machines(traces, build):
    print("a job without hints: mean distance of multi-node jobs, EASY, "
          "trace runtimes (pods: mean over seeds 1-3 of 2,000 jobs)")
    print(f"  {'mesh':<9} {'workload':<26}" + "".join(
        f" {a + (' ' + p if p else ''):>20}" for a, p in COMPACT) +
        f" {'best / mc1x1':>13}")
    with tempfile.TemporaryDirectory() as tmp:
        for mesh, work, cpn in MACHINES:
            if isinstance(work, tuple):
                nodes, sizes, ia = work
                label = "pods " + sizes
                vals = [mean_distance(build, tmp, mesh, nodes, sizes, ia, a, p)
                        for a, p in COMPACT]
            else:
                label = work.split("-")[0] + (f", {cpn} per node" if cpn > 1 else "")
                swf = os.path.join(traces, work)
                vals = [trace_distance(build, mesh, swf, cpn, a, p)
                        for a, p in COMPACT]
            print(f"  {mesh:<9} {label:<26}" + "".join(
                f" {v:>20.4f}" for v in vals) +
                f" {min(vals[1:]) / vals[0]:>13.3f}")


if __name__ == "__main__":
    main()
