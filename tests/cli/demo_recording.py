"""@brief `lucent --demo PATH` on volumes it was not tuned on (issue 43, the presenter's items).

A float volume (an MR rescaled to fractions) whose brightest 5 % are scattered dots and whose
visible structure is a ball of 116.75: the demo's region growing grows the ball, not a dot (the
lower bound was rounded to 117 above the seed's 116.75, and the seed was the first bright dot)."""
import json
import math
import os
import random
import re
import shutil
import struct
import subprocess

from test_cli import check, xvfb_prefix

BALL = 116.75


def float_volume(path, dims=(64, 64, 36), centre=(32, 32, 20), radius=12):
    """A MetaImage of float32 voxels: noise in [0, 100), 6 % scattered dots in [200, 300), a ball of
    BALL. Returns the ball's voxel count."""
    rnd = random.Random(7)
    nx, ny, nz = dims
    values, ball = [], 0
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                inside = (i - centre[0]) ** 2 + (j - centre[1]) ** 2 + (k - centre[2]) ** 2 <= radius * radius
                ball += inside
                background = rnd.uniform(200, 300) if rnd.random() < 0.06 else rnd.uniform(0, 100)
                values.append(BALL if inside else background)
    raw = os.path.basename(path)[:-4] + ".raw"
    with open(os.path.join(os.path.dirname(path), raw), "wb") as f:
        f.write(struct.pack("<%df" % len(values), *values))
    with open(path, "w") as f:
        f.write("ObjectType = Image\nNDims = 3\nDimSize = %d %d %d\nElementSpacing = 1 1 1\n"
                "ElementType = MET_FLOAT\nElementByteOrderMSB = False\nElementDataFile = %s\n" % (nx, ny, nz, raw))
    return ball


def demo_on_float_volume(lucent, xvfb, tmp):
    mhd = os.path.join(tmp, "float_mr.mhd")
    ball = float_volume(mhd)
    frames = os.path.join(tmp, "float_demo")
    config = os.path.join(tmp, "demo-config")
    env = dict(os.environ, QT_QPA_PLATFORM="xcb", XDG_CONFIG_HOME=config)
    # The user's own settings (Qt's INI under XDG_CONFIG_HOME): a layout and recent files the demo,
    # with its one large view and its own volume, must leave as they were (issue 43 item 24).
    os.makedirs(os.path.join(config, "Lucent"), exist_ok=True)
    user = os.path.join(config, "Lucent", "Lucent.conf")
    with open(user, "w") as f:
        f.write("[General]\nrecent=/data/study-a.nii.gz, /data/study-b\n\n[view]\nlayout=1+3\n")
    before = open(user).read()
    p = subprocess.run([*xvfb_prefix(xvfb, tmp), lucent, "--demo", mhd, "--record", frames, "--record-every", "40"],
                       capture_output=True, text=True, env=env)
    check(p.returncode == 0 and "live srg" in p.stdout, "lucent --demo FLOAT.mhd: %r %r" % (p.stdout, p.stderr[-300:]))
    left = sorted(os.path.relpath(os.path.join(d, f), config) for d, _, fs in os.walk(config) for f in fs)
    check(open(user).read() == before and left == [os.path.join("Lucent", "Lucent.conf")],
          "--demo leaves the user's layout and recent files as they were: %s, %r" % (left, open(user).read()))
    if p.returncode != 0:
        return
    notes = json.load(open(os.path.join(frames, "frames.json")))["frames"]
    growing = [n for n in notes if "polygon" not in n]
    snake = notes[:len(notes) - len(growing)]
    for run in (snake, growing):
        states = [n["state"] for n in run]
        check(states and set(states[:-1]) <= {"running"} and states[-1] == "finished",
              "a recorded run reads as running, then finished (not paused): %s" % states)
    check(snake and all(n["voxels"] > 0 for n in snake), "the snake's frames count the inside of its contour: %s"
          % [n["voxels"] for n in snake])
    check(growing and growing[-1]["voxels"] >= ball,
          "the demo grows the ball of %d voxels on a float volume, not a dot: %s"
          % (ball, [n["voxels"] for n in growing]))


def demo_paced_mp4(lucent, xvfb, tmp):
    """An MP4 of the demo plays each run at --speed with its start held 1.5 s (45 frames at 30 fps):
    run m of N steps holds 46 + round(N * 30 / speed) frames; --speed was accepted and ignored."""
    if not shutil.which("ffprobe"):
        return check(False, "ffprobe (Debian: ffmpeg) is installed for the MP4 checks")
    mhd = os.path.join(tmp, "float_mr.mhd")
    if not os.path.exists(mhd):
        float_volume(mhd)
    env = dict(os.environ, QT_QPA_PLATFORM="xcb", XDG_CONFIG_HOME=os.path.join(tmp, "demo-config"))
    for speed in (10, 20):
        mp4 = os.path.join(tmp, "demo-%d.mp4" % speed)
        p = subprocess.run([*xvfb_prefix(xvfb, tmp), lucent, "--demo", mhd, "--record", mp4, "--speed", str(speed)],
                           capture_output=True, text=True, env=env)
        steps = [int(n) for n in re.findall(r"live \w+ \(\w+\): (\d+) steps", p.stdout)]
        check(p.returncode == 0 and len(steps) == 2, "lucent --demo --record OUT.mp4 --speed %d: %r %r"
              % (speed, p.stdout, p.stderr[-300:]))
        if p.returncode != 0 or len(steps) != 2:
            continue
        probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                "stream=nb_read_frames", "-of", "csv=p=0", mp4], capture_output=True, text=True)
        want = sum(46 + round(n * 30 / speed) for n in steps)
        check(probe.stdout.strip() == str(want), "the demo's MP4 at %d steps/s holds %d frames (%s steps), got %r"
              % (speed, want, steps, probe.stdout.strip()))


def demo_recording_contract(lucent, xvfb, tmp):
    demo_on_float_volume(lucent, xvfb, tmp)
    demo_paced_mp4(lucent, xvfb, tmp)
