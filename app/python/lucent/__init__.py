"""Lucent's segmentation engines and image files, from Python.

    import lucent
    img = lucent.load("head.nii.gz")                 # DICOM folder, NIfTI, MetaImage, NRRD
    mask = lucent.region_growing(img.array, seeds=[(120, 96, 40)], lower=200, upper=3000)
    lucent.save("bone.nii.gz", mask, like=img)

Arrays are indexed [i, j, k] (nibabel's order). The engines are the ones `lucent segment` runs
(backend "auto": CUDA when a device is present, else the CPU), in this process, with the GIL
released; results are uint8 arrays of the input's shape with the same voxels and label numbers as
`lucent segment` gives for the same input and parameters. Batches on Dask: `python3 -m lucent.batch`.
"""

import atexit
import os

import numpy as np

from . import _lucent
from ._lucent import Image

__version__ = _lucent.__version__
__all__ = ["Image", "load", "save", "parameters", "region_growing", "fuzzy_connectedness", "fuzzy_c_means", "snake", "snake3d",
           "grow_from_seeds", "release_gpu_memory"]


def load(path, series=None):
    """Reads PATH (anything `lucent segment` reads) into an Image: `.array` (the voxels, [i, j, k],
    no copy of the loaded volume), `.affine` (voxel to RAS+), `.spacing`. A path holding several
    volumes needs `series=` (an id `lucent info PATH` lists). OSError when it cannot be read."""
    return _lucent._load(os.fspath(path), "" if series is None else str(series))


def save(path, array, like=None):
    """Writes ARRAY on `like`'s grid (an Image; without one: 1 mm voxels at the origin), the format
    by PATH's suffix. A uint8 or bool array is a label map (written as `lucent segment -o` writes its
    mask; .dcm writes a DICOM SEG of a DICOM image); any other is an image (int16, else float32)."""
    path = os.fspath(path)
    a = _host_array(array)[0]
    if a.ndim != 3:
        raise ValueError(f"lucent.save: the array must be 3D, got shape {a.shape}")
    if like is not None and not isinstance(like, Image):
        raise ValueError("lucent.save: like= must be an Image from lucent.load")
    if a.dtype == np.uint8 or a.dtype == np.bool_:
        _lucent._save_labels(path, np.asfortranarray(a, dtype=np.uint8), like)
    else:
        _lucent._save_volume(path, _volume(a, keep_axes=True)[0], like)


def parameters(method=None):
    """Every method's parameters as `lucent segment` takes them (one list of dicts: method, key (the
    keyword here), flag (the CLI option), kind, default, min, max, accepted, unit, help); a keyword
    left as None takes the default listed here (the defaults the signatures show are the same, as
    the issue's interface writes them; a test checks that they agree). `method`: "srg", "fc", "fcm", "snake", "snake3d"."""
    rows = _lucent._parameters()
    return [r for r in rows if method is None or r["method"] == method]


def region_growing(array, seeds, lower=None, upper=None, connectivity=6, backend="auto", *, roi=None, mask=None,
                   threads=0):
    """The seeds' connected component of lower <= value <= upper (connectivity 6 or 26). Without
    lower and upper the interval is estimated at the first seed, as `lucent segment` does."""
    if (lower is None) != (upper is None):
        raise ValueError("region_growing needs both lower and upper, or neither (estimated at the first seed)")
    params = {"lower": lower, "upper": upper, "connectivity": connectivity}
    return _run("srg", array, params, backend, seeds=seeds, roi=roi, mask=mask, threads=threads)


def fuzzy_connectedness(array, seeds, threshold=0.5, object_mean=None, object_sigma=None, diff_sigma=None,
                        backend="auto", *, roi=None, mask=None, threads=0, estimate_radius=None):
    """The object of connectivity >= threshold to the seeds (Udupa and Samarasekera's fuzzy
    connectedness); the affinity's mean and sigmas are estimated around the seeds when not given, in
    a cube of half-size estimate_radius (2: 5 x 5 x 5 voxels)."""
    params = {"threshold": threshold, "object_mean": object_mean, "object_sigma": object_sigma,
              "diff_sigma": diff_sigma, "estimate_radius": estimate_radius}
    return _run("fc", array, params, backend, seeds=seeds, roi=roi, mask=mask, threads=threads)


def fuzzy_c_means(array, clusters=3, fuzziness=None, epsilon=None, max_iterations=None, per_voxel=False,
                  backend="auto", *, roi=None, mask=None, threads=0):
    """Fuzzy C-means on the intensities: label c (1..clusters, centres ascending) where a voxel's
    membership is largest, 0 outside the roi or mask."""
    params = {"clusters": clusters, "fuzziness": fuzziness, "epsilon": epsilon, "max_iterations": max_iterations,
              "per_voxel": per_voxel}
    return _run("fcm", array, params, backend, roi=roi, mask=mask, threads=threads)


