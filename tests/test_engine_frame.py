"""One frame for every engine: one illegal-action error, one replay, the greedy and play-out given
by the registry (the game package registers them; its state never imports its bots)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from cardbase.games import frame, registry
from cardbase.games.bots import GreedyBot
from cardbase.playtest.cards import load_edition_defs

ROOT = Path(__file__).resolve().parent.parent
HAND_WRITTEN = sorted(code for code, spec in registry.REGISTRY.items() if spec.package)
BOX = {code: load_edition_defs([ROOT / "data" / "editions" / f"{edition}.toml"])
       for code, edition in (("overkill", "OVK"), ("pushluck", "P15"), ("ctterror", "CTT"),
                             ("overseers", "OVS"))}


def test_the_five_hand_written_games_are_in_the_frame() -> None:
    assert HAND_WRITTEN == ["ctterror", "nespanini", "overkill", "overseers", "pushluck"]


@pytest.mark.parametrize("code", HAND_WRITTEN)
def test_one_error_and_one_replay_for_every_game(code: str) -> None:
    state = importlib.import_module(f"cardbase.games.{code}.state")
    assert state.IllegalActionError is frame.IllegalActionError
    assert state.replay is frame.replay


@pytest.mark.parametrize("code", HAND_WRITTEN)
def test_the_registry_gives_the_greedy_of_each_game(code: str) -> None:
    spec = registry.REGISTRY[code]
    bots = importlib.import_module(f"cardbase.games.{code}.bots" if code != "nespanini"
                                   else "cardbase.games.nespanini.policy")
    fast = {"overkill": "cardbase.games.overkill.fast"}.get(code)
    expected = importlib.import_module(fast).greedy_action if fast else bots.greedy_action
    assert spec.greedy is expected


def test_a_game_written_as_data_has_no_own_policy() -> None:
    data_games = [s for s in registry.REGISTRY.values() if s.rules_file]
    assert data_games, "the rules files of data/rules/ give games"
    assert all(s.greedy is None and s.playout is None for s in data_games)


@pytest.mark.parametrize("code", HAND_WRITTEN)
def test_no_state_imports_its_bots(code: str) -> None:
    """The state module of a game imports none of its bots, fast play-outs, policies or batch
    figures: those import the state, and the package wires them to the frame."""
    path = ROOT / "cardbase" / "games" / code / "state.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    named = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            named.add(("." * node.level) + (node.module or ""))
            named.update(f".{a.name}" for a in node.names if node.level and not node.module)
    assert not named & {".bots", ".fast", ".policy", ".analysis"}, named


@pytest.mark.parametrize("code", sorted(BOX))
def test_the_frame_play_out_makes_the_moves_of_the_greedy_bot(code: str) -> None:
    spec = registry.REGISTRY[code]
    players = spec.default_players or spec.min_players
    game = spec.build(tuple(BOX[code]), players)
    for seed in range(3):
        by_frame = frame.play_greedy(game.new_state(seed))
        by_bot = game.new_state(seed)
        bot = GreedyBot()
        while not by_bot.is_terminal():
            by_bot.apply_action(bot.step(by_bot))
        assert by_frame.is_terminal()
        assert by_frame.returns() == by_bot.returns()
        assert by_frame.history == by_bot.history


def test_an_illegal_action_is_refused_with_the_one_error() -> None:
    game = registry.REGISTRY["overkill"].build(tuple(BOX["overkill"]), 2)
    state = game.new_state(1)
    illegal = max(state.legal_actions()) + 1000
    with pytest.raises(frame.IllegalActionError):
        state.apply_action(illegal)


def test_own_bots_come_from_the_game_package() -> None:
    overseers = registry.REGISTRY["overseers"].build(tuple(BOX["overseers"]), 4)
    assert type(frame.own_bot(overseers, "belief", 3)).__name__ == "BeliefBot"
    assert frame.own_bot(overseers, "greedy", 3) is None
    pushluck = registry.REGISTRY["pushluck"].build(tuple(BOX["pushluck"]), 2)
    assert frame.own_bot(pushluck, "optimal", 0).name == "optimal"
