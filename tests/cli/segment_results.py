"""@brief `lucent segment` options checked by their results: fuzzy connectedness parameters, 6/26
connectivity, --roi, --per-voxel, --min-segment and --threads, on volumes whose answer is known by
construction or computed here from the method's definition.

Standard library only, as test_cli.py (whose helpers these are) runs on the GPU machine too.
"""
import heapq
import json
import math
import os

from test_cli import check, read_nifti, run, write_nifti


def box_mask(dims, lo, hi):
    """Flat 0/1 list (i fastest) of the inclusive box [lo, hi]."""
    return [int(all(lo[a] <= p[a] <= hi[a] for a in range(3)))
            for p in ((i, j, k) for k in range(dims[2]) for j in range(dims[1]) for i in range(dims[0]))]


def segment(lucent, src, out, *args):
    """Runs `lucent segment SRC ARGS -o OUT --stats`: (exit, mask or None, stats, stderr)."""
    stats = out + ".json"
    rc, _, err = run(lucent, "segment", src, *args, "-o", out, "--stats", stats)
    if rc != 0:
        return rc, None, {}, err
    return rc, list(read_nifti(out)[2]), json.load(open(stats)), err


def fc_reference(values, dims, seed, mean, sigma, diff_sigma):
    """Fuzzy connectivity of every voxel to the seed as paper 001 defines it: the best path's weakest
    face-neighbour affinity, mu = sqrt(g1 g2), g1 = exp(-((a+b)/2 - M)^2 / 2S^2), g2 = exp(-(a-b)^2 / 2D^2)."""
    def mu(a, b):
        g1 = math.exp(-((a + b) / 2.0 - mean) ** 2 / (2.0 * sigma ** 2))
        g2 = math.exp(-(a - b) ** 2 / (2.0 * diff_sigma ** 2))
        return math.sqrt(g1 * g2)

    nx, ny, nz = dims
    strength = [0.0] * len(values)
    start = seed[0] + nx * (seed[1] + ny * seed[2])
    strength[start] = 1.0
    heap = [(-1.0, start)]
    while heap:  # Dijkstra with max-min instead of sum-min
        s, v = heapq.heappop(heap)
        if -s < strength[v]:
            continue
        i, j, k = v % nx, (v // nx) % ny, v // (nx * ny)
        for di, dj, dk in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
            a, b, c = i + di, j + dj, k + dk
            if not (0 <= a < nx and 0 <= b < ny and 0 <= c < nz):
                continue
            u = a + nx * (b + ny * c)
            t = min(-s, mu(values[v], values[u]))
            if t > strength[u]:
                strength[u] = t
                heapq.heappush(heap, (-t, u))
    return strength


def fc_parameters_contract(lucent, tmp):
    """--object-mean, --object-sigma and --diff-sigma change the region as the affinity says they should.

    Along i: a plateau A of 100 (i < 12), a gradual edge rising 10 per voxel (110..150, i = 12..16), a
    plateau B of 150 (i = 17..31) and a sharp wall of 1000 (i >= 32); the seed sits in A."""
    dims = (40, 6, 6)
    profile = [100] * 12 + [110, 120, 130, 140, 150] + [150] * 15 + [1000] * 8
    values = [profile[i] for _ in range(dims[2]) for _ in range(dims[1]) for i in range(dims[0])]
    src = os.path.join(tmp, "fc_params.nii")
    write_nifti(src, dims, (1.0, 1.0, 1.0), values)
    seed = (4, 3, 3)
    column = dims[1] * dims[2]
    # (M, S, D), the columns the region covers by the affinities above, and why.
    cases = {
        "wide": ((100, 100, 30), 32, "a wide difference sigma crosses the gradual edge into B"),
        "narrow-diff": ((100, 100, 3), 12, "a narrow difference sigma stops at the edge's first step"),
        "narrow-sigma": ((100, 20, 30), 15, "a narrow object sigma stops part-way up the edge (g1 of 135 is 0.22)"),
        "far-mean": ((400, 100, 30), None, "an object mean far from A leaves the seed alone"),
    }
    got = {}
    for name, ((m, s, d), columns, why) in cases.items():
        out = os.path.join(tmp, "fc_%s.nii" % name)
        rc, mask, doc, err = segment(lucent, src, out, "--method", "fc", "--seed", "%d,%d,%d" % seed, "--object-mean",
                                     str(m), "--object-sigma", str(s), "--diff-sigma", str(d), "--backend", "cpu")
        strength = fc_reference(values, dims, seed, m, s, d)
        # 16-bit strengths in the engine: no voxel may sit so near the threshold that rounding decides it.
        check(min(abs(x - 0.5) for x in strength) > 0.01, "fc %s: the reference keeps clear of the threshold" % name)
        expected = [int(x >= 0.5) for x in strength]
        check(rc == 0 and mask == expected, "fc %s: the mask is the paper's connectivity >= 0.5 (%s): %d voxels, "
              "expected %d: %r" % (name, why, sum(mask or []), sum(expected), err))
        check(doc.get("object_mean") == m and doc.get("object_sigma") == s and doc.get("diff_sigma") == d,
              "fc %s: stats report the given M, S, D: %s" % (name, doc))
        if columns is not None:
            check(sum(expected) == columns * column, "fc %s: the reference covers %d columns" % (name, columns))
        got[name] = mask or []
    check(got["far-mean"] == [int(v == seed[0] + dims[0] * (seed[1] + dims[1] * seed[2])) for v in range(len(values))],
          "fc far-mean: only the seed is labelled")
    inside = lambda small, big: all(b >= a for a, b in zip(got[small], got[big])) and sum(got[small]) < sum(got[big])
    check(inside("narrow-diff", "wide") and inside("narrow-sigma", "wide") and inside("far-mean", "narrow-diff"),
          "fc: narrower sigmas and a far mean give strictly smaller regions inside the wide one")


def connectivity_contract(lucent, tmp):
    """--connectivity 6 vs 26 on two bright cubes that touch only at a corner."""
    dims = (12, 12, 12)
    first = box_mask(dims, (2, 2, 2), (5, 5, 5))
    second = box_mask(dims, (6, 6, 6), (9, 9, 9))
    src = os.path.join(tmp, "corner_cubes.nii")
    write_nifti(src, dims, (1.0, 1.0, 1.0), [500 * (a + b) for a, b in zip(first, second)])
    srg = ["--method", "srg", "--seed", "3,3,3", "--lower", "400", "--upper", "600"]
    for conn, expected in (("6", first), ("26", [a + b for a, b in zip(first, second)])):
        rc, mask, doc, err = segment(lucent, src, os.path.join(tmp, "corner_%s.nii" % conn), *srg, "--connectivity",
                                     conn)
        check(rc == 0 and mask == expected, "srg --connectivity %s: %d voxels, expected %d (%s): %r"
              % (conn, sum(mask or []), sum(expected), "the seed's cube" if conn == "6" else "both cubes", err))


def u_shape(dims):
    """Flat 0/1 list: two arms (i 3..6 and 12..15, j 2..13) joined by a bar (j 11..13), on k 1..4."""
    arms = [box_mask(dims, (3, 2, 1), (6, 13, 4)), box_mask(dims, (12, 2, 1), (15, 13, 4)),
            box_mask(dims, (3, 11, 1), (15, 13, 4))]
    return [max(t) for t in zip(*arms)], arms[0]


def roi_contract(lucent, tmp):
    """--roi i0,j0,k0,i1,j1,k1: an inclusive box outside which nothing is labelled and the region does not grow."""
    dims = (20, 16, 6)
    shape, left_arm = u_shape(dims)
    src = os.path.join(tmp, "u_shape.nii")
    write_nifti(src, dims, (1.0, 1.0, 1.0), [500 if s else (i * 7) % 50 for i, s in enumerate(shape)])
    srg = ["--method", "srg", "--seed", "4,4,2", "--lower", "400", "--upper", "600"]
    rc, whole, _, err = segment(lucent, src, os.path.join(tmp, "u_whole.nii"), *srg)
    check(rc == 0 and whole == shape, "srg without --roi finds the whole U: %r" % err)
    # Cutting the bar's last row and the top slice keeps the arms joined: the U clipped to the box,
    # its far faces (i 15, j 12, k 3) included.
    roi = box_mask(dims, (0, 0, 0), (15, 12, 3))
    rc, mask, _, err = segment(lucent, src, os.path.join(tmp, "u_roi.nii"), *srg, "--roi", "0,0,0,15,12,3")
    check(rc == 0 and mask == [a * b for a, b in zip(shape, roi)],
          "srg --roi 0,0,0,15,12,3: the run without it, inside the inclusive box: %r" % err)
    # Cutting the bar itself: the right arm lies inside the box and in the interval, but the region
    # would have to leave the box to reach it.
    roi = box_mask(dims, (0, 0, 0), (19, 10, 5))
    rc, mask, _, err = segment(lucent, src, os.path.join(tmp, "u_cut.nii"), *srg, "--roi", "0,0,0,19,10,5")
    check(rc == 0 and mask == [a * b for a, b in zip(left_arm, roi)],
          "srg --roi that cuts the bar: the seed's arm only, the region grows inside the box: %r" % err)
    rc, mask, _, err = segment(lucent, src, os.path.join(tmp, "u_fcm.nii"), "--method", "fcm", "--roi", "2,3,1,17,14,4")
    roi = box_mask(dims, (2, 3, 1), (17, 14, 4))
    check(rc == 0 and all((m != 0) == (r == 1) for m, r in zip(mask or [], roi)) and mask is not None,
          "fcm --roi: every voxel of the box labelled, none outside: %r" % err)


def snake_roi_contract(lucent, tmp):
    """snake --roi: i0..i1, j0..j1 are the image the snake sees (its domain), k0..k1 limit the result
    and the propagation. A dark disc (40) inside a bright disc (160) on grey (100): with the ROI around
    the dark disc it finds the dark disc, not the ROI's rectangle (what clipping the whole slice's
    bright-disc-against-grey split gave)."""
    dims = (64, 60, 4)
    dark = lambda i, j: (i - 36) ** 2 + (j - 27) ** 2 <= 8 ** 2
    bright = lambda i, j: (i - 32) ** 2 + (j - 30) ** 2 <= 26 ** 2
    values = [(40 if dark(i, j) else 160 if bright(i, j) else 100) + (i * 7 + j * 13 + k * 5) % 11 - 5
              for k in range(dims[2]) for j in range(dims[1]) for i in range(dims[0])]
    src = os.path.join(tmp, "snake_discs.nii")
    write_nifti(src, dims, (1.0, 1.0, 1.0), values)
    # The dark disc's box (28..44, 19..35) with 6 pixels to spare, all inside the bright disc; slices 1..2.
    snake = ["--method", "snake", "--slice", "1", "--rect", "22,13,50,41", "--propagate"]
    rc, mask, doc, err = segment(lucent, src, os.path.join(tmp, "snake_roi.nii"), *snake, "--roi", "22,13,1,50,41,2")
    check(rc == 0, "snake --roi: %r" % err)
    mask = mask or [0] * len(values)
    at = lambda i, j, k: mask[i + dims[0] * (j + dims[1] * k)]
    for k in (1, 2):
        got = sum(at(i, j, k) != 0 for j in range(dims[1]) for i in range(dims[0]))
        disc = sum(dark(i, j) for j in range(dims[1]) for i in range(dims[0]))
        both = sum(at(i, j, k) != 0 and dark(i, j) for j in range(dims[1]) for i in range(dims[0]))
        dice = 2.0 * both / max(1, got + disc)
        check(dice > 0.85, "snake --roi on slice %d: the dark disc (Dice %.3f, %d pixels, the ROI has 841)"
              % (k, dice, got))
    outside = sum(at(i, j, k) != 0 for k in (0, 3) for j in range(dims[1]) for i in range(dims[0]))
    check(outside == 0, "snake --roi k 1..2: nothing labelled on slices 0 and 3 (%d voxels)" % outside)
    parameters = doc.get("parameters", {})
    check(parameters.get("domain") == [22, 13, 50, 41] and parameters.get("roi") == [22, 13, 1, 50, 41, 2],
          "snake --roi: --stats shows the domain and the ROI: %s" % parameters)
    check(doc.get("slices") == 2, "snake --roi --propagate: slices 1 and 2 only (%s)" % doc.get("slices"))
    rc, _, doc, err = segment(lucent, src, os.path.join(tmp, "snake_whole.nii"), *snake)
    check(rc == 0 and doc.get("parameters", {}).get("domain", 0) is None,
          "snake without --roi: domain null in --stats: %s %r" % (doc.get("parameters"), err))


def per_voxel_contract(lucent, tmp):
    """--per-voxel: FCM over every voxel instead of the histogram of distinct values, same labels."""
    dims = (20, 16, 6)
    shape, _ = u_shape(dims)
    values = [500 + i % 5 if s else (i * 7) % 50 for i, s in enumerate(shape)]
    src = os.path.join(tmp, "fcm_pv.nii")
    write_nifti(src, dims, (1.0, 1.0, 1.0), values)
    fcm = ["--method", "fcm", "--clusters", "3", "--epsilon", "0.0001"]
    rc, hist, hdoc, err = segment(lucent, src, os.path.join(tmp, "fcm_hist.nii"), *fcm)
    check(rc == 0 and hdoc.get("path") == "histogram" and hdoc.get("samples") == len(set(values)),
          "fcm: the histogram path, one sample per distinct value (%d): %s %r" % (len(set(values)), hdoc, err))
    rc, pv, pdoc, err = segment(lucent, src, os.path.join(tmp, "fcm_pv.nii"), *fcm, "--per-voxel")
    check(rc == 0 and pdoc.get("path") == "per-voxel" and pdoc.get("samples") == len(values),
          "fcm --per-voxel: one sample per voxel (%d): %s %r" % (len(values), pdoc, err))
    check(pv == hist and pv is not None, "fcm --per-voxel labels every voxel as the histogram path does")
    centres = zip(hdoc.get("centres", []), pdoc.get("centres", [1e30]))
    check(all(abs(a - b) <= 1e-6 * (1 + abs(a)) for a, b in centres), "fcm --per-voxel: the same centres")


def min_segment_contract(lucent, tmp):
    """snake --min-segment L: a node goes into the middle of segments at least L pixels long; longer
    than the slice, none can be, so the rectangle's four corners stay the only nodes."""
    dims = (24, 20, 3)
    inside = box_mask(dims, (6, 5, 0), (13, 12, 2))
    src = os.path.join(tmp, "snake_box.nii")
    write_nifti(src, dims, (1.0, 1.0, 1.0), [200 if b else n % 2 for n, b in enumerate(inside)])
    snake = ["--method", "snake", "--slice", "1", "--rect", "2,2,21,17", "--backend", "cpu"]
    nodes = {}
    for length in ("8", "1000"):
        poly = os.path.join(tmp, "snake_min%s.json" % length)
        rc, _, doc, err = segment(lucent, src, os.path.join(tmp, "snake_min%s.nii" % length), *snake,
                                  "--min-segment", length, "--polygon", poly)
        polygon = json.load(open(poly))["slices"][0]["polygon"] if rc == 0 else []
        check(rc == 0 and doc.get("nodes") == len(polygon), "snake --min-segment %s: %r" % (length, err))
        nodes[length] = len(polygon)
    check(nodes["1000"] == 4, "snake --min-segment 1000: no segment is long enough, 4 nodes: %d" % nodes["1000"])
    check(nodes["8"] > 4, "snake --min-segment 8 adds nodes on the 19-pixel sides: %d" % nodes["8"])


def threads_contract(lucent, tmp):
    """A valid --threads N: the run uses N threads (stats) and labels as one thread does."""
    dims = (20, 16, 6)
    shape, _ = u_shape(dims)
    src = os.path.join(tmp, "threads.nii")
    write_nifti(src, dims, (1.0, 1.0, 1.0), [500 + i % 5 if s else (i * 7) % 50 for i, s in enumerate(shape)])
    for method in (["--method", "srg", "--seed", "4,4,2", "--lower", "400", "--upper", "600", "--connectivity", "26"],
                   ["--method", "fcm", "--clusters", "3"]):
        masks = {}
        for n in (1, 3):
            rc, mask, doc, err = segment(lucent, src, os.path.join(tmp, "threads_%d.nii" % n), *method, "--backend",
                                         "cpu", "--threads", str(n))
            check(rc == 0 and doc.get("threads") == n, "%s --threads %d runs on %d threads: %s %r"
                  % (method[1], n, n, doc.get("threads"), err))
            masks[n] = mask
        check(masks[1] == masks[3] and masks[1] is not None, "%s: --threads 3 labels as --threads 1" % method[1])


def srg_estimate_contract(lucent, tmp):
    """srg without --lower/--upper: the interval of the first seed's tissue. A plate of 1500 two
    voxels thick in 40 gives the plate (the old cube mean +- 2.5 sd reached the 40s); the interval
    is told on stderr (not with --quiet) and in --stats as estimated; one bound alone is a usage error."""
    import re
    dims = (12, 12, 12)
    plate = box_mask(dims, (0, 0, 5), (11, 11, 6))
    src = os.path.join(tmp, "srg_plate.nii")
    write_nifti(src, dims, (1.0, 1.0, 1.0), [1500 if p else 40 for p in plate])
    out = os.path.join(tmp, "srg_plate_mask.nii")
    rc, mask, doc, err = segment(lucent, src, out, "--method", "srg", "--seed", "6,6,6")
    found = re.search(r"interval (-?\d+)\.\.(-?\d+) estimated at the first seed", err)
    check(rc == 0 and mask == plate, "srg without bounds: %d voxels, expected the plate's %d: %r"
          % (sum(mask or []), sum(plate), err))
    lower, upper = (float(found.group(1)), float(found.group(2))) if found else (None, None)
    check(found is not None and 40 < lower <= 1500 <= upper, "srg: the estimated interval on stderr: %r" % err)
    check(("%s: interval" % src) in err, "srg: the interval's line names its input: %r" % err)
    p = doc.get("parameters", {})
    check(p.get("estimated") == ["lower", "upper"] and p.get("lower") == lower and p.get("upper") == upper,
          "srg: --stats reports the estimated interval %s..%s: %s" % (lower, upper, p))
    rc, _, _, err = segment(lucent, src, out, "--method", "srg", "--seed", "6,6,6", "--quiet")
    check(rc == 0 and "estimated" not in err, "srg --quiet: no interval line: %r" % err)
    rc, _, doc, err = segment(lucent, src, out, "--method", "srg", "--seed", "6,6,6", "--lower", "1000", "--upper",
                              "2000")
    check(rc == 0 and "estimated" not in err and doc.get("parameters", {}).get("estimated") == [],
          "srg with both bounds: nothing estimated: %r %s" % (err, doc.get("parameters")))
    for one in (("--lower", "1000"), ("--upper", "2000")):
        rc, _, _, err = segment(lucent, src, out, "--method", "srg", "--seed", "6,6,6", *one)
        check(rc == 2 and "--lower" in err and "--upper" in err, "srg %s alone is a usage error: %r" % (one[0], err))
