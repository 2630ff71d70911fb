"""OVERKILL's engine: the box from the data, every atout, every ruling (docs/rulings/overkill.md),
invariants over thousands of random games, hidden information and determinism."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from cardbase.games.overkill.bots import GreedyBot, greedy_action
from cardbase.games.overkill.material import MaterialError, box_from_cards
from cardbase.games.overkill.rules import BLACK, RED, RETRACER, Rules
from cardbase.games.overkill.state import (
    DRAW,
    PASS,
    PLAY,
    TERMINAL,
    Game,
    IllegalActionError,
    replay,
)
from cardbase.playtest.cards import load_edition_defs

DATA = Path(__file__).resolve().parent.parent / "data" / "editions" / "OVK.toml"
DEFS = load_edition_defs([DATA])
BOX = box_from_cards(DEFS)


def game(**rules) -> Game:
    return Game(BOX, Rules(**rules))


def atout(name: str) -> int:
    return next(i for i, a in enumerate(BOX.atouts) if a.name == name)


def number(value: int, colour: int) -> int:
    return next(i for i, c in enumerate(BOX.numbers) if c.value == value and c.colour == colour)


def table(g: Game, *, p0: tuple[list[int], list[int]], p1: tuple[list[int], list[int]],
          hand0: list[str] = (), hand1: list[str] = (), top: list[int] = ()) -> object:
    """A round set up by hand: lines as values (red, black), atouts by name, the pile's top cards."""
    s = g.new_state(0)
    used = set()
    lines = []
    for red, black in (p0, p1):
        lp = []
        for c, values in ((RED, red), (BLACK, black)):
            line = []
            for v in values:
                k = number(v, c)
                assert k not in used
                used.add(k)
                line.append(k)
            lp.append(line)
        lines.append(lp)
    s.lines = lines
    s.down = [[True, True], [True, True]]
    rest = [k for k in range(g.n_numbers) if k not in used]
    top_cards = [number(v, c) for v, c in top]
    s.pile = [k for k in rest if k not in top_cards] + list(reversed(top_cards))
    s.removed = []
    s.hands = [[atout(n) for n in hand0], [atout(n) for n in hand1]]
    s.active = [[], []]
    s.objectives = []
    s.player = 0
    s.passes = 0
    s.timers = [g.rules.timer, g.rules.timer]
    s.info = [{}, {}]
    return s


def play(s, name: str, choice: int = 0) -> None:
    s.apply_action(PLAY + 8 * atout(name) + choice)


def place_of_every_card(s) -> list[int]:
    cards = list(s.pile) + list(s.removed)
    for p in (0, 1):
        for c in (RED, BLACK):
            cards.extend(s.lines[p][c])
    return sorted(cards)


# --------------------------------------------------------------------------- the box

def test_box_from_the_data_files() -> None:
    assert len(BOX.numbers) == 18 and len(BOX.nines) == 2 and len(BOX.atouts) == 19
    figures = {a.name: a.figure for a in BOX.atouts}
    assert figures["Minimiser"] == 17 and figures["Maximiser"] == 27 and figures["Gard"] == -2


def test_card_figures_come_from_the_data() -> None:
    changed = [replace(c, stats=(("objectif", 15),)) if c.name == "Minimiser" else
               replace(c, copies=2) if c.name == "9 rouge" else c for c in DEFS]
    box = box_from_cards(changed)
    assert next(a for a in box.atouts if a.name == "Minimiser").figure == 15
    assert sum(1 for c in box.numbers if c.value == 9 and c.colour == RED) == 2


def test_unreadable_cards_are_all_named_at_once() -> None:
    bad = [replace(c, stats=()) if c.name == "Juker" else
           replace(c, name="Mystère") if c.name == "Spy" else
           replace(c, colour="vert") if c.name == "3 noir" else c for c in DEFS]
    with pytest.raises(MaterialError) as err:
        box_from_cards(bad)
    where = {p.where for p in err.value.problems}
    assert {"OVK-026", "OVK-024", "OVK-012"} <= where


# --------------------------------------------------------------------------- turns and rounds

def test_deal_ok10() -> None:
    s = game().new_state(7)
    for p in (0, 1):
        for c in (RED, BLACK):
            assert len(s.lines[p][c]) == 2
            assert all(s.game.colour[k] == c for k in s.lines[p][c])
        assert len(s.hands[p]) == 3
    assert len(s.pile) == 18 - 8
    assert len(s.atout_pile) == 19 - 6


def test_draw_goes_to_its_colour_line_and_passes_the_turn() -> None:
    g = game()
    s = table(g, p0=([5, 1], [3, 2]), p1=([4, 2], [6, 1]), top=[(8, BLACK)])
    s.apply_action(DRAW)
    assert [g.value[k] for k in s.lines[0][BLACK]] == [3, 2, 8]
    assert s.current_player() == 1


def test_two_stands_in_a_row_end_the_round_and_the_winner_takes_the_bet() -> None:
    g = game()
    s = table(g, p0=([9, 8], [7, 6]), p1=([1, 2], [3, 4]))
    s.apply_action(PASS)
    assert s.round == 1 and s.current_player() == 1
    s.apply_action(PASS)
    assert s.round == 2
    assert s.scores() == [11, 9]  # 30 points against 10, bet 1
    assert s.bet == 2


