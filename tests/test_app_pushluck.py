"""15 en un tour on the Playtest page: a game played by clicking, the solver's advice, box variants."""

from __future__ import annotations

from fractions import Fraction

import pytest
from test_app import SQLITE, app_env, no_exception, page_test  # noqa: F401 - fixture

pytestmark = [SQLITE, pytest.mark.usefixtures("app_env")]


def _page(mode: str = "table"):
    at = page_test("playtest")
    at.session_state["pt_gamecode"] = "pushluck"
    at.session_state["pl_mode"] = mode
    return at.run()


def test_a_game_is_played_to_its_end_by_clicking() -> None:
    at = _page()
    no_exception(at)
    for _ in range(200):
        if any("Partie terminée" in s.value for s in at.success):
            break
        flips = [b for b in at.button if (b.key or "").startswith("pl_flip_")]
        stop = [b for b in at.button if b.key == "pl_stop"]
        again = [b for b in at.button if b.key == "pl_reshuffle"]
        points = int(next(m.value for m in at.metric if m.label == "Vos points du tour"))
        button = (stop[0] if stop and points >= 15 else flips[0] if flips else
                  again[0] if again and points < 15 else stop[0])
        button.click().run()
        no_exception(at)
    else:
        raise AssertionError("the game did not end")
    log = "\n".join(str(x.value) for x in at.text)
    assert "retourne" in log or "Retourne" in log  # the turn log, in French


def test_the_solver_advice_is_the_exact_probability() -> None:
    from cardbase.games.pushluck.material import parse_box
    from cardbase.games.pushluck.solver import Solver
    from cardbase.ui.playtest_pushluck import KEY, advice, engine_game

    at = _page()
    at.toggle(key="pl_advice").set_value(True).run()
    no_exception(at)
    shown = next(i.value for i in at.info if "Si vous continuez" in i.value)
    record = at.session_state[KEY]
    from cardbase.games.pushluck.state import replay

    state = replay(engine_game(record["players"]), record["seed"], record["actions"])
    assert f"{100 * advice(state):.0f} %" in shown
    # at the start of a turn, the advice is the solver's P(15) of the box
    start = Solver(parse_box("+3,+5,x2,protection,perdre-tout")).reach()[0]
    assert start == Fraction(103, 240)


def test_box_variants_are_compared_with_exact_figures() -> None:
    at = _page("variants")
    at.button(key="pl_compare").click().run()
    no_exception(at)
    rows = at.session_state["pl_cmp"]
    assert [r["box"] for r in rows][:2] == ["+3,+5,x2,protection,perdre-tout", "+1,+3,x2,protection,perdre-tout"]
    assert abs(rows[0]["p15"] - 103 / 240) < 1e-12 and abs(rows[1]["p15"] - 407 / 1440) < 1e-12
    assert rows[0]["seat1"] + rows[0]["last_seat"] == pytest.approx(1.0)
