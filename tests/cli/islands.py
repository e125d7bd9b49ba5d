"""@brief `lucent islands MASK -o OUT [--remove-smaller-than ML] [--keep-largest] [--fill-holes] [--labels ...]`:
each operation against a plain Python 6-connected flood written here (and counts known by construction),
--labels restricting, the mL threshold on non-unit spacing, the fixed order, the input's grid kept,
--no-clobber, usage errors (exit 2) and bad input (exit 1, the file named).

Standard library only, as test_cli.py (whose helpers these are).
"""
import array
import os
import struct

from test_cli import check, read_label_nrrd, read_nifti, run, write_nifti

DIMS = (24, 14, 10)
SPACING = (0.5, 0.8, 2.0)  # 0.8 mm^3 a voxel
VOXEL_MM3 = SPACING[0] * SPACING[1] * SPACING[2]


def index(i, j, k, dims=DIMS):
    return i + dims[0] * (j + dims[1] * k)


def box(m, lo, hi, v, dims=DIMS):
    for k in range(lo[2], hi[2] + 1):
        for j in range(lo[1], hi[1] + 1):
            for i in range(lo[0], hi[0] + 1):
                m[index(i, j, k, dims)] = v


def hollow(m, lo, hi, v, dims=DIMS):
    box(m, lo, hi, v, dims)
    box(m, [a + 1 for a in lo], [b - 1 for b in hi], 0, dims)


def sample():
    """Label 1: hollow cube A (98 voxels, 27 cavity), rods B (10 voxels = 0.0080 mL) and C (12 = 0.0096 mL).
    Label 3: a cup whose well reaches the border j = 0 (200 voxels), a hollow box (98) holding one voxel of
    label 2 in its cavity, a single voxel."""
    m = [0] * (DIMS[0] * DIMS[1] * DIMS[2])
    hollow(m, (1, 1, 1), (5, 5, 5), 1)
    box(m, (8, 1, 1), (12, 2, 1), 1)
    box(m, (8, 5, 1), (13, 6, 1), 1)
    box(m, (16, 0, 2), (22, 6, 6), 3)
    box(m, (18, 0, 3), (20, 4, 5), 0)
    hollow(m, (15, 8, 3), (19, 12, 7), 3)
    m[index(17, 10, 5)] = 2
    m[index(22, 12, 8)] = 3
    return m


