"""On the GPU machine: the lucent module's CUDA engines equal its CPU engines, from NumPy arrays and
from CuPy arrays and PyTorch tensors on the device, which stay there: the engine reads the caller's
device memory (the pointer it read is the array's), nothing is uploaded or downloaded (the module's
transfer counts), and the labels come back as the same kind of array in device memory.

    PYTHONPATH=BUILD/python python3 tests/gpu/python_cuda_check.py

Prints one line a check and exits 1 when any failed (a missing device fails: this runs only there).
"""

import ctypes
import os
import sys

import numpy as np

import lucent
from lucent import _lucent

failed = []
last_resident = {}
_segment_resident = _lucent._segment_resident


def recording_resident(*args, **kwargs):
    """The module's device call, keeping what the run reported (the device pointer the engine read)."""
    labels, info = _segment_resident(*args, **kwargs)
    last_resident.clear()
    last_resident.update(info)
    return labels, info


_lucent._segment_resident = recording_resident


def check(name, ok, detail=""):
    print(("ok    " if ok else "FAIL  ") + name + (f"  ({detail})" if detail and not ok else ""), flush=True)
    if not ok:
        failed.append(name)


def blobs(shape, seed=5):
    """Smooth blobs as int16 without scipy: a sum of random low-frequency sines."""
    rng = np.random.default_rng(seed)
    grids = np.meshgrid(*[np.linspace(0, 1, n, dtype=np.float32) for n in shape], indexing="ij")
    v = np.zeros(shape, np.float32)
    for _ in range(12):
        f, phase = rng.uniform(1, 6, 3), rng.uniform(0, 2 * np.pi, 3)
        v += np.sin(2 * np.pi * (f[0] * grids[0] + f[1] * grids[1] + f[2] * grids[2]) + phase[0])
    return np.asfortranarray(np.round(v / np.abs(v).max() * 1000).astype(np.int16))


def transfers():
    return dict(_lucent._host_transfers()), lucent.host_copies


def resident_call(name, call, device_array, pointer, expected, kind):
    """One device call: equal to the CPU's labels, the same kind on the same device, the engine read
    `pointer` (None: a converted copy), and no host transfer of the volume or the labels."""
    before = transfers()
    last_resident.clear()
    got = call(device_array, "auto")
    after = transfers()
    check(f"{name}: no volume upload, label download or host copy", before == after, f"{before} -> {after}")
    check(f"{name}: ran where it lies", bool(last_resident), "the device path did not run")
    if pointer is not None and last_resident:
        check(f"{name}: the engine read the array's own device memory", last_resident["volume_pointer"] == pointer,
              f"{last_resident['volume_pointer']:#x} != {pointer:#x}")
    if kind == "cupy":
        import cupy
        ok = isinstance(got, cupy.ndarray) and got.device.id == device_array.device.id
        attrs = cupy.cuda.runtime.pointerGetAttributes(got.data.ptr) if ok else None
        check(f"{name}: a cupy array in device memory on the input's device",
              ok and attrs.type == cupy.cuda.runtime.memoryTypeDevice)
        check(f"{name}: == cpu", ok and got.shape == expected.shape and np.array_equal(got.get(), expected))
    else:
        import torch
        ok = isinstance(got, torch.Tensor) and got.is_cuda and got.device == device_array.device
        check(f"{name}: a torch cuda tensor on the input's device", ok)
        check(f"{name}: == cpu", ok and tuple(got.shape) == expected.shape and np.array_equal(got.cpu().numpy(), expected))


