"""Limits of one simulation call, checked before any game is played.

Every input of ``cardbase sim …`` that sizes the work or the memory has a limit (docs/shared-use.md,
"Limits"): the games a call plays (all values of a sweep, all pairs of a round robin, all rungs of
the ladder together, since every game's record is kept until the report), the values of a sweep,
the copies a sweep puts in a deck or a box, the local worker processes. The commands call
:func:`check_sim` first: every problem is said at once (exit code 2), and nothing is played, read
from a cluster or written.

Going further: a larger batch is several calls of at most :data:`MAX_GAMES` games, each with its own
``--seed`` (game *i* of seed *s* is dealt from ``game_seed(s, i)``); more processes than
:data:`MAX_WORKERS` is what a Dask cluster (``--scheduler``) is for.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from cardbase.errors import CardbaseError, Problem, ValidationError
from cardbase.i18n import tr

MAX_GAMES = 100_000  # games played by one call, every value / pair / rung counted
MAX_VALUES = 200  # values tried by one sweep
MAX_VALUE = 1_000_000_000  # a swept value lies in -MAX_VALUE..MAX_VALUE
MAX_COPIES = 100  # copies of one card a sweep puts in a deck or a box
MAX_WORKERS = 64  # local worker processes (--workers)
MAX_LOG_GAMES = 20  # games whose whole log one call prints (--log)


def number(n: int) -> str:
    """An integer as prose writes it: 100 000 in French (narrow no-break spaces), 100,000 in English.
    Numbers to type back on the command line stay plain digits."""
    from cardbase.i18n import current_language

    return f"{n:,}".replace(",", "\u202f" if current_language() == "fr" else ",")


def games_problems(games: int, *, minimum: int = 1, runs: int = 1, unit: str | None = None) -> list[Problem]:
    """``--games`` below ``minimum``, or ``games × runs`` over :data:`MAX_GAMES` (``unit``: the
    i18n key naming what is run ``runs`` times: values, pairs of decks, rungs)."""
    if games < minimum:
        return [Problem("games_too_few", tr("limits.games_too_few", games=games, min=minimum),
                        tr("limits.games_too_few_fix", min=minimum), "--games")]
    total = games * max(runs, 1)
    if total <= MAX_GAMES:
        return []
    per_call = max(MAX_GAMES // max(runs, 1), 1)
    what = tr("limits.games_total", games=number(games), runs=number(runs), unit=tr(unit), total=number(total)) \
        if unit and runs > 1 else tr("limits.games_alone", games=number(games))
    return [Problem("games_too_many", tr("limits.games_too_many", what=what, max=number(MAX_GAMES)),
                    tr("limits.games_too_many_fix", per_call=per_call, max=MAX_GAMES), "--games")]


def log_problems(log: int, seat: int | None, games: int | None, players: int | None = None) -> list[Problem]:
    """``--log N``: 0 to :data:`MAX_LOG_GAMES` games, no more than the batch plays; ``--seat S``:
    with ``--log``, a seat of the game (1 to ``players`` when known)."""
    out = []
    top = min(MAX_LOG_GAMES, games) if games is not None and games >= 1 else MAX_LOG_GAMES
    if not 0 <= log <= top:
        out.append(Problem("log_games", tr("limits.log_games", log=log, max=top),
                           tr("limits.log_games_fix", max=top), "--log"))
    if seat is not None:
        if not log:
            out.append(Problem("seat_without_log", tr("limits.seat_without_log", seat=seat),
                               tr("limits.seat_without_log_fix"), "--seat"))
        elif seat < 1 or (players is not None and seat > players):
            most = players if players is not None else "…"
            out.append(Problem("seat", tr("limits.log_seat", seat=seat, players=most),
                               tr("limits.log_seat_fix", players=most), "--seat"))
    return out


def count_problems(counts: Mapping[str, int]) -> list[Problem]:
    """Counts of games that may be 0 but not negative (``--oracle-games``, ``--swap-games``)."""
    return [Problem("count_negative", tr("limits.count_negative", value=value),
                    tr("limits.count_negative_fix", option=option), option)
            for option, value in counts.items() if value < 0]


def workers_problems(workers: int | None) -> list[Problem]:
    if workers is None or 1 <= workers <= MAX_WORKERS:
        return []
    return [Problem("workers", tr("limits.workers", workers=workers, max=MAX_WORKERS),
                    tr("limits.workers_fix", max=MAX_WORKERS), "--workers")]


def bot_names(text: str | None, option: str, *, single: bool = False) -> tuple[list[str], list[Problem]]:
    """The bot names of a comma-separated option; an empty name (``","``, ``"greedy,"``) is a
    problem, and so is a list where ``single`` asks for one name."""
    if text is None:
        return [], []
    parts = [p.strip() for p in text.split(",")]
    if any(not p for p in parts):
        return [], [Problem("bot_empty", tr("limits.bot_empty", text=text),
                            tr("limits.bot_empty_fix", option=option), option)]
    if single and len(parts) > 1:
        return [], [Problem("bot_single", tr("limits.bot_single", text=text),
                            tr("limits.bot_single_fix", option=option), option)]
    return parts, []


def nespanini_bot_problems(names: Iterable[str], option: str) -> list[Problem]:
    """NesPanini bots are known before any game: an unknown name is said at once."""
    from cardbase.games.bots import make_bot

    out = []
    for name in dict.fromkeys(names):
        try:
            make_bot(name, seed=0)
        except CardbaseError as exc:
            out.append(Problem("bot_unknown", str(exc), "", option))
    return out


def players_problems(players: int | None, spec: Any = None, *, allowed: bool = True) -> list[Problem]:
    """``--players``: at least 1, within the game's range when the game is known (``spec``); not
    allowed at all (``allowed=False``) where the command has no seats to set."""
    if players is None:
        return []
    if not allowed:
        return [Problem("players_unused", tr("limits.players_unused", players=players),
                        tr("limits.players_unused_fix"), "--players")]
    if spec is not None and not spec.min_players <= players <= spec.max_players:
        return [Problem("players", tr("games.bad_players", game=spec.code, players=players,
                                      min=spec.min_players, max=spec.max_players), "", "--players")]
    if players < 1:
        return [Problem("players", tr("limits.players", players=players), tr("limits.players_fix"),
                        "--players")]
    return []


def copies_problems(values: Sequence[int]) -> list[Problem]:
    """Copies swept: 0..:data:`MAX_COPIES` (a million copies would be a million-card deck)."""
    bad = [v for v in values if not 0 <= v <= MAX_COPIES]
    if not bad:
        return []
    return [Problem("copies", tr("limits.copies", values=", ".join(map(str, bad[:10])) + (" …" if len(bad) > 10 else ""),
                                 max=MAX_COPIES), tr("limits.copies_fix", max=MAX_COPIES), "--values")]


def records_problems(path: Path | str | None, option: str = "--records") -> list[Problem]:
    """A file that can be written: not a folder, in a folder that exists, where this user may write.

    Nothing is left behind: an existing file is opened for appending (not changed), a new one is
    tried as a temporary file in its folder, removed at once.
    """
    if path is None:
        return []
    p = Path(path)
    where = f"{option} {p}"

    def problem(code: str, message: str, fix: str) -> list[Problem]:
        return [Problem(code, message, fix, where)]

    if p.is_dir():
        return problem("records_folder", tr("limits.records_folder", path=p),
                       tr("limits.records_folder_fix", example=p / "parties.jsonl"))
    parent = p.parent
    if not parent.exists():
        return problem("records_no_folder", tr("limits.records_no_folder", folder=parent),
                       tr("limits.records_no_folder_fix", folder=parent))
    if not parent.is_dir():
        return problem("records_not_folder", tr("limits.records_not_folder", folder=parent),
                       tr("limits.records_unwritable_fix"))
    try:
        if p.exists():
            with p.open("a", encoding="utf-8"):
                pass
        else:
            fd, tmp = tempfile.mkstemp(dir=parent, prefix=".cardbase-", suffix=".tmp")
            os.close(fd)
            os.unlink(tmp)
    except OSError as exc:
        return problem("records_unwritable", tr("limits.records_unwritable", path=p,
                                                detail=exc.strerror or type(exc).__name__),
                       tr("limits.records_unwritable_fix"))
    return []


def editions_problems(paths: Iterable[Path | str] | None) -> list[Problem]:
    """``--edition`` files: each must be a file that exists (a folder or a missing path is said
    before any deck is read)."""
    out = []
    for path in paths or ():
        p = Path(path)
        if p.is_dir():
            out.append(Problem("edition_folder", tr("limits.edition_folder", path=p),
                               tr("limits.edition_fix"), f"--edition {p}"))
        elif not p.is_file():
            out.append(Problem("edition_missing", tr("limits.edition_missing", path=p),
                               tr("limits.edition_fix"), f"--edition {p}"))
    return out


def raise_problems(problems: list[Problem]) -> None:
    if problems:
        raise ValidationError(tr("limits.refused", count=len(problems)), problems)


def check_sim(*, games: int | None = None, min_games: int = 1, runs: int = 1, unit: str | None = None,
              counts: Mapping[str, int] | None = None, workers: int | None = None,
              records: Path | str | None = None, bots: str | None = None, bots_option: str = "--bots",
              single_bot: bool = False, nespanini_bots: bool = False, players: int | None = None,
              spec: Any = None, players_allowed: bool = True,
              copies: Sequence[int] | None = None,
              editions: Iterable[Path | str] | None = None) -> list[str]:
    """Every check of a simulation command, before any deck is read or game played; raises a
    :class:`ValidationError` listing every problem. Returns the bot names of ``bots``."""
    problems: list[Problem] = []
    if games is not None:
        problems += games_problems(games, minimum=min_games, runs=runs, unit=unit)
    problems += count_problems(counts or {})
    problems += workers_problems(workers)
    names, more = bot_names(bots, bots_option, single=single_bot)
    problems += more
    if nespanini_bots and names:
        problems += nespanini_bot_problems(names, bots_option)
    problems += players_problems(players, spec, allowed=players_allowed)
    if copies is not None:
        problems += copies_problems(copies)
    problems += records_problems(records)
    problems += editions_problems(editions)
    raise_problems(problems)
    return names