def snake(array, slice, rect, step_max=None, min_segment=None, propagate=False, backend="auto", *, roi=None,
          mask=None, threads=0):
    """The region snake on slice k = `slice` from the rectangle rect = (i0, j0, i1, j1); with
    propagate=True it goes on slice by slice into a 3D mask."""
    rect = _integers(rect, 4, "rect")
    params = {"slice": _integers([slice], 1, "slice")[0], "rect": rect, "step_max": step_max,
              "min_segment": min_segment, "propagate": bool(propagate)}
    # The snake works on slices k: its volume keeps the array's axes (a C-ordered array is copied).
    return _run("snake", array, params, backend, roi=roi, mask=mask, threads=threads, keep_axes=True)


def snake3d(array, box=None, seeds=None, radius=None, margin=None, iterations=None, smoothing=None, clip=None,
            backend="auto", *, roi=None, mask=None, threads=0):
    """The 3D snake (a morphological region active contour) from a box (i0, j0, k0, i1, j1, k1,
    corners included) and / or bubbles: seeds with a radius (one for all, or one a seed). An array
    has 1 mm voxels, so radius and margin count voxels. The statistics come from `roi`, else the
    start grown by `margin` (else by 10 % of its largest side). Without iterations it runs until
    the surface stops changing. clip=(lower, upper) clamps the values to that range in the
    statistics and the region term (a window such as (0, 80) HU keeps bone from making all soft
    tissue the inside; on integer data the bounds are rounded to whole values). As `lucent segment
    --method snake3d` (--clip LO,HI)."""
    if box is None and seeds is None:
        raise ValueError("snake3d needs a start: box=(i0, j0, k0, i1, j1, k1) and / or seeds with radius")
    radii = [] if radius is None else [float(r) for r in np.atleast_1d(radius)]
    if radii and seeds is None:
        raise ValueError("snake3d: radius needs seeds (the bubbles are around them)")
    params = {"radii_mm": radii, "margin_mm": None if margin is None else float(margin), "iterations": iterations,
              "smoothing": smoothing, "clip": clip}
    return _run("snake3d", array, params, backend, seeds=seeds, roi=roi, mask=mask, threads=threads, box=box)


def grow_from_seeds(array, seeds_array, backend="auto", *, roi=None, mask=None, threads=0):
    """Grow from seeds (fast GrowCut): every voxel takes the label of the seed it reaches along
    the least summed change of intensity. `seeds_array` has the array's shape: 0 = no seed, 1..255
    the labels. The result holds the seeds' label numbers. As `lucent segment --method growcut`."""
    s = _host_array(seeds_array)[0]
    shape = tuple(getattr(array, "shape", None) or np.shape(array))
    if s.shape != shape:
        raise ValueError(f"seeds_array has shape {s.shape}, the array {shape}")
    if s.dtype.kind not in "biu" or (s.size and (s.min() < 0 or s.max() > 255)):
        raise ValueError("seeds_array must hold integer labels 0..255 (0 = no seed)")
    if not s.any():
        raise ValueError("seeds_array holds no seed (every voxel is 0)")
    return _run("growcut", array, {}, backend, roi=roi, mask=mask, threads=threads, seeds_mask=s.astype(np.uint8))


def release_gpu_memory():
    """Frees the GPU memory and streams that calls on CuPy / PyTorch arrays keep for the next ones
    (each device's idle contexts and the memory of labels you dropped); returns the bytes of label
    memory freed. Results you still hold stay valid. Done for you when the interpreter exits."""
    return _lucent._release_gpu_memory()


# Before the CUDA runtime goes; labels dropped after it are freed at once rather than kept.
atexit.register(_lucent._release_gpu_memory, True)


# --- the array conventions -------------------------------------------------------------------


def _volume_dtype(dtype):
    """The voxel type an engine reads: int16 where every value fits, else float32."""
    if dtype.kind not in "biuf":
        raise ValueError(f"lucent: the array must hold real numbers, got {dtype}")
    if dtype.kind == "b" or (dtype.kind in "iu" and np.can_cast(dtype, np.int16)):
        return np.dtype(np.int16)
    return np.dtype(np.float32)


