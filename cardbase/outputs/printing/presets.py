"""Print-shop presets: the exact pixel canvas a print-on-demand shop expects, and drawing a card on it.

Presets are data (``card_templates/presets/shops.toml``, or the file named by CARDBASE_PRESETS):
trim, bleed and safe margin in mm or inches, the dpi, the canvas in pixels and where the numbers
come from. :func:`shop_face` / :func:`shop_back` draw a card on exactly that canvas:

- the template's trimmed card is scaled to fit the preset's trim (the smaller of the two ratios,
  so nothing is cropped); when the proportions differ, the template's own background fills the
  rest of the trim — :func:`fit_note` says so in words;
- the card is drawn with a bleed wide enough to cover the whole canvas, so the background (and an
  art box that reaches the trim) runs into the bleed;
- every region but the art is kept inside the preset's safe area: when the preset's safe margin is
  wider than the template's, the regions are moved (and if need be shrunk) inwards, as the template
  loader does for its own ``safe_mm``.
"""

from __future__ import annotations

import dataclasses
import math
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from cardbase.domain import CardDef
from cardbase.errors import CardbaseError, Problem
from cardbase.i18n import tr
from cardbase.outputs.printing.card import RenderOptions, render_back, render_card
from cardbase.outputs.printing.templates import Template, _inside_safe, default_templates_dir
from cardbase.outputs.printing.units import MM_PER_INCH

PRESET_KEYS = ("shop", "description", "unit", "trim", "bleed", "safe", "dpi", "canvas_px",
               "source", "note")
UNITS = {"mm": 1.0, "in": MM_PER_INCH}
FIT_TOLERANCE = 0.005  # proportions within 0.5 % count as the same
# Limits of a presets file, checked before anything is drawn (Pillow would otherwise be asked for
# the canvas whatever its size): the largest shipped canvas is under 1,600 px, a tarot card with
# bleed at 1,200 dpi about 6,000 px.
MAX_PRESETS_BYTES = 1024 * 1024
MAX_TOML_DEPTH = 10  # the shipped presets nest one level ([name], then trim = [w, h] or { fr, en })
MAX_TRIM_MM = 1000.0
MAX_BLEED_MM = 50.0
MAX_CANVAS_SIDE_PX = 10_000
MAX_CANVAS_PIXELS = 40_000_000  # 120 MB as RGB


class PresetError(CardbaseError):
    """An unknown preset, or a presets file that cannot be used."""


@dataclass(slots=True, frozen=True)
class Preset:
    name: str
    shop: str
    description: str
    unit: str
    trim: tuple[float, float]  # in ``unit``
    bleed: float
    safe: float
    dpi: int
    canvas_px: tuple[int, int]
    source: str
    note_text: tuple[tuple[str, str], ...] = ()  # (language, text): a sentence for the user
    description_text: tuple[tuple[str, str], ...] = ()
    shop_text: tuple[tuple[str, str], ...] = ()

    @property
    def shop_label(self) -> str:
        return _in_language(self.shop_text) or self.shop

    @property
    def note(self) -> str:
        return _in_language(self.note_text)

    @property
    def label(self) -> str:
        """The description in the current language (else ``description``)."""
        return _in_language(self.description_text) or self.description

    @property
    def trim_mm(self) -> tuple[float, float]:
        k = UNITS[self.unit]
        return self.trim[0] * k, self.trim[1] * k

    @property
    def bleed_mm(self) -> float:
        return self.bleed * UNITS[self.unit]

    @property
    def safe_mm(self) -> float:
        return self.safe * UNITS[self.unit]

    def px(self, mm: float, dpi: float | None = None) -> float:
        return mm * (dpi or self.dpi) / MM_PER_INCH

    def geometry(self, dpi: float | None = None) -> Geometry:
        """Canvas, trim and safe rectangles in pixels at ``dpi`` (the preset's own by default)."""
        k = (dpi or self.dpi) / self.dpi
        cw, ch = (round(self.canvas_px[0] * k), round(self.canvas_px[1] * k)) if k != 1 \
            else self.canvas_px
        tw, th = (self.px(v, dpi) for v in self.trim_mm)
        x0, y0 = (cw - tw) / 2, (ch - th) / 2
        s = self.px(self.safe_mm, dpi)
        return Geometry((cw, ch), (x0, y0, x0 + tw, y0 + th), (x0 + s, y0 + s, x0 + tw - s, y0 + th - s))

    def as_dict(self) -> dict[str, Any]:
        g = self.geometry()
        tw, th = self.trim_mm
        return {
            "name": self.name, "shop": self.shop_label, "description": self.label,
            "canvas_px": list(self.canvas_px), "dpi": self.dpi,
            "trim_mm": [round(tw, 2), round(th, 2)], "bleed_mm": round(self.bleed_mm, 3),
            "safe_mm": round(self.safe_mm, 3),
            "trim_px": [round(g.trim[2] - g.trim[0], 1), round(g.trim[3] - g.trim[1], 1)],
            "safe_px": [round(g.safe[2] - g.safe[0], 1), round(g.safe[3] - g.safe[1], 1)],
            "unit": self.unit, "trim": list(self.trim), "bleed": self.bleed, "safe": self.safe,
            "source": self.source, "note": self.note,
        }


