"""Solution pictures: one small scene description (filled rectangles and text labels on a grid of unit
cells), written as SVG (everything) or PNG (rectangles only; PNG text would need a font renderer).

Every puzzle's picture is a grid of cells with some decoration, so rectangles are enough, and keeping the
scene format-free means each puzzle draws once and gets both formats.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .png import Pixel, png_bytes

WHITE: Pixel = (255, 255, 255)


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: Pixel


@dataclass(frozen=True)
class Label:
    """Text centred on (x, y); ``size`` in cell units."""

    x: float
    y: float
    text: str
    size: float = 0.5
    colour: Pixel = (0, 0, 0)


@dataclass
class Picture:
    """A scene ``width`` x ``height`` cells large; later shapes are drawn over earlier ones."""

    width: float
    height: float
    rects: list[Rect] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    background: Pixel = WHITE

    def rect(self, x: float, y: float, w: float, h: float, fill: Pixel) -> None:
        self.rects.append(Rect(x, y, w, h, fill))

    def label(self, x: float, y: float, text: str, size: float = 0.5, colour: Pixel = (0, 0, 0)) -> None:
        self.labels.append(Label(x, y, text, size, colour))


def _escape(text: str) -> str:
    """Text as SVG character data (xml.sax.saxutils.escape, without importing the XML package, which
    costs a command 10 ms of start-up)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _hex(colour: Pixel) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def to_svg(picture: Picture, scale: int = 24) -> str:
    def n(value: float) -> str:
        return f"{value * scale:g}"

    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{n(picture.width)}" height="{n(picture.height)}" '
            f'viewBox="0 0 {n(picture.width)} {n(picture.height)}">'),
           f'<rect width="100%" height="100%" fill="{_hex(picture.background)}"/>']
    out += [f'<rect x="{n(r.x)}" y="{n(r.y)}" width="{n(r.w)}" height="{n(r.h)}" fill="{_hex(r.fill)}"/>'
            for r in picture.rects]
    out += [f'<text x="{n(t.x)}" y="{n(t.y)}" font-size="{n(t.size)}" fill="{_hex(t.colour)}" '
            f'font-family="monospace" text-anchor="middle" dominant-baseline="central">{_escape(t.text)}</text>'
            for t in picture.labels]
    out.append("</svg>")
    return "\n".join(out) + "\n"


def to_png(picture: Picture, scale: int | None = None) -> bytes:
    """Rasterise the rectangles (labels are left out) at ``scale`` pixels per cell; by default about
    1200 pixels along the longer side."""
    scale = scale or max(2, min(40, round(1200 / max(picture.width, picture.height))))
    width, height = round(picture.width * scale), round(picture.height * scale)
    canvas = [[picture.background] * width for _ in range(height)]
    for r in picture.rects:
        x0, y0 = round(r.x * scale), round(r.y * scale)
        x1, y1 = max(x0 + 1, round((r.x + r.w) * scale)), max(y0 + 1, round((r.y + r.h) * scale))
        for y in range(max(0, y0), min(height, y1)):
            canvas[y][max(0, x0):min(width, x1)] = [r.fill] * (min(width, x1) - max(0, x0))
    return png_bytes(canvas)


def from_pixels(pixels: list[list[Pixel]]) -> Picture:
    """A picture of a pixel image (one cell per pixel; runs of one colour become one rectangle)."""
    picture = Picture(len(pixels[0]), len(pixels))
    for y, row in enumerate(pixels):
        start = 0
        for x in range(1, len(row) + 1):
            if x == len(row) or row[x] != row[start]:
                picture.rect(start, y, x - start, 1, row[start])
                start = x
    return picture