def test_a_draw_between_stands_keeps_the_round_going() -> None:
    g = game()
    s = table(g, p0=([1, 2], [3, 4]), p1=([5, 6], [7, 8]))
    s.apply_action(PASS)
    s.apply_action(DRAW)
    s.apply_action(PASS)
    assert s.round == 1
    s.apply_action(PASS)
    assert s.round == 2


def test_two_overkills_end_the_round_at_once_and_fewer_overkills_win() -> None:
    g = game()
    s = table(g, p0=([9, 8], [9, 8]), p1=([1, 2], [3, 4]), hand0=["Minimiser"])
    s.objectives = [(atout("Maximiser"), 15)]  # a low objective: player 1 has 17 and 17
    s._check_round_end()
    assert s.round == 2 and s.scores() == [9, 11]


@pytest.mark.parametrize(("growth", "bet"), [("won_round", 1), ("every_round", 2)])
def test_equal_points_is_a_tie_ok5_and_the_bet_grows_after_a_win_ok2(growth: str, bet: int) -> None:
    """OK2: "quand un joueur gagne une manche … le pari augmente de un": a tie leaves the bet
    (option bet_growth = "every_round": it grows after a tie too); a won round makes it grow."""
    g = game(bet_growth=growth)
    s = table(g, p0=([5, 1], [3, 2]), p1=([4, 6], [1]))
    s.apply_action(PASS)
    s.apply_action(PASS)
    assert s.scores() == [10, 10] and s.bet == bet and s.round_winners == [-1]
    s = table(g, p0=([5, 2], [3, 2]), p1=([4, 6], [1]))
    s.apply_action(PASS)
    s.apply_action(PASS)
    assert s.round_winners == [0] and s.bet == 2


@pytest.mark.parametrize(("mode", "expected"), [("lines_under", 0), ("all", 1), ("best_line", 0)])
def test_points_modes_ok5(mode: str, expected: int) -> None:
    g = game(points=mode)
    # p0: red 9+8+7 = 24 (over 21), black 1+2 = 3; p1: red 4+3 = 7, black 5+6 = 11
    s = table(g, p0=([9, 8, 7], [1, 2]), p1=([4, 3], [5, 6]))
    assert s.overkills(0) == 1
    winner = 0 if s.points(0) > s.points(1) else 1
    assert winner == (0 if expected == 1 else 1)


def test_game_ends_when_a_score_reaches_zero() -> None:
    g = game(initial_score=1)
    s = table(g, p0=([9, 8], [7, 6]), p1=([1, 2], [3, 4]))
    s.apply_action(PASS)
    s.apply_action(PASS)
    assert s.is_terminal() and s.ended_by == "score" and s.returns() == [1.0, -1.0]
    assert s.current_player() == TERMINAL and s.legal_actions() == []
    with pytest.raises(IllegalActionError):
        s.apply_action(PASS)


def test_first_player_alternates_ok9() -> None:
    s = game().new_state(3)
    firsts = []
    while s.round <= 4 and not s.is_terminal():
        if not s.history or s.round != firsts[-1][0]:
            firsts.append((s.round, s.round_first))
        s.apply_action(PASS)
    assert [f for _, f in firsts[:4]] == [0, 1, 0, 1]


def test_timer_gives_both_99s_ok3() -> None:
    g = game(timer=2)
    s = table(g, p0=([1, 2], [3, 4]), p1=([5, 6], [7, 1]), top=[(2, BLACK), (3, RED), (4, RED)])
    s.apply_action(DRAW)  # p0: 1 left
    s.apply_action(DRAW)  # p1: 1 left
    s.apply_action(DRAW)  # p0: 0 left
    s.apply_action(DRAW)  # p1: 0 left; p0's turn comes with an empty timer: both 99s
    assert s.round == 2 and s.round_winners == [1]
    assert any(e[0] == "timer" and e[1] == 0 for e in s.events)


def test_illegal_actions_are_refused_with_the_legal_ones() -> None:
    g = game()
    s = table(g, p0=([1, 2], [3, 4]), p1=([5, 6], [7, 1]), hand0=["Saver"])
    with pytest.raises(IllegalActionError) as err:
        play(s, "Saver", RED)  # nothing drawn on that line: nothing to reset
    assert "Piocher" in str(err.value)


# --------------------------------------------------------------------------- each atout

def test_snake_eye_overseer_spy_retracer_ok12() -> None:
    g = game()
    s = table(g, p0=([5, 1], [3, 2]), p1=([4, 6], [7, 8]),
              hand0=["Snake eye", "Overseer", "Spy", "Retracer"], top=[(9, BLACK)])
    for name in ("Snake eye", "Overseer", "Spy", "Retracer"):
        play(s, name)
    info = dict(s.observation(0).info)
    assert info["snake_eye"] == BLACK
    assert 9 in info["overseer"] and len(set(info["overseer"])) == 3
    assert info["spy"] is False  # no 9 among player 1's cards
    # the pile and the opponent's face-down cards, with their colours ("la liste de toutes les cartes")
    hidden = sorted([(g.value[k], g.colour[k]) for k in s.pile] + [(4, RED), (7, BLACK)])
    assert list(info["retracer"]) == hidden
    assert str(info["retracer"][0]) == "1 noire"  # the red 1 is player 1's own
    assert dict(s.observation(1).info) == {}
    assert s.current_player() == 0  # OK4: atouts do not end the turn
    s.apply_action(DRAW)
    s.apply_action(DRAW)  # player 2 draws: player 1's helpers answer again at their turn
    top = s.pile[-1]
    assert dict(s.observation(0).info)["snake_eye"] == g.colour[top]


