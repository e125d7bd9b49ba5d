#!/usr/bin/env python3
"""@brief Runs a command on an X server of its own and exits with the command's status.

    on_xvfb.py [--xvfb PATH] [--screen WxHxD] COMMAND [ARG...]

Xvfb picks a free display itself (-displayfd), so no lock files are raced for, and the server is
stopped after the command. It replaces xvfb-run, whose cleanup failed now and then in CI (exit 5,
"rm: cannot remove ''", also with an authority file of its own) after the command had run, and
replaced the command's exit status with its own. Standard library only.
"""
import os
import shutil
import signal
import subprocess
import sys

SCREEN = "1600x1200x24"


def find_server(hint=""):
    """Xvfb: the path given, or Xvfb beside a given xvfb-run, or Xvfb on PATH; None when there is none."""
    if hint and os.path.basename(hint) == "Xvfb" and os.path.exists(hint):
        return hint
    if hint:
        beside = os.path.join(os.path.dirname(os.path.abspath(hint)), "Xvfb")
        if os.path.exists(beside):
            return beside
    return shutil.which("Xvfb")


def start_xvfb(server, screen=SCREEN):
    """(process, ":N") of a started Xvfb; SystemExit naming the server when it does not start."""
    r, w = os.pipe()
    proc = subprocess.Popen([server, "-displayfd", str(w), "-screen", "0", screen, "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        number = f.readline().strip()
    if not number.isdigit():
        proc.kill()
        raise SystemExit("%s did not start (exit %s)" % (server, proc.wait()))
    return proc, ":" + number


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main(argv):
    hint, screen = "", SCREEN
    while argv and argv[0] in ("--xvfb", "--screen") and len(argv) > 1:
        if argv[0] == "--xvfb":
            hint = argv[1]
        else:
            screen = argv[1]
        argv = argv[2:]
    if not argv:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    server = find_server(hint)
    if not server:
        print("on_xvfb.py: Xvfb is not installed (apt-get install xvfb)", file=sys.stderr)
        return 127
    xvfb, display = start_xvfb(server, screen)
    child = None

    def forward(signum, _frame):  # ctest's timeout ends this script: end the command and the server too
        if child and child.poll() is None:
            child.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    try:
        child = subprocess.Popen(argv, env=dict(os.environ, DISPLAY=display))
        rc = child.wait()
    finally:
        stop(xvfb)
    return 128 - rc if rc < 0 else rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