def _volume(a, keep_axes):
    """(volume, reversed): an int16 / float32 array whose Fortran order is Lucent's voxel order.
    A Fortran-ordered array of the right type is used as it is; a C-ordered one too, as its
    transpose (axes reversed, so no byte moves), unless `keep_axes`; any other is copied once."""
    if a.ndim != 3 or a.size == 0:
        raise ValueError(f"lucent: the array must be 3D and not empty, got shape {a.shape}")
    target = _volume_dtype(a.dtype)
    if a.dtype == target:
        if a.flags.f_contiguous:
            return a, False
        if a.flags.c_contiguous and not keep_axes:
            return a.T, True
    return np.asfortranarray(a, dtype=target), False


def _integers(values, count, name):
    try:
        out = [int(v) for v in values]
        if len(out) != count or any(o != v for o, v in zip(out, values)):
            raise ValueError
    except (TypeError, ValueError):
        raise ValueError(f"{name} needs {count} integer(s), got {values!r}") from None
    return out


def _seeds(seeds, shape, reverse):
    """Seeds as index tuples into the array as given (array[seed] is the seed's value)."""
    s = np.asarray(seeds)
    if s.ndim == 1:
        s = s[None, :]
    if s.ndim != 2 or s.shape[1] != 3 or len(s) == 0 or s.dtype.kind not in "iu":
        raise ValueError(f"seeds must be an (i, j, k) tuple of integers or a list of them, got {seeds!r}")
    out = []
    for seed in s.tolist():
        if any(v < 0 or v >= n for v, n in zip(seed, shape)):
            raise ValueError(f"seed {tuple(seed)} lies outside the array of shape {tuple(shape)}")
        out.append(tuple(seed[::-1]) if reverse else tuple(seed))
    return out


def _roi(roi, reverse, name="roi"):
    if roi is None:
        return None
    r = _integers(roi, 6, name + " (i0, j0, k0, i1, j1, k1)")
    return r[2::-1] + r[:2:-1] if reverse else r


# DLPack device types (the protocol's numbers): arrays on the CPU take the NumPy path.
_DLPACK_CPU, _DLPACK_CUDA = 1, 2
# Copies of GPU arrays to host memory made here (the fallbacks named in docs/python.md): a test
# reads it to see that a device call made none.
host_copies = 0


def _dlpack_device(array):
    """(device type, id) of an array that speaks DLPack, else None (NumPy arrays and array-likes)."""
    if isinstance(array, np.ndarray) or not hasattr(array, "__dlpack_device__"):
        return None
    kind, index = array.__dlpack_device__()
    return int(kind), int(index)


def _host_array(array):
    """(numpy array, kind): GPU arrays the engines cannot read where they lie (backend "cpu", a
    float volume for a method whose CUDA engine takes int16, masks and seeds) come through host
    memory, and the result goes back to their kind and device (see docs/python.md)."""
    global host_copies
    if isinstance(array, np.ndarray):
        return array, None
    module = type(array).__module__.split(".")[0]
    device = _dlpack_device(array)
    on_gpu = device is not None and device[0] != _DLPACK_CPU
    if module == "cupy":
        host_copies += 1
        return array.get(), ("cupy", None)
    if module == "torch":
        host_copies += on_gpu
        return array.detach().cpu().numpy(), ("torch", array.device)
    if on_gpu:
        raise ValueError(f"lucent: a {type(array).__name__} on a GPU is read where it lies (backend auto or cuda, "
                         "with a CUDA device); for the CPU, give it as a CuPy array or PyTorch tensor, or NumPy")
    if device is not None:  # any other host array that speaks DLPack: its memory, as NumPy's
        return np.from_dlpack(array), None
    return np.asarray(array), None


def _as_kind(labels, kind):
    if kind is None:
        return labels
    if kind[0] == "cupy":
        import cupy
        return cupy.asarray(labels)
    import torch
    return torch.from_numpy(np.ascontiguousarray(labels)).to(kind[1])


def _array_dtype(array):
    """A GPU array's element type as NumPy's (CuPy's is one; PyTorch's is named alike)."""
    try:
        return np.dtype(str(array.dtype).removeprefix("torch."))
    except TypeError:
        raise ValueError(f"lucent: the array must hold real numbers, got {array.dtype}") from None


def _on_device(array, dtype, fortran):
    """A device-to-device copy of a CuPy array or PyTorch tensor as `dtype`: in Fortran order when
    asked (the snake reads slices k), else in the array's own layout."""
    module = type(array).__module__.split(".")[0]
    if module == "cupy":
        import cupy
        return cupy.asfortranarray(array, dtype) if fortran else array.astype(dtype, order="K")
    if module == "torch":
        import torch
        t = array.to(getattr(torch, dtype.name))
        return t.permute(2, 1, 0).contiguous().permute(2, 1, 0) if fortran else t
    raise ValueError(f"lucent: a {type(array).__name__} on the GPU must be int16 or float32 (convert it there), "
                     f"got {_array_dtype(array)}")


