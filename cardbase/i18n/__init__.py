"""Interface strings, one translation table per language (``fr.toml``, ``en.toml``).

Keys are dotted (``cards.title``); values are ``str.format`` templates. French is the default and
the reference: a key missing in another language falls back to French, then to the key itself.
Game terms (Foule, Légendaire, Défausse, Cimetière) stay as the rules write them in every language.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["DEFAULT", "LANGUAGES", "keys", "table", "translate"]

DEFAULT = "fr"
LANGUAGES: dict[str, str] = {"fr": "Français", "en": "English"}
_DIR = Path(__file__).resolve().parent


def _flatten(data: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in data.items():
        full = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flatten(value, full + "."))
        else:
            out[full] = str(value)
    return out


@cache
def table(lang: str) -> dict[str, str]:
    """Every string of ``lang`` by dotted key (an unknown language gives the default one)."""
    if lang not in LANGUAGES:
        lang = DEFAULT
    with (_DIR / f"{lang}.toml").open("rb") as fh:
        return _flatten(tomllib.load(fh))


def keys(lang: str = DEFAULT) -> set[str]:
    return set(table(lang))


def translate(lang: str, key: str, /, **values: Any) -> str:
    """The string ``key`` in ``lang``, formatted with ``values``."""
    text = table(lang).get(key)
    if text is None:
        text = table(DEFAULT).get(key, key)
    if values:
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError):
            return text
    return text
