"""The lucent Python module's overhead: a public call's wall time against the engine's own time in
that same call.

    PYTHONPATH=build/python /usr/bin/python3 tests/bench/python_overhead.py [--size 512] [--backend cpu] [--runs 5]
        [--input numpy|cupy]

On a size^3 int16 volume (Fortran order, as lucent.load and nibabel give; then C order, used as its
transpose; then a strided view, copied once), for each method and run: the wall time of
`lucent.<method>(...)` and the engine's ms_total inside it (start, steps, labels handed back: what
`lucent segment` reports as ms_total), read from the call itself so that a busy machine slows both
alike. Prints the medians and the overhead (wall - engine) as a share of the engine's time (goal:
<= 5 %) and its parts, in ms: "binding" the C++ call around the engine, "borrow" a device array's
way in (its library's __dlpack__ export and the module's borrow), "import" the labels' way out
(imported by the caller's library); the rest is the package's own Python. Apart from it the time to
free the returned labels, and the first call's overhead (where
a process's first device call makes what later calls keep: a context, label memory). With --input cupy (backend auto or
cuda) the same volume is a CuPy array on the device, read where it lies and answered in device
memory: the call against a NumPy input's shows what staying on the GPU saves (the upload, the label
download). Prints figures; asserts nothing (benchmarks are not tests).
"""

import argparse
import statistics
import time

import numpy as np

import lucent
from lucent import _lucent

last_run = {}


def recording(call):
    """The module's engine call, keeping what the run reported (its engine time) and the call's own
    wall time (the binding: C++ around the engine), so that the overhead splits into the binding's
    part and the Python package's."""
    def run(*args, **kwargs):
        t0 = time.perf_counter()
        labels, info = call(*args, **kwargs)
        last_run["binding_ms"] = (time.perf_counter() - t0) * 1000
        last_run.update(info)
        return labels, info
    return run


def timing(name, call):
    """A step of the package's device path, its wall time added to last_run[name]."""
    def run(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            last_run[name] = last_run.get(name, 0.0) + (time.perf_counter() - t0) * 1000
    return run


_lucent._segment = recording(_lucent._segment)
_lucent._segment_resident = recording(_lucent._segment_resident)
# A device array's way in (its library's __dlpack__ export and the module's borrow) and the labels'
# way out (imported by the caller's library): the parts of the package's overhead that are not its
# own Python code.
lucent._borrow = timing("borrow_ms", lucent._borrow)
lucent._from_device = timing("import_ms", lucent._from_device)


def volume(size):
    """Smooth structures without scipy (a 512^3 Gaussian filter would dwarf the runs): sums of sines."""
    x = np.linspace(0, 6 * np.pi, size, dtype=np.float32)
    v = np.sin(x)[:, None, None] + np.sin(1.3 * x)[None, :, None] + np.sin(0.7 * x)[None, None, :]
    return np.asfortranarray((v * 300).astype(np.int16))


def measure(call, runs):
    """Medians of (wall ms, engine ms, overhead ms, free ms, binding's part of the overhead ms, the
    device array's export and borrow ms, the labels' import ms) over `runs` calls, and the first
    call's overhead ms: the call returns its result (kept), then freeing
    the result is timed apart (the kernel unmapping the label array's pages, or a device array's
    memory going back: what any array of that size costs when dropped, not the call). The engine's
    time is the run's ms_total on both paths (start, steps, labels handed back: the same clock and
    span for NumPy and CuPy input); the overhead is everything else the call took."""
    rows = []
    for _ in range(runs):
        last_run.update(borrow_ms=0.0, import_ms=0.0)
        t0 = time.perf_counter()
        result = call()
        t1 = time.perf_counter()
        del result
        t2 = time.perf_counter()
        wall, engine = (t1 - t0) * 1000, last_run["ms_total"]
        rows.append((wall, engine, wall - engine, (t2 - t1) * 1000, last_run["binding_ms"] - engine,
                     last_run["borrow_ms"], last_run["import_ms"]))
    return [statistics.median(column) for column in zip(*rows)] + [rows[0][2]]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--size", type=int, default=512)
    p.add_argument("--backend", default="cpu")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--input", choices=("numpy", "cupy"), default="numpy")
    args = p.parse_args()
    v = volume(args.size)
    print(f"volume {args.size}^3 int16 ({v.nbytes / 2**20:.0f} MiB) as {args.input}, backend {args.backend}, "
          f"median of {args.runs}")
    print(f"{'method':8}{'layout':10}{'engine ms':>12}{'call ms':>12}{'overhead':>16}{'binding':>10}{'borrow':>9}"
          f"{'import':>9}{'free ms':>10}{'first call':>13}")
    layouts = [("fortran", v), ("c", np.ascontiguousarray(v)), ("strided", v[:, :, ::2])]
    if args.input == "cupy":
        import cupy
        layouts = [("fortran", cupy.asarray(v, order="F")), ("c", cupy.asarray(v, order="C"))]
    for layout, array in layouts:
        host = array if isinstance(array, np.ndarray) else v  # a CuPy array holds v's values at v's indices
        seed = tuple(int(i) for i in np.argwhere(host > 600)[0])
        calls = {
            "srg": lambda: lucent.region_growing(array, seed, lower=300, upper=900, backend=args.backend),
            "fc": lambda: lucent.fuzzy_connectedness(array, [seed], threshold=0.5, backend=args.backend),
            "fcm": lambda: lucent.fuzzy_c_means(array, clusters=3, backend=args.backend),
        }
        for method, call in calls.items():
            if layout == "strided" and method != "srg":
                continue
            wall, engine, overhead, free, binding, borrow, imported, first = measure(call, args.runs)
            note = "  (one copy)" if layout == "strided" else ""
            print(f"{method:8}{layout:10}{engine:12.2f}{wall:12.2f}{overhead:8.3f} ms {overhead / engine * 100:5.2f}%"
                  f"{binding:10.3f}{borrow:9.3f}{imported:9.3f}{free:10.2f}{first:10.3f} ms{note}", flush=True)


if __name__ == "__main__":
    main()
