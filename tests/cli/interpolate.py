"""@brief `lucent interpolate MASK [--axis i|j|k] [--labels 1,2] [--method M] [--backend B] -o OUT`: a ball drawn on every 5th slice
filled to Dice >= 0.95 against the whole ball (computed here), labelled slices and other labels byte for
byte, both methods giving on auto (CUDA where a device is) the voxels cpu gives, the sparse axis found without --axis (k, and i for the ball drawn across i), --axis given, --labels
restricting, the input's grid kept, --no-clobber, --quiet, usage errors (exit 2) and bad input (exit 1,
the file named).

Standard library only, as test_cli.py (whose helpers these are).
"""
import os

from test_cli import check, read_label_nrrd, read_nifti, run, write_nifti

DIMS = (40, 36, 42)
SPACING = (0.9, 0.9, 1.2)


def index(i, j, k):
    return i + DIMS[0] * (j + DIMS[1] * k)


def ball():
    """A ball of radius 13 mm centred in the grid: label 1, by voxel centre."""
    c = [(d - 1) * s / 2 for d, s in zip(DIMS, SPACING)]
    m = [0] * (DIMS[0] * DIMS[1] * DIMS[2])
    for k in range(DIMS[2]):
        for j in range(DIMS[1]):
            for i in range(DIMS[0]):
                x, y, z = i * SPACING[0] - c[0], j * SPACING[1] - c[1], k * SPACING[2] - c[2]
                if x * x + y * y + z * z <= 13.0 * 13.0:
                    m[index(i, j, k)] = 1
    return m


def keep_slices(m, axis, step):
    """Only every `step`th slice of `axis` kept (0-based index along it), as a user draws."""
    out = list(m)
    for k in range(DIMS[2]):
        for j in range(DIMS[1]):
            for i in range(DIMS[0]):
                if (i, j, k)[axis] % step:
                    out[index(i, j, k)] = 0
    return out


def dice(a, b, v):
    both = sum(1 for x, y in zip(a, b) if x == v and y == v)
    return 2.0 * both / (a.count(v) + b.count(v))


def interpolate(lucent, mask, out, *args):
    rc, text, err = run(lucent, "interpolate", mask, *args, "-o", out)
    got = [int(v) for v in read_nifti(out)[2]] if rc == 0 and os.path.exists(out) else None
    return rc, text, err, got


def fill_contract(lucent, tmp):
    whole = ball()
    sparse = keep_slices(whole, 2, 5)
    # Label 2: a rod along k through every slice, not touching the ball (its slices are all labelled).
    for k in range(DIMS[2]):
        sparse[index(2, 2, k)] = 2
    mask = os.path.join(tmp, "interp_mask.nii")
    write_nifti(mask, DIMS, SPACING, sparse)
    out = os.path.join(tmp, "interp_out.nii")
    rc, text, err, got = interpolate(lucent, mask, out)
    check(rc == 0 and got is not None, "interpolate without --axis: %r" % err)
    if got:
        d = dice([v if v == 1 else 0 for v in got], whole, 1)
        check(d >= 0.95, "the ball on every 5th slice fills to Dice %.4f >= 0.95 against the whole ball" % d)
        kept = all(got[index(i, j, k)] == sparse[index(i, j, k)]
                   for k in range(0, DIMS[2], 5) for j in range(DIMS[1]) for i in range(DIMS[0]))
        check(kept, "labelled slices (every 5th of k) are byte for byte the input's")
        check(got.count(2) == sparse.count(2) and all(got[index(2, 2, k)] == 2 for k in range(DIMS[2])),
              "label 2 (on every slice) unchanged")
        check(all(v in (0, 1, 2) for v in got) and all(g == s for g, s in zip(got, sparse) if s != 0),
              "only background voxels changed")
    check("axis k" in text and "label 1:" in text and "slices filled" in text, "summary names the axis: %r" % text)
    # The default (morphological) method on each backend: the same voxels (auto is CUDA where a device is).
    rc, text, err, by_cpu = interpolate(lucent, mask, out, "--backend", "cpu")
    check(rc == 0 and got is not None and by_cpu == got and "(cpu;" in text,
          "morphological --backend cpu fills the voxels auto fills: %r %r" % (text, err))

    # --labels 2: the ball is left as drawn.
    rc, text, err, got = interpolate(lucent, mask, out, "--labels", "2")
    check(rc == 0 and got == sparse, "--labels 2 leaves label 1 as drawn: %r" % err)
    check("label 1" not in text, "the summary names only the chosen labels: %r" % text)
    # --axis j: every j slice between the first and last holding the ball holds it; nothing to fill.
    rc, text, err, got = interpolate(lucent, mask, out, "--axis", "j", "--labels", "1")
    check(rc == 0 and got == sparse and "axis j" in text and "0 slices filled" in text,
          "--axis j: nothing between j slices to fill: %r %r" % (text, err))

    # --method signed-distance on each backend: the same voxels (auto is CUDA where a device is).
    rc, text, err, by_cpu = interpolate(lucent, mask, out, "--method", "signed-distance", "--backend", "cpu")
    check(rc == 0 and by_cpu and "(cpu;" in text, "--method signed-distance --backend cpu: %r %r" % (text, err))
    if by_cpu:
        d = dice([v if v == 1 else 0 for v in by_cpu], whole, 1)
        check(d >= 0.95, "signed distance: Dice %.4f >= 0.95" % d)
    rc, text, err, by_auto = interpolate(lucent, mask, out, "--method", "signed-distance", "--backend", "auto")
    check(rc == 0 and by_auto == by_cpu, "--backend auto fills the voxels cpu fills: %r %r" % (text, err))

    # The ball drawn on every 4th slice of i: found without --axis.
    across_i = keep_slices(whole, 0, 4)
    mask_i = os.path.join(tmp, "interp_mask_i.nii")
    write_nifti(mask_i, DIMS, SPACING, across_i)
    rc, text, err, got = interpolate(lucent, mask_i, out)
    check(rc == 0 and "axis i" in text, "the sparse axis of a ball drawn across i is i: %r %r" % (text, err))
    if got:
        d = dice(got, whole, 1)
        check(d >= 0.95, "across i: Dice %.4f >= 0.95" % d)


