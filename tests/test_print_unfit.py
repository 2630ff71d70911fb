"""A print names every card it cannot draw at once; ``--skip-unfit`` prints the others."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlmodel import Session
from typer.testing import CliRunner

from cardbase.catalog import cards as catalog
from cardbase.storage import db
from cardbase.cli import app
from cardbase.domain import CardDef
from cardbase.errors import TemplateError
from cardbase.outputs.printing import print_cards
from cardbase.outputs.printing.sheets import UnfitCardsError

LONG = ("Piochez une carte puis défaussez-en une. " * 60)[:2400]


def _card(number: int, **kw: object) -> CardDef:
    base = {"id": number, "game": "nespanini", "edition": "TST", "number": number,
            "set_size": 60, "name": f"Carte {number}", "value": 3, "colour": "rouge",
            "effect_text": "Piochez une carte."}
    base.update(kw)
    return CardDef(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", ["home", "shop", "proof"])
def test_every_unfit_card_is_named_and_nothing_is_written(tmp_path: Path, mode: str) -> None:
    cards = [_card(1), _card(2, effect_text=LONG), _card(3), _card(4, effect_text=LONG),
             _card(2, effect_text=LONG)]  # a second copy is named once
    out = tmp_path / ("p.png" if mode == "proof" else "p.pdf")
    with pytest.raises(UnfitCardsError) as info:
        print_cards(cards, out, mode=mode, dpi=100)
    assert [p.where for p in info.value.problems] == ["TST-002", "TST-004"]
    assert isinstance(info.value, TemplateError)  # still a template problem for older callers
    assert "--skip-unfit" in str(info.value)
    assert list(tmp_path.iterdir()) == []


def test_skip_unfit_prints_the_others_and_says_which_were_left_out(tmp_path: Path) -> None:
    cards = [_card(1), _card(2, effect_text=LONG), _card(3), _card(5, value=-3)]
    out = tmp_path / "p.pdf"
    result = print_cards(cards, out, mode="shop", dpi=100, skip_unfit=True)
    assert [g["ref"] for g in result.left_out] == ["TST-002", "TST-005"]
    assert "4.6 pt" in result.left_out[0]["reason"]
    assert result.cards == 2
    pngs = sorted(p.name for p in (tmp_path / "p-png").iterdir() if p.name.startswith("TST"))
    assert pngs == ["TST-001.png", "TST-003.png"]
    manifest = json.loads((tmp_path / "p.manifest.json").read_text(encoding="utf-8"))
    text = json.dumps(manifest)
    assert "TST-002" in text and '"left_out": true' in text


def test_cli_lists_every_unfit_card_then_skips_them(cli_env: str, tmp_path: Path) -> None:
    runner = CliRunner()
    with Session(db.get_engine()) as s:
        for number in (901, 902):
            catalog.create_card(s, edition="NP1", fields={
                "number": number, "name": f"Trop longue {number}", "effect_text": LONG})
        s.commit()
    out = tmp_path / "np1.pdf"
    res = runner.invoke(app, ["print", "--query", "e:np1 n>=899", "--out", str(out), "--dpi", "100"])
    assert res.exit_code == 2, res.output
    assert "NP1-901" in res.output and "NP1-902" in res.output and "Traceback" not in res.output
    assert not out.exists()
    res = runner.invoke(app, ["print", "--query", "e:np1", "--out", str(out), "--dpi", "100",
                              "--skip-unfit"])
    assert res.exit_code == 0, res.output
    assert "2 cartes laissées de côté" in res.output and "NP1-901" in res.output
    assert out.exists()


def test_a_rich_card_is_the_same_in_the_shop_png_and_the_card_image(tmp_path: Path) -> None:
    """One renderer: the shop file of a card with a bold keyword and a colour symbol is the
    image the app and the previews draw (docs/rich-text.md)."""
    from PIL import Image, ImageChops

    from cardbase.outputs.printing import RenderOptions, render_card, template_for
    from cardbase.outputs.printing.fingerprint import card_fingerprint

    rich = _card(1, colour="bleu",
                 effect_text="**Défausse** : +1 par carte Foule {rouge} et {sticker:12}.")
    print_cards([rich], tmp_path / "s.pdf", mode="shop", dpi=150)
    shop = Image.open(tmp_path / "s-png" / "TST-001.png").convert("RGB")
    direct = render_card(rich, template_for("nespanini"), RenderOptions(dpi=150, bleed=True),
                         fingerprint=card_fingerprint(rich))
    assert ImageChops.difference(shop, direct).getbbox() is None
    # the red disc of {rouge} is drawn on this blue card (not the characters « {rouge} »)
    import numpy as np

    red = np.array(Image.new("RGB", (1, 1), template_for("nespanini").colours["rouge"]).getpixel((0, 0)))
    pixels = np.asarray(shop, dtype=int)
    assert int((np.abs(pixels - red).sum(axis=2) < 30).sum()) > 20
