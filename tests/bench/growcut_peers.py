#!/usr/bin/env python3
"""@brief scikit-image's marker watershed beside Lucent's grow from seeds (issue 46), on the inputs that
`lucent_bench_growcut --dump DIR` wrote: skimage.segmentation.watershed on the gradient magnitude
(skimage.filters.sobel) with the seeds as markers, run once with the first seeds and once with the stroke
added (a watershed has no update: it runs again). Prints ms, Dice against the phantom's truth and the share
of voxels where it agrees with Lucent's labels.
usage: growcut_peers.py DIR
"""
import glob
import json
import os
import sys
import time

import numpy as np
from skimage.filters import sobel
from skimage.segmentation import watershed


def dice(a, b, label):
    x, y = a == label, b == label
    total = x.sum() + y.sum()
    return 2.0 * np.logical_and(x, y).sum() / total if total else 1.0


def main():
    folder = sys.argv[1]
    for meta in sorted(glob.glob(os.path.join(folder, "*.json"))):
        name = os.path.basename(meta)[:-5]
        nx, ny, nz = json.load(open(meta))["dims"]
        shape = (nz, ny, nx)

        def raw(part, dtype):
            return np.fromfile(os.path.join(folder, "%s-%s" % (name, part)), dtype=dtype).reshape(shape)

        volume = raw("volume.raw", np.int16).astype(np.float32)
        seeds, stroked = raw("seeds.raw", np.uint8), raw("stroked.raw", np.uint8)
        truth, lucent = raw("truth.raw", np.uint8), raw("lucent.raw", np.uint8)
        t0 = time.perf_counter()
        gradient = sobel(volume)
        t1 = time.perf_counter()
        labels = watershed(gradient, markers=seeds.astype(np.int32))
        t2 = time.perf_counter()
        watershed(gradient, markers=stroked.astype(np.int32))
        t3 = time.perf_counter()
        print("%s: skimage watershed on the sobel gradient: gradient %.0f ms, first run %.0f ms, after the stroke %.0f ms "
              "(runs again); Dice %.4f %.4f %.4f; agrees with Lucent on %.4f of the voxels (Lucent's Dice %.4f %.4f %.4f)" %
              (name, 1e3 * (t1 - t0), 1e3 * (t2 - t1), 1e3 * (t3 - t2), dice(labels, truth, 1), dice(labels, truth, 2),
               dice(labels, truth, 3), float((labels == lucent).mean()), dice(lucent, truth, 1), dice(lucent, truth, 2),
               dice(lucent, truth, 3)), flush=True)


if __name__ == "__main__":
    main()
