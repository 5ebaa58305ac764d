"""The app's icons, drawn here rather than shipped as pictures: a green felt square with a white card and a red heart.

`png(size)` gives the PNG bytes (standard library only: zlib and struct); `SVG` is the same picture as SVG.
"""

from __future__ import annotations

import struct
import zlib

FELT = (22, 101, 52)
CARD = (255, 255, 255)
HEART = (200, 30, 45)

SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
<rect width="512" height="512" fill="#166534"/>
<rect x="136" y="88" width="240" height="336" rx="28" fill="#fff"/>
<path d="M256 330 C140 250 170 160 226 176 C244 181 252 196 256 206 C260 196 268 181 286 176 C342 160 372 250 256 330 Z" fill="#c81e2d"/>
</svg>
"""


def _pixel(x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y), both from 0 to 1 across the icon."""
    if 0.266 <= x <= 0.734 and 0.172 <= y <= 0.828:
        corner = 0.055
        cx = min(max(x, 0.266 + corner), 0.734 - corner)
        cy = min(max(y, 0.172 + corner), 0.828 - corner)
        if (x - cx) ** 2 + (y - cy) ** 2 <= corner**2:
            hx, hy = (x - 0.5) / 0.19, (0.47 - y) / 0.19
            if (hx * hx + hy * hy - 1) ** 3 - hx * hx * hy**3 <= 0:
                return HEART
            return CARD
    return FELT


def png(size: int) -> bytes:
    """The icon as a square PNG of `size` pixels."""
    rows = bytearray()
    for row in range(size):
        rows.append(0)
        for column in range(size):
            rows.extend(_pixel((column + 0.5) / size, (row + 0.5) / size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")
