"""The lucent Python module's overhead: a public call's wall time against the engine's own time.

    PYTHONPATH=build/python /usr/bin/python3 tests/bench/python_overhead.py [--size 512] [--backend cpu] [--runs 3]

On a size^3 int16 volume of smooth blobs (Fortran order, as lucent.load and nibabel give; then
C order, used as its transpose), for each method: the engine's ms_total (start, steps, labels
handed back: what `lucent segment` reports), the median wall time of `lucent.<method>(...)`, and
their difference as a share of the engine's time (goal: <= 5 %). A strided view, which is copied
once, is timed too. Prints figures; asserts nothing (benchmarks are not tests).
"""

import argparse
import statistics
import time

import numpy as np

import lucent
from lucent import _lucent


def volume(size):
    """Blobs without scipy (a 512^3 Gaussian filter would dwarf the runs): sums of sines, int16."""
    x = np.linspace(0, 6 * np.pi, size, dtype=np.float32)
    v = np.sin(x)[:, None, None] + np.sin(1.3 * x)[None, :, None] + np.sin(0.7 * x)[None, None, :]
    return np.asfortranarray((v * 300).astype(np.int16))


def median_ms(call, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        call()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--size", type=int, default=512)
    p.add_argument("--backend", default="cpu")
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    v = volume(args.size)
    seed = tuple(int(i) for i in np.argwhere(v > 600)[0])
    print(f"volume {args.size}^3 int16 ({v.nbytes / 2**20:.0f} MiB), backend {args.backend}, median of {args.runs}")
    cases = {
        "srg": (lambda a: lucent.region_growing(a, seed, lower=300, upper=900, backend=args.backend),
                {"seeds": [seed], "lower": 300, "upper": 900}),
        "fc": (lambda a: lucent.fuzzy_connectedness(a, [seed], threshold=0.5, backend=args.backend),
               {"seeds": [seed], "threshold": 0.5}),
        "fcm": (lambda a: lucent.fuzzy_c_means(a, clusters=3, backend=args.backend), {"clusters": 3}),
    }
    print(f"{'method':8}{'layout':10}{'engine ms':>12}{'call ms':>12}{'overhead':>12}")
    for method, (call, params) in cases.items():
        engine = statistics.median(_lucent._segment(method, v, dict(params), args.backend)[1]["ms_total"]
                                   for _ in range(args.runs))
        for layout, array in (("fortran", v), ("c", np.ascontiguousarray(v))):
            wall = median_ms(lambda: call(array), args.runs)
            print(f"{method:8}{layout:10}{engine:12.1f}{wall:12.1f}{(wall - engine) / engine * 100:11.1f}%")
    strided = v[:, :, ::2]
    seed = tuple(int(i) for i in np.argwhere(strided > 600)[0])
    params = {"seeds": [seed], "lower": 300, "upper": 900}
    engine = statistics.median(_lucent._segment("srg", np.asfortranarray(strided), dict(params), args.backend)[1]
                               ["ms_total"] for _ in range(args.runs))
    wall = median_ms(lambda: lucent.region_growing(strided, seed, 300, 900, backend=args.backend), args.runs)
    print(f"{'srg':8}{'strided':10}{engine:12.1f}{wall:12.1f}{(wall - engine) / engine * 100:11.1f}%  (one copy)")


if __name__ == "__main__":
    main()
