"""The printing speed-ups draw the very same pixels as the plain way of drawing them.

Each shortcut is compared with the straightforward computation it replaces, on a pinned sample
(every shipped template, several resolutions and colours); the whole print is compared byte for
byte with the code before the change by ``benchmarks/bench_print_cores.py --before``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image, ImageOps

from cardbase import i18n
from cardbase.catalog.printinfo import STAT_LABELS
from cardbase.domain import CardDef
from cardbase.outputs.printing import card as card_mod
from cardbase.outputs.printing import print_cards, sheets
from cardbase.outputs.printing.templates import load_template
from cardbase.storage.art import _mix, placeholder_art

TEMPLATES = sorted(p.stem for p in (Path(__file__).resolve().parents[1] / "card_templates")
                   .glob("*.toml"))
COLOURS = [(200, 60, 40), (0, 0, 0), (255, 255, 255), (13, 250, 128)]


@pytest.mark.parametrize("name", TEMPLATES)
def test_frame_masks_paint_the_pixels_of_one_paste(name: str) -> None:
    template = load_template(name)
    split = 0
    for dpi in (100, 300):
        for bleed in (False, True):
            masks = card_mod._chrome_masks(template, dpi, bleed, True, True, True, 0.0)
            width, height, _ = card_mod.canvas_px(template, dpi, bleed)
            for part in masks.values():
                split += part.core is not None
                for fill in COLOURS:
                    plain = Image.new("RGB", (width, height), (30, 140, 220))
                    fast = plain.copy()
                    x, y = part.pos
                    plain.paste(fill, (x, y, x + part.width, y + part.height), part.mask)
                    part.paint(fast, fill)
                    assert fast.tobytes() == plain.tobytes()
    assert split  # the panel at least is painted as a rectangle and its edges


def test_a_mask_without_an_even_core_is_painted_whole() -> None:
    mask = Image.linear_gradient("L").resize((100, 100))  # no rectangle of one value inside
    part = card_mod._split(mask, (3, 4))
    assert part.core is None
    plain, fast = Image.new("RGB", (120, 120), "navy"), Image.new("RGB", (120, 120), "navy")
    plain.paste((250, 10, 10), (3, 4, 103, 104), mask)
    part.paint(fast, (250, 10, 10))
    assert fast.tobytes() == plain.tobytes()


@pytest.mark.parametrize("size", [(1, 1), (2, 3), (648, 389), (300, 100), (37, 256), (255, 257),
                                  (1000, 1200), (64, 900)])
def test_placeholder_wash_is_the_two_way_resize(size: tuple[int, int]) -> None:
    rgb = (200, 60, 40)
    wash = ImageOps.colorize(Image.linear_gradient("L").resize((1, 256)).convert("L"),
                             _mix(rgb, (255, 255, 255), 0.55), _mix(rgb, (0, 0, 0), 0.15))
    reference = wash.resize(size, Image.Resampling.BILINEAR)
    fast = (wash.resize((1, size[1]), Image.Resampling.BILINEAR)
            .resize(size, Image.Resampling.NEAREST))
    assert fast.tobytes() == reference.tobytes()
    # and the placeholder is that wash with its weave drawn over it
    art = placeholder_art.__wrapped__(rgb, size)
    assert art.size == size and art.mode == "RGB"


def _images(pdf: bytes) -> list[bytes]:
    return re.findall(rb"/DCTDecode /Length \d+ >>\nstream\n(.*?)\nendstream", pdf, re.S)


def _card(number: int) -> CardDef:
    return CardDef(id=number, game="nespanini", edition="TST", number=number, set_size=30,
                   name=f"Carte {number}", value=number % 7, colour="bleu",
                   effect_text=f"Piochez **{number}** cartes.",
                   stats=(("puissance", number),))  # type: ignore[arg-type]


def test_started_workers_print_as_forked_ones(tmp_path: Path, monkeypatch) -> None:
    # a process running threads (the app's server) starts its workers afresh instead of forking
    # it: they are handed the language and the games' field labels, and print the same file
    monkeypatch.setattr(sheets, "_may_fork", lambda: False)
    monkeypatch.setitem(STAT_LABELS, "nespanini", {"puissance": {"fr": "Force", "en": "Might"}})
    cards = [_card(n) for n in range(1, 5)]
    files = {}
    with i18n.use_language("en"):
        for workers in (1, 2):
            out = tmp_path / f"w{workers}" / "p.pdf"
            out.parent.mkdir()
            print_cards(cards, out, dpi=72, workers=workers)
            files[workers] = out.read_bytes()
    assert len(_images(files[1])) == 4
    assert _images(files[2]) == _images(files[1])


def test_workers_are_started_afresh_while_other_threads_run() -> None:
    import threading

    assert sheets._may_fork() is (threading.active_count() == 1)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert sheets._may_fork() is False
    finally:
        stop.set()
        thread.join()


LONG_RICH = ("**Défausse** : Regardez les 3 premières cartes de votre deck, prenez-en 1 en main, "
             "puis placez sous votre deck les autres et 1 carte de votre main. +1 pour chaque "
             "carte **Foule** dans votre défausse, *même* si elle est {rouge}. Si votre main "
             "contient au moins 2 cartes de valeur {sticker:12} ou plus, piochez une carte. "
             "Tant que cette carte est dans le Cimetière, chaque carte {rouge} de votre main "
             "vaut 1 de plus (au plus 3 cartes).")


def _rich_card(number: int, text: str) -> CardDef:
    return CardDef(id=number, game="nespanini", edition="TST", number=number, set_size=30,
                   name=f"Carte {number}", value=4, colour="rouge", banner="Les Braises",
                   effect_text=text, flavour="Une étincelle ne fait pas un incendie.")


@pytest.mark.parametrize("text", [LONG_RICH, LONG_RICH + " " + LONG_RICH[:150],
                                  "Piochez **2** cartes.", "Un mot\\nà la ligne {rouge}"])
def test_layouts_kept_and_rows_made_late_draw_the_same_card(text: str, monkeypatch) -> None:
    from cardbase.outputs.printing import textfit

    template = load_template("nespanini")
    card = _rich_card(7, text)
    textfit._LAYOUTS.clear()
    kept = card_mod.render_card(card, template, fingerprint="0badc0de")
    assert textfit._LAYOUTS  # the layouts tried were kept
    again = card_mod.render_card(card, template, fingerprint="0badc0de")  # from the kept ones
    monkeypatch.setattr(textfit, "_LAYOUTS_KEPT", 0)
    textfit._LAYOUTS.clear()
    fresh = card_mod.render_card(card, template, fingerprint="0badc0de")
    assert not textfit._LAYOUTS
    assert kept.tobytes() == again.tobytes() == fresh.tobytes()


@pytest.mark.parametrize("size", [14, 21, 27, 33])
def test_rich_rows_made_late_are_the_lines_wrap_rich_gives(size: int) -> None:
    from cardbase.catalog.richtext import parse
    from cardbase.outputs.printing import textfit
    from cardbase.outputs.printing.card import rich_paragraph
    from cardbase.outputs.printing.richdraw import wrap_rich

    template = load_template("nespanini")
    para = rich_paragraph(LONG_RICH, template, "regular")
    assert para.rich is not None and parse(LONG_RICH).items
    for width in (300.0, 611.0, 900.0):
        rows, _, _ = textfit._lay_out([para], size, width, 1.12, None)
        made = textfit._made(rows)
        lines = wrap_rich(para.rich, "regular", size, width)
        assert [(r[0], r[4], r[5]) for r in made] == lines
        assert all(r[5] is not textfit._UNMADE for r in made)


@pytest.mark.parametrize("mode, extra", [("home", {}), ("shop", {}), ("proof", {}),
                                         ("shop", {"preset": "tgc-poker"})])
def test_progress_counts_every_card_in_every_mode(tmp_path: Path, mode: str, extra: dict) -> None:
    seen: list[int] = []
    cards = [_card(1), _card(2), _card(1), _card(3)]  # a copy counts
    out = tmp_path / ("p.png" if mode == "proof" else "p.pdf")
    result = print_cards(cards, out, mode=mode, dpi=72, progress=seen.append, **extra)
    assert seen == [1, 2, 3, 4] == list(range(1, result.cards + 1))


def test_the_app_progress_bar_moves_a_percent_at_a_time() -> None:
    from cardbase.ui.printing import _progress_bar

    class Bar:
        def __init__(self) -> None:
            self.shown: list[tuple[float, str]] = []

        def progress(self, value: float, text: str) -> None:
            self.shown.append((value, text))

    bar = Bar()
    update = _progress_bar(bar, 500)
    for done in range(1, 501):
        update(done)
    assert len(bar.shown) == 101  # once a percent (0 to 100), not once a card
    assert bar.shown[-1] == (1.0, "500 / 500 cartes")
    assert [v for v, _ in bar.shown] == sorted(v for v, _ in bar.shown)


def test_strips_and_discs_drawn_premultiplied_are_drawn_then_converted(monkeypatch) -> None:
    from cardbase.catalog.stickers import SYMBOL_SHAPES, encode
    from cardbase.outputs.printing import sticker_art

    cases = [(tuple((st.kind, st.dots) for st in encode(v)), sym)
             for v in range(0, 100, 7) for sym in (None, *list(SYMBOL_SHAPES)[:4])]
    cases += [((), sym) for sym in SYMBOL_SHAPES]
    from cardbase.outputs.printing.richdraw import _disc

    discs = {(c, n): _disc(c, n) for c in ("#c0392b", "#ffffff", "#1d1d1f", "#2e86c1")
             for n in (8, 23, 40)}
    fast = {}
    for stickers, sym in cases:
        for height in (24, 59):
            fast[stickers, sym, height] = sticker_art.sticker_strip.__wrapped__(stickers, sym, height, 400)
    monkeypatch.setattr(sticker_art, "DRAW_MODE", "RGBA")  # drawn straight, then premultiplied
    for (stickers, sym, height), image in fast.items():
        plain = sticker_art.sticker_strip.__wrapped__(stickers, sym, height, 400)
        assert image.mode == plain.mode == "RGBA"
        assert image.tobytes() == plain.tobytes(), (stickers, sym, height)
    for (colour, size), image in discs.items():  # the text's colour discs, drawn the same way
        assert image.tobytes() == _disc(colour, size).tobytes(), (colour, size)
