#!/usr/bin/env python3
"""@brief The CI checks on made-up output: each way a broken change could pass CI (issue 44) must be caught.

check_tests.py: an unlisted skip (a ctest test, a GoogleTest case inside a viewer test, a Python
contract's part), a skip allowed only without a CUDA device where one is present, a missing report,
a missing or unlisted test each fail; allowed skips pass. device-verdict.sh: "0 tests failed" passes,
a failure fails. fuzz/run.sh: a target not built fails. And on the real build (--build): every
viewer test carries label viewer (what the sanitizer pass runs), every test that ctest runs as one
entry reports its skips, and every ctest call of the CI scripts has --no-tests=error.
usage: test_ci_checks.py [--build BUILD_DIR]
"""
import argparse
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import check_tests  # noqa: E402

failures = []


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what, flush=True)
    if not cond:
        failures.append(what)


ALLOWED = """# test list
Cuda*.*                 no-cuda-device  needs a device
live_ui/Live.Device*    no-cuda-device  needs a device
LargeVolume.*Past*      no-large-tests  4-8 GiB
cli_contract/mp4        no-cuda-device  made up for the test
"""


def junit(cases):
    """ctest --output-junit of (name, status[, skip message, output])."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="x" tests="%d">' % len(cases)]
    for c in cases:
        name, status = c[0], c[1]
        out.append('<testcase name="%s" classname="%s" time="0" status="%s">' % (name, name, status))
        if status == "notrun":
            out.append('<skipped message="%s"/>' % c[2])
        out.append("<system-out>%s</system-out></testcase>" % (c[3] if len(c) > 3 else ""))
    out.append("</testsuite>")
    return "\n".join(out)


def gtest_xml(cases):
    """GoogleTest's XML report of (Suite.Case, skipped?)."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>']
    for name, skipped in cases:
        suite, case = name.split(".")
        out.append('<testsuite name="%s"><testcase name="%s" classname="%s" status="run" result="%s">%s</testcase>'
                   '</testsuite>' % (suite, case, suite, "skipped" if skipped else "completed",
                                     '<skipped message="no CUDA device"/>' if skipped else ""))
    out.append("</testsuites>")
    return "\n".join(out)


class Fake:
    """A made-up build folder: ctest's test list, its JUnit report, GoogleTest and skip reports."""

    def __init__(self, tmp):
        self.dir = tempfile.mkdtemp(dir=tmp)
        self.results = os.path.join(self.dir, "test-results")
        os.makedirs(self.results)
        self.tests = []
        self.cases = []
        open(os.path.join(self.dir, "allowed.txt"), "w").write(ALLOWED)

    def test(self, name, status="run", message="", output="", env=None):
        self.tests.append({"name": name, "properties": [{"name": "ENVIRONMENT", "value": env or []}]})
        self.cases.append((name, status, message, output))

    def viewer(self, name, cases):
        path = os.path.join(self.results, name + ".xml")
        self.test(name, env=["GTEST_OUTPUT=xml:" + path])
        if cases is not None:
            open(path, "w").write(gtest_xml(cases))

    def python(self, name, skips):
        path = os.path.join(self.results, name + ".skips")
        self.test(name, env=["LUCENT_SKIP_REPORT=" + path])
        if skips is not None:
            open(path, "w").write("".join("%s\t%s\n" % s for s in skips))

    def run(self, *extra, expected=None):
        json.dump({"tests": self.tests}, open(os.path.join(self.dir, "tests.json"), "w"))
        open(os.path.join(self.results, "ctest.xml"), "w").write(junit(self.cases))
        args = [self.dir, "--junit", os.path.join(self.results, "ctest.xml"), "--tests-json",
                os.path.join(self.dir, "tests.json"), "--allowed", os.path.join(self.dir, "allowed.txt"),
                "--fact", "large-tests=no", "--fact", "vtk=yes", "--fact", "real-data=yes"]
        if expected is not None:
            path = os.path.join(self.dir, "expected.txt")
            open(path, "w").write("".join(n + "\n" for n in expected))
            args += ["--inventory", "--expected", path]
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            rc = check_tests.main(args + list(extra))
        return rc, text.getvalue()


