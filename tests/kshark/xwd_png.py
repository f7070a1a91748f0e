#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""xwd_png.py SCREEN.xwd OUT.png [--crop X,Y,W,H] [--runs L] [--foot L]
                  [--count R,G,B ...]

Xvfb's screen (-fbdir writes it as an XWD file, ZPixmap, 24 or 32 bits a
pixel) as a PNG, written with the standard library only.  --count prints,
for each colour given, "R,G,B N": how many pixels of the (cropped) image
have exactly that colour, for tests/e2e/kshark_gui.sh; with --runs L, a
third number: how many pixel columns have L or more pixels of the colour
one above the other (a vertical bar, not a horizontal line).  --foot L
prints "foot N": how many columns have, in the L + 2 rows from the
second above a graph's axis (a row mostly black; KernelShark keeps the
first for its tasks' colours), L pixels or more of the --count colours:
bars standing on the axis, as the plugin's link bars do, under a curve
crossing them.
"""
import struct
import sys
import zlib


def read_xwd(path):
    data = open(path, 'rb').read()
    hdr = struct.unpack('>25I', data[:100])
    (header_size, version, pixmap_format, depth, width, height, _xoff,
     byte_order, _unit, _bit_order, _pad, bits_per_pixel, bytes_per_line,
     _visual, red_mask, green_mask, blue_mask, _bits_rgb, _map_entries,
     ncolors) = hdr[:20]
    if version != 7 or pixmap_format != 2 or bits_per_pixel not in (24, 32):
        sys.exit('%s: not a 24/32-bit ZPixmap XWD file' % path)
    off = header_size + ncolors * 12
    step = bits_per_pixel // 8
    rows = []
    for y in range(height):
        line = data[off + y * bytes_per_line:off + y * bytes_per_line +
                    width * step]
        if byte_order == 0:     # LSBFirst: B G R (X)
            px = bytearray(width * 3)
            px[0::3] = line[2::step]
            px[1::3] = line[1::step]
            px[2::3] = line[0::step]
        else:
            px = bytearray(width * 3)
            px[0::3] = line[step - 3::step]
            px[1::3] = line[step - 2::step]
            px[2::3] = line[step - 1::step]
        rows.append(bytes(px))
    return width, height, rows


def write_png(path, width, height, rows):
    def chunk(kind, body):
        c = kind + body
        return (struct.pack('>I', len(body)) + c +
                struct.pack('>I', zlib.crc32(c) & 0xffffffff))
    raw = b''.join(b'\0' + r for r in rows)
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n')
        f.write(chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2,
                                           0, 0, 0)))
        f.write(chunk(b'IDAT', zlib.compress(raw, 9)))
        f.write(chunk(b'IEND', b''))


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    src, out, rest = args[0], args[1], args[2:]
    width, height, rows = read_xwd(src)
    counts = []
    runs = foot = 0
    while rest:
        opt = rest.pop(0)
        if opt == '--crop':
            x, y, w, h = map(int, rest.pop(0).split(','))
            w, h = min(w, width - x), min(h, height - y)
            rows = [r[x * 3:(x + w) * 3] for r in rows[y:y + h]]
            width, height = w, h
        elif opt == '--foot':
            foot = int(rest.pop(0))
        elif opt == '--runs':
            runs = int(rest.pop(0))
        elif opt == '--count':
            while rest and not rest[0].startswith('--'):
                counts.append(tuple(map(int, rest.pop(0).split(','))))
        else:
            sys.exit('xwd_png.py: unknown option %s' % opt)
    write_png(out, width, height, rows)
    if foot:
        print('foot %d' % foot_bars(width, rows, counts, foot))
    for c in counts:
        pat = bytes(c)
        n = 0
        for r in rows:
            for i in range(0, len(r), 3):
                if r[i:i + 3] == pat:
                    n += 1
        if not runs:
            print('%d,%d,%d %d' % (c + (n,)))
            continue
        cols = 0
        for x in range(0, width * 3, 3):
            run = best = 0
            for r in rows:
                run = run + 1 if r[x:x + 3] == pat else 0
                best = max(best, run)
            cols += best >= runs
        print('%d,%d,%d %d %d' % (c + (n, cols)))


def foot_bars(width, rows, colours, length):
    """Columns with @length pixels of @colours at the foot of an axis."""
    black = bytes(3)
    pats = set(bytes(c) for c in colours)
    axes = [y for y, r in enumerate(rows)
            if sum(r[i:i + 3] == black for i in range(0, len(r), 3)) >
            width // 2]
    n = 0
    for y in axes:
        if y - 1 in axes or y < length + 4:
            continue
        for x in range(0, width * 3, 3):
            n += sum(rows[y - k][x:x + 3] in pats
                     for k in range(2, length + 4)) >= length
    return n


if __name__ == '__main__':
    main()
