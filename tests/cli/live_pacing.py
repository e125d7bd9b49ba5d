"""@brief Paced runs and step-exact recordings on the real CT head (issue 25).

`--record DIR` of the README's snake (slice 60, rectangle 40,40,215,215) gives one frame per engine
step, the start included; consecutive frames differ; frames.json's polygon of frame k equals the
polygon `lucent segment --steps k --polygon` writes (another process, no viewer); and the polygon
drawn in frame k lies where that polygon maps on screen (the mapping taken from frame 0, whose
polygon is the rectangle); each recorded step has the engine's time per step (the HUD's ms/step,
which read 0.00 for single steps). Region growing recorded from a seed in the skull grows frame over
frame: in the engine's voxel count and in the red hatching drawn in the frames.
A run paced at 20 steps/s takes at least the 39 periods of its 39 steps (1.95 s of the run's own time,
which the summary line gives): a bound the pace implies and no slow machine can break, so it fails
only where --speed is not applied. No upper bound: how fast steps come is the pacer's, checked on a
fake clock (SessionWorker.APacedRunStepsOnlyWhenAStepIsDueOnAFakeClock, StepPacer.*). The run's HUD panel is drawn once in a 2x2 window.
An MP4 recording holds one frame per step (ffprobe)."""
import hashlib
import json
import os
import re
import shutil
import subprocess

from png_pixels import read_png
from test_cli import check, run, skip, xvfb_prefix

SNAKE = ["--slice", "60", "--rect", "40,40,215,215"]
POLYGON = (255, 89, 51)        # the snake's polygon (SegmentationModel: 1.0, 0.35, 0.2)
HUD_BUTTON = (43, 74, 117)     # the HUD panel's buttons (Hud.cpp: 0.17, 0.29, 0.46)
SKULL = ["--seed", "64,128,60", "--lower", "500", "--upper", "3000"]


def near(p, colour, tol):
    return all(abs(a - b) <= tol for a, b in zip(p, colour))


def colour_box(path, colour, tol=40):
    """(x0, y0, x1, y1, count) of the pixels of `colour` in a PNG."""
    _, _, rows = read_png(path)
    xs, ys = [], []
    for y, row in enumerate(rows):
        for x, p in enumerate(row):
            if near(p, colour, tol):
                xs.append(x)
                ys.append(y)
    return (min(xs), min(ys), max(xs), max(ys), len(xs)) if xs else None


def overlay_pixels(path):
    """Pixels of the live result's red hatching (label 1) in a frame; the HUD and the image have none."""
    _, _, rows = read_png(path)
    return sum(1 for row in rows for p in row if p[0] > 150 and p[1] < 120 and p[2] < 120)


def cli_polygon(lucent, ct, tmp, steps):
    out = os.path.join(tmp, "poly%d.json" % steps)
    rc, _, err = run(lucent, "segment", ct, "--method", "snake", *SNAKE, "--backend", "cpu", "--steps", steps,
                     "--polygon", out, "-o", os.path.join(tmp, "poly%d.nii" % steps))
    check(rc == 0, "lucent segment --steps %d --polygon: %r" % (steps, err[-300:]))
    return json.load(open(out))["slices"][-1]["polygon"] if rc == 0 else None


def run_seconds(out):
    m = re.search(r"finished, ([0-9.]+) s", out)
    return float(m.group(1)) if m else None


