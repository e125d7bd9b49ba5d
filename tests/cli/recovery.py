"""@brief Issue 26 from outside the process: `lucent PATH --live srg ... --accept` accepts a region,
the autosave copies it into $XDG_STATE_HOME/lucent/recovery, SIGKILL ends the process, and
`lucent --recover` restores it: the copy's labels are byte for byte the region `lucent segment`
gives, the restored window's own copy holds the same bytes, and the killed process's copy is gone.
Also: scripted runs (--screenshot) start from default settings and leave none behind, so a run
that changed the remembered preset or the plane mode changes no later screenshot."""
import array
import base64
import gzip
import json
import math
import os
import signal
import struct
import subprocess
import time

from png_pixels import read_png
from test_cli import check, read_nifti, run, write_nifti, xvfb_prefix

SEG = ["--seed", "20,18,12", "--lower", "500", "--upper", "2000", "--backend", "cpu"]
WAIT_S = 180  # a hang guard: only a failing run waits it out


def ball_volume(path):
    """The live contract's volume: a bright ball in a band of 40 on -1000 (a CT by its values)."""
    dims = (40, 36, 24)
    values = [1000 + (i % 3) if (i - 20) ** 2 + (j - 18) ** 2 + (k - 12) ** 2 < 64 else (40 if 4 < i < 36 else -1000)
              for k in range(dims[2]) for j in range(dims[1]) for i in range(dims[0])]
    write_nifti(path, dims, (1.0, 1.0, 2.0), values)


def session_labels(path):
    """The label voxels of a .lucent file (runs of value byte + LEB128 length, gzip, base64)."""
    with open(path) as f:
        doc = json.load(f)
    raw = gzip.decompress(base64.b64decode(doc["labels"]["voxels"]))
    out, pos = bytearray(), 0
    while pos < len(raw):
        value, length, shift = raw[pos], 0, 0
        pos += 1
        while True:
            b = raw[pos]
            pos += 1
            length |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        out += bytes([value]) * length
    return bytes(out), doc


