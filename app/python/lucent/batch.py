"""Segments many scans on a Dask cluster: every input (a file, or each volume of a folder) is one task.

    python3 -m lucent.batch --method METHOD [its parameters] -o OUT [--scheduler ADDRESS | --workers N] INPUTS...

For each input, OUT/<stem>.nii.gz (the mask) and OUT/<stem>.json (`lucent segment --stats`'s
document plus "worker": the address of the Dask worker that made it). <stem> is the file's name
without its suffix, a folder's name (with its volume's name after '_' when it holds several).
A second run redoes nothing already written; a failing input is reported and the others go on; the
exit status is 1 when any failed (they are listed at the end), 2 for a usage error.

growcut's --seeds-mask SEEDS is either one label file on every input's grid, or a folder holding one
label file a input, named by the input's <stem> (FOLDER/<stem>.nii.gz, or any label file suffix); an
input without its seeds file fails, the others go on.
"""

import argparse
import json
import logging
import os
import sys
import time

import lucent
from lucent import _lucent

# The method keys and the parameters each takes, as `lucent segment` names them.
METHOD_OPTIONS = {
    "srg": ["seed", "lower", "upper", "connectivity"],
    "fc": ["seed", "threshold", "object_mean", "object_sigma", "diff_sigma"],
    "fcm": ["clusters", "fuzziness", "epsilon", "max_iterations", "per_voxel"],
    "snake": ["slice", "rect", "step_max", "min_segment", "propagate"],
    "snake3d": ["seed", "box", "radius", "margin", "iterations", "smoothing", "clip"],
    "growcut": ["seeds_mask"],
}
COMMON_OPTIONS = ["roi", "threads"]


def _integers(count):
    def parse(text):
        try:
            values = [int(v) for v in text.split(",")]
        except ValueError:
            values = []
        if len(values) != count:
            raise argparse.ArgumentTypeError(f"needs {count} comma-separated integers, got '{text}'")
        return values
    return parse


def _range(text):
    """LO,HI: two numbers (the engine checks LO < HI)."""
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        values = []
    if len(values) != 2:
        raise argparse.ArgumentTypeError(f"needs two numbers LO,HI, got '{text}'")
    return tuple(values)


