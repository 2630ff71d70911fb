"""The Playtest page's game selector, OVERKILL's table against a bot and the box games' batches."""

from __future__ import annotations

import json
import random

import pytest
from test_app import SQLITE, app_env, no_exception, page_test, texts  # noqa: F401 - fixture

from cardbase.games import registry

pytestmark = [SQLITE, pytest.mark.usefixtures("app_env")]


def _overkill(at, *, mode: str = "table"):
    at.session_state["pt_gamecode"] = "overkill"
    at.session_state["ok_mode"] = mode
    return at.run()


def _log(at) -> str:
    return "\n".join(str(x.value) for x in at.text)


def _play_to_the_end(at, pick=None) -> int:
    """Click draw or stand (or what ``pick`` chooses) until the game is over; the clicks made."""
    rng = random.Random(5)
    for clicks in range(300):
        if any("Partie terminée" in s.value for s in [*at.success, *at.error, *at.info]):
            return clicks
        button = pick(at) if pick else None
        if button is None:
            draw = at.button(key="ok_draw")
            button = draw if not draw.disabled and rng.random() < 0.5 else at.button(key="ok_pass")
        button.click().run()
        no_exception(at)
    raise AssertionError("the OVERKILL game did not end")


def test_the_selector_lists_every_registered_game_and_opens_on_nespanini() -> None:
    at = page_test("playtest").run()
    no_exception(at)
    selector = at.selectbox(key="pt_gamecode")
    assert set(selector.options) == {"NesPanini", "OVERKILL", "CT vs Terror", "Overseers",
                                     "15 en un tour (stop ou encore)",
                                     "Le Huit",  # written as data: data/rules/huit.toml
                                     "Enchères d'équipe (exemple)",  # data/rules/encheres.toml
                                     "Atout",  # data/rules/atout.toml
                                     "Cueillette",  # data/rules/cueillette.toml
                                     "Menteur",  # data/rules/menteur.toml
                                     "Marché (exemple)"}  # data/rules/marche.toml
    assert selector.options[0] == "NesPanini" and selector.value == "nespanini"
    assert at.button(key="pt_game_new")  # NesPanini's page, unchanged


def test_a_game_without_an_engine_says_so_and_links_to_its_cards_and_printing(monkeypatch) -> None:
    # every seed game has an engine now: a game registered without one (as a new game would be)
    code = "sansmoteur"
    monkeypatch.setitem(registry.REGISTRY, code, registry.GameSpec(code, 1, 6, "box"))
    at = page_test("playtest")
    at.session_state["pt_gamecode"] = code
    at.run()
    no_exception(at)
    assert "Ce jeu n'a pas encore de moteur" in at.info[0].value
    links = "\n".join(m.value for m in at.markdown)
    assert "](cards)" in links and "](print)" in links
    assert not at.button  # nothing to play


def test_views_come_from_one_table_with_a_generic_view_for_box_games(monkeypatch) -> None:
    from cardbase.ui import playtest, playtest_box, playtest_overkill

    assert playtest.view_for("overkill") is playtest_overkill.render
    assert playtest.view_for("nespanini") is playtest.nespanini_view
    assert playtest.view_for("ctterror") is not playtest_box.no_engine
    monkeypatch.setitem(registry.REGISTRY, "sans", registry.GameSpec("sans", 2, 4, "box"))
    assert playtest.view_for("sans") is playtest_box.no_engine
    # a new box game with an engine and no line in VIEWS gets the batches at once
    spec = registry.GameSpec("newbox", 2, 4, "box", build=registry.REGISTRY["overkill"].build)
    monkeypatch.setitem(registry.REGISTRY, "newbox", spec)
    assert playtest.view_for("newbox") is playtest_box.render
    monkeypatch.setitem(playtest.VIEWS, "newbox", "cardbase.ui.playtest_overkill:render")
    assert playtest.view_for("newbox") is playtest_overkill.render


