"""15 en un tour: the box from the data, every card and ruling (docs/rulings/pushluck.md), the exact
solver against brute force and simulation, random-play invariants, determinism and the CLI."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction
from itertools import permutations
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase import i18n
from cardbase.games.bots.greedy import GreedyBot
from cardbase.cli import app
from cardbase.domain import CardDef
from cardbase.errors import CardbaseError
from cardbase.games import registry
from cardbase.games.pushluck.bots import greedy_action
from cardbase.games.pushluck.material import MaterialError, box_from_cards, parse_box
from cardbase.games.pushluck.rules import ADD, MUL, PROTECTION, Rules
from cardbase.games.pushluck.solver import Solver, SolverError, solve
from cardbase.games.pushluck.state import (
    FLIP,
    RESHUFFLE,
    STOP,
    TERMINAL,
    Game,
    IllegalActionError,
    replay,
)
from cardbase.playtest.cards import load_edition_defs
from cardbase.playtest.games import simulate
from cardbase.playtest.stats import wilson

DATA = Path(__file__).resolve().parent.parent / "data" / "editions" / "P15.toml"
DEFS = load_edition_defs([DATA])
BOX = box_from_cards(DEFS)
PLUS_ONE = "+1,+3,x2,protection,perdre-tout"  # the effect list's reading: +1 instead of +5
runner = CliRunner()


@pytest.fixture(autouse=True)
def _keep_language():
    """``--lang`` sets the process's language; give the next test the language it had."""
    with i18n.use_language(i18n.current_language()):
        yield


def game(players: int = 2, box=BOX, **rules) -> Game:
    return Game(box, Rules(**rules), players)


def rig(s, order: list[str]) -> None:
    """Put the face-down row in a known order (by token: +3, x2, protection, perdre-tout)."""
    tokens = [c.token for c in s.game.box.cards]
    row = []
    for t in order:
        k = next(i for i, tok in enumerate(tokens) if tok == t and i not in row)
        row.append(k)
    s.down = row + [k for k in s.down if k not in row]


def flip(s, n: int = 1) -> None:
    for _ in range(n):
        s.apply_action(FLIP)


# --------------------------------------------------------------------------- the box


def test_box_from_the_data_file_is_the_material_list() -> None:
    assert BOX.tokens == ("+3", "+5", "x2", "protection", "perdre-tout")
    # "+1 points" is in the file with copies = 0 (docs/rules-data.md): the loader keeps the 0
    one = next(d for d in DEFS if d.name == "+1 points")
    assert one.copies == 0


def test_the_other_reading_is_one_edit_away() -> None:
    defs = [replace(d, copies={"+1 points": 1, "+5 points": 0}.get(d.name, d.copies)) for d in DEFS]
    assert box_from_cards(defs).tokens == parse_box(PLUS_ONE).tokens


def test_unreadable_cards_are_all_named_at_once_pl11() -> None:
    bad = [CardDef(1, "pushluck", "X", 1, 3, "Joker"),
           CardDef(2, "pushluck", "X", 2, 3, "-2 points", value=-2),
           CardDef(3, "pushluck", "X", 3, 3, "×0", stats=(("multiplier", 0),))]
    with pytest.raises(MaterialError) as exc:
        box_from_cards(bad)
    assert [p.code for p in exc.value.problems] == ["pushluck-card"] * 3
    assert len({p.where for p in exc.value.problems}) == 3  # each names its card
    with i18n.use_language("en"):
        with pytest.raises(MaterialError, match="Joker"):
            box_from_cards(bad[:1])


def test_a_box_needs_a_points_card_pl11() -> None:
    with pytest.raises(MaterialError) as exc:
        parse_box("x2,protection,perdre-tout")
    assert exc.value.problems[0].code == "pushluck-no-points"


def test_parse_box_tokens_and_errors() -> None:
    assert parse_box("+1, +3,+5,×2,x2,Protection,perdre tout,Perdre-Tout").tokens == (
        "+1", "+3", "+5", "x2", "x2", "protection", "perdre-tout", "perdre-tout")
    with pytest.raises(MaterialError) as exc:
        parse_box("+3,joker,x0,+5")
    assert [p.code for p in exc.value.problems] == ["pushluck-box", "pushluck-box"]
    assert "joker" in str(exc.value) and "x0" in str(exc.value)


# --------------------------------------------------------------------------- each card


def test_points_cards_add() -> None:
    s = game().new_state(1)
    rig(s, ["+3", "+5"])
    flip(s, 2)
    assert s.points == 8


