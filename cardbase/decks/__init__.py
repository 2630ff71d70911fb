"""Deck lists, deck rules, statistics, deck codes and saved decks with their versions.

One parser (:func:`parse_deck_list`), one resolver against the database (:func:`resolve_deck`),
one legality checker (:func:`check_deck`). The CLI, the app and the tests all go through them.

The deck-list format, the deck-code format and the rulings are described in ``docs/decks.md``.

Decks sit above the games and storage: they may import storage, the games (a game's rule of
thumb about decks: ``warnings``) and the kernel, never the catalog's services, playtest, outputs
or a face (Streamlit, Typer).

The package by concern: ``lists`` (values, parsing, files), ``resolve``, ``legality``, ``stats``,
``codes``, ``saved`` (saved decks and versions), ``warnings``; every name is re-exported here.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .legality import (  # noqa: F401
    _rule_problems,
    check_card_defs,
    check_deck,
    copy_limit_for,
)
from .lists import (  # noqa: F401
    _BAD_CHARS,
    _BAD_TEXT_CHARS,
    _COUNT,
    _META,
    _UNSTORABLE,
    MAX_CODE_CHARS,
    MAX_COUNT,
    MAX_DECK_NAME,
    MAX_LINES,
    MAX_LIST_CHARS,
    MAX_NAME,
    MAX_NOTE,
    METADATA_KEYS,
    STARTER_NOTE,
    DeckLine,
    DeckList,
    Legality,
    ResolvedDeck,
    ResolvedEntry,
    _at,
    _meta_label,
    _one,
    _or,
    _shown,
    _split_comment,
    _storable,
    format_deck_list,
    n_cards,
    n_copies,
    parse_deck_list,
    read_deck_file,
)
from .resolve import (  # noqa: F401
    _as_resolved,
    _Catalog,
    _load_catalog,
    _names_of_game,
    _require_game,
    _suggest,
    _to_deck_list,
    get_game,
    resolve_deck,
)
from .stats import (  # noqa: F401
    DRAW_PLANS,
    NESPANINI_DRAWS,
    CardOdds,
    DeckStats,
    DrawPlan,
    deck_stats,
    prob_at_least_one,
)

# Deck codes and saved decks read and write through SQLAlchemy: their names are loaded on first
# use, so that checking a deck list (``deck validate``, ``deck stats``) on the read-only path
# (cardbase.storage.readonly) starts without it. ``from cardbase.decks import save_deck`` works as
# before.
_LAZY: dict[str, str] = {name: "codes" for name in (
    "CODE_VERSION", "DecodedDeck", "DecodedEntry", "_card_hash", "_deck_fingerprint", "_Reader",
    "_varint", "card_fingerprint_text", "decode_deck_code", "encode_deck_code", "read_deck_code",
)}
_LAZY.update({name: "saved" for name in (
    "DeckDiff", "DiffLine", "_check_saved_fields", "_entry_dicts", "_free_name", "deck_entries",
    "deck_history", "delete_deck", "diff_versions", "free_deck_name", "get_deck",
    "import_starter_decks", "is_starter_deck", "list_decks", "load_deck_file", "save_deck",
)})


def __getattr__(name: str) -> Any:
    if name in ("codes", "saved"):
        return import_module(f"{__name__}.{name}")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
