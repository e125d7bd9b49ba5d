"""@brief The CLI contract of `lucent segment --method snake3d` (issue 40): the options as the issue writes them,
the result on a phantom whose answer is known by construction, the stats JSON, usage errors (exit 2) and failures
(exit 1, one line, nothing written); --clip LO,HI on the real CT head (the ventricles, not the soft tissue against
the bone). Standard library only."""
import json
import math
import os

from test_cli import check, read_nifti, run, skip, world, write_nifti

DIMS = (48, 40, 24)
SPACING = (1.0, 1.0, 2.0)


def ball(i, j, k):
    return (i - 16) ** 2 + (j - 20) ** 2 + ((k - 12) * 2.0) ** 2 <= 9 ** 2


def ellipsoid(i, j, k):
    return ((i - 36) / 7.0) ** 2 + ((j - 20) / 9.0) ** 2 + ((k - 12) * 2.0 / 10.0) ** 2 <= 1


def phantom():
    """100 in the ball and the ellipsoid, 0 around, with a deterministic noise of about +-30 (an LCG)."""
    values, state = [], 12345
    for k in range(DIMS[2]):
        for j in range(DIMS[1]):
            for i in range(DIMS[0]):
                state = (state * 1103515245 + 12345) % 2 ** 31
                noise = (state % 61) - 30
                values.append((100 if ball(i, j, k) or ellipsoid(i, j, k) else 0) + noise)
    return values


def dice(mask, inside, part=lambda i, j, k: True):
    """Dice of the mask with `inside`, both counted over the voxels of `part`."""
    both = a = b = 0
    n = -1
    for k in range(DIMS[2]):
        for j in range(DIMS[1]):
            for i in range(DIMS[0]):
                n += 1
                if not part(i, j, k):
                    continue
                x, y = mask[n] != 0, inside(i, j, k)
                both += x and y
                a += x
                b += y
    return 2.0 * both / (a + b)


