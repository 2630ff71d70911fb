"""Printing on every core: cards drawn in worker processes give the very same file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.domain import CardDef
from cardbase.outputs.printing import print_cards, sheets
from cardbase.outputs.printing.sheets import PrintError, UnfitCardsError, default_workers

LONG = ("Piochez une carte puis défaussez-en une. " * 60)[:2400]


def _card(number: int, **kw: object) -> CardDef:
    base = {"id": number, "game": "nespanini", "edition": "TST", "number": number,
            "set_size": 60, "name": f"Carte {number}", "value": number % 7, "colour": "rouge",
            "effect_text": f"Piochez **{number}** cartes."}
    base.update(kw)
    return CardDef(**base)  # type: ignore[arg-type]


def _images(pdf: bytes) -> list[bytes]:
    """The JPEG streams of the page images, in file order."""
    return re.findall(rb"/DCTDecode /Length \d+ >>\nstream\n(.*?)\nendstream", pdf, re.S)


def _print(tmp_path: Path, name: str, cards: list[CardDef], **kw: object) -> bytes:
    folder = tmp_path / name
    folder.mkdir()
    print_cards(cards, folder / "p.pdf", dpi=100, **kw)
    return (folder / "p.pdf").read_bytes()


def test_two_workers_give_the_same_file_as_one(tmp_path: Path) -> None:
    # copies (placed again, drawn once), an unfit card left out, duplex backs: the same bytes
    cards = [_card(n) for n in range(1, 15)]
    cards += [cards[2], _card(40, effect_text=LONG), cards[0], _card(41, colour="bleu")]
    one = _print(tmp_path, "one", cards, workers=1, backs=True, skip_unfit=True)
    two = _print(tmp_path, "two", cards, workers=2, backs=True, skip_unfit=True)
    assert _images(one) and _images(one) == _images(two)
    assert one == two
    assert len(_images(one)) == 16  # 15 distinct faces that fit and one back


def test_unfit_cards_are_all_named_from_the_workers(tmp_path: Path) -> None:
    cards = [_card(1), _card(2, effect_text=LONG), _card(3), _card(4, value=-3),
             _card(2, effect_text=LONG)]
    out = tmp_path / "p.pdf"
    with pytest.raises(UnfitCardsError) as info:
        print_cards(cards, out, dpi=72, workers=2)
    assert [p.where for p in info.value.problems] == ["TST-002", "TST-004"]
    assert list(tmp_path.iterdir()) == []


def test_an_error_in_a_worker_is_raised_as_in_one_process(tmp_path: Path) -> None:
    from cardbase.errors import ArtError

    cards = [_card(1), _card(2, art="absent/nowhere.png")]
    with pytest.raises(ArtError):
        print_cards(cards, tmp_path / "p.pdf", dpi=72, workers=2, art_dir=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_progress_counts_every_card_placed_in_order(tmp_path: Path) -> None:
    seen: list[int] = []
    cards = [_card(1), _card(2), _card(1), _card(3)]
    result = print_cards(cards, tmp_path / "p.pdf", dpi=72, workers=2, progress=seen.append)
    assert seen == [1, 2, 3, 4] == list(range(1, result.cards + 1))


def test_default_is_one_process_for_a_small_print_else_every_core(monkeypatch) -> None:
    monkeypatch.setattr(sheets.os, "sched_getaffinity", lambda _pid: {0, 1, 2}, raising=False)
    assert default_workers(sheets.PARALLEL_FROM - 1) == 1
    assert default_workers(sheets.PARALLEL_FROM) == 3
    assert default_workers(10_000) == 3


def test_a_small_print_starts_no_worker(tmp_path: Path, monkeypatch) -> None:
    made: list[int] = []
    real = sheets._Drawer.__init__

    def spy(self, ctx, workers):
        made.append(workers)
        real(self, ctx, workers)

    monkeypatch.setattr(sheets._Drawer, "__init__", spy)
    print_cards([_card(1), _card(2)], tmp_path / "p.pdf", dpi=72)
    assert made == [1]


@pytest.mark.parametrize("workers", [0, -1, sheets.MAX_WORKERS + 1])
def test_bad_worker_counts_are_refused_before_any_work(tmp_path: Path, workers: int) -> None:
    with pytest.raises(PrintError, match="--workers de 1 à 64"):
        print_cards([_card(1)], tmp_path / "p.pdf", workers=workers)
    assert list(tmp_path.iterdir()) == []


def test_cli_workers_option(cli_env: str, tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["print", "--edition", "CTT", "--out", str(tmp_path / "a.pdf"),
                              "--dpi", "72", "--workers", "2"])
    assert res.exit_code == 0, res.output
    res1 = runner.invoke(app, ["print", "--edition", "CTT", "--out", str(tmp_path / "b.pdf"),
                               "--dpi", "72", "--workers", "1"])
    assert res1.exit_code == 0, res1.output
    assert _images((tmp_path / "a.pdf").read_bytes()) == _images(
        (tmp_path / "b.pdf").read_bytes())
    bad = runner.invoke(app, ["print", "--edition", "CTT", "--out", str(tmp_path / "c.pdf"),
                              "--workers", "0"])
    assert bad.exit_code == 2
    assert "--workers de 1 à 64" in bad.output and "Traceback" not in bad.output


def test_cli_shows_progress_on_a_terminal_for_a_long_print(cli_env: str, tmp_path: Path,
                                                           monkeypatch) -> None:
    import io
    import types

    from cardbase.cli import print_cmd

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    term = Terminal()
    monkeypatch.setattr(print_cmd, "sys", types.SimpleNamespace(stderr=term))
    monkeypatch.setattr(print_cmd, "PROGRESS_FROM", 3)
    res = CliRunner().invoke(app, ["print", "--edition", "CTT", "--out", str(tmp_path / "a.pdf"),
                                   "--dpi", "72", "--workers", "2"])
    assert res.exit_code == 0, res.output
    shown = term.getvalue()
    assert "Impression" in shown and "100%" in shown
    # short prints, and a print that is not on a terminal, show nothing
    term.truncate(0)
    monkeypatch.setattr(print_cmd, "PROGRESS_FROM", 10_000)
    assert CliRunner().invoke(app, ["print", "--edition", "CTT", "--out",
                                    str(tmp_path / "b.pdf"), "--dpi", "72"]).exit_code == 0
    assert term.getvalue().strip("\x00") == ""