@pytest.mark.parametrize(("name", "objective"), [("Minimiser", 17), ("Juker", 19), ("Rebooter", 24),
                                                 ("Maximiser", 27)])
def test_challengers_set_the_objective(name: str, objective: int) -> None:
    s = table(game(), p0=([1, 2], [3, 4]), p1=([5, 6], [7, 1]), hand0=[name])
    play(s, name)
    assert s.objective() == objective and s.observation(1).objective == objective


def test_a_challenger_takes_the_previous_one_out_ok7() -> None:
    s = table(game(), p0=([1, 2], [3, 4]), p1=([5, 6], [7, 1]), hand0=["Minimiser", "Remover"],
              hand1=["Maximiser"], top=[(2, BLACK), (3, RED)])
    play(s, "Minimiser")
    s.apply_action(DRAW)
    play(s, "Maximiser")
    assert s.objective() == 27 and s.active == [[], [atout("Maximiser")]]
    s.apply_action(DRAW)
    play(s, "Remover", 0)  # take Maximiser out: no Challenger left, back to 21
    assert s.objective() == 21 and s.active == [[], []]


def test_objective_change_can_end_the_round_ok7() -> None:
    s = table(game(), p0=([1, 2], [4, 5]), p1=([9, 8, 3], [9, 7, 2]), hand0=["Minimiser"])
    play(s, "Minimiser")  # player 2 has 19 and 19, over 17 twice
    assert s.round == 2 and s.round_winners == [0]


@pytest.mark.parametrize(("name", "change"), [("Gambler", 2), ("Bettor", 1), ("Gard", -2), ("Protector", -1)])
def test_negociaters_change_the_stake_for_the_round(name: str, change: int) -> None:
    s = table(game(initial_bet=3), p0=([9, 8], [7, 6]), p1=([1, 2], [3, 4]), hand0=[name])
    play(s, name)
    assert s.stake() == 3 + change
    s.apply_action(PASS)
    s.apply_action(PASS)
    assert s.scores() == [10 + 3 + change, 10 - 3 - change]
    assert s.bet == 4 and s.stake() == 4  # the change lasted for the round only


def test_stake_never_below_zero_ok6() -> None:
    s = table(game(), p0=([9, 8], [7, 6]), p1=([1, 2], [3, 4]), hand0=["Gard"])
    play(s, "Gard")
    assert s.stake() == 0


def test_remover_takes_a_negociater_away_ok6() -> None:
    s = table(game(), p0=([1, 2], [3, 4]), p1=([5, 6], [7, 1]), hand0=["Remover"], hand1=["Gambler"],
              top=[(2, BLACK), (3, RED)])
    s.apply_action(DRAW)
    play(s, "Gambler")
    assert s.stake() == 3
    s.apply_action(DRAW)
    assert s.legal_actions().count(PLAY + 8 * atout("Remover")) == 1
    play(s, "Remover", 0)
    assert s.stake() == 1


def test_gifter_makes_the_opponent_draw() -> None:
    g = game()
    s = table(g, p0=([1, 2], [3, 4]), p1=([5, 6], [7, 1]), hand0=["Gifter"], top=[(9, RED)])
    play(s, "Gifter")
    assert [g.value[k] for k in s.lines[1][RED]] == [5, 6, 9]
    assert s.current_player() == 0


def test_yoinker_takes_the_opponents_last_card_ok8() -> None:
    g = game()
    s = table(g, p0=([1, 2], [3, 4]), p1=([5, 6, 9], [7, 1]), hand0=["Yoinker"])
    play(s, "Yoinker", RED)
    assert [g.value[k] for k in s.lines[1][RED]] == [5, 6]
    assert [g.value[k] for k in s.removed] == [9]
    assert s.observation(1).removed == (9,)


def test_rewinder_and_saver_reset_a_line_ok8() -> None:
    g = game()
    s = table(g, p0=([1, 2, 3], [4, 5]), p1=([5, 6, 9, 4], [7, 1]), hand0=["Rewinder", "Saver"])
    play(s, "Rewinder", RED)
    assert [g.value[k] for k in s.lines[1][RED]] == [5, 6]
    play(s, "Saver", RED)
    assert [g.value[k] for k in s.lines[0][RED]] == [1, 2]
    assert sorted(g.value[k] for k in s.removed) == [3, 4, 9]


def test_reset_keeps_option_ok8() -> None:
    g = game(reset_keeps=0)
    s = table(g, p0=([1, 2], [4, 5]), p1=([5, 6], [7, 1]), hand0=["Rewinder"])
    play(s, "Rewinder", BLACK)
    assert s.lines[1][BLACK] == [] and s.observation(0).lines[1][BLACK] == ()
    assert sorted(s.observation(0).removed) == [1, 7]  # the face-down 7 is shown once out


def test_mistake_patcher_removes_ones_own_last_card() -> None:
    g = game()
    s = table(g, p0=([1, 2, 9], [4, 5]), p1=([5, 6], [7, 1]), hand0=["Mistake Patcher"])
    play(s, "Mistake Patcher", RED)
    assert [g.value[k] for k in s.lines[0][RED]] == [1, 2]


