"""``cardbase deck …`` against a real seeded SQLite file, with a test edition added to it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlmodel import Session, select
from typer.testing import CliRunner

from cardbase import i18n
from cardbase.storage import db
from cardbase.catalog.cards import apply_keys
from cardbase.cli import app as root_app
from cardbase.storage.models import Card, Edition, Game

# Names no real edition uses, so the test cards never mix with the seeded ones.
TEST_CARDS = [
    ("Zeta Foule Un", 1, "rouge", "commune", ["Foule"]),
    ("Zeta Deux", 2, "rouge", "commune", []),
    ("Zeta Trois", 3, "bleu", "rare", []),
    ("Zeta Quatre", 4, "bleu", "rare", ["Défausse"]),
    ("Zeta Cinq", 5, "vert", "mythique", ["Légendaire"]),
    ("Zeta Six", 2, "vert", "commune", []),
    ("Zeta Sept", 3, "noir", "peu commune", []),
    ("Zeta Huit", 1, "noir", "commune", []),
    ("Zeta Neuf", 2, "blanc", "commune", []),
]

LEGAL = """\
# name: Zeta
# game: nespanini
4 Zeta Foule Un
2 Zeta Deux
2 ZETA TROIS
2 zeta quatre
2 TST-005
2 Zeta Six
2 Zeta Sept
2 Zeta Huit
2 Zeta Deux   # again: 4 Zeta Deux in all
"""

runner = CliRunner()


class _Deck:
    """``cardbase --lang <lang> deck …`` through the real command line (English unless told)."""

    def invoke(self, args: list[str], lang: str | None = "en"):
        return runner.invoke(root_app, (["--lang", lang] if lang else []) + ["deck", *args])


app = _Deck()


@pytest.fixture(autouse=True)
def _language_restored():
    """``--lang`` sets the language of the thread: put it back after each test."""
    with i18n.use_language(i18n.DEFAULT):
        yield


@pytest.fixture
def cli_db(cli_env: str) -> str:
    engine = db.make_engine(cli_env)
    with Session(engine) as s:
        game = s.exec(select(Game).where(Game.code == "nespanini")).one()
        ed = Edition(game_id=game.id, code="TST", name="Test", set_size=len(TEST_CARDS))
        s.add(ed)
        s.flush()
        for i, (name, value, colour, rarity, kws) in enumerate(TEST_CARDS, start=1):
            s.add(apply_keys(Card(edition_id=ed.id, number=i, name=name, value=value,
                                  colour=colour, rarity=rarity, keywords=kws)))
        s.commit()
    engine.dispose()
    return cli_env


def _write(tmp_path: Path, text: str, name: str = "deck.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_validate_illegal_json(cli_db: str, tmp_path: Path) -> None:
    path = _write(tmp_path, LEGAL)
    result = app.invoke(["validate", str(path), "--json"])
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert data["legal"] is False and data["count"] == 20
    assert [p["code"] for p in data["problems"]] == ["too-many-copies"]
    assert set(data["problems"][0]) >= {"code", "message", "fix"}
    assert "Zeta Deux" in data["problems"][0]["fix"]


def test_validate_legal_and_text(cli_db: str, tmp_path: Path) -> None:
    path = _write(tmp_path, LEGAL)
    result = app.invoke(["validate", str(path)])
    assert result.exit_code == 1 and "NOT legal" in result.stdout and "fix:" in result.stdout
    legal = LEGAL.replace("2 Zeta Deux   # again: 4 Zeta Deux in all\n", "2 Zeta Neuf\n")
    result = app.invoke(["validate", str(_write(tmp_path, legal))])
    assert result.exit_code == 0 and "legal (20 cards)" in result.stdout
    result = app.invoke(["validate", str(_write(tmp_path, legal)), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"legal": True, "count": 20, "problems": [], "warnings": []}


def test_validate_unreadable_exit_2(cli_db: str, tmp_path: Path) -> None:
    result = app.invoke(["validate", str(tmp_path / "missing.txt")])
    assert result.exit_code == 2 and "no such file" in result.stderr
    path = _write(tmp_path, "2 Zeta Deux\n0 Zeta Trois\n")
    result = app.invoke(["validate", str(path), "--json"])
    assert result.exit_code == 2
    assert "line 2 column 1" in result.stderr
    assert json.loads(result.stdout)["problems"][0]["code"] == "bad-count"
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("2 Épée".encode("latin-1"))
    assert app.invoke(["validate", str(bad)]).exit_code == 2


def test_stats(cli_db: str, tmp_path: Path) -> None:
    path = _write(tmp_path, LEGAL)
    result = app.invoke(["stats", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["count"] == 20 and data["seen_by_turn"] == [5, 6, 7, 8, 9, 10]
    foule = next(o for o in data["draw_odds"] if o["name"] == "Zeta Foule Un")
    assert foule["copies"] == 4 and foule["by_turn"][0] == pytest.approx(1 - 4368 / 15504)
    text = app.invoke(["stats", str(path)])
    assert text.exit_code == 0 and "Value curve" in text.stdout and "hand" in text.stdout


def test_code_decode_round_trip(cli_db: str, tmp_path: Path) -> None:
    path = _write(tmp_path, LEGAL)
    result = app.invoke(["code", str(path)])
    assert result.exit_code == 0, result.output
    code = result.stdout.strip()
    decoded = app.invoke(["decode", code, "--json"])
    assert decoded.exit_code == 0, decoded.output
    data = json.loads(decoded.stdout)
    assert data["game"] == "nespanini" and data["count"] == 20 and data["same_data"]
    assert {c["ref"]: c["count"] for c in data["cards"]}["TST-002"] == 4
    text = app.invoke(["decode", code])
    back = _write(tmp_path, text.stdout, "back.txt")
    again = app.invoke(["code", str(back)])
    assert again.stdout.strip() == code
    broken = app.invoke(["decode", code[:-4] + "AAAA"])
    assert broken.exit_code == 2 and "checksum" in broken.stderr


def test_save_list_history(cli_db: str, tmp_path: Path) -> None:
    path = _write(tmp_path, LEGAL)
    assert app.invoke(["save", str(path), "--note", "first"]).exit_code == 0
    refused = app.invoke(["save", str(path)])
    assert refused.exit_code == 2 and "expected version 1" in refused.stderr
    path2 = _write(tmp_path, LEGAL + "1 Zeta Cinq\n", "deck2.txt")
    ok = app.invoke(["save", str(path2), "--name", "Zeta", "--expected-version", "1"])
    assert ok.exit_code == 0 and "version 2" in ok.stdout
    listed = json.loads(app.invoke(["list", "--json"]).stdout)
    zeta = next(d for d in listed if d["name"] == "Zeta")
    assert zeta["version"] == 2 and zeta["count"] == 21
    hist = app.invoke(["history", "Zeta"])
    assert hist.exit_code == 0 and "v1" in hist.stdout and "Zeta Cinq (2 → 3)" in hist.stdout
    assert app.invoke(["history", "Nope"]).exit_code == 2


# --------------------------------------------------------------------------- one language


def test_french_by_default_english_with_lang_and_the_same_json(cli_db: str, tmp_path: Path) -> None:
    path = _write(tmp_path, LEGAL)
    fr = app.invoke(["validate", str(path)], lang=None)
    assert fr.exit_code == 1
    assert "Zeta : PAS légal (20 cartes, problèmes : 1)" in fr.stdout
    assert "correction : réduisez « Zeta Deux » à 2 exemplaires" in fr.stdout
    assert "deck.txt lignes 4, 11 : « Zeta Deux » est 4 fois dans le deck" in fr.stdout
    assert "legal" not in fr.stdout and "fix:" not in fr.stdout
    en = app.invoke(["validate", str(path)], lang="en")
    assert "Zeta: NOT legal (20 cards, problems: 1)" in en.stdout and "fix: lower" in en.stdout
    assert "légal" not in en.stdout
    json_fr = json.loads(app.invoke(["validate", str(path), "--json"], lang=None).stdout)
    json_en = json.loads(app.invoke(["validate", str(path), "--json"], lang="en").stdout)
    assert set(json_fr) == set(json_en) == {"legal", "count", "problems", "warnings"}
    assert [p["code"] for p in json_fr["problems"]] == [p["code"] for p in json_en["problems"]]
    stats = app.invoke(["stats", str(path)], lang=None)
    assert "Courbe des valeurs" in stats.stdout and "carte" in stats.stdout
    assert "main" in stats.stdout and "Value curve" not in stats.stdout
    unreadable = app.invoke(["validate", str(tmp_path / "nope.txt")], lang=None)
    assert unreadable.exit_code == 2 and "erreur : " in unreadable.stderr
    assert "fichier introuvable" in unreadable.stderr


def test_save_and_history_in_french(cli_db: str, tmp_path: Path) -> None:
    path = _write(tmp_path, LEGAL)
    saved = app.invoke(["save", str(path)], lang=None)
    assert saved.exit_code == 0 and "deck « Zeta » enregistré, version 1" in saved.stdout
    again = app.invoke(["save", str(path)], lang=None)
    assert again.exit_code == 2 and "version attendue 1" in again.stderr
    history = app.invoke(["history", "Braises ardentes"], lang=None)
    assert history.exit_code == 0 and "20 cartes — deck de départ" in history.stdout


# --------------------------------------------------------------------------- odd input


def test_odd_input_is_a_clear_error_never_a_traceback(cli_db: str, tmp_path: Path) -> None:
    def refused(*args: str) -> str:
        result = app.invoke(list(args))
        assert result.exit_code == 2, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "Traceback" not in result.output
        return result.stderr

    assert "too large" in refused("validate", "/dev/zero")
    assert "too large" in refused("stats", "/dev/zero")
    assert "folder" in refused("validate", str(tmp_path))
    big = _write(tmp_path, "".join(f"1 Zeta {i}\n" for i in range(10_000)), "big.txt")
    assert "more than 1000 card lines" in refused("validate", str(big))
    absurd = _write(tmp_path, "99999999999999999999 Zeta Deux\n", "absurd.txt")
    assert "out of range" in refused("validate", str(absurd))
    nul = _write(tmp_path, "# game: nespanini\n2 Zeta\x00Deux\n", "nul.txt")
    assert "character not allowed" in refused("save", str(nul))
    assert "characters long" in refused("decode", "AQ" + "A" * 200_000)
    assert "checksum" in refused("decode", "AQ" + "x" * 5_000)
    path = _write(tmp_path, LEGAL)
    assert "at most 120" in refused("save", str(path), "--name", "Z" * 500)
    assert "at most 300" in refused("save", str(path), "--note", "n" * 1000)
    assert "no deck named" in refused("history", "Z" * 500)
    # the same deck saves once the name fits
    assert app.invoke(["save", str(path), "--name", "Z" * 120]).exit_code == 0


def test_arguments_that_are_not_utf8_are_clear_errors(cli_db: str, tmp_path: Path) -> None:
    """Bytes that are not UTF-8 on a command line reach Python as lone surrogates (\\udcff),
    which no database driver can send: a clear refusal, not an encoding traceback."""
    path = _write(tmp_path, LEGAL)
    odd = "Mon\udcffdeck"
    cases = [
        (["save", str(path), "--name", odd], "character not allowed"),
        (["save", str(path), "--name", "Ok", "--note", odd], "character not allowed"),
        (["history", odd], "no deck named"),
        (["delete", odd], "no deck named"),
        (["list", "--game", odd], "unknown game"),
        (["history", "Zeta", "--game", odd], "unknown game"),
    ]
    for args, needle in cases:
        result = app.invoke(args)
        assert result.exit_code == 2 and needle in result.stderr, (args, result.output)
    result = app.invoke(["validate", str(path), "--game", odd, "--json"])
    assert result.exit_code == 1
    assert [p["code"] for p in json.loads(result.stdout)["problems"]] == ["unknown-game"]
    odd_file = tmp_path / "f\udcff.txt"  # a file name with the byte 0xff
    odd_file.write_text("2 Zeta Deux\n", encoding="utf-8")
    result = app.invoke(["validate", str(odd_file), "--json"])
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["problems"][0]["where"].startswith("f\\udcff.txt")
