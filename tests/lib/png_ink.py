#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Pixels of a colour in a rectangle of a PNG (8-bit RGB or RGBA, not
interlaced: what Chromium's --screenshot writes).  Standard library only.

    png_ink.py [--tol N] FILE.png X0 Y0 X1 Y1 RRGGBB [RRGGBB...]

prints the number of pixels in [X0, X1) x [Y0, Y1) within N (default
12) of one of the colours in each channel, one count per colour.
"""

import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or inter:
                raise ValueError("unsupported PNG (depth %d, type %d)"
                                 % (depth, ctype))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else
                                      b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def main(argv):
    tol = 12
    if argv[0] == "--tol":
        tol, argv = int(argv[1]), argv[2:]
    w, h, bpp, rows = decode(argv[0])
    x0, y0, x1, y1 = (int(v) for v in argv[1:5])
    cols = [tuple(int(c[i:i + 2], 16) for i in (0, 2, 4)) for c in argv[5:]]
    counts = [0] * len(cols)
    for y in range(max(0, y0), min(h, y1)):
        row = rows[y]
        for x in range(max(0, x0), min(w, x1)):
            px = row[x * bpp:x * bpp + 3]
            for k, c in enumerate(cols):
                if all(abs(px[j] - c[j]) <= tol for j in range(3)):
                    counts[k] += 1
    print(" ".join(str(c) for c in counts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