def start_viewer(lucent, xvfb, tmp, env, *args):
    """The viewer under Xvfb in the background; returns (process, pid of lucent itself)."""
    pidfile = os.path.join(tmp, "viewer.pid")
    if os.path.exists(pidfile):
        os.remove(pidfile)
    script = '"$@" & echo $! > %s; wait' % pidfile
    proc = subprocess.Popen(xvfb_prefix(xvfb, tmp) + ["sh", "-c", script, "sh", lucent] + list(args),
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    pid = wait_until(lambda: os.path.exists(pidfile) and open(pidfile).read().strip())
    return proc, int(pid) if pid else None


def wait_until(probe):
    end = time.time() + WAIT_S
    while time.time() < end:
        got = probe()
        if got:
            return got
        time.sleep(0.2)
    return None


def kill(proc, pid):
    if pid:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()


def copies(folder):
    return sorted(f for f in os.listdir(folder) if f.endswith(".lucent")) if os.path.isdir(folder) else []


def labelled_copies(folder):
    """The copies that hold label voxels (a copy made while the run was still going holds none)."""
    out = []
    for name in copies(folder):
        with open(os.path.join(folder, name)) as f:
            if "voxels" in json.load(f).get("labels", {}):  # atomic: never a half-written file
                out.append(name)
    return out


def recovery_contract(lucent, xvfb, tmp):
    src = os.path.join(tmp, "recover_src.nii")
    ball_volume(src)
    ref = os.path.join(tmp, "recover_ref.nii")
    rc, _, err = run(lucent, "segment", src, "--method", "srg", *SEG, "-o", ref)
    check(rc == 0, "reference segment: " + err)
    expected = bytes(1 if v else 0 for v in read_nifti(ref)[2])
    env = dict(os.environ, XDG_STATE_HOME=os.path.join(tmp, "state"), XDG_CONFIG_HOME=os.path.join(tmp, "config"),
               LUCENT_AUTOSAVE_S="1")
    folder = os.path.join(tmp, "state", "lucent", "recovery")
    proc, pid = start_viewer(lucent, xvfb, tmp, env, src, "--live", "srg", *SEG, "--accept")
    first = wait_until(lambda: labelled_copies(folder))
    kill(proc, pid)
    check(pid and first, "an accepted result is copied into the recovery folder: %r" % (proc.stderr.read()[-400:],))
    if not first:
        return
    check(("-%d-" % pid) in first[0], "the copy is named after its process: %s (pid %d)" % (first[0], pid))
    labels, doc = session_labels(os.path.join(folder, first[0]))
    check(labels == expected, "the copy's labels are lucent segment's region byte for byte (%d vs %d voxels)"
          % (labels.count(1), expected.count(1)))
    check(doc["data"]["path"] == os.path.abspath(src), "the copy names the data: %r" % doc["data"]["path"])
    # Start again: --recover restores the killed process's copy; the new window copies it at once.
    proc, pid = start_viewer(lucent, xvfb, tmp, env, "--recover")
    second = wait_until(lambda: first[0] not in copies(folder) and labelled_copies(folder))
    kill(proc, pid)
    check(bool(second), "the restored window's copy replaces the killed one: %r" % copies(folder))
    if second:
        again, doc2 = session_labels(os.path.join(folder, second[0]))
        check(again == labels, "restored labels are byte-identical")
        check(doc2["measurements"] == doc["measurements"] and doc2["data"]["path"] == doc["data"]["path"],
              "measurements and data restored")


def oblique_nifti(path, dims, spacing, degrees, values):
    """A NIfTI whose rows turn `degrees` about the patient's z axis (sform): planes differ when resliced."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    hdr = bytearray(352)
    struct.pack_into("<i", hdr, 0, 348)
    struct.pack_into("<8h", hdr, 40, 3, *dims, 1, 1, 1, 1)
    struct.pack_into("<hh", hdr, 70, 4, 16)
    struct.pack_into("<8f", hdr, 76, 1, *spacing, 1, 1, 1, 1)
    struct.pack_into("<f", hdr, 108, 352)
    struct.pack_into("<h", hdr, 254, 1)
    rows = [[c * spacing[0], -s * spacing[1], 0, 5.0], [s * spacing[0], c * spacing[1], 0, -7.0],
            [0, 0, spacing[2], 11.0]]
    for r, row in enumerate(rows):
        struct.pack_into("<4f", hdr, 280 + 16 * r, *row)
    hdr[344:348] = b"n+1\0"
    with open(path, "wb") as f:
        f.write(bytes(hdr) + array.array("h", values).tobytes())


def planes_session(lucent, data, path):
    """A session of `data` with View > Anatomical planes on (its grid as `lucent info` reads it)."""
    rc, out, err = run(lucent, "info", data, "--json")
    s = json.loads(out)["series"][0]
    d = s["direction"]
    grid = {"dims": s["dimensions"], "spacing": s["spacing"], "origin": s["origin"],
            "directionColumns": [d[0:3], d[3:6], d[6:9]]}
    doc = {"format": "lucent-session", "version": 1,
           "data": {"path": data, "series": "", "frame": 0, "grid": grid},
           "display": {"anatomicalPlanes": True, "preset": "abdomen", "window": {"level": 50, "width": 400}}}
    with open(path, "w") as f:
        json.dump(doc, f)


def scripted_settings_contract(lucent, xvfb, tmp):
    """Issue 26: a screenshot after a run with --preset and one after a session with anatomical planes
    equal a fresh one pixel for pixel, and no settings file is left."""
    data = os.path.join(tmp, "order.nii")
    dims = (40, 36, 24)
    oblique_nifti(data, dims, (1.0, 1.0, 2.0), 20.0,
                  [(1000 if (i // 5 + j // 5) % 2 else 40) if 4 < i < 36 else -1000
                   for k in range(dims[2]) for j in range(dims[1]) for i in range(dims[0])])
    session = os.path.join(tmp, "order_planes.lucent")
    planes_session(lucent, data, session)
    config = os.path.join(tmp, "order_config")
    os.makedirs(config)
    env = dict(os.environ, XDG_CONFIG_HOME=config, XDG_STATE_HOME=os.path.join(tmp, "order_state"))

    def shot(name, *args):
        out = os.path.join(tmp, name)
        p = subprocess.run(xvfb_prefix(xvfb, tmp) + [lucent, *args, "--screenshot", out], env=env,
                           capture_output=True, text=True)
        check(p.returncode == 0, "screenshot %s: %r" % (name, p.stderr[-300:]))
        return read_png(out)[2] if p.returncode == 0 else None

    fresh = shot("order_fresh.png", data)
    bone = shot("order_bone.png", data, "--preset", "bone")
    after_preset = shot("order_after_preset.png", data)
    planes = shot("order_planes.png", session)
    after_planes = shot("order_after_planes.png", data)
    check(fresh is not None and bone is not None and fresh != bone, "--preset bone shows another window")
    check(fresh is not None and planes is not None and fresh != planes, "the session's anatomical planes reslice")
    check(after_preset == fresh, "a screenshot after a --preset run equals a fresh one pixel for pixel")
    check(after_planes == fresh, "a screenshot after a run with anatomical planes equals a fresh one")
    left = [os.path.join(r, f) for r, _, fs in os.walk(config) for f in fs]
    check(not left, "scripted runs leave no settings behind: %r" % left)
    check(not os.path.exists(os.path.join(tmp, "order_state")), "nor a recovery copy")
