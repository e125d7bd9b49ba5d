"""@brief Issue 44: gzip written on several cores, read by others; gzip of several members, read by Lucent.

Lucent's `.nii.gz` and gzip `.nrrd` outputs are made of independently deflated pieces in one gzip
member: Python's gzip and a single zlib.decompressobj (pynrrd's reader, which stops at the end of a
member) both give the uncompressed output's bytes exactly. A `.nii.gz` of several members (gzip,
pigz -i, bgzip and `cat a.gz b.gz` write them) is read by Lucent as Python's gzip reads it.

Standard library only, as test_cli.py (whose helpers these are).
"""
import gzip
import os
import zlib

from test_cli import check, read_nifti, run, write_nifti


def one_member(raw):
    """The data of `raw` read as one gzip member, and whether that member is the whole file."""
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    data = d.decompress(raw)
    return data, d.eof and not d.unused_data


def gzip_members_contract(lucent, tmp):
    dims = (128, 128, 80)  # 1.3 M voxels: a mask of several 1 MiB pieces, a volume of more
    values = [((i * 7 + (i // 128) * 13 + (i // 16384) * 29) % 400) - 100 for i in range(dims[0] * dims[1] * dims[2])]
    src = os.path.join(tmp, "gz_src.nii")
    write_nifti(src, dims, (1, 1, 1), values)
    outs = {}
    for suffix in ("nii", "nii.gz", "nrrd"):
        outs[suffix] = os.path.join(tmp, "gz_mask." + suffix)
        rc, _, err = run(lucent, "segment", src, "--method", "srg", "--seed", "64,64,40", "--lower", "0", "--upper",
                         "200", "-o", outs[suffix], "--quiet")
        check(rc == 0, "segment -o %s: %s" % (suffix, err))
    plain = open(outs["nii"], "rb").read()
    packed = open(outs["nii.gz"], "rb").read()
    check(gzip.decompress(packed) == plain, "the .nii.gz mask inflates (Python's gzip) to the .nii mask's bytes")
    data, whole = one_member(packed)
    check(data == plain and whole, "the .nii.gz mask is one gzip member (a single decompressobj reads it all)")
    nrrd = open(outs["nrrd"], "rb").read()
    body = nrrd[nrrd.index(b"\n\n") + 2:]
    data, whole = one_member(body)
    check(whole and data == plain[352:], "the gzip NRRD mask's data are one member: the .nii mask's voxels")
    rc, _, err = run(lucent, "convert", src, "-o", os.path.join(tmp, "gz_vol.nii.gz"), "--quiet")
    data, whole = one_member(open(os.path.join(tmp, "gz_vol.nii.gz"), "rb").read())
    check(rc == 0 and whole and data[352:] == open(src, "rb").read()[352:], "convert -o .nii.gz: one member, "
          "the source's voxels: %r" % err)
    # Several members, the header cut across two: Python's gzip reads them as one stream, so must Lucent.
    raw = open(src, "rb").read()
    cuts = [0, 100, 352, 70001, 1000000, len(raw)]
    multi = os.path.join(tmp, "gz_multi.nii.gz")
    with open(multi, "wb") as f:
        for a, b in zip(cuts, cuts[1:]):
            f.write(gzip.compress(raw[a:b]))
    check(gzip.decompress(open(multi, "rb").read()) == raw, "Python's gzip reads the members as one stream")
    back = os.path.join(tmp, "gz_multi_back.nii")
    rc, _, err = run(lucent, "convert", multi, "-o", back, "--quiet")
    check(rc == 0 and list(read_nifti(back)[2]) == values, "Lucent reads a .nii.gz of 5 members: %r" % err)
