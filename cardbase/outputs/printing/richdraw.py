"""Rich card text laid out and drawn with Pillow: runs of several styles and inline symbols.

``wrap_rich`` cuts a parsed text (``cardbase.catalog.richtext.parse``) into lines of *pieces* — a piece is
a run of text in one font or a symbol picture — measuring each piece as it is drawn: a symbol is
as wide as its picture, a bold word as wide as the bold face makes it. A line never breaks inside
a symbol, nor between a symbol and the text glued to it ("{rouge}," stays together); a word wider
than the whole line is broken between letters, as in plain text. ``textfit.fit_text`` uses it for
paragraphs that carry markup, so the same layout serves print, shop files, TTS sheets and the
app's preview (they all draw with ``render_card``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw

from cardbase.outputs.printing.fonts import STYLES, get_font

_BOLD = {"regular": "bold", "condensed": "condensed-bold", "italic": "bold",
         "condensed-italic": "condensed-bold"}
_ITALIC = {"regular": "italic", "condensed": "condensed-italic", "bold": "italic",
           "condensed-bold": "condensed-italic"}
_NBSP_BEFORE = re.compile(r"[ \t]+([;:!?»])")
_NBSP_AFTER = re.compile(r"(«)[ \t]+")
SYMBOL_SCALE = 0.82  # a symbol's height in the font's ascent
SYMBOL_MARGIN = 0.08  # blank on each side of a symbol, in its height


def style_font(base: str, bold: bool, italic: bool) -> str:
    """The face for a run: the base style's bold or italic sibling (bold wins: DejaVu ships no
    bold oblique); a font given by path keeps its own face."""
    if base not in STYLES:
        return base
    if bold:
        return _BOLD.get(base, base)
    if italic:
        return _ITALIC.get(base, base)
    return base


def _disc(colour: str, size: int) -> Image.Image:
    from cardbase.outputs.printing import sticker_art

    # drawn premultiplied at once, as the sticker strips are: the colours are opaque
    big = Image.new(sticker_art.DRAW_MODE, (size * 4, size * 4), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    edge = max(2, size // 3)
    d.ellipse((1, 1, size * 4 - 2, size * 4 - 2), fill=colour, outline=(29, 29, 31, 255),
              width=edge)
    if big.mode != "RGBa":
        big = big.convert("RGBa")
    return big.reduce(4).convert("RGBA")


@lru_cache(maxsize=512)
def symbol_image(kind: str, value: str, size: int, base_dir: Path | None = None) -> Image.Image:
    """The picture of a symbol ``size`` pixels high (RGBA)."""
    from cardbase.outputs.printing.sticker_art import sticker_strip
    from cardbase.catalog.stickers import encode

    size = max(2, size)
    if kind == "colour":
        return _disc(value, size)
    if kind == "value":
        stickers = tuple((st.kind, st.dots) for st in encode(int(value)))
        if not stickers:  # 0 has no sticker: an empty white pad says "none"
            return _disc("#ffffff", size)
        return sticker_strip(stickers, None, size, 10 ** 6)
    if kind == "sticker":
        return sticker_strip((), value, size, 10 ** 6)
    if kind == "image":
        path = Path(value)
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        with Image.open(path) as im:
            pic = im.convert("RGBA")
        w = max(1, round(pic.width * size / max(1, pic.height)))
        return pic.resize((w, size), Image.LANCZOS)
    raise ValueError(kind)


@lru_cache(maxsize=4096)
def _tokens(parsed) -> tuple[tuple, ...]:
    """The size-free pieces of a parsed text: ("text", str, bold, italic), ("space", bold,
    italic), ("break",) and ("sym", Symbol) — cut once, measured at each size tried."""
    from cardbase.catalog.richtext import Span

    out: list[tuple] = []
    for item in parsed.items:
        if not isinstance(item, Span):
            out.append(("sym", item))
            continue
        text = _NBSP_AFTER.sub("\\1\u00a0", _NBSP_BEFORE.sub("\u00a0\\1", item.text))
        for part in _CUT.split(text):
            if not part:
                continue
            if part == "\n":
                out.append(("break",))
            elif part.isspace():
                out.append(("space", item.bold, item.italic))
            else:
                out.append(("text", part, item.bold, item.italic))
    return tuple(out)


_CUT = re.compile(r"(\n|[ \t]+)")


@lru_cache(maxsize=4096)
def _words(parsed) -> tuple[tuple, ...]:
    """The size-free words of a parsed text: ("word", tokens) — its "text" and "sym" tokens —,
    ("space", bold, italic) and ("break",); grouped once, measured at each size tried."""
    out: list[tuple] = []
    word: list[tuple] = []
    for tok in _tokens(parsed):
        if tok[0] in ("space", "break"):
            if word:
                out.append(("word", tuple(word)))
                word = []
            out.append(tok)
        else:
            word.append(tok)
    if word:
        out.append(("word", tuple(word)))
    return tuple(out)


# an atom: ("text", str, font, width) | ("pic", image, dy, width); a word: ("word", atoms, its
# width — the sum of its atoms' widths)
def _atoms(parsed, base: str, size_px: int, base_dir: Path | None, margin: float):
    from cardbase.outputs.printing.fonts import text_width

    faces: dict[tuple[bool, bool], object] = {}

    def face(bold: bool, italic: bool):
        f = faces.get((bold, italic))
        if f is None:
            f = faces[(bold, italic)] = get_font(style_font(base, bold, italic), size_px,
                                                 base_dir=base_dir)
        return f

    ascent, descent = face(False, False).getmetrics()
    sym_h = max(2, round(ascent * SYMBOL_SCALE))
    out: list[tuple] = []  # ("word", atoms, width) | ("space", width) | ("break",)
    for entry in _words(parsed):
        kind = entry[0]
        if kind == "space":
            out.append(("space", text_width(face(entry[1], entry[2]), " ")))
            continue
        if kind == "break":
            out.append(entry)
            continue
        word: list[tuple] = []
        for tok in entry[1]:
            if tok[0] == "text":
                font = face(tok[2], tok[3])
                word.append(("text", tok[1], font, text_width(font, tok[1])))
                continue
            item = tok[1]
            font = face(item.bold, item.italic)
            if item.kind in ("glyph", "unknown"):
                shown = item.value if item.kind == "glyph" else "{" + item.name + "}"
                word.append(("text", shown, font, text_width(font, shown)))
                continue
            try:
                pic = symbol_image(item.kind, item.value, sym_h, base_dir)
            except (OSError, ValueError):
                shown = "{" + item.name + "}"
                word.append(("text", shown, font, text_width(font, shown)))
                continue
            dy = ascent - sym_h + round(descent * 0.3)
            word.append(("pic", pic, dy, pic.width + 2 * margin))
        out.append(("word", word, sum(a[3] for a in word)))
    return out


def _atom_width(atom: tuple, margin: float = 0.0) -> float:
    return atom[3]


def _split_long(atoms: list[tuple], width: float, margin: float) -> list[list[tuple]]:
    """A word wider than the line, cut between letters of its text runs (never in a symbol)."""
    from cardbase.outputs.printing.fonts import text_width

    lines: list[list[tuple]] = [[]]
    used = 0.0
    for atom in atoms:
        if atom[0] != "text":
            w = _atom_width(atom, margin)
            if lines[-1] and used + w > width:
                lines.append([])
                used = 0.0
            lines[-1].append(atom)
            used += w
            continue
        cur = ""
        for ch in atom[1]:
            if (cur or lines[-1]) and used + text_width(atom[2], cur + ch) > width:
                if cur:
                    lines[-1].append(("text", cur, atom[2], text_width(atom[2], cur)))
                lines.append([])
                used, cur = 0.0, ch
            else:
                cur += ch
        if cur:
            lines[-1].append(("text", cur, atom[2], text_width(atom[2], cur)))
            used += text_width(atom[2], cur)
    return [line for line in lines if line]


def break_rich(parsed, base: str, size_px: int, width: float,
               base_dir: Path | None = None) -> tuple[list[list[tuple]], float]:
    """The lines of ``parsed`` at ``size_px`` in ``width`` pixels, each a list of atoms and
    ("space", width) entries, with the symbols' side margin: what ``wrap_rich`` draws, before
    its pieces are made (a size that does not fit needs only the number of lines)."""
    regular = get_font(base, size_px, base_dir=base_dir)
    margin = regular.getmetrics()[0] * SYMBOL_SCALE * SYMBOL_MARGIN
    lines: list[list[tuple]] = [[]]  # each: ("space", w) / atoms
    widths: list[float] = [0.0]
    pending_space = 0.0
    for entry in _atoms(parsed, base, size_px, base_dir, margin):
        if entry[0] == "break":
            lines.append([])
            widths.append(0.0)
            pending_space = 0.0
            continue
        if entry[0] == "space":
            pending_space = entry[1] if lines[-1] else 0.0
            continue
        atoms, ww = entry[1], entry[2]
        if lines[-1] and widths[-1] + pending_space + ww > width:
            lines.append([])
            widths.append(0.0)
            pending_space = 0.0
        parts = _split_long(atoms, width, margin) if ww > width else [atoms]
        for k, part in enumerate(parts):
            if k:
                lines.append([])
                widths.append(0.0)
            if pending_space and lines[-1]:
                lines[-1].append(("space", pending_space))
                widths[-1] += pending_space
            lines[-1].extend(part)
            # a whole word: the sum of its atoms' widths, as it was measured
            widths[-1] += ww if part is atoms else sum(_atom_width(a, margin) for a in part)
            pending_space = 0.0
    return lines, margin


def assemble_line(atoms: list[tuple], margin: float) -> tuple[str, tuple, float]:
    """One line of ``break_rich`` as (plain text, pieces, width): runs of one face are drawn as
    one string (one call to the font renderer per run). A piece is (dx, text or None, font,
    image or None, dy)."""
    pieces: list[list] = []
    text, x, spaced = [], 0.0, False
    for atom in atoms:
        if atom[0] == "space":
            x += atom[1]
            text.append(" ")
            spaced = True
            continue
        if atom[0] == "text":
            last = pieces[-1] if pieces else None
            if last is not None and last[1] is not None and last[2] is atom[2]:
                last[1] += (" " if spaced else "") + atom[1]
            else:
                pieces.append([x, atom[1], atom[2], None, 0])
            text.append(atom[1])
        else:
            pieces.append([x + margin, None, None, atom[1], atom[2]])
            text.append("\ufffc")  # the object replacement character stands for a symbol
        x += _atom_width(atom, margin)
        spaced = False
    return "".join(text), tuple(tuple(p) for p in pieces), x if pieces else 0.0


def wrap_rich(parsed, base: str, size_px: int, width: float,
              base_dir: Path | None = None) -> list[tuple[str, tuple, float]]:
    """Lines of (plain text, pieces, width) for ``parsed`` at ``size_px`` in ``width`` pixels.
    A piece is (dx, text or None, font, image or None, dy)."""
    lines, margin = break_rich(parsed, base, size_px, width, base_dir)
    return [assemble_line(atoms, margin) for atoms in lines]