def test_switcher_swaps_last_cards_of_a_colour_ok8() -> None:
    g = game()
    s = table(g, p0=([1, 2, 9], [4, 5]), p1=([5, 6, 3], [7, 1]), hand0=["Switcher"])
    play(s, "Switcher", RED)
    assert [g.value[k] for k in s.lines[0][RED]] == [1, 2, 3]
    assert [g.value[k] for k in s.lines[1][RED]] == [5, 6, 9]


def test_french_action_text_and_english_on_request() -> None:
    from cardbase import i18n

    s = table(game(), p0=([1, 2, 9], [4, 5]), p1=([5, 6, 3], [7, 1]), hand0=["Switcher"])
    act = PLAY + 8 * atout("Switcher") + BLACK
    assert s.action_to_string(act) == "Jouer Switcher sur la ligne noire"
    with i18n.use_language("en"):
        assert s.action_to_string(act) == "Play Switcher on the black line"


# --------------------------------------------------------------------------- invariants

def _random_games(n: int, seed: int = 0):
    g = game()
    rng = random.Random(seed)
    for i in range(n):
        s = g.new_state(seed * 100_000 + i)
        yield s, rng


def test_random_play_invariants() -> None:
    """Every card in one place, hidden cards never shown, scores move by the stake, games end."""
    everything = list(range(BOX.numbers.__len__())) + [18, 19]
    for s, rng in _random_games(1500):
        steps = 0
        while not s.is_terminal():
            cards = place_of_every_card(s)
            assert cards == sorted(set(cards)) and set(cards) <= set(everything)
            assert len([k for k in cards if k < 18]) == 18
            for p in (0, 1):
                obs = s.observation(p)
                for c in (RED, BLACK):
                    theirs = obs.lines[1 - p][c]
                    if s._face_down(1 - p, c):
                        assert theirs[0] is None
                    assert None not in obs.lines[p][c]
            before, rnd = s.scores(), s.round
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
            if s.round != rnd or s.is_terminal():
                end = next(e for e in reversed(s.events) if e[0] == "round_end")
                _, _, _, winner, stake, _ = end
                moved = [a - b for a, b in zip(s.scores(), before, strict=True)]
                assert stake >= 0
                if winner < 0:
                    assert moved == [0, 0]
                else:
                    assert moved[winner] == stake and moved[1 - winner] == -stake
            steps += 1
            assert steps < 5000
        assert s.ended_by in ("score", "round_limit")
        assert min(s.scores()) <= 0 or s.ended_by == "round_limit"


def test_resample_keeps_what_the_player_knows() -> None:
    for s, rng in _random_games(200, seed=1):
        while not s.is_terminal():
            p = s.current_player()
            for viewer in (0, 1):
                r = s.resample(viewer, rng)
                assert r.observation(viewer) == s.observation(viewer)
                assert sorted(place_of_every_card(r)) == sorted(place_of_every_card(s))
                assert sorted(r.hands[1 - viewer] + r.atout_pile) == sorted(s.hands[1 - viewer] + s.atout_pile)
                if s.pile:
                    assert r._consistent(viewer, r.pile[-1], s.info[viewer])
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
            assert p in (0, 1)


def test_same_seed_same_game_and_replay() -> None:
    g = game()
    a, b = g.new_state(42), g.new_state(42)
    bot = GreedyBot()
    while not a.is_terminal():
        act = bot.step(a)
        a.apply_action(act)
        b.apply_action(act)
    assert a.events == b.events and a.scores() == b.scores()
    r = replay(g, 42, a.history)
    assert r.events == a.events
    c = g.new_state(42).clone(log=True)
    assert c.lines == g.new_state(42).lines


def test_greedy_beats_random() -> None:
    g = game()
    rng = random.Random(5)
    wins = 0
    n = 300
    for i in range(n):
        s = g.new_state(i)
        seat = i % 2
        while not s.is_terminal():
            if s.current_player() == seat:
                s.apply_action(greedy_action(s))
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
        wins += s.winner() == seat
    assert wins / n > 0.9


def test_greedy_never_reads_hidden_cards() -> None:
    """Two states that differ only in what the greedy player cannot see get the same choice."""
    for s, rng in _random_games(150, seed=2):
        while not s.is_terminal():
            p = s.current_player()
            choice = greedy_action(s)
            for _ in range(3):
                other = s.resample(p, rng)
                assert greedy_action(other) == choice
            s.apply_action(choice)


def test_rules_options_are_checked() -> None:
    with pytest.raises(Exception) as err:
        Game(BOX, Rules(timer=0, points="nope"))
    assert "timer" in str(err.value) and "points" in str(err.value)


# --------------------------------------------------------------------------- fast path, search horizon

@pytest.mark.parametrize("rules", [{}, {"points": "all"}, {"points": "best_line", "reset_keeps": 1},
                                   {"reset_keeps": 0, "timer": 6, "first_player": "loser"}])
