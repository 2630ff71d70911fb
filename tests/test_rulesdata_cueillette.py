"""Cueillette (`data/rules/cueillette.toml`, rulings CU1–CU9 in `docs/rulings/cueillette.md`): a
drafting game written as data — every player picks one card of the hand they hold, face down, the
picks are revealed together, then the hands pass (left, right, left). The file passes `games
check`; seeded games at every player count end by the file's own condition (never the safety net);
and a referee written from the rulings — reading only what each seat is shown, not the interpreter's
counters — checks whole games move by move: the hand sizes (CU1), that each pick is a card of the
hand the player holds and stays secret until the reveal, the passing direction (CU3), the deal of
each manche (CU9), then recomputes every player's score from the cards they kept (CU4–CU8)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.games import registry

ROOT = Path(__file__).resolve().parent.parent
FILE = ROOT / "data" / "rules" / "cueillette.toml"
runner = CliRunner()

BOX = Counter({"Pomme": 14, "Noix": 14, "Miel": 14, "Chèvre": 5, "Tomme": 5, "Comté": 4, "Panier": 6, "Truffe": 10})
CHEESE = {"Chèvre": 1, "Tomme": 2, "Comté": 3}
LABEL = "Cueillir : "


def manche_points(picks: list[str]) -> int:
    """One manche's points from the cards a player picked, in the order picked (CU4, CU5, CU6)."""
    n = Counter(picks)
    honey = min(n["Miel"], 5)
    points = 5 * (n["Pomme"] // 2) + 10 * (n["Noix"] // 3) + honey * (honey + 1) // 2
    baskets = 0
    for card in picks:
        if card == "Panier":
            baskets += 1
        elif card in CHEESE:
            points += CHEESE[card] * (2 if baskets else 1)
            baskets = max(0, baskets - 1)
    return points


def truffle_bonus(truffles: list[int], egalite: str, majorite: int = 6) -> list[int]:
    """CU7–CU8: the majority of truffles at the end of the game; nobody without a truffle."""
    best = max(truffles)
    leaders = [i for i, t in enumerate(truffles) if t == best and t > 0]
    each = 0
    if leaders:
        each = {"partage": majorite // len(leaders), "entiere": majorite,
                "personne": majorite if len(leaders) == 1 else 0}[egalite]
    return [each if i in leaders else 0 for i in range(len(truffles))]


class Referee:
    """Plays one game and checks every move against the rules as the rulings write them."""

    def __init__(self, players: int, seed: int, manches: int = 3, sens: str = "alterne",
                 egalite: str = "partage") -> None:
        self.players, self.manches, self.sens, self.egalite = players, manches, sens, egalite
        self.hand_size = 12 - players  # CU1, base 12
        game = registry.get("cueillette").build([], players, manches=manches, sens=sens, egalite=egalite)
        self.state = game.new_state(seed)
        self.kept: list[list[list[str]]] = [[] for _ in range(players)]  # seat → manche → picks in order
        self.picks: dict[int, str] = {}  # this pick's secret choices, by seat
        self.hands: list[list[str]] = []  # the hands held when this pick began
        self.manche = 0
        self.passes = Counter()  # the directions the hands were seen to pass
        self.truffle_ties = 0
        self._begin_pick()

    def hand(self, seat: int) -> list[str]:
        """The seat's hand as that seat sees it; the other seats see only its size."""
        mine = self.state.observation(seat)["zones"]["main"][seat]
        other = self.state.observation((seat + 1) % self.players)["zones"]["main"][seat]
        assert len(other) == len(mine) and set(other) <= {None}, (seat, other)  # a hand is secret
        return list(mine)

    def table(self) -> list[list[str]]:
        return [list(t) for t in self.state.observation(0)["zones"]["tableau"]]

    def _begin_pick(self) -> None:
        hands = [self.hand(seat) for seat in range(self.players)]
        sizes = {len(h) for h in hands}
        assert len(sizes) == 1, hands  # every hand the same size
        (size,) = sizes
        if size == self.hand_size:  # a new manche: CU9, every card but the truffes kept back, shuffled
            self.manche += 1
            for seat in range(self.players):
                self.kept[seat].append([])
                assert [c for c in self.table()[seat] if c != "Truffe"] == []
            kept_truffles = sum(self.table()[s].count("Truffe") for s in range(self.players))
            zones = self.state.observation(0)["zones"]
            assert zones["defausse"] == ((),)
            assert len(zones["pioche"][0]) == sum(BOX.values()) - kept_truffles - self.players * self.hand_size
        picked = len(self.kept[0][-1])
        assert size == self.hand_size - picked, (size, picked)  # one card fewer after every pick
        self.hands = hands

    def step(self, choose) -> None:
        s = self.state
        seat = s.current_player()
        # CU10: the seats choose in seat order, from seat 1 at the first pick, one seat further each pick
        assert seat == (s.round - 1 + len(self.picks)) % self.players, (s.round, seat, self.picks)
        legal = {a: s.action_to_string(a) for a in s.legal_actions()}
        # one action per card of the hand held, nothing else
        assert sorted(legal.values()) == sorted(LABEL + c for c in self.hands[seat])
        action = choose(s, legal, seat)
        card = legal[action][len(LABEL):]
        before = self.table()
        s.apply_action(action)
        self.picks[seat] = card
        if len(self.picks) < self.players:
            # secret until the reveal: nothing moves, the others see only that the seat chose
            assert self.table() == before and self.hand(seat) == self.hands[seat]
            for other in range(self.players):
                secret = dict(s.observation(other)["secret"])
                assert secret[seat] == (legal[action] if other == seat else None)
            return
        self._reveal()

    def _reveal(self) -> None:
        s = self.state
        assert len(self.picks) == self.players  # every seat chose once
        for seat, card in self.picks.items():
            assert Counter(self.hands[seat])[card] >= 1  # the pick came from the hand the player held
            self.kept[seat][-1].append(card)
        last = len(self.hands[0]) == 1
        if s.is_terminal():
            assert last and self.manche == self.manches
        elif not last:
            # CU3: left (the next seat) in odd manches, right (the previous seat) in even ones
            left = self.sens == "gauche" or self.manche % 2 == 1
            giver = (lambda seat: (seat - 1) % self.players) if left else (lambda seat: (seat + 1) % self.players)
            for seat in range(self.players):
                g = giver(seat)
                rest = Counter(self.hands[g])
                rest[self.picks[g]] -= 1
                assert Counter(self.hand(seat)) == +rest, (self.manche, seat, g)
            if self.players > 2:  # at two players left and right are the same neighbour
                self.passes["gauche" if left else "droite"] += 1
            # the picks lie face up in front of their players
            for seat in range(self.players):
                assert Counter(self.table()[seat]) >= Counter(self.kept[seat][-1])
        self.picks = {}
        if not s.is_terminal():
            self._begin_pick()

    def expected_points(self) -> list[int]:
        points = [sum(manche_points(m) for m in self.kept[seat]) for seat in range(self.players)]
        truffles = [sum(m.count("Truffe") for m in self.kept[seat]) for seat in range(self.players)]
        best = max(truffles)
        if best and truffles.count(best) > 1:
            self.truffle_ties += 1
        return [p + b for p, b in zip(points, truffle_bonus(truffles, self.egalite))]

    def play(self, choose) -> list[int]:
        while not self.state.is_terminal():
            self.step(choose)
        s = self.state
        assert s.ended_by == "manches_jouees"
        assert s.round == self.manches * self.hand_size  # one round of the language per pick
        assert all(len(m) == self.hand_size for k in self.kept for m in k) and self.manche == self.manches
        expected = self.expected_points()
        assert [s.counters[i]["points"] for i in range(self.players)] == expected, (expected, self.kept)
        best = max(expected)
        winners = [i for i, p in enumerate(expected) if p == best]
        returns = s.returns()
        assert [i for i, r in enumerate(returns) if r > 0] == (winners if len(winners) < self.players else [])
        return expected


def _random(seed: int):
    rng = random.Random(seed)
    return lambda s, legal, seat: rng.choice(sorted(legal))


def _greedy(s, legal, seat):
    return s.greedy_action()


def test_cueillette_passes_games_check_in_french_and_english() -> None:
    res = runner.invoke(app, ["games", "check", str(FILE), "--games", "10", "--search-states", "500", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["ok"] and data["code"] == "cueillette"
    assert data["tried"]["ended"] == 10 and data["tried"]["never_legal"] == []
    assert data["tried"]["never_ended_by"] == [] and data["search"]["verdict"] == "ending"
    for lang, word in (("fr", "règles valables"), ("en", "valid rules")):
        text = runner.invoke(app, ["--lang", lang, "games", "check", str(FILE), "--games", "2",
                                   "--search-states", "0"])
        assert text.exit_code == 0 and word in text.output, text.output


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_and_greedy_games_end_after_three_manches_never_the_safety_net(players: int) -> None:
    game = registry.get("cueillette").build([], players)
    endings = Counter()
    for seed in range(60 + 3):
        s = game.new_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()) if seed < 60 else s.greedy_action())
        endings[(s.ended_by, s.round)] += 1
        # no card lost or doubled: the box is the pile, the discards, the hands and the tables
        zones = s.observation(0)["zones"]  # a card not seen is None, but counted
        assert sum(len(p) for z in ("pioche", "defausse", "main", "tableau") for p in zones[z]) == sum(BOX.values())
    assert endings == {("manches_jouees", 3 * (12 - players)): 63}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_referee_checks_every_pick_pass_and_score_of_seeded_games(players: int) -> None:
    directions = Counter()
    for seed in range(8):
        ref = Referee(players, seed)
        ref.play(_greedy if seed % 4 == 0 else _random(seed))
        directions += ref.passes
    if players > 2:  # both directions were seen at work, left twice as often (manches 1 and 3)
        assert directions["droite"] > 0 and directions["gauche"] == 2 * directions["droite"]
    passes = sum(directions.values())
    assert passes == (0 if players == 2 else 8 * 3 * (12 - players - 1))


@pytest.mark.parametrize("egalite", ["partage", "entiere", "personne"])
@pytest.mark.parametrize("sens", ["alterne", "gauche"])
def test_every_reading_of_the_passing_and_the_truffle_tie_is_played_as_written(egalite: str, sens: str) -> None:
    """CU3 and CU8 under every reading, three and four players: the referee recomputes the scores;
    somewhere a tie for the truffles must have been met, so CU8 was really at work."""
    ties = 0
    directions = Counter()
    for players in (3, 4):
        for seed in range(10):
            ref = Referee(players, seed, sens=sens, egalite=egalite)
            ref.play(_random(seed))
            ties += ref.truffle_ties
            directions += ref.passes
    assert ties > 0
    assert (directions["droite"] > 0) == (sens == "alterne")


def test_the_basket_doubles_the_next_cheese_only_in_sequence() -> None:
    """Seed 5, three players, a scripted table: seat 1 takes a basket whenever it can, then cheeses
    (the highest first), then anything; the others pick at random. The referee recomputes the score
    from the order of the picks, so a basket taken after a cheese doubles nothing (CU6), and the
    game must show both a doubled cheese and a cheese taken with no basket waiting."""
    ref = Referee(3, seed=5)
    rng = random.Random(5)
    order = ["Panier", "Comté", "Tomme", "Chèvre"]

    def scripted(s, legal, seat):
        if seat != 0:
            return rng.choice(sorted(legal))
        cards = {legal[a][len(LABEL):]: a for a in sorted(legal)}
        for name in order:
            if name in cards:
                return cards[name]
        return sorted(legal)[0]

    ref.play(scripted)
    doubled = plain = 0
    for picks in ref.kept[0]:
        baskets = 0
        for card in picks:
            if card == "Panier":
                baskets += 1
            elif card in CHEESE:
                doubled += bool(baskets)
                plain += not baskets
                baskets = max(0, baskets - 1)
    assert doubled > 0 and plain > 0, ref.kept[0]
    assert manche_points(["Comté", "Panier", "Chèvre"]) == 3 + 2
    assert manche_points(["Panier", "Panier", "Comté", "Tomme", "Chèvre"]) == 6 + 4 + 1
    assert manche_points(["Miel"] * 7 + ["Pomme"] * 3 + ["Noix"] * 5) == 15 + 5 + 10


def test_sim_game_and_sim_rulings_play_the_contested_truffle_tie(cli_env) -> None:
    res = runner.invoke(app, ["sim", "game", "cueillette", "--players", "3", "--games", "12", "--bots", "random",
                              "--workers", "1", "--rule", "CU8=personne", "--measures-games", "0", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["ended_by"] == {"manches_jouees": 12}
    (ruling,) = [r for r in data["rulings"] if r.get("option") == "egalite" or r.get("code") == "CU8"]
    assert ruling["changed"] is True
    res = runner.invoke(app, ["sim", "rulings", "cueillette", "--players", "3", "--games", "20", "--bots", "random",
                              "--workers", "1", "--measures-games", "0", "--json"])
    assert res.exit_code == 0, res.output
    variants = json.loads(res.stdout)["variants"]
    assert len(variants) == 2  # CU8's two other readings


def test_the_rulings_page_and_the_file_name_the_same_rulings_and_one_is_contested() -> None:
    res = runner.invoke(app, ["games", "rulings", "cueillette", "--json"])
    assert res.exit_code == 0, res.output
    rulings = json.loads(res.stdout)["rulings"]
    page = (ROOT / "docs" / "rulings" / "cueillette.md").read_text(encoding="utf-8")
    assert [r["code"] for r in rulings] == re.findall(r"^- \*\*(CU\d+) ", page, re.M)
    assert [r["code"] for r in rulings if r["contested"]] == ["CU8"]


def test_sim_rulings_says_a_scoring_reading_changes_results_not_moves(cli_env) -> None:
    """CU8 (the truffle tie) acts on the count at the end of a manche, never on a move: random bots
    play every game move for move alike under each reading, yet some games end with another
    winner. The report said « never brought into play » (it compared the moves only) and told to
    try « --bots random » when the bots were random already; now it says how many games end
    otherwise, and that the reading was brought into play."""
    # independently: the same random moves under each reading, and the returns compared
    games = {v: registry.get("cueillette").build([], 3, egalite=v) for v in ("partage", "personne")}
    differ = 0
    for seed in range(60):
        states = {v: g.new_state(seed) for v, g in games.items()}
        rng = random.Random(seed)
        while not states["partage"].is_terminal():
            legal = states["partage"].legal_actions()
            assert states["personne"].legal_actions() == legal
            action = rng.choice(legal)
            for s in states.values():
                s.apply_action(action)
        assert states["personne"].is_terminal()
        differ += states["partage"].returns() != states["personne"].returns()
    assert differ > 0
    args = ["sim", "rulings", "cueillette", "--players", "3", "--games", "300", "--bots", "random",
            "--only", "CU8", "--workers", "1", "--measures-games", "0"]
    res = runner.invoke(app, [*args, "--json"])
    assert res.exit_code == 0, res.output
    variants = json.loads(res.stdout)["variants"]
    for v in variants:
        other = v["same_moves_other_outcome"]
        assert v["same_games"] + other == 300 and other > 0, v
        # a game with another result moves a seat's wins by at most one
        assert other >= max(abs(s["wins"] - b["wins"]) for s, b in zip(
            v["seats"], json.loads(res.stdout)["baseline"]["seats"], strict=True))
    for lang, said, unsaid in (("fr", "elle a bien été mise en jeu", ("jamais fait jouer", "--bots random")),
                               ("en", "it was brought into play", ("never brought", "--bots random"))):
        text = runner.invoke(app, ["--lang", lang, *args])
        assert text.exit_code == 0 and said in text.output, text.output
        assert not any(u in text.output for u in unsaid), text.output


@pytest.mark.parametrize("players", [2, 3])
def test_the_round_look_ahead_of_the_last_chooser_stops_at_its_rounds_end(players: int) -> None:
    """horizon = "round": the look-ahead plays the rest of the round of the decision. The last seat
    to choose ends that round with its pick; the round was read after the pick, so its look-ahead
    played the whole next round too — one more pick seen ahead, by that seat alone (greedy duels:
    the last chooser won 60-69 %). Checked against the pick alone, on the same chance: for the last
    chooser the look-ahead is the heuristic right after the move, whatever the random play-out."""
    game = registry.get("cueillette").build([], players)
    checked = 0
    for seed in range(6):
        s = game.new_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            p = s.player
            legal = s.legal_actions()
            if len(legal) > 1 and len(s.secret) == players - 1:  # the round's last choice
                for a in legal:
                    for r in (0.25, 0.75):
                        alone = s.clone(reseed=r)
                        alone.apply_action(a)
                        assert alone.round == s.round + 1 or alone.is_terminal()
                        assert s._round_ahead(s, a, p, r) == alone.heuristic(p), (seed, s.round, a)
                        checked += 1
            s.apply_action(rng.choice(legal))
    assert checked > 100



def test_the_first_player_measure_says_secret_choices_have_no_first_player(cli_env) -> None:
    """Every action of Cueillette is a secret pick revealed with the others': the measures' « first
    player » is only the seat that chooses first, and its sentence says a gap is the bots' — not
    « starting is an advantage », which Le Huit (turns in order) keeps."""
    for code, secret in (("cueillette", True), ("huit", False)):
        args = ["sim", "game", code, "--players", "2", "--games", "8", "--bots", "random", "--workers", "1",
                "--measures-games", "8"]
        res = runner.invoke(app, [*args, "--json"])
        assert res.exit_code == 0, res.output
        assert json.loads(res.stdout)["measures"]["first_player"]["secret_choices"] is secret
        for lang, said in (("fr", "ne change rien par les règles"), ("en", "changes nothing")):
            text = runner.invoke(app, ["--lang", lang, *args])
            assert text.exit_code == 0, text.output
            assert (said in text.output) is secret, text.output


def test_count_best_counts_the_seats_tied_at_the_top_through_whole_games() -> None:
    """count_best('truffes') — the size of the tie for the majority (CU8) — recomputed from every
    seat's counter at every step of seeded games, and the file refuses it on an unknown counter."""
    from cardbase.games.rulesdata.language import RulesFileError, parse_rules_text
    from cardbase.games.rulesdata.structures import MORE_FUNCTIONS

    game = registry.get("cueillette").build([], 4)
    ties = Counter()
    for seed in range(12):
        s = game.new_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            vals = [c["truffes"] for c in s.counters]
            expected = vals.count(max(vals))
            assert MORE_FUNCTIONS["_f_count_best"](s, s.player, "truffes") == expected
            ties[expected] += 1
            s.apply_action(rng.choice(s.legal_actions()))
    assert ties[1] and ties[2] and ties[4]  # alone, a tie of two, everybody at 0
    text = FILE.read_text(encoding="utf-8").replace("count_best('truffes')", "count_best('truffe')", 1)
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(text, "cueillette.toml")
    assert any("truffe" in p.message for p in info.value.problems)


def test_the_measures_count_identical_cards_once_among_distinct_options(cli_env) -> None:
    """A hand of three Pommes offers three legal actions but one choice: the measures say both the
    options and the distinct ones (what the actions say). Le Huit's 52 cards are all different."""
    got = {}
    for code in ("cueillette", "huit"):
        res = runner.invoke(app, ["sim", "game", code, "--players", "2", "--games", "6", "--bots", "random",
                                  "--workers", "1", "--measures-games", "6", "--json"])
        assert res.exit_code == 0, res.output
        got[code] = json.loads(res.stdout)["measures"]["decisions"]
    assert 1 < got["cueillette"]["distinct_options"] < got["cueillette"]["options"] - 1, got
    assert got["huit"]["distinct_options"] == got["huit"]["options"], got


def test_games_check_advises_the_round_horizon_for_a_game_of_secret_choices(tmp_path) -> None:
    """With horizon = "step" the greedy bot of every seat but the last to choose reads its position
    before the reveal and sees every pick alike: games check says so, and Cueillette's "round" is
    not warned about."""
    path = tmp_path / "cueillette.toml"
    path.write_text(FILE.read_text(encoding="utf-8").replace('horizon = "round"', 'horizon = "step"'),
                    encoding="utf-8")
    for target, advised in ((path, True), (FILE, False)):
        args = ["games", "check", str(target), "--games", "4", "--search-states", "0"]
        res = runner.invoke(app, [*args, "--json"])
        assert res.exit_code == 0, res.output
        assert (json.loads(res.stdout)["advice"] == ["horizon_secret"]) is advised
        for lang, words in (("fr", 'horizon = "round"'), ("en", 'horizon = "round"')):
            text = runner.invoke(app, ["--lang", lang, *args])
            assert text.exit_code == 0 and (words in text.output) is advised, text.output
