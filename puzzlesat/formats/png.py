"""A dependency-free PNG writer (zlib + struct) for solution pictures."""
from __future__ import annotations

import struct
import zlib

Pixel = tuple[int, int, int]


def png_bytes(pixels: list[list[Pixel]], scale: int = 1) -> bytes:
    """An 8-bit RGB PNG of ``pixels`` (rows of (r, g, b)), each pixel drawn as a ``scale`` x ``scale`` block."""
    height, width = len(pixels) * scale, len(pixels[0]) * scale
    raw = bytearray()
    for row in pixels:
        line = b"\x00" + b"".join(bytes(p) * scale for p in row)  # filter type 0 per scanline
        raw += line * scale

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 6)) + chunk(b"IEND", b"")
