"""[end.winner] then_by / then_order: a tie-break read only among those equal by ``by``, for seats
(Marché, MA9: the fewest cards in hand) and for teams (made a team's value as ``by`` is)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardbase.games.rulesdata.language import RulesFileError, parse_rules_text
from tests.rulesdata_helpers import random_games

ROOT = Path(__file__).resolve().parent.parent
MARCHE = (ROOT / "data" / "rules" / "marche.toml").read_text(encoding="utf-8")
ENCHERES = (ROOT / "data" / "rules" / "encheres.toml").read_text(encoding="utf-8")


def _games(text: str, players: int, seeds: range):
    return random_games(text, seeds, players)


def test_seats_equal_on_points_are_parted_by_the_fewest_cards_in_hand() -> None:
    broken = 0
    for s in _games(MARCHE, 3, range(150)):
        points = [c["points"] for c in s.counters]
        hands = [len(h) for h in s.zones["main"]]
        top = [p for p in range(3) if points[p] == max(points)]
        fewest = min(hands[p] for p in top)
        assert sorted(s.winners) == [p for p in top if hands[p] == fewest], (points, hands, s.winners)
        broken += len(top) > 1 and len(s.winners) < len(top)
    assert broken > 0  # some games were decided by the tie-break


def test_a_teams_tie_break_is_the_teams_value_of_then_by() -> None:
    """Enchères' teams tied on points: with then_by = "seat" (a team's: its seats added up, 1 + 3
    against 2 + 4) the second team takes every tie; without it, the tie is shared."""
    text = ENCHERES.replace('by = "points"\n', 'by = "points"\nthen_by = "seat"\n', 1)
    tied = 0
    for plain, broken in zip(_games(ENCHERES, 4, range(120)), _games(text, 4, range(120)), strict=True):
        team = [sum(c["points"] for q, c in enumerate(plain.counters) if q % 2 == k) for k in (0, 1)]
        if team[0] == team[1]:
            tied += 1
            assert sorted(plain.winners) == [0, 1, 2, 3]
            assert sorted(broken.winners) == [1, 3]
        else:
            assert sorted(plain.winners) == sorted(broken.winners)
    assert tied > 0


def test_a_wrong_then_order_or_then_by_is_a_problem_with_its_key() -> None:
    text = MARCHE.replace('then_order = "lowest"', 'then_order = "moins"').replace(
        'then_by = "count(\'main\')"', 'then_by = "count(\'mains\')"')
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(text, "t.toml")
    where = " ".join(p.where for p in info.value.problems)
    assert "then_order" in where and "then_by" in where, where