def snake3d_contract(lucent, tmp):
    src = os.path.join(tmp, "snake3d_src.nii")
    write_nifti(src, DIMS, SPACING, phantom())
    mask, stats = os.path.join(tmp, "snake3d.nii.gz"), os.path.join(tmp, "snake3d.json")

    # A box around both objects: two objects, each found.
    rc, _, err = run(lucent, "segment", src, "--method", "snake3d", "--box", "4,6,2,44,34,21", "-o", mask,
                     "--stats", stats, "--backend", "cpu")
    check(rc == 0, "segment snake3d --box exits 0: " + err)
    dims, _, labels = read_nifti(mask)
    check(tuple(dims) == DIMS and set(labels) <= {0, 1}, "snake3d mask on the volume's grid, labels 0/1")
    d_ball = dice(labels, ball, lambda i, j, k: i < 26)
    d_ell = dice(labels, ellipsoid, lambda i, j, k: i >= 26)
    check(d_ball >= 0.9 and d_ell >= 0.9, "snake3d finds the ball and the ellipsoid (Dice %.3f, %.3f)" % (d_ball, d_ell))
    doc = json.load(open(stats))
    p = doc["parameters"]
    check(doc["method"] == "snake3d" and doc["backend"] == "cpu", "stats method and backend")
    check(p["box"] == [4, 6, 2, 44, 34, 21] and p["margin_mm"] is None and p["iterations"] == 0 and
          p["smoothing"] == 1 and p["seeds"] == [] and p["roi"] is None and p["clip"] is None,
          "stats parameters: %s" % p)
    # No --margin: 10 % of the box's largest side (41 voxels: 4), clipped to the volume.
    check(p["domain"] == [0, 2, 0, 47, 38, 23], "the domain is the box grown by 4 voxels: %s" % p["domain"])
    check(doc["converged"] is True and doc["iterations"] > 2, "runs to convergence: %s" % doc["iterations"])
    check(abs(doc["mean_inside"] - 100) < 10 and abs(doc["mean_outside"]) < 10,
          "the means of the two regions: %.1f, %.1f" % (doc["mean_inside"], doc["mean_outside"]))

    # --clip LO,HI: a range around both objects' values changes nothing (the noise is +-30), and the stats say it.
    plain = labels
    rc, _, err = run(lucent, "segment", src, "--method", "snake3d", "--box", "4,6,2,44,34,21", "--clip=-40,140",
                     "-o", mask, "--stats", stats, "--backend", "cpu")
    _, _, labels = read_nifti(mask)
    doc = json.load(open(stats))
    check(rc == 0 and labels == plain and doc["parameters"]["clip"] == [-40, 140],
          "--clip -40,140 wider than the values: the same voxels, clip in the stats: " + err)
    # A clip inside the noise: the values the snake sees are clamped, the means with them.
    rc, _, err = run(lucent, "segment", src, "--method", "snake3d", "--box", "4,6,2,44,34,21", "--clip", "20,80",
                     "-o", mask, "--stats", stats, "--backend", "cpu")
    doc = json.load(open(stats))
    check(rc == 0 and doc["parameters"]["clip"] == [20, 80] and 20 <= doc["mean_outside"] < doc["mean_inside"] <= 80,
          "--clip 20,80: the means of the clamped values: %s %s" % (doc.get("mean_inside"), err))

    # --iterations N runs exactly N; --smoothing and --margin as given.
    rc, _, err = run(lucent, "segment", src, "--method", "snake3d", "--box", "4,6,2,44,34,21", "--iterations", "3",
                     "--smoothing", "2", "--margin", "3", "-o", mask, "--stats", stats)
    doc = json.load(open(stats))
    check(rc == 0 and doc["iterations"] == 3 and doc["parameters"]["smoothing"] == 2, "--iterations 3: " + err)
    check(doc["parameters"]["margin_mm"] == 3 and doc["parameters"]["domain"] == [1, 3, 0, 47, 37, 23],
          "--margin 3 mm: 3, 3 and 2 voxels: %s" % doc["parameters"]["domain"])

    # Bubbles: a voxel seed and a seed in millimetres, one radius each; the domain around them wide enough
    # for the objects (the default margin grows the bubbles' box by 10 %: far smaller than the objects).
    _, srow, _ = read_nifti(src)
    ras = ",".join("%g" % c for c in world(srow, (36, 20, 12)))
    rc, _, err = run(lucent, "segment", src, "--method", "snake3d", "--seed", "16,20,12", "--radius", "4",
                     "--seed-ras", ras, "--radius", "3", "--margin", "10", "-o", mask, "--stats", stats)
    check(rc == 0, "segment snake3d with bubbles: " + err)
    doc = json.load(open(stats))
    p = doc["parameters"]
    check(p["seeds"] == [[16, 20, 12], [36, 20, 12]] and p["radii_mm"] == [4, 3] and p["box"] is None,
          "bubbles in the stats: %s" % p)
    _, _, labels = read_nifti(mask)
    check(dice(labels, lambda i, j, k: ball(i, j, k) or ellipsoid(i, j, k)) >= 0.85,
          "bubbles grow into both objects (Dice %.3f)" % dice(labels, lambda i, j, k: ball(i, j, k) or ellipsoid(i, j, k)))
    # --roi is the domain.
    rc, _, err = run(lucent, "segment", src, "--method", "snake3d", "--box", "8,8,4,26,32,20", "--roi", "2,2,0,30,37,23",
                     "-o", mask, "--stats", stats)
    doc = json.load(open(stats))
    check(rc == 0 and doc["parameters"]["domain"] == [2, 2, 0, 30, 37, 23], "--roi is the domain: " + err)
    _, _, labels = read_nifti(mask)
    outside = sum(labels[(k * DIMS[1] + j) * DIMS[0] + i] for k in range(DIMS[2]) for j in range(DIMS[1])
                  for i in range(31, DIMS[0]))
    check(outside == 0 and dice(labels, ball) >= 0.9, "--roi: the ball only (Dice %.3f)" % dice(labels, ball))

    # Usage errors: exit 2, before the volume is read.
    never = os.path.join(tmp, "never.nii")
    for args, what in ((["--method", "snake3d"], "no start"),
                       (["--method", "snake3d", "--box", "1,2,3"], "a box of three numbers"),
                       (["--method", "snake3d", "--box", "1,2,3,a,5,6"], "a box that is not numbers"),
                       (["--method", "snake3d", "--box", "1,1,1,9,9,9", "--smoothing", "-1"], "smoothing -1"),
                       (["--method", "snake3d", "--box", "1,1,1,9,9,9", "--iterations", "-2"], "iterations -2"),
                       (["--method", "snake3d", "--box", "1,1,1,9,9,9", "--margin", "-1"], "margin -1"),
                       (["--method", "snake3d", "--box", "1,1,1,9,9,9", "--radius", "2"], "a radius without seeds"),
                       (["--method", "snake3d", "--seed", "5,5,5", "--radius", "0"], "radius 0"),
                       (["--method", "snake3d", "--seed", "5,5,5", "--seed", "6,6,6", "--seed", "7,7,7", "--radius", "1",
                         "--radius", "2"], "two radii for three seeds")):
        rc, _, err = run(lucent, "segment", src, *args, "-o", never)
        check(rc == 2 and not os.path.exists(never), "%s is a usage error: exit %d, %r" % (what, rc, err))
    # --clip LO,HI: two finite numbers, LO below HI; anything else is a usage error naming --clip.
    for value in ("80,0", "5,5", "0", "0,80,100", "a,80", "0,", "nan,80", "0,inf", ""):
        rc, _, err = run(lucent, "segment", src, "--method", "snake3d", "--box", "1,1,1,9,9,9", "--clip", value,
                         "-o", never)
        check(rc == 2 and "--clip" in err and not os.path.exists(never),
              "--clip %r is a usage error naming --clip: exit %d, %r" % (value, rc, err))
    # Failures found once the volume is read: exit 1, one line naming the problem, nothing written.
    for args, what, words in ((["--box", "1,1,1,48,9,9"], "a box outside the volume", "outside the volume"),
                              (["--seed", "5,5,30"], "a seed outside the volume", "outside the volume"),
                              (["--box", "40,30,1,46,38,3", "--roi", "0,0,0,10,10,10"], "a start outside the ROI",
                               "outside the domain")):
        rc, _, err = run(lucent, "segment", src, "--method", "snake3d", *args, "-o", never)
        check(rc == 1 and len(err.strip().splitlines()) == 1 and words in err and not os.path.exists(never),
              "%s: exit %d, %r" % (what, rc, err))


