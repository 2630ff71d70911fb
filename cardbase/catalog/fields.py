"""The columns every card has, with their English names (a game's declared fields may not take
one of them; ``cardbase.catalog.gamesdata`` checks it), and a game's declared card fields as
stored (:class:`FieldDecl`, :func:`declared_fields`, :func:`field_values`).

Plain Python: the read-only commands use it without the database layer. ``game`` is any row with
``fields`` (a :class:`~cardbase.storage.models.Game` or a
:class:`~cardbase.storage.readonly.GameRow`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

CARD_FIELDS: dict[str, str] = {
    "number": "collector number",
    "name": "name",
    "value": "value",
    "colour": "colour",
    "banner": "banner (fanion)",
    "rarity": "rarity",
    "card_type": "type or class",
    "keywords": "keywords",
    "effect": "effect (effect language)",
    "effect_text": "printed effect text",
    "flavour": "flavour text",
    "art": "art file",
    "copies": "copies in the game",
    "stats": "game-specific figures",
    "sample": "sample-data flag",
}


@dataclass(slots=True, frozen=True)
class FieldDecl:
    """One declared card field of a game."""

    name: str
    type: str  # "int" | "text" | "choice"
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    required: bool = False
    label: str | None = None  # the French label, printed and shown by the app in French
    label_en: str | None = None  # the English one (the French one, else the code, when missing)

    def as_dict(self) -> dict[str, Any]:
        """The declaration as stored and written to data/games.toml (defaults left out)."""
        out: dict[str, Any] = {"name": self.name, "type": self.type}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        if self.required:
            out["required"] = True
        if self.label:
            out["label"] = self.label
        if self.label_en:
            out["label_en"] = self.label_en
        return out

    @property
    def spec(self) -> str:
        """The command-line form: ``force:int:0..10:required``."""
        kind = f"choice({'|'.join(self.choices)})" if self.type == "choice" else self.type
        parts = [self.name, kind]
        if self.min is not None or self.max is not None:
            parts.append(f"{'' if self.min is None else self.min}..{'' if self.max is None else self.max}")
        if self.required:
            parts.append("required")
        return ":".join(parts)

    def label_in(self, lang: str) -> str:
        """The field's name as a person reads it in ``lang`` (« fr » or « en »): its declared label,
        else the printed name the messages know (``printing.stat.<code>``, or ``field.<code>`` for a
        column every card has, such as ``value``), else its code with
        spaces. The code itself stays for searching (``damage>=3``) and the CSV columns."""
        from cardbase import i18n

        declared = self.label_en if lang == "en" else self.label
        if declared:
            return declared
        known = i18n.table(lang).get(f"printing.stat.{self.name}") or i18n.table(lang).get(f"field.{self.name}")
        if known:  # a printed name, or a column every card has (« value » is the card's Valeur)
            return known[:1].upper() + known[1:]
        return self.label or self.name.replace("_", " ")

    @property
    def shown_label(self) -> str:
        """The label in the current language."""
        from cardbase import i18n

        return self.label_in(i18n.current_language())



def declared_fields(game: Any) -> list[FieldDecl]:
    """The game's declared card fields, in their order (stored declarations are trusted)."""
    if game is None:
        return []
    out = []
    for raw in game.fields or []:
        if raw.get("name") == VALUE:  # the value's range, not a figure of its own
            continue
        out.append(FieldDecl(name=raw["name"], type=raw["type"], min=raw.get("min"),
                             max=raw.get("max"), choices=tuple(raw.get("choices") or ()),
                             required=bool(raw.get("required", False)), label=raw.get("label"),
                             label_en=raw.get("label_en")))
    return out


VALUE = "value"



def field_values(game: Any, stats: Mapping[str, Any] | None) -> dict[str, Any]:
    """Declared field → the card's value (None when it has none), in declaration order."""
    stats = stats or {}
    return {d.name: stats.get(d.name) for d in declared_fields(game)}
