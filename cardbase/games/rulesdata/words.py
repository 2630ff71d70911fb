"""Words of a rules file shown to the players (``docs/rules-language.md``): a number's word and an
action's label with values.

* **``[names]``**: tables giving a number its word — ``rang = { 1 = "As", 11 = "Valet" }`` (a
  text, or ``{ fr = "…", en = "…" }``) — read in any expression as ``name('rang', annonce)``: the
  word of that number in the player's language, or the number itself when the table has none.
* **A label with values**: ``label = { fr = "Annoncer {count('chosen')} × {name('rang', annonce)}" }``
  — each ``{…}`` an expression, checked when the file is read (a problem names its line and key),
  evaluated for the acting seat when the action is offered and when it is logged (before its cards
  move; a set action's ``chosen`` is the set offered).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from cardbase.i18n import current_language

from .expr import CHOSEN

if TYPE_CHECKING:
    from .engine import State
    from .language import Action

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
MAX_NAMES = 200  # words of one [names] table


# ------------------------------------------------------------------ reading the file

def names_tables(c: Any, raw: Any) -> dict[str, dict[int, dict[str, str]]]:
    """``[names]``: each table's words by number (by language); a problem for a bad table, a key
    that is not a whole number or a word that is not a text."""
    out: dict[str, dict[int, dict[str, str]]] = {}
    if raw is None:
        return out
    for name, table in c.table(raw, ["names"]).items():
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name) or not isinstance(table, dict) \
                or not 1 <= len(table) <= MAX_NAMES:
            c.add(["names", name], "rulesdata.names_table", "rulesdata.names_table_fix", name=name,
                  most=MAX_NAMES)
            continue
        words: dict[int, dict[str, str]] = {}
        for key, word in table.items():
            if isinstance(word, str):
                word = {"fr": word, "en": word}
            if not re.fullmatch(r"-?\d{1,7}", str(key)) or not isinstance(word, dict) or not word \
                    or not all(isinstance(v, str) and len(v) <= 200 for v in word.values()):
                c.add(["names", name, key], "rulesdata.names_word", "rulesdata.names_word_fix",
                      name=name, key=key)
                continue
            words[int(key)] = dict(word)
        out[name] = words
    return out


def label_parts(ctx: Any, raw: Any, label: dict[str, str], parts: list[Any]) -> dict[str, tuple] | None:
    """The label's texts cut at their ``{…}``, each expression compiled (for the acting seat; a
    set action's ``chosen`` readable); None when no language's text holds one."""
    if not any("{" in t or "}" in t for t in label.values()):
        return None
    out: dict[str, tuple] = {}
    for lang, text in label.items():
        pieces: list[Any] = []
        at = 0
        for m in _PLACEHOLDER.finditer(text):
            pieces.append(text[at:m.start()])
            e = ctx.expr(m.group(1), parts, card=False)
            if e is None:
                return None  # the problem is said (line, key, the expression)
            pieces.append(e)
            at = m.end()
        pieces.append(text[at:])
        if any("{" in p or "}" in p for p in pieces if isinstance(p, str)):
            ctx.c.add(parts, "rulesdata.label_braces", "rulesdata.label_braces_fix", text=text)
            return None
        out[lang] = tuple(p for p in pieces if not isinstance(p, str) or p)
    return out


# ------------------------------------------------------------------ in play

def name_of(s: Any, _seat: int, table: str, value: Any) -> Any:
    """``name('rang', annonce)``: the number's word in the player's language (else the number)."""
    word = s.rules.names.get(table, {}).get(value) if isinstance(value, int) else None
    if word is None:
        return value
    return word.get(current_language()) or word.get("fr") or next(iter(word.values()))


FUNCTIONS: dict[str, Any] = {"_f_name": name_of}


def label(s: State, a: Action, seat: int, chosen: list[int] | None = None) -> str:
    """The action's label for ``seat`` in the player's language, its values filled in (``chosen``:
    the cards of the set offered, for a set action)."""
    lang = current_language()
    plain = a.label.get(lang) or a.label.get("fr") or a.name
    parts = a.label_parts
    if not parts:
        return plain
    pieces = parts.get(lang) or parts.get("fr") or next(iter(parts.values()))
    bound = chosen is not None and CHOSEN not in s.zones
    if bound:
        s.zones[CHOSEN] = [chosen]
    try:
        return "".join(p if isinstance(p, str) else _text(s._eval(p, max(seat, 0))) for p in pieces)
    finally:
        if bound:
            del s.zones[CHOSEN]


def _text(v: Any) -> str:
    if v is True or v is False:
        return "✓" if v else "✗"
    return "—" if v is None else str(v)
