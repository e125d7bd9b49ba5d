"""Shared by the Python module's tests: where the CLI and the data are, and skips reported to CI.

ctest runs these with LUCENT_CLI (the built `lucent`), LUCENT_DATA and PYTHONPATH=BUILD/python;
a skipped test is written to $LUCENT_SKIP_REPORT as `part<TAB>reason`, so that
tests/ci/check_tests.py fails CI on a skip tests/allowed-skips.txt does not allow.
"""

import os
import pathlib
import socket

import pytest


def pytest_sessionstart(session):
    """Starts this run's skip report (empty when nothing skips): check_tests.py reads it after ctest."""
    path = os.environ.get("LUCENT_SKIP_REPORT")
    if path:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        open(path, "w").close()


def pytest_runtest_logreport(report):
    path = os.environ.get("LUCENT_SKIP_REPORT")
    if report.skipped and path:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reason = reason.removeprefix("Skipped: ")
        with open(path, "a") as f:
            f.write("%s\t%s\n" % (report.nodeid.split("::")[-1], " ".join(reason.split())))


@pytest.fixture(scope="session")
def data():
    """The real data folder (tests/fetch-data.sh); the test is skipped, and reported, without it."""
    root = pathlib.Path(os.environ.get("LUCENT_DATA", os.path.expanduser("~/.cache/lucent/data")))
    if not (root / "cranium" / "cranium.mhd").is_file():
        pytest.skip(f"the real data is not under {root} (tests/fetch-data.sh)")
    return root


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("LUCENT_CLI")
    if not path or not os.access(path, os.X_OK):
        pytest.fail("LUCENT_CLI must name the built lucent executable (ctest sets it)")
    return path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
