"""@brief `lucent PATH --screenshot` read back pixel by pixel: --layout sets the panes, --preset the
window that maps values to greys, --mask tints the mask's voxels with its label's colour.

The volume: value 40 where i < 20, 1000 elsewhere; the mask: label 1 where i < 20 and j < 18. So a
view shows two grey halves, and the mask covers exactly one half of the 40-valued half."""
import os
from collections import Counter

from png_pixels import read_png
from test_cli import check, run, write_nifti, xvfb_prefix

DIMS = (40, 36, 24)
WINDOWS = {"brain": (40, 80), "bone": (500, 2000)}  # (level, width), the CT presets the help names
LABEL_1 = (230, 40, 40)  # label 1's default colour (red), drawn at the default mask opacity 0.5


def grey(value, preset):
    level, width = WINDOWS[preset]
    g = min(1.0, max(0.0, (value - (level - width / 2.0)) / width))
    return (round(255 * g),) * 3


def tinted(rgb):
    return tuple(round(c + 0.5 * (l - c)) for c, l in zip(rgb, LABEL_1))


def near(a, b, tol=2):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def ui_grey(p):
    """The window's own light greys (menus, tool bar, status bar, the borders between panes)."""
    return p[0] == p[1] == p[2] and 225 <= p[0] <= 250


