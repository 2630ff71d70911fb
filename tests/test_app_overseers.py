"""Overseers' Playtest table: a game against bots played by clicking, in French, hiding what it must."""

from __future__ import annotations

import json

import pytest
from test_app import SQLITE, app_env, no_exception, page_test, texts  # noqa: F401 - fixture

pytestmark = [SQLITE, pytest.mark.usefixtures("app_env")]


def _overseers(at, *, mode: str = "table"):
    at.session_state["pt_gamecode"] = "overseers"
    at.session_state["ovs_mode"] = mode
    return at.run()


def _log(at) -> str:
    return "\n".join(str(x.value) for x in at.text)


def _page(at) -> str:
    """What the page shows about the round in play: texts, HTML tiles, button labels and helps,
    and the log from the round's first line (the reveals of ended rounds are left out: their
    cards are public, and dealt again since)."""
    past = {str(m.value) for e in at.expander if e.label.startswith("Révélation") for m in e.markdown}
    parts = [str(e.value) for kind in ("markdown", "caption", "success", "info", "warning", "error")
             for e in getattr(at, kind) if str(e.value) not in past]
    log = _log(at).split("\n")
    starts = [i for i, line in enumerate(log) if line.startswith("— Manche")]
    parts += log[starts[-1]:] if starts else log
    parts += [f"{b.label} {b.help or ''}" for b in at.button]
    parts += [str(m.value) for m in at.metric]
    return "\n".join(parts)


def _hidden_names(state, me: int) -> set[str]:
    """Names of the cards seat ``me`` cannot know now: the others' hands, kept cards, face-down
    rows (their top rows too before everyone has placed) and the unknown discard, less every name
    ``me`` may know (own cards, hands seen, visible rows, peeks, known discard, the reveal)."""
    obs = state.observation(me)
    cards = state.game.box.cards
    known = set(obs.hand) | set(obs.kept) | {k for h in obs.seen for k in h} | set(obs.known_discard)
    known |= {k for _, k in obs.peeks}
    known |= {k for row in obs.tops if row for k in row}
    if obs.table:
        known |= {k for row in obs.table for k in row}
    hidden: set[int] = set()
    if not state.revealed:
        for q in range(state.n):
            if q == me:
                continue
            hidden |= set(state.hands[q]) | set(state.kept[q]) | set(state.bottom[q])
            if not state.placed:
                hidden |= set(state.top[q])
    hidden |= set(state.discard) - set(obs.known_discard)
    return {cards[k].name for k in hidden} - {cards[k].name for k in known}


def _click_first(at) -> None:
    """The first legal decision: the first card or button, or the first cards of the bottom row."""
    from cardbase.ui import playtest_overseers as ovs

    record = at.session_state["ovs_game"]
    state = ovs.replay_state(record)
    if state.observation(record["seat"]).phase == "place":
        need = 2
        for box in at.checkbox:
            if box.key and box.key.startswith("ovs_down_") and need:
                box.check()
                need -= 1
        at.run()
        no_exception(at)
        at.button(key="ovs_place").click().run()
        return
    at.button(key="ovs_a_0").click().run()


def test_the_selector_shows_the_overseers_table() -> None:
    from cardbase.ui import playtest, playtest_overseers

    assert playtest.view_for("overseers") is playtest_overseers.render
    at = _overseers(page_test("playtest"))
    no_exception(at)
    assert at.selectbox(key="ovs_players").options == ["3", "4", "5", "6"]
    assert at.selectbox(key="ovs_level").value == "greedy"
    assert "Nouvelle partie" in at.button(key="ovs_new").label
    assert any("Choisissez le nombre de joueurs" in i.value for i in at.info)