# Issue 40: a box around both frontal horns of the CT head drawn on axial slice 60 with the viewer's default
# depth (15 slices). Its domain reaches the bone of the anterior cranial fossa.
FRONTAL_HORNS_BOX = "105,120,53,152,183,67"


def snake3d_ct_contract(lucent, data, tmp):
    """On the real CT head, the box across both frontal horns: without --clip the bone in the domain makes all
    soft tissue the inside; with --clip 0,80 (the brain window W 80 L 40) it finds the ventricles (CSF, under
    10 HU on average in the stored values)."""
    ct = os.path.join(data, "cranium", "cranium.mhd")
    if not os.path.exists(ct):
        skip("snake3d_ct", "the real CT head is missing (tests/fetch-data.sh)")
        return
    volume = os.path.join(tmp, "snake3d_ct.nii")  # its voxels in the order the mask is written
    rc, _, err = run(lucent, "convert", ct, "-o", volume)
    check(rc == 0, "convert the CT head: " + err)
    _, _, values = read_nifti(volume)
    mask, stats = os.path.join(tmp, "snake3d_ct_mask.nii"), os.path.join(tmp, "snake3d_ct.json")

    def segment(*extra):
        rc, _, err = run(lucent, "segment", ct, "--method", "snake3d", "--box", FRONTAL_HORNS_BOX, *extra, "-o", mask,
                         "--stats", stats, "--backend", "cpu")
        check(rc == 0, "segment snake3d --box %s %s: %s" % (FRONTAL_HORNS_BOX, " ".join(extra), err))
        _, _, labels = read_nifti(mask)
        inside = [v for v, m in zip(values, labels) if m]
        return len(inside), sum(inside) / max(1, len(inside)), json.load(open(stats))

    n, mean, _ = segment()
    check(n > 100000 and mean > 15, "without --clip the bone makes the soft tissue the inside: %d voxels, %.1f HU" %
          (n, mean))
    n, mean, doc = segment("--clip", "0,80")
    check(15000 < n < 30000 and mean < 10, "--clip 0,80 finds the ventricles: %d voxels, %.1f HU" % (n, mean))
    check(doc["parameters"]["clip"] == [0, 80] and doc["mean_inside"] < 10 and doc["converged"] is True,
          "the stats: clip [0, 80], the clamped inside's mean %.1f HU" % doc["mean_inside"])


