"""`python3 -m lucent.batch` against a real Dask scheduler and two workers started here on loopback,
and with a local cluster: outputs, documents equal to `lucent segment --stats`'s, the worker named,
failures reported while the others go on, a second run that redoes nothing."""

import json
import os
import subprocess
import sys
import time

import nibabel as nib
import numpy as np
import pytest
from scipy import ndimage

import lucent

from conftest import free_port

SEED = (6, 8, 9)


def make_inputs(folder):
    """Three scans with a bright cube at the seed (of different sizes), one whose volume is too small
    for the seed (its task fails on a worker), and a file that is no image (it fails at listing)."""
    folder.mkdir()
    sizes = {"a": 3, "b": 5, "c": 7}
    for name, half in sizes.items():
        v = np.zeros((30, 28, 26), np.int16)
        v[SEED[0] - 2:SEED[0] + half, 4:14, 5:15] = 900
        nib.save(nib.Nifti1Image(v, np.diag([0.9, 0.9, 2.0, 1])), str(folder / f"{name}.nii.gz"))
    nib.save(nib.Nifti1Image(np.zeros((4, 4, 4), np.int16), np.eye(4)), str(folder / "small.nii.gz"))
    (folder / "junk.nii").write_bytes(b"no image" * 50)
    return [folder / f"{n}.nii.gz" for n in sizes] + [folder / "small.nii.gz", folder / "junk.nii"]


def batch(*args):
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "lucent.batch", *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=600)


