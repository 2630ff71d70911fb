"""The rules language's ``random_seat`` operation (docs/rules-language.md, « Operations »): a seat
drawn at random among the others, the opponents, the partners or all, filtered by an expression read
as each candidate seat, into a counter — what CT vs Terror's Ricochet needs (ruling CT9: the hand
game's loser drawn at random among all the living). Played in whole games, where it meets teams, a
target's damage (``for_seat``), counters going down and players dropping out of the draw."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardbase.games.bots.registry import make_bot
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import RulesFileError, parse_rules_text
from cardbase.i18n import use_language

RICOCHET = """[game]
code = "ricochet"
players = [2, 6]
default_players = 4

[teams]
count = 2
seating = "alternate"
names = ["Terror", "CT"]

[material]
source = "generated"
colours = ["rouge", "noir"]
values = [1, 5]
into = "pioche"

[[zones]]
name = "pioche"
visible = "nobody"

[[zones]]
name = "main"
owner = "player"
ordered = false
visible = "owner"

[[zones]]
name = "defausse"
visible = "everyone"

[counters]
vie = {}
perdant = {}

[setup]
do = [{ shuffle = "pioche" }, { deal = "pioche", to = "main", count = 3 },
      { each = "player", do = [{ set = "vie", value = 40 }] }]

[[actions]]
name = "ricochet"
label = { fr = "Ricochet", en = "Ricochet" }
move = { from = "main", to = "defausse" }
when = "vie > 0"
then = [{ random_seat = "perdant", among = "AMONG", filter = "vie > 0" },
        { if = "perdant > 0", then = [{ for_seat = "perdant", do = [{ add = "vie", value = "-20" }] }] }]
ends_turn = true

[[actions]]
name = "tomber"
label = { fr = "Lâcher une carte", en = "Drop a card" }
move = { from = "main", to = "defausse" }
when = "vie <= 0"
ends_turn = true

[[actions]]
name = "attendre"
label = { fr = "Attendre", en = "Wait" }
when = "count('main') == 0"
ends_turn = true

[end]
check = "turn"

[[end.conditions]]
name = "mains_vides"
game = "count_all('main') == 0 or team_total('vie') <= 0 or others_best('vie') <= 0"

[end.winner]
by = "vie"
among = "all"
ties = "shared"
"""


def _game(among: str = "all", players: int = 4) -> Game:
    return Game(parse_rules_text(RICOCHET.replace("AMONG", among), "ricochet.toml"), (), players)


def _draws(game: Game, seed: int, bots=None):
    """A whole game (random moves, or the bots given); every draw with the living seats and the
    teams just before it, checked against what ``among`` allows."""
    s = game.new_state(seed)
    rng = random.Random(seed)
    draws = []
    while not s.is_terminal():
        alive = [q for q in range(s.n) if s.counters[q]["vie"] > 0]
        before = len(s.events)
        p = s.current_player()
        a = bots[p].step(s) if bots else rng.choice(s.legal_actions())
        s.apply_action(a)
        for ev in s.events[before:]:
            if ev[0] == "random_seat":
                draws.append((ev[1], ev[2], tuple(alive)))
    assert s.ended_by == "mains_vides"  # by its own condition, never the turn limit
    return s, draws


@pytest.mark.parametrize("among", ["all", "others", "opponents", "partners"])
def test_the_seat_drawn_is_alive_and_among_the_seats_named(among) -> None:
    game = _game(among)
    team = game.team_index
    drawn: Counter[tuple[int, int]] = Counter()
    empty = 0
    for seed in range(150):
        s, draws = _draws(game, seed)
        for me, seat, alive in draws:
            allowed = {"all": set(range(4)), "others": set(range(4)) - {me},
                       "opponents": {q for q in range(4) if team[q] != team[me]},
                       "partners": {q for q in range(4) if q != me and team[q] == team[me]}}[among]
            pool = allowed & set(alive)
            if seat == 0:
                assert not pool, (seed, me, alive)  # 0 only when nobody qualifies
                empty += 1
            else:
                assert seat - 1 in pool, (seed, me, seat, alive)
                if pool == allowed:  # every allowed seat alive: the draw is uniform among them
                    drawn[(me, seat - 1)] += 1
        # the damage went to the seats drawn: 40 less 20 a time each was drawn
        hits = Counter(seat - 1 for _me, seat, _a in draws if seat)
        assert [s.counters[q]["vie"] for q in range(4)] == [40 - 20 * hits[q] for q in range(4)]
    for me in range(4):
        targets = {q: n for (m, q), n in drawn.items() if m == me}
        allowed = {"all": 4, "others": 3, "opponents": 2, "partners": 1}[among]
        assert len(targets) == allowed, (me, targets)
        total = sum(targets.values())
        assert all(n >= total / allowed / 2 for n in targets.values()), (me, targets)  # no seat starved
    if among == "partners":
        assert empty > 0  # a dead partner leaves nobody to draw: 0, said in the log


def test_the_draw_is_seeded_cloned_and_logged_in_both_languages() -> None:
    game = _game("others")
    a, first = _draws(game, 7)
    b, again = _draws(game, 7)
    assert first == again and a.returns() == b.returns()
    s = game.new_state(3)
    s.apply_action(s.legal_actions()[0])
    twin = s.clone()
    for x in (s, twin):
        while not x.is_terminal():
            x.apply_action(x.legal_actions()[0])
    # a clone (no log of its own) draws what the original draws
    assert s.counters == twin.counters and s.zones == twin.zones and s.returns() == twin.returns()
    lines = s.log_lines()
    assert any("le hasard désigne la place" in line for line in lines), lines
    with use_language("en"):
        assert any("chance names seat" in line for line in s.log_lines())
    nobody = next(ev for seed in range(200) for ev in _draws(_game("partners"), seed)[0].events
                  if ev[0] == "random_seat" and ev[2] == 0)
    assert "aucune place" in s.event_to_string(nobody)


def test_every_bot_plays_whole_games_with_a_random_seat() -> None:
    game = _game("opponents")
    for name, seeds in (("random", 3), ("greedy", 3), ("mc", 1), ("ismcts", 1)):
        for seed in range(seeds):
            bots = [make_bot(name, seed=seed * 10 + p) for p in range(4)]
            s, draws = _draws(game, seed, bots)
            assert s.is_terminal() and draws
            assert sum(s.returns()) == pytest.approx(0.0)


def test_checker_lists_every_problem_of_random_seat_at_once() -> None:
    bad = RICOCHET.replace('{ random_seat = "perdant", among = "AMONG", filter = "vie > 0" }',
                           '{ random_seat = "perdu", among = "voisins", filter = "vies > 0", seat = 2 }')
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(bad, "ricochet.toml")
    text = str(info.value)
    assert "« random_seat » a des clés inconnues : seat" in text and "random_seat, among, filter" in text
    bad = RICOCHET.replace('{ random_seat = "perdant", among = "AMONG", filter = "vie > 0" }',
                           '{ random_seat = "perdu", among = "voisins" }, '
                           '{ random_seat = "perdant", filter = "vies > 0" }')
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(bad, "ricochet.toml")
    text = str(info.value)
    assert "perdu" in text and "voisins" in text and "others, opponents, partners, all" in text
    assert "vies" in text
    assert all("actions[1].then" in p.where for p in info.value.problems), [p.where for p in info.value.problems]
    with use_language("en"), pytest.raises(RulesFileError) as en:
        parse_rules_text(bad, "ricochet.toml")
    assert len(en.value.problems) == len(info.value.problems) >= 2