def good(tmp):
    f = Fake(tmp)
    f.test("Geometry.Works")
    f.test("CudaRegionGrowing.Equal", "notrun", "SKIP_REGULAR_EXPRESSION_MATCHED", "[  SKIPPED ] no CUDA device")
    f.test("LargeVolume.SnakePastTwoToTheThirtyTwo", "notrun", "SKIP_REGULAR_EXPRESSION_MATCHED")
    f.viewer("live_ui", [("Live.Grows", False), ("Live.DeviceInterop", True)])
    f.python("cli_contract", [])
    return f


def skip_checker(tmp):
    rc, out = good(tmp).run("--fact", "cuda-device=no")
    check(rc == 0, "allowed skips without a device pass: " + out)
    rc, out = good(tmp).run("--fact", "cuda-device=yes")
    check(rc == 1 and "CudaRegionGrowing.Equal" in out and "live_ui/Live.DeviceInterop" in out
          and "does not hold here" in out, "the same skips where a CUDA device is present fail: " + out)
    f = good(tmp)
    f.viewer("menu_ui", [("RecordRun.Mp4", True)])
    rc, out = f.run("--fact", "cuda-device=no")
    check(rc == 1 and "menu_ui/RecordRun.Mp4" in out, "an unlisted GTEST_SKIP inside a viewer test fails: " + out)
    f = good(tmp)
    f.test("pacs_contract", "notrun", "SKIP_RETURN_CODE=77", "skip: the Orthanc executable is absent")
    rc, out = f.run("--fact", "cuda-device=no")
    check(rc == 1 and "pacs_contract" in out, "an unlisted ctest skip (77) fails: " + out)
    f = good(tmp)
    f.python("export_contract", [("dciodvfy", "dciodvfy (dicom3tools) is not installed")])
    rc, out = f.run("--fact", "cuda-device=no")
    check(rc == 1 and "export_contract/dciodvfy" in out, "an unlisted Python contract skip fails: " + out)
    f = good(tmp)
    f.python("db_contract", None)
    rc, out = f.run("--fact", "cuda-device=no")
    check(rc == 1 and "no skip report" in out, "a Python contract without its skip report fails: " + out)
    f = good(tmp)
    f.viewer("hud_ui", None)
    rc, out = f.run("--fact", "cuda-device=no")
    check(rc == 1 and "no GoogleTest report" in out, "a viewer test without its GoogleTest report fails: " + out)
    f = good(tmp)
    f.test("reslice_ui_planes", "notrun", "SKIP_REGULAR_EXPRESSION_MATCHED", "SKIPPED: xvfb-run is not installed")
    rc, out = f.run("--fact", "cuda-device=no")
    check(rc == 1 and "xvfb-run is not installed" in out, "a test registered as missing its tool fails: " + out)
    f = good(tmp)
    open(os.path.join(f.dir, "allowed.txt"), "a").write("Foo.*  sometimes  made up\nBar.*  no-cuda-device\n")
    rc, out = f.run("--fact", "cuda-device=no")
    check(rc == 1 and "unknown condition" in out and "PATTERN CONDITION REASON" in out,
          "an entry with an unknown condition or no reason fails: " + out)


def inventory(tmp):
    names = ["CudaRegionGrowing.Equal", "Geometry.Works", "LargeVolume.SnakePastTwoToTheThirtyTwo", "cli_contract",
             "live_ui"]
    rc, out = good(tmp).run("--fact", "cuda-device=no", expected=names)
    check(rc == 0, "the expected tests, all run: " + out)
    rc, out = good(tmp).run("--fact", "cuda-device=no", expected=names + ["view3d_ui"])
    check(rc == 1 and "view3d_ui is not registered" in out, "a test missing from the build fails: " + out)
    rc, out = good(tmp).run("--fact", "cuda-device=no", expected=names[1:])
    check(rc == 1 and "CudaRegionGrowing.Equal is not in" in out, "a test not in the list fails: " + out)
    f = good(tmp)
    f.tests.append({"name": "hud_ui", "properties": []})  # registered, never run (ctest -R, a crash of ctest)
    rc, out = f.run("--fact", "cuda-device=no", expected=names + ["hud_ui"])
    check(rc == 1 and "hud_ui did not run" in out, "an expected test that did not run fails: " + out)