def test_an_overkill_game_against_the_greedy_bot_played_to_its_end() -> None:
    at = _overkill(page_test("playtest"))
    no_exception(at)
    assert at.selectbox(key="ok_level").value == "greedy"
    at.button(key="ok_new").click().run()
    no_exception(at)
    shown = texts(at)
    for words in ("Vos lignes", "Lignes du bot", "Vos atouts", "cachée"):
        assert words in shown, words
    assert [m.label for m in at.metric][:5] == ["Manche", "Objectif", "Pari", "Scores (vous / bot)",
                                                "Minuteurs"]
    assert "Carte face cachée du bot" in shown  # its face-down cards are backs
    assert at.button(key="ok_draw").label == "Piocher" and at.button(key="ok_pass").label == "Poser (passer)"
    assert "Vos atouts passifs en jeu" in shown and "Atouts passifs du bot en jeu" in shown

    def backs_match_the_hidden_cards(at):
        """Every run shows as many backs as the bot has face-down cards, and never their values."""
        from cardbase.ui import playtest_overkill as ok

        state, _texts, _reveals = ok.replay_table(at.session_state["ok_game"])
        if not state.is_terminal():
            values = [m.value for m in at.markdown]
            head = next(i for i, v in enumerate(values) if v.startswith("**Lignes du bot**"))
            bot_lines = values[head + 1]
            assert bot_lines.count("<div") == 2  # its red and black lines
            backs = bot_lines.count('title="Carte face cachée du bot"')
            assert backs == sum(state._face_down(1, c) for c in (0, 1))
        return None

    clicks = _play_to_the_end(at, backs_match_the_hidden_cards)
    assert clicks >= 2
    final = next(s.value for s in [*at.success, *at.error, *at.info] if "Partie terminée" in s.value)
    assert any(w in final for w in ("gagné", "perdu", "égalité"))
    log = _log(at)
    assert "— Manche 1 :" in log and "Fin de la manche 1" in log and "Partie terminée : un score à zéro." in log
    assert "Vous posez." in log and ("Le bot pose." in log or "Le bot pioche" in log)
    assert any(e.label.startswith("Fin de la manche") for e in at.expander)  # the last round face up
    assert not [b for b in at.button if b.key in ("ok_draw", "ok_pass")]  # nothing left to play
    record = at.session_state["ok_game"]
    json.dumps(record)  # plain values only: seed, actions, bot, options
    assert set(record) == {"seed", "actions", "bot", "options"} and record["bot"] == "greedy"


def test_an_atout_is_played_with_its_button_and_shows_in_the_log() -> None:
    at = _overkill(page_test("playtest"))
    at.button(key="ok_new").click().run()

    def atout(at):
        playable = [b for b in at.button if b.key and b.key.startswith("ok_atout_") and not b.disabled]
        return playable[0] if playable else None

    played = None
    for _ in range(40):
        button = atout(at)
        if button is not None:
            played = button.label
            button.click().run()
            break
        at.button(key="ok_pass").click().run()
    no_exception(at)
    assert played and played.startswith("Jouer ")
    assert f"Vous : {played}." in _log(at)


def test_the_overkill_table_in_english() -> None:
    at = _overkill(page_test("playtest", lang="en"))
    at.button(key="ok_new").click().run()
    no_exception(at)
    shown = texts(at)
    assert "Your lines" in shown and "The bot's lines" in shown
    assert at.button(key="ok_draw").label == "Draw"
    assert "Round 1:" in _log(at)


def test_an_overkill_batch_draws_seats_cards_endings_and_rounds() -> None:
    at = _overkill(page_test("playtest"), mode="batch")
    no_exception(at)
    at.number_input(key="okb_games").set_value(40).run()
    at.selectbox(key="okb_bot_1").select("random").run()
    at.button(key="okb_go").click().run()
    no_exception(at)
    assert at.metric[1].value == "40"  # games (after the players' count)
    charts = at.get("vega_lite_chart")
    assert len(charts) == 4  # seats, cards, endings, rounds
    cards = at.dataframe[0].value
    assert len(cards) == 19  # every atout of the box
    result = at.session_state["okb_result"]
    json.dumps(result)
    assert result["report"]["bots"] == ["greedy", "random"] and len(result["rounds"]) == 40
    assert "Taux de victoire par place" in texts(at)


