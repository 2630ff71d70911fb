"""Games described by a rules file (``data/rules/<code>.toml``) in the games registry.

:func:`rules_specs` makes one :class:`~cardbase.games.registry.GameSpec` per rules file whose code
has no hand-written engine (a hand-written engine keeps its place: its rules file is then a check
of the language, see ``tests/test_rulesdata.py``). A file that does not pass the checker is left
out here and reported by ``cardbase games check``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from cardbase.domain import CardDef


def rules_dir() -> Path:
    from cardbase.config import DATA_DIR

    return DATA_DIR / "rules"


def rules_path(code: str) -> Path:
    return rules_dir() / f"{code}.toml"


def rules_file_of(code: str) -> Path | None:
    """The rules file of the game ``code`` when there is one (a code that is not a plain name —
    ``../x`` — has none: the path stays in the rules folder)."""
    if not re.fullmatch(r"[a-z0-9_-]+", code):
        return None
    path = rules_path(code)
    return path if path.is_file() else None


# path -> ((mtime, size), its checked rules or None): a report reads a game's labels, rulings and
# rounds several times, and reading a file costs about 20 ms; a file written since is read again
_VALID: dict[str, tuple[tuple[int, int], Any]] = {}
_VALID_MOST = 64


def valid_rules(code: str) -> Any:
    """The checked rules of the game ``code``'s file; None when it has none or the file does not
    pass the checker (``cardbase games check`` says why). Read once while the file is unchanged
    (its modification time and size): the object is shared, to be read, never changed."""
    from .language import RulesFileError, load_rules

    path = rules_file_of(code)
    if path is None:
        return None
    try:
        st = path.stat()
    except OSError:
        return None
    key, stamp = str(path), (st.st_mtime_ns, st.st_size)
    hit = _VALID.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    try:
        rules = load_rules(path)
    except RulesFileError:
        rules = None
    if len(_VALID) >= _VALID_MOST:
        _VALID.pop(next(iter(_VALID)))
    _VALID[key] = (stamp, rules)
    return rules


def rounds_go_around(code: str) -> bool:
    """Whether the game ``code`` is a rules file's whose round is one turn of each seat (no ``[round]
    until``): its reports count « tours de table », not « manches » (a round that goes on until
    something holds — Atout's, OVERKILL's — is a manche)."""
    rules = valid_rules(code)
    return rules is not None and rules.round_until is None


def build(path: Path, check_box: Callable[[str, Sequence[CardDef]], None], cards: Sequence[CardDef],
          players: int, **options: Any) -> Any:
    """The interpreter's game of the rules file ``path`` (``options``: its ``[options]``);
    ``check_box``: the registry's size check of a box, handed over like the spec class."""
    from .engine import Game
    from .language import load_rules

    check_box(path.stem, cards)
    return Game(load_rules(path, options=options), cards, players)


def rules_specs(taken: set[str], spec: Callable[..., Any],
                check_box: Callable[[str, Sequence[CardDef]], None]) -> list[Any]:
    """A spec per valid rules file whose code is not in ``taken`` (``spec``: the registry's
    :class:`~cardbase.games.registry.GameSpec`, ``check_box`` its size check of a box, handed over
    so that this module does not import the registry that imports it)."""
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
        out.append(spec(rules.code, rules.min_players, rules.max_players, "box",
                            information="imperfect" if hidden else "perfect",
                            utility="zero_sum" if rules.max_players == 2 else "general_sum",
                            bots=("random", "greedy", "mc", "ismcts"),
                            default_players=rules.default_players,
                            build=partial(build, path, check_box), own_cards=rules.source == "generated",
                            rules_file=str(path), title=rules.name))
    return out