@pytest.fixture()
def dask_cluster(tmp_path):
    """A dask-scheduler and two dask-worker processes on 127.0.0.1 (free ports), stopped afterwards."""
    from distributed import Client

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    logs = tmp_path / "dask-logs"
    logs.mkdir()
    procs = [subprocess.Popen(["dask-scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                              stdout=open(logs / "scheduler.log", "w"), stderr=subprocess.STDOUT)]
    try:
        for i in range(2):
            procs.append(subprocess.Popen(["dask-worker", address, "--nthreads", "1", "--no-dashboard",
                                           "--host", "127.0.0.1", "--local-directory", str(tmp_path / f"w{i}")],
                                          stdout=open(logs / f"worker{i}.log", "w"), stderr=subprocess.STDOUT))
        with Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=120)
            workers = set(client.scheduler_info()["workers"])
        yield address, workers
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in reversed(procs):
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def expected_mask(path):
    v = np.asanyarray(nib.load(str(path)).dataobj)
    labels, _ = ndimage.label((v >= 500) & (v <= 1000))
    return (labels == labels[SEED]).astype(np.uint8)


def test_batch_on_a_scheduler_and_two_workers(tmp_path, dask_cluster, cli):
    address, workers = dask_cluster
    inputs = make_inputs(tmp_path / "in")
    out = tmp_path / "out"
    options = ["--method", "srg", "--seed", ",".join(map(str, SEED)), "--lower", "500", "--upper", "1000"]
    p = batch(*options, "-o", out, "--scheduler", address, *inputs)
    assert p.returncode == 1, p.stderr
    assert "[4/4]" in p.stderr or "[3/4]" in p.stderr  # progress, one line a task
    failures = p.stderr[p.stderr.index("input(s) failed"):]
    assert "junk.nii" in failures and "small" in failures and "outside" in failures
    for name in "abc":
        mask = lucent.load(out / f"{name}.nii.gz")
        np.testing.assert_array_equal(mask.array, expected_mask(tmp_path / "in" / f"{name}.nii.gz"))
        doc = json.loads((out / f"{name}.json").read_text())
        assert doc["worker"] in workers
        # The document is `lucent segment --stats`'s for the same input and options.
        ref = tmp_path / f"{name}-cli.json"
        subprocess.run([cli, "segment", str(tmp_path / "in" / f"{name}.nii.gz"), *options, "--backend", "cpu",
                        "-o", str(tmp_path / f"{name}-cli.nii.gz"), "--stats", str(ref)], check=True)
        expected = json.loads(ref.read_text())
        assert set(doc) - {"worker"} == set(expected)
        for key in expected:
            if not key.startswith("ms_") and key not in ("backend", "threads"):
                assert doc[key] == expected[key], key
    assert not (out / "small.nii.gz").exists() and not (out / "junk.nii.gz").exists()
    # A second run redoes nothing written: the outputs stay as they are, only the failures run again.
    stamps = {f: f.stat().st_mtime_ns for f in out.iterdir()}
    again = batch(*options, "-o", out, "--scheduler", address, *inputs)
    assert again.returncode == 1
    assert "3 already written, 1 to segment" in again.stderr
    assert {f: f.stat().st_mtime_ns for f in out.iterdir()} == stamps


def same_as_cli(cli, tmp_path, out, name, source, options):
    """OUT/<name>.nii.gz and .json equal `lucent segment SOURCE OPTIONS`'s mask and --stats document."""
    ref_mask, ref = tmp_path / f"{name}-cli.nii.gz", tmp_path / f"{name}-cli.json"
    subprocess.run([cli, "segment", str(source), *map(str, options), "--backend", "cpu", "-o", str(ref_mask),
                    "--stats", str(ref)], check=True, capture_output=True)
    got = lucent.load(out / f"{name}.nii.gz").array
    np.testing.assert_array_equal(got, lucent.load(ref_mask).array)
    assert got.any()
    doc, expected = json.loads((out / f"{name}.json").read_text()), json.loads(ref.read_text())
    assert set(doc) - {"worker"} == set(expected)
    for key in expected:
        if not key.startswith("ms_") and key not in ("backend", "threads"):
            assert doc[key] == expected[key], key
    return doc


def test_batch_of_snake3d_and_growcut_on_a_scheduler_and_two_workers(tmp_path, dask_cluster, cli):
    address, workers = dask_cluster
    inputs = make_inputs(tmp_path / "in")[:3]
    # snake3d: the box and a bubble, the parameters `lucent segment --method snake3d` takes.
    options = ["--method", "snake3d", "--box", "3,4,5,9,13,14", "--seed", "6,8,9", "--radius", "2.5", "--margin", "6",
               "--smoothing", "1", "--clip", "-100,500"]
    out = tmp_path / "out3d"
    p = batch(*options, "-o", out, "--scheduler", address, *inputs)
    assert p.returncode == 0, p.stderr
    for f in inputs:
        name = f.name.removesuffix(".nii.gz")
        assert same_as_cli(cli, tmp_path, out, name, f, options[2:] + ["--method", "snake3d"])["worker"] in workers
    # growcut, a folder of seeds: <stem>.nii.gz beside each input's stem; label 1 in the cube, 2 outside.
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for f in inputs:
        s = np.zeros((30, 28, 26), np.uint8)
        s[SEED] = 1
        s[25, 20, 20] = 2
        nib.save(nib.Nifti1Image(s, np.diag([0.9, 0.9, 2.0, 1])), str(seeds / f.name))
    out = tmp_path / "outgc"
    p = batch("--method", "growcut", "--seeds-mask", seeds, "-o", out, "--scheduler", address, *inputs,
              tmp_path / "in" / "small.nii.gz")
    assert p.returncode == 1 and "no seeds file small.* in" in p.stderr, p.stderr
    for f in inputs:
        name = f.name.removesuffix(".nii.gz")
        doc = same_as_cli(cli, tmp_path, out, name, f, ["--method", "growcut", "--seeds-mask", seeds / f.name])
        assert doc["worker"] in workers
        assert set(np.unique(lucent.load(out / f"{name}.nii.gz").array)) == {1, 2}
    # One seeds file for every input on its grid.
    out = tmp_path / "outgc1"
    p = batch("--method", "growcut", "--seeds-mask", seeds / "a.nii.gz", "-o", out, "--scheduler", address, *inputs)
    assert p.returncode == 0, p.stderr
    same_as_cli(cli, tmp_path, out, "b", inputs[1], ["--method", "growcut", "--seeds-mask", seeds / "a.nii.gz"])


def test_batch_on_a_local_cluster_of_a_folders_volumes_and_usage_errors(tmp_path):
    inputs = make_inputs(tmp_path / "in")[:2]
    folder = tmp_path / "pair"  # a folder of two volumes: one task each, named <folder>_<volume>
    folder.mkdir()
    for f in inputs:
        (folder / f.name).write_bytes(f.read_bytes())
    out = tmp_path / "out"
    p = batch("--method", "fcm", "--clusters", "2", "-o", out, "--workers", "2", folder)
    assert p.returncode == 0, p.stderr
    assert sorted(f.name for f in out.iterdir()) == ["pair_a.json", "pair_a.nii.gz", "pair_b.json", "pair_b.nii.gz"]
    for name in "ab":
        v = np.asanyarray(nib.load(str(folder / f"{name}.nii.gz")).dataobj)
        np.testing.assert_array_equal(lucent.load(out / f"pair_{name}.nii.gz").array, (v > 0).astype(np.uint8) + 1)
        assert json.loads((out / f"pair_{name}.json").read_text())["worker"].startswith("tcp://")
    for usage in (["--method", "srg", "-o", out, *inputs],                       # no seed
                  ["--method", "fcm", "--seed", "1,2,3", "-o", out, *inputs],    # not an fcm option
                  ["--method", "nope", "-o", out, *inputs],
                  ["--method", "snake3d", "-o", out, *inputs],                   # no start
                  ["--method", "snake3d", "--box", "1,1,1,5,5,5", "--radius", "2", "-o", out, *inputs],  # no seeds
                  ["--method", "growcut", "-o", out, *inputs],                   # no seeds mask
                  ["--method", "srg", "--seed", "1,2,3", "--box", "1,1,1,5,5,5", "-o", out, *inputs],
                  ["--method", "fcm", "-o", out, "--workers", "2", "--scheduler", "tcp://127.0.0.1:1", *inputs]):
        assert batch(*usage).returncode == 2


def test_gpus_gives_each_local_worker_its_own_device():
    from lucent import batch as lucent_batch

    args = lucent_batch.parser().parse_args(["--method", "fcm", "-o", "unused", "--workers", "2", "--gpus", "x"])
    client, local = lucent_batch.cluster(args)
    try:
        client.wait_for_workers(2, timeout=120)
        seen = client.run(lambda: os.environ.get("CUDA_VISIBLE_DEVICES"))
    finally:
        client.close()
        local.close()
    assert sorted(seen.values()) == ["0", "1"]
