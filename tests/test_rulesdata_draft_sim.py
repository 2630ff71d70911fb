"""``--rules FILE``: a rules file outside ``data/rules/`` (a draft) played by the commands that play
a game by its code — ``sim game``, ``sim measures``, ``sim rulings``, ``games rulings``, ``sim
sweep --game`` — for that command only; its worker processes build the game from the file's text;
a file that does not pass the checker gives ``games check``'s problems; the code of a game written
as data is taken over for the run, a hand-written engine's is refused; every report names the file
(docs/rules-language.md, « A file outside data/rules/ »)."""

from __future__ import annotations

import json
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.config import DATA_DIR
from cardbase.games import registry

runner = CliRunner()
SQLITE = pytest.mark.sqlite_only("the command-line contract does not depend on the database")
ROOT = Path(__file__).resolve().parent
SCOPA = ROOT / "data" / "rules" / "scopa.toml"
MARCHE = DATA_DIR / "rules" / "marche.toml"
BATCH = ["--games", "30", "--seed", "7", "--measures-games", "8", "--json"]


def _draft(tmp_path: Path, source: Path, code: str | None = None, name: str | None = None) -> Path:
    """A copy of ``source`` in ``tmp_path`` (its game code changed to ``code``)."""
    text = source.read_text(encoding="utf-8")
    if code is not None:
        old = text.split('code = "', 1)[1].split('"', 1)[0]
        text = text.replace(f'code = "{old}"', f'code = "{code}"', 1)
    path = tmp_path / (name or f"{code or source.stem}.toml")
    path.write_text(text, encoding="utf-8")
    return path


def _json(args: list[str]) -> dict:
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _refused(args: list[str]) -> str:
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and isinstance(r.exception, SystemExit), r.output
    return r.output


def _figures(data: dict) -> dict:
    """A batch report without what names the game (its code, the draft)."""
    out = {k: v for k, v in data.items() if k not in ("game", "draft")}
    out["measures"] = {k: v for k, v in data["measures"].items() if k != "game"}
    return out


@SQLITE
def test_a_draft_by_path_plays_the_same_games_as_the_file_registered(cli_env, tmp_path) -> None:
    path = _draft(tmp_path, MARCHE, "marche_essai")
    shipped = _json(["sim", "game", "marche", *BATCH, "--workers", "1"])
    draft = _json(["sim", "game", "--rules", str(path), *BATCH, "--workers", "2"])
    assert draft["game"] == "marche_essai" and draft["measures"]["game"] == "marche_essai"
    assert draft["draft"] == {"path": str(path), "code": "marche_essai", "title": "Marché (exemple)",
                              "replaces": None}
    # the same seats, ties, endings, card choices, coverage and measures, game by game
    assert _figures(draft) == _figures(shipped)
    assert sum(s["wins"] for s in draft["seats"]) > 0 and draft["measures"]["games"] == 8
    assert "draft" not in shipped
    assert "marche_essai" not in registry.REGISTRY  # the draft was a game for that command only