def test_x2_doubles_the_turns_points_so_far_pl2() -> None:
    s = game().new_state(1)
    rig(s, ["+3", "x2", "+5"])
    flip(s, 3)
    assert s.points == 11
    s = game().new_state(1)
    rig(s, ["x2", "+3"])
    flip(s, 2)
    assert s.points == 3  # doubling nothing gives nothing


def test_perdre_tout_without_protection_ends_the_turn_with_nothing() -> None:
    s = game().new_state(1)
    rig(s, ["+5", "perdre-tout"])
    flip(s, 2)
    assert s.player == 1 and s.round_scores[0] == 0
    assert s.events is not None and s.events[-2][0] == "end_turn"


def test_protection_is_spent_on_the_next_perdre_tout_pl3() -> None:
    s = game().new_state(1)
    rig(s, ["protection", "+5", "perdre-tout", "+3"])
    flip(s, 3)
    assert s.player == 0 and s.points == 5 and s.shields == 0
    flip(s)
    assert s.points == 8


def test_protections_stack_pl3() -> None:
    box = parse_box("+3,protection,protection,perdre-tout,perdre-tout")
    s = game(box=box).new_state(1)
    rig(s, ["protection", "protection", "perdre-tout", "+3", "perdre-tout"])
    flip(s, 5)
    assert s.player == 0 and s.points == 3 and s.full


def test_protection_does_not_carry_over_a_reshuffle_pl3() -> None:
    box = parse_box("+3,protection,protection,perdre-tout")
    s = game(box=box).new_state(1)
    rig(s, ["protection", "protection", "perdre-tout", "+3"])
    flip(s, 4)
    assert s.full and s.shields == 1
    s.apply_action(RESHUFFLE)
    assert s.shields == 0 and s.points == 3 and len(s.down) == 4


def test_a_turn_starts_with_a_flip_pl5() -> None:
    s = game().new_state(1)
    assert STOP not in s.legal_actions()
    with pytest.raises(IllegalActionError):
        s.apply_action(STOP)
    flip(s)
    assert STOP in s.legal_actions()


def test_after_a_full_pass_reshuffle_or_stop_keeping_the_points_pl4() -> None:
    s = game().new_state(1)
    rig(s, ["+3", "protection", "+5", "perdre-tout", "x2"])
    flip(s, 5)
    assert s.full and s.points == 16 and s.legal_actions() == [STOP, RESHUFFLE]
    s.apply_action(RESHUFFLE)
    assert s.points == 16 and not s.full and s.reshuffles == 1
    flip(s)
    s.apply_action(STOP)
    assert s.round_scores[0] >= 16 or s.round_scores[0] == 0


def test_stopping_keeps_the_points_and_passes_the_turn() -> None:
    s = game(3).new_state(1)
    rig(s, ["+5"])
    flip(s)
    s.apply_action(STOP)
    assert s.round_scores[0] == 5 and s.player == 1 and s.points == 0 and len(s.down) == 5


# --------------------------------------------------------------------------- rounds and the end


def _turn(s, order: list[str], flips: int, stop: bool = True) -> None:
    rig(s, order)
    flip(s, flips)
    if stop and s.player >= 0 and s.turn_flips:
        s.apply_action(STOP)


def test_the_round_is_finished_after_someone_reaches_15_pl6() -> None:
    s = game(3).new_state(1)
    _turn(s, ["+3", "+5", "x2"], 3)  # 16
    assert s.player == 1 and not s.is_terminal()
    _turn(s, ["+5"], 1)
    _turn(s, ["+3", "+5", "protection", "x2", "perdre-tout"], 5, stop=False)  # full pass at 16
    s.apply_action(RESHUFFLE)
    _turn(s, ["+3"], 1)  # 19: the last seat beats it
    assert s.is_terminal() and s.ended_by == "target" and s.winners == [2]
    assert s.returns() == [-0.5, -0.5, 1.0] and sum(s.returns()) == 0


def test_nobody_at_15_starts_a_new_round_seat_1_first_pl9() -> None:
    s = game(2).new_state(1)
    _turn(s, ["+5"], 1)
    _turn(s, ["perdre-tout"], 1, stop=False)
    assert s.round == 2 and s.player == 0 and s.round_scores == [None, None]


@pytest.mark.parametrize("tie, winners, returns", [("first", [0], [1.0, -1.0]),
                                                    ("shared", [0, 1], [0.0, 0.0])])
