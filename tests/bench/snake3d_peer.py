#!/usr/bin/env python3
"""@brief The 3D snake's peer: scikit-image's morphological_chan_vese on the domain, start and step count that
`lucent_bench_snake3d --dump DIR` wrote, timed per iteration (iter_callback), its result compared voxel for voxel
with Lucent's. One case a process: scikit-image alternates SIoIS and ISoSI through a module-level cycle that
carries over from one call to the next. usage: /usr/bin/python3 tests/bench/snake3d_peer.py DIR CASE"""
import json
import statistics
import sys
import time

import numpy as np
from skimage.segmentation import morphological_chan_vese


def main():
    folder, case = sys.argv[1], sys.argv[2]
    meta = json.load(open("%s/%s.json" % (folder, case)))
    shape = (meta["nz"], meta["ny"], meta["nx"])
    image = np.fromfile("%s/%s_image.raw" % (folder, case), dtype="<i2").reshape(shape).astype(np.float64)
    start = np.fromfile("%s/%s_start.raw" % (folder, case), dtype=np.uint8).reshape(shape)
    lucent = np.fromfile("%s/%s_lucent.raw" % (folder, case), dtype=np.uint8).reshape(shape)
    stamps = [time.perf_counter()]
    result = morphological_chan_vese(image, meta["iterations"], init_level_set=start, smoothing=meta["smoothing"],
                                     iter_callback=lambda u: stamps.append(time.perf_counter()))
    steps = [1000 * (b - a) for a, b in zip(stamps, stamps[1:])]
    differing = int(np.count_nonzero(result.astype(np.uint8) != lucent))
    print("%s: %d x %d x %d domain, %d iterations: skimage %.1f ms/iteration (median), %d voxels inside, "
          "%d voxels differ from Lucent's" % (case, meta["nx"], meta["ny"], meta["nz"], meta["iterations"],
                                              statistics.median(steps), int(result.sum()), differing))


if __name__ == "__main__":
    main()
