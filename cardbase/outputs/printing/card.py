"""Card faces and backs drawn with Pillow from a ``CardDef`` and a ``Template``.

The parts that depend only on the template and the card's colour (frame, panel, value disc,
banner pennant, text panel) are drawn once at 4× and downsampled, then cached; each card copies
that base and adds its art, texts, sticker codes, rarity and fingerprint.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageColor, ImageDraw

from cardbase.domain import CardDef
from cardbase.errors import StickerError, TemplateError
from cardbase.i18n import tr
from cardbase.storage.art import load_art, placeholder_art, resolve_art
from cardbase.outputs.printing.fingerprint import card_fingerprint
from cardbase.outputs.printing.sticker_art import strip_for
from cardbase.outputs.printing.templates import Region, Template
from cardbase.outputs.printing.textfit import Layout, Paragraph, draw_layout, fit_text
from cardbase.outputs.printing.units import mm_to_px, mm_to_pxf
from cardbase.text import fold

SS = 4
RGB = tuple[int, int, int]


@dataclass(slots=True, frozen=True)
class RenderOptions:
    dpi: int = 300
    bleed: bool = False
    stickers: bool = True
    sticker_table: Mapping[str, str] | None = None
    art_dir: Path | None = None
    edition_symbols: Mapping[str, str] | None = None
    fingerprint: bool = True


def rich_paragraph(text: str, template: Template, font: str,
                   sticker_table: Mapping[str, str] | None = None) -> Paragraph:
    """A card text as a paragraph: its markup (docs/rich-text.md) and the template's bold
    keywords as styled runs and symbols; a text without either stays a plain paragraph (drawn
    exactly as before). A text whose markup has problems prints as written, never fails."""
    from cardbase.catalog.richtext import context_for, has_markup, parse

    if not has_markup(text) and not template.bold_keywords:
        return Paragraph(text, font)
    parsed = parse(text, context_for(template, sticker_table), keywords=template.bold_keywords)
    if parsed.problems:
        return Paragraph(text, font)
    if parsed.is_plain:
        return Paragraph(parsed.plain, font)
    return Paragraph(parsed.plain, font, rich=parsed)


# The labels a game declares for its card fields (data/games.toml, Jeux page), by game code, then
# field, then language; filled when cards are read for printing (``catalog.card_defs``).
from cardbase.catalog.printinfo import STAT_LABELS  # noqa: E402


def stat_label(key: object, game: str | None = None) -> str:
    """A card figure's name as printed, in the current language: the label the game declares for
    it (« Dégâts » / « Damage »), else the name the messages know (``damage`` → « dégâts », or a
    column every card has: ``value`` → « valeur »), else its key with spaces for underscores."""
    from cardbase import i18n

    name = str(key)
    lang = i18n.current_language()
    declared = STAT_LABELS.get(game or "", {}).get(name) or {}
    label = declared.get(lang) or (declared.get("fr") if lang == "fr" else None)
    if label:
        return label
    label = i18n.table(lang).get(f"printing.stat.{name}")
    if label is None and not declared.get("fr"):  # a column every card has (« value »): its name
        column = i18n.table(lang).get(f"field.{name}")
        label = column[:1].lower() + column[1:] if column else None
    return label if label is not None else (declared.get("fr") or name.replace("_", " "))


def rgb(colour: str) -> RGB:
    return ImageColor.getrgb(colour)[:3]  # type: ignore[return-value]


def luminance(c: RGB) -> float:
    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(c: RGB) -> str:
    """White or near-black, whichever reads better on ``c``."""
    lum = luminance(c)
    return "#ffffff" if (1.05 / (lum + 0.05)) >= ((lum + 0.05) / 0.06) else "#1d1d1f"


def _shade(c: RGB, t: float) -> RGB:
    target = 0 if t < 0 else 255
    t = abs(t)
    return tuple(round(v + (target - v) * t) for v in c)  # type: ignore[return-value]


def trim_size_px(template: Template, dpi: int) -> tuple[int, int]:
    return mm_to_px(template.width_mm, dpi), mm_to_px(template.height_mm, dpi)


def canvas_px(template: Template, dpi: int, bleed: bool) -> tuple[int, int, int]:
    """Width, height and trim offset of the image: with bleed, the whole printed size rounded
    once (69 mm at 300 DPI is 815 px, not 744 + 2 × 35)."""
    if not bleed:
        w, h = trim_size_px(template, dpi)
        return w, h, 0
    b = template.bleed_mm
    return (mm_to_px(template.width_mm + 2 * b, dpi), mm_to_px(template.height_mm + 2 * b, dpi),
            mm_to_px(b, dpi))


def _box_px(region: Region, dpi: int, off: int) -> tuple[int, int, int, int]:
    x, y, w, h = region.box
    x0, y0 = off + mm_to_px(x, dpi), off + mm_to_px(y, dpi)
    return x0, y0, off + mm_to_px(x + w, dpi) - x0, off + mm_to_px(y + h, dpi) - y0


def _pennant(x: float, y: float, w: float, h: float) -> list[tuple[float, float]]:
    notch = h * 0.55
    return [(x, y), (x + w, y), (x + w - notch, y + h / 2), (x + w, y + h), (x, y + h)]


def _disc_box(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The value disc: a circle as wide as the box's smaller side, centred in it (a box that a
    change of card size stretched stays a circle)."""
    x, y, w, h = box
    d = min(w, h)
    return x + (w - d) / 2, y + (h - d) / 2, d, d


