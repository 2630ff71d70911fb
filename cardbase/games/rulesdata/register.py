"""Games described by a rules file (``data/rules/<code>.toml``) in the games registry.

:func:`rules_specs` makes one :class:`~cardbase.games.registry.GameSpec` per rules file whose code
has no hand-written engine (a hand-written engine keeps its place: its rules file is then a check
of the language, see ``tests/test_rulesdata.py``). A file that does not pass the checker is left
out here and reported by ``cardbase games check``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from cardbase.domain import CardDef


def rules_dir() -> Path:
    from cardbase.db import DATA_DIR

    return DATA_DIR / "rules"


def rules_path(code: str) -> Path:
    return rules_dir() / f"{code}.toml"


def build(path: Path, cards: Sequence[CardDef], players: int, **options: Any) -> Any:
    """The interpreter's game of the rules file ``path`` (``options``: its ``[options]``)."""
    from cardbase.games.registry import check_box

    from .engine import Game
    from .language import load_rules

    check_box(path.stem, cards)
    return Game(load_rules(path, options=options), cards, players)


def rules_specs(taken: set[str]) -> list[Any]:
    """A spec per valid rules file whose code is not in ``taken``."""
    from cardbase.games.registry import GameSpec

    from .language import RulesFileError, load_rules

    out = []
    folder = rules_dir()
    if not folder.is_dir():
        return out
    for path in sorted(folder.glob("*.toml")):
        try:
            rules = load_rules(path)
        except RulesFileError:
            continue
        if rules.code in taken or rules.code != path.stem:
            continue
        hidden = any(z.visible != "everyone" for z in rules.zones.values())
        out.append(GameSpec(rules.code, rules.min_players, rules.max_players, "box",
                            information="imperfect" if hidden else "perfect",
                            utility="zero_sum" if rules.max_players == 2 else "general_sum",
                            bots=("random", "greedy", "mc", "ismcts"),
                            default_players=rules.default_players,
                            build=partial(build, path), own_cards=rules.source == "generated",
                            rules_file=str(path), title=rules.name))
    return out


def file_rulings(code: str) -> tuple[Any, ...]:
    """The ``[[rulings]]`` of the rules file of a game written as data (empty when it has none or
    the file does not pass the checker)."""
    from cardbase.games.rulings import Ruling

    from .language import RulesFileError, load_rules

    path = rules_path(code)
    if not path.is_file():
        return ()
    try:
        rules = load_rules(path)
    except RulesFileError:
        return ()
    return tuple(Ruling(**r) for r in rules.rulings)
