#!/usr/bin/env python3
"""t3d-like.py - write a seeded SWF trace shaped like the LLNL Cray T3D
log (a 256-PE machine, 21,323 jobs in its cleaned form), for the
machine-scale benchmarks of issue 37 (contrib/bench/meshsim-scale.sh).

No LLNL trace is used or needed: every field is drawn from the model
below, so the same seed gives the same file on every machine.

  size      a power of two, 2..256 PEs, with the weights of SIZE_WEIGHTS
            (T3D partitions are powers of two; NQS queues pe32..pe256;
            the weights are this script's choice, not the log's), then
            multiplied by --scale and capped at --cap
  runtime   log-uniform over [10 s, the queue limit]
  req_time  the queue limit: 2 h up to 32 PEs (interactive), else 4 h
  submit    exponential inter-arrival times, mean --interarrival s
            (default 400 s: an offered load of about 0.60 on 256 PEs)
  --repeat  the trace written R times back to back in time (job ids
            renumbered), the "LLNL-T3D-like trace x5" of issue 37

Usage: t3d-like.py [--jobs N] [--scale F] [--cap C] [--repeat R]
                   [--interarrival S] [--seed N] > trace.swf
"""
import argparse
import math
import random
import sys

SIZE_WEIGHTS = {2: 10, 4: 12, 8: 17, 16: 18, 32: 20, 64: 13, 128: 7,
                256: 3}


def jobs(n, seed, interarrival):
    """(submit, runtime, size, req_time) of n jobs, 256-PE scale."""
    rng = random.Random(seed)
    sizes = list(SIZE_WEIGHTS)
    weights = [SIZE_WEIGHTS[s] for s in sizes]
    t = 0.0
    for _ in range(n):
        t += rng.expovariate(1.0 / interarrival)
        size = rng.choices(sizes, weights)[0]
        limit = 7200 if size <= 32 else 14400
        run = math.exp(rng.uniform(math.log(10), math.log(limit)))
        yield int(t), int(run), size, limit


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--jobs", type=int, default=21323)
    p.add_argument("--scale", type=int, default=1)
    p.add_argument("--cap", type=int, default=0, help="0: no cap")
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--interarrival", type=float, default=400.0)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    if a.jobs < 1 or a.scale < 1 or a.repeat < 1 or a.cap < 0 or \
            a.interarrival <= 0:
        p.error("--jobs, --scale and --repeat must be >= 1, --cap >= 0, "
                "--interarrival > 0")
    top = 256 * a.scale if not a.cap else min(256 * a.scale, a.cap)
    base = list(jobs(a.jobs, a.seed, a.interarrival))
    span = base[-1][0] + 1
    out = sys.stdout
    out.write("; t3d-like.py --jobs %d --scale %d --cap %d --repeat %d "
              "--interarrival %g --seed %d\n; MaxProcs: %d\n; MaxNodes: %d\n"
              % (a.jobs, a.scale, a.cap, a.repeat, a.interarrival, a.seed,
                 top, top))
    jid = 0
    for r in range(a.repeat):
        for submit, run, size, limit in base:
            jid += 1
            size = size * a.scale
            if a.cap:
                size = min(size, a.cap)
            out.write("%d %d -1 %d %d -1 -1 %d %d -1 1 %d 1 -1 %d -1 -1 -1\n"
                      % (jid, submit + r * span, run, size, size, limit,
                         1 + jid % 97, 1 if size * 8 <= top else 0))


if __name__ == "__main__":
    main()
