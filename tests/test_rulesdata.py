"""Games written as data (data/rules/*.toml, docs/rules-language.md): the checker, the interpreter,
15 en un tour against its hand-written engine, Le Huit played whole, the measures of a good game."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.games import registry
from cardbase.games.pushluck.material import box_from_cards
from cardbase.games.pushluck.rules import Rules as PushRules
from cardbase.games.pushluck.state import FLIP, RESHUFFLE, STOP
from cardbase.games.pushluck.state import Game as PushGame
from cardbase.games.rulesdata.engine import Game, IllegalActionError
from cardbase.games.rulesdata.language import RulesFileError, load_rules, parse_rules_text
from cardbase.playtest.cards import load_edition_defs
from cardbase.playtest.games import simulate
from cardbase.playtest.measures import measures
from tests.rulesdata_helpers import random_games

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "data" / "rules"
OVERKILL_EDITION = ROOT / "data" / "editions" / "OVK.toml"
P15 = [c for c in load_edition_defs([ROOT / "data" / "editions" / "P15.toml"]) if c.game == "pushluck"]
runner = CliRunner()


# ------------------------------------------------------------------ 15 en un tour: the same game

def _lockstep(players: int, seeds: range, options: dict | None = None) -> int:
    """Play the hand-written engine and the rules file side by side on the same seeds, the same
    random choices: same legal moves at every step (STOP / RESHUFFLE / FLIP i are the file's
    arreter / remelanger / retourner at position i), same turn points, same end. Returns the number
    of moves compared."""
    options = options or {}
    data = Game(load_rules(RULES / "pushluck.toml", options=options), P15, players)
    hand = PushGame(box_from_cards(P15), PushRules(**options), players)
    stride = data.stride

    def tr(a: int) -> int:
        return 0 if a == STOP else stride if a == RESHUFFLE else 2 * stride + (a - FLIP)

    moves = 0
    for seed in seeds:
        a, b, rng = data.new_state(seed), hand.new_state(seed), random.Random(seed)
        while not b.is_terminal():
            assert a.current_player() == b.current_player()
            assert a.legal_actions() == [tr(x) for x in b.legal_actions()], seed
            assert a.counters[b.player]["points"] == b.points
            assert a.counters[b.player]["shields"] == b.shields
            x = rng.choice(b.legal_actions())
            b.apply_action(x)
            a.apply_action(tr(x))
            moves += 1
        assert a.is_terminal()
        assert (a.returns(), a.ended_by, a.round, a.turns) == (b.returns(), b.ended_by, b.round, b.turns)
    return moves


@pytest.mark.parametrize("players", [2, 3])
def test_pushluck_rules_file_plays_the_hand_written_game_move_by_move(players) -> None:
    """PL1-PL7, PL9: the data version deals the same cards from the same seed and agrees on every
    legal move, every turn's points and Protections, the winner and how the game ended."""
    assert _lockstep(players, range(80)) > 1500


def test_pushluck_rules_file_option_is_the_engines_option() -> None:
    """PL6: the target is an option of both; at 10 points both still agree move by move (and the
    games are shorter than at 15)."""
    short = _lockstep(2, range(60), {"target": 10})
    assert short < _lockstep(2, range(60))


def test_pushluck_rules_file_ties_first_seat() -> None:
    """PL7 where two rules meet: both seats reach the target in the same round with equal scores;
    the file's ``ties = "first"`` gives the win to seat 1 as the engine does."""
    data = Game(load_rules(RULES / "pushluck.toml"), P15, 2)
    for s in random_games(data, range(400)):
        scores = [c["score"] for c in s.counters]
        if s.ended_by == "target" and scores[0] == scores[1]:
            assert s.winners == [0] and s.returns() == [1.0, -1.0]
            return
    pytest.fail("no tie in 400 games")


# ------------------------------------------------------------------ Le Huit, written only as data

def _huit(players: int = 2) -> Game:
    return registry.get("huit").build((), players)


def test_huit_is_registered_from_its_rules_file() -> None:
    spec = registry.get("huit")
    assert spec.engine and spec.own_cards and spec.rules_file.endswith("huit.toml")
    assert (spec.min_players, spec.max_players, spec.default_players) == (2, 5, 2)
    assert "pushluck" in registry.REGISTRY and registry.REGISTRY["pushluck"].rules_file is None


