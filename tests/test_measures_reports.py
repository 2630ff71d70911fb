"""The measures of a good game in every batch report (cardbase/playtest/measures.py,
cardbase/cli/measures_report.py): a solo game's measures on a scripted game whose figures are
known, then NesPanini's goldfish, round robin, ladder and sweep, and a solo box game, in text
(French and English, decimal comma in French) and in JSON — the same figures as ``measures()``."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.playtest.batch import game_seed, measured_games
from cardbase.playtest.measures import (
    SOLO_NOT_APPLICABLE,
    measures,
    outcome_share,
    play_measured,
    skill_gap,
)

runner = CliRunner()
EDITIONS = Path(__file__).resolve().parent.parent / "data" / "editions"
NP1 = str(EDITIONS / "NP1.toml")


class _Pick:
    """A bot that plays ``pick(state)``."""

    def __init__(self, pick):
        self.pick = pick

    def step(self, state):
        return self.pick(state)


class _Solo:
    """A one-player game of ``turns`` turns: each turn the player adds 0 or 1 to its score. Its
    bots: ``greedy`` adds 1, ``random`` adds 0, ``script`` plays ``path`` (seeded games alike)."""

    num_players = 1

    def __init__(self, path, turns=3):
        self.path, self.turns_n = path, turns

    def new_state(self, seed, *, log=True):
        return _SoloState(self)

    def make_bot(self, name, seed):
        return _Pick({"greedy": lambda s: 1, "random": lambda s: 0,
                      "script": lambda s: self.path[s.turns]}[name])


class _SoloState:
    def __init__(self, game):
        self.game, self.turns, self.total, self.history, self.ended_by = game, 0, 0, [], ""

    def current_player(self):
        return 0

    def is_terminal(self):
        return self.turns >= self.game.turns_n

    def legal_actions(self):
        return [0, 1]

    def apply_action(self, a):
        self.history.append(a)
        self.total += a
        self.turns += 1
        if self.is_terminal():
            self.ended_by = "script"

    def scores(self):
        return [self.total]

    def returns(self):
        return [0.0]

    def clone(self):
        s = _SoloState(self.game)
        s.turns, s.total, s.history, s.ended_by = self.turns, self.total, self.history[:], self.ended_by
        return s


def test_a_solo_game_has_the_measures_that_apply_and_says_why_not_the_others() -> None:
    # the score after the first and second turns is 1, 1: final from the start
    early = play_measured(_Solo([1, 0, 0]), 0, ["script"])
    assert early["score"] == 1 and early["settled_at"] == 0.0 and early["winner"] is None
    assert early["decisions"] == 3 and early["options"] == 6
    # 0, 0 after two turns, 1 at the end: settled only by the last turn
    late = play_measured(_Solo([0, 0, 1]), 0, ["script"])
    assert late["score"] == 1 and late["settled_at"] == 1.0
    half = play_measured(_Solo([0, 1, 0]), 0, ["script"])  # 0 then 1 (final) after the second turn
    assert half["settled_at"] == 0.5
    m = measures(_Solo([0, 1, 0]), games=4, seed=3, bots=["script"], skill_games=5, outcome_games=2,
                 code="solo")
    assert m["solo"] is True and m["players"] == 1 and m["decided"] == 0
    assert m["not_applicable"] == SOLO_NOT_APPLICABLE
    assert all(m[k] is None for k in SOLO_NOT_APPLICABLE)  # nothing made up in their place
    assert m["decisiveness"] == {"mean": 0.5, "ci95": [0.5, 0.5], "of": 4, "basis": "score"}
    assert m["length"]["mean"] == 3 and m["decisions"]["per_game"] == 3 and m["decisions"]["options"] == 2
    # greedy scores 3 and random 0 on every deal: the paired gap is 3, its interval too
    sk = m["skill_gap"]
    assert sk == {"games": 5, "bots": ["greedy", "random"], "basis": "score", "strong_mean": 3,
                  "weak_mean": 0, "diff": 3, "ci95": [3.0, 3.0]}
    # every choice flips the final score by one: every decision changes the outcome
    oc = m["outcome"]
    assert oc["decisions"] == 6 and oc["changed"] == 6 and oc["rate"] == 1.0 and oc["ci95"][0] > 0.5
    assert outcome_share(_Solo([0, 1, 0]), games=2, bots=["script"]) == oc


def test_goldfish_measures_of_nespanini_and_the_skill_gap_on_the_same_deals() -> None:
    from cardbase.cli.sim import _deck

    deck = _deck("bosquet-en-fete", [Path(NP1)])[1]
    game = measured_games([deck])
    m = measures(game, games=30, seed=2, bots=["greedy"], skill_games=12, code="nespanini")
    assert m["solo"] and m["length"]["min"] >= 5 and 0 <= m["decisiveness"]["ci95"][0] <= m["decisiveness"]["mean"]
    sk = m["skill_gap"]
    # each deal played by greedy and by random: the gap is the mean of the paired differences
    greedy = [play_measured(game[0], game_seed(3, i), ["greedy"])["score"] for i in range(12)]
    rand = [play_measured(game[0], game_seed(3, i), ["random"])["score"] for i in range(12)]
    assert sk["strong_mean"] == sum(greedy) / 12 and sk["weak_mean"] == sum(rand) / 12
    assert abs(sk["diff"] - (sk["strong_mean"] - sk["weak_mean"])) < 1e-9 and sk["ci95"][0] > 0


def test_the_strong_bot_plays_every_deck_of_a_list_in_every_seat() -> None:
    """A round robin's games (a pair of decks in both seat orders): the skill gap puts greedy on
    each deck in each seat equally often. Here the first game's seat 1 and the second game's seat 2
    always win — one deck that always wins, seated both ways: greedy wins half its games, not all."""
    from test_measures_engines import _Scripted

    from cardbase.cli.sim import _deck

    pool = [_Scripted([(1, 0)]), _Scripted([(0, 1)])]
    gap = skill_gap(pool, games=8, seed=1)
    assert gap["wins"] == 4 and gap["decided"] == 8 and gap["fair"] == 0.5 and gap["basis"] == "winner"
    a, b = (_deck(name, [Path(NP1)])[1] for name in ("bosquet-en-fete", "braises-ardentes"))
    games = measured_games([a, b], both_orders=True)

    def refs(g, seat):
        return sorted(g.table.defs[k].ref for k in g.decks[seat])

    assert len(games) == 2 and refs(games[0], 0) == refs(games[1], 1) == sorted(c.ref for c in a)


def test_sim_goldfish_reports_the_solo_measures_in_text_and_json() -> None:
    from cardbase.cli.sim import _deck

    args = ["sim", "goldfish", "bosquet-en-fete", "--games", "20", "--seed", "4", "--edition", NP1,
            "--oracle-games", "0", "--swap-games", "0", "--measures-games", "12", "--skill-games", "6",
            "--outcome-games", "1"]
    res = runner.invoke(app, [*args, "--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)["measures"]
    deck = _deck("bosquet-en-fete", [Path(NP1)])[1]
    want = measures(measured_games([deck]), games=12, seed=4, bots=["greedy"], skill_games=6,
                    outcome_games=1, code="nespanini")
    assert got == json.loads(json.dumps({**want, "decks": ["bosquet-en-fete"]}))
    text = runner.invoke(app, args)
    assert text.exit_code == 0, text.output
    out = text.stdout
    assert "Mesures d'un bon jeu :" in out and "nespanini : 12 parties en solitaire (greedy), graine 4" in out
    assert "sans objet en solitaire" in out and "changements de meneur : personne d'autre ne peut mener" in out
    ln = want["length"]
    assert f"durée : {ln['mean']:.1f}".replace(".", ",") + " tours" in out  # decimal comma
    assert "greedy marque" in out and "IC 95 %" in out and "--search-games N" in out
    assert "\n  premier joueur :" not in out and "\n  places, sur" not in out  # not invented solo
    assert "avantage du premier joueur : une seule place joue" in out
    en = runner.invoke(app, ["--lang", "en", *args])
    assert en.exit_code == 0 and "not applicable to a solo game" in en.stdout
    assert f"length: {ln['mean']:.1f} turns" in en.stdout and "nobody else can lead" in en.stdout
    off = runner.invoke(app, [*args[:-6], "--measures-games", "0", "--json"])
    assert "measures" not in json.loads(off.stdout)
    bad = runner.invoke(app, [*args[:-6], "--measures-games", "-1", "--search-games", "20001"])
    assert bad.exit_code == 2 and "--measures-games vaut -1" in bad.output and "--search-games vaut 20001" in bad.output


def test_sim_roundrobin_measures_every_pair_in_both_seat_orders() -> None:
    from cardbase.cli.sim import _deck

    decks = ["bosquet-en-fete", "braises-ardentes", "maree-et-crypte"]
    args = ["sim", "roundrobin", *decks, "--games", "4", "--seed", "1", "--edition", NP1,
            "--measures-games", "9"]
    res = runner.invoke(app, [*args, "--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)["measures"]
    pool = measured_games([_deck(d, [Path(NP1)])[1] for d in decks], both_orders=True)
    assert len(pool) == 6
    want = measures(pool, games=9, seed=1, bots=["greedy", "greedy"], code="nespanini")
    assert got == json.loads(json.dumps({**want, "pool": 3, "decks": decks}))
    assert got["seats"]["fair"] == 0.5 and len(got["seats"]["seats"]) == 2
    text = runner.invoke(app, args)
    assert text.exit_code == 0 and "réparties entre les 3 paires de decks" in text.stdout
    assert "places, sur" in text.stdout and "le deck y pèse aussi" in text.stdout
    # at most as many measured games as the tournament played (3 pairs × 4 games)
    capped = json.loads(runner.invoke(app, [*args[:-1], "500", "--json"]).stdout)["measures"]
    assert capped["games"] == 12


def test_sim_ladder_measures_the_mirror_match() -> None:
    res = runner.invoke(app, ["sim", "ladder", "bosquet-en-fete", "--games", "2", "--edition", NP1,
                              "--measures-games", "3", "--json"])
    assert res.exit_code == 0, res.output
    m = json.loads(res.stdout)["measures"]
    assert m["decks"] == ["bosquet-en-fete", "bosquet-en-fete"] and m["bots"] == ["greedy", "greedy"]
    assert m["games"] == 2 and not m["solo"]


def test_sim_sweep_measures_every_value_on_the_same_deals() -> None:
    from cardbase.cli.sim import _deck
    from cardbase.playtest.sweep import _variant_deck

    base = ["sim", "sweep", "bosquet-en-fete", "--card", "NP1-028", "--values", "1,4", "--edition", NP1,
            "--games", "10", "--seed", "2"]
    res = runner.invoke(app, [*base, "--against", "braises-ardentes", "--measures-games", "6", "--json"])
    assert res.exit_code == 0, res.output
    points = json.loads(res.stdout)["points"]
    a, b = (_deck(n, [Path(NP1)])[1] for n in ("bosquet-en-fete", "braises-ardentes"))
    card = next(c for c in a if c.ref == "NP1-028")
    for p in points:  # each value's game, both seat orders, the same seed at every value
        va, vb = _variant_deck(tuple(a), card, "value", p["value"]), _variant_deck(tuple(b), card, "value", p["value"])
        want = measures(measured_games([va, vb], both_orders=True), games=6, seed=2, bots=["greedy", "greedy"],
                        code="nespanini")
        assert p["measures"] == json.loads(json.dumps(want))
    text = runner.invoke(app, [*base, "--against", "braises-ardentes", "--measures-games", "6"])
    assert text.exit_code == 0 and "Mesures d'un bon jeu à chaque valeur (6 parties par valeur" in text.stdout
    assert "vainqueur connu après" in text.stdout and "Chaque chiffre avec son IC 95 %" in text.stdout
    alone = runner.invoke(app, ["--lang", "en", *base, "--goldfish", "--measures-games", "5"])
    assert alone.exit_code == 0 and "score settled after" in alone.stdout
    assert "not applicable to a solo game" in alone.stdout and "first player" not in alone.stdout
    none = json.loads(runner.invoke(app, [*base, "--goldfish", "--measures-games", "0", "--json"]).stdout)
    assert all("measures" not in p for p in none["points"])


def test_sim_game_measures_a_solo_box_game(cli_env) -> None:
    """15 en un tour alone: the measures that apply to it, and those that do not."""
    res = runner.invoke(app, ["sim", "game", "pushluck", "--players", "1", "--games", "8",
                              "--measures-games", "8", "--skill-games", "4", "--json"])
    assert res.exit_code == 0, res.output
    m = json.loads(res.stdout)["measures"]
    assert m["solo"] and m["skill_gap"]["basis"] == "score" and m["first_player"] is None
    text = runner.invoke(app, ["sim", "game", "pushluck", "--players", "1", "--games", "8", "--measures-games", "8"])
    assert text.exit_code == 0 and "pushluck : 8 parties en solitaire" in text.stdout
    assert "le score final est acquis pour de bon après" in text.stdout


def test_the_measures_under_every_reading_of_a_contested_ruling() -> None:
    """``sim rulings``: each reading's game measured on the same seed, the same figures as
    ``measures()`` of the game built with that reading's option."""
    from cardbase.games import registry
    from cardbase.playtest.cards import load_edition_defs
    from cardbase.playtest.weights import weigh

    cards = [c for c in load_edition_defs([EDITIONS / "P15.toml"]) if c.game == "pushluck"]
    res = weigh("pushluck", cards, players=2, games=6, seed=3, measures_games=4)
    spec = registry.get("pushluck")
    assert res["baseline"]["measures"] == measures(spec.build(tuple(cards), 2), games=4, seed=3,
                                                   bots=["greedy", "greedy"], code="pushluck")
    v = res["variants"][0]
    assert v["measures"] == measures(spec.build(tuple(cards), 2, **{v["option"]: v["value"]}), games=4, seed=3,
                                     bots=["greedy", "greedy"], code="pushluck")
    assert "measures" not in weigh("pushluck", cards, players=2, games=4, seed=3)["baseline"]


