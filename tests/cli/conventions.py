"""@brief Issue 31: the conventions every command keeps. A mistyped command is named with the nearest
one (exit 2); a usage error is one line; `--stats -` is stdout; `--no-clobber` keeps an existing
output byte for byte; every warning and error names its input; `--quiet` keeps errors only.

Standard library only, as test_cli.py (whose helpers these are).
"""
import json
import os
import subprocess

from test_cli import check, read_nifti, run, write_nifti


def run_in(cwd, program, *args):
    """run() in folder `cwd` (where a stray output such as a file named '-' would land)."""
    p = subprocess.run([os.path.abspath(program)] + [str(a) for a in args], capture_output=True, text=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def lines(text):
    return text.strip().splitlines()


def typo_contract(lucent, tmp):
    for typo, meant in (("infoo", "info"), ("segmnt", "segment"), ("covnert", "convert")):
        rc, out, err = run_in(tmp, lucent, typo, "ch2.nii.gz")
        check(rc == 2 and len(lines(err)) == 1 and "unknown command '%s'" % typo in err
              and "did you mean '%s'?" % meant in err and "lucent --help" in err,
              "lucent %s: unknown command, suggests %s, exit 2, one line: %d %r" % (typo, meant, rc, err))
    rc, _, err = run_in(tmp, lucent, "frobnicate")
    check(rc == 2 and "unknown command 'frobnicate'" in err and "did you mean" not in err,
          "a word far from every command: no suggestion: %r" % err)
    # Something to open still goes to the viewer (its own usage error proves it got there, or, in a
    # build without the viewer, its message saying so): an existing path without a suffix, a missing
    # file with a suffix Lucent opens, a folder.
    os.makedirs(os.path.join(tmp, "infoo"), exist_ok=True)
    for target in ("infoo", "scan.nii.gz", "series/"):
        rc, _, err = run_in(tmp, lucent, target, "--layout", "9x9")
        reached = "--layout" in err or "the viewer is not part of this build" in err
        check(rc == 2 and reached and "unknown command" not in err,
              "lucent %s opens the viewer as before: %d %r" % (target, rc, err))


def usage_contract(lucent, src, tmp):
    # srg with one bound only (none: estimated at the seed; both: given).
    srg = ["segment", src, "--method", "srg", "--seed", "1,1,1", "--lower", "1", "-o", "m.nii"]
    for args, word in ((srg, "--upper"),
                       (["convert", src], "-o"), (["export", src, "-o", "x.nii"], "--reference"),
                       (["info"], "PATH"), (["convert", src, "-o", "x.nii", "--bogus"], "--bogus")):
        rc, out, err = run_in(tmp, lucent, *args)
        check(rc == 2 and len(lines(err)) == 1 and word in err and "see lucent --help" in err and "usage:" not in err,
              "usage error of %s is one line naming %s: %r" % (args[0], word, err))


def exit_codes_contract(lucent, src, tmp):
    """Issue 43: every mistake the command line alone shows is a usage error (exit 2, one line), before
    anything is loaded: a missing seed (named with every seed option), a parameter out of its range as
    much as one that is no number."""
    mask = os.path.join(tmp, "never.nii")
    rc, _, err = run_in(tmp, lucent, "segment", src, "--method", "srg", "-o", mask)
    check(rc == 2 and len(lines(err)) == 1 and all(o in err for o in ("--seed ", "--seed-lps", "--seed-ras", "--seeds")),
          "srg without a seed: exit 2, naming every seed option: %d %r" % (rc, err))
    rc, _, err = run_in(tmp, lucent, "segment", src, "--method", "fc", "--threshold", "0.5", "-o", mask)
    check(rc == 2 and "--seeds" in err, "fc without a seed: exit 2: %d %r" % (rc, err))
    for args, word in ((["fcm", "--clusters", "0"], "clusters"), (["fcm", "--clusters", "abc"], "--clusters"),
                       (["fcm", "--fuzziness", "1"], "fuzziness"), (["fc", "--seed", "1,1,1", "--threshold", "2"], "threshold"),
                       (["srg", "--seed", "1,1,1", "--connectivity", "5"], "connectivity"),
                       (["srg", "--seed", "1,1,1", "--lower", "9", "--upper", "1"], "lower"),
                       (["snake", "--slice", "1", "--rect", "0,0,4,3", "--step-max", "0"], "step-max")):
        rc, _, err = run_in(tmp, lucent, "segment", os.path.join(tmp, "absent.nii"), "--method", *args, "-o", mask)
        check(rc == 2 and len(lines(err)) == 1 and word in err and "see lucent --help" in err and "absent.nii" not in err,
              "segment --method %s: a usage error before the input is read: %d %r" % (" ".join(args), rc, err))
    check(not os.path.exists(mask), "usage errors write nothing")


def srg(lucent, src, tmp, mask, *extra):
    return run_in(tmp, lucent, "segment", src, "--method", "srg", "--seed", "1,1,1", "--lower", "100",
                  "--upper", "200", "-o", mask, *extra)


def stats_stdout_contract(lucent, src, tmp):
    mask = os.path.join(tmp, "stdout_mask.nii")
    rc, out, err = srg(lucent, src, tmp, mask, "--stats", "-")
    try:
        doc = json.loads(out)
    except ValueError:
        doc = {}
    labelled = sum(1 for v in read_nifti(mask)[2] if v) if rc == 0 else -1
    check(rc == 0 and doc.get("voxels") == labelled, "--stats - prints the stats JSON (and only it) on stdout: %r" % out)
    check(not os.path.exists(os.path.join(tmp, "-")), "--stats - writes no file named '-'")
    check("wrote " + mask in err, "with --stats -, the summary line goes to stderr: %r" % err)


def no_clobber_contract(lucent, src, tmp):
    mask, stats = os.path.join(tmp, "kept.nii"), os.path.join(tmp, "kept.json")
    with open(mask, "wb") as f:
        f.write(b"not a mask, must stay")
    before = open(mask, "rb").read()
    rc, _, err = srg(lucent, src, tmp, mask, "--stats", stats, "--no-clobber")
    check(rc == 1 and "kept.nii" in err and "--no-clobber" in err, "--no-clobber refuses, naming the file: %r" % err)
    check(open(mask, "rb").read() == before and not os.path.exists(stats),
          "--no-clobber: the existing file is byte-identical and nothing else is written")
    out_img = os.path.join(tmp, "kept_img.nii")
    with open(out_img, "wb") as f:
        f.write(before)
    rc, _, err = run_in(tmp, lucent, "convert", src, "-o", out_img, "--no-clobber")
    check(rc == 1 and open(out_img, "rb").read() == before, "convert --no-clobber keeps the file: %r" % err)
    # Without it the output is replaced (so the refusal above is the option's doing).
    rc, _, err = srg(lucent, src, tmp, mask)
    check(rc == 0 and open(mask, "rb").read() != before, "without --no-clobber the output is replaced: %r" % err)


def no_clobber_race(lucent, tmp):
    """Issue 43: two runs started together onto one name with --no-clobber: one writes it, the other
    fails naming it; never both (the final rename refuses an existing name, not only the early check).
    The volume is large enough that both runs pass the early check before either renames."""
    big = os.path.join(tmp, "race_src.nii")
    write_nifti(big, (256, 256, 48), (1, 1, 1), [(i * 7) % 1000 for i in range(256 * 256 * 48)])
    both = []
    for attempt in range(4):
        out = os.path.join(tmp, "race%d.nii" % attempt)
        runs = [subprocess.Popen([lucent, "convert", big, "-o", out, "--no-clobber"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True) for _ in range(2)]
        results = [(p.wait(), p.stderr.read()) for p in runs]
        codes = sorted(rc for rc, _ in results)
        if codes == [0, 0]:
            both.append(attempt)
        loser = [err for rc, err in results if rc != 0]
        check(codes in ([0, 1], [0, 0]) and all("race%d.nii" % attempt in e and ("kept" in e or "keeps" in e) for e in loser),
              "--no-clobber race %d: one run writes, the other fails naming the file: %s" % (attempt, results))
        left = [n for n in os.listdir(tmp) if n.startswith("race%d.nii.partial-" % attempt)]
        check(not left, "--no-clobber race %d: no temporary left: %s" % (attempt, left))
    check(not both, "--no-clobber: two concurrent runs never both write one name (both did in tries %s)" % both)


def immutable_folder(path):
    """A folder this process cannot write in, root included (chattr +i), or None where that cannot be made."""
    os.makedirs(path)
    os.chmod(path, 0o555)
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", path], capture_output=True)
    try:
        open(os.path.join(path, "probe"), "w").close()
        os.remove(os.path.join(path, "probe"))
    except OSError:
        return path
    return None


def release_folder(path):
    if os.geteuid() == 0:
        subprocess.run(["chattr", "-i", path], capture_output=True)
    os.chmod(path, 0o755)


def output_folder_contract(lucent, src, tmp):
    """Issue 43: a read-only output folder is found before anything is loaded or computed: one line
    naming it (no interval estimated first), exit 1."""
    locked = immutable_folder(os.path.join(tmp, "locked"))
    if locked is None:
        print("skip: no read-only folder can be made here (chattr +i refused)")
        release_folder(os.path.join(tmp, "locked"))
        return
    try:
        mask = os.path.join(locked, "m.nii")
        rc, _, err = run_in(tmp, lucent, "segment", src, "--method", "srg", "--seed", "1,1,1", "-o", mask)
        check(rc == 1 and len(lines(err)) == 1 and "locked" in err and "not writable" in err and "estimated" not in err,
              "segment into a read-only folder: refused before the run, naming it: %d %r" % (rc, err))
        rc, _, err = run_in(tmp, lucent, "segment", src, "--method", "srg", "--seed", "1,1,1", "-o",
                            os.path.join(tmp, "ok.nii"), "--stats", os.path.join(locked, "s.json"))
        check(rc == 1 and len(lines(err)) == 1 and "s.json" in err and not os.path.exists(os.path.join(tmp, "ok.nii")),
              "--stats into a read-only folder: refused first, nothing written: %d %r" % (rc, err))
        rc, _, err = run_in(tmp, lucent, "convert", src, "-o", os.path.join(locked, "c.nii"))
        check(rc == 1 and "not writable" in err, "convert into a read-only folder: %d %r" % (rc, err))
    finally:
        release_folder(locked)


def stats_csv_contract(lucent, src, tmp):
    """Issue 43: --stats a.csv writes the per-label CSV of `lucent stats --csv`, not JSON."""
    mask, csv = os.path.join(tmp, "csv_mask.nii"), os.path.join(tmp, "stats.csv")
    rc, _, err = srg(lucent, src, tmp, mask, "--stats", csv)
    rows = open(csv).read().splitlines() if rc == 0 else []
    check(rc == 0 and rows[:1] == ["value,name,voxels,ml,mean,sd,min,max"] and len(rows) == 2,
          "--stats a.csv is CSV with one row per label: %r %r" % (rows, err))
    rc, out, _ = run_in(tmp, lucent, "stats", mask, "--reference", src, "--csv")
    check(rc == 0 and out.splitlines() == rows, "--stats a.csv equals lucent stats --csv: %r" % out)


def naming_contract(lucent, make_series, tmp):
    flat = os.path.join(tmp, "flat.nii")
    write_nifti(flat, (4, 4, 4), (1, 1, 1), [7] * 64)
    rc, _, err = run_in(tmp, lucent, "segment", flat, "--method", "fcm", "--clusters", "3", "-o", "f.nii")
    check(rc == 1 and "distinct intensities" in err and flat + ":" in err, "the FCM error names the input: %r" % err)
    rc, _, err = run_in(tmp, lucent, "segment", flat, "--method", "fcm", "--quiet", "-o", "f.nii")
    check(rc == 1 and flat in err, "--quiet still prints errors: %r" % err)
    if not make_series:
        return
    gap = os.path.join(tmp, "gapseries")
    run(make_series, gap, "--size", "16", "16", "8", "--gap", "4")
    rc, out, err = run_in(tmp, lucent, "convert", gap, "-o", os.path.join(tmp, "gap.nii"))
    warnings = [l for l in lines(err) if ": warning: " in l]
    check(rc == 0 and any("missing slice" in w for w in warnings) and all(gap + ":" in w for w in warnings),
          "every warning names the input series: %r" % err)
    rc, out, err = run_in(tmp, lucent, "convert", gap, "-o", os.path.join(tmp, "gap2.nii"), "--quiet")
    check(rc == 0 and out == "" and err == "", "--quiet: no warning, progress or summary: %r %r" % (out, err))


def conventions_contract(lucent, make_series, tmp):
    src = os.path.join(tmp, "conv_src.nii")
    write_nifti(src, (6, 5, 4), (1, 1, 1), [150 if 0 < i % 6 < 4 else 0 for i in range(6 * 5 * 4)])
    typo_contract(lucent, tmp)
    usage_contract(lucent, src, tmp)
    stats_stdout_contract(lucent, src, tmp)
    no_clobber_contract(lucent, src, tmp)
    no_clobber_race(lucent, tmp)
    output_folder_contract(lucent, src, tmp)
    stats_csv_contract(lucent, src, tmp)
    exit_codes_contract(lucent, src, tmp)
    naming_contract(lucent, make_series, tmp)
