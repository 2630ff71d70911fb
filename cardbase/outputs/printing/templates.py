"""Card templates: layouts as data files in ``card_templates/``, in millimetres.

A template file (TOML or JSON) gives the card size, bleed, safe zone, colours, the card back and
the regions of the card face. ``extends = "poker"`` starts from another template and overrides
parts of it — the parent is looked for beside the child, then in the templates folder asked for,
then among the shipped templates, so a template kept anywhere can start from a shipped one; when a
child changes the card size, the regions it inherits are scaled to the new size (text sizes by the
smaller of the two ratios). Every region but the art is kept inside the safe zone (``safe_mm``
from the trim): a box reaching into it is moved inwards, and shrunk if it is larger than the safe
area. ``types = [...]`` lists the card types a ``<game>-<name>`` template is for. Every problem in
a file is reported at once.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import ImageColor

from cardbase import config
from cardbase.errors import Problem, TemplateError
from cardbase.i18n import tr
from cardbase.outputs.printing.fonts import font_path
from cardbase.text import fold

MAX_TEMPLATE_BYTES = 1024 * 1024  # a template is a few kB
MAX_TEMPLATE_DEPTH = 20  # lists and tables; the shipped templates nest one level
# The card's size and edges, checked on loading (as the print presets' trim and bleed): a card of
# 10 m would ask for a canvas of gigabytes before a single pixel is drawn.
MAX_CARD_MM = 1000.0
MAX_BLEED_MM = 50.0
REGION_NAMES = (
    "name", "value", "band", "art", "type", "effect", "stats", "stickers",
    "rarity", "edition", "number", "fingerprint",
)
REGION_KEYS = (
    "box", "font", "size_pt", "min_size_pt", "align", "valign", "colour", "fill",
    "visible", "line_spacing", "max_lines",
)
CARD_KEYS = (
    "width_mm", "height_mm", "bleed_mm", "safe_mm", "border_mm", "corner_mm",
    "background", "panel", "text_colour", "muted_colour",
)
BACK_KEYS = ("title", "subtitle", "background", "accent", "pattern")
TOP_KEYS = ("name", "extends", "description", "types", "card", "colours", "rarities", "back",
            "regions", "symbols", "bold_keywords")
ALIGNS = ("left", "center", "right")
VALIGNS = ("top", "middle", "bottom")
RARITY_SHAPES = ("circle", "diamond", "star", "triangle", "square", "text")


@dataclass(slots=True, frozen=True)
class Region:
    name: str
    box: tuple[float, float, float, float]  # x, y, width, height in mm from the trim's top-left
    font: str = "regular"
    size_pt: float = 8.0
    min_size_pt: float = 4.5
    align: str = "left"
    valign: str = "top"
    colour: str | None = None
    fill: str | None = None
    visible: bool = True
    line_spacing: float = 1.12
    max_lines: int = 0  # 0 = as many as fit


@dataclass(slots=True, frozen=True)
class Back:
    title: str = ""
    subtitle: str = ""
    background: str = "#22304a"
    accent: str = "#d9b45a"
    pattern: str = "lattice"  # lattice | plain


@dataclass(slots=True, frozen=True, eq=False)  # compared and hashed by identity (caches)
class Template:
    name: str
    source: Path | None
    width_mm: float
    height_mm: float
    bleed_mm: float
    safe_mm: float
    border_mm: float
    corner_mm: float
    background: str
    panel: str
    text_colour: str
    muted_colour: str
    colours: Mapping[str, str]
    rarities: Mapping[str, str]  # folded rarity → shape
    back: Back
    regions: Mapping[str, Region] = field(default_factory=dict)
    types: tuple[str, ...] = ()
    # rich card text (docs/rich-text.md): symbols the game declares (name → a glyph of one or two
    # characters, or an image path), and the keywords printed in bold wherever a text names them
    symbols: Mapping[str, str] = field(default_factory=dict)
    bold_keywords: tuple[str, ...] = ()

    def region(self, name: str) -> Region | None:
        r = self.regions.get(name)
        return r if r is not None and r.visible else None

    def colour_of(self, colour: str | None) -> str:
        """The frame colour of a card: its colour's hue; ``[card] background`` for a card without
        a colour; ``[colours] _default`` (grey-blue) for a colour the template does not list."""
        if not colour:
            return self.background
        key = fold(colour)
        if key in self.colours:
            return self.colours[key]
        return self.colours.get("_default", "#5b6b7f")

    @property
    def base_dir(self) -> Path | None:
        return self.source.parent if self.source else None


# --------------------------------------------------------------------------- locating files

def default_templates_dir() -> Path:
    return config.templates_dir()


def _find_file(name: str, directory: Path) -> Path | None:
    for suffix in (".toml", ".json"):
        path = directory / f"{name}{suffix}"
        if path.is_file():
            return path
    return None


def _read(path: Path) -> dict[str, Any]:
    from cardbase.bounded_io import json_shape, read_bounded, toml_depth

    # at most the limit is read; a named pipe or a device is refused without waiting on it
    raw = read_bounded(path, MAX_TEMPLATE_BYTES, TemplateError, "files.template")
    try:
        text = raw.decode("utf-8")
        deep = (json_shape(text, MAX_TEMPLATE_BYTES, MAX_TEMPLATE_DEPTH) is not None
                if path.suffix == ".json" else toml_depth(text) > MAX_TEMPLATE_DEPTH)
        if deep:  # checked before the parser recurses
            raise TemplateError(tr("files.template.too_deep", path=str(path),
                                   max=MAX_TEMPLATE_DEPTH))
        if path.suffix == ".json":
            data = json.loads(text)
        else:
            data = tomllib.loads(text)
    except UnicodeDecodeError as exc:
        raise TemplateError(tr("printing.tpl.unreadable", path=str(path), reason=str(exc))) from None
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise TemplateError(tr("printing.tpl.syntax", path=str(path), kind=path.suffix[1:].upper(),
                               error=str(exc))) from None
    if not isinstance(data, dict):
        raise TemplateError(tr("printing.tpl.not_table", path=str(path)))
    return data


def _merge(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    out = dict(parent)
    for key, value in child.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _scale_inherited(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """Scale the parent's regions to the child's card size when the child changes it."""
    pcard, ccard = parent.get("card", {}), child.get("card", {})
    if not isinstance(pcard, dict) or not isinstance(ccard, dict) \
            or not isinstance(parent.get("regions", {}), dict):
        return parent  # not tables: _build reports it
    try:
        pw, ph = float(pcard["width_mm"]), float(pcard["height_mm"])
        cw, ch = float(ccard.get("width_mm", pw)), float(ccard.get("height_mm", ph))
    except (KeyError, TypeError, ValueError):
        return parent
    if (pw, ph) == (cw, ch) or pw <= 0 or ph <= 0:
        return parent
    rx, ry = cw / pw, ch / ph
    rt = min(rx, ry)
    regions = {}
    for name, reg in parent.get("regions", {}).items():
        reg = dict(reg) if isinstance(reg, dict) else reg
        if isinstance(reg, dict):
            box = reg.get("box")
            if isinstance(box, list) and len(box) == 4 and all(isinstance(v, (int, float)) for v in box):
                reg["box"] = [box[0] * rx, box[1] * ry, box[2] * rx, box[3] * ry]
            for key in ("size_pt", "min_size_pt"):
                if isinstance(reg.get(key), (int, float)):
                    reg[key] = reg[key] * rt
        regions[name] = reg
    return {**parent, "regions": regions}


def _resolve(name_or_path: str | Path, directory: Path, chain: tuple[str, ...],
             fallbacks: tuple[Path, ...] = ()) -> tuple[dict, Path]:
    path = Path(name_or_path)
    if path.suffix in (".toml", ".json") and (path.is_file() or path.is_absolute()):
        found: Path | None = path if path.is_file() else None
    else:
        found = None
        for folder in (directory, *fallbacks):
            candidate = _find_file(str(name_or_path), folder)
            # a template may extend the shipped template of the same name
            if candidate is not None and (not chain or str(candidate.resolve()) != chain[-1]):
                found = candidate
                break
    if found is None:
        available = sorted(p.stem for p in directory.glob("*.toml")) if directory.is_dir() else []
        raise TemplateError(tr("printing.tpl.not_found", name=str(name_or_path),
                               folder=str(directory), available=", ".join(available) or "—"))
    key = str(found.resolve())
    if key in chain:
        raise TemplateError(tr("printing.tpl.circle", path=str(found), chain=" → ".join(chain)))
    data = _read(found)
    parent_name = data.get("extends")
    if parent_name:
        if not isinstance(parent_name, str):
            raise TemplateError(tr("printing.tpl.extends_name", path=str(found)))
        folders = []
        for folder in (*fallbacks, default_templates_dir()):
            if folder.resolve() != found.parent.resolve() and folder not in folders:
                folders.append(folder)
        parent, _ = _resolve(parent_name, found.parent, (*chain, key), tuple(folders))
        parent = _scale_inherited(parent, data)
        data = _merge(parent, {k: v for k, v in data.items() if k != "extends"})
    return data, found


# --------------------------------------------------------------------------- validation

def _colour_ok(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        ImageColor.getrgb(value)
    except ValueError:
        return False
    return True


def _build(data: dict[str, Any], source: Path) -> Template:
    problems: list[Problem] = []
    where = str(source)

    def bad(code: str, message: str, fix: str, at: str = "") -> None:
        problems.append(Problem(code, message, fix, f"{where}{' ' + at if at else ''}"))

    for key in data:
        if key not in TOP_KEYS:
            bad("unknown-field", tr("printing.tpl.unknown_setting", key=key, keys=", ".join(TOP_KEYS)),
                tr("printing.tpl.unknown_setting_fix", key=key, keys=", ".join(TOP_KEYS)))
    data = dict(data)
    for section in ("card", "colours", "rarities", "back", "regions"):
        if section in data and not isinstance(data[section], dict):
            bad("bad-value", tr("printing.tpl.section_table", section=section, value=repr(data[section])),
                tr("printing.tpl.section_table_fix", section=section, value=repr(data[section])), f"[{section}]")
            data[section] = {}
    card = data.get("card", {})
    for key in card:
        if key not in CARD_KEYS:
            bad("unknown-field", tr("printing.tpl.unknown_card_setting", key=key, keys=", ".join(CARD_KEYS)),
                tr("printing.tpl.unknown_card_setting_fix", key=key, keys=", ".join(CARD_KEYS)),
                "[card]")
    nums = {}
    for key, default in (("width_mm", 63.0), ("height_mm", 88.0), ("bleed_mm", 3.0),
                         ("safe_mm", 3.0), ("border_mm", 2.5), ("corner_mm", 2.5)):
        value = card.get(key, default)
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
            bad("bad-value", tr("printing.tpl.bad_mm", key=key, value=repr(value), default=default),
                tr("printing.tpl.bad_mm_fix", key=key, value=repr(value), default=default), "[card]")
            value = default
        elif value > (most := MAX_BLEED_MM if key == "bleed_mm" else MAX_CARD_MM):
            bad("bad-value", tr("printing.tpl.too_big_mm", key=key, value=repr(value), most=f"{most:g}"),
                tr("printing.tpl.too_big_mm_fix", key=key, most=f"{most:g}"), "[card]")
            value = default
        nums[key] = float(value)
    if nums["width_mm"] <= 0 or nums["height_mm"] <= 0:
        bad("bad-value", tr("printing.tpl.no_size"),
                tr("printing.tpl.no_size_fix"),
            "[card]")
        nums["width_mm"], nums["height_mm"] = 63.0, 88.0
    cols = {}
    for key, default in (("background", "#7a7a7a"), ("panel", "#f7f3ea"),
                         ("text_colour", "#1d1d1f"), ("muted_colour", "#6b6b6b")):
        value = card.get(key, default)
        if not _colour_ok(value):
            bad("bad-colour", tr("printing.tpl.card_colour", key=key, value=repr(value)),
                tr("printing.tpl.card_colour_fix", key=key, value=repr(value)),
                "[card]")
            value = default
        cols[key] = value
    colours = {}
    for key, value in data.get("colours", {}).items():
        if _colour_ok(value):
            colours[fold(key) if key != "_default" else key] = value
        else:
            bad("bad-colour", tr("printing.tpl.colour", key=key, value=repr(value)),
                tr("printing.tpl.colour_fix", key=key, value=repr(value)), "[colours]")
    rarities = {}
    for key, value in data.get("rarities", {}).items():
        if value not in RARITY_SHAPES:
            bad("bad-value", tr("printing.tpl.rarity_shape", key=key, value=repr(value), shapes=", ".join(RARITY_SHAPES)),
                tr("printing.tpl.rarity_shape_fix", key=key, value=repr(value), shapes=", ".join(RARITY_SHAPES)), "[rarities]")
        else:
            rarities[fold(key)] = value
    back_data = data.get("back", {})
    for key in back_data:
        if key not in BACK_KEYS:
            bad("unknown-field", tr("printing.tpl.unknown_back_setting", key=key, keys=", ".join(BACK_KEYS)),
                tr("printing.tpl.unknown_back_setting_fix", key=key, keys=", ".join(BACK_KEYS)),
                "[back]")
    for key in ("background", "accent"):
        if key in back_data and not _colour_ok(back_data[key]):
            bad("bad-colour", tr("printing.tpl.back_colour", key=key, value=repr(back_data[key])),
                tr("printing.tpl.back_colour_fix", key=key, value=repr(back_data[key])), "[back]")
    for key in ("title", "subtitle", "pattern"):
        if key in back_data and not isinstance(back_data[key], str):
            bad("bad-value", tr("printing.tpl.back_text", key=key, value=repr(back_data[key])),
                tr("printing.tpl.back_text_fix", key=key, value=repr(back_data[key])), "[back]")
    back = Back(**{k: v for k, v in back_data.items() if k in BACK_KEYS
                   and (k not in ("background", "accent") or _colour_ok(v))
                   and (k in ("background", "accent") or isinstance(v, str))})

    regions: dict[str, Region] = {}
    for rname, rdata in data.get("regions", {}).items():
        at = f"[regions.{rname}]"
        if rname not in REGION_NAMES:
            bad("unknown-field", tr("printing.tpl.unknown_region", name=rname, names=", ".join(REGION_NAMES)),
                tr("printing.tpl.unknown_region_fix", name=rname, names=", ".join(REGION_NAMES)), at)
            continue
        if not isinstance(rdata, dict):
            bad("bad-value", tr("printing.tpl.region_table"),
                tr("printing.tpl.region_table_fix"), at)
            continue
        ok = True
        for key in rdata:
            if key not in REGION_KEYS:
                bad("unknown-field", tr("printing.tpl.unknown_region_setting", key=key, keys=", ".join(REGION_KEYS)),
                tr("printing.tpl.unknown_region_setting_fix", key=key, keys=", ".join(REGION_KEYS)), at)
                ok = False
        box = rdata.get("box")
        if not (isinstance(box, list) and len(box) == 4
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in box)):
            bad("bad-box", tr("printing.tpl.box_shape", value=repr(box)),
                tr("printing.tpl.box_shape_fix", value=repr(box)), at)
            continue
        x, y, w, h = (float(v) for v in box)
        bl = nums["bleed_mm"]
        if w <= 0 or h <= 0 or x < -bl or y < -bl or x + w > nums["width_mm"] + bl + 1e-6 \
                or y + h > nums["height_mm"] + bl + 1e-6:
            bad("bad-box", tr("printing.tpl.box_outside", box=box, width=f"{nums['width_mm']:g}", height=f"{nums['height_mm']:g}"),
                tr("printing.tpl.box_outside_fix", box=box, width=f"{nums['width_mm']:g}", height=f"{nums['height_mm']:g}"), at)
            ok = False
        if rdata.get("align", "left") not in ALIGNS:
            bad("bad-value", tr("printing.tpl.align", value=repr(rdata["align"]), values=", ".join(ALIGNS)),
                tr("printing.tpl.align_fix", value=repr(rdata["align"]), values=", ".join(ALIGNS)), at)
            ok = False
        if rdata.get("valign", "top") not in VALIGNS:
            bad("bad-value", tr("printing.tpl.valign", value=repr(rdata["valign"]), values=", ".join(VALIGNS)),
                tr("printing.tpl.valign_fix", value=repr(rdata["valign"]), values=", ".join(VALIGNS)), at)
            ok = False
        for key in ("colour", "fill"):
            if rdata.get(key) is not None and not _colour_ok(rdata[key]):
                bad("bad-colour", tr("printing.tpl.region_colour", key=key, value=repr(rdata[key])),
                tr("printing.tpl.region_colour_fix", key=key, value=repr(rdata[key])), at)
                ok = False
        for key in ("size_pt", "min_size_pt", "line_spacing"):
            v = rdata.get(key)
            if v is not None and (not isinstance(v, (int, float)) or isinstance(v, bool) or v <= 0):
                bad("bad-value", tr("printing.tpl.positive", key=key, value=repr(v)),
                tr("printing.tpl.positive_fix", key=key, value=repr(v)), at)
                ok = False
        lines = rdata.get("max_lines", 0)
        if not isinstance(lines, int) or isinstance(lines, bool) or lines < 0:
            bad("bad-value", tr("printing.tpl.max_lines", value=repr(lines)),
                tr("printing.tpl.max_lines_fix", value=repr(lines)), at)
            ok = False
        if not isinstance(rdata.get("visible", True), bool):
            bad("bad-value", tr("printing.tpl.visible", value=repr(rdata["visible"])),
                tr("printing.tpl.visible_fix", value=repr(rdata["visible"])), at)
            ok = False
        font = rdata.get("font", "regular")
        if not isinstance(font, str):
            bad("bad-value", tr("printing.tpl.font", value=repr(font)),
                tr("printing.tpl.font_fix", value=repr(font)), at)
            ok = False
        else:
            try:
                font_path(font, base_dir=source.parent)
            except TemplateError as exc:
                bad("missing-font", str(exc), "", at)
                ok = False
        if ok and rname != "art":
            x, y, w, h = _inside_safe((x, y, w, h), nums)
        if ok:
            fields = {k: v for k, v in rdata.items() if k != "box" and v is not None}
            for key in ("size_pt", "min_size_pt", "line_spacing"):
                if key in fields:
                    fields[key] = float(fields[key])
            if "min_size_pt" in fields or "size_pt" in fields:
                size = fields.get("size_pt", 8.0)
                fields["min_size_pt"] = min(fields.get("min_size_pt", min(4.5, size)), size)
            regions[rname] = Region(name=rname, box=(x, y, w, h), **fields)
    types = data.get("types", [])
    if not isinstance(types, list) or not all(isinstance(v, str) and v.strip() for v in types):
        bad("bad-value", tr("printing.tpl.types", value=repr(types)),
                tr("printing.tpl.types_fix", value=repr(types)), "types")
        types = []
    symbols = _symbols(data.get("symbols", {}), source, bad)
    bold = data.get("bold_keywords", [])
    if not isinstance(bold, list) or not all(isinstance(v, str) and v.strip() for v in bold):
        bad("bad-value", tr("richtext.tpl_bold_keywords", value=repr(bold)),
            tr("richtext.tpl_bold_keywords_fix"), "bold_keywords")
        bold = []
    if problems:
        raise TemplateError(tr("printing.tpl.problems", path=str(source), n=len(problems)), problems)
    return Template(
        name=str(data.get("name") or source.stem), source=source,
        width_mm=nums["width_mm"], height_mm=nums["height_mm"], bleed_mm=nums["bleed_mm"],
        safe_mm=nums["safe_mm"], border_mm=nums["border_mm"], corner_mm=nums["corner_mm"],
        background=cols["background"], panel=cols["panel"], text_colour=cols["text_colour"],
        muted_colour=cols["muted_colour"], colours=colours, rarities=rarities, back=back,
        regions=regions, types=tuple(types), symbols=symbols,
        bold_keywords=tuple(v.strip() for v in bold),
    )


def _symbols(raw: Any, source: Path, bad) -> dict[str, str]:
    """``[symbols]``: name → a glyph (one or two characters of the shipped fonts) or an image."""
    out: dict[str, str] = {}
    if not isinstance(raw, dict):
        bad("bad-value", tr("printing.tpl.section_table", section="symbols", value=repr(raw)),
            tr("printing.tpl.section_table_fix", section="symbols", value=repr(raw)), "[symbols]")
        return out
    for name, value in raw.items():
        ok_name = bool(re.fullmatch(r"[\w-]{1,40}", name)) and not fold(name).startswith("sticker")
        if not ok_name or not isinstance(value, str) or not value.strip():
            bad("bad-value", tr("richtext.tpl_symbol", name=name, value=repr(value)),
                tr("richtext.tpl_symbol_fix"), "[symbols]")
            continue
        if len(value) > 2:
            path = Path(value) if Path(value).is_absolute() else source.parent / value
            if not path.is_file():
                bad("bad-value", tr("richtext.tpl_symbol_image", name=name, path=str(path)),
                    tr("richtext.tpl_symbol_fix"), "[symbols]")
                continue
            value = str(path)
        out[fold(name)] = value
    return out


def _inside_safe(box: tuple[float, float, float, float],
                 nums: dict[str, float]) -> tuple[float, float, float, float]:
    """``box`` moved (and if need be shrunk) so that it stays ``safe_mm`` inside the trim."""
    safe = nums["safe_mm"]
    out = []
    for start, size, total in ((box[0], box[2], nums["width_mm"]), (box[1], box[3], nums["height_mm"])):
        lo, hi = safe, total - safe
        if hi - lo <= 0:  # a safe zone wider than half the card: only keep the box on the card
            lo, hi = 0.0, total
        size = min(size, hi - lo)
        start = min(max(start, lo), hi - size)
        out += [start, size]
    return out[0], out[2], out[1], out[3]


_CACHE: dict[tuple[str, str], Template] = {}


def load_template(name_or_path: str | Path, directory: Path | None = None) -> Template:
    """Load a template by name (``poker``, ``nespanini``…) or path, with its ``extends`` chain."""
    directory = directory or default_templates_dir()
    key = (str(name_or_path), str(directory))
    cached = _CACHE.get(key)
    if cached is not None and cached.source is not None:
        return cached
    data, source = _resolve(name_or_path, directory, (), (directory,))
    template = _build(data, source)
    _CACHE[key] = template
    return template


def clear_cache() -> None:
    _CACHE.clear()


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in fold(text)).strip("-")


def _typed_templates(directory: Path, game: str) -> dict[str, str]:
    """Folded card type → template name, from the ``types`` lists of ``<game>-*`` templates."""
    out: dict[str, str] = {}
    try:
        files = sorted(p for p in directory.iterdir() if p.suffix in (".toml", ".json")
                       and p.stem.startswith(f"{game}-"))
    except OSError:
        return out
    for path in files:
        key = (str(path), path.stat().st_mtime_ns)
        types = _TYPES_CACHE.get(key)
        if types is None:
            try:
                types = _read(path).get("types", [])
            except TemplateError:
                types = []  # reported when the template is loaded
            types = tuple(v for v in types if isinstance(v, str)) if isinstance(types, list) else ()
            _TYPES_CACHE[key] = types
        for t in types:
            out.setdefault(fold(t), path.stem)
    return out


_TYPES_CACHE: dict[tuple[str, int], tuple[str, ...]] = {}


# Game code → the template the game chose (Game.template), filled by catalog.card_defs.
from cardbase.catalog.printinfo import GAME_TEMPLATES  # noqa: E402


def template_name_for(game: str, card_type: str | None, directory: Path | None = None) -> str:
    """The most specific template for a card: ``<game>-<type>``, then a ``<game>-*`` template
    whose ``types`` list holds the card's type, then the template the game chose, then
    ``<game>``, then ``poker``."""
    directory = directory or default_templates_dir()
    if card_type:
        name = f"{game}-{_slug(card_type)}"
        if _find_file(name, directory):
            return name
        typed = _typed_templates(directory, game).get(fold(card_type))
        if typed:
            return typed
    for name in (GAME_TEMPLATES.get(game), game, "poker"):
        if name and _find_file(name, directory):
            return name
    raise TemplateError(tr("printing.tpl.no_template", game=game, folder=str(directory)))


def template_for(game: str, card_type: str | None = None, directory: Path | None = None) -> Template:
    return load_template(template_name_for(game, card_type, directory), directory)
