"""sim rulings' verdict judges the measures of a good game too, not only the seats' win rates: a
blind test found Menteur's MN10 called « pas d'effet démontré » on its seats while it lengthened
the games and halved the first player's wins. Each measure is tested game by game on the same
deals (paired), and every test of a batch is corrected together (Holm)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.playtest.cards import load_edition_defs
from cardbase.playtest.verdict import MEASURES, holm, judge, paired_test, verdict_text
from cardbase.playtest.weights import weigh

ROOT = Path(__file__).resolve().parent.parent
CARDS = load_edition_defs(sorted((ROOT / "data" / "editions").glob("*.toml")))
SQLITE = pytest.mark.sqlite_only("the command-line contract does not depend on the database")
runner = CliRunner()


def _weigh(code: str, seed: int, only: list[str] | None = None) -> dict:
    return weigh(code, [c for c in CARDS if c.game == code], games=40, seed=seed, measures_games=40,
                 only=only, workers=1)


def test_a_reading_that_shortens_the_games_but_moves_no_seat_names_the_length_change() -> None:
    """15 en un tour, PL14 « tour complet » = non: the game stops at once when a player reaches the
    target — shorter games, the seats within chance (judged on seats alone it was « no effect »)."""
    res = _weigh("pushluck", 0, ["PL14"])
    (v,) = res["variants"]
    assert not v["seats_significant"] and not any(s["significant"] for s in v["seats"])
    assert "length" in v["measures_moved"] and v["significant"]
    length = next(t for t in v["measure_tests"] if t["measure"] == "length")
    assert length["after"] < length["before"] and length["paired_ci95"][1] < 0
    assert length["pairs"] == 40 and length["p_holm"] <= 0.05
    fr = verdict_text(v, res, lang="fr")
    assert fr.startswith("effet démontré : ") and "pas d'effet" not in fr
    # before → after [the reading's interval], then the paired difference [its interval]
    assert "parties 3,1 → 2,5 tours [2,0–3,0], écart -0,6 [-0,8 ; -0,5]" in fr
    assert "games 3.1 → 2.5 turns [2.0–3.0], difference -0.6 [-0.8; -0.5]" in verdict_text(v, res, lang="en")
    # the per-game series the tests used are not kept in the result (nor in --json)
    assert "series" not in res["baseline"]["measures"] and "series" not in v["measures"]
    corr = res["correction"]
    assert (corr["test"], corr["method"], corr["level"]) == ("paired", "holm", 0.05)
    assert corr["tests"] + corr["unchanged"] == 1 + len(v["measure_tests"])  # two mirrored seats: one question
    leads = next(t for t in v["measure_tests"] if t["measure"] == "leads")  # no lead changes either way
    assert corr["unchanged"] == 2 and leads["paired_ci95"] == [0, 0] and leads["p_holm"] == 1


def test_a_reading_that_moves_nothing_says_no_effect_shown() -> None:
    """Overseers' OV1 on 40 seeded games: no side, no measure away from chance even before the
    correction — « pas d'effet démontré »."""
    res = _weigh("overseers", 0)
    (v,) = res["variants"]
    assert {t["measure"] for t in v["measure_tests"]} >= {"length", "first", "comebacks", "leads", "decisive"}
    assert all(t["p"] > 0.05 for t in v["measure_tests"]) and all(s["p"] > 0.05 for s in v["seats"])
    assert not v["significant"] and v["measures_moved"] == []
    assert verdict_text(v, res, lang="fr") == "pas d'effet démontré"
    assert verdict_text(v, res, lang="en") == "no effect shown"


def test_the_correction_for_many_tests_is_applied() -> None:
    """Overseers' OV1 on seed 1: the comebacks' raw p is under 5 % but, among the batch's ten
    tests, Holm's adjusted p is not — one test in twenty passes 5 % by chance alone."""
    res = _weigh("overseers", 1)
    (v,) = res["variants"]
    lucky = [t for t in v["measure_tests"] if t["p"] < 0.05]
    assert lucky and all(t["p_holm"] > 0.05 and not t["significant"] for t in lucky)
    corr = res["correction"]
    assert corr["tests"] + corr["unchanged"] == 3 + len(v["measure_tests"])  # three seats: three questions
    assert verdict_text(v, res, lang="fr") == "pas d'effet démontré"


def test_holm_adjusts_the_smallest_p_most_and_keeps_the_order() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5]) == [0.5] and holm([0.2, 0.9]) == pytest.approx([0.4, 0.9])
    assert holm([]) == []


