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
        finals = [(kind, s.value) for kind, box in (("success", at.success), ("info", at.info),
                                                     ("error", at.error))
                  for s in box if "Partie terminée" in s.value]
        if finals:  # a win green, a shared win blue, a loss red
            kind, text = finals[0]
            if "gagné par la place" in text:
                assert kind == "error", finals
            else:
                assert "vous avez gagné" in text and kind in ("success", "info"), finals
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


def _state(at):
    from cardbase.games.pushluck.state import replay
    from cardbase.ui.playtest_pushluck import KEY, record_game

    record = at.session_state[KEY]
    return replay(record_game(record), record["seed"], record["actions"])


def _click_until(at, done, limit: int = 300):
    """Play greedily (go until 15, then stop) until ``done(at)``."""
    for _ in range(limit):
        if done(at):
            return at
        flips = [b for b in at.button if (b.key or "").startswith("pl_flip_")]
        stop = [b for b in at.button if b.key == "pl_stop"]
        again = [b for b in at.button if b.key == "pl_reshuffle"]
        points = _state(at).points
        button = (stop[0] if stop and points >= 15 else flips[0] if flips else
                  again[0] if again and points < 15 else stop[0])
        button.click().run()
        no_exception(at)
    raise AssertionError("not reached")


def test_the_advice_gives_the_chance_to_win_going_on_and_stopping() -> None:
    from cardbase.ui.playtest_pushluck import advice, win_advice

    at = _page()
    at.toggle(key="pl_advice").set_value(True).run()
    no_exception(at)
    shown = next(i.value for i in at.info if "Si vous continuez" in i.value)
    state = _state(at)
    stop, go = win_advice(state)
    assert stop is None  # a turn opens with a flip: no stop yet
    assert f"{100 * go:.1f}".replace(".", ",") + " % de gagner la partie" in shown
    assert f"{100 * advice(state):.1f}".replace(".", ",") + " % de finir ce tour" in shown
    # at the start of a turn, seat 1's chance is its share of the game under optimal play
    from cardbase.games.pushluck.material import parse_box
    from cardbase.games.pushluck.solver import Solver

    start = Solver(parse_box("+3,+5,x2,protection,perdre-tout")).reach()[0]
    assert start == Fraction(103, 240) and abs(advice(state) - 103 / 240) < 1e-12
    assert abs(go - Solver(parse_box("+3,+5,x2,protection,perdre-tout")).seats(2).win[0]) < 1e-9


def test_at_32_points_the_advice_says_the_risk_of_going_on() -> None:
    """The finding: 32 points, no Protection, Perdre tout face down: going on loses all one time
    in five at worst; the advice must not say « 100 % »."""
    from cardbase.games.pushluck.material import parse_box
    from cardbase.games.pushluck.rules import Rules
    from cardbase.games.pushluck.state import Game
    from cardbase.ui.playtest_pushluck import advice, win_advice

    g = Game(parse_box("+3,+5,x2,protection,perdre-tout"), Rules(), 2)
    for seed in range(2000):
        s = g.new_state(seed)
        while s.player == 0 and s.points < 32:
            s.apply_action(1 if s.full else 2)
        if s.player == 0 and s.points >= 15 and s.shields == 0 and s.down and \
                any(s.game.kind[k] == "lose" for k in s.down):
            lose = sum(1 for k in s.down if s.game.kind[k] == "lose") / len(s.down)
            assert abs(advice(s) - (1 - lose)) < 1e-12 and advice(s) < 1
            stop, go = win_advice(s)
            assert stop > go  # stopping is the better choice there
            return
    raise AssertionError("no such state")