def snake_recording(lucent, xvfb, ct, tmp):
    frames = os.path.join(tmp, "snake_frames")
    rc, out, err = run(*xvfb_prefix(xvfb, tmp), lucent, ct, "--layout", "1x1", "--live", "snake", *SNAKE,
                       "--backend", "cpu", "--record", frames)
    check(rc == 0 and "39 steps" in out, "the CT head's snake records: %r %r" % (out, err[-300:]))
    if rc != 0:
        return
    pngs = sorted(f for f in os.listdir(frames) if f.endswith(".png"))
    notes = json.load(open(os.path.join(frames, "frames.json")))["frames"]
    check(len(pngs) == 40 and len(notes) == 40, "39 steps: 40 frames with the start, got %d (%d notes)" % (len(pngs), len(notes)))
    if len(pngs) != 40 or len(notes) != 40:
        return
    check([n["step"] for n in notes] == list(range(40)) and [n["iteration"] for n in notes] == list(range(40)),
          "frame k is drawn after step k, the engine's iteration k")
    # Single steps are timed too: the HUD's ms/step of a recorded step is the engine's time, not 0.00.
    idle = [n["frame"] for n in notes[1:] if not n["ms_per_step"] > 0]
    check(not idle, "every recorded step has its engine time per step (0 in frames %s)" % idle)
    digests = [hashlib.sha256(open(os.path.join(frames, f), "rb").read()).hexdigest() for f in pngs]
    same = [k for k in range(1, len(digests)) if digests[k] == digests[k - 1]]
    check(not same, "consecutive frames differ (equal: %s)" % same)
    for k in (1, 2, 10, 39):
        check(notes[k]["polygon"] == cli_polygon(lucent, ct, tmp, k),
              "frame %d's polygon is lucent segment --steps %d's" % (k, k))
    # On screen: frame 0's polygon is the rectangle 40..215, centred on the slice, which gives the
    # voxel -> pixel scale and centre; frame 1's (asymmetric) polygon the direction of each axis (the
    # CT's rows point anterior, drawn upwards). Frames 5 and 39 must then draw their polygon's box.
    box0 = colour_box(os.path.join(frames, pngs[0]), POLYGON)
    check(box0 is not None, "frame 0 shows the rectangle")
    if box0 is None:
        return
    scale = ((box0[2] - box0[0]) / 175.0, (box0[3] - box0[1]) / 175.0)
    centre = ((box0[0] + box0[2]) / 2.0, (box0[1] + box0[3]) / 2.0)

    def predicted(points, signs):
        box = []
        for corner in (min, max):
            for axis in (0, 1):
                box.append(centre[axis] + signs[axis] * scale[axis] * (corner(p[axis] for p in points) - 127.5))
        lo = (min(box[0], box[2]), min(box[1], box[3]))
        hi = (max(box[0], box[2]), max(box[1], box[3]))
        return lo + hi

    def fits(k, signs):
        got = colour_box(os.path.join(frames, pngs[k]), POLYGON)
        want = predicted(notes[k]["polygon"], signs)
        return got is not None and all(abs(g - w) <= 6 for g, w in zip(got[:4], want)), got, want

    orientations = [(sx, sy) for sx in (1, -1) for sy in (1, -1) if fits(1, (sx, sy))[0]]
    check(len(orientations) == 1, "frame 1's polygon fixes the view's orientation: %s" % orientations)
    for k in (5, 39):
        ok, got, want = fits(k, orientations[0] if orientations else (1, 1))
        check(ok, "frame %d draws its polygon where it lies: %s, expected %s" % (k, got, want))


def growing_recording(lucent, xvfb, ct, tmp):
    frames = os.path.join(tmp, "srg_frames")
    rc, out, err = run(*xvfb_prefix(xvfb, tmp), lucent, ct, "--layout", "1x1", "--live", "srg", *SKULL,
                       "--backend", "cpu", "--steps", "60", "--record-every", "10", "--record", frames)
    check(rc == 0, "region growing records: %r" % err[-300:])
    if rc != 0:
        return
    notes = json.load(open(os.path.join(frames, "frames.json")))["frames"]
    voxels = [n["voxels"] for n in notes]
    check([n["step"] for n in notes] == list(range(0, 61, 10)), "--record-every 10: frames at steps 0, 10, ... 60")
    check(all(b > a for a, b in zip(voxels, voxels[1:])), "the region grows frame over frame: %s" % voxels)
    drawn = [overlay_pixels(os.path.join(frames, "frame-%05d.png" % k)) for k in range(len(notes))]
    check(drawn[0] == 0 and all(b > a for a, b in zip(drawn, drawn[1:])),
          "the frames show the region growing on the slice: %s red pixels" % drawn)


def one_view_recordings(lucent, xvfb, ct, tmp):
    """--record-view axial|3d --record-size WxH: frames of that view alone, at that size (no menus or
    panels: the frame is the view's own), the axial one showing the run; a bad view or size exits 2."""
    for view in ("axial", "3d"):
        frames = os.path.join(tmp, "one_view_" + view)
        rc, out, err = run(*xvfb_prefix(xvfb, tmp), lucent, ct, "--live", "srg", *SKULL, "--backend", "cpu",
                           "--steps", "20", "--record-every", "10", "--record", frames, "--record-view", view,
                           "--record-size", "480x400")
        check(rc == 0, "--record-view %s --record-size 480x400: %r" % (view, err[-300:]))
        if rc != 0:
            continue
        sizes = set()
        for k in range(3):
            width, height, _ = read_png(os.path.join(frames, "frame-%05d.png" % k))
            sizes.add((width, height))
        check(sizes == {(480, 400)}, "--record-view %s: every frame 480 x 400, got %s" % (view, sizes))
        if view == "axial":
            drawn = [overlay_pixels(os.path.join(frames, "frame-%05d.png" % k)) for k in range(3)]
            check(drawn[0] == 0 and drawn[2] > drawn[1] > 0, "the axial view alone shows the region growing: %s" % drawn)
    for bad in (["--record-view", "top"], ["--record-view", "axial", "--record-size", "320"],
                ["--record-view", "window", "--record-size", "320x240"], ["--record-size", "9x9"]):
        rc, out, err = run(lucent, ct, "--live", "srg", *SKULL, "--record", os.path.join(tmp, "bad"), *bad)
        check(rc == 2 and "--record-" in err, "%s: exit 2 naming the option, got %d %r" % (bad, rc, err[-200:]))