class ForeignDeviceArray:
    """A DLPack producer whose tensor says it lies on CUDA device 7 (built with ctypes over a real
    array's memory): the module must refuse it with a ValueError, not read it."""

    class Tensor(ctypes.Structure):
        _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
                    ("ndim", ctypes.c_int32), ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                    ("lanes", ctypes.c_uint16), ("shape", ctypes.POINTER(ctypes.c_int64)),
                    ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64),
                    ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]

    def __init__(self, like):
        self.shape, self.dtype = like.shape, like.dtype
        self._shape = (ctypes.c_int64 * 3)(*like.shape)
        self._tensor = self.Tensor(like.data.ptr, 2, 7, 3, 0, 16, 1, self._shape, None, 0, None, None)
        self._name = b"dltensor"

    def __dlpack_device__(self):
        return 2, 7

    def __dlpack__(self, stream=None, **_):
        new = ctypes.pythonapi.PyCapsule_New
        new.restype, new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return new(ctypes.addressof(self._tensor), self._name, None)


def refusals(v):
    import cupy

    def value_error(name, call):
        try:
            call()
            check(f"{name}: ValueError", False, "no error")
        except ValueError as e:
            check(f"{name}: ValueError", True)
            print(f"        {e}")
        except Exception as e:  # noqa: BLE001 - any other kind is the failure being looked for
            check(f"{name}: ValueError", False, f"{type(e).__name__}: {e}")

    seed = tuple(int(i) for i in np.argwhere(v > 500)[0])
    value_error("a strided cupy view", lambda: lucent.region_growing(cupy.asarray(v)[:, :, ::2], [seed[:2] + (0,)],
                                                                      lower=300, upper=1000))
    value_error("a complex cupy array", lambda: lucent.fuzzy_c_means(cupy.asarray(v).astype(cupy.complex64)))
    value_error("an array on another device", lambda: lucent.fuzzy_c_means(ForeignDeviceArray(cupy.asarray(v))))
    value_error("a seed outside", lambda: lucent.region_growing(cupy.asarray(v), [(999, 0, 0)], lower=1, upper=2))


