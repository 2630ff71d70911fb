"""Atout (`data/rules/atout.toml`, rulings AT1–AT7 in `docs/rulings/atout.md`): a trick-taking game
written as data. The file passes `games check`; whole games of random and greedy bots end by the
file's own condition (never the safety net); and a referee that reads the rules as a player does —
from the moves and the public cards only, not from the interpreter — checks every move of seeded
games: follow suit when you can (AT3, both readings), the trick to the highest trump or else the
highest card of the suit led (AT4), the winner leads the next trick, the deal (AT2), the score
(AT5, both readings) and the number of deals (AT6)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.games import registry

ROOT = Path(__file__).resolve().parent.parent
FILE = ROOT / "data" / "rules" / "atout.toml"
runner = CliRunner()

RANKS = {"Sept": 7, "Huit": 8, "Neuf": 9, "Dix": 10, "Valet": 11, "Dame": 12, "Roi": 13, "As": 14}
CARD_POINTS = {"As": 11, "Dix": 10, "Roi": 4, "Dame": 3, "Valet": 2}  # AT5 « cartes »
COLOURS = ("cœur", "carreau", "trèfle", "pique")


def _split(name: str) -> tuple[str, str]:
    rank, colour = name.split(" de ", 1)
    assert rank in RANKS and colour in COLOURS, name
    return rank, colour


class Referee:
    """Plays a game move by move and checks each one against the rules as written in the rulings."""

    def __init__(self, players: int, couper: str = "libre", compte: str = "plis", seed: int = 0) -> None:
        self.players, self.couper, self.compte = players, couper, compte
        game = registry.get("atout").build([], players, couper=couper, compte=compte)
        self.state = game.new_state(seed)
        self.trick: list[tuple[int, str]] = []  # (seat from 0, card name), in the order played
        self.deals = 0
        self.history: list[tuple[tuple[tuple[int, str], ...], str, int]] = []  # (trick, trump, winner)
        self.leads: list[int] = []  # the seat that led each trick
        self.tricks_by_trump = self.tricks_plain = 0
        self.trump_forced = self.trump_refused = 0  # AT3 seen at work: a trump had to be / could be kept
        self._check_new_deal()

    # -- what the state shows to everyone (or to the seat to play)
    def trump(self) -> str:
        (card,) = self.state.observation(0)["zones"]["atout"][0]
        return _split(card)[1]

    def hand(self, seat: int) -> list[str]:
        return list(self.state.observation(seat)["zones"]["main"][seat])

    def points(self) -> list[int]:
        return [self.state.counters[s]["points"] for s in range(self.players)]

    def _check_new_deal(self) -> None:
        """AT2 and the rotation of the first player: a fresh deal, the round's first seat to lead."""
        self.deals += 1
        s = self.state
        assert s.round == self.deals
        assert s.current_player() == (self.deals - 1) % self.players  # first_player = "rotate"
        for seat in range(self.players):
            assert len(self.hand(seat)) == 31 // self.players
        assert len(s.observation(0)["zones"]["atout"][0]) == 1
        assert s.observation(0)["zones"]["tapis"] == ((),)

    def expected(self, seat: int) -> set[str]:
        """The moves the rules allow the seat to play now, as « Label : card »."""
        hand, trump = self.hand(seat), self.trump()
        if not self.trick:
            return {f"Entamer : {c}" for c in hand}
        led = _split(self.trick[0][1])[1]
        follow = [c for c in hand if _split(c)[1] == led]
        if follow:
            return {f"Fournir : {c}" for c in follow}
        trumps = [c for c in hand if _split(c)[1] == trump]
        others = [c for c in hand if _split(c)[1] != trump]
        moves = {f"Couper : {c}" for c in trumps}
        if self.couper == "libre" or not trumps:
            moves |= {f"Se défausser : {c}" for c in others}
        if trumps and others:
            if self.couper == "obligatoire":
                self.trump_forced += 1
            else:
                self.trump_refused += 1
        return moves

    def winner(self, trump: str) -> int:
        """AT4: the highest trump, else the highest card of the suit led."""
        led = _split(self.trick[0][1])[1]

        def strength(card: str) -> tuple[int, int]:
            rank, colour = _split(card)
            return (2 if colour == trump else 1 if colour == led else 0, RANKS[rank])

        return max(self.trick, key=lambda t: strength(t[1]))[0]

    def step(self, choose) -> None:
        s = self.state
        seat = s.current_player()
        legal = {a: s.action_to_string(a) for a in s.legal_actions()}
        assert set(legal.values()) == self.expected(seat), (seat, self.trick, self.hand(seat))
        if self.trick:  # the lead goes clockwise within a trick
            assert seat == (self.trick[-1][0] + 1) % self.players
        else:
            self.leads.append(seat)
        action = choose(s, legal)
        card = legal[action].split(" : ", 1)[1]
        before, trump = self.points(), self.trump()
        s.apply_action(action)
        self.trick.append((seat, card))
        if s.round == self.deals and not s.is_terminal():  # (a new deal may give the card back)
            assert card not in self.hand(seat)
        if len(self.trick) < self.players:
            assert list(s.observation(0)["zones"]["tapis"][0]).count(card) == 1
            return
        win = self.winner(trump)  # the trump of the deal played (a new deal may have begun)
        if any(_split(c)[1] == trump for _, c in self.trick):
            self.tricks_by_trump += 1
        else:
            self.tricks_plain += 1
        self.history.append((tuple(self.trick), trump, win))
        gain = 1 if self.compte == "plis" else sum(CARD_POINTS.get(_split(c)[0], 0) for _, c in self.trick)
        after = self.points()
        assert after == [p + (gain if i == win else 0) for i, p in enumerate(before)], (self.trick, win)
        trick, self.trick = self.trick, []
        if s.is_terminal():
            return
        if s.round == self.deals:  # the deal goes on: the winner leads the next trick
            assert s.current_player() == win, (win, s.current_player())
            # the trick's cards went to the winner's pile of tricks taken (AT7: face up)
            assert set(c for _, c in trick) <= set(s.observation(0)["zones"]["levees"][win])
            assert s.observation(0)["zones"]["tapis"] == ((),)
        else:
            self._check_new_deal()

    def play(self, choose) -> None:
        while not self.state.is_terminal():
            self.step(choose)
        s = self.state
        assert s.ended_by == "donnes_jouees" and self.deals == 2 * self.players  # AT6, tours = 2
        pts = self.points()
        best = max(pts)
        winners = [i for i, p in enumerate(pts) if p == best]
        returns = s.returns()
        assert [i for i, r in enumerate(returns) if r > 0] == (winners if len(winners) < self.players else [])


