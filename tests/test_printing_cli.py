"""``cardbase print`` and ``cardbase render`` against a real, seeded database."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from cardbase.cli import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def test_print_edition_render_and_errors(cli_env: str, tmp_path: Path) -> None:
    out = tmp_path / "ctt.pdf"
    res = runner.invoke(app, ["print", "--edition", "CTT", "--out", str(out), "--backs",
                              "--dpi", "100"])
    assert res.exit_code == 0, res.output
    assert "26 cartes" in res.output
    data = out.read_bytes()
    assert len(re.findall(rb"/Type /Page /", data)) == 2 * 3  # 3 sheets, each with its backs
    assert (tmp_path / "ctt.manifest.json").exists()

    again = runner.invoke(app, ["print", "--edition", "CTT", "--out", str(tmp_path / "b.pdf"),
                                "--dpi", "100", "--changed-since", str(out)])
    # nothing changed: said so, and no blank page written
    assert again.exit_code == 0, again.output
    assert "rien n'a changé" in again.output and "26 cartes inchangées" in again.output
    assert not (tmp_path / "b.pdf").exists() and not (tmp_path / "b.manifest.json").exists()
    # in English, the cards with figures print again (their words changed), then nothing
    again = runner.invoke(app, ["--lang", "en", "print", "--edition", "CTT", "--out",
                                str(tmp_path / "b.pdf"), "--dpi", "100", "--changed-since", str(out)])
    assert again.exit_code == 0, again.output
    printed = int(re.search(r"(\d+) cards?\b", again.output).group(1))
    assert 0 < printed < 26 and f"{26 - printed} unchanged skipped" in again.output
    again = runner.invoke(app, ["--lang", "en", "print", "--edition", "CTT", "--out",
                                str(tmp_path / "c.pdf"), "--dpi", "100", "--changed-since",
                                str(tmp_path / "b.pdf")])
    assert again.exit_code == 0 and "nothing changed" in again.output
    assert not (tmp_path / "c.pdf").exists()

    png = tmp_path / "card.png"
    res = runner.invoke(app, ["render", "CTT-010", "--out", str(png)])
    assert res.exit_code == 0, res.output
    with Image.open(png) as im:
        assert im.size == (744, 1039)

    # grey has no sticker symbol in the rules: a clear error, and --no-stickers prints
    res = runner.invoke(app, ["print", "--edition", "OVS", "--out", str(tmp_path / "o.pdf")])
    assert res.exit_code == 2 and "gris" in res.output and "--no-stickers" in res.output
    res = runner.invoke(app, ["print", "--edition", "OVS", "--out", str(tmp_path / "o.pdf"),
                              "--no-stickers", "--dpi", "72"])
    assert res.exit_code == 0, res.output

    res = runner.invoke(app, ["print", "--out", str(tmp_path / "x.pdf")])
    assert res.exit_code == 2 and "exactement une source" in res.output


def test_print_deck_counts_copies(cli_env: str, tmp_path: Path) -> None:
    deck = ROOT / "data" / "decks" / "bosquet-en-fete.txt"
    out = tmp_path / "deck.pdf"
    res = runner.invoke(app, ["print", "--deck", str(deck), "--out", str(out), "--dpi", "72",
                              "--mode", "home"])
    assert res.exit_code == 0, res.output
    assert "20 cartes" in res.output and "3 pages" in res.output


def test_failed_print_keeps_the_previous_file(cli_env: str, tmp_path: Path) -> None:
    tmp_path = tmp_path / "prints"
    tmp_path.mkdir()
    out = tmp_path / "np1.pdf"
    res = runner.invoke(app, ["print", "--edition", "CTT", "--out", str(out), "--dpi", "72"])
    assert res.exit_code == 0, res.output
    before = out.read_bytes()
    manifest = (tmp_path / "np1.manifest.json").read_bytes()
    res = runner.invoke(app, ["print", "--edition", "CTT", "--out", str(out), "--template", "nosuch"])
    assert res.exit_code == 2 and "nosuch" in res.output
    assert out.read_bytes() == before  # not truncated
    assert (tmp_path / "np1.manifest.json").read_bytes() == manifest
    assert sorted(p.name for p in tmp_path.iterdir()) == ["np1.manifest.json", "np1.pdf"]


def test_output_path_errors_are_clear(cli_env: str, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from cardbase.outputs.printing import output

    # render into a missing folder, without an extension, onto a folder
    res = runner.invoke(app, ["render", "CTT-010", "--out", str(tmp_path / "missing" / "c.png")])
    assert res.exit_code == 2 and "ce dossier n'existe pas" in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    for dpi in ("0", "-5", "100000"):
        res = runner.invoke(app, ["render", "CTT-010", "--out", str(tmp_path / "c.png"), "--dpi", dpi])
        assert res.exit_code == 2 and "DPI" in res.output and not (tmp_path / "c.png").exists()
    res = runner.invoke(app, ["render", "CTT-010", "--out", str(tmp_path / "card")])
    assert res.exit_code == 2 and ".png" in res.output and not (tmp_path / "card").exists()
    res = runner.invoke(app, ["--lang", "en", "render", "CTT-010", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "is a folder" in res.output
    # print onto a folder, or where nothing can be written
    res = runner.invoke(app, ["print", "--edition", "CTT", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "est un dossier" in res.output
    res = runner.invoke(app, ["print", "--edition", "CTT", "--out", str(tmp_path / "x.txt")])
    assert res.exit_code == 2 and ".pdf" in res.output and not (tmp_path / "x.txt").exists()
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        if os.geteuid() == 0:  # root writes anywhere: play the refusal the file system gives others
            def refuse(*args: object, **kwargs: object) -> None:
                raise PermissionError(13, "Permission denied")
            monkeypatch.setattr(output.tempfile, "mkstemp", refuse)
        res = runner.invoke(app, ["print", "--edition", "CTT", "--out", str(locked / "x.pdf")])
        assert res.exit_code == 2, res.output
        assert "locked" in res.output and ("droit d'écrire" in res.output
                                           or "impossible d'écrire" in res.output)
        assert res.exception is None or isinstance(res.exception, SystemExit)
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o755)


def test_safe_file_names() -> None:
    from cardbase.ui.printing import safe_file_name

    assert safe_file_name("Bosquet en fête / v2") == "bosquet-en-fete-v2"
    assert safe_file_name("../../etc/passwd") == "etc-passwd"
    assert safe_file_name("«»") == "cartes" and len(safe_file_name("é" * 300)) == 80


def test_print_page_downloads_a_saved_deck_under_its_name(cli_env: str) -> None:
    from sqlmodel import select
    from streamlit.testing.v1 import AppTest

    from cardbase.storage import db
    from cardbase.storage.models import Deck

    with db.session_scope() as s:
        decks = list(s.exec(select(Deck).order_by(Deck.name)).all())
        if not decks:
            pytest.fail("the test database has no saved deck")
        deck_id, deck_name = decks[0].id, decks[0].name
    at = AppTest.from_string("from cardbase.ui import printing\nprinting.render()\n",
                             default_timeout=120)
    at.session_state["lang"] = "fr"
    at.session_state["pr_source"] = "deck"
    at.session_state["pr_deck"] = deck_id
    at.session_state["pr_dpi"] = 150
    at.run()
    assert not at.exception, at.exception
    at.button(key="pr_go").click().run()
    assert not at.exception, at.exception
    from cardbase.ui.printing import safe_file_name

    assert "pr_dl_pdf" in [b.key for b in at.get("download_button")]
    # the PDF downloads as « <deck name>.pdf » (file_name=f"{name}.pdf"), not deck-<id>.pdf
    name = at.session_state["pr_result"]["name"]
    assert name == safe_file_name(deck_name) and name != f"deck-{deck_id}"
    assert name and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in name)


def test_a_full_disk_is_a_clear_error_and_keeps_the_previous_file(
        cli_env: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardbase.outputs.printing import pdf

    out = tmp_path / "prints" / "ctt.pdf"
    out.parent.mkdir()
    assert runner.invoke(app, ["print", "--edition", "CTT", "--out", str(out), "--dpi", "72"]).exit_code == 0
    before = out.read_bytes()
    calls = 0
    real = pdf.PdfWriter.add_jpeg  # every image is written through it

    def full(self, *args):
        nonlocal calls
        calls += 1
        if calls > 5:
            raise OSError(28, "No space left on device")
        return real(self, *args)

    monkeypatch.setattr(pdf.PdfWriter, "add_jpeg", full)
    res = runner.invoke(app, ["print", "--edition", "CTT", "--out", str(out), "--dpi", "72"])
    assert res.exit_code == 2 and "No space left on device" in res.output
    assert "impossible d'écrire" in res.output and "intact" in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert out.read_bytes() == before
    assert sorted(p.name for p in out.parent.iterdir()) == ["ctt.manifest.json", "ctt.pdf"]