@SQLITE
def test_the_text_report_says_it_played_a_draft(cli_env) -> None:
    r = runner.invoke(app, ["sim", "game", "--rules", str(SCOPA), "--games", "6", "--measures-games", "0"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].startswith("scopa : 6 parties à 2 joueurs")
    assert lines[1] == (f"Brouillon joué : {SCOPA} (jeu « scopa ») — ces chiffres sont ceux de ce fichier, "
                        "pas ceux d'un jeu du projet.")
    r = runner.invoke(app, ["--lang", "en", "sim", "game", "scopa", "--rules", str(SCOPA), "--games", "6",
                            "--measures-games", "0"])
    assert r.exit_code == 0, r.output
    assert f"Draft played: {SCOPA} (game “scopa”)" in r.stdout


def test_worker_processes_build_the_draft_from_its_text(tmp_path) -> None:
    """A worker that knows no draft (a spawned process, another machine) plays the batch's very games:
    it gets the file's text, and the file may be gone by then."""
    from cardbase.playtest.games import run_chunk, simulate

    path = _draft(tmp_path, SCOPA)
    with registry.drafted(path) as info:
        assert info["code"] == "scopa" and registry.get("scopa").rules_file == str(path)
        here, recs = simulate("scopa", [], bots=["greedy", "random"], games=6, seed=3, workers=1)
        draft = registry.draft_of("scopa")
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            spawned, far = simulate("scopa", [], bots=["greedy", "random"], games=6, seed=3, executor=pool)
    assert "scopa" not in registry.REGISTRY and registry.draft_of("scopa") is None
    assert far == recs and spawned.seats == here.seats and len({r.moves for r in recs}) > 1
    path.unlink()  # the text is all a worker needs
    assert run_chunk(0, 6, "scopa", (), 2, ("greedy", "random"), 3, (), draft) == recs


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_draft_that_does_not_read_lists_every_problem_as_games_check_does(tmp_path, lang) -> None:
    path = tmp_path / "brouillon.toml"
    path.write_text('[game]\ncode = "Brouillon!"\nname = 3\n\n[[zones]]\nname = "pioche"\n', encoding="utf-8")
    checked = _refused(["--lang", lang, "games", "check", str(path)])
    for args in (["sim", "game"], ["sim", "measures"], ["sim", "rulings"], ["games", "rulings"]):
        out = _refused(["--lang", lang, *args, "--rules", str(path)])
        assert out == checked
    assert checked.count("brouillon.toml, ") >= 4  # every problem at once, each located
    assert "ligne 2" in checked if lang == "fr" else "line 2" in checked
    missing = _refused(["--lang", lang, "sim", "game", "--rules", str(tmp_path / "nope.toml")])
    assert "nope.toml" in missing


@SQLITE
def test_a_draft_takes_the_place_of_a_game_written_as_data_for_its_command_only(cli_env, tmp_path) -> None:
    path = _draft(tmp_path, MARCHE, name="marche_v2.toml")  # same code, marche
    shipped = _json(["sim", "game", "marche", *BATCH])
    draft = _json(["sim", "game", "--rules", str(path), *BATCH])
    assert draft["draft"]["code"] == "marche" and draft["draft"]["replaces"] == str(MARCHE)
    assert _figures(draft) == _figures(shipped)
    assert registry.get("marche").rules_file == str(MARCHE)  # the shipped game is back
    r = runner.invoke(app, ["sim", "game", "marche", "--rules", str(path), "--games", "4", "--measures-games", "0"])
    assert r.exit_code == 0, r.output
    assert f"prend la place du jeu enregistré « marche » ({MARCHE}) pour cette commande seulement" in r.stdout


@SQLITE
def test_a_hand_written_engines_code_or_another_game_is_refused(cli_env, tmp_path) -> None:
    clash = _draft(tmp_path, SCOPA, "overkill")
    out = _refused(["sim", "game", "--rules", str(clash), "--games", "4"])
    assert f"Le brouillon {clash} a le code « overkill », celui d'un jeu écrit à la main" in out
    assert 'code = "overkill_essai"' in out
    assert registry.get("overkill").rules_file is None and registry.get("overkill").package
    out = _refused(["--lang", "en", "sim", "game", "atout", "--rules", str(SCOPA), "--games", "4"])
    assert "The game “atout” and the draft" in out and "(code “scopa”)" in out
    assert "Which game?" in _refused(["--lang", "en", "sim", "game"])


@SQLITE
def test_every_command_that_plays_a_draft_names_it_in_json(cli_env, tmp_path) -> None:
    rulings = _json(["games", "rulings", "--rules", str(SCOPA), "--json"])
    assert rulings["game"] == "scopa" and rulings["draft"]["path"] == str(SCOPA)
    assert "SC2" in [r["code"] for r in rulings["rulings"]]
    weighed = _json(["sim", "rulings", "--rules", str(SCOPA), "--games", "6", "--measures-games", "0", "--json"])
    assert weighed["draft"]["path"] == str(SCOPA) and weighed["game"] == "scopa"
    assert [v["ruling"] for v in weighed["variants"]] == ["SC2"]
    measured = _json(["sim", "measures", "--rules", str(SCOPA), "--games", "6", "--skill-games", "0",
                      "--outcome-games", "0", "--json"])
    assert measured["draft"]["path"] == str(SCOPA) and measured["games"] == 6
    r = runner.invoke(app, ["games", "rulings", "--rules", str(SCOPA)])
    assert r.exit_code == 0 and r.stdout.startswith(f"Règles lues dans le brouillon {SCOPA}"), r.output
    # sim sweep --game: the draft's box is the database's cards of its code, as for a registered game
    out = _refused(["sim", "sweep", "--rules", str(SCOPA), "--card", "x", "--values", "1..2", "--games", "4"])
    assert "« scopa »" in out


def test_a_draft_whose_cards_come_from_an_edition_reads_them_as_the_registered_game(tmp_path) -> None:
    """``source = "edition"``: the draft's game is built from the cards of its code, as a registered
    game's (here 15 en un tour's file under another code, given the P15 edition's cards)."""
    from cardbase.games.rulesdata.engine import Game
    from cardbase.games.rulesdata.language import load_rules
    from cardbase.playtest.cards import load_edition_defs
    from cardbase.playtest.cluster import game_seed
    from cardbase.playtest.games import play_one, simulate

    cards = [c for c in load_edition_defs([DATA_DIR / "editions" / "P15.toml"]) if c.game == "pushluck"]
    path = _draft(tmp_path, DATA_DIR / "rules" / "pushluck.toml", "quinze")
    with registry.drafted(path):
        assert registry.get("quinze").own_cards is False
        with pytest.raises(Exception, match="quinze"):  # no card of its own: the database's are needed
            simulate("quinze", [], games=2)
        _, recs = simulate("quinze", cards, games=5, seed=2)
    shipped = Game(load_rules(DATA_DIR / "rules" / "pushluck.toml"), cards, 2)
    assert recs == [play_one(shipped, game_seed(2, i), ["greedy", "greedy"]) for i in range(5)]