def test_a_four_player_game_played_to_its_end_by_clicking() -> None:
    from cardbase.ui import playtest_overseers as ovs

    at = _overseers(page_test("playtest"))
    at.selectbox(key="ovs_players").select(4).run()
    at.selectbox(key="ovs_seat").select(2).run()
    at.button(key="ovs_new").click().run()
    no_exception(at)
    shown = texts(at)
    for words in ("Votre Personnage", "La table", "Draft : gardez une carte", "J3 (vous)", "Leader"):
        assert words in shown, words
    assert [m.label for m in at.metric] == ["Manche", "Leader", "Phase", "Vos points"]
    phases = set()
    for _clicks in range(400):
        record = at.session_state["ovs_game"]
        state = ovs.replay_state(record)
        page = _page(at)
        leaked = {name for name in _hidden_names(state, 2) if name in page}
        assert not leaked, (state.observation(2).phase, leaked)
        backs = sum(str(m.value).count('title="Carte face cachée"') for m in at.markdown)
        if state.placed and not state.revealed:  # the others' face-down cards, as backs
            assert backs == sum(len(state.bottom[q]) for q in range(4) if q != 2)
        else:
            assert backs == 0
        if state.is_terminal():
            break
        assert state.current_player() == 2  # the bots have played up to your decision
        phases.add(state.observation(2).phase)
        _click_first(at)
        no_exception(at)
    else:
        raise AssertionError("the Overseers game did not end")
    assert {"draft", "discard", "place", "vote"} <= phases
    final = next(s.value for s in [*at.success, *at.error, *at.info] if s.value.startswith("Partie terminée"))
    assert any(w in final for w in ("vous gagnez", "victoire"))
    assert "Totaux :" in texts(at)
    assert not any('title="Carte face cachée"' in str(m.value) for m in at.markdown)  # all face up
    log = _log(at)
    for words in ("— Manche 1 : Leader", "— Manche 3 :", "Vous gardez", "Votes :", "est accusé",
                  "Révélation : toutes les cartes", "Décompte de la manche 3", "Partie terminée. Totaux"):
        assert words in log, words
    assert any(e.label == "Révélation de la manche 3" for e in at.expander)
    assert not [b for b in at.button if b.key and b.key.startswith("ovs_a_")]  # nothing left to play
    record = at.session_state["ovs_game"]
    json.dumps(record)  # plain values only
    assert set(record) == {"seed", "actions", "bot", "players", "seat", "options"}
    assert record["players"] == 4 and record["seat"] == 2


def test_the_vote_marks_the_leader_and_never_offers_yourself() -> None:
    from cardbase.games.overseers.state import P_VOTE
    from cardbase.ui import playtest_overseers as ovs

    at = _overseers(page_test("playtest"))
    at.button(key="ovs_new").click().run()
    for _ in range(60):
        record = at.session_state["ovs_game"]
        state = ovs.replay_state(record)
        if state.phase == P_VOTE:
            break
        _click_first(at)
        no_exception(at)
    else:
        raise AssertionError("no vote reached")
    me = record["seat"]
    labels = [b.label for b in at.button if b.key and b.key.startswith("ovs_a_")]
    assert len(labels) == record["players"] - 1
    assert not any(f"J{me + 1}" in lab for lab in labels)
    if state.leader != me:
        assert f"Voter pour J{state.leader + 1} (Leader)" in labels


def test_placement_needs_the_right_number_of_cards() -> None:
    from cardbase.ui import playtest_overseers as ovs

    at = _overseers(page_test("playtest"))
    at.button(key="ovs_new").click().run()
    for _ in range(30):
        state = ovs.replay_state(at.session_state["ovs_game"])
        if state.observation(at.session_state["ovs_game"]["seat"]).phase == "place":
            break
        _click_first(at)
    assert at.button(key="ovs_place").disabled
    boxes = [b for b in at.checkbox if b.key and b.key.startswith("ovs_down_")]
    assert len(boxes) == 5
    boxes[0].check().run()
    assert at.button(key="ovs_place").disabled
    assert "1 carte cochée :" in texts(at)


def test_the_overseers_table_in_english() -> None:
    at = _overseers(page_test("playtest", lang="en"))
    at.button(key="ovs_new").click().run()
    no_exception(at)
    shown = texts(at)
    assert "Your character" in shown and "The table" in shown and "Draft: keep one card" in shown
    assert "Each player gets 6 cards." in _log(at)