@dataclass(slots=True, frozen=True)
class _Mask:
    """An antialiased L mask, where its top-left goes, and how to paint a colour through it fast:
    ``core`` is a rectangle inside the mask that is all 255 (painted as a plain rectangle) or all 0
    (left alone), and ``edges`` the bands around it, each painted through its part of the mask.
    Pillow paints through a mask value of 255 exactly the colour and through 0 nothing, so the
    pixels are exactly those of one paste through the whole mask (tested), several times faster
    on a card-sized panel."""

    mask: Image.Image
    pos: tuple[int, int]
    core: tuple[int, int, int, int] | None = None
    core_value: int = 0
    edges: tuple[tuple[Image.Image, tuple[int, int]], ...] = ()

    @property
    def width(self) -> int:
        return self.mask.width

    @property
    def height(self) -> int:
        return self.mask.height

    def paint(self, img: Image.Image, fill: RGB) -> None:
        """``img.paste(fill, box, mask)`` over the mask's box, the same pixels."""
        x, y = self.pos
        if self.core is None:
            img.paste(fill, (x, y, x + self.mask.width, y + self.mask.height), self.mask)
            return
        if self.core_value == 255:
            c0, c1, c2, c3 = self.core
            img.paste(fill, (x + c0, y + c1, x + c2, y + c3))
        for part, (dx, dy) in self.edges:
            img.paste(fill, (x + dx, y + dy, x + dx + part.width, y + dy + part.height), part)


CORE_MIN = 64  # a mask smaller than this on a side is painted in one paste


def _split(mask: Image.Image, pos: tuple[int, int]) -> _Mask:
    """The mask with its largest evenly inset rectangle of one value (0 or 255), if any."""
    w, h = mask.size
    if min(w, h) < CORE_MIN:
        return _Mask(mask, pos)
    for k in (1, 2, 3, 4, 6, 8, 11, 15, 20, 27, 36, 48, 64, 85, 113):
        if 2 * k >= min(w, h):
            break
        box = (k, k, w - k, h - k)
        lo, hi = mask.crop(box).getextrema()
        if lo == hi and lo in (0, 255):
            edges = tuple((mask.crop(b), (b[0], b[1])) for b in (
                (0, 0, w, k), (0, h - k, w, h), (0, k, k, h - k), (w - k, k, w, h - k)))
            return _Mask(mask, pos, box, lo, edges)
    return _Mask(mask, pos)