def kept_memory(v, calls):
    """What device calls keep between them (a context a device, the memory of dropped labels): the
    next call takes that memory and writes every voxel of it (old labels poisoned first), threads
    running at once each get their own, release_gpu_memory frees it, and a device out of memory is a
    RuntimeError after which the next call runs as before."""
    import threading

    import cupy
    f = cupy.asfortranarray(cupy.asarray(v))
    expected = {name: calls[name](v, "cpu") for name in ("srg", "fc", "fcm", "snake3d")}
    for name, cpu in expected.items():
        first = calls[name](f, "auto")
        pointer = first.data.ptr
        first.fill(77)  # what the next call must overwrite everywhere
        del first
        again = calls[name](f, "auto")
        check(f"{name}: the next call takes the dropped labels' memory", again.data.ptr == pointer,
              f"{again.data.ptr:#x} != {pointer:#x}")
        check(f"{name}: written over the old labels == cpu", np.array_equal(again.get(), cpu))
        del again
    smaller = np.asfortranarray(v[:80, :75, :60])
    small_seed = tuple(int(i) for i in np.unravel_index(np.argmax(smaller), smaller.shape))
    top = int(smaller[small_seed])
    small_cpu = lucent.region_growing(smaller, [small_seed], lower=top - 300, upper=top, backend="cpu")
    small_gpu = lucent.region_growing(cupy.asarray(smaller, order="F"), [small_seed], lower=top - 300, upper=top)
    check("a smaller array after larger ones == cpu", int(small_cpu.sum()) > 1 and np.array_equal(small_gpu.get(), small_cpu))
    results, errors = {}, []

    def worker(index, name):
        try:
            for run in range(6):
                results[(index, run)] = (name, calls[name](f if index % 2 else cupy.ascontiguousarray(f), "auto").get())
        except Exception as e:  # noqa: BLE001 - reported as the check's failure
            errors.append(f"{name}: {type(e).__name__}: {e}")

    threads = [threading.Thread(target=worker, args=(i, name)) for i, name in enumerate(["srg", "fcm", "fc", "srg"])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    c_expected = {name: calls[name](np.ascontiguousarray(v), "cpu") for name in ("srg", "fc", "fcm")}
    wrong = [key for key, (name, got) in results.items()
             if not np.array_equal(got, expected[name] if key[0] % 2 else c_expected[name])]
    check("four threads calling at once (24 calls) == cpu", not errors and len(results) == 24 and not wrong,
          f"errors {errors}, wrong {wrong}")
    freed = lucent.release_gpu_memory()
    check("release_gpu_memory frees the dropped labels' memory", freed >= v.size, f"{freed} bytes")
    check("nothing kept after a release", lucent.release_gpu_memory() == 0)
    os.environ["LUCENT_GPU_MEMORY_LIMIT_MB"] = "0.5"
    try:
        calls["fc"](f, "auto")
        check("out of device memory: RuntimeError", False, "no error")
    except RuntimeError as e:
        check("out of device memory: RuntimeError", "GPU out of memory" in str(e), str(e))
    finally:
        del os.environ["LUCENT_GPU_MEMORY_LIMIT_MB"]
    check("the call after it == cpu", np.array_equal(calls["fc"](f, "auto").get(), expected["fc"]))


def main():
    v = blobs((160, 150, 120))
    seed = tuple(int(i) for i in np.argwhere(v > 500)[0])
    growcut_seeds = np.zeros(v.shape, np.uint8)
    growcut_seeds[seed] = 1
    growcut_seeds[tuple(int(i) for i in np.argwhere(v < -500)[0])] = 2
    calls = {
        "srg": lambda a, b: lucent.region_growing(a, [seed], lower=300, upper=1000, connectivity=26, backend=b),
        "srg-estimated": lambda a, b: lucent.region_growing(a, [seed], backend=b),
        "fc": lambda a, b: lucent.fuzzy_connectedness(a, [seed], threshold=0.4, backend=b),
        "fcm": lambda a, b: lucent.fuzzy_c_means(a, clusters=4, backend=b),
        "snake": lambda a, b: lucent.snake(a, slice=60, rect=(30, 30, 120, 110), propagate=True, backend=b),
        "snake3d": lambda a, b: lucent.snake3d(a, box=(40, 40, 30, 110, 100, 90), iterations=40, backend=b),
        "growcut": lambda a, b: lucent.grow_from_seeds(a, growcut_seeds, backend=b),
    }
    import cupy
    import torch

    for name, call in calls.items():
        cpu = call(v, "cpu")
        check(f"{name}: cpu labels something", int(cpu.sum()) > 0)
        check(f"{name}: cuda (numpy, Fortran) == cpu", np.array_equal(call(v, "cuda"), cpu))
        # A C-ordered array is read as its transpose: the CPU's labels for that same array.
        c_order = np.ascontiguousarray(v)
        cpu_c = call(c_order, "cpu")
        check(f"{name}: cuda (numpy, C order) == cpu", np.array_equal(call(c_order, "cuda"), cpu_c))
        f = cupy.asfortranarray(cupy.asarray(v))
        resident_call(f"{name}: cupy Fortran", call, f, f.data.ptr, cpu, "cupy")
        c = cupy.ascontiguousarray(cupy.asarray(v))
        # The snake reads slices k: a C-ordered array is copied on the device into Fortran order.
        resident_call(f"{name}: cupy C order", call, c, None if name == "snake" else c.data.ptr, cpu_c, "cupy")
        t = torch.from_numpy(c_order).cuda()
        resident_call(f"{name}: torch cuda", call, t, None if name == "snake" else t.data_ptr(), cpu_c, "torch")
        # backend cpu: through the host and back to the same kind on the same device.
        got = call(f, "cpu")
        check(f"{name}: cupy with backend cpu comes back as cupy == cpu",
              isinstance(got, cupy.ndarray) and np.array_equal(got.get(), cpu))
    # Another type is converted on the device once (int16 here), still no host transfer.
    u8 = np.asfortranarray(np.clip(v // 8 + 128, 0, 255).astype(np.uint8))
    resident_call("fcm: cupy uint8", calls["fcm"], cupy.asarray(u8, order="F"), None, calls["fcm"](u8, "cpu"), "cupy")
    refusals(v)
    kept_memory(v, calls)
    if failed:
        print(f"{len(failed)} check(s) failed: {', '.join(failed)}")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
