"""Solution pictures: one small scene description (filled rectangles and text labels on a grid of unit
cells), written as SVG, or as PNG by Pillow (rectangles and text alike).

Every puzzle's picture is a grid of cells with some decoration, so rectangles and labels are enough, and
keeping the scene format-free means each puzzle draws once and gets both formats. A label wider than the
picture is drawn smaller until it fits (both formats measure it the same way).
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field

#: an RGB colour
Pixel = tuple[int, int, int]

WHITE: Pixel = (255, 255, 255)
#: a character's width at most, in units of the font size (the SVG's monospace; the PNG's font, Pillow's
#: default, is narrower), for :func:`fitted`
CHARACTER_WIDTH = 0.6


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: Pixel


@dataclass(frozen=True)
class Label:
    """Text centred on (x, y), or starting there with ``start``; ``size`` in cell units."""

    x: float
    y: float
    text: str
    size: float = 0.5
    colour: Pixel = (0, 0, 0)
    start: bool = False


@dataclass
class Picture:
    """A scene ``width`` x ``height`` cells large; later shapes are drawn over earlier ones."""

    width: float
    height: float
    rects: list[Rect] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    background: Pixel = WHITE
    #: the fewest pixels a cell may have in the PNG for its text to be read (a picture of many panels
    #: is drawn larger than the usual 1200 pixels rather than with captions too small to read)
    least_scale: int = 2

    def rect(self, x: float, y: float, w: float, h: float, fill: Pixel) -> None:
        self.rects.append(Rect(x, y, w, h, fill))

    def label(self, x: float, y: float, text: str, size: float = 0.5, colour: Pixel = (0, 0, 0),
              start: bool = False) -> None:
        self.labels.append(Label(x, y, text, size, colour, start))

    def legend(self, key: list[tuple[Pixel | None, str]], size: float) -> None:
        """Below what is drawn, what its colours mean: each entry a swatch (None: none, a note) and its
        text at font ``size``, as many a line as the width holds; the picture grows to hold them."""
        gap, x, top = 1.5 * size, 0.5 * size, self.height + 0.5 * size
        line = 0
        for colour, text in key:
            width = (1.4 if colour is not None else 0.0) * size + CHARACTER_WIDTH * size * len(text)
            if x > 0.5 * size and x + width > self.width:
                x, line = 0.5 * size, line + 1
            y = top + 1.6 * size * line
            if colour is not None:
                self.rect(x, y, size, size, colour)
                x += 1.4 * size
            self.label(x, y + 0.5 * size, text, size, start=True)
            x += CHARACTER_WIDTH * size * len(text) + gap
        self.height = top + 1.6 * size * (line + 1)


def _escape(text: str) -> str:
    """Text as SVG character data (xml.sax.saxutils.escape, without importing the XML package, which
    costs a command 10 ms of start-up)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _hex(colour: Pixel) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def fitted(label: Label, picture: Picture) -> float:
    """The label's font size, made smaller when its text would reach past the picture's edges from
    where it is placed."""
    room = picture.width - label.x if label.start else 2 * min(label.x, picture.width - label.x)
    widest = 0.98 * max(room, 0.0) / (CHARACTER_WIDTH * max(1, len(label.text)))
    return min(label.size, widest)


def to_svg(picture: Picture, scale: int | None = None) -> str:
    """The picture as SVG at ``scale`` pixels per cell: by default about 800 pixels along the longer side
    (a 5 x 5 jig was 130 pixels wide), at most 96 a cell."""
    scale = scale or max(8, min(96, round(800 / max(picture.width, picture.height))))

    def n(value: float) -> str:
        return f"{value * scale:g}"

    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{n(picture.width)}" height="{n(picture.height)}" '
            f'viewBox="0 0 {n(picture.width)} {n(picture.height)}">'),
           f'<rect width="100%" height="100%" fill="{_hex(picture.background)}"/>']
    out += [f'<rect x="{n(r.x)}" y="{n(r.y)}" width="{n(r.w)}" height="{n(r.h)}" fill="{_hex(r.fill)}"/>'
            for r in picture.rects]
    out += [f'<text x="{n(t.x)}" y="{n(t.y)}" font-size="{n(fitted(t, picture))}" fill="{_hex(t.colour)}" '
            f'font-family="monospace" text-anchor="{"start" if t.start else "middle"}" dominant-baseline="central">'
            f'{_escape(t.text)}</text>'
            for t in picture.labels]
    out.append("</svg>")
    return "\n".join(out) + "\n"


def to_png(picture: Picture, scale: int | None = None) -> bytes:
    """The picture rasterised by Pillow at ``scale`` pixels per cell: by default about 1200 pixels along
    the longer side (and at least 600 for a small grid, so that its labels can be read)."""
    from PIL import Image, ImageDraw, ImageFont

    scale = scale or max(picture.least_scale, min(120, round(1200 / max(picture.width, picture.height))))
    width, height = max(1, round(picture.width * scale)), max(1, round(picture.height * scale))
    image = Image.new("RGB", (width, height), picture.background)
    draw = ImageDraw.Draw(image)
    for r in picture.rects:
        x0, y0 = round(r.x * scale), round(r.y * scale)
        x1, y1 = max(x0 + 1, round((r.x + r.w) * scale)), max(y0 + 1, round((r.y + r.h) * scale))
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=r.fill)
    for t in picture.labels:
        font = ImageFont.load_default(size=max(6, round(fitted(t, picture) * scale)))
        draw.text((t.x * scale, t.y * scale), t.text, fill=t.colour, font=font, anchor="lm" if t.start else "mm")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


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
