"""Every sentence a user reads, in French (the default) and English.

Two kinds of tables, merged into one dotted-key table per language:

- ``fr.toml`` / ``en.toml``: the app's interface strings, one file per language;
- ``messages/<area>.toml``: service, command-line and printed-card messages, each key holding both
  languages side by side::

      [decks.too_few]
      fr = "Le deck a {count} cartes, il en faut {size}."
      en = "The deck has {count} cards; it needs {size}."

Values are ``str.format`` templates. A word that agrees with a number is written ``{n|carte|cartes}``
(the value ``n``, then the singular and the plural): « 1 carte », « 3 cartes »; French takes the
singular below 2 (« 0 réponse », « 1,5 point »), English for 1 alone (« 0 answers »). French is the reference: a key missing in another language
falls back to French, then to the key itself — except in strict mode (``CARDBASE_I18N_STRICT=1``,
set by the test suite), where a missing key raises ``KeyError`` so that a message without a
translation fails a test.

The *current language* is a context variable: French unless ``CARDBASE_LANG`` says otherwise; the
CLI's ``--lang`` and the app's language switch call :func:`set_language`. Services build their
messages with :func:`tr`, in the current language. Game terms (Foule, Légendaire, Défausse,
Cimetière) stay as the rules write them in every language. Machine-readable parts (``--json`` keys,
problem codes) never go through here.

Part of the shared kernel at the bottom of the house: it imports nothing of cardbase, and every
layer may import it.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["DEFAULT", "LANGUAGES", "current_language", "find", "fmt_num", "fmt_pct", "keys", "plural_is_one",
           "set_language", "table", "tr", "translate", "use_language"]

DEFAULT = "fr"
LANGUAGES: dict[str, str] = {"fr": "Français", "en": "English"}
_DIR = Path(__file__).resolve().parent
_MESSAGES = _DIR / "messages"


def _flatten(data: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in data.items():
        full = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flatten(value, full + "."))
        else:
            out[full] = str(value)
    return out


def _flatten_pairs(data: dict[str, Any], lang: str, prefix: str = "") -> dict[str, str]:
    """Leaves of a messages file are tables whose keys are language codes."""
    out: dict[str, str] = {}
    for key, value in data.items():
        full = f"{prefix}{key}"
        if not isinstance(value, dict):
            raise ValueError(f"i18n messages: {full} must be a table of languages (fr = …, en = …)")
        if value and set(value) <= set(LANGUAGES) and all(isinstance(v, str) for v in value.values()):
            if lang in value:
                out[full] = value[lang]
        else:
            out.update(_flatten_pairs(value, lang, full + "."))
    return out


@cache
def _read(path: Path) -> dict[str, Any]:
    """One messages file, parsed once for every language."""
    with path.open("rb") as fh:
        return tomllib.load(fh)


@cache
def _area_table(lang: str, area: str) -> dict[str, str]:
    """The messages of one area, ``messages/<area>.toml`` (keys start with the area's name)."""
    path = _MESSAGES / f"{area}.toml"
    if not area.isidentifier() or not path.is_file():
        return {}
    return _flatten_pairs(_read(path), lang)


def find(lang: str, key: str, *, area_only: bool = False) -> str | None:
    """The template of ``key`` in ``lang``, or None; reads only the key's area file when it can.

    A command that prints a few messages then parses one small file rather than every table.
    ``area_only``: look in ``messages/<area>.toml`` only, for callers that try several keys.
    """
    if lang not in LANGUAGES:
        lang = DEFAULT
    text = _area_table(lang, key.partition(".")[0]).get(key)
    if text is not None or area_only:
        return text
    # the interface strings next, then every table: a page's first words wait for one file only
    text = _interface_table(lang).get(key)
    return text if text is not None else table(lang).get(key)


@cache
def _interface_table(lang: str) -> dict[str, str]:
    """The interface strings of ``lang`` alone (``fr.toml``, ``en.toml``): part of :func:`table`."""
    with (_DIR / f"{lang}.toml").open("rb") as fh:
        return _flatten(tomllib.load(fh))


@cache
def table(lang: str) -> dict[str, str]:
    """Every string of ``lang`` by dotted key (an unknown language gives the default one)."""
    if lang not in LANGUAGES:
        lang = DEFAULT
    out = dict(_interface_table(lang))
    if _MESSAGES.is_dir():
        for path in sorted(_MESSAGES.glob("*.toml")):
            for key, value in _flatten_pairs(_read(path), lang).items():
                if key in out:
                    raise ValueError(f"i18n: key {key} defined twice ({path.name})")
                out[key] = value
    return out


def keys(lang: str = DEFAULT) -> set[str]:
    return set(table(lang))


def _strict() -> bool:
    return os.environ.get("CARDBASE_I18N_STRICT", "").strip().lower() in ("1", "true", "yes", "on")


_AGREE = re.compile(r"\{(\w+)\|([^{}|]*)\|([^{}|]*)\}")


def _number(value: Any) -> float | None:
    """The number a value stands for: a number, or a text as the messages write one (« 1 234,5 »)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        text = value.replace("\u202f", "").replace("\u00a0", "").replace(" ", "").replace(",", ".")
        try:
            return float(text)
        except ValueError:
            return None
    return None


def plural_is_one(lang: str, value: Any) -> bool:
    """``value`` takes the singular in ``lang``: French below 2 (« 0 carte », « 1,5 point »),
    English 1 alone (« 0 cards »), and not 1 written with decimals (« 1.00 points »); a value that
    is not a number takes the plural."""
    n = _number(value)
    if n is None:
        return False
    if lang == "fr":
        return abs(n) < 2
    return abs(n) == 1 and not (isinstance(value, str) and any(c in value for c in ".,"))


def _agree(text: str, lang: str, values: dict[str, Any]) -> str:
    """Each ``{n|singular|plural}`` of ``text`` replaced by the word that agrees with ``values[n]``."""
    def word(m: re.Match[str]) -> str:
        name, one, many = m.groups()
        return one if name in values and plural_is_one(lang, values[name]) else many
    return _AGREE.sub(word, text)


def translate(lang: str, key: str, /, **values: Any) -> str:
    """The string ``key`` in ``lang``, formatted with ``values``."""
    text = find(lang, key)
    if text is None:
        if _strict():
            raise KeyError(f"i18n: no translation for {key!r} in {lang!r}")
        text = find(DEFAULT, key) or key
    if values:
        if "|" in text:
            text = _agree(text, lang, values)
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError):
            if _strict():
                raise
            return text
    return text


def _initial_language() -> str:
    env = os.environ.get("CARDBASE_LANG", "").strip().lower()[:2]
    return env if env in LANGUAGES else DEFAULT


_current: ContextVar[str] = ContextVar("cardbase_lang", default=_initial_language())  # noqa: B039 - a str


def current_language() -> str:
    return _current.get()


def set_language(lang: str | None) -> str:
    """Make ``lang`` the current language (an unknown or empty one gives the default)."""
    code = (lang or "").strip().lower()[:2]
    code = code if code in LANGUAGES else DEFAULT
    _current.set(code)
    return code


@contextmanager
def use_language(lang: str) -> Iterator[str]:
    """The current language is ``lang`` inside the block."""
    code = (lang or "").strip().lower()[:2]
    token = _current.set(code if code in LANGUAGES else DEFAULT)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def tr(key: str, /, **values: Any) -> str:
    """The message ``key`` in the current language, formatted with ``values``."""
    return translate(_current.get(), key, **values)


def fmt_num(value: float, digits: int | None = 2, *, signed: bool = False, lang: str | None = None) -> str:
    """``value`` with ``digits`` decimals as the current language (or ``lang``) writes it (French:
    « 3,50 »; ``digits`` None: as few as it needs, « 2,5 », « 10 »); ``signed``: a plus sign
    before a positive number (« +0,25 »)."""
    spec = "g" if digits is None else f".{digits}f"
    text = format(value, ("+" if signed else "") + spec)
    return text.replace(".", ",") if (lang or _current.get()) == "fr" else text


def fmt_pct(rate: float, digits: int = 1, *, signed: bool = False, unit: bool = True,
            lang: str | None = None) -> str:
    """A rate in [0, 1] as a percentage in the current language (or ``lang``): « 57,3 % »;
    ``signed``: « +2,5 % »; ``unit`` False: the number alone (« 57,3 », for a message that writes
    its own « % »)."""
    text = fmt_num(100 * rate, digits, signed=signed, lang=lang)
    return f"{text} %" if unit else text