def test_fast_greedy_plays_exactly_like_the_reference(rules) -> None:
    """The fast path makes the reference's choice at every decision, and its whole games have
    the same history, event log, scores and chance draws as the general engine's loop."""
    from cardbase.games.overkill import fast

    g = game(**rules)
    for i in range(300):
        a, b = g.new_state(i), g.new_state(i)
        while not a.is_terminal():
            choice = greedy_action(a)
            assert fast.greedy_action(a) == choice
            a.apply_action(choice)
        fast.play_greedy(b)
        assert (b.history, b.events, b.scores(), b.turns, b.round) == (a.history, a.events, a.scores(), a.turns, a.round)
        assert b.rng.getstate() == a.rng.getstate()


# Digests of 300 whole greedy games per rule set (history, event log, scores, rule coverage, turns,
# rounds), played by the greedy play-out as it was before it kept its picture of the round up to
# date (commit 55b6777): a faster play-out must play exactly these games.
_GREEDY_GAMES_BEFORE = {
    (): "6fa677d47bd50740c026b507ffaa9abdae7f5ad9d39c517df704b0e0cbf18414",
    (("points", "all"),): "2a3e3a5adc8e7e947ff0b7f828900c75a047112c0bb870b085f2888e45669a60",
    (("points", "best_line"), ("reset_keeps", 1)):
        "63923667735265b7e6b4703d41b281a4df5234f790e76d4901cacf6d7fc1018d",
    (("reset_keeps", 0), ("timer", 6), ("first_player", "loser"), ("pile_copies", 2)):
        "d71e4d47bc40fa284f292a34cd7d81724fba3925ffcffe3b217e6758df0d144d",
}


@pytest.mark.parametrize("rules", list(_GREEDY_GAMES_BEFORE))
def test_greedy_play_out_plays_the_same_games_as_before_its_speed_up(rules) -> None:
    import hashlib

    g = game(**dict(rules))
    h = hashlib.sha256()
    for i in range(300):
        s = g.new_state(i)
        s.play_greedy()
        h.update(repr((s.history, s.events, s.scores(), s.cov, s.turns, s.round)).encode())
    assert h.hexdigest() == _GREEDY_GAMES_BEFORE[rules]


def test_greedy_play_out_to_a_round_horizon_and_on_matches_the_step_by_step_loop() -> None:
    """Stopped at the end of a round and resumed (as search bots do), or started from a clone in
    the middle of a round, the play-out keeps the same game as the general loop."""
    from cardbase.games.overkill import fast

    g = game()
    for i in range(60):
        a, b = g.new_state(i), g.new_state(i)
        for _ in range(7):  # a few decisions of the general loop, then the play-out from a clone
            if not a.is_terminal():
                a.apply_action(greedy_action(a))
                b.apply_action(greedy_action(b))
        b = b.clone(log=True)
        while not b.is_terminal():
            fast.play_greedy(b, b.search_horizon())
        while not a.is_terminal():
            a.apply_action(greedy_action(a))
        assert (b.history, b.events, b.scores(), b.turns) == (a.history, a.events, a.scores(), a.turns)


def test_fast_greedy_matches_on_random_positions() -> None:
    """Random play reaches positions greedy play does not (every atout, Helpers' answers)."""
    from cardbase.games.overkill import fast

    for s, rng in _random_games(400, seed=3):
        while not s.is_terminal():
            assert fast.greedy_action(s) == greedy_action(s)
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])


def _whole_state(s) -> tuple:
    """Every slot of a state but its game, the generator as its state."""
    return tuple(s.rng.getstate() if name == "rng" else getattr(s, name)
                 for name in type(s).__slots__ if name != "game")


@pytest.mark.parametrize("rules", [{}, {"points": "all"}, {"points": "best_line", "reset_keeps": 1},
                                   {"reset_keeps": 0, "timer": 6, "first_player": "loser",
                                    "pile_copies": 2}])
def test_greedy_play_out_leaves_every_slot_as_the_step_by_step_loop(rules) -> None:
    """Not only the history and the log: hands, atout pile, Helpers' answers, dealt and face-down
    marks, timers, objectives, coverage… are those of the general loop, with and without a log."""
    g = game(**rules)
    for i in range(60):
        for log in (True, False):
            a, b = g.new_state(i, log=log), g.new_state(i, log=log)
            while not a.is_terminal():
                a.apply_action(greedy_action(a))
            b.play_greedy()
            assert _whole_state(b) == _whole_state(a)


def test_greedy_play_out_close_calls_summed_in_the_reference_order(monkeypatch) -> None:
    """A draw's mean estimate is summed by chunks and summed again card by card when it is near
    the bar: forcing the card-by-card sum at every draw plays the same games."""
    from cardbase.games.overkill import fast

    g = game()
    plain = [g.new_state(i, log=False).play_greedy().history for i in range(80)]
    monkeypatch.setattr(fast, "_CLOSE", 2.0)  # every mean is "close"
    g = game()  # fresh memos
    assert [g.new_state(i, log=False).play_greedy().history for i in range(80)] == plain


def test_fast_mean_is_the_card_by_card_float_sum() -> None:
    """The close-call sum adds the cards' estimates one at a time in ascending card order, to the
    last bit, where a sum by chunks may differ."""
    from cardbase.games.overkill import fast

    t = fast._tables(game())
    rng = random.Random(5)
    differ = 0
    for _ in range(300):
        each = [rng.uniform(-1, 1) for _ in range(t.n)] + [0.0]
        cand = rng.randrange(1, 1 << t.n)
        total = 0.0
        cards = [k for k in range(t.n) if cand >> k & 1]
        for k in cards:
            total += each[k]
        assert fast._mean(t.chunks, cand, each) == total / len(cards)
        by_chunks = sum(sum(getters[cand >> start & width](each))
                        for start, width, _, _, getters in t.chunks if cand >> start & width)
        assert abs(by_chunks - total) < 1e-12
        differ += by_chunks != total
    assert differ  # the orders do differ somewhere: the card-by-card sum is needed