def snake3d_live_contract(lucent, xvfb, tmp):
    """`lucent PATH --live snake3d --box i0,j0,k0,i1,j1,k1 [--seed i,j,k --radius MM ...] [options of segment]`:
    the viewer's run ends on the voxels `lucent segment --method snake3d` writes, --steps and --record step it,
    a run without a start is a usage error."""
    from test_cli import png_size, xvfb_prefix

    def live(*args):
        return run(*xvfb_prefix(xvfb, tmp), lucent, *args)

    src = os.path.join(tmp, "snake3d_live_src.nii")
    write_nifti(src, DIMS, SPACING, phantom())
    mask, shot = os.path.join(tmp, "snake3d_live_ref.nii.gz"), os.path.join(tmp, "snake3d_live.png")
    _, srow, _ = read_nifti(src)
    ras = ",".join("%g" % c for c in world(srow, (36, 20, 12)))
    for start in (["--box", "4,6,2,44,34,21"], ["--box", "4,6,2,44,34,21", "--clip", "20,80"],
                  ["--seed", "16,20,12", "--radius", "4", "--seed-ras", ras, "--radius", "3", "--margin", "10"]):
        rc, out, err = run(lucent, "segment", src, "--method", "snake3d", *start, "-o", mask, "--backend", "cpu")
        check(rc == 0, "reference segment snake3d %s: %s" % (start, err))
        ref = int(out.split(" voxels")[0].split()[-1])
        rc, out, err = live(src, "--live", "snake3d", *start, "--backend", "cpu", "--screenshot", shot)
        check(rc == 0 and png_size(shot) is not None, "--live snake3d %s --screenshot: %r" % (start, err[-300:]))
        check(("%d voxels" % ref) in out and "finished" in out,
              "--live snake3d %s ends on segment's %d voxels: %r" % (start, ref, out))
    frames = os.path.join(tmp, "snake3d_live_frames")
    rc, out, err = live(src, "--live", "snake3d", "--box", "4,6,2,44,34,21", "--steps", "3", "--backend", "cpu",
                        "--record", frames)
    pngs = sorted(f for f in os.listdir(frames) if f.endswith(".png")) if os.path.isdir(frames) else []
    check(rc == 0 and len(pngs) == 4 and "3 steps" in out,
          "--live snake3d --steps 3 --record DIR: the start and 3 frames: %d, %r %r" % (len(pngs), out, err[-300:]))
    never = os.path.join(tmp, "snake3d_live_never.png")
    rc, _, err = live(src, "--live", "snake3d", "--screenshot", never)
    check(rc == 2 and "start" in err and not os.path.exists(never), "--live snake3d without a start: usage error, %r" % err)
    rc, _, err = live(src, "--live", "snake3d", "--box", "1,1,1,48,9,9", "--backend", "cpu", "--screenshot", never)
    check(rc == 1 and "outside the volume" in err and not os.path.exists(never),
          "--live snake3d with a box outside the volume: exit 1 naming it, %r" % err)