@pytest.mark.parametrize("players", [2, 4])
def test_huit_whole_games_follow_the_rules(players) -> None:
    """Every play matches the colour or value of the discard's top (an 8 goes anywhere); a
    player draws only when no card can be played, at most once a turn; no card is lost; the game
    ends with an empty hand (that player wins) or an empty draw pile (the smallest hand wins)."""
    game = _huit(players)
    cards = game.cards
    assert len(cards) == 32
    stride = game.stride
    for seed in range(40):
        s = game.new_state(seed)
        rng = random.Random(seed)
        assert [len(h) for h in s.zones["main"]] == [7 if players == 2 else 5] * players  # HU1, HU4
        while not s.is_terminal():
            p = s.current_player()
            legal = s.legal_actions()
            kinds = {a // stride for a in legal}
            top = cards[s.zones["defausse"][0][-1]]
            hand = s.zones["main"][p]
            playable = [c for c in hand if cards[c].value == 8 or cards[c].colour == top.colour
                        or cards[c].value == top.value]
            assert (0 in kinds) == bool(playable)
            if playable:
                assert 1 not in kinds  # no draw when a card can be played
            a = rng.choice(legal)
            before = s.done[1]
            s.apply_action(a)
            if a // stride == 1:
                assert before == 0  # limit = 1
            if not s.is_terminal():
                total = sum(len(x) for v in s.zones.values() for x in v)
                assert total == 32
        hands = [len(h) for h in s.zones["main"]]
        if s.ended_by == "main_vide":
            assert [hands[w] for w in s.winners] == [0]
        else:
            assert s.ended_by == "pioche_vide" and not s.zones["pioche"][0]
            assert all(hands[w] == min(hands) for w in s.winners)


def test_huit_seed_replays_and_log_is_french() -> None:
    game = _huit()
    a, b = game.new_state(11), game.new_state(11)
    for s in (a, b):
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[0])
    assert a.history == b.history and a.log_lines() == b.log_lines()
    assert a.log_lines(operations=False)[0] == "Manche 1" and "Fin de la partie" in a.log_lines()[-1]
    assert a.log_lines()[:2] == ["Mélange : pioche", "Donne : 7 carte(s) par joueur, pioche → main"]
    s = game.new_state(11)
    assert any(s.action_to_string(x).startswith("Jouer : ") or s.action_to_string(x) == "Piocher"
               for x in s.legal_actions())
    with pytest.raises(IllegalActionError, match="ne peut pas"):
        s.apply_action(10**6)


def test_huit_observation_hides_and_resample_keeps_what_is_seen() -> None:
    game = _huit()
    s = game.new_state(5)
    obs = s.observation(1)
    assert all(x is None for x in obs["zones"]["main"][0])  # seat 1's hand, seen by seat 2
    assert all(x is not None for x in obs["zones"]["main"][1])
    assert obs["zones"]["defausse"][0][-1] is not None and all(x is None for x in obs["zones"]["pioche"][0])
    r = s.resample(1, random.Random(3))
    assert r.zones["main"][1] == s.zones["main"][1] and r.zones["defausse"] == s.zones["defausse"]
    assert [len(x) for x in r.zones["main"]] == [len(x) for x in s.zones["main"]]
    assert Counter(r.zones["pioche"][0] + r.zones["main"][0]) == Counter(s.zones["pioche"][0] + s.zones["main"][0])
    assert r.zones["pioche"][0] + r.zones["main"][0] != s.zones["pioche"][0] + s.zones["main"][0]


def test_huit_batch_bots_and_coverage() -> None:
    """The batch runner and the generic bots play it (greedy: a one-ply look-ahead on the file's
    heuristic over deals of what it cannot see); coverage counts every action's decisions."""
    rep, recs = simulate("huit", [], games=100, bots=["greedy", "random"], seed=1)
    assert rep.games == 100 and set(rep.ended_by) <= {"main_vide", "pioche_vide"}
    assert rep.seats[0]["wins"] + rep.seats[1]["wins"] + rep.ties == 100
    cov = recs[0].coverage
    assert set(cov) <= {"jouer", "piocher", "passer"} and "jouer" in cov
    assert all(0 <= used <= occ for occ, used in cov.values())
    from cardbase.games.bots.registry import make_bot

    game = _huit()
    for bot in (make_bot("mc", seed=1, samples=3), make_bot("ismcts", seed=1, iterations=20)):
        s = game.new_state(2)
        while not s.is_terminal() and len(s.history) < 12:  # the search bots play the first moves
            legal = s.legal_actions()
            a = bot.step(s)
            assert a in legal
            s.apply_action(a)


