"""Text that wraps and shrinks to fit its box, and never overflows it.

``fit_text`` tries font sizes from the template's size down to its minimum (binary search on
whole pixel sizes), wrapping words to the box width; a word wider than the box is broken between
letters. Text never leaves its box and is never printed below the region's ``min_size_pt`` (the
template's own minimum for readable text): when even that size cannot hold the text, it raises a
``TemplateError`` that names the card, the region and the template, so the designer shortens the
text or changes the template. Nothing unreadable is ever printed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import ImageDraw, ImageFont

from cardbase.errors import TemplateError
from cardbase.i18n import tr
from cardbase.outputs.printing.fonts import get_font, text_width
from cardbase.outputs.printing.units import mm_to_px, pt_to_px


class TextTooLong(TemplateError):
    """A text that cannot fit its box at the template's minimum size."""


FLOOR_PT = 3.0  # nothing is ever printed smaller than this, whatever a template's minimum
# One rule for every output: whether a text fits at its minimum size is judged at the resolution
# of ``cardbase print`` whatever the output's own (a preview, a TTS sheet, a 600 dpi shop file, a
# 100 dpi proof); whole-pixel font sizes made the verdict change with the resolution (ruling T7).
FIT_DPI = 300
_SPACES = re.compile(r"[ \t]+")
# French typography: no line break before ; : ! ? » or after «
_NBSP_BEFORE = re.compile(r"[ \t]+([;:!?»])")
_NBSP_AFTER = re.compile(r"(«)[ \t]+")


@dataclass(slots=True, frozen=True)
class Paragraph:
    text: str
    font: str = "regular"  # style name or font path
    colour: str | None = None
    gap_before: float = 0.35  # in line heights
    rich: object | None = None  # a ``cardbase.catalog.richtext.Parsed``: styled runs and symbols


@dataclass(slots=True, frozen=True)
class Line:
    text: str
    x: float  # left of the line's advance box, px, relative to the box
    y: float  # top of the line, px
    width: float
    height: float
    font: ImageFont.FreeTypeFont
    colour: str | None
    pieces: tuple = ()  # rich text: (dx, text or None, font, image or None, dy) from the line's left


@dataclass(slots=True, frozen=True)
class Layout:
    lines: tuple[Line, ...]
    size_px: int
    width: float
    height: float  # total height of the text block
    shrunk_below_min: bool


def _break_word(word: str, font: ImageFont.FreeTypeFont, width: float) -> list[str]:
    parts, cur = [], ""
    for ch in word:
        if cur and font.getlength(cur + ch) > width:
            parts.append(cur)
            cur = ch
        else:
            cur += ch
    if cur:
        parts.append(cur)
    return parts