def test_helpers_answers_at_speed_are_the_engines() -> None:
    """The play-out's Helpers' answers (Overseer's values from random.sample's draws, inlined;
    Retracer's list sorted by value and colour) are State._refresh_info's, generator included."""
    from cardbase.games.overkill import fast

    g = game(pile_copies=2)
    t = fast._tables(g)
    rng = random.Random(11)
    checked = 0
    for seed in range(150):
        s = g.new_state(seed)
        while not s.is_terminal():
            for p in (0, 1):
                helpers = [t.helper_effect[k] for k in s.active[p] if t.helper[k]]
                if helpers:
                    a, b = s.clone(), s.clone()
                    a._refresh_info(p)
                    fast._answers(b, t, p, helpers)
                    assert b.info[p] == a.info[p]
                    assert b.rng.getstate() == a.rng.getstate()
                    checked += 1
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 500


def test_fast_greedy_on_a_box_listing_its_colours_mixed() -> None:
    """A box whose number cards do not come red first (the per-colour tables are then not used)
    still gets the reference's choices and the engine's games."""
    from cardbase.games.overkill import fast

    mixed = box_from_cards(sorted(DEFS, key=lambda c: (c.value is None, c.value or 0, c.colour or "")))
    colours = [c.colour for c in mixed.numbers]
    assert colours != sorted(colours)
    g = Game(mixed)
    assert fast._tables(g).by_colour is None
    for i in range(60):
        a, b = g.new_state(i), g.new_state(i)
        while not a.is_terminal():
            choice = greedy_action(a)
            assert fast.greedy_action(a) == choice
            a.apply_action(choice)
        b.play_greedy()
        assert _whole_state(b) == _whole_state(a)


def test_shuffle_is_pythons() -> None:
    from cardbase.games.overkill.state import shuffle

    for seed in range(50):
        a, b = random.Random(seed), random.Random(seed)
        for n in (0, 1, 2, 18, 19, 40):
            x, y = list(range(n)), list(range(n))
            a.shuffle(x)
            shuffle(b, y)
            assert x == y


def test_sample_is_pythons() -> None:
    from cardbase.games.overkill.state import sample

    for seed in range(60):
        a, b = random.Random(seed), random.Random(seed)
        for n, k in ((8, 2), (1, 1), (2, 2), (21, 5), (22, 2), (30, 7), (5, 0), (9, 6)):
            population = list(range(100, 100 + n))
            assert sample(b, population, k) == a.sample(population, k)
            assert b.getstate() == a.getstate()


def test_search_horizon_is_the_end_of_the_round() -> None:
    from cardbase.games.overkill.state import game_value

    g = game()
    s = g.new_state(7)
    mark = s.search_horizon()
    assert mark == 1 and s.horizon_utilities(mark) is None
    s.play_greedy(mark)
    assert s.round == 2 or s.is_terminal()
    u = s.horizon_utilities(mark)
    assert u is not None and u[0] == -u[1]
    winner = s.round_winners[0]
    if winner >= 0:
        assert u[winner] > 0  # the round's winner is ahead
    # the same moves as the general loop to the end of the round
    r = g.new_state(7)
    while r.round == 1:
        r.apply_action(greedy_action(r))
    assert r.history == s.history and r.scores() == s.scores()
    # the value: a half at equal scores, more when ahead, zero-sum
    assert game_value(10, 20, 1) == pytest.approx(0.5)
    assert game_value(12, 20, 2) > 0.5 > game_value(8, 20, 2)
    for bet in (1, 4, 9, 15):
        assert game_value(12, 20, bet) + game_value(8, 20, bet) == pytest.approx(1.0)
    assert game_value(0, 20, 3) == 0.0 and game_value(20, 20, 3) == 1.0
    s.play_greedy()
    assert s.horizon_utilities(mark) == s.returns()


@pytest.mark.parametrize("name", ["mc", "ismcts"])
def test_search_bots_play_overkill_legally_and_reproducibly(name) -> None:
    from cardbase.games.bots import make_bot

    opts = {"samples": 4} if name == "mc" else {"iterations": 40}
    g = game()
    logs = []
    for _ in range(2):
        s = g.new_state(5)
        bots = [make_bot(name, seed=1, **opts), make_bot("greedy")]
        while not s.is_terminal():
            a = bots[s.current_player()].step(s)
            assert a in s.legal_actions()
            s.apply_action(a)
        logs.append(s.events)
    assert logs[0] == logs[1]


def test_search_bots_never_read_hidden_cards() -> None:
    """Two states equal from the searcher's side (a re-deal of what it cannot see): same move."""
    from cardbase.games.bots import ISMCTSBot, MonteCarloBot

    for s, rng in _random_games(12, seed=4):
        for _ in range(6):
            if s.is_terminal():
                break
            p = s.current_player()
            other = s.resample(p, rng)
            for make in (lambda: MonteCarloBot(samples=4, seed=3), lambda: ISMCTSBot(iterations=30, seed=3)):
                assert make().step(s) == make().step(other)
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])


