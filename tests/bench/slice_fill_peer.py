#!/usr/bin/python3
"""@brief Peer figure for fill between slices (BENCHMARKS.md): signed-distance interpolation written with
scipy.ndimage.distance_transform_edt, the way it is usually done in Python, on the inputs
`lucent_bench_slice_fill --dump DIR` wrote (512 x 512 x 400 uint8, k slowest; label 1 on 40 slices).
Each gap between labelled slices: the two slices' signed distance maps (two EDTs each, on the whole
plane), blended linearly for each slice between, thresholded at 0 into the background. One thread
(scipy's EDT is single-threaded). Prints the median and worst of R runs and the Dice against the whole shape.
--cupy: the same on the GPU with CuPy (cupyx.scipy.ndimage's EDT), the map's upload and download timed,
the CUDA row's peer.
usage: /usr/bin/python3 tests/bench/slice_fill_peer.py DIR [--size 512,512,400] [--runs R] [--cupy]
"""
import argparse
import time

import numpy as np


def backend(use_cupy):
    if use_cupy:
        import cupy
        from cupyx.scipy import ndimage as cupy_ndimage
        return cupy, cupy_ndimage, cupy.cuda.Device().synchronize
    from scipy import ndimage
    return np, ndimage, lambda: None


def fill(drawn_host, xp, ndimage):
    drawn = xp.asarray(drawn_host)
    out = drawn.copy()

    def signed_distance(plane):
        inside = plane.astype(bool)
        return ndimage.distance_transform_edt(~inside) - ndimage.distance_transform_edt(inside)

    held = np.flatnonzero(np.asarray((drawn_host == 1).any(axis=(1, 2))))
    for a, b in zip(held[:-1], held[1:]):
        if b - a < 2:
            continue
        sa, sb = signed_distance(drawn[a] == 1), signed_distance(drawn[b] == 1)
        for k in range(a + 1, b):
            t = (k - a) / (b - a)
            shape = (1 - t) * sa + t * sb < 0
            out[k][shape & (out[k] == 0)] = 1
    return out.get() if xp is not np else out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--size", default="512,512,400")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cupy", action="store_true")
    a = ap.parse_args()
    xp, ndimage, sync = backend(a.cupy)
    nx, ny, nz = (int(v) for v in a.size.split(","))
    drawn = np.fromfile(a.dir + "/slice_fill_drawn.raw", dtype=np.uint8).reshape(nz, ny, nx)
    whole = np.fromfile(a.dir + "/slice_fill_whole.raw", dtype=np.uint8).reshape(nz, ny, nx)
    times, cpu = [], []
    if a.cupy:
        fill(drawn, xp, ndimage)  # CuPy's kernels compiled outside the timed runs
    for _ in range(a.runs):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fill(drawn, xp, ndimage)
        sync()
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    times.sort()
    cpu.sort()
    both = np.count_nonzero((out == 1) & (whole == 1))
    dice = 2.0 * both / (np.count_nonzero(out == 1) + np.count_nonzero(whole == 1))
    print(("cupy" if a.cupy else "scipy") + " signed-distance interpolation: median %.1f ms  worst %.1f ms  (CPU time median %.1f ms)  Dice %.4f"
          % (times[len(times) // 2], times[-1], cpu[len(cpu) // 2], dice))


if __name__ == "__main__":
    main()