def wrap(text: str, font: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """Greedy word wrap to ``width`` pixels; explicit newlines start new lines.

    Line widths are estimated from word widths; callers check the real width of the result.
    """
    lines: list[str] = []
    space = text_width(font, " ")
    text = _NBSP_AFTER.sub("\\1\u00a0", _NBSP_BEFORE.sub("\u00a0\\1", text))
    for raw in text.split("\n"):
        words = [w for w in _SPACES.split(raw) if w]
        if not words:
            lines.append("")
            continue
        cur: list[str] = []
        cur_w = 0.0
        for word in words:
            ww = text_width(font, word)
            pieces = _break_word(word, font, width) if ww > width else [word]
            for i, piece in enumerate(pieces):
                pw = ww if len(pieces) == 1 else text_width(font, piece)
                if cur and (i > 0 or cur_w + space + pw > width):
                    lines.append(" ".join(cur))
                    cur, cur_w = [], 0.0
                cur_w = pw if not cur else cur_w + space + pw
                cur.append(piece)
        if cur:
            lines.append(" ".join(cur))
    return lines


Row = tuple  # (text, font, colour, y, pieces, width or None)
_UNMADE = object()  # a rich row whose pieces are not made yet: (atoms, font, colour, y, margin, _UNMADE)
_LAYOUTS: dict[tuple, tuple[list[Row], float, float]] = {}  # the last layouts, by their arguments
_LAYOUTS_KEPT = 256


def _layout_at(paragraphs: Sequence[Paragraph], size_px: int, width: float, spacing: float,
               base_dir: Path | None) -> tuple[list[Row], float, float]:
    """The rows of ``paragraphs`` at ``size_px`` in ``width`` pixels and their height; rich rows
    are left unmade (``_made`` makes them), as a size that does not fit needs only the height.
    The last layouts are kept: a text that grows into the art is tried again at the same sizes
    and width in a taller box."""
    key = (tuple(paragraphs), size_px, width, spacing, base_dir)
    found = _LAYOUTS.get(key)
    if found is None:
        found = _lay_out(paragraphs, size_px, width, spacing, base_dir)
        if len(_LAYOUTS) >= _LAYOUTS_KEPT:
            _LAYOUTS.clear()
        if _LAYOUTS_KEPT:
            _LAYOUTS[key] = found
    return found


def _lay_out(paragraphs: Sequence[Paragraph], size_px: int, width: float, spacing: float,
             base_dir: Path | None) -> tuple[list[Row], float, float]:
    rows: list[Row] = []
    y = 0.0
    widest = 0.0
    first = True
    for para in paragraphs:
        if not para.text.strip():
            continue
        font = get_font(para.font, size_px, base_dir=base_dir)
        ascent, descent = font.getmetrics()
        line_h = ascent + descent
        step = line_h * spacing
        if not first:
            y += step * para.gap_before
        if para.rich is not None:
            from cardbase.outputs.printing.richdraw import break_rich

            lines, margin = break_rich(para.rich, para.font, size_px, width, base_dir)
            for atoms in lines:
                rows.append((atoms, font, para.colour, y, margin, _UNMADE))
                y += step
        else:
            for line in wrap(para.text, font, width):
                rows.append((line, font, para.colour, y, (), None))
                y += step
        y += line_h - step  # the last line needs only its own height, not the spacing
        first = False
    return rows, y, widest


def _made(rows: list[Row]) -> list[Row]:
    """The rows with the pieces of their rich lines made."""
    if not any(row[5] is _UNMADE for row in rows):
        return rows
    from cardbase.outputs.printing.richdraw import assemble_line

    out = []
    for row in rows:
        if row[5] is _UNMADE:
            text, pieces, w = assemble_line(row[0], row[4])
            row = (text, row[1], row[2], row[3], pieces, w)
        out.append(row)
    return out


def _row_width(row: Row) -> float:
    return row[5] if row[5] is not None else text_width(row[1], row[0])


def _real_widest(rows: list[Row]) -> float:
    return max((_row_width(row) for row in rows), default=0.0)


def fit_text(paragraphs: Sequence[Paragraph], width: float, height: float, *, size_pt: float,
             min_size_pt: float, dpi: float, align: str = "left", valign: str = "top",
             line_spacing: float = 1.12, max_lines: int = 0, base_dir: Path | None = None,
             where: str | Callable[[], str] = "",
             box_mm: tuple[float, float] | None = None) -> Layout:
    """Lay out ``paragraphs`` in a ``width`` × ``height`` pixel box at the largest size that fits,
    never smaller than ``min_size_pt`` (nor :data:`FLOOR_PT`). Away from :data:`FIT_DPI`, whether
    it fits at all is judged at FIT_DPI in the box of ``box_mm`` (width, height in millimetres;
    the pixel box scaled when not given), so that every output refuses what print refuses."""
    hi = max(1, int(pt_to_px(size_pt, dpi)))
    # the minimum rounded up: whole pixels never take the text under the template's minimum (a
    # 5 pt minimum is 20.8 px at 300 dpi: 20 px printed 4.8 pt, 21 px prints 5.04 pt)
    lo_pref = max(1, math.ceil(pt_to_px(max(min_size_pt, FLOOR_PT), dpi) - 1e-6))
    floor = min(lo_pref, hi)

    def fits(size: int) -> tuple[bool, tuple]:
        rows, h, _ = _layout_at(paragraphs, size, width, line_spacing, base_dir)
        ok = h <= height + 1e-6 and (not max_lines or len(rows) <= max_lines)
        w = 0.0
        if ok:  # wrapping estimates widths word by word: check the real width of each line
            rows = _made(rows)
            w = _real_widest(rows)
            ok = w <= width + 1e-6
        return ok, (rows, h, w)

    def too_long() -> TextTooLong:
        nonlocal where
        if callable(where):  # named only when needed: formatting it costs on every card
            where = where()
        return TextTooLong(tr(
            "printing.text_too_long", where=where or tr("printing.text_where_unknown"),
            chars=sum(len(p.text) for p in paragraphs),
            min_pt=f"{max(min_size_pt, FLOOR_PT):g}"))

    def fits_for_print() -> bool:
        """Whether ``cardbase print`` (FIT_DPI) would fit the text in the same box in mm."""
        k = FIT_DPI / dpi
        if box_mm is not None:  # the box as print rounds it, not this output's pixels scaled
            w_ref, h_ref = (float(mm_to_px(v, FIT_DPI)) for v in box_mm)
        else:
            w_ref, h_ref = width * k, height * k
        sizes = {max(1, math.ceil(pt_to_px(max(min_size_pt, FLOOR_PT), FIT_DPI) - 1e-6)),
                 max(1, int(pt_to_px(size_pt, FIT_DPI)))}
        for size in sorted(sizes):
            rows, h, _ = _layout_at(paragraphs, size, w_ref, line_spacing, base_dir)
            if (h <= h_ref + 1e-6 and (not max_lines or len(rows) <= max_lines)
                    and _real_widest(_made(rows)) <= w_ref + 1e-6):
                return True
        return False

    ok, result = fits(hi)
    best_size = hi
    # away from FIT_DPI, a text that had to shrink (or whose box has little room to shrink) is
    # judged as print judges it: refused if print refuses it, fitted if print fits it
    judged = dpi != FIT_DPI and (not ok or size_pt < 1.5 * max(min_size_pt, FLOOR_PT))
    if judged and not fits_for_print():
        raise too_long()
    if not ok:
        # binary search for the largest size that fits in [floor, hi)
        lo, top = floor, hi - 1
        found = None
        while lo <= top:
            mid = (lo + top) // 2
            ok_mid, res_mid = fits(mid)
            if ok_mid:
                found = (mid, res_mid)
                lo = mid + 1
            else:
                top = mid - 1
        if found is None and judged:
            # print fits it: here, whole pixels fall a little short; the nearest smaller size
            for size in range(floor - 1, 0, -1):
                ok_size, res_size = fits(size)
                if ok_size:
                    found = (size, res_size)
                    break
        if found is None:
            raise too_long()
        best_size, result = found
    rows, total_h, widest = result
    if valign == "middle":
        y0 = (height - total_h) / 2
    elif valign == "bottom":
        y0 = height - total_h
    else:
        y0 = 0.0
    lines = []
    for row in rows:
        text, font, colour, y, pieces, _ = row
        w = _row_width(row)
        if align == "center":
            x = (width - w) / 2
        elif align == "right":
            x = width - w
        else:
            x = 0.0
        ascent, descent = font.getmetrics()
        lines.append(Line(text, x, y0 + y, w, ascent + descent, font, colour, pieces))
    return Layout(tuple(lines), best_size, widest, total_h, best_size < lo_pref)


def draw_layout(draw: ImageDraw.ImageDraw, layout: Layout, origin: tuple[float, float],
                colour: str) -> None:
    ox, oy = origin
    for line in layout.lines:
        if line.pieces:
            image = getattr(draw, "_image", None)
            for dx, text, font, picture, dy in line.pieces:
                if text:
                    draw.text((ox + line.x + dx, oy + line.y), text, font=font,
                              fill=line.colour or colour, anchor="la")
                elif picture is not None and image is not None:
                    image.paste(picture, (round(ox + line.x + dx), round(oy + line.y + dy)), picture)
        elif line.text:
            draw.text((ox + line.x, oy + line.y), line.text, font=line.font,
                      fill=line.colour or colour, anchor="la")