def test_an_overkill_batch_shows_the_measures_of_a_good_game() -> None:
    """A hand-written engine's batch view measures it like a game written as data: each measure
    with its interval and its meaning, the same figures as ``measures()`` on the same seed."""
    from cardbase.playtest.measures import measures
    from cardbase.ui.playtest_box import game_cards

    at = _overkill(page_test("playtest"), mode="batch")
    at.number_input(key="okb_games").set_value(12).run()
    at.button(key="okb_measures").click().run()
    no_exception(at)
    frame = at.table[-1].value
    rows = dict(zip(frame["Mesure"], frame["IC 95 %"]))
    assert {"Victoires du premier joueur", "Vainqueur connu après", "Changements de meneur",
            "Écart de niveau (greedy contre random)", "Décisions qui changent l'issue"} <= set(rows)
    assert all(" – " in rows[k] for k in ("Victoires du premier joueur", "Changements de meneur"))
    m = at.session_state["okb_measures_result"]
    game = registry.get("overkill").build(tuple(game_cards("overkill")), 2)
    assert m == measures(game, games=12, seed=0, bots=["greedy", "greedy"], skill_games=12,
                         outcome_games=12, code="overkill")


def test_the_round_end_reveal_matches_the_engine() -> None:
    """Every round's face-up lines give the winner the engine logged (overkills, then points),
    whether the round ended by two stands, two overkills or an empty timer (OK3)."""
    from cardbase.games.bots.registry import make_bot
    from cardbase.ui import playtest_overkill as ok

    reasons = set()
    for seed, options in ((1, {}), (2, {"timer": 2}), (3, {"timer": 3}), (4, {})):
        game = ok.engine_game(options)
        state = game.new_state(seed)
        bots = [make_bot("random", seed=seed), make_bot("greedy")]
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        record = {"seed": seed, "actions": list(state.history), "bot": "greedy", "options": options}
        replayed, _texts, reveals = ok.replay_table(record)
        ends = [ev for ev in replayed.events if ev[0] == "round_end"]
        assert len(reveals) == len(ends)
        for rev, ev in zip(reveals, ends, strict=True):
            _, rnd, reason, winner, _stake, _scores = ev
            reasons.add(reason)
            o, p = rev["overkills"], rev["points"]
            expected = (0 if o[0] < o[1] else 1) if o[0] != o[1] else (-1 if p[0] == p[1] else (0 if p[0] > p[1] else 1))
            assert rev["round"] == rnd and expected == winner
            sums = [[sum(line) for line in rev["lines"][q]] for q in (0, 1)]
            assert [sum(s > rev["objective"] for s in sums[q]) for q in (0, 1)] == o
    assert {"passes", "timer"} <= reasons


def test_helpers_say_what_they_see_in_words() -> None:
    from cardbase.games.overkill.rules import OVERSEER, RETRACER, SNAKE_EYE, SPY
    from cardbase.ui import playtest_overkill as ok

    words = ok.info_lines(((OVERSEER, (2, 5, 9)), (RETRACER, (1, 1, 4)), (SNAKE_EYE, 1), (SPY, False)))
    assert words == ["Overseer : la prochaine carte vaut 2, 5, 9 (l'une de ces valeurs).",
                     "Retracer : cartes que vous n'avez pas vues : 1, 1, 4.",
                     "Snake eye : la prochaine carte est noire.",
                     "Spy : la valeur de la prochaine carte n'est pas dans vos lignes."]


def test_a_game_with_an_engine_but_no_view(monkeypatch) -> None:
    """A box game gets batches at once; a deck game is told to use the command line."""
    build = registry.REGISTRY["overkill"].build
    monkeypatch.setitem(registry.REGISTRY, "newbox", registry.GameSpec("newbox", 2, 3, "box", build=build))
    monkeypatch.setitem(registry.REGISTRY, "newdecks", registry.GameSpec("newdecks", 2, 2, "decks", build=build))
    at = page_test("playtest")
    at.session_state["pt_gamecode"] = "newdecks"
    at.run()
    no_exception(at)
    assert "pas encore de vue sur cette page" in at.info[0].value
    at.selectbox(key="pt_gamecode").select("newbox").run()
    no_exception(at)
    assert at.number_input(key="pgb_newbox_players").value == 2  # 2 to 3 players: a choice
    assert at.button(key="pgb_newbox_go")


