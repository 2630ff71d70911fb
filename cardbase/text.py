"""Text helpers shared by search, deck lists and the data files."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import filterfalse

_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=4096)  # colours, types, keywords and effect texts repeat across cards
def fold(text: str | None) -> str:
    """Lower-case, accent-free, single-spaced form used for matching ("Légendaire" → "legendaire")."""
    if not text:
        return ""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(filterfalse(unicodedata.combining, decomposed))
    stripped = stripped.replace("œ", "oe").replace("Œ", "oe").replace("æ", "ae").replace("Æ", "ae")
    stripped = stripped.replace("’", "'")
    return _SPACES.sub(" ", stripped.casefold()).strip()


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def has_control(text: str) -> bool:
    """Whether a one-line text (a name) holds a control character: NUL, a line break, a tab, or an
    escape that a terminal would run (``\\x1b[2J`` clears the screen of whoever lists the cards)."""
    return bool(_CONTROL.search(text))


def card_ref(edition_code: str, number: int) -> str:
    """The collector reference of a card, e.g. ``NP1-012``."""
    return f"{edition_code}-{number:03d}"


_REF = re.compile(r"^(?P<edition>[A-Za-z0-9]+)-(?P<number>\d{1,4})$")


def parse_card_ref(text: str) -> tuple[str, int] | None:
    m = _REF.match(text.strip())
    if not m:
        return None
    return m.group("edition").upper(), int(m.group("number"))


# Feminine and plural forms of French colour names, as the rule texts write them
# ("cartes Violettes", "Grise"), mapped to the canonical masculine singular.
_COLOUR_FORMS = {
    "bleue": "bleu", "bleus": "bleu", "bleues": "bleu",
    "verte": "vert", "verts": "vert", "vertes": "vert",
    "violette": "violet", "violets": "violet", "violettes": "violet",
    "grise": "gris", "grises": "gris",
    "noire": "noir", "noirs": "noir", "noires": "noir",
    "blanche": "blanc", "blancs": "blanc", "blanches": "blanc",
    "rouges": "rouge", "jaunes": "jaune", "oranges": "orange", "roses": "rose",
    "marrons": "marron",
}


def canonical_colour(name: str | None) -> str:
    """Canonical colour key: folded, masculine singular ("Violettes" → "violet")."""
    key = fold(name)
    return _COLOUR_FORMS.get(key, key)


# The characters that mean something in rich card text (docs/rich-text.md); cardbase.catalog.richtext
# parses them, and everything that writes literal text into the markup escapes them.
MARKUP_SPECIAL = frozenset("*{}~\\")


def escape(text: str) -> str:
    """Literal text written in the markup: every special character behind a backslash."""
    return "".join("\\" + c if c in MARKUP_SPECIAL else c for c in text)
