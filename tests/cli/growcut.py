"""@brief `lucent segment IMAGE --method growcut --seeds-mask SEEDS -o OUT [--stats FILE]` (issue 46), called as
the issue writes it: the labels against a Dijkstra written here (heapq, the rule of core/README.md), the seeds'
label numbers kept, the stats JSON, and the refusals (usage errors exit 2; a seeds file on another grid or with
no seed fails naming it, nothing written).

Standard library only.
"""
import heapq
import json
import os

from test_cli import check, read_nifti, run, write_nifti


def reference(dims, values, seeds):
    """Labels by a plain Dijkstra over (distance, label): a step between face neighbours costs |I(p) - I(q)|,
    seeds keep their label at distance 0, ties in distance go to the smallest label."""
    nx, ny, nz = dims
    best = {}
    heap = []
    for v, s in enumerate(seeds):
        if s:
            best[v] = (0, s)
            heap.append((0, s, v))
    heapq.heapify(heap)
    done = set()
    while heap:
        d, l, v = heapq.heappop(heap)
        if v in done:
            continue
        done.add(v)
        i, j, k = v % nx, v // nx % ny, v // (nx * ny)
        for di, dj, dk in ((-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1)):
            a, b, c = i + di, j + dj, k + dk
            if not (0 <= a < nx and 0 <= b < ny and 0 <= c < nz):
                continue
            u = a + nx * (b + ny * c)
            if seeds[u] or u in done:
                continue
            key = (d + abs(values[v] - values[u]), l)
            if key < best.get(u, (float("inf"), 0)):
                best[u] = key
                heapq.heappush(heap, (key[0], key[1], u))
    return [best[v][1] if v in best else 0 for v in range(len(seeds))]


def synthetic(tmp):
    """Two touching boxes in a background on a ramp, seeded with labels 9, 5 and 2; written as NIfTIs."""
    dims = (18, 14, 10)
    spacing = (1.0, 1.0, 2.0)
    values, seeds = [], []
    for k in range(dims[2]):
        for j in range(dims[1]):
            for i in range(dims[0]):
                # Two touching boxes in a background, on a ramp along x that overlaps their means.
                region = 9 if 3 <= i < 9 and 3 <= j < 11 and 2 <= k < 8 else 5 if 9 <= i < 15 and 3 <= j < 11 and 2 <= k < 8 else 2
                mean = {2: 0, 9: 80, 5: 160}[region]
                values.append(mean + 12 * i + (i * 7 + j * 3 + k * 5) % 11)
                seed = region if (i, j) in ((5, 6), (12, 6)) and k == 5 else 2 if (i in (0, 17) and k == 5) else 0
                seeds.append(seed)
    src = os.path.join(tmp, "gc_src.nii")
    seeds_path = os.path.join(tmp, "gc_seeds.nii")
    write_nifti(src, dims, spacing, values)
    write_nifti(seeds_path, dims, spacing, seeds)
    return dims, spacing, values, seeds, src, seeds_path