def _from_device(labels, like):
    """The labels (an object with __dlpack__) imported by `like`'s library, on its device, no copy."""
    module = type(like).__module__.split(".")[0]
    if module == "cupy":
        import cupy
        return cupy.from_dlpack(labels)
    if module == "torch":
        import torch
        return torch.from_dlpack(labels)
    if hasattr(like, "__array_namespace__"):
        return like.__array_namespace__().from_dlpack(labels)
    return labels


# Whether this build has a CUDA engine of a method (the module's answer never changes; asking makes an
# engine): looked up once a method, not on every call.
_cuda_engines = {}


def _has_cuda_engine(method):
    if method not in _cuda_engines:
        _cuda_engines[method] = _lucent._has_cuda_engine(method)
    return _cuda_engines[method]


def _resident_dtype(method, array, backend):
    """The element type of a GPU array that the CUDA engine reads where it lies, else None: backend
    auto or cuda, a device, and a volume type that engine takes (fcm, snake, snake3d and grow from
    seeds read int16; srg and fc float32 too). Backend cuda always tries (and says why it cannot)."""
    if str(backend) == "cpu" or not _has_cuda_engine(method) or _lucent._cuda_device() < 0:
        return None
    dtype = _array_dtype(array)
    floats = _volume_dtype(dtype) == np.float32
    return dtype if str(backend) == "cuda" or not floats or method in ("srg", "fc") else None


def _borrow(array, dtype, keep_axes):
    """The array's device memory for the engine (int16 / float32, converted on the device once when
    it holds another type; for the snake in Fortran order, copied on the device when it is not)."""
    if hasattr(array, "detach"):  # a PyTorch tensor that requires grad exports only detached
        array = array.detach()
    target = _volume_dtype(dtype)
    if dtype != target:
        array = _on_device(array, target, keep_axes)
    borrowed = _lucent._borrow_device_array(array.__dlpack__(stream=1))
    if keep_axes and borrowed.reversed:
        del borrowed  # the producer's tensor goes back before its copy is made
        array = _on_device(array, target, True)
        borrowed = _lucent._borrow_device_array(array.__dlpack__(stream=1))
    return borrowed


def _device_maps(mask, seeds_mask, shape, reverse):
    """The mask and growcut's seeds (any array of the volume's shape) as host uint8 in Lucent's order:
    the engines check seeds against them on the host."""
    if mask is not None:
        m = _host_array(mask)[0]
        if m.shape != shape:
            raise ValueError(f"mask has shape {m.shape}, the array {shape}")
        m = (m != 0).astype(np.uint8)
        mask = np.asfortranarray(m.T if reverse else m)
    if seeds_mask is not None:
        seeds_mask = np.asfortranarray(seeds_mask.T if reverse else seeds_mask)
    return mask, seeds_mask


def _run(method, array, params, backend, *, seeds=None, roi=None, mask=None, threads=0, keep_axes=False, box=None,
         seeds_mask=None):
    device = _dlpack_device(array)
    if device is not None and device[0] not in (_DLPACK_CPU, _DLPACK_CUDA):
        raise ValueError(f"lucent: the array lies on DLPack device type {device[0]}: lucent reads host (1) and "
                         "CUDA (2) arrays")
    on_cuda = device is not None and device[0] == _DLPACK_CUDA
    dtype = _resident_dtype(method, array, backend) if on_cuda else None
    resident = dtype is not None
    if resident:
        volume = _borrow(array, dtype, keep_axes)
        shape, reverse = tuple(array.shape), volume.reversed
    else:
        a, kind = _host_array(array)
        volume, reverse = _volume(a, keep_axes)
        shape = a.shape
    if seeds is not None:
        params["seeds"] = _seeds(seeds, shape, reverse)
    params["roi"] = _roi(roi, reverse)
    if box is not None:
        params["box"] = _roi(box, reverse, "box")
    params["threads"] = _integers([threads], 1, "threads")[0]
    mask, seeds_mask = _device_maps(mask, seeds_mask, shape, reverse)
    if resident:
        labels, _ = _lucent._segment_resident(method, volume, params, mask, seeds_mask)
        return _from_device(labels, array)
    labels, _ = _lucent._segment(method, volume, params, str(backend), mask, seeds_mask)
    return _as_kind(labels.T if reverse else labels, kind)
