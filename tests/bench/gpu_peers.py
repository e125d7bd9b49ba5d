#!/usr/bin/env python3
"""@brief GPU peers for the CUDA engine figures, on the inputs `lucent_bench_gpu --dump DIR` wrote.

Region growing: cupyx.scipy.ndimage.label on the threshold mask (6-connectivity, its default structure)
and the seed's label kept: the same region by another road, so the voxel counts must equal ours.
Fuzzy C-means: a straightforward per-voxel CuPy FCM (Eq. 3 and 4 on float32 arrays, m = 2, c = 3,
epsilon 0.005, the same quantile start), the way FCM is written for a GPU in Python.
Times are CUDA events, volume already on the device, median of 20 after 2 warm-ups (FCM: of 3).
usage: python3 tests/bench/gpu_peers.py DIR
"""
import glob
import json
import os
import sys

import cupy as cp
import numpy as np
from cupyx.scipy import ndimage


def timed(run, repeats):
    for _ in range(2 if repeats > 3 else 1):
        run()
    times = []
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(repeats):
        start.record()
        result = run()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return sorted(times)[len(times) // 2], result


def fcm(v, c=3, m=2.0, eps=0.005, max_iter=300):
    x = v.ravel().astype(cp.float32)
    q = cp.sort(x)
    centres = cp.stack([q[min(x.size - 1, int((k + 0.5) / c * x.size))] for k in range(c)])
    def memberships(centres):
        d = cp.abs(x[None, :] - centres[:, None]) + 1e-12
        w = d ** (-2.0 / (m - 1.0))
        return w / w.sum(axis=0)
    u = memberships(centres)
    for it in range(1, max_iter + 1):
        um = u ** m
        centres = (um @ x) / um.sum(axis=1)
        nu = memberships(centres)
        change = float(cp.abs(nu - u).max())
        u = nu
        if change < eps:
            break
    return cp.argmax(u, axis=0), it


def main(folder):
    print("%-44s %10s %11s" % ("peer: cupyx.scipy.ndimage.label", "ms", "voxels"))
    for meta_path in sorted(glob.glob(os.path.join(folder, "*.json"))):
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
        ms, (labels, iterations) = timed(lambda: fcm(v), 3)
        print("%-44s %10.3f %11d  (%d iterations)" % (meta["name"] + " fcm c=3", ms, int((labels == 0).sum()), iterations))
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1])
