"""``cardbase print`` and ``cardbase render`` against a real, seeded database."""

from __future__ import annotations

import re
from pathlib import Path

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
    assert "26 card(s)" in res.output
    data = out.read_bytes()
    assert len(re.findall(rb"/Type /Page /", data)) == 2 * 3  # 3 sheets, each with its backs
    assert (tmp_path / "ctt.manifest.json").exists()

    again = runner.invoke(app, ["print", "--edition", "CTT", "--out", str(tmp_path / "b.pdf"),
                                "--dpi", "100", "--changed-since", str(out)])
    assert again.exit_code == 0 and "0 card(s)" in again.output and "26 unchanged" in again.output

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
    assert res.exit_code == 2 and "exactly one" in res.output


def test_print_deck_counts_copies(cli_env: str, tmp_path: Path) -> None:
    deck = ROOT / "data" / "decks" / "bosquet-en-fete.txt"
    out = tmp_path / "deck.pdf"
    res = runner.invoke(app, ["print", "--deck", str(deck), "--out", str(out), "--dpi", "72",
                              "--mode", "home"])
    assert res.exit_code == 0, res.output
    assert "20 card(s)" in res.output and "3 page(s)" in res.output