def _aa_mask(bbox: tuple[float, float, float, float], draw_fn) -> _Mask:
    """Draw one shape at 4× inside ``bbox`` (1× pixels) and downsample it to an antialiased mask."""
    x0, y0 = int(bbox[0]) - 1, int(bbox[1]) - 1
    x1, y1 = int(bbox[2]) + 2, int(bbox[3]) + 2
    big = Image.new("L", ((x1 - x0) * SS, (y1 - y0) * SS), 0)
    draw_fn(ImageDraw.Draw(big), lambda v, o: (v - o) * SS, x0, y0)
    return _split(big.reduce(SS), (x0, y0))


@lru_cache(maxsize=64)
def _chrome_masks(template: Template, dpi: int, bleed: bool, has_value: bool, has_banner: bool,
                  has_effect: bool, grow_mm: float = 0.0) -> dict[str, _Mask]:
    """Colour-free antialiased masks of the card's frame parts (drawn once per template)."""
    tw, th = trim_size_px(template, dpi)
    off = mm_to_px(template.bleed_mm, dpi) if bleed else 0

    def P(mm: float) -> float:
        return mm_to_pxf(mm, dpi) + off

    def L(mm: float) -> float:
        return mm_to_pxf(mm, dpi)

    masks: dict[str, _Mask] = {}
    b = template.border_mm
    box = (P(b), P(b), off + tw - L(b), off + th - L(b))
    if box[2] > box[0] and box[3] > box[1]:  # a border wider than half the card: no panel
        masks["panel"] = _aa_mask(box, lambda d, t, x0, y0: d.rounded_rectangle(
        (t(box[0], x0), t(box[1], y0), t(box[2], x0), t(box[3], y0)),
            radius=L(template.corner_mm) * SS, fill=255))
    if has_effect and (r := template.region("effect")) is not None:
        x, y, w, h = r.box
        y, h = y - grow_mm, h + grow_mm
        eb = (P(x - 1.0), P(y - 0.7), P(x + w + 1.0), P(y + h + 0.7))
        edge = max(1, round(L(0.18) * SS))

        def eff(d, t, x0, y0, fill: bool):
            rect = (t(eb[0], x0), t(eb[1], y0), t(eb[2], x0), t(eb[3], y0))
            if fill:
                d.rounded_rectangle(rect, radius=L(1.4) * SS, fill=255)
            else:
                d.rounded_rectangle(rect, radius=L(1.4) * SS, outline=255, width=edge)
        masks["effect"] = _aa_mask(eb, lambda d, t, x0, y0: eff(d, t, x0, y0, True))
        masks["effect_edge"] = _aa_mask(eb, lambda d, t, x0, y0: eff(d, t, x0, y0, False))
    if has_banner and (r := template.region("band")) is not None:
        x, y, w, h = r.box
        bb = (P(x), P(y), P(x + w), P(y + h))
        masks["band"] = _aa_mask(bb, lambda d, t, x0, y0: d.polygon(
            _pennant(t(bb[0], x0), t(bb[1], y0), (bb[2] - bb[0]) * SS, (bb[3] - bb[1]) * SS), fill=255))
    if has_value and (r := template.region("value")) is not None:
        x, y, w, h = _disc_box(r.box)
        vb = (P(x), P(y), P(x + w), P(y + h))
        ring = L(0.55)
        masks["disc_ring"] = _aa_mask(vb, lambda d, t, x0, y0: d.ellipse(
            (t(vb[0], x0), t(vb[1], y0), t(vb[2], x0), t(vb[3], y0)), fill=255))
        if vb[2] - vb[0] > 2 * ring:  # a disc smaller than its ring is all ring
            masks["disc"] = _aa_mask(vb, lambda d, t, x0, y0: d.ellipse(
                (t(vb[0] + ring, x0), t(vb[1] + ring, y0), t(vb[2] - ring, x0), t(vb[3] - ring, y0)),
                fill=255))
    return masks