def neighbours(v, dims):
    i, j, k = v % dims[0], (v // dims[0]) % dims[1], v // (dims[0] * dims[1])
    for c, n, step in ((i, dims[0], 1), (j, dims[1], dims[0]), (k, dims[2], dims[0] * dims[1])):
        if c > 0:
            yield v - step
        if c + 1 < n:
            yield v + step


def components(m, inside, dims=DIMS):
    """6-connected components of the voxels where inside(value) holds, as lists of indices, in memory order."""
    seen, out = set(), []
    for start in range(len(m)):
        if start in seen or not inside(m[start]):
            continue
        seen.add(start)
        comp, stack = [], [start]
        while stack:
            v = stack.pop()
            comp.append(v)
            for w in neighbours(v, dims):
                if w not in seen and inside(m[w]):
                    seen.add(w)
                    stack.append(w)
        out.append(comp)
    return out


def on_border(v, dims):
    i, j, k = v % dims[0], (v // dims[0]) % dims[1], v // (dims[0] * dims[1])
    return 0 in (i, j, k) or i == dims[0] - 1 or j == dims[1] - 1 or k == dims[2] - 1


def expected(m, labels, ml=None, largest=False, fill=False, dims=DIMS, voxel_mm3=VOXEL_MM3):
    """The three operations in the documented order, each over every label before the next."""
    m = list(m)
    if ml is not None:
        for v in labels:
            for c in components(m, lambda x: x == v, dims):
                if len(c) * voxel_mm3 / 1000.0 < ml:
                    for w in c:
                        m[w] = 0
    if largest:
        for v in labels:
            comps = components(m, lambda x: x == v, dims)
            keep = max(comps, key=len) if comps else []
            for c in comps:
                if c is not keep:
                    for w in c:
                        m[w] = 0
    if fill:
        for v in labels:
            for c in components(m, lambda x: x != v, dims):
                if not any(on_border(w, dims) or m[w] for w in c):
                    for w in c:
                        m[w] = v
    return m


def islands(lucent, mask, out, *args):
    rc, text, err = run(lucent, "islands", mask, "-o", out, *args)
    got = [int(v) for v in read_nifti(out)[2]] if rc == 0 and os.path.exists(out) else None
    return rc, text, err, got


def operations_contract(lucent, tmp):
    m = sample()
    mask = os.path.join(tmp, "isl_mask.nii")
    write_nifti(mask, DIMS, SPACING, m)
    out = os.path.join(tmp, "isl_out.nii")

    rc, text, err, got = islands(lucent, mask, out, "--fill-holes")
    check(rc == 0 and got == expected(m, (1, 2, 3), fill=True), "--fill-holes matches the flood: %r" % err)
    if got:
        check(got.count(1) == m.count(1) + 27 and got.count(3) == m.count(3) and got.count(2) == 1,
              "--fill-holes: cube A's 27-voxel cavity filled; the cup's well (open to the border) and the box "
              "holding label 2 kept")
        check(got[index(18, 2, 4)] == 0 and got[index(16, 9, 4)] == 0, "the well and the cavity around label 2 stay 0")
    check("label 1: 27 voxels filled" in text and "label 3: 0 voxels filled" in text, "summary per label: %r" % text)

    rc, text, err, got = islands(lucent, mask, out, "--keep-largest")
    check(rc == 0 and got == expected(m, (1, 2, 3), largest=True), "--keep-largest matches the flood: %r" % err)
    if got:
        check(got.count(1) == 98 and got.count(3) == 200 and got.count(2) == 1,
              "--keep-largest: cube A (98) and the cup (200) stay")
    check("label 1: 22 voxels removed" in text and "label 3: 99 voxels removed" in text, "summary: %r" % text)

    # 0.009 mL on 0.8 mm^3 voxels: rod B (10 voxels, 0.0080 mL) goes, rod C (12, 0.0096 mL) stays. Counted
    # in voxels (or with 1 mm^3 voxels) both would stay.
    rc, text, err, got = islands(lucent, mask, out, "--remove-smaller-than", "0.009")
    check(rc == 0 and got == expected(m, (1, 2, 3), ml=0.009), "--remove-smaller-than matches the flood: %r" % err)
    if got:
        check(got[index(8, 1, 1)] == 0 and got[index(8, 5, 1)] == 1 and got.count(1) == 98 + 12,
              "0.009 mL: the 0.0080 mL rod removed, the 0.0096 mL rod kept")
        check(got.count(2) == 0 and got[index(22, 12, 8)] == 0, "single voxels (0.0008 mL) removed")

    rc, text, err, got = islands(lucent, mask, out, "--remove-smaller-than", "0.009", "--labels", "1")
    check(rc == 0 and got == expected(m, (1,), ml=0.009), "--labels 1 restricts the removal: %r" % err)
    if got:
        check(got.count(2) == 1 and got.count(3) == m.count(3), "--labels 1 leaves labels 2 and 3 alone")
    check("label 3" not in text, "the summary names only the chosen labels: %r" % text)
    rc, _, err, got = islands(lucent, mask, out, "--keep-largest", "--fill-holes", "--labels", "3,2")
    check(rc == 0 and got == expected(m, (2, 3), largest=True, fill=True) and got.count(1) == m.count(1),
          "--labels 3,2 --keep-largest --fill-holes: label 1 untouched: %r" % err)


def order_contract(lucent, tmp):
    """remove-smaller-than comes before fill-holes: a hollow 3^3 cube (26 voxels, 0.0208 mL) below 0.021 mL
    is removed; filled first (27 voxels, 0.0216 mL) it would stay."""
    dims = (7, 7, 7)
    m = [0] * (7 * 7 * 7)
    hollow(m, (2, 2, 2), (4, 4, 4), 1, dims)
    mask = os.path.join(tmp, "isl_order.nii")
    write_nifti(mask, dims, SPACING, m)
    out = os.path.join(tmp, "isl_order_out.nii")
    rc, _, err, got = islands(lucent, mask, out, "--fill-holes", "--remove-smaller-than", "0.021")
    check(rc == 0 and got == [0] * len(m), "removal before filling: the hollow cube is removed: %r" % err)
    rc, _, err, got = islands(lucent, mask, out, "--fill-holes", "--remove-smaller-than", "0.0205")
    check(rc == 0 and got is not None and got.count(1) == 27, "below its volume it stays, and is filled: %r" % err)


def write_float_nifti(path, dims, values):
    hdr = bytearray(352)
    struct.pack_into("<i", hdr, 0, 348)
    struct.pack_into("<8h", hdr, 40, 3, *dims, 1, 1, 1, 1)
    struct.pack_into("<hh", hdr, 70, 16, 32)
    struct.pack_into("<8f", hdr, 76, 1, 1, 1, 1, 1, 1, 1, 1)
    struct.pack_into("<f", hdr, 108, 352)
    hdr[344:348] = b"n+1\0"
    with open(path, "wb") as f:
        f.write(bytes(hdr) + array.array("f", values).tobytes())


def files_contract(lucent, tmp):
    m = sample()
    mask = os.path.join(tmp, "isl_grid.nii")
    write_nifti(mask, DIMS, SPACING, m)
    dims_in, srow_in, _ = read_nifti(mask)
    out = os.path.join(tmp, "isl_grid_out.nii.gz")
    rc, _, err = run(lucent, "islands", mask, "-o", out, "--fill-holes")
    if rc == 0:
        dims_out, srow_out, _ = read_nifti(out)
        worst = max(abs(a - b) for r in range(3) for a, b in zip(srow_in[r], srow_out[r]))
        check(dims_out == dims_in and worst < 1e-5, "output has the input's shape and affine: %s %s" % (dims_out, worst))
    else:
        check(False, "islands -o .nii.gz: %r" % err)
    nrrd = os.path.join(tmp, "isl_grid_out.nrrd")
    rc, _, err = run(lucent, "islands", mask, "-o", nrrd, "--keep-largest")
    sizes, body = read_label_nrrd(nrrd) if rc == 0 else ([], b"")
    check(sizes == list(DIMS) and list(body) == expected(m, (1, 2, 3), largest=True), "-o .nrrd: same grid and voxels")

    before = open(out, "rb").read()
    rc, _, err = run(lucent, "islands", mask, "-o", out, "--keep-largest", "--no-clobber")
    check(rc == 1 and "isl_grid_out.nii.gz" in err and open(out, "rb").read() == before,
          "--no-clobber keeps the existing output byte for byte: %r" % err)
    rc, text, err = run(lucent, "islands", mask, "-o", out, "--keep-largest", "--quiet")
    check(rc == 0 and text == "" and err == "", "--quiet: no summary: %r %r" % (text, err))

    fresh = os.path.join(tmp, "isl_none.nii")
    for args in ([mask, "-o", fresh], [mask, "-o", fresh, "--keep-largest", "--remove-smaller-than", "-1"],
                 [mask, "-o", fresh, "--fill-holes", "--labels", "1,x"], [mask, "--fill-holes"],
                 [mask, "-o", os.path.join(tmp, "isl.png"), "--fill-holes"]):
        rc, _, err = run(lucent, "islands", *args)
        check(rc == 2 and len(err.strip().splitlines()) == 1 and not os.path.exists(fresh),
              "usage error, exit 2, one line: %s -> %d %r" % (args[1:], rc, err))
    floats = os.path.join(tmp, "isl_float.nii")
    write_float_nifti(floats, (4, 4, 4), [0.5 * (i % 3) for i in range(64)])
    for bad, word in ((floats, "not a label map"), (os.path.join(tmp, "isl_absent.nii"), "isl_absent.nii")):
        rc, _, err = run(lucent, "islands", bad, "-o", fresh, "--fill-holes")
        check(rc == 1 and len(err.strip().splitlines()) == 1 and os.path.basename(bad) in err and word in err
              and not os.path.exists(fresh), "bad input: exit 1, one line naming it: %r" % err)
    rc, _, err = run(lucent, "islands", mask, "-o", fresh, "--fill-holes", "--labels", "1,5")
    check(rc == 1 and "label 5" in err and not os.path.exists(fresh), "an absent --labels value: exit 1: %r" % err)


def islands_contract(lucent, tmp):
    operations_contract(lucent, tmp)
    order_contract(lucent, tmp)
    files_contract(lucent, tmp)