def test_the_scoreboard_after_the_game_is_yours_and_the_toggle_is_kept() -> None:
    at = _page()
    at.toggle(key="pl_advice").set_value(True).run()
    _click_until(at, lambda a: any("Partie terminée" in s.value for s in [*a.success, *a.info, *a.error]))
    state = _state(at)
    labels = {m.label: m.value for m in at.metric}
    assert "Vos points du tour" not in labels
    assert int(labels["Votre score final"]) == (state.round_scores[0] or 0)
    assert not any("Retournées dans ce passage" in str(m.value) for m in at.markdown)
    at.button(key="pl_new").click().run()
    no_exception(at)
    assert at.toggle(key="pl_advice").value is True  # remembered across new games
    assert any("de gagner la partie" in i.value for i in at.info)


def test_six_players_offer_no_exact_optimal_bot() -> None:
    at = _page()
    assert "Optimal (calcul exact)" in at.selectbox(key="pl_bot").options  # two players: offered
    at.number_input(key="pl_players").set_value(6).run()
    no_exception(at)
    assert "Optimal (calcul exact)" not in at.selectbox(key="pl_bot").options
    assert any("jusqu'à 5 joueurs" in c.value for c in at.caption)
    at.button(key="pl_new").click().run()
    at.toggle(key="pl_advice").set_value(True).run()
    no_exception(at)
    assert any("jusqu'à 5 joueurs seulement" in i.value for i in at.info)


def _job(players: int):
    from cardbase.ui.playtest_pushluck import solver_job

    return solver_job(players, False)


def test_five_optimal_bots_are_built_in_the_background_and_can_be_cancelled() -> None:
    """5 players, optimal bots: the solver takes minutes, so the click answers at once with the
    time spent and a cancel button; cancelling stops the build and keeps nothing of it."""
    import time

    at = _page()
    at.number_input(key="pl_players").set_value(5).run()
    assert "Optimal (calcul exact)" in at.selectbox(key="pl_bot").options
    assert any("au moins une minute" in c.value and "annulé" in c.value for c in at.caption)  # its cost
    at.selectbox(key="pl_bot").set_value("optimal").run()
    start = time.perf_counter()
    at.button(key="pl_new").click().run()
    assert time.perf_counter() - start < 10  # the click answers; the build goes on in its thread
    no_exception(at)
    assert any("Calcul exact de la stratégie optimale à 5 joueurs" in i.value for i in at.info)
    assert not [b for b in at.button if (b.key or "").startswith("pl_flip_")]  # not before it is ready
    job = _job(5)
    assert job is not None and not job.done.is_set()
    at.button(key="pl_cancel").click().run()
    no_exception(at)
    assert job.done.wait(30)
    assert not job.ok and 5 not in job.game.solver()._seat_cache
    assert any("Calcul annulé" in w.value for w in at.warning)


def test_four_optimal_bots_play_once_the_background_build_is_done() -> None:
    """4 players, optimal bots: built in the background (about 30 s), then the game is played and
    the advice gives the exact chances to win at 4 players."""
    at = _page()
    at.number_input(key="pl_players").set_value(4).run()
    at.selectbox(key="pl_bot").set_value("optimal").run()
    at.button(key="pl_new").click().run()
    no_exception(at)
    job = _job(4)
    assert job is not None
    assert job.done.wait(600) and job.ok, job.error
    at.run()
    no_exception(at)
    assert not any("Calcul exact de la stratégie" in i.value for i in at.info)
    assert [b for b in at.button if (b.key or "").startswith("pl_flip_")]
    at.toggle(key="pl_advice").set_value(True).run()
    _click_until(at, lambda a: _state(a).is_terminal() or (_state(a).points >= 15 and _state(a).player == 0))
    state = _state(at)
    if not state.is_terminal():
        from cardbase.ui.playtest_pushluck import win_advice

        stop, go = win_advice(state)
        shown = next(i.value for i in at.info if "Si vous continuez" in i.value)
        assert f"{100 * go:.1f} % de gagner la partie".replace(".", ",") in shown
        assert stop is not None and f"{100 * stop:.1f} %".replace(".", ",") in shown