def view_area(rows):
    """(top, bottom) rows of the views: the first and last rows that are mostly not the window's grey."""
    width = len(rows[0])
    content = [y for y, row in enumerate(rows) if sum(ui_grey(p) for p in row) < width // 2]
    return content[0], content[-1]


def panes(rows):
    """Boxes (x0, y0, x1, y1) of the regions of the view area that the window's grey borders separate,
    each at least 2 % of the area (a flood fill, 4-connected), as fractions of their union."""
    top, bottom = view_area(rows)
    width, height = len(rows[0]), bottom - top + 1
    wall = bytearray(ui_grey(p) for y in range(top, bottom + 1) for p in rows[y])
    seen, boxes = bytearray(len(wall)), []
    for start in range(len(wall)):
        if wall[start] or seen[start]:
            continue
        seen[start], stack, count = 1, [start], 0
        x0, y0, x1, y1 = width, height, -1, -1
        while stack:
            n = stack.pop()
            count += 1
            x, y = n % width, n // width
            x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
            for m in ((n - 1) if x > 0 else -1, (n + 1) if x + 1 < width else -1, n - width, n + width):
                if 0 <= m < len(wall) and not wall[m] and not seen[m]:
                    seen[m] = 1
                    stack.append(m)
        if count >= 0.02 * len(wall):
            boxes.append((x0, y0, x1 + 1, y1 + 1))
    if not boxes:
        return []
    # As fractions of the panes' union: the rows above them (tool bar) do not count.
    ux0, uy0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    w, h = max(b[2] for b in boxes) - ux0, max(b[3] for b in boxes) - uy0
    return sorted(((b[0] - ux0) / w, (b[1] - uy0) / h, (b[2] - ux0) / w, (b[3] - uy0) / h) for b in boxes)


def big_colours(rows, share=0.05):
    """Colours that each cover at least `share` of the view area."""
    top, bottom = view_area(rows)
    counts = Counter(p for y in range(top, bottom + 1) for p in rows[y])
    total = sum(counts.values())
    return {c: n for c, n in counts.items() if n >= share * total}


def same_colours(got, expected):
    return len(got) == len(expected) and all(any(near(g, e) for g in got) for e in expected)


def where(rows, colour, least=50):
    """(columns, rows, count) of one colour: the columns and rows that hold at least `least` of its
    pixels, so the anti-aliased edges of text (menus, the views' captions) do not count."""
    xs, ys, n = Counter(), Counter(), 0
    for y, row in enumerate(rows):
        for x, p in enumerate(row):
            if near(p, colour):
                xs[x] += 1
                ys[y] += 1
                n += 1
    return {x for x, c in xs.items() if c >= least}, {y for y, c in ys.items() if c >= least}, n


def layout_checks(name, boxes):
    """1x1: one pane; 2x2: four equal quarters; 1+3: a large pane and three stacked beside it."""
    def close(a, b):
        return abs(a - b) < 0.03

    if name == "1x1":
        return len(boxes) == 1
    if name == "2x2":
        return len(boxes) == 4 and all(close(b[2] - b[0], 0.5) and close(b[3] - b[1], 0.5) for b in boxes) and \
            sorted((round(b[0] * 2), round(b[1] * 2)) for b in boxes) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    big = [b for b in boxes if b[3] - b[1] > 0.9]
    small = [b for b in boxes if close(b[3] - b[1], 1 / 3.0)]
    return len(boxes) == 4 and len(big) == 1 and len(small) == 3 and close(big[0][2] - big[0][0], 0.75) and \
        all(b[0] >= big[0][2] for b in small)


def screenshot_pixels_contract(lucent, xvfb, tmp):
    values = [40 if i < 20 else 1000 for k in range(DIMS[2]) for j in range(DIMS[1]) for i in range(DIMS[0])]
    src = os.path.join(tmp, "halves.nii")
    write_nifti(src, DIMS, (1.0, 1.0, 2.0), values)
    mask = os.path.join(tmp, "halves_mask.nii")
    write_nifti(mask, DIMS, (1.0, 1.0, 2.0),
                [int(i < 20 and j < 18) for k in range(DIMS[2]) for j in range(DIMS[1]) for i in range(DIMS[0])])
    shots = {}
    for layout, preset, with_mask in (("1x1", "brain", True), ("1x1", "bone", False), ("2x2", "brain", True),
                                      ("1+3", "brain", True)):
        out = os.path.join(tmp, "px_%s_%s.png" % (layout.replace("+", "p"), preset))
        rc, _, err = run(*xvfb_prefix(xvfb, tmp), lucent, src, "--screenshot", out, "--layout", layout, "--preset",
                         preset, *(["--mask", mask] if with_mask else []))
        check(rc == 0 and os.path.exists(out), "screenshot --layout %s --preset %s: %r" % (layout, preset, err[-300:]))
        shots[layout, preset] = read_png(out)[2] if rc == 0 and os.path.exists(out) else [[(0, 0, 0)]]
    for (layout, preset), rows in shots.items():
        boxes = panes(rows)
        check(layout_checks(layout, boxes), "--layout %s: its panes, between the window's borders: %s"
              % (layout, [tuple(round(v, 2) for v in b) for b in boxes]))
    # 1x1 shows the axial slice alone: the greys the preset's window gives 40 and 1000, the black
    # around the volume, and with --mask the tint over the masked half of the 40s.
    brain, bone = shots["1x1", "brain"], shots["1x1", "bone"]
    expected = {(0, 0, 0), grey(1000, "bone"), grey(40, "bone")}
    got = big_colours(bone)
    check(same_colours(got, expected), "--preset bone: 40 and 1000 drawn as %s: %s" % (sorted(expected), sorted(got)))
    expected = {(0, 0, 0), grey(1000, "brain"), grey(40, "brain"), tinted(grey(40, "brain"))}
    got = big_colours(brain)
    check(same_colours(got, expected), "--preset brain --mask: 40, 1000 and the tinted 40s drawn as %s: %s"
          % (sorted(expected), sorted(got)))
    check(where(bone, tinted(grey(40, "bone")))[2] == 0 and where(bone, tinted(grey(1000, "bone")))[2] == 0,
          "without --mask nothing is tinted")
    xs_mask, ys_mask, n_mask = where(brain, tinted(grey(40, "brain")))
    xs_40, ys_40, n_40 = where(brain, grey(40, "brain"))
    xs_1000, _, _ = where(brain, grey(1000, "brain"))
    check(n_mask > 0 and xs_mask == xs_40 and not xs_mask & xs_1000 and not ys_mask & ys_40 and
          abs(n_mask - n_40) < 0.02 * n_40, "--mask tints the masked half of the 40s, in their columns and not "
          "their rows, nothing of the 1000s: %d tinted, %d plain" % (n_mask, n_40))
