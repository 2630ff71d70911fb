"""The box of 15 en un tour as plain values: from the edition's cards or from a short list.

A card is read from its data (PL11): a ``multiplier`` stat makes a multiplier (×2), a value a
points card (+3), the names « Protection » and « Perdre tout » the two special cards. ``copies``
copies of each go in the box. A card the engine cannot read is a clear error naming the card; every
problem is listed at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from cardbase.domain import CardDef
from cardbase.errors import CardbaseError, Problem
from cardbase.i18n import tr
from cardbase.text import fold

from .rules import ADD, LOSE, MUL, PROTECTION


class MaterialError(CardbaseError):
    """Cards of 15 en un tour the engine cannot play with."""


@dataclass(slots=True, frozen=True)
class Card:
    kind: str  # rules.ADD, MUL, PROTECTION or LOSE
    figure: int = 0  # the points (ADD) or the factor (MUL)
    name: str = ""
    ref: str = ""

    @property
    def token(self) -> str:
        """The short name used by ``--box``: +3, x2, protection, perdre-tout."""
        if self.kind == ADD:
            return f"+{self.figure}"
        if self.kind == MUL:
            return f"x{self.figure}"
        return "protection" if self.kind == PROTECTION else "perdre-tout"


@dataclass(slots=True, frozen=True)
class Box:
    """Every card of the box, one entry per physical card (copies expanded), in a fixed order."""

    cards: tuple[Card, ...]

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def tokens(self) -> tuple[str, ...]:
        return tuple(c.token for c in self.cards)

    def count(self, kind: str) -> int:
        return sum(1 for c in self.cards if c.kind == kind)

    def label(self) -> str:
        return ",".join(self.tokens)


_ORDER = {ADD: 0, MUL: 1, PROTECTION: 2, LOSE: 3}


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: (_ORDER[c.kind], c.figure, c.name)))


def _check(cards: tuple[Card, ...], problems: list[Problem]) -> None:
    if not cards:
        problems.append(Problem("pushluck-empty", tr("pushluck.material.empty"),
                                tr("pushluck.material.empty_fix"), ""))
    elif not any(c.kind == ADD and c.figure > 0 for c in cards):
        problems.append(Problem("pushluck-no-points", tr("pushluck.material.no_points"),
                                tr("pushluck.material.no_points_fix"), ""))


def box_from_cards(cards: Iterable[CardDef]) -> Box:
    """The box of an edition of 15 en un tour; every unreadable card is listed at once."""
    out: list[Card] = []
    problems: list[Problem] = []
    for c in cards:
        name = fold(c.name)
        mult = c.stat("multiplier")
        if mult is not None:
            if not isinstance(mult, int) or isinstance(mult, bool) or mult < 1:
                problems.append(Problem("pushluck-card", tr("pushluck.material.bad_multiplier",
                                                            name=c.name, value=mult),
                                        tr("pushluck.material.bad_multiplier_fix"), c.ref))
                continue
            card = Card(MUL, int(mult), c.name, c.ref)
        elif c.value is not None:
            if c.value < 0:
                problems.append(Problem("pushluck-card", tr("pushluck.material.negative",
                                                            name=c.name, value=c.value),
                                        tr("pushluck.material.negative_fix"), c.ref))
                continue
            card = Card(ADD, int(c.value), c.name, c.ref)
        elif "protection" in name:
            card = Card(PROTECTION, 0, c.name, c.ref)
        elif "perdre tout" in name:
            card = Card(LOSE, 0, c.name, c.ref)
        else:
            problems.append(Problem("pushluck-card", tr("pushluck.material.unknown", name=c.name),
                                    tr("pushluck.material.unknown_fix"), c.ref))
            continue
        out.extend([card] * max(c.copies, 0))
    box = _sorted(out)
    if not problems:
        _check(box, problems)
    if problems:
        raise MaterialError(tr("pushluck.material.title"), problems)
    return Box(box)


# A figure of a --box card: what a card's value can hold (points), a multiplier up to 1,000; read
# as a number only within these many digits (a 5,000-digit figure used to stop Python's int()).
MAX_POINTS = 1_000_000
MAX_MULTIPLIER = 1_000
_ADD_RE = re.compile(r"^\+\s*(\d+)(?:\s*points?)?$")
_MUL_RE = re.compile(r"^[x×*]\s*(\d+)(?:\s*points?)?$")


def parse_token(token: str) -> Card | None:
    """One card of a ``--box`` list (``+3``, ``x2``/``×2``, ``protection``, ``perdre-tout``)."""
    t = fold(token).replace("_", " ").replace("-", " ")
    t = " ".join(t.split())
    m = _ADD_RE.match(t)
    if m:
        return Card(ADD, int(m.group(1)), f"+{int(m.group(1))} points")
    m = _MUL_RE.match(t)
    if m and int(m.group(1)) >= 1:
        return Card(MUL, int(m.group(1)), f"×{int(m.group(1))} points")
    if t == "protection":
        return Card(PROTECTION, 0, "Protection")
    if t in ("perdre tout", "perdretout"):
        return Card(LOSE, 0, "Perdre tout")
    return None


def parse_box(text: str) -> Box:
    """A box from a comma list such as ``+1,+3,+5,x2,protection,perdre-tout`` (repeat for copies)."""
    cards: list[Card] = []
    problems: list[Problem] = []
    parts = [p.strip() for p in (text or "").split(",")]
    for i, part in enumerate(parts, start=1):
        if not part:
            continue
        figure = re.search(r"\d+", part)
        if figure and (len(figure.group()) > 7 or int(figure.group()) > MAX_POINTS
                       or (not part.lstrip().startswith("+") and int(figure.group()) > MAX_MULTIPLIER)):
            shown = part if len(part) <= 40 else part[:40] + "…"
            problems.append(Problem("pushluck-box", tr("pushluck.material.figure_too_big", token=shown,
                                                       points=f"{MAX_POINTS:,}".replace(",", " "),
                                                       multiplier=f"{MAX_MULTIPLIER:,}".replace(",", " ")),
                                    tr("pushluck.material.figure_too_big_fix"),
                                    tr("pushluck.material.position", position=i)))
            continue
        card = parse_token(part)
        if card is None:
            problems.append(Problem("pushluck-box", tr("pushluck.material.bad_token", token=part),
                                    tr("pushluck.material.bad_token_fix"),
                                    tr("pushluck.material.position", position=i)))
            continue
        cards.append(card)
    box = _sorted(cards)
    if not problems:
        _check(box, problems)
    if problems:
        shown = text if len(text) <= 80 else text[:80] + "…"
        raise MaterialError(tr("pushluck.material.box_title", box=shown), problems)
    return Box(box)