def pacing(lucent, xvfb, ct, tmp):
    times = {}
    for speed in ("20", "max"):
        shot = os.path.join(tmp, "paced_%s.png" % speed)
        rc, out, err = run(*xvfb_prefix(xvfb, tmp), lucent, ct, "--layout", "1x1", "--live", "snake", *SNAKE,
                           "--backend", "cpu", "--speed", speed, "--screenshot", shot)
        times[speed] = run_seconds(out)
        check(rc == 0 and "39 steps" in out and times[speed] is not None, "--speed %s: %r %r" % (speed, out, err[-300:]))
    if times["20"] is not None:
        # Step k comes no earlier than k periods after the run began (StepPacer: no catching up), and the
        # figure is rounded to 0.01 s.
        check(times["20"] >= 39 / 20 - 0.01, "39 steps at 20 steps/s take at least 1.95 s: %.2f s" % times["20"])
    rc, _, err = run(lucent, ct, "--live", "snake", *SNAKE, "--speed", "fast", "--screenshot", os.path.join(tmp, "x.png"))
    check(rc == 2 and "1..240" in err, "--speed fast is a usage error naming the range: %r" % err)


def one_hud(lucent, xvfb, ct, tmp):
    shot = os.path.join(tmp, "hud_2x2.png")
    rc, _, err = run(*xvfb_prefix(xvfb, tmp), lucent, ct, "--layout", "2x2", "--live", "snake", *SNAKE,
                     "--backend", "cpu", "--steps", "3", "--screenshot", shot)
    check(rc == 0, "2x2 screenshot of a run: %r" % err[-300:])
    box = colour_box(shot, HUD_BUTTON, tol=6) if rc == 0 else None
    # One panel's buttons span one row of about 300 x 30 pixels; three panels would span the window.
    check(box is not None and box[2] - box[0] < 400 and box[3] - box[1] < 120,
          "the HUD panel is drawn once in a 2x2 window: its buttons' box %s" % (box,))


def mp4_recording(lucent, xvfb, ct, tmp):
    if not shutil.which("ffmpeg") or not shutil.which("ffprobe"):
        return skip("live_pacing.mp4", "ffmpeg or ffprobe is not installed")
    mp4 = os.path.join(tmp, "snake.mp4")
    rc, _, err = run(*xvfb_prefix(xvfb, tmp), lucent, ct, "--layout", "1x1", "--live", "snake", *SNAKE,
                     "--backend", "cpu", "--record", mp4, "--record-fps", "20")
    check(rc == 0 and not os.path.exists(mp4 + ".part"), "--record OUT.mp4: %r" % err[-300:])
    probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                            "stream=nb_read_frames,r_frame_rate", "-of", "csv=p=0", mp4], capture_output=True, text=True)
    check(probe.returncode == 0 and probe.stdout.strip() == "20/1,40",
          "the MP4 plays: 40 frames at 20 fps (ffprobe: %r)" % probe.stdout)


def demo(lucent, xvfb, data, tmp):
    """`lucent --demo` without PATH opens $LUCENT_DATA's CT head: the snake's steps, then region growing's."""
    frames = os.path.join(tmp, "demo_frames")
    env = dict(os.environ, LUCENT_DATA=data, QT_QPA_PLATFORM="xcb")
    p = subprocess.run([*xvfb_prefix(xvfb, tmp), lucent, "--demo", "--record", frames, "--record-every", "40"],
                       capture_output=True, text=True, env=env)
    check(p.returncode == 0 and "live snake" in p.stdout and "live srg" in p.stdout, "lucent --demo: %r %r"
          % (p.stdout, p.stderr[-300:]))
    if p.returncode != 0:
        return
    notes = json.load(open(os.path.join(frames, "frames.json")))["frames"]
    snake = [n for n in notes if "polygon" in n]
    growing = notes[len(snake):]
    check([n["step"] for n in snake] == [0, 39] and len(growing) >= 3 and "polygon" not in growing[-1],
          "the demo records the snake, then region growing: %s" % [n["step"] for n in notes])
    check(all(b["voxels"] > a["voxels"] for a, b in zip(growing, growing[1:])), "the skull grows in the demo")
    env["LUCENT_DATA"] = os.path.join(tmp, "nowhere")
    p = subprocess.run([lucent, "--demo"], capture_output=True, text=True, env=env)
    check(p.returncode == 2 and "fetch-data.sh" in p.stderr, "--demo without the CT head says how to fetch it: %r" % p.stderr)


def live_pacing_contract(lucent, xvfb, data, tmp):
    ct = os.path.join(data, "cranium", "cranium.mhd")
    check(os.path.isfile(ct), "the CT head is in the data folder (tests/fetch-data.sh): " + ct)
    if not os.path.isfile(ct):
        return
    snake_recording(lucent, xvfb, ct, tmp)
    growing_recording(lucent, xvfb, ct, tmp)
    one_view_recordings(lucent, xvfb, ct, tmp)
    pacing(lucent, xvfb, ct, tmp)
    one_hud(lucent, xvfb, ct, tmp)
    mp4_recording(lucent, xvfb, ct, tmp)
    demo(lucent, xvfb, data, tmp)
