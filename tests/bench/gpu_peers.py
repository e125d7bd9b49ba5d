#!/usr/bin/env python3
"""@brief GPU peer for the CUDA region-growing figures, on the inputs `lucent_bench_gpu --dump DIR` wrote.

cupyx.scipy.ndimage.label on the threshold mask (6-connectivity, its default structure) and the seed's
label kept: the same region by another road, so the voxel counts must equal ours. Times are CUDA events,
volume already on the device, threshold included, median of 20 after 2 warm-ups.
usage: python3 tests/bench/gpu_peers.py DIR
"""
import glob
import json
import os
import sys

import cupy as cp
import numpy as np
from cupyx.scipy import ndimage


def main(folder):
    print("%-44s %10s %11s" % ("peer: cupyx.scipy.ndimage.label", "ms", "voxels"))
    for meta_path in sorted(glob.glob(os.path.join(folder, "case*.json"))):
        meta = json.load(open(meta_path))
        nx, ny, nz = meta["dims"]
        host = np.fromfile(meta_path[:-5] + ".raw", dtype=np.int16).reshape(nz, ny, nx)
        v = cp.asarray(host)
        i, j, k = meta["seed"]
        lo, hi = meta["lower"], meta["upper"]

        def run():
            labels, _ = ndimage.label((v >= lo) & (v <= hi))
            return labels == labels[k, j, i]

        for _ in range(2):
            run()
        times = []
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        for _ in range(20):
            start.record()
            region = run()
            stop.record()
            stop.synchronize()
            times.append(cp.cuda.get_elapsed_time(start, stop))
        print("%-44s %10.3f %11d" % (meta["name"] + " srg", sorted(times)[len(times) // 2], int(region.sum())))
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1])