@dataclass(slots=True, frozen=True)
class Geometry:
    canvas: tuple[int, int]
    trim: tuple[float, float, float, float]  # x0, y0, x1, y1 in canvas pixels
    safe: tuple[float, float, float, float]


def template_preset(template: Template, dpi: int = 300) -> Preset:
    """A template's own print geometry as a preset (its size, bleed and safe zone)."""
    w, h, b = template.width_mm, template.height_mm, template.bleed_mm
    return Preset(name=template.name, shop="", description="", unit="mm", trim=(w, h), bleed=b,
                  safe=template.safe_mm, dpi=dpi,
                  canvas_px=(round((w + 2 * b) * dpi / MM_PER_INCH),
                             round((h + 2 * b) * dpi / MM_PER_INCH)),
                  source=str(template.source or ""))


# --------------------------------------------------------------------------- the presets file

def _in_language(texts: tuple[tuple[str, str], ...], lang: str | None = None) -> str:
    from cardbase import i18n

    table = dict(texts)
    return table.get(lang or i18n.current_language()) or table.get("fr") or next(iter(table.values()), "")


def presets_path() -> Path:
    env = os.environ.get("CARDBASE_PRESETS")
    if env:
        return Path(env)
    return default_templates_dir() / "presets" / "shops.toml"


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _build(name: str, data: Any, where: str, problems: list[Problem]) -> Preset | None:
    at = f"{where} [{name}]"

    def bad(message_key: str, **values: Any) -> None:
        problems.append(Problem("bad-preset", tr(message_key, preset=name, **values),
                                tr("shop.preset.fix"), at))

    if not isinstance(data, dict):
        bad("shop.preset.not_table")
        return None
    n = len(problems)
    for key in data:
        if key not in PRESET_KEYS:
            bad("shop.preset.unknown_key", key=key, keys=", ".join(PRESET_KEYS))
    geometry_ok = True
    unit = data.get("unit", "mm")
    if unit not in UNITS:
        bad("shop.preset.bad_unit", value=repr(unit))
        unit, geometry_ok = "mm", False
    trim = data.get("trim")
    if not (isinstance(trim, list) and len(trim) == 2 and all(_number(v) and v > 0 for v in trim)):
        bad("shop.preset.bad_trim", value=_short(trim))
        trim, geometry_ok = [1.0, 1.0], False
    elif max(trim) * UNITS[unit] > MAX_TRIM_MM:
        bad("shop.preset.trim_too_big", value=_short(trim), max=f"{MAX_TRIM_MM:g}")
        geometry_ok = False
    nums = {}
    for key in ("bleed", "safe"):
        value = data.get(key, 0)
        if not (_number(value) and value >= 0):
            bad("shop.preset.bad_length", key=key, value=_short(value))
            value, geometry_ok = 0, False
        elif key == "bleed" and value * UNITS[unit] > MAX_BLEED_MM:
            bad("shop.preset.bleed_too_big", value=_short(value), max=f"{MAX_BLEED_MM:g}")
            value, geometry_ok = 0, False
        nums[key] = float(value)
    dpi = data.get("dpi", 300)
    if not (isinstance(dpi, int) and not isinstance(dpi, bool) and 72 <= dpi <= 1200):
        bad("shop.preset.bad_dpi", value=repr(dpi))
        dpi, geometry_ok = 300, False
    canvas = data.get("canvas_px")
    if not (isinstance(canvas, list) and len(canvas) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in canvas)):
        bad("shop.preset.bad_canvas", value=_short(canvas))
        canvas = None
    elif max(canvas) > MAX_CANVAS_SIDE_PX or canvas[0] * canvas[1] > MAX_CANVAS_PIXELS:
        bad("shop.preset.canvas_too_big", value=_short(canvas), max=MAX_CANVAS_SIDE_PX,
            pixels=MAX_CANVAS_PIXELS // 1_000_000)
        canvas = None
    texts: dict[str, tuple[tuple[str, str], ...]] = {}
    for key in ("shop", "description", "source", "note"):
        value = data.get(key, "")
        if isinstance(value, dict) and key in ("shop", "description", "note") \
                and value and all(isinstance(v, str) for v in value.values()):
            texts[key] = tuple(sorted(value.items()))
        elif isinstance(value, str):
            texts[key] = (("fr", value), ("en", value)) if value else ()
        else:
            bad("shop.preset.bad_text", key=key, value=_short(value))
    if not str(data.get("source", "")).strip():
        bad("shop.preset.no_source")
    if canvas is not None and geometry_ok:
        k = UNITS[unit]
        for axis, (t, c) in enumerate(zip(trim, canvas)):
            expected = (t + 2 * nums["bleed"]) * k * dpi / MM_PER_INCH
            if abs(expected - c) > 1.0:
                bad("shop.preset.canvas_mismatch", axis="xy"[axis], canvas=c,
                    expected=f"{expected:.1f}")
        if nums["safe"] * 2 >= min(trim):
            bad("shop.preset.safe_too_wide", value=nums["safe"])
    if len(problems) != n:
        return None
    return Preset(name=name, shop=_in_language(texts.get("shop", ()), "fr"),
                  description=_in_language(texts.get("description", ()), "fr"), unit=unit,
                  trim=(float(trim[0]), float(trim[1])), bleed=nums["bleed"], safe=nums["safe"],
                  dpi=dpi, canvas_px=(canvas[0], canvas[1]), source=str(data.get("source", "")),
                  note_text=texts.get("note", ()), description_text=texts.get("description", ()),
                  shop_text=texts.get("shop", ()))


_CACHE: dict[tuple[str, int], dict[str, Preset]] = {}


def load_presets(path: Path | None = None) -> dict[str, Preset]:
    """Every preset of the presets file, by name; every problem in the file reported at once."""
    from cardbase.bounded_io import read_bounded, toml_depth

    path = Path(path or presets_path())
    try:
        key = (str(path), path.stat().st_mtime_ns)  # stat never blocks, even on a named pipe
    except FileNotFoundError:
        raise PresetError(tr("shop.presets_file.missing", path=str(path))) from None
    except OSError as exc:
        raise PresetError(tr("shop.presets_file.unreadable", path=str(path),
                             reason=exc.strerror or str(exc))) from None
    if key in _CACHE:
        return _CACHE[key]
    raw = read_bounded(path, MAX_PRESETS_BYTES, PresetError, "shop.presets_file")
    try:
        text = raw.decode("utf-8")
        if toml_depth(text) > MAX_TOML_DEPTH:
            raise PresetError(tr("shop.presets_file.too_deep", path=str(path), max=MAX_TOML_DEPTH))
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PresetError(tr("shop.preset.syntax", path=str(path), error=str(exc))) from None
    except RecursionError:  # brackets the scan did not see: still a clear error
        raise PresetError(tr("shop.presets_file.too_deep", path=str(path),
                             max=MAX_TOML_DEPTH)) from None
    problems: list[Problem] = []
    presets = {}
    for name, entry in data.items():
        preset = _build(name, entry, str(path), problems)
        if preset is not None:
            presets[name] = preset
    if problems:
        raise PresetError(tr("shop.preset.problems", path=str(path), n=len(problems)), problems)
    _CACHE[key] = presets
    return presets


def get_preset(name: str, path: Path | None = None) -> Preset:
    presets = load_presets(path)
    if name not in presets:
        raise PresetError(tr("shop.preset.unknown", name=name, names=", ".join(presets) or "—"))
    return presets[name]


# --------------------------------------------------------------------------- drawing on a canvas

@dataclass(slots=True, frozen=True)
class Fit:
    """How a template's card sits on a preset's canvas at some dpi."""

    template: Template  # the template with the bleed and safe zone the canvas needs
    dpi: float  # the resolution the template is drawn at (its mm → the preset's trim)
    scale: float  # template mm → preset mm
    crop: tuple[int, int, int, int]  # the canvas inside the drawn card (with its bleed)
    proportions_differ: bool
    extra_mm: tuple[float, float]  # background added across the trim (width, height), preset mm


_FITS: dict[tuple[int, Preset, float], tuple[Template, Fit]] = {}


def fit(template: Template, preset: Preset, dpi: float | None = None) -> Fit:
    """How ``template`` is drawn to fill ``preset``'s canvas at ``dpi`` (cached: the caches of
    the card drawing are keyed by the template object)."""
    dpi = dpi or preset.dpi
    key = (id(template), preset, float(dpi))
    found = _FITS.get(key)
    if found is not None and found[0] is template:
        return found[1]
    g = preset.geometry(dpi)
    tw_px, th_px = g.trim[2] - g.trim[0], g.trim[3] - g.trim[1]
    ppm = min(tw_px / template.width_mm, th_px / template.height_mm)  # canvas px per template mm
    draw_dpi = ppm * MM_PER_INCH
    safe_t = preset.px(preset.safe_mm, dpi) / ppm  # the preset's safe margin in template mm
    cw, ch = g.canvas
    bleed = max((cw / ppm - template.width_mm) / 2, (ch / ppm - template.height_mm) / 2,
                template.bleed_mm) + 2 / ppm
    changes: dict[str, Any] = {"bleed_mm": bleed}
    if safe_t > template.safe_mm + 1e-9:
        nums = {"safe_mm": safe_t, "width_mm": template.width_mm, "height_mm": template.height_mm}
        regions = {}
        for name, region in template.regions.items():
            if name != "art":
                region = dataclasses.replace(region, box=_inside_safe(region.box, nums))
            regions[name] = region
        changes.update(safe_mm=safe_t, regions=regions)
    shop_t = dataclasses.replace(template, **changes)
    # the trim's centre in the drawn image → the canvas's trim centre
    off = round(bleed * draw_dpi / MM_PER_INCH)
    cx = off + template.width_mm * ppm / 2
    cy = off + template.height_mm * ppm / 2
    tx, ty = (g.trim[0] + g.trim[2]) / 2, (g.trim[1] + g.trim[3]) / 2
    x0, y0 = round(cx - tx), round(cy - ty)
    scale = ppm / preset.px(1.0, dpi)
    pw, ph = preset.trim_mm
    extra = (pw - template.width_mm * scale, ph - template.height_mm * scale)
    differ = abs((template.width_mm / template.height_mm) / (pw / ph) - 1) > FIT_TOLERANCE
    result = Fit(shop_t, draw_dpi, scale, (x0, y0, x0 + cw, y0 + ch), differ, extra)
    if len(_FITS) > 256:
        _FITS.clear()
    _FITS[key] = (template, result)
    return result


def fit_note(template: Template, preset: Preset) -> str | None:
    """In words, how a template's card is fitted to a preset (None: it is the preset's size)."""
    f = fit(template, preset)
    pw, ph = preset.trim_mm
    if abs(f.scale - 1) < 1e-3 and not f.proportions_differ and max(f.extra_mm) < 0.05:
        return None
    values = dict(template=template.name, width=f"{template.width_mm:g}",
                  height=f"{template.height_mm:g}", preset=preset.name,
                  trim_width=f"{pw:.1f}", trim_height=f"{ph:.1f}",
                  percent=f"{f.scale * 100:.1f}")
    if f.proportions_differ:
        axis = "width" if f.extra_mm[0] > f.extra_mm[1] else "height"
        return tr(f"shop.fit.differ_{axis}", extra=f"{max(f.extra_mm):.1f}", **values)
    return tr("shop.fit.scaled", extra=f"{max(f.extra_mm):.1f}", **values)


def on_canvas(drawn: Image.Image, f: Fit) -> Image.Image:
    """The canvas cut out of a card drawn with ``f.template`` at ``f.dpi`` with bleed."""
    x0, y0, x1, y1 = f.crop
    if x0 < 0 or y0 < 0 or x1 > drawn.width or y1 > drawn.height:  # pragma: no cover - guarded by fit()
        raise PresetError(f"canvas {f.crop} outside the drawn card {drawn.size}")
    return drawn.crop(f.crop).convert("RGB")


TRIM_LINE = "#111111"  # with a white line just inside: reads on any card colour
SAFE_LINE = "#1f6feb"


def draw_overlay(img: Image.Image, g: Geometry, *, origin: tuple[int, int] = (0, 0),
                 scale: float = 1.0) -> None:
    """The trim (solid black and white) and safe (dashed blue) lines of ``g`` on ``img``."""
    d = ImageDraw.Draw(img)
    ox, oy = origin
    width = max(1, round(2 * scale))

    def rect(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = (v * scale for v in box)
        return ox + x0, oy + y0, ox + x1 - 1, oy + y1 - 1

    x0, y0, x1, y1 = rect(g.trim)
    d.rectangle((x0, y0, x1, y1), outline=TRIM_LINE, width=width)
    d.rectangle((x0 + width, y0 + width, x1 - width, y1 - width), outline="#ffffff", width=width)
    x0, y0, x1, y1 = rect(g.safe)
    dash = max(4, round(12 * scale))
    for a, b, fixed, horizontal in ((x0, x1, y0, True), (x0, x1, y1, True),
                                    (y0, y1, x0, False), (y0, y1, x1, False)):
        pos = a
        while pos < b:
            end = min(pos + dash, b)
            if horizontal:
                d.line((pos, fixed, end, fixed), fill=SAFE_LINE, width=width)
            else:
                d.line((fixed, pos, fixed, end), fill=SAFE_LINE, width=width)
            pos += 2 * dash


def shop_face(card: CardDef, template: Template, preset: Preset, options: RenderOptions, *,
              fingerprint: str | None = None, dpi: float | None = None) -> Image.Image:
    """The face of ``card`` on exactly ``preset``'s canvas (at ``dpi``, the preset's by default)."""
    f = fit(template, preset, dpi)
    opts = dataclasses.replace(options, dpi=f.dpi, bleed=True)
    return on_canvas(render_card(card, f.template, opts, fingerprint=fingerprint), f)


def shop_back(template: Template, preset: Preset, dpi: float | None = None) -> Image.Image:
    """The template's card back on exactly ``preset``'s canvas."""
    f = fit(template, preset, dpi)
    return on_canvas(render_back(f.template, f.dpi, True), f)