def real_lists():
    entries, errors = check_tests.read_allowed(os.path.join(ROOT, "tests", "allowed-skips.txt"))
    check(not errors and entries, "tests/allowed-skips.txt: every entry has a known condition and a reason %s" % errors)
    names = check_tests.read_expected(os.path.join(ROOT, "tests", "expected-tests.txt"))
    check(names == sorted(set(names)) and len(names) > 400, "tests/expected-tests.txt is sorted, once each (%d)"
          % len(names))


def device_verdict(tmp):
    def verdict(log, live=None):
        d = tempfile.mkdtemp(dir=tmp)
        open(os.path.join(d, "device-check.log"), "w").write(log)
        if live is not None:
            open(os.path.join(d, "live-cuda.log"), "w").write(live)
        return subprocess.run(["bash", os.path.join(ROOT, "tests", "gpu", "device-verdict.sh"), d],
                              capture_output=True, text=True).returncode
    passed = ("ctest exit 0\n100% tests passed, 0 tests failed out of 151\nskip check exit 0\n"
              "[       OK ] CudaSnake.SmallCasesForTheSanitizers (12 ms)\nmemcheck exit 0 (0 reports): ok\n")
    check(verdict(passed) == 0, "device-verdict: \"0 tests failed\" and every exit 0 pass")
    check(verdict(passed, "[       OK ] Live.Grows\n") == 0, "device-verdict: live tests that ran pass")
    check(verdict(passed.replace("100% tests passed, 0", "99% tests passed, 1").replace("ctest exit 0", "ctest exit 8"))
          == 1, "device-verdict: a failed ctest fails")
    check(verdict(passed + "[  FAILED  ] CudaSnake.X (3 ms)\n") == 1, "device-verdict: a failed case fails")
    check(verdict(passed.replace("memcheck exit 0", "memcheck exit 9")) == 1, "device-verdict: a sanitizer report fails")
    check(verdict(passed.replace("skip check exit 0", "skip check exit 1")) == 1, "device-verdict: a CUDA skip fails")
    check(verdict(passed, "[  SKIPPED ] Live.Interop\n") == 1, "device-verdict: a live test skipped on the GPU fails")


def fuzz_missing_target(tmp):
    """tests/fuzz/run.sh with a fake cmake and one fake target: the target not built fails the run."""
    d = tempfile.mkdtemp(dir=tmp)
    os.makedirs(os.path.join(d, "path"))
    os.makedirs(os.path.join(d, "build", "bin"))
    fake_cmake = os.path.join(d, "path", "cmake")
    open(fake_cmake, "w").write("#!/bin/sh\nexit 0\n")
    fuzzer = os.path.join(d, "build", "bin", "lucent_fuzz_nifti")
    open(fuzzer, "w").write("#!/bin/sh\necho 'stat::number_of_executed_units: 3'\necho 'Done 3 runs in 0 second(s)'\n")
    for f in (fake_cmake, fuzzer):
        os.chmod(f, 0o755)
    env = dict(os.environ, PATH=os.path.join(d, "path") + ":" + os.environ["PATH"], LUCENT_FUZZ_BUILD=os.path.join(
        d, "build"), LUCENT_DATA=os.path.join(d, "nodata"))

    def fuzz(targets):
        return subprocess.run(["bash", os.path.join(ROOT, "tests", "fuzz", "run.sh"), "1", os.path.join(d, "out")],
                              env=dict(env, LUCENT_FUZZ_TARGETS=targets), capture_output=True, text=True)
    p = fuzz("nifti")
    check(p.returncode == 0, "fuzz/run.sh with its target built passes: %s %s" % (p.stdout, p.stderr[-300:]))
    p = fuzz("nifti nrrd")
    check(p.returncode != 0 and "nrrd: FAILED: not built" in p.stderr, "fuzz/run.sh: a target not built fails: %s %s"
          % (p.stdout, p.stderr[-300:]))
    # Targets run side by side: a report from one of them, whichever finishes first, fails the run.
    for name, text in (("metaimage", "ERROR: AddressSanitizer: heap-buffer-overflow"), ("dicom_header", "")):
        f = os.path.join(d, "build", "bin", "lucent_fuzz_" + name)
        open(f, "w").write("#!/bin/sh\necho 'stat::number_of_executed_units: 3'\necho '%s'\n" % text)
        os.chmod(f, 0o755)
    p = fuzz("nifti metaimage dicom_header")
    check(p.returncode != 0 and "metaimage: FINDING" in p.stderr and "fuzz dicom_header: 3 runs" in p.stdout,
          "fuzz/run.sh: a finding in one of the targets run at once fails: %s %s" % (p.stdout, p.stderr[-300:]))