# ------------------------------------------------------------------ the checker

BROKEN = """[game]
code = "essai"
players = [2, 4]

[material]
source = "edition"
into = "pile"

[[zones]]
name = "pioche"
visible = "partout"

[counters]
points = { reset = "jamais" }

[[actions]]
name = "piocher"
move = { from = "pioche", to = "main" }
when = "count('pioche') > 0 and score >= 3"

[[actions]]
name = "compter"
then = [{ add = "pts", value = 1 }]

[end]
[[end.conditions]]
player = "__import__('os')"
"""


def test_checker_lists_every_problem_with_line_and_key() -> None:
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(BROKEN, "essai.toml")
    text = str(info.value)
    problems = info.value.problems
    assert len(problems) >= 7
    wheres = [p.where for p in problems]
    assert "fichier essai.toml, ligne 7, clé material.into" in wheres  # unknown zone « pile »
    assert "fichier essai.toml, ligne 11, clé zones[1].visible" in wheres
    assert "fichier essai.toml, ligne 14, clé counters.points.reset" in wheres
    assert "fichier essai.toml, ligne 18, clé actions[1].move" in wheres  # zone « main »
    assert "fichier essai.toml, ligne 19, clé actions[1].when" in wheres  # « score » unknown
    assert "La zone « pile » n'existe pas" in text and "Zones décrites : pioche" in text
    assert "Le compteur « pts » n'existe pas" in text
    assert "« winner »" in text or "winner" in text  # the missing [end.winner]
    assert any("__import__" in p.message for p in problems)


def test_expressions_refuse_anything_but_the_language() -> None:
    base = (RULES / "huit.toml").read_text(encoding="utf-8")
    line = base.splitlines().index('heuristic = "-count(\'main\')"') + 1
    for bad, word in (("card.__class__", "__class__"), ("open('x')", "open"),
                      ("[c for c in card]", "ListComp"), ("count('nulle_part')", "nulle_part"),
                      ("done('voler')", "voler"), ("1 +", "colonne")):
        text = base.replace('heuristic = "-count(\'main\')"', f'heuristic = "{bad}"')
        with pytest.raises(RulesFileError) as info:
            parse_rules_text(text, "huit.toml")
        assert word in str(info.value), bad
        assert info.value.problems[0].where.startswith(f"fichier huit.toml, ligne {line}, clé scoring.heuristic")


def test_unknown_option_override_is_refused() -> None:
    with pytest.raises(RulesFileError, match="L'option « cible » n'existe pas"):
        load_rules(RULES / "pushluck.toml", options={"cible": 12})


# ------------------------------------------------------------------ command line and measures

def test_cli_games_check_ok_and_broken(tmp_path) -> None:
    ok = runner.invoke(app, ["games", "check", str(RULES / "huit.toml")])
    assert ok.exit_code == 0, ok.output
    assert "règles valables pour « huit »" in ok.stdout
    assert "[2 joueurs] 5 parties au hasard : 5 finies par une condition" in ok.stdout
    bad = tmp_path / "essai.toml"
    bad.write_text(BROKEN, encoding="utf-8")
    res = runner.invoke(app, ["games", "check", str(bad)])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "ligne 19" in res.output and "ligne 7" in res.output