def test_equal_best_scores_pl7(tie, winners, returns) -> None:
    s = game(2, tie=tie).new_state(1)
    _turn(s, ["+3", "+5", "x2"], 3)
    _turn(s, ["+5", "+3", "x2"], 3)
    assert s.scores() == [16, 16] and s.winners == winners and s.returns() == returns


def test_the_best_score_wins_not_the_first() -> None:
    s = game(2).new_state(1)
    _turn(s, ["+3", "+5", "x2"], 3)  # 16
    _turn(s, ["+5", "+3", "protection", "x2"], 4)  # 16, protection flipped
    assert s.winners == [0]
    s = game(2).new_state(1)
    _turn(s, ["+3", "+5", "x2"], 3)  # 16
    _turn(s, ["+3", "+5", "protection", "x2", "perdre-tout"], 5, stop=False)  # full pass at 16
    s.apply_action(RESHUFFLE)
    _turn(s, ["+3"], 1)
    assert s.is_terminal() and s.winners == [1] and s.scores() == [16, 19]


def test_solo_rounds_add_up_and_15_does_not_end_pl8() -> None:
    s = game(1, solo_rounds=3).new_state(1)
    _turn(s, ["+3", "+5", "x2"], 3)
    assert not s.is_terminal() and s.round == 2 and s.totals == [16]
    _turn(s, ["+5"], 1)
    _turn(s, ["perdre-tout"], 1, stop=False)
    assert s.is_terminal() and s.ended_by == "rounds" and s.returns() == [21.0]


def test_round_limit_is_reported_pl10() -> None:
    box = parse_box("+1,perdre-tout")  # 15 is out of reach
    s = game(2, box=box, max_rounds=5).new_state(3)
    s.play_greedy()
    assert s.ended_by == "round_limit" and s.round == 5 and s.returns() == [0.0, 0.0]


def test_rules_options_are_checked() -> None:
    with pytest.raises(CardbaseError, match="tie"):
        game(tie="both")
    with pytest.raises(CardbaseError):
        game(7)


def test_illegal_actions_are_refused_with_the_legal_ones_in_french_or_english() -> None:
    s = game().new_state(1)
    with i18n.use_language("fr"):
        assert s.action_to_string(STOP) == "S'arrêter et garder les points"
        with pytest.raises(IllegalActionError, match="Retourner la carte 1"):
            s.apply_action(RESHUFFLE)
    with i18n.use_language("en"):
        assert s.action_to_string(FLIP + 1) == "Flip card 2"


def test_turn_log_in_french() -> None:
    s = game().new_state(1)
    rig(s, ["+3", "protection", "perdre-tout"])
    flip(s, 3)
    with i18n.use_language("fr"):
        lines = s.log_lines()
    assert "Joueur 1 retourne « +3 points » : 0 → 3 points." in lines
    assert any("la Protection le sauve" in line for line in lines)


# --------------------------------------------------------------------------- invariants, determinism


def _check(s) -> None:
    assert s.points >= 0 and s.shields >= 0
    if s.player != TERMINAL:
        assert sorted(s.down + s.flipped) == list(range(len(s.game.box)))
        assert s.full == (not s.down)
        assert s.legal_actions()


@pytest.mark.parametrize("players", [1, 2, 3, 6])
def test_random_play_invariants(players: int) -> None:
    g = game(players, solo_rounds=4)
    rng = random.Random(players)
    for seed in range(400):
        s = g.new_state(seed)
        while not s.is_terminal():
            _check(s)
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        assert s.ended_by in ("target", "rounds", "round_limit")
        r = s.returns()
        if players == 1:
            assert s.round == 4 and r == [float(s.totals[0])]
        else:
            scores = s.scores()
            assert s.winners and all(scores[w] == max(scores) >= 15 for w in s.winners)
            assert s.winners[0] == scores.index(max(scores))  # PL7: the first of the best
            assert abs(sum(r)) < 1e-12


def test_same_seed_same_game_and_replay() -> None:
    g = game(3)
    a, b = g.new_state(42), g.new_state(42)
    a.play_greedy()
    while not b.is_terminal():
        b.apply_action(GreedyBot().step(b))
    assert a.history == b.history and a.events == b.events and a.returns() == b.returns()
    c = replay(g, 42, a.history)
    assert c.events == a.events
    assert g.new_state(43).down != a.game.new_state(42).down or True  # other seeds deal otherwise


