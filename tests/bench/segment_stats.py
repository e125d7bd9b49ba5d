#!/usr/bin/python3
"""@brief `lucent segment` end to end, with and without `--stats`, beside numpy reading the same volume
and writing a mask of the same size in the same run (issue 44).

For each size (GB of int16 voxels, 1024 x 1024 x N) it writes a volume (a textured ellipsoid of 300 in
100, +-15: gzip has work to do), then times, each after one warm-up run (the page cache warm):
  - the peer: numpy.fromfile of the volume, and numpy tofile of a uint8 mask of the same grid, with
    and without fsync (Lucent syncs every output before renaming it);
  - `lucent segment V.nii --method M -o MASK.EXT` without `--stats`, then with `--stats S.json`,
    for every method and mask format asked; wall time and the child's peak RSS.
It prints median and worst of each, the stats' cost (with / without) and the issue's ratio: wall of
the run with --stats over (numpy read + numpy fsynced write of the mask). CPU ms (user + system of
all the child's threads) moves less than wall time on a machine shared with other work.
With --stages, each lucent row is followed by where its time went (median ms of each stage, from
LUCENT_STAGE_TIMES; "before main" is the program's loading, "after main" the process's teardown,
both as seen from here).

usage: python3 tests/bench/segment_stats.py DIR [--lucent build/bin/lucent] [--sizes 0.5,2,8]
           [--runs 3] [--methods srg,fc,fcm,snake] [--formats nii,nii.gz,nrrd] [--backend cpu|cuda|auto]
           [--threads N] [--stages] [--only-stats]
Needs only the built `lucent` and python3 with numpy. At 8 GB (2^32 voxels) use --backend cuda:
the CPU engines stop at 2^32 - 2 voxels.
"""
import argparse
import os
import re
import statistics
import struct
import subprocess
import sys
import time

import numpy as np

NX = NY = 1024


def nifti_header(dims, datatype, bitpix):
    """A NIfTI-1 single-file header (348 bytes + 4 extension bytes), 1 mm voxels, identity sform."""
    h = bytearray(352)
    struct.pack_into("<i", h, 0, 348)
    struct.pack_into("<8h", h, 40, 3, dims[0], dims[1], dims[2], 1, 1, 1, 1)
    struct.pack_into("<hh", h, 70, datatype, bitpix)
    struct.pack_into("<8f", h, 76, 1, 1, 1, 1, 1, 0, 0, 0)
    struct.pack_into("<f", h, 108, 352)  # vox_offset
    struct.pack_into("<ff", h, 112, 1, 0)  # scl_slope, scl_inter
    h[123] = 2  # xyzt_units: mm
    struct.pack_into("<hh", h, 252, 0, 1)  # qform_code, sform_code
    struct.pack_into("<4f", h, 280, 1, 0, 0, 0)
    struct.pack_into("<4f", h, 296, 0, 1, 0, 0)
    struct.pack_into("<4f", h, 312, 0, 0, 1, 0)
    h[344:348] = b"n+1\0"
    return bytes(h)


def write_volume(path, nz):
    """The phantom, written slice by slice (no whole-volume temporaries). The texture repeats every
    31 slices and the ellipse's in-plane part is the same in every slice: both are made once."""
    j, i = np.mgrid[0:NY, 0:NX]
    in_plane = ((i - NX / 2) / (0.35 * NX)) ** 2 + ((j - NY / 2) / (0.35 * NY)) ** 2
    textures = [((i * 7 + j * 13 + k * 29) % 31 - 15).astype("<i2") for k in range(31)]
    with open(path, "wb") as f:
        f.write(nifti_header((NX, NY, nz), 4, 16))
        for k in range(nz):
            inside = in_plane + ((k - nz / 2) / (0.35 * nz)) ** 2 <= 1
            f.write(np.where(inside, np.int16(300), np.int16(100)).astype("<i2") + textures[k % 31])