@pytest.mark.sqlite_only("the command-line contract does not depend on the database")
def test_cli_sim_game_plays_a_rules_file_game(cli_env) -> None:
    res = runner.invoke(app, ["sim", "game", "huit", "--games", "30", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["game"] == "huit" and data["games"] == 30 and data["players"] == 2
    # the batch report of a game written as data carries the measures of a good game
    assert data["measures"] == json.loads(json.dumps(measures(_huit(), games=30, seed=0,
                                                              bots=["greedy", "greedy"])))
    text = runner.invoke(app, ["sim", "game", "huit", "--games", "20", "--measures-games", "10"])
    assert text.exit_code == 0 and "Mesures d'un bon jeu :" in text.stdout
    assert "huit : 10 parties" in text.stdout and "décision : le vainqueur mène" in text.stdout
    off = runner.invoke(app, ["sim", "game", "huit", "--games", "20", "--measures-games", "0", "--json"])
    assert "measures" not in json.loads(off.stdout)


def test_measures_of_a_good_game() -> None:
    m = measures(_huit(), games=60, seed=4)
    assert m["games"] == 60 and 0 < m["decided"] <= 60
    fp = m["first_player"]
    assert fp["ci95"][0] <= fp["rate"] <= fp["ci95"][1] and fp["fair"] == 0.5
    assert m["length"]["min"] <= m["length"]["median"] <= m["length"]["max"]
    assert m["decisions"]["per_game"] > 0 and m["decisions"]["options"] >= 2
    assert m["lead_changes"]["mean"] > 0
    assert m == measures(_huit(), games=60, seed=4)  # seeded


def test_measures_drama_decisiveness_and_skill_gap() -> None:
    """How early the winner is known, by how much a comeback winner was behind, greedy against
    random — each with its interval."""
    from cardbase.playtest.measures import decided_at

    assert decided_at([0, 0, 0, 0], 0) == 0.0  # led from the first turn
    assert decided_at([1, 1, 0, 0], 0) == 0.5
    assert decided_at([0, 1, None, 1], 0) == 1.0  # never led: known only at the end
    assert decided_at([0, 1], None) is None
    m = measures(_huit(), games=60, seed=4, skill_games=40)
    dv = m["decisiveness"]
    assert 0 <= dv["ci95"][0] <= dv["mean"] <= dv["ci95"][1] <= 1 and dv["of"] == m["decided"]
    cb = m["comebacks"]
    assert (cb["mean_gap"] is None) == (cb["count"] == 0) and (cb["mean_gap"] or 1) > 0
    sk = m["skill_gap"]
    assert sk["games"] == 40 and sk["ci95"][0] <= sk["rate"] <= sk["ci95"][1] and sk["fair"] == 0.5
    ln, lc = m["length"], m["lead_changes"]
    assert ln["ci95"][0] <= ln["mean"] <= ln["ci95"][1] and lc["ci95"][0] <= lc["mean"] <= lc["ci95"][1]


def test_cli_sim_measures_text_json_and_refusals() -> None:
    res = runner.invoke(app, ["sim", "measures", "huit", "--games", "40", "--seed", "2", "--json",
                              "--skill-games", "20", "--outcome-games", "3"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data == json.loads(json.dumps(measures(_huit(), games=40, seed=2, skill_games=20,
                                                  outcome_games=3)))
    assert data["outcome"]["games"] == 3 and data["outcome"]["decisions"] > 0
    text = runner.invoke(app, ["sim", "measures", "huit", "--games", "40", "--bots", "greedy,random"])
    assert text.exit_code == 0 and "premier joueur :" in text.stdout and "remontées" in text.stdout
    # a hand-written engine without a rules file is measured on its own games (OVERKILL's box
    # from the edition file)
    hand = runner.invoke(app, ["sim", "measures", "overkill", "--games", "5", "--skill-games", "0",
                               "--outcome-games", "0", "--edition", str(OVERKILL_EDITION), "--json"])
    assert hand.exit_code == 0, hand.output
    assert json.loads(hand.stdout)["game"] == "overkill" and json.loads(hand.stdout)["games"] == 5
    # a hand-written engine whose rules are also written as data: measured on its rules file
    both = runner.invoke(app, ["sim", "measures", "nespanini", "--games", "12", "--skill-games", "6",
                               "--outcome-games", "1",
                               "--deck", "maree-et-crypte", "--deck", "braises-ardentes", "--json"])
    assert both.exit_code == 0, both.output
    data = json.loads(both.stdout)
    assert data["rules_file"] == "data/rules/nespanini.toml" and data["games"] == 12
    assert data["decks"] == ["maree-et-crypte", "braises-ardentes"]
    assert data["skill_gap"]["games"] == 6 and set(data["ended_by"]) <= {"cimetiere", "empty-deck"}
    optimal = runner.invoke(app, ["sim", "measures", "pushluck", "--games", "5", "--bots", "optimal"])
    assert optimal.exit_code == 2 and "random, greedy, mc et ismcts" in optimal.output
    zero = runner.invoke(app, ["sim", "measures", "huit", "--games", "0"])
    assert zero.exit_code == 2 and "de 1 à 20 000" in zero.output


def test_huit_rulings_come_from_its_file_and_flip_the_game() -> None:
    """HU1-HU4 are the file's [[rulings]] (docs/rulings/huit.md); HU2 (contested) turned off makes
    an 8 follow colour or value like any card, HU1 deals fewer cards."""
    from cardbase.games.rulings import game_rulings, parse_rules

    listed = {r.code: r for r in game_rulings("huit")}
    assert set(listed) == {"HU1", "HU2", "HU3", "HU4"} and listed["HU2"].contested
    assert listed["HU1"].default == 7 and listed["HU1"].bounds == (3, 10)
    options = parse_rules("huit", ["HU2=false", "hand=5"])
    game = registry.get("huit").build((), 2, **options)
    cards = game.cards
    saw_blocked_eight = False
    for seed in range(30):
        s = game.new_state(seed)
        assert [len(h) for h in s.zones["main"]] == [5, 5]
        while not s.is_terminal():
            top = cards[s.zones["defausse"][0][-1]]
            plays = [cards[s.zones["main"][s.player][a % game.stride]] for a in s.legal_actions()
                     if a // game.stride == 0]
            assert all(c.colour == top.colour or c.value == top.value for c in plays)
            eights = [c for c in (cards[x] for x in s.zones["main"][s.player]) if c.value == 8]
            saw_blocked_eight |= any(c.colour != top.colour and top.value != 8 for c in eights)
            s.apply_action(random.Random(seed + len(s.history)).choice(s.legal_actions()))
    assert saw_blocked_eight


def test_checker_refuses_a_ruling_on_an_unknown_option() -> None:
    text = (RULES / "huit.toml").read_text(encoding="utf-8").replace('option = "hand"', 'option = "main_size"')
    with pytest.raises(RulesFileError, match="L'option « main_size » n'existe pas"):
        parse_rules_text(text, "huit.toml")


def test_a_formula_that_fails_in_play_is_a_clear_error(tmp_path) -> None:
    """A filter comparing a number with a text passes the checker but fails on the first cards:
    ``games check`` plays a few games and says which expression failed, exit 2, no traceback."""
    text = (RULES / "huit.toml").read_text(encoding="utf-8").replace(
        "card.value == top('defausse').value\"", "card.value > top('defausse').name\"")
    path = tmp_path / "huit.toml"
    path.write_text(text, encoding="utf-8")
    res = runner.invoke(app, ["games", "check", str(path)])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "échoue en cours de partie" in res.output and "top('defausse').name" in res.output
    big = (RULES / "huit.toml").read_text(encoding="utf-8").replace('count = "hand if players == 2 else hand_many"',
                                                                'count = 10000000')
    with pytest.raises(RulesFileError, match="jusqu'à un million"):
        parse_rules_text(big, "huit.toml")


def test_cli_sim_rulings_weighs_a_rules_file_ruling() -> None:
    """HU2 (contested, from the file's [[rulings]]) is weighed by ``sim rulings`` like a
    hand-written game's ruling, with no database card."""
    res = runner.invoke(app, ["sim", "rulings", "huit", "--games", "30", "--json"])
    assert res.exit_code == 0, res.output
    assert "HU2" in res.stdout and "eight_wild" in res.stdout


def test_cli_check_warns_of_an_action_never_legal(tmp_path) -> None:
    """A ``when`` that can never hold (a hand of more than 32 cards) passes the checker, but the
    trial games show the action was never legal; the condition it guards never ends a game."""
    text = (RULES / "huit.toml").read_text(encoding="utf-8").replace(
        'when = "done(\'piocher\') > 0 or count(\'pioche\') == 0"', 'when = "count(\'main\') > 40"')
    path = tmp_path / "huit.toml"
    path.write_text(text, encoding="utf-8")
    res = runner.invoke(app, ["games", "check", str(path), "--games", "10"])
    assert res.exit_code == 0, res.output
    assert "l'action « passer » n'a jamais été possible en 10 parties" in res.stdout
    ok = runner.invoke(app, ["games", "check", str(RULES / "huit.toml"), "--games", "10", "--json"])
    assert json.loads(ok.stdout)["tried"]["never_legal"] == []


def test_greedy_never_peeks_at_hidden_cards() -> None:
    """The generic greedy plays from what its seat sees: two states that differ only by the order of
    the face-down cards (PL1) or by the opponent's hand get the same move."""
    data = Game(load_rules(RULES / "pushluck.toml"), P15, 2)
    huit = _huit()
    checked = 0
    for game, zone in ((data, "cachees"), (huit, "pioche")):
        for seed in range(40):
            s = game.new_state(seed)
            rng = random.Random(seed)
            for _ in range(rng.randrange(4)):
                if not s.is_terminal():
                    s.apply_action(rng.choice(s.legal_actions()))
            if s.is_terminal() or len(s.legal_actions()) < 2:
                continue
            other = s.clone()
            pile = other._pile(zone, other.player)
            random.Random(seed + 1).shuffle(pile)
            if game is huit:
                random.Random(seed + 2).shuffle(other.zones["main"][1 - other.player])
            assert s.greedy_action() == other.greedy_action()
            checked += 1
    assert checked > 20


COURSE = """[game]
code = "course"
players = [2, 3]

[options]
but = 10

[material]
source = "generated"
cards = [{ name = "Un", value = 1, copies = 6 }, { name = "Trois", value = 3, copies = 3 }]
into = "pioche"

[[zones]]
name = "pioche"
owner = "shared"
ordered = false
visible = "nobody"

[[zones]]
name = "tas"
owner = "player"
visible = "everyone"

[counters]
total = { reset = "never" }

[setup]
first_player = "rotate"

[[actions]]
name = "prendre"
move = { from = "pioche", to = "tas" }
pick = "random"
compulsory = true
when = "done('prendre') == 0"
then = [{ add = "total", value = "card.value" }]

[[actions]]
name = "passer"
ends_turn = true

[end]
check = "action"
max_rounds = 30

[[end.conditions]]
name = "but"
player = "total >= but"

[end.winner]
by = "total"
among = "reached"
ties = "first"
"""


def test_compulsory_random_pick_rotation_and_end_at_the_action() -> None:
    """Where the constructs meet: a compulsory action hides the others while it is legal; its card
    is taken at random (seeded) and counted; the first player rotates each round; an end checked
    after every action stops the game mid-round; an empty pile leaves only « passer » until the
    safety net (``round_limit``)."""
    game = Game(parse_rules_text(COURSE, "course.toml"), (), 2)
    ends: set[str] = set()
    for seed in range(40):
        s = game.new_state(seed)
        assert [a // game.stride for a in s.legal_actions()] == [0]  # prendre only (compulsory)
        s.apply_action(s.legal_actions()[0])
        drawn = game.cards[s.zones["tas"][0][-1]]
        assert s.counters[0]["total"] == drawn.value
        assert [a // game.stride for a in s.legal_actions()] == [1]  # done: only passer
        firsts = []
        s2 = game.new_state(seed)
        while not s2.is_terminal():
            if not s2.done[0] and not s2.done[1] and s2.turn_actions == 0:
                firsts.append((s2.round, s2.player))
            s2.apply_action(s2.legal_actions()[0])
        starts = {}
        for r, p in firsts:
            starts.setdefault(r, p)
        assert all(p == (r - 1) % 2 for r, p in starts.items())  # rotate: seat 1, 2, 1…
        ends.add(s2.ended_by)
        if s2.ended_by == "but":
            w = s2.winners[0]
            assert s2.counters[w]["total"] >= 10 and s2.player == -1
            assert s2.history[-1] // game.stride == 0  # it ended on the taking, not at a turn's end
        else:
            assert s2.ended_by == "round_limit" and s2.round == 30 and not s2.zones["pioche"][0]
            assert s2.returns() == [0.0, 0.0]
    assert ends == {"but", "round_limit"}


def test_pushluck_rules_file_greedy_is_the_engines_greedy() -> None:
    """The file's [scoring] heuristic (horizon "turn") makes the generic greedy bot the engine's
    greedy policy: on the same deals, at every move, both choose the same kind of action (go on,
    stop, reshuffle); flips are blind, so which face-down card is turned is the engine's. Then the
    greedy seat rates and P(15 in the first turn) agree (benchmarks/bench_rulesdata_pushluck.py)."""
    from cardbase.games.pushluck.bots import greedy_action

    data = Game(load_rules(RULES / "pushluck.toml"), P15, 2)
    hand = PushGame(box_from_cards(P15), PushRules(), 2)
    stride = data.stride
    kinds = {STOP: 0, RESHUFFLE: 1}
    moves = stops = 0
    for seed in range(30):
        a, b = data.new_state(seed), hand.new_state(seed)
        while not b.is_terminal():
            x = greedy_action(b)
            assert a.greedy_action() // stride == kinds.get(x, 2), (seed, moves)
            stops += x == STOP
            b.apply_action(x)
            a.apply_action(0 if x == STOP else stride if x == RESHUFFLE else 2 * stride + (x - FLIP))
            moves += 1
        assert a.returns() == b.returns() and a.ended_by == b.ended_by
    assert moves > 300 and stops > 30


FIXED_WINNER = """
[game]
code = "fixe"
players = [2, 2]

[material]
source = "generated"
colours = ["x"]
values = [1, 2]
into = "table"

[[zones]]
name = "table"
visible = "everyone"

[[actions]]
name = "gauche"
ends_turn = true

[[actions]]
name = "droite"
ends_turn = true

[end]
check = "round"
[[end.conditions]]
name = "trois"
game = "round >= 3"
[end.winner]
by = "seat"
among = "all"
"""


def test_decisions_that_change_the_outcome() -> None:
    """Another action, the game finished by the same bots and the same chance: in a game whose
    winner is the last seat whatever is played, no decision changes the outcome; in Le Huit some do;
    a search bot against greedy is measured the same way as greedy against random."""
    from cardbase.playtest.measures import outcome_share, skill_gap

    fixed = Game(parse_rules_text(FIXED_WINNER, "fixe.toml"))
    none = outcome_share(fixed, games=5, bots=["random"])
    assert none["decisions"] == 5 * 6 and none["changed"] == 0 and none["ci95"][0] == 0
    some = outcome_share(_huit(), games=6, seed=3)
    assert 0 < some["changed"] < some["decisions"] and some["ci95"][0] <= some["rate"] <= some["ci95"][1]
    assert some == outcome_share(_huit(), games=6, seed=3)  # seeded
    gap = skill_gap(fixed, games=4, strong="greedy", weak="random")
    assert gap["bots"] == ["greedy", "random"] and gap["wins"] == 2  # the last seat always wins


BIDS = """
[game]
code = "mises"
players = [2, 2]

[material]
source = "generated"
colours = ["x"]
values = [1, 2]
into = "table"

[[zones]]
name = "table"
visible = "everyone"

[counters]
reserve = { start = 4 }
total = {}
mise = {}

[[actions]]
name = "miser"
label = { fr = "Miser", en = "Bid" }
choose = { counter = "mise", values = [1, 2, 3], allowed = "value <= reserve" }
then = [{ add = "total", value = "mise" }, { add = "reserve", value = "-mise" }]
ends_turn = true

[[actions]]
name = "passer"
label = { fr = "Passer", en = "Pass" }
when = "reserve == 0"
ends_turn = true

[end]
check = "round"
[[end.conditions]]
name = "deux"
game = "round >= 2"
[end.winner]
by = "total"
among = "all"
"""


def test_a_choice_that_is_a_number() -> None:
    """choose = { counter, values, allowed }: one legal action per number offered (a bid, a colour
    by its number), the number kept in the counter, in the labels and the log; refused when it
    names no whole numbers or also moves a card."""
    game = Game(parse_rules_text(BIDS, "mises.toml"))
    s = game.new_state(1)
    assert [s.action_to_string(a) for a in s.legal_actions()] == ["Miser : 1", "Miser : 2", "Miser : 3"]
    s.apply_action(s.legal_actions()[2])  # seat 1 bids 3
    assert s.counters[0]["mise"] == 3 and s.counters[0]["reserve"] == 1 and s.counters[0]["total"] == 3
    s.apply_action(s.legal_actions()[1])  # seat 2 bids 2
    assert [s.action_to_string(a) for a in s.legal_actions()] == ["Miser : 1"]  # reserve 1 left
    s.apply_action(s.legal_actions()[0])
    assert len(s.legal_actions()) == 2  # seat 2: 1 or 2 (reserve 2)
    s.apply_action(s.legal_actions()[1])
    assert s.is_terminal() and s.winners == [0, 1]  # 4 each: a shared win
    assert "Joueur 1 : Miser : 3" in s.log_lines()
    bad = BIDS.replace("values = [1, 2, 3]", "values = []").replace(
        'label = { fr = "Passer", en = "Pass" }', 'label = { fr = "Passer", en = "Pass" }\nchoose = { counter = "x", values = [1] }\nmove = { from = "table", to = "table" }')
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(bad, "mises.toml")
    text = str(info.value)
    assert "liste de 1 à 100 nombres entiers" in text and "pas les deux" in text and "« x » n'existe pas" in text

@pytest.mark.sqlite_only("reading a rules file does not depend on the database")
def test_hostile_rules_files_are_refused_without_a_traceback(tmp_path: Path) -> None:
    """« games check /dev/zero » ran out of memory (read_bytes trusts stat) and 100,000 nested
    lists hit Python's recursion limit inside tomllib: a device, a pipe, a folder and deep nesting
    are each one clear line, exit code 2."""
    import os

    fifo = tmp_path / "regles.fifo"
    os.mkfifo(fifo)
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 60_000 + "]" * 60_000 + "\n", encoding="utf-8")
    inline = tmp_path / "inline.toml"
    inline.write_text("a = " + "{x = " * 20_000 + "1" + "}" * 20_000 + "\n", encoding="utf-8")
    for path, says in (("/dev/zero", "périphérique"), (str(fifo), "tube nommé"),
                       (str(tmp_path), "est un dossier"), (str(deep), "trop profondément"),
                       (str(inline), "trop profondément")):
        r = CliRunner().invoke(app, ["games", "check", path])
        assert r.exit_code == 2, (path, r.output)
        assert says in r.output and "Traceback" not in r.output, (path, r.output)
    with pytest.raises(RulesFileError, match="trop profondément"):
        load_rules(deep)


LOOP = """
[game]
code = "boucle"
players = [2, 2]

[material]
source = "generated"
cards = [{ name = "Un", value = 1, copies = 2 }]
into = "a"

[[zones]]
name = "a"
visible = "everyone"

[[zones]]
name = "b"
visible = "everyone"

[[actions]]
name = "poser"
move = { from = "a", to = "b" }
ends_turn = true

[[actions]]
name = "reprendre"
move = { from = "b", to = "a" }
ends_turn = true

[end]
check = "turn"
[[end.conditions]]
name = "trop"
game = "count('a') > 5"
[end.winner]
by = "seat"
among = "all"
"""


def test_bounded_search_proves_a_game_cannot_end_or_finds_its_ending(tmp_path) -> None:
    """Two cards passed between two zones: « count('a') > 5 » is never true — the search visits
    every reachable position (6 a deal: the cards' places and whose turn) and proves it; the same
    game ending at « count('b') >= 2 » is seen to end, in two moves; Le Huit's ending is found;
    a game whose conditions read the round number cannot be folded, so the bound is hit."""
    from cardbase.playtest.measures import search_ending

    never = search_ending(parse_rules_text(LOOP, "boucle.toml"), (), seeds=2)
    assert never["verdict"] == "cannot_end" and never["timeless"]
    assert [d["states"] for d in never["deals"]] == [6, 6]
    ends = search_ending(parse_rules_text(LOOP.replace("count('a') > 5", "count('b') >= 2"), "b.toml"), ())
    assert ends["verdict"] == "ending" and ends["deals"][0]["moves"] == 2
    huit = search_ending(load_rules(RULES / "huit.toml"), (), seeds=1)
    assert huit["verdict"] == "ending" and huit["deals"][0]["condition"] in ("main_vide", "pioche_vide")
    timed = search_ending(parse_rules_text(LOOP.replace("count('a') > 5", "count('a') > 5 and round > 0"),
                                           "t.toml"), (), most_states=50)
    assert not timed["timeless"] and timed["verdict"] == "bound" and timed["deals"][0]["states"] > 50
    path = tmp_path / "boucle.toml"
    path.write_text(LOOP, encoding="utf-8")
    res = runner.invoke(app, ["games", "check", str(path), "--games", "3"])
    assert res.exit_code == 2 and "la partie ne peut pas finir" in res.output and "(6, 6)" in res.output
    res = runner.invoke(app, ["--lang", "en", "games", "check", str(RULES / "huit.toml"), "--games", "2"])
    assert res.exit_code == 0 and "Bounded search: the ending" in res.output
    data = json.loads(runner.invoke(app, ["games", "check", str(path), "--games", "0",
                                          "--search-deals", "1", "--json"]).stdout)
    assert data["search"]["verdict"] == "cannot_end" and len(data["search"]["deals"]) == 1
    bad = runner.invoke(app, ["games", "check", str(path), "--search-states", "-1", "--search-deals", "21"])
    assert bad.exit_code == 2 and "--search-states vaut -1" in bad.output and "--search-deals vaut 21" in bad.output


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_le_huit_deals_a_hand_that_leaves_cards_to_draw_at_every_count(players: int) -> None:
    """HU1/HU4: 7 cards at two players, 5 from three on — at five, 7 each (35 of 32 cards) emptied
    the draw pile at the deal and HU3 ended every game after its first move."""
    game = registry.get("huit").build([], players)
    lengths = []
    for seed in range(40):
        s = game.new_state(seed)
        hand = len(s.zones["main"][0])
        assert hand == (7 if players == 2 else 5)
        assert len(s.zones["pioche"][0]) == 32 - players * hand - 1 > 0
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        lengths.append(len(s.history))
    assert min(lengths) > players and sum(lengths) / len(lengths) > 3 * players
