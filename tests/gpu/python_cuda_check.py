"""On the GPU machine: the lucent module's CUDA engines equal its CPU engines, from NumPy arrays and
from CuPy arrays and PyTorch tensors on the device (which come back as the same kind).

    PYTHONPATH=BUILD/python python3 tests/gpu/python_cuda_check.py

Prints one line a check and exits 1 when any failed (a missing device fails: this runs only there).
"""

import sys

import numpy as np

import lucent


def blobs(shape, seed=5):
    """Smooth blobs as int16 without scipy: a sum of random low-frequency sines."""
    rng = np.random.default_rng(seed)
    grids = np.meshgrid(*[np.linspace(0, 1, n, dtype=np.float32) for n in shape], indexing="ij")
    v = np.zeros(shape, np.float32)
    for _ in range(12):
        f, phase = rng.uniform(1, 6, 3), rng.uniform(0, 2 * np.pi, 3)
        v += np.sin(2 * np.pi * (f[0] * grids[0] + f[1] * grids[1] + f[2] * grids[2]) + phase[0])
    return np.asfortranarray(np.round(v / np.abs(v).max() * 1000).astype(np.int16))


def main():
    v = blobs((160, 150, 120))
    seed = tuple(int(i) for i in np.argwhere(v > 500)[0])
    calls = {
        "srg": lambda a, b: lucent.region_growing(a, [seed], lower=300, upper=1000, connectivity=26, backend=b),
        "srg-estimated": lambda a, b: lucent.region_growing(a, [seed], backend=b),
        "fc": lambda a, b: lucent.fuzzy_connectedness(a, [seed], threshold=0.4, backend=b),
        "fcm": lambda a, b: lucent.fuzzy_c_means(a, clusters=4, backend=b),
        "snake": lambda a, b: lucent.snake(a, slice=60, rect=(30, 30, 120, 110), propagate=True, backend=b),
    }
    failed = []

    def check(name, ok):
        print(("ok    " if ok else "FAIL  ") + name, flush=True)
        if not ok:
            failed.append(name)

    for name, call in calls.items():
        cpu = call(v, "cpu")
        check(f"{name}: cpu labels something", int(cpu.sum()) > 0)
        check(f"{name}: cuda (numpy, Fortran) == cpu", np.array_equal(call(v, "cuda"), cpu))
        check(f"{name}: cuda (numpy, C order) == cpu", np.array_equal(call(np.ascontiguousarray(v), "cuda"), cpu))
        try:
            import cupy
            got = call(cupy.asarray(v), "auto")
            check(f"{name}: cupy in, cupy out, == cpu", isinstance(got, cupy.ndarray) and np.array_equal(got.get(), cpu))
        except ImportError:
            check(f"{name}: cupy importable", False)
        try:
            import torch
            t = torch.from_numpy(np.ascontiguousarray(v)).cuda()
            got = call(t, "auto")
            check(f"{name}: torch cuda in, torch cuda out, == cpu",
                  isinstance(got, torch.Tensor) and got.is_cuda and np.array_equal(got.cpu().numpy(), cpu))
        except ImportError:
            check(f"{name}: torch importable", False)
    if failed:
        print(f"{len(failed)} check(s) failed: {', '.join(failed)}")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