def files_contract(lucent, tmp):
    sparse = keep_slices(ball(), 2, 5)
    mask = os.path.join(tmp, "interp_grid.nii")
    write_nifti(mask, DIMS, SPACING, sparse)
    dims_in, srow_in, _ = read_nifti(mask)
    out = os.path.join(tmp, "interp_grid_out.nii.gz")
    rc, _, err = run(lucent, "interpolate", mask, "-o", out)
    if rc == 0:
        dims_out, srow_out, _ = read_nifti(out)
        worst = max(abs(a - b) for r in range(3) for a, b in zip(srow_in[r], srow_out[r]))
        check(dims_out == dims_in and worst < 1e-5, "output has the input's shape and affine: %s %s" % (dims_out, worst))
    else:
        check(False, "interpolate -o .nii.gz: %r" % err)
    nrrd = os.path.join(tmp, "interp_grid_out.nrrd")
    rc, _, err = run(lucent, "interpolate", mask, "--axis", "k", "-o", nrrd)
    sizes, body = read_label_nrrd(nrrd) if rc == 0 else ([], b"")
    nii = [int(v) for v in read_nifti(out)[2]] if os.path.exists(out) else []
    check(sizes == list(DIMS) and list(body) == nii, "-o .nrrd with --axis k: the same voxels on the same grid")

    before = open(out, "rb").read()
    rc, _, err = run(lucent, "interpolate", mask, "-o", out, "--no-clobber")
    check(rc == 1 and "interp_grid_out.nii.gz" in err and open(out, "rb").read() == before,
          "--no-clobber keeps the existing output byte for byte: %r" % err)
    rc, text, err = run(lucent, "interpolate", mask, "-o", out, "--quiet")
    check(rc == 0 and text == "" and err == "", "--quiet: no summary: %r %r" % (text, err))

    fresh = os.path.join(tmp, "interp_none.nii")
    for args in ([mask], [mask, "--axis", "x", "-o", fresh], [mask, "--axis", "-o", fresh],
                 [mask, "--labels", "1,x", "-o", fresh], [mask, "--labels", "0", "-o", fresh],
                 [mask, mask, "-o", fresh], [mask, "-o", os.path.join(tmp, "interp.png")],
                 [mask, "--fill-holes", "-o", fresh], [mask, "--backend", "gpu", "-o", fresh],
                 [mask, "--method", "mean", "-o", fresh]):
        rc, _, err = run(lucent, "interpolate", *args)
        check(rc == 2 and len(err.strip().splitlines()) == 1 and not os.path.exists(fresh),
              "usage error, exit 2, one line: %s -> %d %r" % (args[1:], rc, err))
    empty = os.path.join(tmp, "interp_empty.nii")
    write_nifti(empty, (6, 6, 6), (1, 1, 1), [0] * 216)
    for bad, words in ((os.path.join(tmp, "interp_absent.nii"), ["interp_absent.nii"]),
                       (empty, ["interp_empty.nii", "no labelled voxel"])):
        rc, _, err = run(lucent, "interpolate", bad, "-o", fresh)
        check(rc == 1 and len(err.strip().splitlines()) == 1 and all(w in err for w in words)
              and not os.path.exists(fresh), "bad input: exit 1, one line naming it: %r" % err)
    rc, _, err = run(lucent, "interpolate", mask, "--labels", "1,5", "-o", fresh)
    check(rc == 1 and "label 5" in err and "interp_grid.nii" in err and not os.path.exists(fresh),
          "an absent --labels value: exit 1, naming the mask and the label: %r" % err)
    one = os.path.join(tmp, "interp_one.nii")
    single = [0] * len(sparse)
    single[index(20, 18, 21)] = 3
    write_nifti(one, DIMS, SPACING, single)
    rc, _, err, got = interpolate(lucent, one, fresh, "--axis", "k")
    check(rc == 0 and got == single and "label 3 lies on one slice" in err,
          "a label on one slice: written unchanged, with a warning: %r" % err)


def interpolate_contract(lucent, tmp):
    fill_contract(lucent, tmp)
    files_contract(lucent, tmp)
