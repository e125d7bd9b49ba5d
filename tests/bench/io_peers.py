#!/usr/bin/python3
"""@brief Peer figures for `lucent_bench_io DIR`: the same files read by numpy.fromfile (raw) and by
Python's gzip + numpy.frombuffer (.nii.gz, gzip NRRD), each in a child process for its own peak RSS.

usage: /usr/bin/python3 tests/bench/io_peers.py DIR (Debian's python, with numpy)   (DIR/files.tsv, written by lucent_bench_io)
"""
import multiprocessing as mp
import resource
import sys
import time
import zlib

import numpy as np


def read(row, queue):
    fmt, path, offset, dims = row
    n = int(np.prod(dims))
    t0 = time.perf_counter()
    if fmt.endswith(".gz"):
        with open(path, "rb") as f:
            f.seek(offset)
            raw = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(f.read())
        skip = 352 if fmt == "nii.gz" else 0
        v = np.frombuffer(raw, dtype="<i2", count=n, offset=skip)
    else:
        v = np.fromfile(path, dtype="<i2", count=n, offset=offset)
    ms = (time.perf_counter() - t0) * 1000
    assert v.size == n
    queue.put((ms, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))


def main():
    folder = sys.argv[1]
    rows = []
    for line in open(folder + "/files.tsv"):
        fmt, path, offset, dims = line.rstrip("\n").split("\t")
        rows.append((fmt, path, int(offset), [int(d) for d in dims.split()]))
    print("%-8s %-22s %9s %9s %10s %10s" % ("format", "volume", "GB", "read GB/s", "best ms", "peak MiB"))
    ctx = mp.get_context("spawn")  # a fresh interpreter each time: its own peak RSS
    for row in rows:
        best, peak = float("inf"), 0.0
        for r in range(4):  # the first warms the page cache
            q = ctx.Queue()
            p = ctx.Process(target=read, args=(row, q))
            p.start()
            ms, mib = q.get()
            p.join()
            if r > 0:
                best, peak = min(best, ms), max(peak, mib)
        gb = np.prod(row[3]) * 2 / 1e9
        print("%-8s %-22s %9.2f %9.2f %10.0f %10.0f" % (
            row[0], "x".join(map(str, row[3])), gb, gb * 1e3 / best, best, peak), flush=True)


if __name__ == "__main__":
    main()