def test_different_bots_turn_seats_so_the_first_player_figure_measures_the_seat(monkeypatch) -> None:
    """Greedy against random with a fixed line-up put greedy first in every game, so « premier
    joueur » read greedy's strength (92,9 % on a two-player laying game). The line-up now turns one
    seat a game: each seat, the first player's included, is played as often by each bot; the seat
    rows say so, in the text as in the JSON."""
    import cardbase.playtest.measures as m
    from cardbase.games import registry

    seen: list[list[str]] = []
    real = m.play_measured

    def spy(game, seed, bots):
        seen.append(list(bots))
        return real(game, seed, bots)

    monkeypatch.setattr(m, "play_measured", spy)
    game = registry.get("huit").build((), 3)
    out = m.measures(game, games=6, bots=["greedy", "random", "random"])
    assert seen == [["greedy", "random", "random"], ["random", "random", "greedy"],
                    ["random", "greedy", "random"]] * 2
    assert out["rotated"] and {s["bot"] for s in out["seats"]["seats"]} == {"rotation"}
    seen.clear()
    same = m.measures(game, games=3, bots=["greedy"])
    assert seen == [["greedy"] * 3] * 3 and not same["rotated"]
    assert same["seats"]["seats"][0]["bot"] == "greedy"
    text = runner.invoke(app, ["sim", "measures", "huit", "--games", "4", "--bots", "greedy,random"]).output
    assert "tourne d'une place à chaque partie" in text and "place 1 (bots tour à tour)" in text