# --------------------------------------------------------------------------- audit fixes

def test_overseer_answer_holds_for_the_whole_turn_ok12() -> None:
    """OK12: "à chaque tour" — Overseer's two other values are drawn once a turn. Playing more
    atouts in the same turn must not draw them again (the intersection would give the card)."""
    g = game()
    for seed in range(20):
        s = table(g, p0=([5, 1], [3, 2]), p1=([4, 6], [7, 8]),
                  hand0=["Overseer", "Gambler", "Bettor"], top=[(9, BLACK)])
        s.rng.seed(seed)
        play(s, "Overseer")
        first = dict(s.observation(0).info)["overseer"]
        play(s, "Gambler")
        play(s, "Bettor")
        assert dict(s.observation(0).info)["overseer"] == first
    # a new answer at the next turn, about the new next card
    s.apply_action(PASS)
    s.apply_action(DRAW)
    assert s.current_player() == 0
    assert g.value[s.pile[-1]] in dict(s.observation(0).info)["overseer"]


def test_a_drawn_card_ends_the_answers_about_it_ok12() -> None:
    """A Gifter draws the card the Helpers spoke of: their answer about it is withdrawn for the
    rest of the turn (no second answer in the same turn)."""
    g = game()
    s = table(g, p0=([5, 1], [3, 2]), p1=([4, 6], [7, 8]),
              hand0=["Snake eye", "Gifter"], top=[(9, BLACK), (2, RED)])
    play(s, "Snake eye")
    assert dict(s.observation(0).info)["snake_eye"] == BLACK
    play(s, "Gifter")
    assert "snake_eye" not in dict(s.observation(0).info)


def test_a_card_drawn_after_a_patcher_can_be_reset_ok8() -> None:
    """OK8: "drawn" is one definition for the five atouts. The dealt face-up card was never
    drawn: Mistake Patcher cannot take it; a card drawn later is reset by Saver."""
    g = game()
    s = table(g, p0=([1, 5], [3, 2]), p1=([4, 6], [7, 8]),
              hand0=["Mistake Patcher", "Saver"], top=[(9, RED)])
    patcher = PLAY + 8 * atout("Mistake Patcher")
    assert patcher + RED not in s.legal_actions()  # only dealt cards in the red line
    s.apply_action(DRAW)  # red 9 joins the red line: [1, 5, 9]
    s.apply_action(PASS)
    assert patcher + RED in s.legal_actions()
    play(s, "Mistake Patcher", RED)  # takes the drawn 9, not the dealt 5
    assert [g.value[k] for k in s.lines[0][RED]] == [1, 5]
    assert PLAY + 8 * atout("Saver") + RED not in s.legal_actions()
    s.lines[0][RED].append(s.pile.pop())  # a card drawn later
    assert PLAY + 8 * atout("Saver") + RED in s.legal_actions()
    play(s, "Saver", RED)
    assert [g.value[k] for k in s.lines[0][RED]] == [1, 5]


def test_yoinker_and_switcher_never_take_a_dealt_card_ok8() -> None:
    g = game()
    s = table(g, p0=([1, 5], [3, 2]), p1=([4, 6], [7, 8]),
              hand0=["Yoinker", "Switcher"], hand1=[], top=[(9, RED)])
    assert not any(a >= PLAY for a in s.legal_actions())  # nothing drawn anywhere
    s.apply_action(PASS)
    s.apply_action(DRAW)  # player 2 draws the red 9
    yoink = PLAY + 8 * atout("Yoinker")
    assert s.legal_actions() == [DRAW, PASS, yoink + RED]  # Switcher: player 1 drew nothing red
    s.apply_action(yoink + RED)
    assert [g.value[k] for k in s.lines[1][RED]] == [4, 6]


def test_a_switched_card_counts_as_drawn_ok8() -> None:
    """A card received by a Switcher joined the line after the deal: a reset takes it out."""
    g = game()
    s = table(g, p0=([1, 5], [3, 2]), p1=([4, 6], [7, 8]),
              hand0=["Switcher", "Saver"], top=[(9, RED), (2, RED)])
    switch = PLAY + 8 * atout("Switcher")
    assert switch + RED not in s.legal_actions()  # the dealt face-up cards were never drawn
    s.apply_action(DRAW)  # player 1: red 9 -> [1, 5, 9]
    s.apply_action(DRAW)  # player 2: red 2 -> [4, 6, 2]
    play(s, "Switcher", RED)
    assert [g.value[k] for k in s.lines[0][RED]] == [1, 5, 2]
    play(s, "Saver", RED)
    assert [g.value[k] for k in s.lines[0][RED]] == [1, 5]


def test_the_pile_copies_option_ok13() -> None:
    """OK13: one card per value and colour (10 left after the deal), or each card several times."""
    assert len(game().new_state(1).pile) == 10
    assert len(game(pile_copies=2).new_state(1).pile) == 28


