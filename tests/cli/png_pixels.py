"""@brief A PNG reader for the screenshot checks (standard library: zlib): 8-bit grey, RGB or RGBA,
not interlaced, which is what Qt writes."""
import struct
import zlib


def read_png(path):
    """(width, height, rows): rows[y][x] is an (r, g, b) tuple."""
    raw = open(path, "rb").read()
    if raw[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s is not a PNG file" % path)
    pos, data, head = 8, b"", None
    while pos < len(raw):
        length, kind = struct.unpack(">I4s", raw[pos:pos + 8])
        body = raw[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            data += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = head
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
    if depth != 8 or interlace:
        raise ValueError("%s: %d-bit or interlaced PNG not read here" % (path, depth))
    return width, height, unfilter(zlib.decompress(data), width, height, channels)


def unfilter(data, width, height, channels):
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind = data[y * (stride + 1)]
        line = bytearray(data[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if channels < 3:
            rows.append([(v, v, v) for v in line[::channels]])
        else:
            rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
    return rows
