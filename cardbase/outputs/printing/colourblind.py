"""Colour-blind proofs: how a card's printed colours look to a player with a colour deficiency.

**Method.** The simulation is Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model
for Simulation of Color Vision Deficiency", at full severity (the dichromacies protanopia,
deuteranopia, tritanopia), as ``colorspacious`` implements it (``sRGB1+CVD``, severity 100: a 3 × 3
matrix applied in linear sRGB); the simulated colour is clipped to what a screen can show. Two
colours are compared by their distance ΔE in CAM02-UCS (``colorspacious.deltaE``, CIECAM02 with
its default sRGB viewing conditions). On NesPanini's printed colours this gives, for deuteranopia,
``bleu``/``violet`` 3.7 and ``rouge``/``vert`` 7.5; for protanopia ``rouge``/``marron`` 3.4.

**Threshold.** A pair is *distinct* when its ΔE is at least :data:`DEFAULT_THRESHOLD` (10). In
CAM02-UCS a ΔE of 1 is about the smallest difference seen side by side; card colours must be
told apart at a glance, across the table, in poor light, without a reference next to them, so the
bar is much higher. 10 keeps every NesPanini pair apart for normal vision (the closest is 18) and
flags the pairs colour-blind players report confusing (red/green, blue/purple). Ruling 1 of
docs/printing.md « Colour-blind proofs ».

**Cue.** What else on the printed card tells two colours apart: ``sticker`` (the colours have
different sticker symbols and the template prints the sticker codes), ``banner`` (every card of
the two colours carries a banner and no banner is shared), or ``none``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageColor

from cardbase.domain import CardDef
from cardbase.errors import CardbaseError
from cardbase.i18n import tr

DEFICIENCIES = ("protanopia", "deuteranopia", "tritanopia")
_CVD_TYPE = {"protanopia": "protanomaly", "deuteranopia": "deuteranomaly",
             "tritanopia": "tritanomaly"}
DEFAULT_THRESHOLD = 10.0
SEVERITY = 100
METHOD = ("Machado et al. (2009) at full severity (colorspacious sRGB1+CVD, severity 100), "
          "ΔE in CAM02-UCS (colorspacious deltaE)")
CUES = ("sticker", "banner", "none")


class ColourError(CardbaseError):
    """A deficiency name that does not exist, a threshold that makes no sense."""


def check_deficiency(name: str) -> str:
    key = (name or "").strip().lower()
    if key not in DEFICIENCIES:
        raise ColourError(tr("shop.cvd.unknown", name=name, names=", ".join(DEFICIENCIES)))
    return key


def hex_of(colour: str) -> str:
    r, g, b = ImageColor.getrgb(colour)[:3]
    return f"#{r:02x}{g:02x}{b:02x}"


def _srgb1(colour: str) -> np.ndarray:
    return np.array(ImageColor.getrgb(colour)[:3], dtype=float) / 255


@lru_cache(maxsize=8)
def _matrix(deficiency: str) -> np.ndarray:
    from colorspacious import machado_et_al_2009_matrix

    return np.asarray(machado_et_al_2009_matrix(_CVD_TYPE[deficiency], SEVERITY), dtype=float)


def simulate(colour: str, deficiency: str) -> np.ndarray:
    """The colour (sRGB, 0–1) as seen with ``deficiency`` (``normal``: unchanged)."""
    rgb = _srgb1(colour)
    if deficiency == "normal":
        return rgb
    from colorspacious import cspace_convert

    space = {"name": "sRGB1+CVD", "cvd_type": _CVD_TYPE[check_deficiency(deficiency)],
             "severity": SEVERITY}
    return np.clip(cspace_convert(rgb, space, "sRGB1"), 0.0, 1.0)


def delta_e(a: str, b: str, deficiency: str = "normal") -> float:
    """ΔE (CAM02-UCS) between colours ``a`` and ``b`` as a player with ``deficiency`` sees them."""
    from colorspacious import deltaE

    return float(deltaE(simulate(a, deficiency), simulate(b, deficiency), input_space="sRGB1"))


# --------------------------------------------------------------------------- images

def _to_linear_lut() -> np.ndarray:
    v = np.arange(256, dtype=np.float64) / 255
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


_LINEAR = _to_linear_lut()
_ENCODE_STEPS = 4096


@lru_cache(maxsize=1)
def _encode_lut() -> np.ndarray:
    """Linear 0–1 (in 4096 steps) → sRGB byte."""
    v = np.linspace(0, 1, _ENCODE_STEPS + 1)
    s = np.where(v <= 0.0031308, v * 12.92, 1.055 * np.power(v, 1 / 2.4) - 0.055)
    return np.clip(np.round(s * 255), 0, 255).astype(np.uint8)


def simulate_image(img: Image.Image, deficiency: str) -> Image.Image:
    """``img`` as a player with ``deficiency`` sees it: every pixel through the same simulation
    as :func:`simulate` (alpha kept). Same size, same layout; only the colours change."""
    deficiency = check_deficiency(deficiency)
    alpha = img.getchannel("A") if img.mode in ("RGBA", "LA") else None
    rgb = np.asarray(img.convert("RGB"))
    lin = _LINEAR[rgb].astype(np.float32)  # h × w × 3
    out = lin @ _matrix(deficiency).T.astype(np.float32)
    np.clip(out, 0.0, 1.0, out=out)
    idx = np.rint(out * _ENCODE_STEPS).astype(np.int32)
    result = Image.fromarray(_encode_lut()[idx], "RGB")
    if alpha is not None:
        result.putalpha(alpha)
    return result


# --------------------------------------------------------------------------- the report

def card_colours(cards: Iterable[CardDef], templates_dir: Path | None = None
                 ) -> tuple[dict[str, str], dict[str, list[CardDef]], dict[str, bool]]:
    """The colours the cards use as their templates print them: name → ``#rrggbb``; the cards of
    each colour; whether the template of each colour prints the sticker codes."""
    from cardbase.outputs.printing.templates import template_for

    colours: dict[str, str] = {}
    members: dict[str, list[CardDef]] = {}
    stickers: dict[str, bool] = {}
    for card in cards:
        if not card.colour:
            continue
        t = template_for(card.game, card.card_type, templates_dir)
        printed = hex_of(t.colour_of(card.colour))
        name = card.colour
        if name in colours and colours[name] != printed:  # another template prints it otherwise
            name = f"{card.colour} ({t.name})"
        colours.setdefault(name, printed)
        members.setdefault(name, []).append(card)
        stickers[name] = stickers.get(name, True) and t.region("stickers") is not None
    return colours, members, stickers


def _symbol(colour: str, table: Mapping[str, str] | None) -> str | None:
    from cardbase.errors import StickerError
    from cardbase.catalog.stickers import colour_symbol

    try:
        return colour_symbol(colour.split(" (")[0], table)
    except StickerError:
        return None


def _cue(a: str, b: str, members: dict[str, list[CardDef]], stickers: dict[str, bool],
         symbols: dict[str, str | None]) -> str:
    if stickers.get(a) and stickers.get(b) and symbols.get(a) and symbols.get(b) \
            and symbols[a] != symbols[b]:
        return "sticker"
    banners_a = [c.banner for c in members.get(a, [])]
    banners_b = [c.banner for c in members.get(b, [])]
    if banners_a and banners_b and all(banners_a) and all(banners_b) \
            and not set(banners_a) & set(banners_b):
        return "banner"
    return "none"


def colour_report(cards: Iterable[CardDef], *, threshold: float = DEFAULT_THRESHOLD,
                  sticker_table: Mapping[str, str] | None = None,
                  templates_dir: Path | None = None) -> dict[str, Any]:
    """Every pair of the cards' printed colours, for each deficiency and normal vision, worst
    (smallest ΔE) first: ``{"method", "threshold", "colours", "pairs"}``."""
    if not (isinstance(threshold, (int, float)) and 0 < threshold <= 100):
        raise ColourError(tr("shop.cvd.bad_threshold", value=threshold))
    colours, members, stickers = card_colours(cards, templates_dir)
    symbols = {name: _symbol(name, sticker_table) for name in colours}
    pairs = []
    for a, b in itertools.combinations(sorted(colours), 2):
        cue = _cue(a, b, members, stickers, symbols)
        for deficiency in (*DEFICIENCIES, "normal"):
            d = delta_e(colours[a], colours[b], deficiency)
            pairs.append({"a": a, "b": b, "deficiency": deficiency, "delta_e": round(d, 2),
                          "distinct": d >= threshold, "cue": cue})
    order = {name: i for i, name in enumerate((*DEFICIENCIES, "normal"))}
    pairs.sort(key=lambda p: (p["delta_e"], order[p["deficiency"]], p["a"], p["b"]))
    return {"method": METHOD, "threshold": float(threshold), "colours": colours,
            "symbols": symbols, "pairs": pairs}


def fix_for(pair: Mapping[str, Any], symbols: Mapping[str, str | None] | None = None) -> str:
    """The fix to consider for a pair at risk, in the current language."""
    a, b = pair["a"], pair["b"]
    if pair["cue"] == "sticker":
        return tr("shop.cvd.fix_sticker", a=a, b=b)
    if pair["cue"] == "banner":
        return tr("shop.cvd.fix_banner", a=a, b=b)
    symbols = symbols or {}
    missing = [c for c in (a, b) if not symbols.get(c)]
    if missing:
        return tr("shop.cvd.fix_no_symbol", a=a, b=b, missing=", ".join(missing))
    return tr("shop.cvd.fix_none", a=a, b=b)


def deficiency_label(name: str) -> str:
    return tr(f"shop.cvd.name.{name}")