def test_three_optimal_bots_answer_a_click() -> None:
    at = _page()
    at.number_input(key="pl_players").set_value(3).run()
    at.selectbox(key="pl_bot").set_value("optimal").run()
    at.button(key="pl_new").click().run()
    no_exception(at)
    job = _job(3)  # a few seconds, in the background like 4 and 5 players: it can be cancelled
    assert job is not None and job.done.wait(300) and job.ok, job and job.error
    at.run()
    _click_until(at, lambda a: _state(a).round >= 2 or _state(a).is_terminal())


def test_box_variants_are_compared_with_exact_figures() -> None:
    at = _page("variants")
    at.button(key="pl_compare").click().run()
    no_exception(at)
    rows = at.session_state["pl_cmp"]
    assert [r["box"] for r in rows][:2] == ["+3,+5,x2,protection,perdre-tout", "+1,+3,x2,protection,perdre-tout"]
    assert abs(rows[0]["p15"] - 103 / 240) < 1e-12 and abs(rows[1]["p15"] - 407 / 1440) < 1e-12
    assert rows[0]["seat1"] + rows[0]["last_seat"] == pytest.approx(1.0)


def test_solo_advice_gives_expected_points_and_says_the_limit() -> None:
    at = _page()
    at.number_input(key="pl_players").set_value(1).run()
    at.button(key="pl_new").click().run()
    at.toggle(key="pl_advice").set_value(True).run()
    no_exception(at)
    shown = next(i.value for i in at.info if "Si vous continuez" in i.value)
    assert "24,0 points en moyenne" in shown  # the exact solo value of a round (PL12)
    assert "limite qu'aucune stratégie n'atteint" in shown
    assert "de gagner la partie" not in shown


def test_the_batch_view_seats_two_players_by_default() -> None:
    at = _page("batch")
    no_exception(at)
    assert at.number_input(key="plb_players").value == 2


def test_a_solo_batch_in_the_app_shows_scores_not_win_rates() -> None:
    at = _page("batch")
    at.number_input(key="plb_players").set_value(1).run()
    at.number_input(key="plb_games").set_value(60).run()
    at.button(key="plb_go").click().run()
    no_exception(at)
    text = " ".join(m.value for m in at.markdown)
    assert "médiane" in text and "aucun taux de victoire" in text
    from cardbase.i18n import translate

    labels = [m.label for m in at.metric]
    assert translate("fr", "games_page.games") in labels
    assert translate("fr", "games_page.ties") not in labels  # no seat figures at all


def test_the_contested_reading_of_pl6_is_a_table_option_and_the_advice_follows() -> None:
    from cardbase.games.pushluck.material import parse_box
    from cardbase.games.pushluck.solver import Solver
    from cardbase.ui.playtest_pushluck import win_advice

    at = _page()
    at.toggle(key="pl_stop15").set_value(True).run()
    at.button(key="pl_new").click().run()
    no_exception(at)
    state = _state(at)
    assert state.rules.stop_at_target is True
    _stop, go = win_advice(state)
    auto = Solver(parse_box("+3,+5,x2,protection,perdre-tout"), stop_at_target=True).seats(2).win
    assert abs(go - auto[0]) < 1e-9 and go > 0.5  # seat 1 is favoured under this reading
    # your turn is never offered at 15 or more: the flip that reaches 15 ends it
    seen = []

    def done(a) -> bool:
        s = _state(a)
        if not s.is_terminal() and s.player == 0:
            seen.append(s.points)
        return s.is_terminal()

    _click_until(at, done)
    assert seen and max(seen) < 15


def test_a_background_build_that_fails_says_why() -> None:
    """A solver the rules do not allow (a tie rule other than PL7's « first ») fails in its thread:
    the job keeps the reason, in French, and is not taken for a built solver."""
    from cardbase.games import registry
    from cardbase.playtest.cards import DATA_DIR, load_edition_defs
    from cardbase.ui.playtest_pushluck import _Job

    cards = load_edition_defs([DATA_DIR / "editions" / "P15.toml"])
    game = registry.playable("pushluck").build(cards, 3, tie="shared")
    job = _Job(game, 3)
    assert job.done.wait(60)
    assert not job.ok and job.error and "règle d'égalité" in job.error