def test_coverage_counts_every_play_path() -> None:
    """Rule coverage: used <= occasions; the step-by-step loop and the fast play-out count alike."""
    g = game()
    total: dict[str, list[int]] = {}
    for seed in range(40):
        a = g.new_state(seed, log=False)
        a.play_greedy()
        b = g.new_state(seed, log=False)
        while not b.is_terminal():
            b.apply_action(greedy_action(b))
        assert a.coverage() == b.coverage()
        cov = a.coverage()
        for key, (occ, used) in cov.items():
            assert 0 <= used <= occ, key
            slot = total.setdefault(key, [0, 0])
            slot[0] += occ
            slot[1] += used
        assert cov["game:score"][1] + cov["game:round_limit"][1] == 1
        assert cov["stand"][0] == sum(1 for x in a.history)
        assert cov["draw"][1] == a.history.count(DRAW)
        assert sum(cov[k][1] for k in ("end:passes", "end:overkill", "end:timer")) == a.round
    from cardbase.games.overkill.rulings import COVERAGE

    for key in total:
        assert key in COVERAGE, key
    assert total["atout:overseer"][1] > 0 and total["atout:gifter"][0] > 0


def test_every_ruling_of_the_doc_is_data() -> None:
    """docs/rulings/overkill.md and RULINGS say the same thing; options are Rules fields."""
    import re

    from cardbase.games.overkill.rulings import RULINGS
    from cardbase.games.rulings import contested, parse_rules

    doc = (Path(__file__).resolve().parent.parent / "docs" / "rulings" / "overkill.md").read_text()
    codes = sorted(set(re.findall(r"\*\*(OK\d+) —", doc)))
    assert codes == sorted(r.code for r in RULINGS)
    for r in RULINGS:
        if r.option:
            assert r.option in Rules.__dataclass_fields__
            assert getattr(Rules(), r.option) == r.default, r.code
    assert {r.code for r in contested("overkill")} >= {"OK2", "OK13"}
    opts = parse_rules("overkill", ["OK2=every_round", "pile_copies=2"])
    assert opts == {"bet_growth": "every_round", "pile_copies": 2}
    assert len(game(**opts).new_state(3).pile) == 28


def test_greedy_uses_spys_answer() -> None:
    """The greedy player narrows the next card with Spy's answer (OK12), as with Snake eye's."""
    from cardbase.games.overkill.bots import _View

    g = game()
    s = table(g, p0=([5, 1], [3, 2]), p1=([4, 6], [7, 8]), hand0=["Spy"], top=[(9, BLACK)])
    play(s, "Spy")
    view = _View(s, 0)
    cands = view.candidates(s.info[0])
    assert cands and all(g.value[k] not in (1, 2, 3, 5) for k in cands)
    assert len(cands) < len(view.pool)


def test_usable_agrees_with_the_legal_actions() -> None:
    """Rule coverage's quick legality check (State._usable) says what legal_actions says."""
    rng = random.Random(5)
    for reset in (0, 1, 2):
        g = game(reset_keeps=reset)
        for seed in range(30):
            s = g.new_state(seed, log=False)
            while not s.is_terminal():
                p = s.current_player()
                for k in set(s.hands[p]):
                    assert s._usable(p, k) == bool(s._atout_actions(p, k))
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("copies", [1, 2])
def test_fast_face_down_values_are_the_halves_of_every_reachable_average(copies) -> None:
    """The play-out reads an opponent's face-down card's value from lists per count and total:
    each entry is the average of ``count`` cards of sum ``total`` rounded to the half, and every
    total the unseen cards of one colour can reach is in the list."""
    from cardbase.games.overkill import fast

    g = game(pile_copies=copies)
    t = fast._tables(g)
    for c in (RED, BLACK):
        reach = sum(v for v, col in zip(g.value[: g.n_numbers], g.colour) if col == c)
        for count in range(1, g.n_numbers + 1):
            assert len(t.half[count]) > reach
            for total in range(reach + 1):
                assert t.half[count][total] == round(2 * total / count) / 2


def test_a_new_states_generator_is_random_random_of_its_seed() -> None:
    """State seeds its generator once (the C seeding): the same state as random.Random(seed)
    once it has dealt the first round (the number cards' shuffle, then the atouts')."""
    g = game()
    for seed in (0, 1, 7, 2**31, 2**63 - 1, -12, 10**30):
        ref = random.Random(seed)
        pile, atouts = list(range(g.n_numbers)), list(range(len(g.atouts)))
        ref.shuffle(pile)
        ref.shuffle(atouts)
        s = g.new_state(seed, log=False)
        assert s.rng.getstate() == ref.getstate()


@pytest.mark.parametrize("rules", [{}, {"reset_keeps": 0, "timer": 6, "first_player": "loser",
                                        "pile_copies": 2}])
def test_fast_helper_answers_are_the_states_at_every_turn(rules, monkeypatch) -> None:
    """The play-out's Helper answers (a turn's start, a Helper just played) are those of
    State._refresh_info on a copy of the state: the same answers in the same order, the same draws of the generator."""
    from cardbase.games.overkill import fast

    plain = fast._answers
    compared = []

    def both(s, t, p, helpers, info=None):
        c = s.clone()
        plain(s, t, p, helpers, info)
        c._refresh_info(p, only=None if info is None else helpers[0])
        assert list(c.info[p].items()) == list(s.info[p].items())
        assert c.rng.getstate() == s.rng.getstate()
        compared.append(RETRACER in s.info[p])

    monkeypatch.setattr(fast, "_answers", both)
    g = game(**rules)
    for i in range(80):
        g.new_state(i, log=False).play_greedy()
    assert len(compared) > 500 and any(compared)
