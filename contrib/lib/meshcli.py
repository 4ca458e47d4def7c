"""meshcli - what slurm-mesh's Python commands (meshtable, meshreplay)
share with its C and shell commands: the version line (-V, --version: the
exact source revision), usage errors in one line and a pointer to --help,
quiet ends on a closed pipe or a signal, and output files that are
complete or untouched.

`make install` puts this module in the package's libexec directory and
fills in the values below; in the source tree they keep their
placeholders and the revision comes from git (src/cli/revision.sh).
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile

REVISION = "@MESH_REVISION@"
LIBEXECDIR = "@MESH_LIBEXECDIR@"
PLUGINDIR = "@MESH_PLUGINDIR@"
INSTALLED = not LIBEXECDIR.startswith("@")
TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def revision():
    """The source revision: filled in at install, else git describe."""
    if not REVISION.startswith("@"):
        return REVISION
    try:
        return subprocess.run(
            ["sh", os.path.join(TOP, "src", "cli", "revision.sh"), TOP],
            capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


class Parser(argparse.ArgumentParser):
    """argparse with the project's conventions: -V/--version, and a usage
    error as one line plus "Try 'PROG --help'." (exit 2), never the whole
    usage."""

    def __init__(self, prog, **kw):
        super().__init__(prog=prog, add_help=False,
                         formatter_class=argparse.RawDescriptionHelpFormatter,
                         **kw)
        self.add_argument("-h", "--help", action="help",
                          help="describe every option, then exit")
        self.add_argument("-V", "--version", action="version",
                          version="%s (slurm-mesh) %s" % (prog, revision()),
                          help="print the source revision, then exit")

    def parse_args(self, args=None, namespace=None):
        """An unknown option is named before anything else is checked."""
        args = sys.argv[1:] if args is None else list(args)
        known = [o for a in self._actions for o in a.option_strings]
        for a in args:
            if a == "--":
                break
            name = a.split("=", 1)[0]
            if (a.startswith("-") and a != "-" and
                    not any(o.startswith(name) for o in known)):
                self.error("unknown option '%s'" % name)
        return super().parse_args(args, namespace)

    def error(self, message):
        print("%s: %s\nTry '%s --help'." % (self.prog, message, self.prog),
              file=sys.stderr)
        sys.exit(2)


class Interrupted(Exception):
    """SIGINT, SIGTERM or SIGHUP: raised once by the handler, which then
    ignores further signals so that the clean-up is not interrupted."""

    def __init__(self, signum):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def on_signal(signum, frame):
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_IGN)
    raise Interrupted(signum)


def catch_signals():
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)


def _quiet_stdout():
    """Nothing more reaches a closed stdout (not even Python's flush at
    exit)."""
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, sys.stdout.fileno())


def run(main):
    """Exit with main()'s status; a closed stdout ends quietly with
    128 + SIGPIPE, as the C commands, and a signal with 128 + its
    number."""
    catch_signals()
    try:
        rc = main()
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
        rc = 128 + signal.SIGPIPE
    except Interrupted as e:
        rc = 128 + e.signum
    sys.exit(rc)


def write_atomic(path, write):
    """Write PATH through a temporary file beside it, renamed over PATH
    once complete: an error or a signal never leaves half a file, and an
    old PATH stays as it was.  An existing PATH that is not a regular file
    (a device such as /dev/null, a FIFO, a terminal, or a symlink to one)
    is written in place: renaming over /dev/null as root would replace the
    machine's null device with a file."""
    if os.path.exists(path) and not os.path.isfile(path):
        with open(path, "w", newline="") as f:
            write(f)
        return
    d = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".",
                               dir=d)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "w", newline="") as f:
            write(f)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