def test_batches_stay_available_next_to_the_table() -> None:
    at = _overseers(page_test("playtest"), mode="batch")
    no_exception(at)
    assert not [b for b in at.button if b.key == "ovs_new"]
    assert at.button  # the batch form's run button


def _record_at(phase: str, *, players: int = 4, seat: int = 0, seeds: int = 60,
               options: dict | None = None) -> dict:
    """A game record (bots greedy, you playing the first legal decision) stopped at your first
    decision of ``phase``."""
    from cardbase.ui import playtest_overseers as ovs

    for seed in range(seeds):
        record = ovs.play(ovs.new_game("greedy", players, seat, seed=seed, options=options), None)
        for _ in range(200):
            state = ovs.replay_state(record)
            if state.is_terminal():
                break
            if state.observation(seat).phase == phase:
                return record
            record = ovs.play(record, state.legal_actions(seat)[0])
    raise AssertionError(f"no game reached {phase}")


def test_judgment_offers_admit_and_deny_and_the_game_goes_on() -> None:
    at = page_test("playtest")
    at.session_state["ovs_game"] = _record_at("judge")
    _overseers(at)
    no_exception(at)
    labels = [b.label for b in at.button if b.key and b.key.startswith("ovs_a_")]
    assert labels == ["Admettre", "Nier"]
    shown = texts(at)
    assert "Vous êtes accusé : admettez-vous ou niez-vous ?" in shown
    assert "Nier : à la révélation" in shown
    row = shown.split("<b>J1 (vous)</b>", 1)[1].split("</div>", 1)[0]
    assert "accusé</b>" in row  # your row carries the mark
    before = len(at.session_state["ovs_game"]["actions"])
    at.button(key="ovs_a_1").click().run()  # deny
    no_exception(at)
    assert len(at.session_state["ovs_game"]["actions"]) > before
    assert "J1 (vous) nie." in _log(at)
    assert "Révélation : toutes les cartes sont retournées." in _log(at)


def test_the_log_hides_the_other_players_picks_and_discards() -> None:
    from cardbase.ui import playtest_overseers as ovs

    record = _record_at("place")
    state = ovs.replay_state(record)
    lines = ovs.event_lines(state, 0)
    picks = [line for line in lines if line.startswith("Vous gardez")]
    assert len(picks) == 5  # your five draft picks (the sixth card comes to you alone)
    last = [line for line in lines if line.startswith("Dernière carte de la main, gardée d'office")]
    assert len(last) == 1  # the sixth card is logged too, and only yours (OV3)
    assert not any(line.startswith(("J2 garde", "J3 garde", "J4 garde")) for line in lines)
    assert sum("écarte une carte face cachée" in line for line in lines) == 3
    assert sum(line.startswith("Vous écartez") for line in lines) == 1


def test_the_character_choice_variant_offers_characters_with_their_powers() -> None:
    at = page_test("playtest")
    at.session_state["ovs_game"] = _record_at("character", players=3, seat=1,
                                              options={"character_choice": True})
    _overseers(at)
    no_exception(at)
    labels = [b.label for b in at.button if b.key and b.key.startswith("ovs_a_")]
    assert labels and all(lab.startswith("Prendre le Personnage ") for lab in labels)
    assert any(" — " in lab for lab in labels)  # the power text from the card data
    assert "Choisissez votre Personnage" in texts(at)
    at.button(key="ovs_a_0").click().run()
    no_exception(at)
    assert "J2 (vous) prend le Personnage" in _log(at)


def test_fewer_players_after_choosing_a_far_seat() -> None:
    at = _overseers(page_test("playtest"))
    at.selectbox(key="ovs_players").select(6).run()
    at.selectbox(key="ovs_seat").select(5).run()
    at.selectbox(key="ovs_players").select(3).run()
    no_exception(at)
    at.button(key="ovs_new").click().run()
    no_exception(at)
    record = at.session_state["ovs_game"]
    assert record["players"] == 3 and 0 <= record["seat"] < 3
