"""The one family of errors cardbase raises on purpose.

Every message says what is wrong, where (file, row, column, card) and how to fix it.
Validators collect every problem and raise once with the whole list.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True, frozen=True)
class Problem:
    """One problem found while checking user input."""

    code: str
    message: str
    fix: str = ""
    where: str = ""  # "file.csv row 3 column value", "line 4", "position 12"…

    def __str__(self) -> str:
        from cardbase.i18n import tr

        text = tr("errors.where", where=self.where, message=self.message) if self.where \
            else self.message
        return f"{text} — {self.fix}" if self.fix else text

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "fix": self.fix, "where": self.where}


class CardbaseError(Exception):
    """Base class of every error cardbase raises for bad input or a refused action."""

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        self.problems: list[Problem] = list(problems or [])
        if self.problems and message:
            message = message + "\n" + "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(message)
        self.message = message


class NotFoundError(CardbaseError):
    """A card, deck, edition or game that does not exist."""


class ValidationError(CardbaseError):
    """Field values that break the rules of the data model."""


class StaleEditError(CardbaseError):
    """An update carried an old version number: someone else saved in between."""

    def __init__(self, message: str, *, current: dict | None = None, attempted: dict | None = None):
        super().__init__(message)
        self.current = current or {}
        self.attempted = attempted or {}


def _pointer(text: str, position: int, width: int = 70) -> str:
    """Two lines: ``text`` (cut to ``width`` characters around ``position``) and a caret under it."""
    start = max(0, min(position - width // 2, len(text) - width))
    shown = text[start:start + width]
    caret = position - start
    if start > 0:
        shown, caret = "…" + shown, caret + 1
    if start + width < len(text):
        shown += "…"
    return f"\n  {shown}\n  {' ' * caret}^"


class QueryError(CardbaseError):
    """A card search query that cannot be parsed."""

    def __init__(self, message: str, *, position: int, query: str) -> None:
        self.position = position
        self.query = query
        from cardbase.i18n import tr

        pointer = _pointer(query, position)
        super().__init__(tr("errors.at_position", message=message, position=position + 1) + pointer)


class StickerError(CardbaseError):
    """A value or colour that cannot be sticker-coded, or sticker text that cannot be read."""


class DeckListError(CardbaseError):
    """A deck list or deck code that cannot be read."""


class ImportError_(CardbaseError):
    """A card import with problems; nothing was written."""


class EffectError(CardbaseError):
    """An effect text that cannot be parsed or does not make sense."""


class PermissionDenied(CardbaseError):
    """A write attempted without editor rights."""


class DataFileError(CardbaseError):
    """A file under data/ that cannot be read."""


class TemplateError(CardbaseError):
    """A card template that cannot be used."""


class ArtError(CardbaseError):
    """Card art that cannot be used (not an image, truncated, too large, outside the art folder)."""


@dataclass(slots=True)
class ProblemList:
    """Collects problems; raises them all at once."""

    problems: list[Problem] = field(default_factory=list)

    def add(self, code: str, message: str, fix: str = "", where: str = "") -> None:
        self.problems.append(Problem(code, message, fix, where))

    def __bool__(self) -> bool:
        return bool(self.problems)

    def raise_if_any(self, exc_type: type[CardbaseError], message: str) -> None:
        if self.problems:
            raise exc_type(message, self.problems)
