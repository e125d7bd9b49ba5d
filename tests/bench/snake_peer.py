#!/usr/bin/env python3
"""@brief The CUDA snake's GPU peer: CuPy cumsum building the cumulated images C_z and C_z2 (paper 003)
of a noisy int16 disc image of each benchmark size, device-resident, timed by CUDA events (median
of 20 after warm-up). lucent_bench_gpu's `start_ev` column is the same work in Lucent (its checkpoint
scan). usage: python3 tests/bench/snake_peer.py"""
import statistics

import cupy as cp


def image(side):
    y, x = cp.mgrid[0:side, 0:side]
    c, r = side / 2.0, 0.3 * side
    disc = ((x - c) ** 2 + (y - c) ** 2) <= r * r
    noise = cp.random.RandomState(17).normal(0, 20, (side, side))
    return cp.rint(cp.where(disc, 120, 80) + noise).astype(cp.int16)


def timed(run, repeats=20):
    for _ in range(3):
        run()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(repeats):
        start.record()
        run()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return statistics.median(times)


def main():
    print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), "CuPy", cp.__version__)
    print(f"{'case':24} {'cumsum_ms':>10} {'GB/s':>8}   (C_z and C_z2 as int64, rows along x)")
    for side in (512, 3873, 12247):
        v = image(side)

        def run():
            z = v.astype(cp.int64)
            return cp.cumsum(z, axis=1), cp.cumsum(z * z, axis=1)

        ms = timed(run, 20 if side < 10000 else 7)
        moved = side * side * (2 + 2 * 8)  # read the image, write two int64 tables
        print(f"{'snake ' + str(side) + '^2':24} {ms:10.3f} {moved / (ms * 1e6):8.1f}")
        del v
        cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
