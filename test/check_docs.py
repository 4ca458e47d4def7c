#!/usr/bin/env python3
"""check_docs.py - re-run the commands in the docs and compare their output.

Usage:
  check_docs.py [--update] [--slow] [--bin DIR]... FILE.md [FILE.md ...]

Every fenced block whose info string is `console` is a transcript: lines
that start with "$ " are commands (a line ending in a backslash continues
on the next one), and the lines up to the next command or the end of the
block are what the command prints.  Each command runs with bash, in a
scratch directory that sees the project's contrib/, doc/ and test/ and,
as ../shared, the shared data (SHARED_DIR, default ../shared beside the
project), with the --bin directories first on PATH.  The block passes if
every command prints exactly its lines (trailing blanks ignored).

A block right after the line `<!-- check-docs: slow -->` runs only with
--slow (make check-docs-slow).  A block whose commands name ../shared is
skipped, and said so, when the shared data is not there.

--update writes what the commands print into the blocks instead of
comparing (for a deliberate change; the diff then shows what moved).

Exit status: 0 all checked blocks agree, 1 a block differs or a command
fails, 2 usage.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

SLOW_MARK = "<!-- check-docs: slow -->"


def blocks(lines):
    """(start, end, slow) of each console block: lines[start] is the
    opening fence, lines[end] the closing one."""
    out, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "```console":
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            if j == len(lines):
                raise ValueError(f"line {i + 1}: console block not closed")
            k = i - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            out.append((i, j, k >= 0 and lines[k].strip() == SLOW_MARK))
            i = j
        i += 1
    return out


def transcript(body):
    """[(command, [expected lines])] from a block's lines."""
    steps, cmd = [], None
    for line in body:
        if cmd is not None and cmd.endswith("\\"):
            cmd = cmd + "\n" + line
            steps[-1] = (cmd, [])
            continue
        if line.startswith("$ "):
            cmd = line[2:]
            steps.append((cmd, []))
        elif steps:
            steps[-1][1].append(line)
        else:
            raise ValueError(f"output before any command: {line!r}")
    return steps


def run(cmd, cwd, env):
    p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=cwd,
                       env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return p.returncode, [line.rstrip() for line in
                          p.stdout.rstrip("\n").split("\n")] \
        if p.stdout.strip() else []


def scratch(top, shared):
    """A working directory with contrib/, doc/, test/ and ../shared."""
    root = tempfile.mkdtemp(prefix="check-docs.")
    work = os.path.join(root, "work")
    os.mkdir(work)
    for d in ("contrib", "doc", "test"):
        os.symlink(os.path.join(top, d), os.path.join(work, d))
    if os.path.isdir(shared):
        os.symlink(os.path.abspath(shared), os.path.join(root, "shared"))
    return root, work


def main(argv):
    ap = argparse.ArgumentParser(prog="check_docs.py")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--slow", action="store_true")
    ap.add_argument("--bin", action="append", default=[])
    args = ap.parse_args(argv)
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    shared = os.environ.get("SHARED_DIR", os.path.join(top, "..", "shared"))
    have_shared = os.path.isdir(shared)
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join(
        [os.path.abspath(b) for b in args.bin] + [env.get("PATH", "")])
    env["LC_ALL"] = "C"
    root, work = scratch(top, shared)
    checked = skipped = failed = 0
    try:
        for path in args.files:
            with open(path) as f:
                lines = f.read().split("\n")
            try:
                found = blocks(lines)
            except ValueError as e:
                print(f"{path}: {e}")
                return 1
            new = list(lines)
            updates = []  # (start, end, body), applied last to first
            for start, end, slow in found:  # in order: blocks build on
                where = f"{path}:{start + 1}"  # the files of earlier ones
                body = lines[start + 1:end]
                steps = transcript(body)
                text = "\n".join(c for c, _ in steps)
                if slow and not args.slow:
                    print(f"{where}: skipped (slow; make check-docs-slow)")
                    skipped += 1
                    continue
                if "../shared" in text and not have_shared:
                    print(f"{where}: skipped (needs ../shared)")
                    skipped += 1
                    continue
                got_body = []
                ok = True
                for cmd, want in steps:
                    rc, got = run(cmd, work, env)
                    got_body += ["$ " + cmd.split("\n")[0]] + \
                        cmd.split("\n")[1:] + got
                    if rc != 0:
                        print(f"{where}: exit {rc}: {cmd}")
                        print("\n".join("  | " + g for g in got[-10:]))
                        ok = False
                    elif [w.rstrip() for w in want] != got and \
                            not args.update:
                        print(f"{where}: the output of `{cmd}` differs:")
                        for w in want:
                            if w.rstrip() not in got:
                                print(f"  doc:  {w}")
                        for g in got:
                            if g not in [w.rstrip() for w in want]:
                                print(f"  now:  {g}")
                        ok = False
                checked += 1
                if args.update and ok:
                    updates.append((start, end, got_body))
                failed += not ok
            for start, end, got_body in reversed(updates):
                new[start + 1:end] = got_body
            if args.update:
                with open(path, "w") as f:
                    f.write("\n".join(new))
    finally:
        subprocess.run(["rm", "-rf", root])
    print(f"check-docs: {checked} blocks checked, {failed} differ, "
          f"{skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