def growcut_contract(lucent, tmp):
    dims, spacing, values, seeds, src, seeds_path = synthetic(tmp)
    out = os.path.join(tmp, "gc.nii")
    stats = os.path.join(tmp, "gc.json")
    rc, _, err = run(lucent, "segment", src, "--method", "growcut", "--seeds-mask", seeds_path, "-o", out, "--stats",
                     stats)
    check(rc == 0, "segment growcut exits 0: " + err)
    mdims, _, labels = read_nifti(out)
    want = reference(dims, values, seeds)
    check(tuple(mdims) == dims, "growcut labels on the image's grid")
    check(list(labels) == want, "growcut labels equal a Dijkstra written in the test (%d differ)" %
          sum(a != b for a, b in zip(labels, want)))
    check(set(labels) == {2, 5, 9}, "the output holds the seeds' label numbers: %s" % sorted(set(labels)))
    doc = json.load(open(stats))
    check(doc["method"] == "growcut", "stats method growcut")
    params = doc["parameters"]
    check(params.get("seeds_mask") == seeds_path, "stats names the seeds file")
    check(params.get("seed_voxels") == {str(l): seeds.count(l) for l in (2, 5, 9)}, "stats: seed voxels per label")
    check(doc.get("label_voxels") == {str(l): want.count(l) for l in (2, 5, 9)}, "stats: voxels per label")
    check(doc["voxels"] == len(want), "every voxel labelled")
    figures = {entry["label"]: entry["voxels"] for entry in doc["labels"]}
    check(figures == {l: want.count(l) for l in (2, 5, 9)}, "per-label figures count the labels written")

    never = os.path.join(tmp, "gc_never.nii")
    rc, _, err = run(lucent, "segment", src, "--method", "growcut", "-o", never)
    check(rc == 2 and "--seeds-mask" in err and not os.path.exists(never), "growcut without --seeds-mask: usage error")
    other = os.path.join(tmp, "gc_other_grid.nii")
    write_nifti(other, (dims[0], dims[1], dims[2] - 1), spacing, seeds[:dims[0] * dims[1] * (dims[2] - 1)])
    empty = os.path.join(tmp, "gc_empty.nii")
    write_nifti(empty, dims, spacing, [0] * len(seeds))
    for path, what in ((other, "seeds on another grid"), (empty, "seeds file without a seed"),
                       (os.path.join(tmp, "gc_missing.nii"), "missing seeds file")):
        rc, _, err = run(lucent, "segment", src, "--method", "growcut", "--seeds-mask", path, "-o", never)
        check(rc == 1 and os.path.basename(path) in err and len(err.strip().splitlines()) == 1 and
              not os.path.exists(never), "%s: exit %d, %r" % (what, rc, err))


def growcut_live_contract(lucent, xvfb, tmp):
    """`lucent IMAGE --live growcut --seeds-mask SEEDS [--backend B] [--screenshot OUT] [--accept]` (issue 46's live part):
    the seeds become the label layer (the strokes of the viewer's grow from seeds), the run's labels equal the Dijkstra
    written here, counted per label on the summary line; the refusals as lucent segment's, and seeds of one label."""
    from test_cli import png_size, xvfb_prefix

    def live(*args):
        return run(*xvfb_prefix(xvfb, tmp), lucent, *args)

    dims, spacing, values, seeds, src, seeds_path = synthetic(tmp)
    want = reference(dims, values, seeds)
    shot = os.path.join(tmp, "gc_live.png")
    rc, out, err = live(src, "--live", "growcut", "--seeds-mask", seeds_path, "--backend", "cpu", "--screenshot", shot)
    check(rc == 0 and png_size(shot) is not None, "--live growcut --screenshot: %r" % err[-300:])
    said = "(labels %s)" % ", ".join("%d: %d" % (l, want.count(l)) for l in (2, 5, 9))
    check("live growcut (cpu)" in out and "finished" in out and said in out,
          "--live growcut: each label's voxels as the Dijkstra's %s: %r" % (said, out))
    never = os.path.join(tmp, "gc_live_never.png")
    rc, _, err = live(src, "--live", "growcut", "--screenshot", never)
    check(rc == 2 and "--seeds-mask" in err and not os.path.exists(never), "--live growcut without --seeds-mask: usage error")
    other = os.path.join(tmp, "gc_live_other_grid.nii")
    write_nifti(other, (dims[0], dims[1], dims[2] - 1), spacing, seeds[:dims[0] * dims[1] * (dims[2] - 1)])
    one = os.path.join(tmp, "gc_live_one_label.nii")
    write_nifti(one, dims, spacing, [9 if s else 0 for s in seeds])
    for path, what in ((other, "seeds on another grid"), (one, "seeds of one label"),
                       (os.path.join(tmp, "gc_live_missing.nii"), "missing seeds file")):
        rc, _, err = live(src, "--live", "growcut", "--seeds-mask", path, "--backend", "cpu", "--screenshot", never)
        lines = [l for l in err.strip().splitlines() if l.startswith("lucent")]
        check(rc == 1 and len(lines) == 1 and os.path.basename(path) in lines[0] and not os.path.exists(never),
              "--live growcut, %s: exit %d, %r" % (what, rc, err[-300:]))
