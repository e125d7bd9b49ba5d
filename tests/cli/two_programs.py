"""@brief `lucent` and lucent-viewer (app/CMakeLists.txt): the headless commands run in a program that
loads none of the viewer's libraries; the viewer, pacs, db and version are handed to lucent-viewer
with the same arguments, streams and exit status; without lucent-viewer those say so and the
headless commands still work. A build without the viewer has one program: version runs in it."""
import os
import shutil
import subprocess

from test_cli import check, read_nifti, run, write_nifti

# Libraries only the viewer needs (Qt, VTK's rendering, OpenGL, X): a headless run must not load them.
VIEWER_ONLY = ("libQt6", "libvtkRendering", "libGL", "libOpenGL", "libX11", "libxcb")


def viewer_program(lucent):
    """Where lucent looks for lucent-viewer: ../libexec/lucent/ from its own folder, as installed."""
    return os.path.normpath(os.path.join(os.path.dirname(os.path.realpath(lucent)), "..", "libexec", "lucent",
                                         "lucent-viewer"))


def loaded_libraries(program):
    p = subprocess.run(["ldd", program], capture_output=True, text=True)
    check(p.returncode == 0, "ldd %s: %s" % (program, p.stderr))
    return [line.split()[0] for line in p.stdout.splitlines() if line.strip()]


def small_volume(tmp):
    dims = (12, 10, 8)
    values = [200 if 3 <= i < 8 and 3 <= j < 7 and 2 <= k < 6 else 0
              for k in range(dims[2]) for j in range(dims[1]) for i in range(dims[0])]
    path = os.path.join(tmp, "two_programs.nii")
    write_nifti(path, dims, (1.0, 1.0, 1.0), values)
    return path, 5 * 4 * 4


def two_programs_contract(lucent, tmp):
    viewer = viewer_program(lucent)
    if not os.path.exists(viewer):
        rc, out, err = run(lucent, "version")
        check(rc == 0 and out.startswith("lucent ") and "DICOMweb" in out,
              "one program (no lucent-viewer at %s): version runs in it: %r" % (viewer, err))
        return
    # The headless program: none of the viewer's libraries; the viewer program has them (the check can fail).
    headless = loaded_libraries(lucent)
    check(not [l for l in headless if l.startswith(VIEWER_ONLY)],
          "lucent loads none of the viewer's libraries: %s" % [l for l in headless if l.startswith(VIEWER_ONLY)])
    check(any(l.startswith("libQt6Widgets") for l in loaded_libraries(viewer)), "lucent-viewer links Qt Widgets")
    # Handed over: output, exit status and the error stream are lucent-viewer's.
    rc, out, err = run(lucent, "version")
    check(rc == 0 and out.startswith("lucent ") and "DICOMweb and study database" in out,
          "lucent version is lucent-viewer's (DICOMweb line): %r %r" % (out, err))
    rc, _, err = run(lucent, "pacs", "bogus")
    check(rc == 2 and "lucent pacs" in err, "a pacs usage error keeps exit code 2 through the hand-over: %d %r" % (rc, err))
    # Without lucent-viewer: the commands it runs say which program is missing; the headless ones work.
    alone = os.path.join(tmp, "alone", "bin")
    os.makedirs(alone, exist_ok=True)
    copy = os.path.join(alone, "lucent")
    shutil.copy2(lucent, copy)
    missing = viewer_program(copy)
    for args in (["version"], ["db", "list"], [os.path.join(tmp, "x.nii")]):
        rc, _, err = run(copy, *args)
        check(rc == 1 and missing in err and "reinstall" in err and err.count("\n") == 1,
              "lucent %s without lucent-viewer: one line naming %s, exit 1: %d %r" % (args[0], missing, rc, err))
    src, box = small_volume(tmp)
    mask = os.path.join(tmp, "two_programs_mask.nii")
    rc, _, err = run(copy, "segment", src, "--method", "srg", "--seed", "4,4,3", "--lower", "100", "--upper", "300",
                     "--backend", "cpu", "-o", mask, "--quiet")
    check(rc == 0 and sum(read_nifti(mask)[2]) == box, "lucent segment runs without lucent-viewer: %r" % err)
