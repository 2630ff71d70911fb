"""The cards' figures of a game written as data in ``sim game``: for each card, the decisions where
an allowed action could choose it (offered), the times chosen (taken), the take rate and the win
rate of the seats that took it against the others — checked on whole seeded games against counts
made again from each game's moves, in the text (French and English), the JSON and the app."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from test_app import app_env, no_exception, page_test  # noqa: F401 - fixture
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.games import registry
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import parse_rules_text
from cardbase.playtest.games import play_one, report, simulate
from cardbase.playtest.stats import wilson
from tests.rulesdata_helpers import random_game

runner = CliRunner()

# a market of face-up cards: each turn a seat takes one it chooses; gold scores 5, copper 1, lead 0
MARCHE = """[game]
code = "marche"
players = [2, 3]

[material]
source = "generated"
cards = [{ name = "Or", value = 5, copies = 1 }, { name = "Cuivre", value = 1, copies = 4 },
         { name = "Plomb", value = 0, copies = 6 }]
into = "marche"

[[zones]]
name = "marche"
owner = "shared"
ordered = false
visible = "everyone"

[[zones]]
name = "tas"
owner = "player"
visible = "everyone"

[counters]
total = { reset = "never" }

[[actions]]
name = "prendre"
move = { from = "marche", to = "tas" }
pick = "choice"
ends_turn = true
then = [{ add = "total", value = "card.value" }]

[end]
check = "action"
max_rounds = 30

[[end.conditions]]
name = "vide"
game = "count('marche') == 0"

[end.winner]
by = "total"
order = "highest"
among = "all"
ties = "shared"

