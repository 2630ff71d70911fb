"""Overseers' balance figures from a batch of bot games: seats, the Leader, the colours.

The batch runner (``cardbase.playtest.games.simulate``) gives each seat's win rate and each
character's impact; this module adds what is particular to Overseers:

- the **first Leader** (drawn at random, OV15): their win rate against the fair share ``1/n``;
- the **rounds led** (0 to 3): the win rate of players by how many rounds they led — the lowest
  score becomes Leader (OV10) and never having led breaks final ties (OV11);
- the **colours**: how many cards of each colour a winner had at the three counts, against the
  other players (a colour winners hold more of is worth more than its share);
- the **rule coverage** of the batch (``State.coverage()`` summed): how often each judgement, Leader's
  call, steal, character power and ending came up and was used.

The batch of :func:`cardbase.playtest.overseers.analyse` adds up the same figures; game ``i`` is
dealt from ``game_seed(seed, i)`` and its bots seeded from it, as in the runner.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardbase.games.stats import wilson

from .rules import COLOURS


def _rate(wins: float, n: int) -> dict[str, Any]:
    lo, hi = wilson(int(wins), n)
    return {"games": n, "wins": int(wins), "win_rate": wins / n if n else 0.0, "ci95": [lo, hi]}


def batch_figures(records: Sequence[Any], players: int) -> dict[str, Any]:
    """From a batch's records (``Record.facts`` = first Leader, colour counts): the first Leader's
    win rate against the fair share and the cards of each colour winners held against others."""
    first = games = 0
    colour_win = [0] * len(COLOURS)
    colour_other = [0] * len(COLOURS)
    n_win = n_other = 0
    for r in records:
        if not r.facts:
            continue
        leader, counted = r.facts
        games += 1
        first += r.returns[leader] > 0
        for p in range(players):
            if r.returns[p] > 0:
                n_win += 1
                acc = colour_win
            else:
                n_other += 1
                acc = colour_other
            for c in range(len(COLOURS)):
                acc[c] += counted[p][c]
    if not games:
        return {}
    return {
        "leader": {**_rate(first, games), "fair_share": 1 / players},
        "colours": [{"colour": COLOURS[c],
                     "per_winner": colour_win[c] / n_win if n_win else 0.0,
                     "per_other": colour_other[c] / n_other if n_other else 0.0}
                    for c in range(len(COLOURS))],
    }


def figures_text(figures: dict[str, Any]) -> list[str]:
    """The Leader's and the colours' figures as lines in the current language."""
    from cardbase.i18n import current_language, tr

    if not figures:
        return []
    fr = current_language() == "fr"

    def num(x: float, digits: int = 1) -> str:
        text = f"{x:.{digits}f}"
        return text.replace(".", ",") if fr else text

    lead = figures["leader"]
    lo, hi = lead["ci95"]
    lines = [tr("overseers.figures.leader", wins=lead["wins"], games=lead["games"],
                rate=num(100 * lead["win_rate"]), lo=num(100 * lo), hi=num(100 * hi),
                fair=num(100 * lead["fair_share"]))]
    lines.append(tr("overseers.figures.colours_head"))
    for c in figures["colours"]:
        lines.append(tr("overseers.figures.colour", colour=c["colour"], winner=num(c["per_winner"], 2),
                        other=num(c["per_other"], 2)))
    return lines