@lru_cache(maxsize=128)
def _chrome(template: Template, colour: RGB, dpi: int, bleed: bool, has_value: bool,
            has_banner: bool, has_effect: bool, grow_mm: float = 0.0) -> Image.Image:
    """Frame, panel, text panel, pennant and value disc in the card's colour."""
    W, H, off = canvas_px(template, dpi, bleed)
    img = Image.new("RGB", (W, H), colour)
    masks = _chrome_masks(template, dpi, bleed, has_value, has_banner, has_effect, grow_mm)
    panel = rgb(template.panel)
    layers = (("panel", panel), ("effect", _shade(panel, -0.045)),
              ("effect_edge", _shade(panel, -0.16)), ("band", colour), ("disc_ring", panel),
              ("disc", colour))
    for name, fill in layers:
        if name in masks:
            masks[name].paint(img, fill)
    if (r := template.region("type")) is not None:
        x, y, w, h = r.box
        d = ImageDraw.Draw(img)
        yy = off + mm_to_px(y - grow_mm + h + 0.2, dpi)
        d.line((off + mm_to_px(x, dpi), yy, off + mm_to_px(x + w, dpi), yy), fill=colour,
               width=max(1, mm_to_px(0.35, dpi)))
    return img


def _where(card: CardDef, region: Region, template: Template) -> str:
    return tr("printing.text_where", ref=card.ref, name=card.name, region=region.name,
              template=template.name)


def _text(img: Image.Image, draw: ImageDraw.ImageDraw, region: Region, paragraphs: list[Paragraph],
          *, dpi: int, off: int, colour: str, template: Template, card: CardDef,
          box: tuple[int, int, int, int] | None = None, layout: Layout | None = None,
          box_mm: tuple[float, float] | None = None) -> None:
    if not any(p.text.strip() for p in paragraphs):
        return
    x, y, w, h = box or _box_px(region, dpi, off)
    if box is None:
        box_mm = box_mm or (region.box[2], region.box[3])
    layout = layout or fit_text(paragraphs, w, h, size_pt=region.size_pt, min_size_pt=region.min_size_pt,
                      dpi=dpi, align=region.align, valign=region.valign,
                      line_spacing=region.line_spacing, max_lines=region.max_lines,
                      base_dir=template.base_dir, where=lambda: _where(card, region, template),
                      box_mm=box_mm)
    draw_layout(draw, layout, (x, y), region.colour or colour)


_RARITY_GLYPH = {"circle": "●", "diamond": "◆", "star": "★", "triangle": "▲", "square": "■"}


def _rarity_colour(key: str) -> str:
    if "legend" in key or "mythi" in key:
        return "#d0562a"
    if "rare" in key:
        return "#c9a227"
    if "peu" in key or "inhab" in key or "uncommon" in key:
        return "#8a9bb0"
    return "#2a2a2e"


def stickers_for(card: CardDef, table: Mapping[str, str] | None) -> tuple[list, str | None]:
    """The value stickers and colour symbol of a card; ``StickerError`` names the card."""
    from cardbase.catalog.stickers import colour_symbol, encode

    try:
        value_st = encode(card.value) if card.value is not None else []
        symbol = colour_symbol(card.colour, table) if card.colour else None
    except StickerError as exc:
        raise StickerError(tr("printing.sticker_error", ref=card.ref, name=card.name,
                              error=str(exc))) from None
    return value_st, symbol