def test_greedy_goes_until_15_then_stops() -> None:
    s = game(2).new_state(5)
    rig(s, ["+5", "+3"])
    flip(s, 2)
    assert greedy_action(s) == FLIP
    s.points = 15
    assert greedy_action(s) == STOP


def test_clone_and_resample_are_independent() -> None:
    s = game(2).new_state(9)
    flip(s)
    c = s.clone()
    r = s.resample(0, random.Random(1))
    assert sorted(r.down) == sorted(s.down) and r.points == s.points
    flip(c)
    assert len(c.down) == len(s.down) - 1 or c.player != s.player


# --------------------------------------------------------------------------- the solver


def _brute_reach(box, target: int) -> Fraction:
    """P(reach target) going on below it, by enumerating every order of every pass."""
    cards = [(c.kind, c.figure) for c in box.cards]
    perms = list(permutations(range(len(cards))))

    def from_pass(p: int) -> Fraction:
        total = Fraction(0)
        for order in perms:
            pts, sh, done = p, 0, None
            for i in order:
                kind, fig = cards[i]
                if kind == ADD:
                    pts += fig
                elif kind == MUL:
                    pts *= fig
                elif kind == PROTECTION:
                    sh += 1
                elif sh:
                    sh -= 1
                else:
                    done = Fraction(0)
                    break
                if pts >= target:
                    done = Fraction(1)
                    break
            total += done if done is not None else from_pass(pts)
        return total / len(perms)

    return from_pass(0)


@pytest.mark.parametrize("box", ["+3,+5,x2,protection,perdre-tout", PLUS_ONE, "+3,+5,perdre-tout",
                                 "+2,protection,perdre-tout", "+1,+3,+5,x2,protection,perdre-tout"])
def test_reach_15_matches_brute_force(box: str) -> None:
    b = parse_box(box)
    assert Solver(b).reach()[0] == _brute_reach(b, 15)


def test_the_default_figures() -> None:
    p, flips = Solver(BOX).reach()
    assert p == Fraction(103, 240) and flips == Fraction(317, 80)
    assert Solver(parse_box(PLUS_ONE)).reach()[0] == Fraction(407, 1440)


def test_simulation_agrees_with_the_solver_within_its_interval() -> None:
    """Greedy single turns (playing for 15) and optimal 2-player games against the exact values."""
    g = game(2)
    exact = float(Solver(BOX).reach()[0])
    n = 6000
    hits = 0
    for seed in range(n):
        s = g.new_state(seed, log=False)
        while s.player == 0:
            s.apply_action(greedy_action(s))
        hits += (s.round_scores[0] or 0) >= 15
    lo, hi = wilson(hits, n, z=3.0)
    assert lo <= exact <= hi
    rep, _ = simulate("pushluck", DEFS, players=2, bots=["optimal"], games=4000, seed=3)
    win = Solver(BOX).seats(2).win
    for seat in rep.seats:
        lo, hi = wilson(seat["wins"], rep.games, z=3.0)
        assert lo <= win[seat["seat"] - 1] <= hi


def test_seats_sum_to_one_and_the_second_seat_is_favoured() -> None:
    seats = Solver(BOX).seats(2)
    assert abs(sum(seats.win) - 1) < 1e-9
    assert seats.win[1] > seats.win[0]
    # the last seat goes on exactly until the best score is beaten
    assert seats.decide(1, 16, 16, Solver(BOX).full, 0) is True
    assert seats.decide(1, 16, 17, Solver(BOX).full, 0) is False


def test_optimal_beats_greedy_from_the_same_seat() -> None:
    rep, _ = simulate("pushluck", DEFS, players=2, bots=["greedy", "optimal"], games=3000, seed=1)
    rep2, _ = simulate("pushluck", DEFS, players=2, bots=["greedy", "greedy"], games=3000, seed=1)
    assert rep.seats[1]["win_rate"] > rep2.seats[1]["win_rate"] + 0.05


def test_solo_is_finite_for_the_default_box_pl12() -> None:
    for box, value in ((BOX, 24), (parse_box(PLUS_ONE), 12)):
        s = Solver(box)
        st = s.pass_stats()
        assert st["rho"] == 1 and st["H"] > 0
        solo = s.solo(3)
        assert solo.bound()["status"] == "exact" and solo.bound()["value"] == value
        assert all(a < b < value for a, b in zip(solo.values, solo.values[1:]))


