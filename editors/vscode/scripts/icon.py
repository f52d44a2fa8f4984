#!/usr/bin/env python3
"""Draws the extension's icon, a ball of thread (a clew) on a teal tile, as
a 128x128 PNG with only the standard library:

    python3 editors/vscode/scripts/icon.py editors/vscode/images/icon.png
"""
import math
import struct
import sys
import zlib

SIZE, SS = 128, 4  # pixels, supersamples per axis
TEAL, CREAM = (31, 111, 120), (244, 239, 225)


def in_tile(x, y):
    r, lo, hi = 22, 4, 124
    cx, cy = min(max(x, lo + r), hi - r), min(max(y, lo + r), hi - r)
    return lo <= x <= hi and lo <= y <= hi and (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def near_ring(x, y, cx, cy, r, w):
    return abs(math.hypot(x - cx, y - cy) - r) <= w / 2


def near_curve(x, y, pts, w):
    # the thread's loose end: a quadratic Bezier sampled densely
    (x0, y0), (x1, y1), (x2, y2) = pts
    for i in range(65):
        t = i / 64
        bx = (1 - t) ** 2 * x0 + 2 * (1 - t) * t * x1 + t * t * x2
        by = (1 - t) ** 2 * y0 + 2 * (1 - t) * t * y1 + t * t * y2
        if (x - bx) ** 2 + (y - by) ** 2 <= (w / 2) ** 2:
            return True
    return False


def thread(x, y):
    cx, cy, r = 58, 58, 34
    if near_ring(x, y, cx, cy, r, 7):
        return True
    if math.hypot(x - cx, y - cy) < r:
        # windings: rings of other centres, clipped to the ball
        for ox, oy, rr in ((-14, 10, 30), (12, -12, 28), (6, 16, 24)):
            if near_ring(x, y, cx + ox, cy + oy, rr, 4.5):
                return True
    return near_curve(x, y, ((84, 82), (96, 112), (118, 104)), 6)


def pixel(px, py):
    acc = [0, 0, 0, 0]
    for sy in range(SS):
        for sx in range(SS):
            x, y = px + (sx + 0.5) / SS, py + (sy + 0.5) / SS
            if thread(x, y):
                c, a = CREAM, 255
            elif in_tile(x, y):
                c, a = TEAL, 255
            else:
                continue
            for i in range(3):
                acc[i] += c[i] * a
            acc[3] += a
    n = SS * SS
    if acc[3] == 0:
        return (0, 0, 0, 0)
    return tuple(round(acc[i] / acc[3]) for i in range(3)) + (round(acc[3] / n),)


def png(rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\0" + bytes(v for p in row for v in p) for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", SIZE, SIZE, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    rows = [[pixel(x, y) for x in range(SIZE)] for y in range(SIZE)]
    with open(sys.argv[1], "wb") as f:
        f.write(png(rows))
