#!/usr/bin/python3
"""@brief Peer figures for BENCHMARKS.md on the inputs `lucent_bench_engines --dump DIR` wrote.

Region growing: scipy.ndimage.label on the threshold mask (6-connectivity), keeping the seed's component:
the same answer by another road, so the voxel counts must match ours exactly.
Fuzzy C-means: a vectorised NumPy per-voxel FCM (Eq. 3/4, m = 2, epsilon 0.005, quantile start), the way
FCM is usually written in Python; there is no FCM in Debian's SciPy or scikit-image.
Snake: scikit-image's morphological Chan-Vese (a region-based two-phase contour, not the same method).
Fuzzy connectedness: no peer in Debian's Python stack.
usage: /usr/bin/python3 tests/bench/peers.py DIR   (Debian's python, where python3-scipy installs)
"""
import sys
import time

import numpy as np
from scipy import ndimage
from skimage.segmentation import morphological_chan_vese


def timed(f):
    t0 = time.perf_counter()
    r = f()
    return r, (time.perf_counter() - t0) * 1000


def srg_peer(v, seed):
    def run():
        labels, _ = ndimage.label((v >= 50) & (v <= 150))
        return labels == labels[seed]
    return timed(run)


def fcm_peer(v, c=3, m=2.0, eps=0.005, max_iter=300):
    x = v.astype(np.float64).ravel()
    def run():
        centres = np.quantile(x, [(k + 0.5) / c for k in range(c)])
        u = None
        for it in range(1, max_iter + 1):
            d = np.abs(x[None, :] - centres[:, None]) + 1e-12
            inv = d ** (-2.0 / (m - 1))
            unew = inv / inv.sum(axis=0)
            change = np.abs(unew - u).max() if u is not None else 1.0
            u = unew
            um = u ** m
            centres = (um @ x) / um.sum(axis=1)
            if change < eps:
                break
        return np.sort(centres), it
    return timed(run)


def main():
    folder = sys.argv[1]
    print("peer   size         compute ms       voxels  note")
    for n in (256, 512):
        try:
            v = np.fromfile(f"{folder}/phantom{n}.raw", dtype=np.int16).reshape(n, n, n)
        except FileNotFoundError:
            continue
        seed = (n // 2, n // 2 + n // 5, n // 2)  # (k, j, i) of the C++ seed (i, j, k) = (n/2, n/2+n/5, n/2)
        mask, t = srg_peer(v, seed)
        print(f"srg    {n}^3 {t:17.1f} {int(mask.sum()):12d}  scipy.ndimage.label, 1 thread", flush=True)
        if n <= 256:
            (centres, its), t = fcm_peer(v)
            print(f"fcm    {n}^3 {t:17.1f} {v.size:12d}  numpy per-voxel FCM, {its} iterations, centres "
                  + " ".join(f"{c:.1f}" for c in centres), flush=True)
    for mp in (15,):
        try:
            img = np.fromfile(f"{folder}/image{mp}.raw", dtype=np.int16)
        except FileNotFoundError:
            continue
        side = int(round(np.sqrt(img.size)))
        img = img.reshape(side, side).astype(np.float32)
        init = np.zeros_like(img, dtype=np.int8)
        init[side // 10: side - side // 10, side // 10: side - side // 10] = 1
        ls, t = timed(lambda: morphological_chan_vese(img, 30, init_level_set=init))
        print(f"snake  {mp} MP {t:16.1f} {int(ls.sum()):12d}  skimage morphological_chan_vese, 30 iterations",
              flush=True)


if __name__ == "__main__":
    main()