def test_solo_exact_without_full_pass_and_otherwise_pl12() -> None:
    s = Solver(parse_box("+3,+5,x2,perdre-tout"))
    assert s.solo(2).bound()["status"] == "exact"
    assert s.solo(0).values[0] == s.solo(2).values[-1]
    # rho = 1/2 and one reshuffle is all that ever pays
    b = Solver(parse_box("+3,+5,protection,perdre-tout")).solo(2).bound()
    assert b["status"] == "exact" and b["value"] == Fraction(11, 2)
    # rho = 2/3 with a multiplier: exact, above every capped value
    box = parse_box("+3,+5,x2,protection,protection,perdre-tout,perdre-tout")
    b = Solver(box).solo(2).bound()
    assert b["status"] == "exact" and Solver(box).solo(4).values[-1] < b["value"]


def test_solo_one_pass_value_by_hand() -> None:
    # +3, perdre-tout, no reshuffle: flip once: 1/2 × 3, then stop (flipping again loses all)
    assert Solver(parse_box("+3,perdre-tout")).solo(0).values[0] == Fraction(3, 2)


def test_seats_need_a_perdre_tout() -> None:
    with pytest.raises(SolverError):
        Solver(parse_box("+3,+5")).seats(2)
    data = solve(parse_box("+3,+5"), players=2)
    assert data["seats"] == {} and "Perdre tout" in data["seats_error"]


# --------------------------------------------------------------------------- registry and CLI


def test_registry_builds_the_game_with_its_bots() -> None:
    spec = registry.playable("pushluck")
    assert spec.bots == ("random", "greedy", "optimal")
    g = spec.build(DEFS, 4)
    assert g.num_players == 4
    rep, _ = simulate("pushluck", DEFS, players=1, bots=["optimal"], games=50, seed=2,
                      options={"solo_rounds": 2})
    assert rep.ended_by == {"rounds": 50}


def test_cli_solve_json() -> None:
    r = runner.invoke(app, ["solve", "pushluck", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["p_reach_15_exact"] == "103/240" and data["expected_flips_exact"] == "317/80"
    assert data["solo"]["status"] == "exact" and data["solo"]["policy"]
    assert data["solo"]["expected_points_per_round_exact"] == "24"
    assert set(data["seats"]) == {"2"} and len(data["seats"]["2"]["win"]) == 2


def test_cli_solve_box_and_text_output() -> None:
    r = runner.invoke(app, ["--lang", "en", "solve", "pushluck", "--box", PLUS_ONE, "--players", "1"])
    assert r.exit_code == 0, r.output
    assert "28.3 %" in r.stdout and "407/1440" in r.stdout
    r = runner.invoke(app, ["solve", "pushluck", "--box", "+3,joker", "--players", "1"])
    assert r.exit_code == 2 and "joker" in r.stderr and "Traceback" not in r.output


def test_solve_function_players_range() -> None:
    data = solve(BOX, players=1)
    assert data["seats"] == {}


def test_reach_for_every_target_from_the_peak_distribution() -> None:
    """The seats use P(reach T) for many T from one forward computation; it matches the exact one."""
    for box in (BOX, parse_box("+1,+3,+5,x2,protection,protection,perdre-tout")):
        s = Solver(box)
        for t in (1, 5, 15, 16, 31, 70, 200):
            assert abs(s.reach_float(t) - float(s.reach(t)[0])) < 1e-12


def test_batches_are_deterministic_with_every_bot() -> None:
    for bots in (["random"], ["optimal"], ["greedy", "optimal", "random"]):
        players = len(bots) if len(bots) > 1 else 2
        a = simulate("pushluck", DEFS, players=players, bots=bots, games=200, seed=7)[1]
        b = simulate("pushluck", DEFS, players=players, bots=bots, games=200, seed=7)[1]
        assert a == b


def test_the_game_makes_only_its_own_bots() -> None:
    g = game(2)
    assert g.make_bot("optimal").name == "optimal"
    assert g.make_bot("greedy") is None  # the generic greedy calls state.greedy_action()


def test_three_player_seats_agree_with_simulation() -> None:
    win = Solver(BOX).seats(3).win
    assert abs(sum(win) - 1) < 1e-9 and win[0] < win[1] < win[2]
    rep, _ = simulate("pushluck", DEFS, players=3, bots=["optimal"], games=2500, seed=11)
    for seat in rep.seats:
        lo, hi = wilson(seat["wins"], rep.games, z=3.0)
        assert lo <= win[seat["seat"] - 1] <= hi