def method_options(method, nz):
    c = "%d,%d,%d" % (NX // 2, NY // 2, nz // 2)
    return {
        "srg": ["--seed", c, "--lower", "250", "--upper", "350"],
        "fc": ["--seed", c, "--threshold", "0.5"],
        "fcm": ["--clusters", "2"],
        "snake": ["--slice", str(nz // 2), "--rect", "%d,%d,%d,%d" % (NX // 8, NY // 8, NX * 7 // 8, NY * 7 // 8)],
    }[method]


STAGES = False  # --stages: the child reports its stage times (LUCENT_STAGE_TIMES)


def stage_times(err, spawned_ns, reaped_ns):
    """{stage: ms} from the child's LUCENT_STAGE_TIMES report, with the time before and after its main."""
    out = {}
    for text in err.splitlines():
        m = re.match(r"lucent stage: (.+): (\d+) x, ([0-9.]+) ms$", text)
        if m:
            out[m.group(1)] = float(m.group(3))
        m = re.match(r"lucent main: start (\d+) ns, end (\d+) ns$", text)
        if m:
            out["before main"] = (int(m.group(1)) - spawned_ns) / 1e6
            out["after main"] = (reaped_ns - int(m.group(2))) / 1e6
    return out


def run_child(cmd):
    """Wall ms, peak RSS (MiB), CPU ms (user + system, all threads) and, with --stages, the stage
    times of one child process."""
    env = dict(os.environ, LUCENT_STAGE_TIMES="1") if STAGES else None
    spawned_ns = time.time_ns()
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    err = p.stderr.read().decode(errors="replace")  # a full pipe would stop the child
    _, status, usage = os.wait4(p.pid, 0)
    ms = (time.perf_counter() - t0) * 1000
    reaped_ns = time.time_ns()
    p.stderr.close()
    p.returncode = status  # reaped here: Popen must not wait for it again
    if status != 0:
        sys.exit("failed (%d): %s\n%s" % (status, " ".join(cmd), err))
    return ms, usage.ru_maxrss / 1024, (usage.ru_utime + usage.ru_stime) * 1000, stage_times(err, spawned_ns, reaped_ns)


def timed_runs(f, runs):
    f()  # warm-up: page cache, first-touch
    return [f() for _ in range(runs)]


def numpy_read(path, n):
    t0 = time.perf_counter()
    v = np.fromfile(path, dtype="<i2", count=n, offset=352)
    ms = (time.perf_counter() - t0) * 1000
    assert v.size == n
    return ms


def numpy_write(path, mask, sync):
    t0 = time.perf_counter()
    with open(path, "wb") as f:
        mask.tofile(f)
        f.flush()
        if sync:
            os.fsync(f.fileno())
    return (time.perf_counter() - t0) * 1000


def line(what, figures, extra=""):
    ms = [f[0] if isinstance(f, tuple) else f for f in figures]
    rss = max((f[1] for f in figures if isinstance(f, tuple)), default=0)
    rss_text = "%9.0f" % rss if rss else "%9s" % "-"
    cpu = [f[2] for f in figures if isinstance(f, tuple)]
    cpu_text = "%9.0f" % statistics.median(cpu) if cpu else "%9s" % "-"
    print("%-44s %9.0f %9.0f %s %s %s" % (what, statistics.median(ms), max(ms), rss_text, cpu_text, extra), flush=True)
    staged = [f[3] for f in figures if isinstance(f, tuple) and f[3]]
    if staged:
        names = sorted({n for s in staged for n in s}, key=lambda n: -statistics.median(s.get(n, 0) for s in staged))
        print("      stages, median ms: " + "; ".join(
            "%s %.0f" % (n, statistics.median(s.get(n, 0) for s in staged)) for n in names), flush=True)
    return statistics.median(ms)


def bench_size(a, gb):
    nz = max(1, round(gb * 1e9 / (NX * NY * 2)))
    n = NX * NY * nz
    vol = os.path.join(a.dir, "v%d.nii" % nz)
    if not os.path.exists(vol) or os.path.getsize(vol) != 352 + 2 * n:
        write_volume(vol, nz)
    print("\n%d x %d x %d int16 = %.1f M voxels, %.2f GB; median and worst of %d runs after a warm-up" %
          (NX, NY, nz, n / 1e6, 2 * n / 1e9, a.runs))
    print("%-44s %9s %9s %9s %9s" % ("", "median ms", "worst ms", "peak MiB", "CPU ms"))
    read = line("numpy.fromfile volume", timed_runs(lambda: numpy_read(vol, n), a.runs))
    mask = np.zeros(n, dtype=np.uint8)
    mask[n // 3: n // 2] = 1
    out = os.path.join(a.dir, "peer-mask.raw")
    line("numpy tofile mask (no sync)", timed_runs(lambda: numpy_write(out, mask, False), a.runs))
    write = line("numpy tofile mask + fsync", timed_runs(lambda: numpy_write(out, mask, True), a.runs))
    del mask
    floor = read + write
    print("%-44s %9.0f" % ("floor: numpy read + fsynced mask write", floor))
    for method in a.methods.split(","):
        for fmt in a.formats.split(","):
            cmd = [a.lucent, "segment", vol, "--method", method, "--backend", a.backend, "--quiet",
                   "-o", os.path.join(a.dir, "mask-%s.%s" % (method, fmt))] + method_options(method, nz)
            if a.threads:
                cmd += ["--threads", str(a.threads)]
            stats = cmd + ["--stats", os.path.join(a.dir, "stats-%s.json" % method)]
            if a.only_stats:
                runs = timed_runs(lambda: run_child(stats), a.runs)
                line("lucent segment %s -o .%s --stats" % (method, fmt), runs,
                     "%.2f x the floor" % (statistics.median(r[0] for r in runs) / floor))
                continue
            plain = line("lucent segment %s -o .%s" % (method, fmt), timed_runs(lambda: run_child(cmd), a.runs))
            runs = timed_runs(lambda: run_child(stats), a.runs)
            with_stats = statistics.median(r[0] for r in runs)
            line("  + --stats", runs, "stats add %.0f %% (wall); %.2f x the floor" %
                 (100 * (with_stats / plain - 1), with_stats / floor))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("dir")
    p.add_argument("--lucent", default="build/bin/lucent")
    p.add_argument("--sizes", default="0.5")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--methods", default="srg,fc,fcm,snake")
    p.add_argument("--formats", default="nii,nii.gz,nrrd")
    p.add_argument("--backend", default="cpu")
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--stages", action="store_true", help="print where each lucent run's time went")
    p.add_argument("--only-stats", action="store_true",
                   help="only the runs with --stats (the issue's ratio), not those without (short device calls)")
    a = p.parse_args()
    global STAGES
    STAGES = a.stages
    os.makedirs(a.dir, exist_ok=True)
    print("lucent segment --stats end to end; %d hardware threads; %s; backend %s" %
          (os.cpu_count(), subprocess.run([a.lucent, "version"], capture_output=True, text=True).stdout.split("\n")[0],
           a.backend))
    for gb in a.sizes.split(","):
        bench_size(a, float(gb))


if __name__ == "__main__":
    main()
