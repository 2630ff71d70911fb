"""Games described by a rules file (``data/rules/<code>.toml``) in the games registry.

:func:`rules_specs` makes one :class:`~cardbase.games.registry.GameSpec` per rules file whose code
has no hand-written engine (a hand-written engine keeps its place: its rules file is then a check
of the language, see ``tests/test_rulesdata.py``). A file that does not pass the checker is left
out here and reported by ``cardbase games check``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
    (its modification time and size): the object is shared, to be read, never changed. A draft
    played in this run (:func:`cardbase.games.registry.drafted`) answers for its code."""
    from .language import RulesFileError, load_rules

    if code in _DRAFTS:
        return _DRAFTS[code]
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


@dataclass(slots=True, frozen=True)
class Draft:
    """A rules file outside ``data/rules/`` played for one run (``--rules FILE``): the path as the
    user gave it (the reports name it) and its text, which worker processes build the game from
    (a worker may not read the path as this process does — another machine, another folder)."""

    path: str
    text: str

    @property
    def name(self) -> str:
        """The file's name, as its problems are located (« scopa.toml, line 12 »)."""
        return Path(self.path).name


# code -> the checked rules of the draft played in this run under that code (:func:`valid_rules`)
_DRAFTS: dict[str, Any] = {}


def set_draft_rules(code: str, rules: Any) -> Any:
    """Make ``rules`` (None: no draft) the rules of the game ``code`` for :func:`valid_rules`;
    the previous value, to put back."""
    before = _DRAFTS.pop(code, None)
    if rules is not None:
        _DRAFTS[code] = rules
    return before


def read_draft(path: Path | str) -> tuple[Draft, Any]:
    """The draft ``path`` and its checked rules; a file that does not read or does not pass the
    checker raises :class:`~cardbase.games.rulesdata.language.RulesFileError` with every problem
    located, as ``cardbase games check`` shows them."""
    from .language import parse_rules_text, read_rules_text

    text = read_rules_text(path)
    draft = Draft(str(path), text)
    return draft, parse_rules_text(text, draft.name)


def build_draft(draft: Draft, check_box: Callable[[str, Sequence[CardDef]], None], cards: Sequence[CardDef],
                players: int, **options: Any) -> Any:
    """The interpreter's game of a draft's text: what :func:`build` gives for the same file
    registered (``check_box`` as there)."""
    from .engine import Game
    from .language import parse_rules_text

    rules = parse_rules_text(draft.text, draft.name, options=options)
    check_box(rules.code, cards)
    return Game(rules, cards, players)


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
        out.append(spec_of(rules, spec, partial(build, path, check_box), str(path)))
    return out


def spec_of(rules: Any, spec: Callable[..., Any], built: Callable[..., Any], file: str) -> Any:
    """The registry's spec of a checked rules file (``built``: cards, players, options -> game)."""
    hidden = any(z.visible != "everyone" for z in rules.zones.values())
    return spec(rules.code, rules.min_players, rules.max_players, "box",
                information="imperfect" if hidden else "perfect",
                utility="zero_sum" if rules.max_players == 2 else "general_sum",
                bots=("random", "greedy", "mc", "ismcts"), default_players=rules.default_players,
                build=built, own_cards=rules.source == "generated", rules_file=file, title=rules.name)