def test_a_team_report_shows_its_teams() -> None:
    from streamlit.testing.v1 import AppTest

    def page() -> None:
        from cardbase.ui.playtest_box import show_report

        seats = [{"seat": i + 1, "bot": "greedy", "team": "AB"[i % 2], "wins": 3, "win_rate": 0.3,
                  "ci95": [0.1, 0.6]} for i in range(4)]
        show_report({"games": 10, "ties": 1, "mean_turns": 12.0, "mean_rounds": 1.0, "seats": seats,
                     "ended_by": {"team": 9, "turn_limit": 1},
                     "teams": {"A": {"wins": 6, "win_rate": 0.6, "ci95": [0.31, 0.83]},
                               "B": {"wins": 3, "win_rate": 0.3, "ci95": [0.11, 0.6]}}}, [1] * 10)

    at = AppTest.from_function(page, default_timeout=60).run()
    no_exception(at)
    teams = at.dataframe[0].value
    assert list(teams.iloc[:, 0]) == ["A", "B"] and teams.iloc[0, 2] == "60,0\u00a0%"  # written the French way
    assert len(at.get("vega_lite_chart")) == 3  # seats, endings, rounds (no cards)
    assert "limite de sécurité" in at.warning[0].value


def test_a_game_created_in_the_app_is_listed_with_what_it_can_do() -> None:
    """A game of the database without an engine (as the Jeux page creates) is in the Playtest
    selector, and its page says what works for it today."""
    from cardbase.catalog import gamesdata
    from cardbase.storage.db import session_scope

    with session_scope() as s:
        gamesdata.create_game(s, code="tarotique", name="Tarotique", min_players=3, max_players=5,
                              deck_size=30)
    at = page_test("playtest").run()
    assert "tarotique" in at.selectbox(key="pt_gamecode").options or \
        "Tarotique" in at.selectbox(key="pt_gamecode").options
    at.selectbox(key="pt_gamecode").set_value("tarotique").run()
    no_exception(at)
    assert "Ce jeu n'a pas encore de moteur" in at.info[0].value
    assert "nespanini" not in at.info[0].value and "NesPanini" in at.info[0].value  # names, not codes
    links = "\n".join(m.value for m in at.markdown)
    assert "0 carte(s) en 0 édition(s)" in links and "decks de 30 cartes" in links
    assert "](cards)" in links and "](print)" in links and "](decks)" in links


def test_a_long_bot_turn_writes_its_moves_as_it_goes(monkeypatch) -> None:
    """While the bots play, the page gets the count of their moves now and then: a person sees it
    move, and writing it is where Streamlit notices another click and cancels this one."""
    from cardbase.games.pushluck.state import replay
    from cardbase.ui import playtest_shared as playtest_box  # the tables' shared bot loop

    written: list[str] = []

    class Slot:
        def caption(self, text: str) -> None:
            written.append(text)

        def empty(self) -> None:
            written.append("")

    clock = iter(range(0, 10**6))
    monkeypatch.setattr(playtest_box.st, "empty", lambda: Slot())
    monkeypatch.setattr(playtest_box.time, "monotonic", lambda: float(next(clock)))  # a second a move
    from cardbase.playtest.cards import DATA_DIR, load_edition_defs

    cards = load_edition_defs([DATA_DIR / "editions" / "P15.toml"])
    game = registry.playable("pushluck").build(cards, 3)
    for seed in range(100):  # a deal where seat 1's greedy turn takes a few flips
        written.clear()
        done = playtest_box.bots_until(replay(game, seed, []), human=1, bot="greedy", seed=seed, played=0)
        if len(done) >= 3:
            break
    assert len(done) >= 3 and written[-1] == ""  # the count is cleared when the bots are done
    counts = [w for w in written if w]
    assert len(counts) == len(done)  # a second a move here: every move is written
    assert counts[-1].startswith(f"{len(done)} coup(s) des bots joué(s)")
