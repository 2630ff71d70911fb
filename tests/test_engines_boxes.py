"""Every engine plays every box the data checks accept: copies from 0 to 1,000 and every player
count, random legal moves to the end — or the box is refused at once with a clear message, never a
crash and never an engine that refuses its own legal move."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.errors import CardbaseError
from cardbase.games import registry
from cardbase.playtest.cards import load_edition_defs

ROOT = Path(__file__).resolve().parent.parent
EVERY = load_edition_defs(sorted((ROOT / "data" / "editions").glob("*.toml")))
BOX_GAMES = sorted(code for code, spec in registry.REGISTRY.items() if spec.material == "box" and spec.engine)
MOVES = 30_000


def _play(code: str, cards, players: int, seed: int) -> str:
    """« refused » (a clear refusal of the box), or « played » (a random game to its end)."""
    spec = registry.REGISTRY[code]
    try:
        game = spec.build(cards, players)
    except CardbaseError as exc:
        assert str(exc).strip(), "a refusal says why"
        return "refused"
    state = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(MOVES):
        if state.is_terminal():
            return "played"
        state.apply_action(rng.choice(state.legal_actions(state.current_player())))
    raise AssertionError(f"{code}: no end after {MOVES} random moves")


@pytest.mark.parametrize("code", BOX_GAMES)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_box_the_data_accepts_is_played_or_refused_clearly(code: str, data) -> None:
    spec = registry.REGISTRY[code]
    box = [c for c in EVERY if c.game == code]
    # up to what the data checks accept: a card may have 1,000,000 copies
    copies = data.draw(st.lists(st.sampled_from([0, 1, 1, 2, 3, 7, 50, 1000, 9_000, 1_000_000]),
                                min_size=len(box), max_size=len(box)), label="copies")
    players = data.draw(st.integers(spec.min_players, spec.max_players), label="players")
    cards = [dataclasses.replace(c, copies=n) for c, n in zip(box, copies, strict=True)]
    _play(code, cards, players, data.draw(st.integers(0, 10**6), label="seed"))


@pytest.mark.parametrize("code", BOX_GAMES)
def test_one_card_at_a_thousand_copies(code: str) -> None:
    """The case found by hand: one card of the box at 1,000 copies (accepted data)."""
    spec = registry.REGISTRY[code]
    box = [c for c in EVERY if c.game == code]
    for i in range(0, len(box), max(1, len(box) // 2)):
        cards = [dataclasses.replace(c, copies=1000) if j == i else c for j, c in enumerate(box)]
        for players in sorted({spec.min_players, spec.max_players}):
            _play(code, cards, players, i)


@pytest.mark.parametrize("code", [c for c in BOX_GAMES if any(d.game == c for d in EVERY)])
def test_a_box_over_the_engines_limit_is_refused_before_it_is_built(code: str) -> None:
    """A card may have a million copies (accepted data): OVERKILL with every card at that many ran
    out of memory building its box, 15 en un tour's random bots took minutes a game. Over its
    limit a box is refused with the count, the card with the most copies and the limit; at the
    limit it is played."""
    limit = registry.MAX_BOX_CARDS_OF.get(code, registry.MAX_BOX_CARDS)
    box = [c for c in EVERY if c.game == code]
    rest = sum(c.copies for c in box[1:])
    at_limit = [dataclasses.replace(box[0], copies=limit - rest)] + box[1:]
    assert _play(code, at_limit, registry.REGISTRY[code].min_players, 1) == "played"
    built = []
    for copies in (limit - rest + 1, 1_000_000):
        over = [dataclasses.replace(box[0], copies=copies)] + box[1:]
        with pytest.raises(CardbaseError) as err:
            registry.REGISTRY[code].build(over, registry.REGISTRY[code].min_players)
        message = str(err.value)
        assert f"{limit:,}".replace(",", " ") in message and box[0].ref in message, message
        built.append(message)
    assert len(built) == 2