[scoring]
heuristic = "total"
"""


def _marche() -> Game:
    return Game(parse_rules_text(MARCHE, "marche.toml"), (), 2)


def _pile(game: Game, state, zone: str, seat: int) -> list[int]:
    return state.zones[zone][seat if game.rules.zones[zone].per_player else 0]


def _recount(game: Game, seed: int, bots: str) -> tuple[list[Counter], list[Counter], list[float]]:
    """A game played again move by move from its seed, the cards offered and taken counted from
    the legal actions and the card each move takes (not from the state's own counts)."""
    state = game.new_state(seed, log=False)
    rng = random.Random(seed)
    offered = [Counter() for _ in range(game.num_players)]
    taken = [Counter() for _ in range(game.num_players)]
    while not state.is_terminal():
        p = state.current_player()
        legal = state.legal_actions()
        names = set()
        for a in legal:
            k, i = divmod(a, game.stride)
            act = game.rules.actions[k]
            if act.pick == "choice" and act.source is not None:
                names.add(game.cards[_pile(game, state, act.source, p)[i]].name)
        offered[p].update(names)
        action = state.greedy_action() if bots == "greedy" else rng.choice(legal)
        k, i = divmod(action, game.stride)
        act = game.rules.actions[k]
        if act.pick == "choice" and act.source is not None:
            taken[p][game.cards[_pile(game, state, act.source, p)[i]].name] += 1
        state.apply_action(action)
    return offered, taken, state.returns()


def test_greedy_always_takes_the_gold_it_is_offered_and_the_counts_are_the_moves() -> None:
    game = _marche()
    for seed in range(20):
        offered, taken, _ = _recount(game, seed, "greedy")
        state = game.new_state(seed, log=False)
        while not state.is_terminal():
            state.apply_action(state.greedy_action())
        for p in range(2):
            counts = state.card_counts(p)
            assert {k: v[0] for k, v in counts.items()} == dict(offered[p])
            assert {k: v[1] for k, v in counts.items() if v[1]} == dict(taken[p])
            assert state.held_cards(p) == set(taken[p])
        # the gold is on offer at the first turn only, and the first seat takes it
        assert offered[0]["Or"] == taken[0]["Or"] == 1 and not offered[1]["Or"]
    records = [play_one(game, seed, ["greedy", "greedy"]) for seed in range(30)]
    rows = {c["name"]: c for c in report("marche", 2, 0, ["greedy"] * 2, records, [], game=game).cards}
    assert rows["Or"]["take_rate"] == 1.0 and rows["Or"]["offered"] == rows["Or"]["taken"] == 30
    assert rows["Or"]["ci95_take"] == list(wilson(30, 30))
    # the seat with the gold then takes as many coppers as the other: it wins every game
    assert rows["Or"]["win_rate_held"] == 1.0 and rows["Or"]["win_rate_not_held"] == 0.0
    assert rows["Or"]["effect"] == 1.0 and rows["Or"]["ci95_not_held"] == list(wilson(0, 30))
    assert rows["Plomb"]["taken"] > 0 and rows["Plomb"]["take_rate"] < 1.0


@pytest.mark.parametrize("bots", ["random", "greedy"])
def test_cueillette_counts_and_win_rates_recomputed_from_each_game(bots: str) -> None:
    game = registry.get("cueillette").build([], 3)
    games = 3 if bots == "greedy" else 12
    records, recount = [], []
    for seed in range(games):
        if bots == "random":
            offered, taken, returns = _recount(game, seed, bots)
            recount.append((offered, taken, returns))
        records.append(play_one(game, seed, [bots] * 3) if bots == "greedy" else _record_random(game, seed))
    rows = {c["name"]: c for c in report("cueillette", 3, 0, [bots] * 3, records, [], game=game).cards}
    assert set(rows) == {"Pomme", "Noix", "Miel", "Chèvre", "Tomme", "Comté", "Panier", "Truffe"}
    # every card dealt is picked: 3 manches of 9 picks for each of the 3 seats
    assert sum(r["taken"] for r in rows.values()) == 81 * games
    for r in rows.values():
        assert r["take_rate"] == r["taken"] / r["offered"]
        lo, hi = r["ci95_take"]
        assert lo <= r["take_rate"] <= hi
        assert r["games_held"] + r["games_not_held"] == 3 * games
    if bots == "random":
        for name, r in rows.items():
            assert r["offered"] == sum(o[p][name] for o, _, _ in recount for p in range(3))
            assert r["taken"] == sum(t[p][name] for _, t, _ in recount for p in range(3))
            held = [(t[p][name] > 0, ret[p] > 0) for _, t, ret in recount for p in range(3)]
            assert r["games_held"] == sum(h for h, _ in held)
            won = sum(w for h, w in held if h)
            assert r["win_rate_held"] == pytest.approx(won / r["games_held"])


def _record_random(game: Game, seed: int):
    """The record of a game played by the same random choices as :func:`_recount`."""
    from cardbase.playtest.games import Record

    state = random_game(game, seed, log=False)
    return Record(tuple(state.returns()), state.turns, state.round, state.ended_by,
                  tuple(frozenset(state.held_cards(p)) for p in range(3)), (), state.record_facts())


def test_greedy_takes_nuts_more_often_than_random_in_a_cueillette_batch() -> None:
    greedy, _ = simulate("cueillette", [], players=3, bots=["greedy"] * 3, games=4, seed=1)
    rand, _ = simulate("cueillette", [], players=3, bots=["random"] * 3, games=40, seed=1)
    g = {c["name"]: c for c in greedy.cards}
    r = {c["name"]: c for c in rand.cards}
    assert g["Noix"]["ci95_take"][0] > r["Noix"]["ci95_take"][1]  # greedy builds its trios of nuts


def test_sim_game_text_and_json_name_the_cards_in_french_and_english(cli_env) -> None:
    args = ["sim", "game", "cueillette", "-p", "3", "-n", "6", "-b", "random", "--measures-games", "0"]
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert len(data["cards"]) == 8
    for c in data["cards"]:
        assert set(c) >= {"ref", "name", "offered", "taken", "take_rate", "ci95_take", "games_held",
                          "win_rate_held", "ci95_held", "games_not_held", "win_rate_not_held",
                          "ci95_not_held", "effect"}
    fr = runner.invoke(app, args)
    assert fr.exit_code == 0, fr.output
    assert "Cartes choisies par les robots (random)" in fr.stdout and "jeu des robots" in fr.stdout
    noix = next(c for c in data["cards"] if c["name"] == "Noix")
    line = next(x for x in fr.stdout.splitlines() if x.strip().startswith("Noix"))
    assert f"proposée {noix['offered']} fois, prise {noix['taken']}" in line
    en = runner.invoke(app, ["--lang", "en", *args])
    assert "Cards the bots (random) chose" in en.stdout and "the bots' play" in en.stdout
    assert f"offered {noix['offered']} times, taken {noix['taken']}" in en.stdout


def test_the_text_keeps_the_most_telling_cards_and_json_all(monkeypatch, cli_env) -> None:
    from cardbase.cli import games as cli_games

    monkeypatch.setattr(cli_games, "TOP_CARDS", 3)
    out = runner.invoke(app, ["sim", "game", "cueillette", "-p", "3", "-n", "6", "-b", "random",
                              "--measures-games", "0"]).stdout
    assert "les 3 plus marquantes sur 8" in out and "… et 5 autre(s) carte(s)" in out



@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_apps_batch_view_shows_each_cards_take_rate_and_wins(app_env, lang) -> None:  # noqa: F811
    at = page_test("playtest", lang=lang)
    at.session_state["pt_gamecode"] = "cueillette"
    at.session_state["prt_cueillette_mode"] = "batch"
    at.run()
    no_exception(at)
    at.number_input(key="pgb_cueillette_games").set_value(8).run()
    at.number_input(key="pgb_cueillette_players").set_value(3).run()
    for p in range(3):
        at.selectbox(key=f"pgb_cueillette_bot_{p}").set_value("random")
    at.button(key="pgb_cueillette_go").click().run()
    no_exception(at)
    shown = " ".join(str(x.value) for x in [*at.markdown, *at.caption])
    card, offered, taken, rate, meaning, title = {
        "fr": ("Carte", "Proposée", "Prise", "Taux de prise", "jeu des robots", "Cartes choisies par les robots"),
        "en": ("Card", "Offered", "Taken", "Take rate", "the bots' play", "Cards the bots chose")}[lang]
    assert meaning in shown and title in shown
    table = next(x.value for x in at.dataframe if rate in x.value.columns)
    assert set(table[card]) == {"Pomme", "Noix", "Miel", "Chèvre", "Tomme", "Comté", "Panier", "Truffe"}
    assert all(table[offered] >= table[taken]) and sum(table[taken]) == 8 * 81  # every card dealt is picked


def test_sim_rulings_gives_the_cards_that_move_most_for_a_rules_file_game(cli_env) -> None:
    """CU8 (the truffle tie) changes scores only: random bots make the same moves under every
    reading, so each card's take rate stays put while its win rate when taken may move."""
    res = runner.invoke(app, ["sim", "rulings", "cueillette", "--players", "3", "--games", "20", "--bots", "random",
                              "--workers", "1", "--measures-games", "0", "--json"])
    assert res.exit_code == 0, res.output
    variants = json.loads(res.stdout)["variants"]
    assert variants and all(v["cards"] for v in variants)
    for v in variants:
        for c in v["cards"]:
            assert set(c) >= {"ref", "name", "win_rate_held", "delta", "take_rate", "take_delta"}
            assert c["take_delta"] == 0.0
    text = runner.invoke(app, ["sim", "rulings", "cueillette", "--players", "3", "--games", "20", "--bots",
                               "random", "--workers", "1", "--measures-games", "0"]).stdout
    assert "cartes qui bougent le plus" in text
