"""@brief A full disk for the CLI: `lucent convert` and `lucent segment -o` under a shell's `ulimit -f`
(SIGXFSZ at its default action, as an interactive shell leaves it) print one line naming the file,
exit 1, leave no partial output and keep a file already at the target byte for byte.

Standard library only, as test_cli.py (whose helpers these are).
"""
import os
import subprocess

from test_cli import check, write_nifti

DIMS = (24, 20, 16)  # int16: 15 KiB of voxels, more than the limit below


def under_ulimit(kib, lucent, *args):
    """`lucent ARGS` from bash after `ulimit -f KIB` (1024-byte blocks)."""
    script = 'ulimit -f %d && exec "$@"' % kib
    p = subprocess.run(["bash", "-c", script, "bash", lucent] + [str(a) for a in args], capture_output=True, text=True)
    return p.returncode, p.stderr


def full_disk_contract(lucent, tmp):
    folder = os.path.join(tmp, "full_disk")
    os.makedirs(folder)
    values = [300 if 6 <= i < 18 and 5 <= j < 15 and 4 <= k < 12 else (i + j) % 3
              for k in range(DIMS[2]) for j in range(DIMS[1]) for i in range(DIMS[0])]
    src = os.path.join(tmp, "full_disk_src.nii")
    write_nifti(src, DIMS, (1.0, 1.0, 2.0), values)
    previous = b"an earlier file at the target\n"
    srg = ["--method", "srg", "--seed", "10,10,8", "--lower", "250", "--upper", "400"]
    for name, args, kept in (("new.nii", ["convert", src], None),
                             ("old.nii", ["convert", src], previous),
                             ("mask.nii", ["segment", src] + srg, None),
                             ("old_mask.nii", ["segment", src] + srg, previous)):
        out = os.path.join(folder, name)
        if kept is not None:
            with open(out, "wb") as f:
                f.write(kept)
        rc, err = under_ulimit(4, lucent, *args, "-o", out)
        lines = err.strip().splitlines()
        left = sorted(n for n in os.listdir(folder) if ".partial-" in n)
        with_file = open(out, "rb").read() if os.path.exists(out) else None
        check(rc == 1 and len(lines) == 1 and name in lines[0] and "File too large" in lines[0],
              "%s -o %s under ulimit -f 4: exit 1 and one line naming the file: exit %d, %r" % (args[0], name, rc, err))
        check(not left and with_file == kept,
              "%s -o %s under ulimit -f 4: no partial file (%s), the target as it was (%r)"
              % (args[0], name, left, None if with_file is None else with_file[:40]))
    # Room again: the same command writes its output.
    out = os.path.join(folder, "old.nii")
    rc, err = under_ulimit(1024, lucent, "convert", src, "-o", out)
    check(rc == 0 and os.path.getsize(out) > 15 * 1024, "convert with room: exit %d, %r" % (rc, err))