def _random(seed: int):
    rng = random.Random(seed)
    return lambda s, legal: rng.choice(sorted(legal))


def _greedy(s, legal):
    return s.greedy_action()


def test_atout_passes_games_check_in_french_and_english() -> None:
    res = runner.invoke(app, ["games", "check", str(FILE), "--games", "10", "--search-states", "300", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["ok"] and data["code"] == "atout"
    assert data["tried"]["ended"] == 10 and data["tried"]["never_legal"] == []
    assert data["tried"]["never_ended_by"] == []
    for lang, word in (("fr", "règles valables"), ("en", "valid rules")):
        text = runner.invoke(app, ["--lang", lang, "games", "check", str(FILE), "--games", "2",
                                   "--search-states", "0"])
        assert text.exit_code == 0 and word in text.output, text.output


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_and_greedy_games_end_by_the_deals_never_the_safety_net(players: int) -> None:
    game = registry.get("atout").build([], players)
    endings = []
    for seed in range(100 + 30):
        s = game.new_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()) if seed < 100 else s.greedy_action())
        endings.append((s.ended_by, s.round))
        assert sum(s.counters[i]["points"] for i in range(players)) == 2 * players * (31 // players)
    assert set(endings) == {("donnes_jouees", 2 * players)}


@pytest.mark.parametrize("couper", ["libre", "obligatoire"])
@pytest.mark.parametrize("compte", ["plis", "cartes"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_follow_suit_trumps_and_the_winner_leads_at_every_move(players: int, couper: str, compte: str) -> None:
    tricks = [0, 0, 0, 0]
    for seed in range(6):
        ref = Referee(players, couper, compte, seed)
        ref.play(_random(seed) if seed % 3 else _greedy)
        tricks = [a + b for a, b in zip(tricks, (ref.tricks_by_trump, ref.tricks_plain,
                                                 ref.trump_forced, ref.trump_refused))]
    by_trump, plain, forced, refused = tricks
    assert by_trump > 0 and plain > 0  # both kinds of trick were checked
    assert (forced > 0 and refused == 0) if couper == "obligatoire" else (refused > 0 and forced == 0)


def test_a_seeded_deal_in_sequence_follow_suit_a_trump_wins_the_winner_leads() -> None:
    """Seed 3, four players, a scripted table: lead your highest card that is not a trump, follow
    with your lowest card, else trump with your lowest trump, else discard your lowest card. The
    referee checks every move; here the first deal must show a trick taken by a trump played by a
    seat that could not follow, and a trick taken without trumps by the highest card of the suit led,
    each winner leading the next trick."""
    ref = Referee(4, seed=3)

    def scripted(s, legal):
        trump = ref.trump()
        order = sorted(legal, key=lambda a: RANKS[_split(legal[a].split(" : ", 1)[1])[0]])
        if all(legal[a].startswith("Entamer") for a in legal):
            plain = [a for a in order if _split(legal[a].split(" : ", 1)[1])[1] != trump]
            return (plain or order)[-1]
        trumps = [a for a in order if legal[a].startswith("Couper")]
        return (trumps or order)[0]

    while ref.deals == 1:
        ref.step(scripted)
    tricks = 31 // 4
    assert len(ref.history) == tricks and len(ref.leads) == tricks and ref.leads[0] == 0
    by_trump = plain = 0
    for i, (trick, trump, win) in enumerate(ref.history):
        led = _split(trick[0][1])[1]
        cards = dict(trick)
        if i + 1 < tricks:
            assert ref.leads[i + 1] == win  # the winner leads the next trick of the deal
        if led != trump and any(_split(c)[1] == trump for _, c in trick):
            by_trump += 1
            assert _split(cards[win])[1] == trump and win != trick[0][0]
        elif led != trump:
            plain += 1
            best = max((RANKS[_split(c)[0]], s) for s, c in trick if _split(c)[1] == led)
            assert win == best[1]
    assert by_trump > 0 and plain > 0, ref.history
    assert ref.state.current_player() == 1  # the second deal: the first player rotates to seat 2


def test_sim_game_plays_atout_under_each_reading_of_at3(cli_env) -> None:
    res = runner.invoke(app, ["sim", "game", "atout", "--players", "3", "--games", "12", "--bots", "random",
                              "--workers", "1", "--rule", "AT3=obligatoire", "--measures-games", "0", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["ended_by"] == {"donnes_jouees": 12}
    (ruling,) = [r for r in data["rulings"] if r.get("option") == "couper" or r.get("code") == "AT3"]
    assert ruling["changed"] is True


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_greedy_bot_looks_at_the_end_of_its_turn_and_plays_the_same_moves_as_after_the_next_start(
        players: int) -> None:
    """The file's `[scoring] horizon = "turn"`: the greedy bot reads its heuristic when its turn is
    over, before the next seat's turn begins — a position where nothing it cannot see has been read,
    so it needs no deals of the hidden hands (about 8× fewer look-aheads). Its heuristic (points and
    the trick's best `force`) does not change when the next turn begins, so the default horizon
    (`"step"`, the next turn's start included: dealt over the hidden hands) must choose the same move
    at every decision: whole greedy games under both readings of AT3 and AT5, compared move by move."""
    from cardbase.games.rulesdata.engine import Game
    from cardbase.games.rulesdata.language import parse_rules_text

    text = FILE.read_text(encoding="utf-8")
    assert 'horizon = "turn"' in text
    step = text.replace('horizon = "turn"\n', "")
    for couper, compte in (("libre", "plis"), ("obligatoire", "cartes")):
        games = [Game(parse_rules_text(t, options={"couper": couper, "compte": compte}), [], players)
                 for t in (text, step)]
        assert [g.rules.horizon for g in games] == ["turn", "step"]
        for seed in range(3):
            played = []
            for g in games:
                s = g.new_state(seed)
                while not s.is_terminal():
                    s.apply_action(s.greedy_action())
                played.append((s.history, s.returns()))
            assert played[0] == played[1], (players, couper, compte, seed)


def test_sim_rulings_says_when_the_bots_never_bring_a_reading_into_play(cli_env) -> None:
    """The greedy bots always trump when they cannot follow suit, so AT3's « obligatoire » plays
    every game move for move as « libre »: the weight's +0.0 % is a finding on the bots, and the
    report says so (« jouées coup pour coup »), in the JSON (`same_games`) and the text. Random
    bots discard while holding a trump, so most of their games differ and the finding is not said."""
    args = ["sim", "rulings", "atout", "--players", "2", "--games", "30", "--only", "AT3", "--workers", "1",
            "--measures-games", "0"]
    same = {}
    for bots in ("greedy", "random"):
        res = runner.invoke(app, [*args, "--bots", bots, "--json"])
        assert res.exit_code == 0, res.output
        (variant,) = json.loads(res.stdout)["variants"]
        same[bots] = variant["same_games"]
    assert same["greedy"] == 30 and same["random"] < 15, same
    for lang, words in (("fr", "jamais fait jouer cette lecture"), ("en", "never brought this reading into play")):
        text = runner.invoke(app, ["--lang", lang, *args, "--bots", "greedy"])
        assert text.exit_code == 0 and words in text.output, text.output
        other = runner.invoke(app, ["--lang", lang, *args, "--bots", "random"])
        assert other.exit_code == 0 and words not in other.output, other.output
