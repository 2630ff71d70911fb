"""Rule coverage of a game written as data: each action is a rule, counted over the decisions
where it was allowed — an answer of an answer window too, whether the seat answered or let it
pass — and an action the bots almost never play when they may is reported under every batch
(« les bots ne s'en servent presque pas »): Menteur's greedy bots almost never call « Menteur ! »,
random ones call half the time."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import load_rules
from cardbase.playtest import coverage as cov
from cardbase.playtest.games import simulate
from tests.rulesdata_helpers import random_moves

ROOT = Path(__file__).resolve().parent.parent


def _report(bots: str, games: int, players: int = 4):
    return simulate("menteur", (), players=players, bots=[bots] * players, games=games, seed=0, workers=1)[0]


GAME = Game(load_rules(ROOT / "data" / "rules" / "menteur.toml"), [], 4)


def test_an_answer_not_made_is_an_occasion_of_the_answer() -> None:
    """Every seat asked in a window had « Menteur ! » allowed: occasions are the seats asked (the
    answers and the passes), uses the calls."""
    for seed in range(3):
        asked = calls = 0
        for s, move in random_moves(GAME, seed):
            if move is None:
                assert s.coverage()["menteur"] == [asked, calls] and 0 < calls < asked
                break
            if s.observation(s.current_player()).get("window"):
                asked += 1
                calls += s.action_to_string(move) == "Menteur !"
            s.apply_action(move)


def test_a_rule_the_greedy_bots_almost_never_use_is_reported() -> None:
    greedy = _report("greedy", 12)
    calls = greedy.coverage["menteur"]
    assert calls["rulebook"] and calls["occasions"] > 300 and calls["rate"] < cov.RARE
    assert any(line.startswith("Menteur ! : ") and "presque pas" in line for line in greedy.coverage_warnings), \
        greedy.coverage_warnings
    random = _report("random", 12)
    assert random.coverage["menteur"]["rate"] > 0.2 and not random.coverage_warnings
    # an ending is not a rule a player chooses: never reported
    assert not greedy.coverage["ending:main_vide"]["rulebook"]


# ------------------------------------------------------------------ [[coverage]]: a rule that is not an action

def test_a_counted_rule_is_counted_as_the_table_shows_it() -> None:
    """Menteur's ``[[coverage]] bluff``: each lay is an occasion, a use when one of its cards at
    least is not of the asked rank — counted again here from the cards that reached the seat's laid
    cards."""
    for seed in range(3):
        laid = lies = 0
        for s, move in random_moves(GAME, seed):
            if move is None:
                assert s.coverage()["bluff"] == [laid, lies] and 0 < lies < laid
                break
            p = s.current_player()
            before, asked = list(s.zones["pose"][p]), s.counters[p]["annonce"]
            s.apply_action(move)
            new = [c for c in s.zones["pose"][p] if c not in before]  # the cards laid, if any
            if new:
                laid += 1
                lies += any(GAME.cards[c].value != asked for c in new)


def test_counted_rules_are_in_the_batch_text(tmp_path) -> None:
    from typer.testing import CliRunner

    from cardbase.cli import app

    res = CliRunner().invoke(app, ["--lang", "fr", "sim", "game", "menteur", "--bots", "random", "-n", "6", "-p", "3",
                                   "--measures-games", "0", "--skill-games", "0"])
    assert res.exit_code == 0, res.output
    line = next(x for x in res.output.splitlines() if x.startswith("Règle comptée — Bluff"))
    assert "des fois où « Annoncer … × … » a été jouée (" in line
    en = CliRunner().invoke(app, ["--lang", "en", "sim", "game", "menteur", "--bots", "random", "-n", "6", "-p", "3",
                                  "--measures-games", "0", "--skill-games", "0"])
    assert any(x.startswith("Counted rule — Bluff (at least one card") and "of the times “Announce … × …” was played" in x
               for x in en.output.splitlines()), en.output


MENTEUR = (ROOT / "data" / "rules" / "menteur.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_counted_rule_badly_written_is_a_problem_with_its_line(lang: str) -> None:
    from cardbase.games.rulesdata.language import RulesFileError, parse_rules_text
    from cardbase.i18n import set_language

    block = MENTEUR[MENTEUR.index("[[coverage]]"):MENTEUR.index("[end]")]
    cases = [
        (block.replace('action = "annoncer"', 'action = "poserr"'), "coverage[1].action", {"fr": "poserr", "en": "poserr"}),
        (block.replace('name = "bluff"', 'name = "le bluff"'), "coverage[1].name", {"fr": "lettres", "en": "letters"}),
        (block.replace('name = "bluff"', 'name = "menteur"'), "coverage[1].name", {"fr": "action", "en": "action"}),
        (block.replace("'card.value != annonce'", "'card.valeur != annonce'"), "coverage[1].test",
         {"fr": "value", "en": "value"}),
        (block.replace('test = "count_if', 'tset = "count_if'), "coverage[1]",
         {"fr": "tset", "en": "tset"}),
    ]
    set_language(lang)
    try:
        for new, key, word in cases:
            with pytest.raises(RulesFileError) as info:
                parse_rules_text(MENTEUR.replace(block, new), "m.toml")
            hit = [p for p in info.value.problems if key in p.where]
            assert hit and any(word[lang] in p.message + p.fix for p in hit), (key, [str(p) for p in info.value.problems])
            assert all(("ligne" if lang == "fr" else "line") in p.where for p in hit)
    finally:
        set_language("fr")