def test_a_paired_measure_counts_only_the_games_where_it_counts_under_both_readings() -> None:
    t = paired_test([1.0, 0.0, None, 1.0, 0.0], [1.0, 1.0, 1.0, None, 1.0])
    assert t["pairs"] == 3 and t["mean"] == pytest.approx(2 / 3)
    assert paired_test([None, 1.0], [1.0, None]) is None  # under two pairs: no test
    same = paired_test([3.0, 5.0], [4.0, 6.0])  # every game one turn longer: no spread, certain
    assert same["mean"] == 1 and same["p"] == 0.0


def test_a_figure_equal_in_every_game_is_not_counted_among_the_tests() -> None:
    """A reading the bots never brought into play (every figure the same in every game) asks no
    question: it does not dilute the one figure another reading moves (raw p near 2 %)."""
    games = 50
    base = {key: [10.0] * games for key, *_ in MEASURES}
    moved = dict(base, length=[11.0] * 15 + [9.0] * 5 + [10.0] * 30)
    block: dict = {}
    for _, path, *_ in MEASURES:  # the comebacks' block holds two figures
        block.setdefault(path[0], {}).update({path[1]: 10.0, path[2]: [9.0, 11.0]})
    res = judge({"teams": False, "baseline": {"seats": [], "measures": {**block, "series": base}},
                 "variants": [{"seats": [], "questions": 1, "measures": {**block, "series": dict(base)}},
                              {"seats": [], "questions": 1, "measures": {**block, "series": moved}}]})
    still, moving = res["variants"]
    assert res["correction"]["tests"] == 1 and res["correction"]["unchanged"] == 2 * len(MEASURES) - 1
    length = moving["measure_tests"][0]
    assert length["measure"] == "length" and 0.01 < length["p"] < 0.05 and length["p_holm"] == length["p"]
    assert moving["measures_moved"] == ["length"] and not still["significant"]
    # counted among all fourteen, it would not pass
    assert holm([length["p"]] + [1.0] * 13)[0] > 0.05


def _fake_batch(rng: random.Random, readings: int, games: int = 60) -> dict:
    """A batch where no reading changes anything: every figure of every reading drawn like the
    default's (paired noise)."""
    def series() -> dict:
        return {key: [rng.gauss(0, 1) for _ in range(games)] for key, *_ in MEASURES}

    def block() -> dict:
        out: dict = {}
        for _, path, *_ in MEASURES:  # the comebacks' block holds two figures
            out.setdefault(path[0], {}).update({path[1]: 0.0, path[2]: [0.0, 0.0]})
        return out

    base = series()
    variants = []
    for _ in range(readings):
        noisy = {k: [x + rng.gauss(0, 1) for x in xs] for k, xs in base.items()}
        variants.append({"seats": [], "questions": 1, "measures": {**block(), "series": noisy}})
    return {"teams": False, "baseline": {"seats": [], "measures": {**block(), "series": base}},
            "variants": variants}


def test_under_no_effect_a_batch_names_an_effect_about_one_time_in_twenty() -> None:
    """Seven measures under three readings (21 tests), nothing moved: the share of batches whose
    verdicts name some effect stays near 5 % with Holm; uncorrected, well over half of them."""
    rng = random.Random(11)
    batches = 200
    corrected = plain = 0
    for _ in range(batches):
        res = judge(_fake_batch(rng, 3))
        corrected += any(v["significant"] for v in res["variants"])
        plain += any(t["p"] <= 0.05 for v in res["variants"] for t in v["measure_tests"])
    assert corrected / batches < 0.09 and plain / batches > 0.4, (corrected, plain)


@SQLITE
def test_sim_rulings_prints_what_a_reading_moves_in_both_languages(cli_env) -> None:
    args = ["sim", "rulings", "pushluck", "--only", "PL14", "--games", "40", "--measures-games", "40"]
    fr = runner.invoke(app, args)
    assert fr.exit_code == 0, fr.output
    line = next(x for x in fr.output.splitlines() if x.startswith("PL14"))
    assert "effet démontré : parties 3,1 → 2,5 tours [2,0–3,0]" in line
    assert "méthode de Holm" in fr.output
    en = runner.invoke(app, ["--lang", "en", *args])
    assert "effect shown: games 3.1 → 2.5 turns [2.0–3.0]" in en.output, en.output
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    (v,) = data["variants"]
    assert v["measures_moved"][0] == "length" and data["correction"]["method"] == "holm"