def render_card(card: CardDef, template: Template, options: RenderOptions | None = None, *,
                fingerprint: str | None = None) -> Image.Image:
    """The face of ``card`` as an RGB image at ``options.dpi`` (with bleed if asked)."""
    opt = options or RenderOptions()
    dpi = opt.dpi
    colour = rgb(template.colour_of(card.colour))
    off = mm_to_px(template.bleed_mm, dpi) if opt.bleed else 0
    has_value = card.value is not None
    text_c = template.text_colour
    muted = template.muted_colour
    on_colour = ink_on(colour)
    body = card.effect_text or card.effect
    stats_line = " · ".join(f"{stat_label(k, card.game)} {v}" for k, v in card.stats)
    stats_region = template.region("stats")
    has_effect = bool(body or card.flavour or (stats_line and stats_region is None))
    paras: list[Paragraph] = []
    effect_region = template.region("effect")
    if effect_region is not None:
        if stats_line and stats_region is None:
            paras.append(Paragraph(stats_line, "bold", gap_before=0))
        if body:
            paras.append(rich_paragraph(card.effect_text, template, effect_region.font,
                                        opt.sticker_table) if card.effect_text
                         else Paragraph(body, effect_region.font))
        if card.flavour:
            paras.append(Paragraph(card.flavour, "italic", colour=muted, gap_before=0.6))
    grow_mm, effect_layout = _effect_growth(card, template, effect_region, paras, dpi)
    img = _chrome(template, colour, dpi, opt.bleed, has_value, bool(card.banner), has_effect,
                  grow_mm).copy()
    draw = ImageDraw.Draw(img)
    _fills(draw, template, dpi, off, mm_to_px(grow_mm, dpi))

    # art
    if (r := template.region("art")) is not None:
        x, y, w, h = _box_px(r, dpi, off)
        h -= mm_to_px(grow_mm, dpi)
        if card.art:
            where = f"{card.ref} « {card.name} »"
            art = load_art(resolve_art(card.art, opt.art_dir, where=where), (w, h), where=where)
        else:
            label = card.banner or (card.colour or "").capitalize() or card.card_type or ""
            art = _labelled_placeholder(colour, (w, h), label, template.base_dir, dpi)
        if art.mode == "RGBA":
            img.paste(art, (x, y), art)
        else:
            img.paste(art, (x, y))
        draw.rectangle((x, y, x + w - 1, y + h - 1), outline=_shade(colour, -0.35),
                       width=max(1, mm_to_px(0.2, dpi)))

    if has_value and (r := template.region("value")) is not None:
        bx, by, bw, _bh = _disc_box(r.box)
        x, y = off + mm_to_px(bx, dpi), off + mm_to_px(by, dpi)
        w = h = mm_to_px(bx + bw, dpi) - mm_to_px(bx, dpi)
        inset = round(w * 0.16)
        _text(img, draw, r, [Paragraph(str(card.value), r.font)], dpi=dpi, off=off,
              colour=on_colour, template=template, card=card,
              box=(x + inset, y + inset, w - 2 * inset, h - 2 * inset))
        # centre both ways regardless of the template's alignment
    if (r := template.region("name")) is not None:
        box = _box_px(r, dpi, off)
        if not has_value and (vr := template.region("value")) is not None:
            vx = _box_px(vr, dpi, off)[0]
            box = (vx, box[1], box[0] + box[2] - vx, box[3])
        _text(img, draw, r, [Paragraph(card.name, r.font)], dpi=dpi, off=off, colour=text_c,
              template=template, card=card, box=box)
    if card.banner and (r := template.region("band")) is not None:
        x, y, w, h = _box_px(r, dpi, off)
        pad = mm_to_px(1.2, dpi)
        _text(img, draw, r, [Paragraph(card.banner.upper(), r.font)], dpi=dpi, off=off,
              colour=on_colour, template=template, card=card,
              box=(x + pad, y, w - 2 * pad - round(h * 0.55), h))
    if (r := template.region("type")) is not None:
        parts = [p for p in (card.card_type, " · ".join(card.keywords)) if p]
        if parts:
            tx, ty, tw_, th_ = _box_px(r, dpi, off)
            _text(img, draw, r, [Paragraph("  —  ".join(parts), r.font)], dpi=dpi, off=off,
                  colour=text_c, template=template, card=card,
                  box=(tx, ty - mm_to_px(grow_mm, dpi), tw_, th_))

    if stats_line and stats_region is not None:
        sx, sy, sw, sh = _box_px(stats_region, dpi, off)
        _text(img, draw, stats_region, [Paragraph(stats_line, stats_region.font)], dpi=dpi, off=off,
              colour=text_c, template=template, card=card,
              box=(sx, sy - mm_to_px(grow_mm, dpi), sw, sh))
    if effect_region is not None and paras:
        ex, ey, ew, eh = _box_px(effect_region, dpi, off)
        g = mm_to_px(grow_mm, dpi)
        _text(img, draw, effect_region, paras, dpi=dpi, off=off, colour=text_c, template=template,
              card=card, box=(ex, ey - g, ew, eh + g), layout=effect_layout,
              box_mm=(effect_region.box[2], effect_region.box[3] + grow_mm))

    if opt.stickers and (r := template.region("stickers")) is not None:
        value_st, symbol = stickers_for(card, opt.sticker_table)
        if value_st or symbol:
            x, y, w, h = _box_px(r, dpi, off)
            strip = strip_for(value_st, symbol, h, w)
            img.paste(strip, (x, y + (h - strip.height) // 2), strip)

    if card.rarity and (r := template.region("rarity")) is not None:
        key = fold(card.rarity)
        shape = template.rarities.get(key, "text")
        glyph = _RARITY_GLYPH.get(shape, card.rarity[:1].upper())
        x, y, w, h = _box_px(r, dpi, off)
        font_px = h
        from cardbase.outputs.printing.fonts import get_font

        font = get_font("bold", font_px, base_dir=template.base_dir)
        draw.text((x + w / 2, y + h / 2), glyph, font=font, fill=_rarity_colour(key), anchor="mm",
                  stroke_width=max(1, mm_to_px(0.12, dpi)), stroke_fill="#1d1d1f")

    if (r := template.region("edition")) is not None:
        symbol = (opt.edition_symbols or {}).get(card.edition) or ""
        glyph = symbol if 0 < len(symbol) <= 2 else "◆"
        _text(img, draw, r, [Paragraph(f"{glyph} {card.edition}", r.font)], dpi=dpi, off=off,
              colour=muted, template=template, card=card)
    if (r := template.region("number")) is not None:
        _text(img, draw, r, [Paragraph(card.numbering, r.font)], dpi=dpi, off=off, colour=muted,
              template=template, card=card)
    if opt.fingerprint and (r := template.region("fingerprint")) is not None:
        fp = fingerprint or card_fingerprint(card, art_dir=opt.art_dir)
        label = f"#{fp}" + (f" · {tr('printing.sample')}" if card.sample else "")
        _text(img, draw, r, [Paragraph(label, r.font)], dpi=dpi, off=off, colour=muted,
              template=template, card=card)
    return img


GROW_SHARE = 0.45  # share of the art's height a long text may take


def _fills(draw: ImageDraw.ImageDraw, template: Template, dpi: int, off: int, grow_px: int) -> None:
    """Each visible region's ``fill`` colour as a rectangle behind its content (the effect box
    grown into the art when a long text needs it, the type and stats lines moved with it)."""
    for region in template.regions.values():
        if not region.visible or not region.fill:
            continue
        x, y, w, h = _box_px(region, dpi, off)
        if region.name == "effect":
            y, h = y - grow_px, h + grow_px
        elif region.name in ("type", "stats"):
            y -= grow_px
        elif region.name == "art":
            h -= grow_px
        draw.rectangle((x, y, x + w - 1, y + h - 1), fill=region.fill)


def _effect_growth(card: CardDef, template: Template, region: Region | None,
                   paras: list[Paragraph], dpi: int) -> tuple[float, Layout | None]:
    """Millimetres the text box grows upwards (into the art) when the text would go below the
    template's minimum size — 0 when it fits as designed, with the layout found then."""
    art = template.region("art")
    if region is None or art is None or not paras:
        return 0.0, None
    _, _, w, h = _box_px(region, dpi, 0)
    try:
        layout = fit_text(paras, w, h, size_pt=region.size_pt, min_size_pt=region.min_size_pt,
                          dpi=dpi, align=region.align, valign=region.valign,
                          line_spacing=region.line_spacing, max_lines=region.max_lines,
                          base_dir=template.base_dir,
                          where=lambda: _where(card, region, template),
                          box_mm=(region.box[2], region.box[3]))
        return 0.0, layout
    except TemplateError:  # not at the template's minimum size: the box grows into the art
        return round(art.box[3] * GROW_SHARE, 1), None


@lru_cache(maxsize=128)
def _labelled_placeholder(colour: RGB, size: tuple[int, int], label: str, base_dir: Path | None,
                          dpi: int) -> Image.Image:
    """The placeholder art with the banner (or colour, or type) written large across it, so the
    art slot reads; made once per (colour, size, label) — the cards of a banner share it."""
    img = placeholder_art(colour, size)
    if not label:
        return img
    img = img.copy()
    w, h = size
    pad = mm_to_px(3, dpi)
    try:
        layout = fit_text([Paragraph(label, "bold")], w - 2 * pad, h * 0.45, size_pt=20,
                          min_size_pt=6, dpi=dpi, align="center", valign="middle",
                          base_dir=base_dir)
    except TemplateError:
        return img
    draw_layout(ImageDraw.Draw(img), layout, (pad, h * 0.275), "#ffffff")
    return img


@lru_cache(maxsize=32)
def render_back(template: Template, dpi: int = 300, bleed: bool = False) -> Image.Image:
    """The game's card back: its colours, a lattice and the game's name in a medallion."""
    back = template.back
    tw, th = trim_size_px(template, dpi)
    W, H, off = canvas_px(template, dpi, bleed)
    bg, accent = rgb(back.background), rgb(back.accent)
    big = Image.new("RGB", (W * SS, H * SS), bg)
    d = ImageDraw.Draw(big)

    def px(mm: float) -> float:
        return mm_to_pxf(mm, dpi) * SS

    o = off * SS
    if back.pattern == "lattice":
        step = px(6)
        faint = _shade(bg, 0.12)
        lw = max(1, round(px(0.3)))
        n = int((W + H) * SS / step) + 2
        for i in range(-n, n):
            x0 = i * step
            d.line((x0, 0, x0 + H * SS, H * SS), fill=faint, width=lw)
            d.line((x0 + H * SS, 0, x0, H * SS), fill=faint, width=lw)
    m = px(template.border_mm + 1.2)
    for inset, line in ((m, 0.6), (m + px(1.1), 0.2)):  # no frame lines when the border fills the card
        frame = (o + inset, o + inset, o + tw * SS - inset, o + th * SS - inset)
        if frame[2] - frame[0] > 2 * px(line) and frame[3] - frame[1] > 2 * px(line):
            d.rounded_rectangle(frame, radius=min(px(template.corner_mm), (frame[2] - frame[0]) / 2,
                                                  (frame[3] - frame[1]) / 2),
                                outline=accent, width=round(px(line)))
    cx, cy = o + tw * SS / 2, o + th * SS / 2
    rx, ry = tw * SS * 0.36, th * SS * 0.2
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=bg, outline=accent, width=round(px(0.6)))
    img = big.reduce(SS)
    draw = ImageDraw.Draw(img)
    cxs, cys = cx / SS, cy / SS
    title_w, title_h = rx * 2 / SS * 0.8, ry * 2 / SS * 0.42
    if back.title:
        lay = fit_text([Paragraph(back.title, "bold")], title_w, title_h, size_pt=22, min_size_pt=8,
                       dpi=dpi, align="center", valign="middle", max_lines=2,
                       base_dir=template.base_dir, where=f"{template.name} back")
        draw_layout(draw, lay, (cxs - title_w / 2, cys - title_h / 2 - (title_h * 0.12 if back.subtitle else 0)),
                    back.accent)
    if back.subtitle:
        sw, sh = title_w, title_h * 0.32
        lay = fit_text([Paragraph(back.subtitle, "italic")], sw, sh, size_pt=8, min_size_pt=5, dpi=dpi,
                       align="center", valign="middle", max_lines=1, base_dir=template.base_dir,
                       where=f"{template.name} back")
        draw_layout(draw, lay, (cxs - sw / 2, cys + title_h * 0.42), back.accent)
    return img
