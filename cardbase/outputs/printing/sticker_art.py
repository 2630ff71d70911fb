"""Sticker codes drawn as clean antialiased shapes (drawn at 4× and downsampled).

Value stickers (Overseers « Adaptation »): a dot = 1, a dotted circle = 5, a dotted square = 10
and a square carrying k dots = 10·k. Colour symbols: coeur, lune, goutte, rond-plein, trefle,
quatre-carreaux, grappe, fleur, croix-epaisse, carre-plein. Each sticker sits on a white pad with
a thin outline so it reads on any card colour; strips are cached by (stickers, symbol, size).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from cardbase.errors import StickerError

SS = 4  # supersampling factor
# The 4× strip is drawn premultiplied at once: every ink is opaque, so each sample is either an
# opaque colour or (0, 0, 0, 0), the same bytes as drawing in RGBA and converting (tested).
DRAW_MODE = "RGBa"
INK = (24, 24, 28, 255)
PAD = (255, 255, 255, 255)
PAD_EDGE = (120, 120, 120, 255)

# the symbols drawn here (their names are the catalog's: cardbase/catalog/stickers.py)
from cardbase.catalog.stickers import SYMBOL_SHAPES  # noqa: E402


def _circle(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill=INK) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def _ring(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, w: float) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=INK, width=max(1, round(w)))


# dot positions (fractions of the square's inside) for k = 1…9, like dice
_DICE = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.22, 0.22), (0.5, 0.5), (0.78, 0.78)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.24, 0.24), (0.76, 0.24), (0.5, 0.5), (0.24, 0.76), (0.76, 0.76)],
    6: [(0.28, 0.2), (0.72, 0.2), (0.28, 0.5), (0.72, 0.5), (0.28, 0.8), (0.72, 0.8)],
}


def _grid_dots(k: int) -> list[tuple[float, float]]:
    if k in _DICE:
        return _DICE[k]
    cols = math.ceil(math.sqrt(k))
    rows = math.ceil(k / cols)
    out = []
    for i in range(k):
        r, c = divmod(i, cols)
        n_in_row = min(cols, k - r * cols)
        x = (c + 0.5 + (cols - n_in_row) / 2) / cols
        out.append((x, (r + 0.5) / rows))
    return out


def _value_sticker(d: ImageDraw.ImageDraw, x: float, y: float, s: float, kind: str, dots: int) -> None:
    cx, cy = x + s / 2, y + s / 2
    if kind == "dot":
        _circle(d, cx, cy, s * 0.2)
    elif kind == "circle":
        _ring(d, cx, cy, s * 0.36, s * 0.085)
        _circle(d, cx, cy, s * 0.12)
    else:
        half = s * 0.37
        w = max(1, round(s * 0.085))
        d.rectangle((cx - half, cy - half, cx + half, cy + half), outline=INK, width=w)
        inner = 2 * half - 2 * w
        left, top = cx - half + w, cy - half + w
        pts = _grid_dots(dots)
        r = inner * (0.13 if dots <= 4 else 0.1 if dots <= 9 else 0.38 / math.ceil(math.sqrt(dots)))
        for fx, fy in pts:
            _circle(d, left + fx * inner, top + fy * inner, r)


def _heart(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(96):
        t = 2 * math.pi * i / 96
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        pts.append((cx + x * r / 17, cy - y * r / 17 - r * 0.08))
    return pts


def _drop(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    # a round bottom and a pointed top, joined along the tangents from the tip
    rc = r * 0.66
    ccy = cy + r - rc
    tip = (cx, cy - r)
    a = math.asin(rc / (ccy - tip[1]))
    pts = [tip]
    steps = 72
    for i in range(steps + 1):
        ang = -a + (math.pi + 2 * a) * i / steps  # y grows downwards: π/2 is the bottom
        pts.append((cx + rc * math.cos(ang), ccy + rc * math.sin(ang)))
    return pts


def _crescent(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    # the outer circle's points outside the cut-out circle, then the cut-out's inside the outer
    ox, oy, orr = cx + r * 0.42, cy - r * 0.3, r * 0.82
    pts = []
    n = 180
    for i in range(n + 1):
        t = 2 * math.pi * i / n
        x, y = cx + r * math.cos(t), cy + r * math.sin(t)
        if (x - ox) ** 2 + (y - oy) ** 2 >= orr**2:
            pts.append((t, x, y))
    # rotate so the outer arc is contiguous
    ts = [p[0] for p in pts]
    gaps = [(ts[(i + 1) % len(ts)] - ts[i]) % (2 * math.pi) for i in range(len(ts))]
    k = max(range(len(gaps)), key=gaps.__getitem__)
    outer = pts[k + 1:] + pts[:k + 1]
    start = math.atan2(outer[-1][2] - oy, outer[-1][1] - ox)
    end = math.atan2(outer[0][2] - oy, outer[0][1] - ox)
    span = (start - end) % (2 * math.pi)
    inner = []
    for i in range(1, 60):
        t = start - span * i / 60
        inner.append((ox + orr * math.cos(t), oy + orr * math.sin(t)))
    return [(x, y) for _, x, y in outer] + inner


def _symbol(d: ImageDraw.ImageDraw, x: float, y: float, s: float, key: str) -> None:
    cx, cy = x + s / 2, y + s / 2
    r = s * 0.38
    if key == "coeur":
        d.polygon(_heart(cx, cy, r), fill=INK)
    elif key == "lune":
        d.polygon(_crescent(cx, cy, r), fill=INK)
    elif key == "goutte":
        d.polygon(_drop(cx, cy, r), fill=INK)
    elif key == "rond-plein":
        _circle(d, cx, cy, r * 0.92)
    elif key == "trefle":
        lr = r * 0.38
        _circle(d, cx, cy - r * 0.42, lr)
        _circle(d, cx - r * 0.45, cy + r * 0.1, lr)
        _circle(d, cx + r * 0.45, cy + r * 0.1, lr)
        _circle(d, cx, cy, lr * 0.6)
        d.polygon([(cx - r * 0.08, cy), (cx + r * 0.08, cy), (cx + r * 0.22, cy + r),
                   (cx - r * 0.22, cy + r)], fill=INK)
    elif key == "quatre-carreaux":
        g = r * 0.16
        q = r - g / 2
        for dx in (-1, 1):
            for dy in (-1, 1):
                x0 = cx + (g / 2 if dx > 0 else -r)
                y0 = cy + (g / 2 if dy > 0 else -r)
                d.rectangle((x0, y0, x0 + q, y0 + q), fill=INK)
    elif key == "grappe":
        gr = r * 0.22
        rows = [(-0.3, [-0.46, 0.0, 0.46]), (0.12, [-0.23, 0.23]), (0.52, [0.0])]
        for fy, xs in rows:
            for fx in xs:
                _circle(d, cx + fx * r, cy + fy * r, gr)
        d.line((cx, cy - r * 0.5, cx + r * 0.12, cy - r), fill=INK, width=max(1, round(s * 0.07)))
        d.polygon([(cx + r * 0.06, cy - r * 0.72), (cx + r * 0.62, cy - r * 0.98),
                   (cx + r * 0.44, cy - r * 0.62)], fill=INK)
    elif key == "fleur":
        pr = r * 0.36
        for i in range(5):
            a = -math.pi / 2 + 2 * math.pi * i / 5
            _circle(d, cx + math.cos(a) * r * 0.58, cy + math.sin(a) * r * 0.58, pr)
        _circle(d, cx, cy, r * 0.27, fill=PAD)
        _circle(d, cx, cy, r * 0.14)
    elif key == "croix-epaisse":
        t = r * 0.36
        d.rectangle((cx - t, cy - r, cx + t, cy + r), fill=INK)
        d.rectangle((cx - r, cy - t, cx + r, cy + t), fill=INK)
    elif key == "carre-plein":
        h = r * 0.85
        d.rectangle((cx - h, cy - h, cx + h, cy + h), fill=INK)
    else:
        raise StickerError(_no_drawing(key))


def _no_drawing(symbol: str) -> str:
    from cardbase.i18n import tr

    return tr("printing.no_symbol_drawing", symbol=symbol, symbols=", ".join(SYMBOL_SHAPES))


def _pad(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
    rad = min(w, h) * 0.22
    d.rounded_rectangle((x, y, x + w, y + h), radius=rad, fill=PAD, outline=PAD_EDGE,
                        width=max(1, round(h * 0.035)))


@lru_cache(maxsize=2048)
def sticker_strip(stickers: tuple[tuple[str, int], ...], symbol: str | None, height: int,
                  max_width: int) -> Image.Image:
    """An RGBA strip: the value stickers, a gap, then the colour symbol; fits ``max_width``."""
    if symbol is not None and symbol not in SYMBOL_SHAPES:
        raise StickerError(_no_drawing(symbol))
    tiles: list[tuple[str, object, float]] = []  # (kind, arg, width in units of s)
    for kind, dots in stickers:
        tiles.append(("value", (kind, dots), 0.62 if kind == "dot" else 1.0))
    gap, group_gap = 0.12, 0.45
    total = sum(w for _, _, w in tiles) + gap * max(0, len(tiles) - 1)
    if symbol:
        total += (group_gap if tiles else 0) + 1.0
    if total == 0:
        return Image.new("RGBA", (1, 1), (0, 0, 0, 0))
    s = min(float(height), max_width / total)
    width = max(1, math.ceil(total * s))
    big = Image.new(DRAW_MODE, (width * SS, max(1, round(s)) * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    S = s * SS
    x = 0.0
    for i, (_, arg, w) in enumerate(tiles):
        kind, dots = arg  # type: ignore[misc]
        _pad(d, x + S * 0.02, S * 0.02, w * S - S * 0.04, S * 0.96)
        if kind == "dot":
            _value_sticker(d, x + (w * S - S) / 2, 0, S, kind, dots)
        else:
            _value_sticker(d, x, 0, S, kind, dots)
        x += w * S + (gap * S if i < len(tiles) - 1 else 0)
    if symbol:
        if tiles:
            x += group_gap * S
        _pad(d, x + S * 0.02, S * 0.02, S * 0.96, S * 0.96)
        _symbol(d, x, 0, S, symbol)
    # box-average the 4×4 samples (premultiplied, so transparent edges do not darken)
    if big.mode != "RGBa":
        big = big.convert("RGBa")
    return big.reduce(SS).convert("RGBA")


def strip_for(stickers: Sequence[object], symbol: str | None, height: int, max_width: int) -> Image.Image:
    """``sticker_strip`` for ``cardbase.catalog.stickers.Sticker`` values."""
    key = tuple((st.kind, st.dots) for st in stickers)  # type: ignore[attr-defined]
    return sticker_strip(key, symbol, height, max_width)
