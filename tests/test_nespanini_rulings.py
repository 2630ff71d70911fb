"""NesPanini rulings as options (R1 end of the game, R9 hidden deck lists), rulings R3/R6/R8,
rule coverage, first-player figures over decided games, batch legality and goldfish blind spots."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.games.bots import RandomBot
from cardbase.games.nespanini import Game
from cardbase.playtest.batch import duel, goldfish
from cardbase.playtest.cards import load_deck_defs, make_card, starter_decks
from cardbase.playtest.stats import wilson
from tests.test_engine import (
    DEF,
    EFFECTS,
    LEG,
    LOOP_DECK,
    LOOP_OTHER,
    NP1,
    PLAIN,
    PLAIN_DECK,
    RICH,
    _outcome,
    deck_of,
)

STARTERS = {k: load_deck_defs(v) for k, v in starter_decks().items()}
MAREE, BRAISES = STARTERS["maree-et-crypte"], STARTERS["braises-ardentes"]


def _greedy(game, seed):
    """A game played by the fast greedy path, checked against the step-by-step one (moves, log
    and coverage)."""
    fast = game.new_state(seed).play_greedy()
    slow = game.new_state(seed)
    while not slow.is_terminal():
        slow.apply_action(slow.greedy_action())
    assert _outcome(fast) == _outcome(slow), seed
    assert fast.coverage() == slow.coverage(), seed
    return fast


# ---------------------------------------------------------------- R1: the end of the game


def test_r1_two_criteria_disagree_on_starter_duels_and_the_option_picks_one():
    """R1: in greedy starter duels a ``recover`` gives one player a sixth turn when the game ends by
    the Cimetière; ``end_rule="turns"`` stops every game after 5 turns each; ``"first"`` stops at
    whichever comes first."""
    longer = 0
    for seed in range(60):
        by_cim = _greedy(Game([MAREE, BRAISES]), seed)
        assert by_cim.ended_by == "cimetiere" and by_cim.cimetiere_size >= 10
        longer += by_cim.turn > 10
        by_turns = _greedy(Game([MAREE, BRAISES], end_rule="turns"), seed)
        assert by_turns.ended_by == "turns" and by_turns.turn == 10
        first = _greedy(Game([MAREE, BRAISES], end_rule="first"), seed)
        assert first.turn == min(by_cim.turn, 10)
        assert first.ended_by == ("cimetiere" if by_cim.turn <= 10 else "turns")
    assert longer > 10  # the two readings part in many games


def test_r1_first_ends_a_bury_game_by_the_cimetiere_before_five_turns_each():
    """R1 × ``bury``: a bury fills the Cimetière early; ``first`` ends there, ``turns`` plays on."""
    bury = EFFECTS[7]
    deck = ([bury] * 6 + PLAIN * 3)[:20]
    shorter = 0
    for seed in range(40):
        first = _greedy(Game([deck, deck], end_rule="first"), seed)
        turns = _greedy(Game([deck, deck], end_rule="turns"), seed)
        assert turns.turn == 10 and turns.ended_by == "turns"
        if first.turn < 10:
            shorter += 1
            assert first.ended_by == "cimetiere" and first.cimetiere_size >= 10
    assert shorter > 5


def test_r1_meets_r2_and_r10_in_sequence():
    """R1 ``turns`` leaves R2 (an empty deck at the draw) in force, and makes R10's out-of-reach
    case moot: the game ends after 5 turns each by R1 itself."""
    g = Game([PLAIN[:8]], end_rule="turns")  # 3 cards to draw: R2 ends it on the fourth turn
    s = g.new_state(0)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    assert s.ended_by == "empty-deck" and s.turn == 3
    from tests.test_engine import LEGENDS_DECK, np1_deck

    legends = np1_deck(LEGENDS_DECK)
    assert Game([legends, legends]).unreachable
    g = Game([legends, legends], end_rule="turns")
    assert not g.unreachable
    assert _greedy(g, 3).ended_by == "turns"


def test_r1_option_is_checked_and_survives_pickling():
    import pickle

    from cardbase.errors import CardbaseError

    with pytest.raises(CardbaseError, match="end_rule"):
        Game([RICH], end_rule="tours")
    with pytest.raises(CardbaseError, match="deck_lists"):
        Game([RICH], deck_lists="secret")
    g = pickle.loads(pickle.dumps(Game([RICH, RICH], end_rule="first", deck_lists="hidden",
                                       pool=PLAIN + EFFECTS)))
    assert g.options() == {"end_rule": "first", "deck_lists": "hidden", "stalemate_rounds": 10}
    assert len(g.pool) == len(PLAIN + EFFECTS)


# ---------------------------------------------------------------- R9: hidden deck lists


def _opponent_cards(s, q):
    return Counter(s.hands[q]) + Counter(s.decks[q])


def test_r9_hidden_deck_lists_redeal_the_opponent_from_the_pool():
    pool = list(dict.fromkeys(MAREE + BRAISES + PLAIN))
    public = Game([MAREE, BRAISES])
    hidden = Game([MAREE, BRAISES], deck_lists="hidden", pool=pool)
    rng = random.Random(1)
    outside = 0
    for seed in range(30):
        for g in (public, hidden):
            s = g.new_state(seed)
            for _ in range(3):
                s.apply_action(s.greedy_action())
            p = s.current_player()
            q = 1 - p
            r = s.resample(p, rng)
            assert r.hands[p] == s.hands[p] and r.discards == s.discards
            assert [len(h) for h in r.hands] == [len(h) for h in s.hands]
            assert [len(d) for d in r.decks] == [len(d) for d in s.decks]
            deck_kinds = set(g.decks[q])
            got = _opponent_cards(r, q)
            if g is public:
                assert got == _opponent_cards(s, q)  # the exact list (R9 public)
            else:
                outside += sum(n for k, n in got.items() if k not in deck_kinds)
                seen = got + Counter(r.discards[q])
                for k, n in seen.items():  # a uniform legal deck: the copy limits hold
                    assert n <= (4 if "foule" in g.table.defs[k].keyword_keys else 2)
    assert outside > 100  # the re-deal no longer knows the opponent's list


def test_r9_hidden_keeps_revealed_cards_and_the_bots_still_play():
    pool = list(dict.fromkeys(MAREE + BRAISES))
    g = Game([RICH, RICH], deck_lists="hidden", pool=pool + PLAIN + EFFECTS)
    rng = random.Random(3)
    found = False
    for seed in range(40):
        s = g.new_state(seed)
        bot = RandomBot(seed)
        while not s.is_terminal():
            p = s.current_player()
            if s.revealed[1 - p] and s.decision is None:
                r = s.resample(p, rng)
                assert Counter(s.revealed[1 - p]) <= Counter(r.hands[1 - p])
                found = True
            s.apply_action(bot.step(s))
    assert found
    rep = duel(RICH, RICH, games=4, bots=("mc", "greedy"), seed=1,
               rules={"deck_lists": "hidden", "pool": PLAIN + EFFECTS})
    assert rep.summary["rules"]["deck_lists"] == "hidden" and rep.summary["games"] == 4


# ---------------------------------------------------------------- R3, R6, R8 and forced discards


CRI = make_card("Cri", 1, colour="rouge", keywords=DEF, effect="defausse: force_discard 1", number=40)


def test_r3_forced_discard_on_an_empty_deck_follows_the_card_text():
    """« Votre adversaire défausse 1 carte … puis en pioche autant »: the discard happens even when
    the victim's deck is empty; they draw nothing and score a hand of 4 (ruling R3), and their next
    draw ends the game (R2)."""
    victim = PLAIN[:6]  # 5 in hand, 1 card to draw
    g = Game([[CRI] * 20, victim])
    done = False
    for seed in range(20):
        s = g.new_state(seed)
        while not s.is_terminal():
            p = s.current_player()
            if s.decision is None and p == 0 and not s.decks[1]:
                s.apply_action(s.table.kind(CRI))
                assert s.decision is not None and s.decision[0] == "force" and s.current_player() == 1
                before = len(s.discards[1])
                s.apply_action(s.legal_actions()[0])
                assert len(s.discards[1]) == before + 1 and len(s.hands[1]) == 4
                done = True
                break
            s.apply_action(s.legal_actions()[0])
        if done:
            assert s.is_terminal() and s.ended_by == "empty-deck"
            assert len(s.hands[1]) == 4 and s.score(1) == sum(s.table.value[k] for k in s.hands[1])
            break
    assert done


def test_r3_every_other_effect_keeps_hands_at_five():
    """R3: over random games of every effect, a hand under 5 cards only ever follows a forced
    discard on an empty deck."""
    g = Game([RICH, RICH])
    for seed in range(150):
        s = g.new_state(seed)
        bot = RandomBot(seed)
        while not s.is_terminal():
            s.apply_action(bot.step(s))
        short = [p for p in range(2) if len(s.hands[p]) < 5]
        for p in short:
            assert any(e[0] == "forced" and e[1] == p for e in s.events)
            assert not s.decks[p]
        assert all(len(h) <= 5 for h in s.hands)


def test_r6_sixty_turns_end_a_game_without_r10():
    """R6: the safety net ends a recover loop at exactly 60 turns when R10 is off."""
    g = Game([LOOP_DECK, LOOP_OTHER], stalemate_rounds=0)
    hit = 0
    for seed in range(30):
        s = _greedy(g, seed)
        if s.ended_by == "turn-limit":
            hit += 1
            assert s.turn == 60 and s.cimetiere_size < 10
    assert hit > 10


def test_r8_legendaire_cards_never_reach_a_discard_pile():
    """R8: step 2 refuses a Légendaire card; ``bury`` puts one under the deck; a forced discard
    and a swap never offer one."""
    roi = make_card("Roi R8", 7, keywords=LEG, number=41)
    bury = make_card("Fosse", 1, keywords=DEF, effect="defausse: bury 3 opponent", number=42)
    swap = make_card("Troc", 1, keywords=DEF, effect="defausse: swap with cimetiere", number=43)
    a = [bury] * 4 + [CRI] * 4 + [swap] * 4 + PLAIN[:8]
    b = [roi] * 10 + PLAIN[:8] + [CRI] * 2
    g = Game([a, b])
    leg = g.table.legendary
    buried_under = 0
    for seed in range(80):
        s = g.new_state(seed)
        bot = RandomBot(seed)
        while not s.is_terminal():
            if s.decision is not None and s.decision[0] in ("force", "give"):
                assert not any(leg[k] for k in s.legal_actions())
            s.apply_action(bot.step(s))
            assert not any(leg[k] for d in s.discards for k in d)
        buried_under += sum(1 for e in s.events if e[0] == "bury") > 0
    assert buried_under > 5


# ---------------------------------------------------------------- rule coverage


def test_coverage_counts_are_right_and_equal_on_every_path():
    from cardbase.games.nespanini.rulings import COVERAGE

    g = Game([RICH, RICH])
    for seed in range(40):
        s = _greedy(g, seed)
        cov = s.coverage()
        assert set(cov) <= set(COVERAGE)
        assert all(0 <= used <= occ for occ, used in cov.values())
        discards = sum(1 for e in s.events if e[0] == "discard")
        r4 = sum(1 for e in s.events if e[0] == "legendary-bottom")
        assert cov["step2:discard"] == [discards + r4, discards]
        assert cov["ruling:R4"][1] == r4
        effects = sum(1 for e in s.events if e[0] == "effect")
        assert sum(cov[k][0] for k in cov if k.startswith("effect:")) >= effects
        assert cov["keyword:defausse"][1] == effects  # every Défausse card of RICH has an effect
        assert sum(cov[k][1] for k in cov if k.startswith("end:")) == 1
        assert cov[f"end:{s.ended_by}"] == [1, 1]
    # random play goes through apply_action only: counted there too
    s = g.new_state(5)
    bot = RandomBot(5)
    while not s.is_terminal():
        s.apply_action(bot.step(s))
    assert s.coverage()["step2:discard"][0] == sum(1 for e in s.events
                                                   if e[0] in ("discard", "legendary-bottom"))


def test_coverage_of_goldfish_shows_opponent_effects_do_nothing_r7():
    deck = deck_of([EFFECTS[4], EFFECTS[5], EFFECTS[6]] + PLAIN[:3])
    rep = goldfish(deck, games=40, oracle_games=0, swap_games=0)
    cov = rep.summary["coverage"]
    for key in ("effect:force_discard", "effect:reveal", "effect:bury"):
        assert cov[key]["occasions"] > 0 and cov[key]["used"] == 0
    assert any("force_discard" in w for w in rep.summary["coverage_warnings"])
    d = duel(deck, deck, games=40)
    assert d.summary["coverage"]["effect:force_discard"]["used"] > 0
    assert d.summary["coverage"]["end:cimetiere"]["used"] == 40
    from cardbase.playtest.batch import roundrobin

    rr = roundrobin({"a": deck, "b": RICH}, games=20)
    out = rr.to_dict()
    assert out["coverage"]["end:cimetiere"]["occasions"] == 20
    (one,) = rr.duels.values()
    assert out["coverage"]["step2:discard"] == one.summary["coverage"]["step2:discard"]


# ---------------------------------------------------------------- first player over decided games


def test_first_player_figures_are_over_decided_games_with_ties_beside():
    rep = duel(MAREE, BRAISES, games=200, seed=0)
    s = rep.summary
    fp = s["first_player"]
    assert s["ties"] > 0 and fp["ties"] == s["ties"]
    assert fp["wins"] + fp["losses"] == fp["decided"] == s["games"] - s["ties"]
    assert fp["win_rate"] == pytest.approx(fp["wins"] / fp["decided"])
    assert s["first_player_ci95"] == list(wilson(fp["wins"], fp["decided"]))
    assert s["first_player_win_rate"] < fp["win_rate"]  # the old figure counted ties as losses
    seats = s["seats"]
    assert seats["first"]["games"] + seats["second"]["games"] == s["games"]
    assert seats["first"]["wins"] + seats["second"]["wins"] == s["wins"]
    assert seats["first"]["ties"] + seats["second"]["ties"] == s["ties"]


# ---------------------------------------------------------------- goldfish blind spots (R7)


def test_goldfish_marks_the_cards_it_cannot_judge():
    rep = goldfish(BRAISES, games=30, oracle_games=0, swap_games=0)
    rows = {r["card"]: r for r in rep.cards.to_dict(orient="records")}
    assert rows["Champion de l'arène"]["goldfish_judged"] is False
    assert rows["Champion de l'arène"]["goldfish_blind"] == ["score-opponent"]
    assert rows["Dragonne des Braises"]["goldfish_blind"] == ["score-cimetiere"]
    assert rows["Tisonnier"]["goldfish_judged"] is True
    assert "Champion de l'arène" in rep.summary["not_judged"]
    from cardbase.games.nespanini.analysis import goldfish_blind
    from cardbase.playtest.cards import load_edition_defs

    by_name = {c.name: c for c in load_edition_defs([NP1])}
    for name in ("Croque-mort", "Cri de guerre", "Tempête", "Foule en colère"):
        assert goldfish_blind(by_name[name]), name
    assert goldfish_blind(by_name["Tisonnier"]) == ()


# ---------------------------------------------------------------- command line


def _sim(*args):
    from cardbase.cli.sim import app

    return CliRunner().invoke(app, [*args, "-e", NP1])


def test_cli_batches_refuse_an_illegal_deck_unless_allowed(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(Path(starter_decks()["braises-ardentes"]).read_text(encoding="utf-8")
                   + "1 Tisonnier\n", encoding="utf-8")
    for args in (("goldfish", str(bad)), ("duel", str(bad), "maree-et-crypte"),
                 ("ladder", str(bad)), ("roundrobin", str(bad), "maree-et-crypte")):
        r = _sim(*args, "-n", "4")
        assert r.exit_code == 2, (args, r.output)
        assert "21 cartes" in r.output and "« Tisonnier » est 3 fois" in r.output
        assert "--allow-illegal" in r.output and "Traceback" not in r.output
    r = _sim("goldfish", str(bad), "-n", "6", "--oracle-games", "0", "--swap-games", "0",
             "--allow-illegal")
    assert r.exit_code == 0, r.output
    assert r.stdout.count("deck non conforme joué") == 2  # head and card table
    r = _sim("duel", str(bad), "maree-et-crypte", "-n", "4", "--allow-illegal", "--json")
    data = json.loads(r.stdout)
    assert data["illegal"] is True and list(data["illegal_decks"]) == ["bad"]
    r = _sim("ladder", str(bad), "-n", "2", "--allow-illegal")
    assert r.stdout.count("deck non conforme joué") == 4  # head and each of the 3 rungs
    r = _sim("duel", "braises-ardentes", "maree-et-crypte", "-n", "4", "--json")
    assert json.loads(r.stdout)["illegal"] is False


def test_cli_batch_on_an_illegal_deck_says_so_on_every_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(Path(starter_decks()["braises-ardentes"]).read_text(encoding="utf-8")
                   + "1 Tisonnier\n", encoding="utf-8")
    for args in (("goldfish", str(bad), "--oracle-games", "0", "--swap-games", "0"),
                 ("duel", str(bad), "maree-et-crypte"), ("roundrobin", str(bad), "maree-et-crypte"),
                 ("ladder", str(bad), "-n", "2"),
                 ("sweep", str(bad), "--card", "NP1-001", "--values", "1..2", "--goldfish")):
        r = _sim(*args, "-n", "4", "--allow-illegal", "--workers", "1")
        assert r.exit_code == 0, (args, r.output)
        lines = [x for x in r.stdout.splitlines() if x.strip()]
        assert len(lines) >= 3
        for line in lines:
            assert line.startswith(("[deck non conforme] ", "ATTENTION — deck non conforme joué")), (args, line)
    r = _sim("duel", "braises-ardentes", "maree-et-crypte", "-n", "4", "--workers", "1")
    assert r.exit_code == 0 and "non conforme" not in r.stdout


def test_cli_rule_options_reach_the_games_and_are_echoed():
    r = _sim("duel", "maree-et-crypte", "braises-ardentes", "-n", "20", "--json",
             "--rule", "end_rule=turns", "--rule", "R10=4")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["ended_by"]["turns"] == 20
    by_code = {x["code"]: x for x in data["rulings"]}
    assert by_code["R1"]["value"] == "turns" and by_code["R1"]["changed"] and by_code["R1"]["contested"]
    assert by_code["R10"]["value"] == 4 and by_code["R9"]["value"] == "public"
    assert "coverage" in data and data["coverage"]["end:turns"]["used"] == 20
    r = _sim("goldfish", "braises-ardentes", "-n", "10", "--oracle-games", "0", "--swap-games", "5",
             "--rule", "deck_lists=hidden", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert {x["code"]: x["value"] for x in data["rulings"]}["R9"] == "hidden"
    assert data["cards"][0]["goldfish_judged"] in (True, False) and "coverage" in data
    r = _sim("duel", "maree-et-crypte", "braises-ardentes", "-n", "20",
             "--rule", "end_rule=turns")
    assert "arbitrages changés : R1 end_rule=turns" in r.stdout
    assert re.search(r"victoires du premier joueur : \d+,\d % \[.*\] \(\d+ sur \d+ parties décidées ; "
                     r"égalités à part : \d+\)", r.stdout)
    r = _sim("sweep", "braises-ardentes", "--card", "NP1-001", "--values", "1..2", "--goldfish",
             "-n", "10", "--rule", "end_rule=first", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert {x["code"]: x["value"] for x in data["rulings"]}["R1"] == "first"
    assert data["illegal"] is False
    r = _sim("duel", "maree-et-crypte", "braises-ardentes", "-n", "4",
             "--rule", "end_rule=tours", "--rule", "cimetiere")
    assert r.exit_code == 2 and "end_rule" in r.output and "NOM=VALEUR" in r.output
    assert "Traceback" not in r.output


# ---------------------------------------------------------------- rulings as data


def test_rulings_module_holds_every_ruling_of_the_doc():
    from cardbase.games.rulings import contested, options_of, parse_rules

    doc = Path(__file__).resolve().parents[1] / "docs" / "rulings" / "nespanini.md"
    codes = set(re.findall(r"^\| (R\d+) \|", doc.read_text(encoding="utf-8"), re.M))
    from cardbase.games.nespanini.rulings import RULINGS

    assert codes == {r.code for r in RULINGS}
    assert {r.code for r in contested("nespanini")} == {"R1", "R9"}
    assert set(options_of("nespanini")) == {"end_rule", "deck_lists", "stalemate_rounds"}
    opts = parse_rules("nespanini", ["end_rule=first", "deck_lists=hidden", "stalemate_rounds=0"])
    g = Game([RICH, PLAIN_DECK], **opts)
    assert g.options() == opts