def real_build(build):
    tests = json.loads(subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, capture_output=True, text=True,
                                      check=True).stdout)["tests"]
    props = {t["name"]: {p["name"]: p["value"] for p in t.get("properties", [])} for t in tests}
    cmds = {t["name"]: " ".join(t.get("command", [])) for t in tests}
    on_x = [n for n in props if "on_xvfb.py" in cmds[n] or "--xvfb" in cmds[n]]
    unlabelled = [n for n in on_x if n != "cli_contract" and "viewer" not in props[n].get("LABELS", [])]
    # A build without the viewer (the GPU machine's: LUCENT_WITH_GUI=OFF) has no viewer test to label.
    cache = open(os.path.join(build, "CMakeCache.txt")).read()
    gui = not re.search(r"^LUCENT_WITH_GUI:BOOL=(OFF|0|FALSE|NO)$", cache, re.M | re.I)
    check((on_x or not gui) and not unlabelled, "every viewer test under Xvfb has label viewer (the sanitizer pass runs -L viewer): "
          "%s lack it" % unlabelled)
    # A test ctest runs as one entry (not a discovered GoogleTest case) reports the skips inside it,
    # except those that cannot skip inside (a script, one program's pass/fail) or are this check.
    # (X_NOT_BUILT: a discovered program not built yet in this build folder; the inventory catches it in CI.)
    whole = [n for n in props if "--gtest_filter=" not in cmds[n] and not n.endswith("_NOT_BUILT") and n not in ("packaging_metadata", "gl_interop",
                                                                               "ci_checks", "include_loops")]
    silent = [n for n in whole if "SKIP_REGULAR_EXPRESSION" not in props[n] and not any(
        e.startswith(("GTEST_OUTPUT=xml:", "LUCENT_SKIP_REPORT=")) for e in props[n].get("ENVIRONMENT", []))]
    check(whole and not silent, "every test ctest runs as one entry reports its skips: %s do not" % silent)


def no_tests_is_an_error():
    for script in ("packaging/test.sh", "tests/sanitize/run.sh", "tests/gpu/device-check.sh", ".ci/run"):
        text = open(os.path.join(ROOT, script)).read().replace("\\\n", " ")
        runs = [l for l in text.splitlines() if re.search(r"(^|[;&(]\s*)ctest\s", l.split("#")[0]) and "echo " not in l
                and not re.search(r"ctest\s+(-N|--show-only)", l)]
        bare = [l.strip() for l in runs if "--no-tests=error" not in l]
        check(not bare, "%s: every ctest run has --no-tests=error: %s" % (script, bare))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="", help="a configured build: check its registration too")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="lucent-ci-checks-") as tmp:
        skip_checker(tmp)
        inventory(tmp)
        real_lists()
        device_verdict(tmp)
        fuzz_missing_target(tmp)
        no_tests_is_an_error()
        if a.build:
            real_build(a.build)
    print("%d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
