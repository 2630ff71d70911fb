"""CT vs Terror's Playtest table: one seat for you, bots in the others, the answers as buttons."""

from __future__ import annotations

import re

import pytest
from test_app import SQLITE, app_env, no_exception, page_test  # noqa: F401 - fixture

from cardbase import i18n

pytestmark = [SQLITE, pytest.mark.usefixtures("app_env")]


def _ctterror(at, *, mode: str = "table"):
    at.session_state["pt_gamecode"] = "ctterror"
    at.session_state["ctt_mode"] = mode
    return at.run()


def _new_game(at, players: int = 4, seat: int = 0, level: str = "greedy"):
    at.number_input(key="ctt_players").set_value(players).run()
    at.selectbox(key="ctt_seat").set_value(seat).run()
    at.selectbox(key="ctt_level").set_value(level).run()
    at.button(key="ctt_new").click().run()
    no_exception(at)
    return at


def _action_buttons(at) -> list:
    return [b for b in at.button if (b.key or "").startswith("ctt_act_")]


def _page_text(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [x.value for x in at.text]
    parts += [b.label for b in at.button] + [i.value for i in at.info] + [s.value for s in [*at.success, *at.error]]
    return "\n".join(str(p) for p in parts)


def _template_words() -> list[str]:
    """The fixed parts of the table's French sentences (they name rules, as « un Masque »)."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "cardbase" / "i18n"
    texts = list(tomllib.loads((root / "fr.toml").read_text("utf-8"))["ctterror_page"].values())
    engine = tomllib.loads((root / "messages" / "ctterror.toml").read_text("utf-8"))["ctterror"]
    texts += [v["fr"] for part in ("action", "event") for v in engine[part].values()]
    chunks = {c for text in texts for c in re.split(r"\{[^}]*\}", text) if len(c.strip()) > 3}
    return sorted(chunks, key=len, reverse=True)


def _log(at) -> str:
    return "\n".join(str(x.value) for x in at.text)


def test_the_selector_opens_the_ctterror_table_with_batches_next_to_it() -> None:
    from cardbase.ui import playtest, playtest_ctterror

    assert playtest.view_for("ctterror") is playtest_ctterror.render
    at = _ctterror(page_test("playtest"))
    no_exception(at)
    assert at.number_input(key="ctt_players").value == 4
    level = at.selectbox(key="ctt_level")
    assert level.value == "greedy" and len(level.options) == 4  # the registry's bots: random … ismcts
    assert at.selectbox(key="ctt_seat").options[:2] == ["J1 — Équipe Terroriste", "J2 — Équipe CT"]
    assert at.button(key="ctt_new")
    assert "Nouvelle partie" in at.info[0].value
    batch = _ctterror(page_test("playtest"), mode="batch")
    no_exception(batch)
    assert batch.button(key="cttb_go")  # the generic batch form, kept next to the table


def test_a_four_player_game_played_to_its_end_by_clicking_the_first_choice() -> None:
    at = _new_game(_ctterror(page_test("playtest")), players=4, seat=1)
    seats = [m.value for m in at.markdown if "J1 · " in m.value or "J4 · " in m.value]
    assert len(seats) == 2  # every player is shown with their character
    assert len(at.get("progress")) == 4  # one life bar each
    clicks = 0
    while not (at.success or at.warning or at.error):
        assert clicks < 400, "the game did not end"
        buttons = _action_buttons(at)
        assert buttons, "it is your decision but no choice is shown"
        assert at.info and at.info[0].icon == ":material/touch_app:"
        buttons[0].click().run()
        clicks += 1
        no_exception(at)
    assert clicks > 0
    final = (at.success or at.warning or at.error)[0].value
    assert final.startswith("Partie terminée")
    record = at.session_state["ctt_game"]
    from cardbase.ui import playtest_ctterror as ctt

    state = ctt.replay_state(record)
    assert state.is_terminal()
    if state.winner():  # the winning team is named in words, as the table names it, in French
        assert {"Terror": "l'équipe Terroriste a gagné", "CT": "l'équipe CT a gagné"}[state.winner()] in final
    assert not _action_buttons(at)
    log = _log(at)
    assert "Distribution : 4 joueurs" in log and "Tour de J1" in log
    assert re.search(r"subit \d+ dégâts \(reste \d+ PV\)", log)
    assert "attack" not in log and "damage" not in log  # words, not event codes


@pytest.mark.parametrize(("players", "seat", "seed"), [(4, 0, 1), (4, 3, 2), (5, 2, 3), (8, 5, 4)])
def test_a_hidden_card_of_another_player_never_appears_on_the_page(players: int, seat: int, seed: int) -> None:
    """Checked at each of your decisions (you doing nothing, so the bots keep playing cards)."""
    from cardbase.games.ctterror.state import replay
    from cardbase.ui import playtest_ctterror as ctt

    at = _open(ctt.play(ctt.new_game(players, seat, "random", seed=seed), None))
    texts = ctt._card_texts()
    checked = 0
    for _ in range(10):
        record = at.session_state["ctt_game"]
        with i18n.use_language("fr"):
            state = replay(ctt.engine_game(record["players"]), record["seed"], record["actions"])
        if state.is_terminal():
            break
        kinds = state.game.kinds
        human = record["human"]
        public = set(state.discard) | {k for k in range(len(kinds)) if state.hands[human][k]}
        public |= {entry[1] for entry in state.table}
        seen_names = {kinds[k].name for k in public}
        log = _log(at)
        hidden = {kinds[k].name for q in range(state.n) if q != human
                  for k in range(len(kinds)) if state.hands[q][k]}
        hidden = {name for name in hidden - seen_names if name not in log}
        page = _page_text(at).replace("\\", "")
        for k in range(len(kinds)):  # your cards' texts may name other cards (a Gilet names the Casque)
            if state.hands[human][k] and texts.get(kinds[k].ref):
                page = page.replace(texts[kinds[k].ref], "")
        for name in sorted(seen_names | {kinds[k].name for k in range(len(kinds)) if kinds[k].name in log},
                           key=len, reverse=True):
            page = page.replace(name, "")  # a shown « Grenade flash » is not a hidden « Grenade »
        for chunk in _template_words():  # the page's own words: « jouez-vous un Masque ? »
            page = page.replace(chunk, "")
        for name in hidden:
            assert name not in page, f"{name}, held by another player, is shown"
            checked += 1
        _action_buttons(at)[-1].click().run()
        no_exception(at)
    assert checked > 0  # some hidden card was really looked for


def test_your_hand_shows_each_card_with_its_text() -> None:
    from cardbase.ui import playtest_ctterror as ctt

    at = _new_game(_ctterror(page_test("playtest")), players=3, seat=2)
    record = at.session_state["ctt_game"]
    state = ctt.replay_state(record)
    texts = ctt._card_texts()
    page = _page_text(at)
    mine = [state.game.kinds[k] for k in range(state.game.K) if state.hands[2][k]]
    assert mine
    for kind in mine:
        assert kind.name in page.replace("\\", "")
        if texts.get(kind.ref):
            assert texts[kind.ref][:20] in page.replace("\\", "")


def test_the_table_in_english() -> None:
    at = _new_game(_ctterror(page_test("playtest", lang="en")), players=2)
    assert at.info[0].value.startswith("Your turn") or _action_buttons(at)
    assert "Your hand" in _page_text(at)
    assert "Game log" in next(e.label for e in at.expander)
    log = _log(at)
    assert "Distribution" not in log and "pioche" not in log  # the engine's log follows the language
    assert at.selectbox(key="ctt_seat").options[:2] == ["P1 — Terrorist team", "P2 — CT team"]


def _record_where(players: int, human: int, wanted, *, bot: str = "greedy", tries: int = 300) -> dict:
    """A game record (bots played) whose first decision for ``human`` satisfies ``wanted(state)``."""
    from cardbase.ui import playtest_ctterror as ctt

    for seed in range(tries):
        record = ctt.play(ctt.new_game(players, human, bot, seed=seed), None)
        state = ctt.replay_state(record)
        for _ in range(60):
            if state.is_terminal():
                break
            if wanted(state):
                return record
            legal = state.legal_actions(human)
            record = ctt.play(record, legal[-1])  # doing nothing: the bots keep the initiative
            state = ctt.replay_state(record)
    raise AssertionError("no such game found")


def _open(record: dict, lang: str = "fr"):
    at = page_test("playtest", lang=lang)
    at.session_state["ctt_game"] = record
    at.session_state["ctt_players"] = record["players"]
    at = _ctterror(at)
    no_exception(at)
    return at


def test_an_attack_on_you_is_answered_with_buttons() -> None:
    """The defence window (CT6): your armour, counter-attacks and « Ne pas se défendre » as choices."""
    from cardbase.games.ctterror.state import DEFEND, HEADSHOT_MODE

    # an ordinary attack (a head shot has its own words: test_a_head_shot_says_that_not_dodging_is_death)
    record = _record_where(4, 1, lambda s: s.phase == DEFEND and s.att[4] != HEADSHOT_MODE)
    at = _open(record)
    assert re.search(r"attaque J2 .* dégâts\) : choisissez votre réponse", at.info[0].value)
    labels = [b.label for b in _action_buttons(at)]
    assert labels[-1] == "Ne pas se défendre"
    assert len(labels) >= 1
    before = len(record["actions"])
    _action_buttons(at)[0].click().run()
    no_exception(at)
    assert len(at.session_state["ctt_game"]["actions"]) > before  # your answer, then the bots'
    assert "J2" in _log(at)


def test_statuses_of_a_grenade_are_shown_in_words() -> None:
    """A Grenade flash or à gaz on the table (CT13, CT14) shows on the seats it affects."""
    from cardbase.ui import playtest_ctterror as ctt

    record = _record_where(4, 0, lambda s: bool(s.table))
    state = ctt.replay_state(record)
    page = _page_text(_open(record))
    assert "A lancé Grenade" in page.replace("\\", "")
    owner = state.table[0][0]
    affected = [p for p in range(state.n) if state.table[0][2] >> p & 1 and state.alive[p]]
    if affected:
        assert "Aveuglé" in page or "Gazé : ne peut pas attaquer" in page
    assert ctt.statuses(state, owner)


@pytest.mark.parametrize("players", [2, 8])
def test_two_and_eight_seats(players: int) -> None:
    at = _new_game(_ctterror(page_test("playtest")), players=players, seat=players - 1, level="random")
    assert len(at.get("progress")) == players
    assert at.session_state["ctt_game"]["human"] == players - 1
    assert _action_buttons(at) or at.success or at.warning or at.error


def test_the_turn_limit_is_said(monkeypatch) -> None:
    """A game stopped by the turn limit (CT18) says there is no winner."""
    from cardbase.games.ctterror.rules import Rules
    from cardbase.ui import playtest_ctterror as ctt

    record = ctt.new_game(2, 0, "greedy", seed=3)
    game = ctt.engine_game(2)
    monkeypatch.setattr(game, "rules", Rules(max_turns=1))
    record = ctt.play(record, None)
    record = ctt.play(record, ctt.replay_state(record).legal_actions(0)[-1])
    at = _open(record)
    assert at.warning and "limite de tours" in at.warning[0].value


def test_what_happened_since_your_last_decision_is_shown_above_your_choices() -> None:
    from cardbase.ui import playtest_ctterror as ctt

    at = _open(ctt.play(ctt.new_game(4, 0, "greedy", seed=1), None))
    assert not (at.success or at.warning or at.error)
    titles = [m.value for m in at.markdown]
    assert "**Début de la partie**" in titles
    _action_buttons(at)[0].click().run()
    no_exception(at)
    titles = [m.value for m in at.markdown]
    assert "**Depuis votre dernière décision**" in titles
    recent = at.text[0].value
    assert recent.startswith("J1 ")  # your own move first, then the bots' answers
    assert recent in _log(at).split("\n", 1)[1] or recent.splitlines()[-1] in _log(at)


@pytest.mark.parametrize(("phase", "said", "last"), [
    ("mask", "jouez-vous un Masque ?", "Ne pas jouer de Masque"),
    ("called", "Renfort : J", "Ne rien jouer ce tour"),
])
def test_the_other_answer_windows_are_choices(phase: str, said: str, last: str) -> None:
    """A Grenade thrown (Masque, CT20) and a Renfort call (CT10) are your decisions too."""
    record = _record_where(4, 1, lambda s: s.phase == phase, bot="random")
    at = _open(record)
    assert said in at.info[0].value
    assert [b.label for b in _action_buttons(at)][-1] == last


def _states_until(pred, seeds=range(60), players=4):
    """States of seeded random games where ``pred(state)`` holds (the engine's own moves)."""
    import random as _random
    from pathlib import Path as _Path

    from cardbase.games import registry as _registry
    from cardbase.playtest.cards import load_edition_defs as _load

    root = _Path(__file__).resolve().parent.parent / "data" / "editions"
    cards = [c for c in _load(sorted(root.glob("*.toml"))) if c.game == "ctterror"]
    game = _registry.REGISTRY["ctterror"].build(cards, players)
    for seed in seeds:
        state = game.new_state(seed)
        rng = _random.Random(seed)
        while not state.is_terminal():
            if pred(state):
                yield state
            state.apply_action(rng.choice(state.legal_actions(state.current_player())))


def test_a_grenade_whose_masque_window_is_open_does_not_blind_yet() -> None:
    """Players under a Grenade flash that may still be stopped by a Masque are « visés », not
    « aveuglés » (CT14): the table says so only once the window is closed."""
    from cardbase.games.ctterror.rules import FLASH
    from cardbase.games.ctterror.state import MASKING
    from cardbase.ui import playtest_ctterror as ctt

    state = next(_states_until(lambda s: s.phase == MASKING and s.table
                               and s.game.effect[s.table[-1][1]] == FLASH))
    owner, _k, mask = state.table[-1]
    hit = [p for p in range(state.n) if mask >> p & 1 and state.alive[p]]
    assert hit
    for p in hit:
        shown = " ".join(ctt.statuses(state, p))
        assert "Aveuglé (Grenade flash de " + state.seat_name(owner) not in shown
        assert "un Masque peut encore l'arrêter" in shown


def test_a_head_shot_says_that_not_dodging_is_death() -> None:
    from cardbase.games.ctterror.state import PASS
    from cardbase.ui import playtest_ctterror as ctt

    state = next(_states_until(ctt._headshot))
    text = ctt.situation(state)
    assert "à la tête" in text and "mort" in text and "(0 dégâts)" not in text
    assert PASS in state.legal_actions(state.current_player())
    assert ctt.action_label(state, PASS) == "Ne pas esquiver (mort sur le coup)"