def parser():
    p = argparse.ArgumentParser(prog="python3 -m lucent.batch", description=__doc__.split("\n\n")[0])
    p.add_argument("--method", required=True, choices=sorted(METHOD_OPTIONS))
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="folder for <stem>.nii.gz and <stem>.json")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running Dask scheduler (tcp://HOST:PORT)")
    where.add_argument("--workers", type=int, metavar="N", help="a local cluster of N worker processes (default 2)")
    p.add_argument("--gpus", action="store_true",
                   help="with --workers N: worker i sees GPU i only (CUDA_VISIBLE_DEVICES=i)")
    p.add_argument("--backend", default="auto", help="auto, cpu or cuda (as lucent segment)")
    p.add_argument("--seed", action="append", type=_integers(3), metavar="I,J,K")
    p.add_argument("--lower", type=float)
    p.add_argument("--upper", type=float)
    p.add_argument("--connectivity", type=int)
    p.add_argument("--threshold", type=float)
    p.add_argument("--object-mean", type=float)
    p.add_argument("--object-sigma", type=float)
    p.add_argument("--diff-sigma", type=float)
    p.add_argument("--clusters", type=int)
    p.add_argument("--fuzziness", type=float)
    p.add_argument("--epsilon", type=float)
    p.add_argument("--max-iterations", type=int)
    p.add_argument("--per-voxel", action="store_true")
    p.add_argument("--slice", type=int)
    p.add_argument("--rect", type=_integers(4), metavar="I0,J0,I1,J1")
    p.add_argument("--step-max", type=int)
    p.add_argument("--min-segment", type=int)
    p.add_argument("--propagate", action="store_true")
    p.add_argument("--box", type=_integers(6), metavar="I0,J0,K0,I1,J1,K1",
                   help="snake3d: the start box, corners included")
    p.add_argument("--radius", action="append", type=float, metavar="MM",
                   help="snake3d: a bubble's radius around the seeds (one for all, or one a seed)")
    p.add_argument("--margin", type=float, metavar="MM")
    p.add_argument("--iterations", type=int)
    p.add_argument("--smoothing", type=int)
    p.add_argument("--clip", type=_range, metavar="LO,HI",
                   help="snake3d: values clamped to LO..HI in the statistics and the region term")
    p.add_argument("--seeds-mask", metavar="SEEDS",
                   help="growcut: a label file on every input's grid, or a folder holding one a input: "
                        "FOLDER/<stem>.* (the input's output stem, any label file suffix)")
    p.add_argument("--roi", type=_integers(6), metavar="I0,J0,K0,I1,J1,K1")
    p.add_argument("--threads", type=int, help="engine threads per task (default: all cores of the worker)")
    p.add_argument("inputs", nargs="+", metavar="INPUT")
    return p


def method_params(p, args):
    """The engine's keywords from the options; an option the method does not take is a usage error."""
    given = {k: v for k, v in vars(args).items() if k in sum(METHOD_OPTIONS.values(), []) + COMMON_OPTIONS}
    for key, value in given.items():
        if value not in (None, False) and key not in METHOD_OPTIONS[args.method] + COMMON_OPTIONS:
            p.error(f"--{key.replace('_', '-')} is not an option of {args.method}")
    params = {k: v for k, v in given.items() if v is not None and v is not False}
    if "seed" in params:
        params["seeds"] = [tuple(s) for s in params.pop("seed")]
    if args.method in ("srg", "fc") and not params.get("seeds"):
        p.error(f"{args.method} needs at least one --seed I,J,K")
    if args.method == "srg" and ("lower" in params) != ("upper" in params):
        p.error("srg needs both --lower L and --upper U, or neither (estimated at the first seed)")
    if args.method == "snake" and ("slice" not in params or "rect" not in params):
        p.error("snake needs --slice K --rect I0,J0,I1,J1")
    if args.method == "snake3d":
        seeds, radii = params.get("seeds", []), params.pop("radius", [])
        if "box" not in params and not seeds:
            p.error("snake3d needs a start: --box I0,J0,K0,I1,J1,K1 and / or --seed I,J,K with --radius MM")
        if radii and not seeds:
            p.error("--radius needs seeds: the bubbles are around them")
        if len(radii) > 1 and len(radii) != len(seeds):
            p.error(f"{len(radii)} --radius for {len(seeds)} seeds: give one radius for all, or one a seed")
        params["radii_mm"] = radii
        if "margin" in params:
            params["margin_mm"] = params.pop("margin")
    if args.method == "growcut" and not params.get("seeds_mask"):
        p.error("growcut needs --seeds-mask SEEDS: a label file on the inputs' grid, or a folder of <stem>.* files")
    return params


def file_stem(path):
    """A file's name without its suffix (.nii.gz counts as one), a folder's name."""
    name = os.path.basename(os.path.normpath(path))
    if os.path.isdir(path):
        return name
    if name.lower().endswith(".gz"):
        name = name[:-3]
    stem, dot, _ = name.rpartition(".")
    return stem if dot and stem else name


def seeds_file(seeds_mask, stem):
    """growcut's seeds for the input of `stem`: the file `seeds_mask` itself (one label file on every
    input's grid), or in the folder `seeds_mask` the one file whose stem is the input's."""
    if not os.path.isdir(seeds_mask):
        return seeds_mask
    found = sorted(n for n in os.listdir(seeds_mask) if file_stem(os.path.join(seeds_mask, n)) == stem
                   and os.path.isfile(os.path.join(seeds_mask, n)))
    if len(found) != 1:
        raise ValueError(f"{'no' if not found else 'more than one'} seeds file {stem}.* in {seeds_mask}"
                         + (f" ({', '.join(found)})" if found else ""))
    return os.path.join(seeds_mask, found[0])


def tasks(inputs, out):
    """(stem, path, series id, mask path, json path) for every volume of the inputs; failures to
    list an input come back as (input, message)."""
    found, failed, stems = [], [], set()
    out = os.path.abspath(out)
    for path in map(os.path.abspath, inputs):  # workers may run elsewhere: no path relative to here
        try:
            volumes = _lucent._list(path)
        except (OSError, ValueError) as e:
            failed.append((path, str(e).removeprefix(path + ": ")))
            continue
        for series, name in volumes:
            stem = file_stem(path) if len(volumes) == 1 else f"{file_stem(path)}_{name}"
            base, n = stem, 2
            while stem in stems:  # two inputs of one name: the later ones get _2, _3, ...
                stem, n = f"{base}_{n}", n + 1
            stems.add(stem)
            found.append((stem, path, series, os.path.join(out, stem + ".nii.gz"), os.path.join(out, stem + ".json")))
    return found, failed


def done(mask_path, json_path):
    """Written by an earlier run: the document is written last, so with it the mask is whole."""
    return os.path.isfile(json_path) and os.path.isfile(mask_path)


def segment_one(path, series, method, params, backend, mask_path, json_path, seeds_mask=""):
    """One task, on a worker: load, segment, write the mask, then the document (atomically)."""
    from distributed import get_worker

    t0 = time.perf_counter()
    image = lucent.load(path, series)
    ms_load = (time.perf_counter() - t0) * 1000
    labels, stats = _lucent._segment_image(image, method, params, backend, ms_load, seeds_mask)
    doc = json.loads(stats)
    if doc["voxels"] == 0:
        raise ValueError(f"empty result: {method} labelled no voxel (check the seeds, interval, threshold or "
                         "rectangle); nothing written")
    lucent.save(mask_path, labels, like=image)
    doc["worker"] = get_worker().address
    partial = f"{json_path}.partial-{os.getpid()}"
    with open(partial, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    os.replace(partial, json_path)
    return doc["voxels"], doc["worker"]


def cluster(args):
    """A client of the scheduler named, or of a local cluster (closed with the client)."""
    from distributed import Client, LocalCluster, Nanny, Scheduler, SpecCluster

    if args.scheduler:
        return Client(args.scheduler), None
    n = args.workers or 2
    if args.gpus:
        # One worker per GPU: each worker process sees its own device only.
        quiet = {"host": "127.0.0.1", "nthreads": 1, "dashboard": False, "silence_logs": logging.CRITICAL}
        workers = {i: {"cls": Nanny, "options": {**quiet, "env": {"CUDA_VISIBLE_DEVICES": str(i)}}} for i in range(n)}
        scheduler = {"cls": Scheduler, "options": {"host": "127.0.0.1", "dashboard_address": None}}
        local = SpecCluster(scheduler=scheduler, workers=workers, silence_logs=logging.CRITICAL)
    else:
        # A task's failure is reported here once, not also as the worker's log of it.
        local = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                             silence_logs=logging.CRITICAL)
    return Client(local), local


def _joined(argv):
    """`--clip LO,HI` as `--clip=LO,HI`: argparse takes a value such as "-20,100" for an option, and
    `lucent segment` reads it as the value."""
    out = []
    for arg in argv:
        if out and out[-1] == "--clip":
            out[-1] = "--clip=" + arg
        else:
            out.append(arg)
    return out


def main(argv=None):
    p = parser()
    args = p.parse_args(_joined(sys.argv[1:] if argv is None else argv))
    if args.gpus and args.scheduler:
        p.error("--gpus starts local workers: give it with --workers N, not --scheduler")
    if args.workers is not None and args.workers < 1:
        p.error("--workers needs at least 1")
    params = method_params(p, args)
    try:
        os.makedirs(args.output, exist_ok=True)
    except OSError as e:
        print(f"lucent.batch: cannot make {args.output}: {e.strerror}", file=sys.stderr)
        return 1
    todo, failed = tasks(args.inputs, args.output)
    for path, message in failed:
        print(f"lucent.batch: {path}: {message}", file=sys.stderr)
    skipped = [t for t in todo if done(t[3], t[4])]
    todo = [t for t in todo if not done(t[3], t[4])]
    total = len(todo) + len(skipped)
    print(f"lucent.batch: {total} volume(s): {len(skipped)} already written, {len(todo)} to segment", file=sys.stderr)
    if todo:
        failed += run(args, params, todo, total - len(todo), total)
    if failed:
        print(f"lucent.batch: {len(failed)} input(s) failed:", file=sys.stderr)
        for name, message in failed:
            print(f"  {name}: {message}", file=sys.stderr)
        return 1
    return 0


def run(args, params, todo, finished, total):
    """Submits every task and reports each as it ends; returns the failures as (stem, message)."""
    from distributed import as_completed

    client, local = cluster(args)
    failed = []
    try:
        futures = {}
        engine_params = {k: v for k, v in params.items() if k != "seeds_mask"}
        for stem, path, series, mask_path, json_path in todo:
            try:
                seeds = seeds_file(os.path.abspath(params["seeds_mask"]), stem) if "seeds_mask" in params else ""
            except (OSError, ValueError) as e:
                finished += 1
                failed.append((f"{stem} ({path})", str(e)))
                print(f"[{finished}/{total}] {stem}: failed: {e}", file=sys.stderr, flush=True)
                continue
            f = client.submit(segment_one, path, series, args.method, engine_params, args.backend, mask_path,
                              json_path, seeds, key=f"lucent-{stem}-{time.time_ns()}", pure=False)
            futures[f] = (stem, path)
        for f in as_completed(futures):
            stem, path = futures[f]
            finished += 1
            try:
                voxels, worker = f.result()
                print(f"[{finished}/{total}] {stem}: {voxels} voxels ({worker})", file=sys.stderr, flush=True)
            except Exception as e:  # a task's failure is the input's, never the batch's
                message = str(e) or type(e).__name__
                failed.append((f"{stem} ({path})", message))
                print(f"[{finished}/{total}] {stem}: failed: {message}", file=sys.stderr, flush=True)
    finally:
        client.close()
        if local is not None:
            local.close()
    return failed


if __name__ == "__main__":
    sys.exit(main())
