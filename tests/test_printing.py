"""Printing: templates, text fitting, card images, sticker codes, sheets and PDFs."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from cardbase import i18n
from cardbase.storage.datafiles import figures, load_edition_file
from cardbase.domain import CardDef
from cardbase.errors import ArtError, CardbaseError, StickerError, TemplateError
from cardbase.outputs.printing import (
    PrintError,
    RenderOptions,
    load_template,
    print_cards,
    read_manifest,
    render_back,
    render_card,
    sheet_layout,
    template_for,
)
from cardbase.storage import art as art_mod
from cardbase.outputs.printing import sheets as sheets_mod
from cardbase.outputs.printing.fonts import get_font
from cardbase.outputs.printing.sticker_art import SYMBOL_SHAPES, sticker_strip
from cardbase.outputs.printing.templates import default_templates_dir
from cardbase.outputs.printing.textfit import Paragraph, fit_text
from cardbase.outputs.printing.units import mm_to_pt, mm_to_px

ROOT = Path(__file__).resolve().parents[1]
EDITIONS = ROOT / "data" / "editions"


def edition_defs(code: str) -> list[CardDef]:
    ed, cards = load_edition_file(EDITIONS / f"{code}.toml")
    return [
        CardDef(id=i, game=ed["game"], edition=ed["code"], number=c["number"],
                set_size=ed.get("set_size") or len(cards), name=c["name"], value=c.get("value"),
                colour=c.get("colour"), banner=c.get("banner"), rarity=c.get("rarity"),
                card_type=c.get("type"), keywords=tuple(c.get("keywords", ())),
                effect=c.get("effect"), effect_text=c.get("effect_text"), flavour=c.get("flavour"),
                art=c.get("art"), stats=tuple(figures(c).items()),
                sample=bool(c.get("sample")))
        for i, c in enumerate(cards, start=1)
    ]


def all_defs() -> list[CardDef]:
    return [d for p in sorted(EDITIONS.glob("*.toml")) for d in edition_defs(p.stem)]


def card(**kw: object) -> CardDef:
    base = {"id": 1, "game": "nespanini", "edition": "TST", "number": 12, "set_size": 60,
                "name": "Chevalière de l'Été", "value": 17, "colour": "rouge", "banner": "Garde royale",
                "rarity": "rare", "card_type": "Personnage", "keywords": ("Foule",),
                "effect_text": "Défausse : piochez une carte.", "flavour": "« Ça, c'est fait. »"}
    base.update(kw)
    return CardDef(**base)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- templates

def test_every_shipped_template_loads() -> None:
    names = sorted(p.stem for p in default_templates_dir().glob("*.toml"))
    assert {"poker", "nespanini", "overseers", "overkill", "ctterror", "pushluck", "bridge",
            "tarot", "mini"} <= set(names)
    for name in names:
        t = load_template(name)
        assert t.regions["effect"].box[2] > 0


def test_extends_overrides_and_scales_regions() -> None:
    poker, tarot, ct = load_template("poker"), load_template("tarot"), load_template("ctterror")
    assert (poker.width_mm, poker.height_mm) == (63, 88)
    assert (tarot.width_mm, tarot.height_mm) == (70, 120)
    _px, _py, pw, ph = poker.regions["art"].box
    _tx, _ty, tw, th = tarot.regions["art"].box
    assert tw == pytest.approx(pw * 70 / 63) and th == pytest.approx(ph * 120 / 88)
    assert ct.regions["effect"].box[1] != poker.regions["effect"].box[1]  # overridden
    assert ct.regions["effect"].size_pt == poker.regions["effect"].size_pt  # inherited
    assert ct.back.title == "CT vs Terror" and "stats" in ct.regions


def test_template_problems_all_reported(tmp_path: Path) -> None:
    (tmp_path / "poker.toml").write_text((default_templates_dir() / "poker.toml").read_text())
    (tmp_path / "bad.toml").write_text(
        'extends = "poker"\ncolor = "red"\n[regions.titel]\nbox = [1, 1, 5, 5]\n'
        '[regions.name]\nboxx = [1, 2, 3, 4]\n[regions.effect]\nfont = "Nope.ttf"\n'
    )
    with pytest.raises(TemplateError) as exc:
        load_template("bad", tmp_path)
    text = str(exc.value)
    codes = [p.code for p in exc.value.problems]
    assert "réglage inconnu « color »" in text and "zone inconnue « titel »" in text
    assert "« boxx »" in text and "4 problèmes" in text
    assert "missing-font" in codes and "Nope.ttf" in text
    assert len(exc.value.problems) == 4
    from cardbase.outputs.printing.templates import clear_cache

    clear_cache()
    with i18n.use_language("en"), pytest.raises(TemplateError) as exc:
        load_template("bad", tmp_path)
    assert "unknown setting 'color'" in str(exc.value) and "'titel'" in str(exc.value)
    assert [p.code for p in exc.value.problems] == codes


def test_extends_cycle_and_missing_template(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text('extends = "b"\n')
    (tmp_path / "b.toml").write_text('extends = "a"\n')
    with pytest.raises(TemplateError, match="tourne en rond"):
        load_template("a", tmp_path)
    with pytest.raises(TemplateError, match="« zzz » introuvable"):
        load_template("zzz", tmp_path)


def test_template_for_game_falls_back_to_poker() -> None:
    assert template_for("nespanini").name == "nespanini"
    assert template_for("unknown-game").name == "poker"


# --------------------------------------------------------------------------- text

def _inside(layout, w: float, h: float) -> bool:
    for line in layout.lines:
        ink = line.font.getbbox(line.text, anchor="la") if line.text else (0, 0, 0, 0)
        if line.x < -0.5 or line.x + line.width > w + 0.5:
            return False
        if line.y < -0.5 or line.y + line.height > h + 0.5:
            return False
        if line.x + ink[2] > w + 1 or line.y + ink[3] > h + 1:
            return False
    return True


def test_longest_texts_in_the_data_fit_at_300_dpi() -> None:
    cards = sorted(all_defs(), key=lambda c: -len((c.effect_text or "") + (c.flavour or "")))[:6]
    assert cards
    for c in cards:
        img = render_card(c, template_for(c.game, c.card_type), RenderOptions(dpi=300))
        assert img.size == (744, 1039)
    t = template_for("nespanini")
    r = t.regions["effect"]
    w, h = mm_to_px(r.box[2], 300), mm_to_px(r.box[3], 300)
    # the longest NesPanini texts in NesPanini's effect box at its minimum or above (the longest of
    # other games fitted this box only at 19 px = 4.56 pt, under its 4.6 pt minimum, while the
    # minimum was rounded down to whole pixels)
    own = sorted((c for c in all_defs() if c.game == "nespanini"),
                 key=lambda c: -len((c.effect_text or "") + (c.flavour or "")))[:6]
    for c in own:
        layout = fit_text([Paragraph(c.effect_text or ""), Paragraph(c.flavour or "", "italic")],
                          w, h, size_pt=r.size_pt, min_size_pt=r.min_size_pt, dpi=300)
        assert _inside(layout, w, h)


words = st.text(alphabet="abcdeéèàçôûœ'ÉÀ«»;:!?-", min_size=1, max_size=30)


@given(st.lists(words, min_size=0, max_size=90), st.sampled_from(["left", "center", "right"]),
       st.sampled_from(["top", "middle", "bottom"]))
def test_generated_texts_never_leave_their_box(ws: list[str], align: str, valign: str) -> None:
    text = " ".join(ws)
    w, h = 620, 236  # the NesPanini effect box at 300 DPI
    try:
        layout = fit_text([Paragraph(text)], w, h, size_pt=8.2, min_size_pt=4.6, dpi=300,
                          align=align, valign=valign)
    except TemplateError as exc:  # only when even the template's minimum cannot hold it
        assert "ne tient pas dans sa zone" in str(exc) and "4.6 pt" in str(exc)
        assert len(text) > 300
        return
    assert _inside(layout, w, h)
    assert layout.size_px >= int(4.6 * 300 / 72)  # never below the template's own minimum


def test_one_huge_word_is_broken_not_overflowing() -> None:
    layout = fit_text([Paragraph("Anticonstitutionnellementépoustouflant" * 3)], 300, 200,
                      size_pt=10, min_size_pt=6, dpi=300)
    assert len(layout.lines) > 1 and _inside(layout, 300, 200)


def test_text_too_long_for_any_size_is_a_clear_error() -> None:
    with pytest.raises(TemplateError, match="raccourcissez le texte"):
        fit_text([Paragraph("mot " * 3000)], 200, 60, size_pt=8, min_size_pt=5, dpi=300,
                 where="TST-001 effect")
    with i18n.use_language("en"), pytest.raises(TemplateError, match="shorten the text"):
        fit_text([Paragraph("mot " * 3000)], 200, 60, size_pt=8, min_size_pt=5, dpi=300,
                 where="TST-001 effect")


def test_text_below_the_template_minimum_is_refused_not_printed_tiny(tmp_path: Path) -> None:
    # a 2,000-character effect used to print silently at 2.9 pt, under the template's 4.6 pt
    long = card(number=42, effect_text=("Piochez une carte puis défaussez-en une. " * 50)[:2000],
                flavour=None)
    t = template_for("nespanini")
    with pytest.raises(TemplateError) as exc:
        render_card(long, t, RenderOptions(dpi=300))
    text = str(exc.value)
    assert "TST-042" in text and "zone effect" in text and "gabarit nespanini" in text
    assert "4.6 pt" in text and "2000 caractères" in text
    # the whole print stops, and writes nothing
    out = tmp_path / "long.pdf"
    with pytest.raises(TemplateError, match="TST-042"):
        print_cards([card(), long], out, dpi=300)
    assert list(tmp_path.iterdir()) == []
    # a text that needs the art's room still prints, at or above the minimum
    medium = card(number=43, effect_text=("Piochez une carte puis défaussez-en une. " * 12))
    assert render_card(medium, t, RenderOptions(dpi=300)).size == (744, 1039)


def test_font_has_french_accents() -> None:
    font = get_font("regular", 60)
    for plain, accented in (("e", "é"), ("e", "è"), ("a", "à"), ("c", "ç"), ("E", "É")):
        assert font.getmask(plain).getbbox() != font.getmask(accented).getbbox()


def test_missing_font_is_reported() -> None:
    with pytest.raises(TemplateError, match="introuvable"):
        get_font("/nowhere/font.ttf", 10)


# --------------------------------------------------------------------------- card images

def test_card_sizes_with_and_without_bleed() -> None:
    t = template_for("nespanini")
    assert render_card(card(), t, RenderOptions(dpi=300)).size == (744, 1039)
    assert render_card(card(), t, RenderOptions(dpi=300, bleed=True)).size == (815, 1110)
    assert render_card(card(), t, RenderOptions(dpi=150)).size == (372, 520)
    assert render_back(t, 300, False).size == (744, 1039)


def _zone(t, name: str, dpi: int = 300):
    x, y, w, h = t.regions[name].box
    return (mm_to_px(x, dpi), mm_to_px(y, dpi), mm_to_px(x + w, dpi), mm_to_px(y + h, dpi))


def test_stickers_drawn_by_default_and_can_be_turned_off() -> None:
    t = template_for("nespanini")
    on = render_card(card(), t, RenderOptions(dpi=300)).crop(_zone(t, "stickers"))
    off = render_card(card(), t, RenderOptions(dpi=300, stickers=False)).crop(_zone(t, "stickers"))
    assert on.convert("L").getextrema()[0] < 60  # black ink of the stickers
    assert off.convert("L").getextrema()[0] > 150  # only the panel
    # a different value gives a different sticker drawing
    other = render_card(card(value=3), t, RenderOptions(dpi=300)).crop(_zone(t, "stickers"))
    assert on.tobytes() != other.tobytes()


def test_sticker_shapes_are_antialiased_and_all_drawable() -> None:
    for symbol in SYMBOL_SHAPES:
        strip = sticker_strip((("square", 2), ("circle", 1), ("dot", 1)), symbol, 64, 1000)
        alphas = set(strip.getchannel("A").tobytes())
        assert 0 in alphas and 255 in alphas
        assert len(alphas) > 10  # soft edges, not a 1-bit stair-step
    narrow = sticker_strip((("square", 9), ("circle", 1)) + (("dot", 1),) * 4, "coeur", 64, 200)
    assert narrow.width <= 200


def test_colour_without_symbol_and_negative_value_are_errors() -> None:
    t = template_for("overseers")
    with pytest.raises(StickerError, match=r"TST-012.*gris.*--no-stickers"):
        render_card(card(colour="gris", game="overseers"), t)
    img = render_card(card(colour="gris", game="overseers"), t,
                      RenderOptions(sticker_table={"gris": "carre-plein"}))
    assert img.size == (744, 1039)
    assert render_card(card(colour="gris"), t, RenderOptions(stickers=False)).size == (744, 1039)
    with pytest.raises(StickerError, match="TST-012"):
        render_card(card(value=-2), t)


def test_placeholder_art_in_the_card_colour() -> None:
    t = template_for("nespanini")
    x0, y0, x1, y1 = _zone(t, "art")
    red = render_card(card(colour="rouge"), t).crop((x0, y0, x1, y1)).resize((1, 1), Image.BOX)
    blue = render_card(card(colour="bleu"), t).crop((x0, y0, x1, y1)).resize((1, 1), Image.BOX)
    r, _g, b = red.getpixel((0, 0))
    assert r > b + 40
    r, _g, b = blue.getpixel((0, 0))
    assert b > r + 40


def test_card_art_is_used_and_bad_art_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    t = template_for("nespanini")
    Image.new("RGB", (300, 200), (10, 200, 30)).save(tmp_path / "green.png")
    img = render_card(card(art="green.png"), t, RenderOptions(art_dir=tmp_path))
    x0, y0, x1, y1 = _zone(t, "art")
    assert img.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == (10, 200, 30)
    (tmp_path / "notes.png").write_text("not an image")
    with pytest.raises(ArtError, match="not an image"):
        render_card(card(art="notes.png"), t, RenderOptions(art_dir=tmp_path))
    with pytest.raises(ArtError, match="TST-012 « Chevalière de l'Été » : image .*missing.png introuvable"):
        render_card(card(art="missing.png"), t, RenderOptions(art_dir=tmp_path))
    monkeypatch.setattr(art_mod, "MAX_ART_PIXELS", 1000)
    Image.new("RGB", (100, 100), "white").save(tmp_path / "big.png")
    with pytest.raises(ArtError, match="decompression bomb"):
        render_card(card(art="big.png"), t, RenderOptions(art_dir=tmp_path))


def test_fingerprint_printed_and_tracks_content() -> None:
    from cardbase.outputs.printing import card_fingerprint

    a = card_fingerprint(card())
    assert a == card_fingerprint(dataclasses.replace(card(), id=99, version=7))
    assert a != card_fingerprint(card(effect_text="autre texte"))
    assert re.fullmatch(r"[0-9a-f]{8}", a)


# --------------------------------------------------------------------------- sheets and PDFs

def _pdf_pages(path: Path) -> list[dict]:
    data = path.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    # every xref entry points at its object
    xref = int(re.search(rb"startxref\n(\d+)", data).group(1))
    table = data[xref:].split(b"trailer")[0].splitlines()[2:]
    for oid, row in enumerate(table):
        off, _, kind = row.split()[:3]
        if kind == b"n":
            assert data[int(off):].startswith(f"{oid} 0 obj".encode())
    pages = []
    for m in re.finditer(rb"/Type /Page /Parent 2 0 R /MediaBox \[([^\]]*)\](.*?)/Contents (\d+) 0 R",
                         data, re.DOTALL):
        cid = int(m.group(3))
        cm = re.search(rf"{cid} 0 obj\n<< /Length (\d+) >>\nstream\n".encode(), data)
        content = data[cm.end():cm.end() + int(cm.group(1))].decode()
        pages.append({"box": [float(v) for v in m.group(1).split()], "rest": m.group(2).decode(),
                      "content": content})
    count = int(re.search(rb"/Type /Pages /Kids \[[^\]]*\] /Count (\d+)", data).group(1))
    assert count == len(pages)
    return pages


def _images(path: Path) -> list[tuple[int, int]]:
    return [(int(w), int(h)) for w, h in
            re.findall(rb"/Subtype /Image /Width (\d+) /Height (\d+)", path.read_bytes())]


def _placements(content: str) -> list[tuple[float, float, float, float]]:
    return [tuple(float(v) for v in m) for m in
            re.findall(r"q ([\d.]+) 0 0 ([\d.]+) ([-\d.]+) ([-\d.]+) cm", content)]


@pytest.fixture(scope="module")
def ten_cards() -> list[CardDef]:
    return [card(number=i, name=f"Carte {i}", value=i) for i in range(1, 11)]


def test_home_a4_pdf_physical_sizes(tmp_path: Path, ten_cards: list[CardDef]) -> None:
    out = tmp_path / "home.pdf"
    result = print_cards(ten_cards, out, dpi=300)
    pages = _pdf_pages(out)
    assert result.pages == len(pages) == 2 and result.cards == 10
    for p in pages:
        assert p["box"] == pytest.approx([0, 0, 595.2756, 841.8898], abs=1e-3)
    assert set(_images(out)) == {(744, 1039)}
    first = _placements(pages[0]["content"])
    assert len(first) == 9 and len(_placements(pages[1]["content"])) == 1
    for w, h, _x, _y in first:  # 63 × 88 mm exactly at 100 %
        assert w == pytest.approx(mm_to_pt(63), abs=1e-3) and h == pytest.approx(mm_to_pt(88), abs=1e-3)
    xs = sorted({round(x, 3) for _, _, x, _ in first})
    assert xs == pytest.approx([mm_to_pt(10.5), mm_to_pt(73.5), mm_to_pt(136.5)], abs=1e-3)
    assert pages[0]["content"].count(" l S") == 2 * 4 + 2 * 4  # crop marks on every cut line


def test_letter_layout_is_centred_3x3() -> None:
    lay = sheet_layout("letter", (63, 88))
    assert (lay.cols, lay.rows) == (3, 3)
    assert lay.origin_mm == pytest.approx(((215.9 - 189) / 2, (279.4 - 264) / 2))
    with pytest.raises(PrintError, match=r"papier « a3\+ » inconnu"):
        sheet_layout("a3+", (63, 88))
    with i18n.use_language("en"), pytest.raises(PrintError, match=r"unknown paper 'a3\+'"):
        sheet_layout("a3+", (63, 88))


def test_duplex_backs_are_mirrored_and_offset(tmp_path: Path, ten_cards: list[CardDef]) -> None:
    out = tmp_path / "duplex.pdf"
    result = print_cards(ten_cards[:2], out, paper="letter", backs=True, back_offset_mm=(1.5, -2.0),
                         dpi=150)
    pages = _pdf_pages(out)
    assert result.pages == 2
    assert pages[0]["box"] == pytest.approx([0, 0, 612, 792], abs=1e-3)
    front = _placements(pages[0]["content"])
    back = _placements(pages[1]["content"])
    lay = sheet_layout("letter", (63, 88))
    # slot 0 on the front (left column) sits in the right column on the back, shifted
    assert front[0][2] == pytest.approx(mm_to_pt(lay.origin_mm[0]), abs=1e-3)
    assert back[0][2] == pytest.approx(mm_to_pt(lay.origin_mm[0] + 2 * 63 + 1.5), abs=1e-3)
    assert back[0][3] == pytest.approx(front[0][3] + mm_to_pt(2.0), abs=1e-3)
    assert (372, 520) in _images(out)


def test_deck_copies_reuse_one_image(tmp_path: Path) -> None:
    c = card()
    out = tmp_path / "deck.pdf"
    result = print_cards([c, c, c, card(number=2, name="Autre")], out, dpi=100)
    assert result.cards == 4 and len(_images(out)) == 2
    assert len(_placements(_pdf_pages(out)[0]["content"])) == 4
    manifest = json.loads(result.manifest.read_text())
    assert {e["ref"]: e["count"] for e in manifest["cards"]} == {"TST-002": 1, "TST-012": 3}


def test_shop_mode_pngs_with_bleed_and_pdf(tmp_path: Path, ten_cards: list[CardDef]) -> None:
    out = tmp_path / "shop.pdf"
    result = print_cards(ten_cards[:3], out, mode="shop", dpi=300, backs=True)
    pngs = sorted((tmp_path / "shop-png").glob("TST-*.png"))
    assert [p.name for p in pngs] == ["TST-001.png", "TST-002.png", "TST-003.png"]
    with Image.open(pngs[0]) as im:
        assert im.size == (815, 1110)
        assert round(im.info["dpi"][0]) == 300
    assert (tmp_path / "shop-png" / "back-nespanini.png").exists()
    pages = _pdf_pages(out)
    assert result.pages == len(pages) == 6  # front and back for each card
    assert pages[0]["box"] == pytest.approx([0, 0, mm_to_pt(69), mm_to_pt(94)], abs=1e-3)
    assert "/TrimBox [8.5039 8.5039 187.0866 257.9528]" in pages[0]["rest"]


def test_proof_sheet(tmp_path: Path, ten_cards: list[CardDef]) -> None:
    result = print_cards(ten_cards, tmp_path / "proof.png", mode="proof")
    with Image.open(result.files[0]) as im:
        assert im.width > 6 * 230 and im.height > 2 * 330


def test_changed_since_prints_only_changed_cards(tmp_path: Path, ten_cards: list[CardDef]) -> None:
    first = print_cards(ten_cards, tmp_path / "v1.pdf", dpi=100)
    assert len(read_manifest(first.manifest)) == 10
    edited = list(ten_cards)
    edited[3] = dataclasses.replace(edited[3], effect_text="Nouveau texte.")
    edited.append(card(number=11, name="Nouvelle"))
    second = print_cards(edited, tmp_path / "v2.pdf", dpi=100, changed_since=tmp_path / "v1.pdf")
    assert second.cards == 2 and second.skipped == 9 and second.pages == 1
    # the new manifest knows every card, so a third print after no change prints nothing
    third = print_cards(edited, tmp_path / "v3.pdf", dpi=100, changed_since=second.manifest)
    assert third.cards == 0 and third.skipped == 11
    # nothing changed: no file at all, not a blank page
    assert third.nothing_changed and third.files == [] and third.manifest is None
    assert not (tmp_path / "v3.pdf").exists() and not (tmp_path / "v3.manifest.json").exists()
    with pytest.raises(PrintError, match="nothing.manifest.json : pas de manifeste"):
        print_cards(edited, tmp_path / "v4.pdf", changed_since=tmp_path / "nothing.pdf")


def test_pages_are_written_as_they_are_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pulled = 0
    seen_at_page: list[int] = []

    def cards():
        nonlocal pulled
        for i in range(1, 46):
            pulled += 1
            yield card(number=i, name=f"Carte {i}")

    original = sheets_mod.PdfWriter.add_page

    def spy(self, *args, **kwargs):
        seen_at_page.append(pulled)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(sheets_mod.PdfWriter, "add_page", spy)
    print_cards(cards(), tmp_path / "stream.pdf", dpi=72, workers=1)
    assert seen_at_page == [9, 18, 27, 36, 45]
    # on every core, cards are asked a few ahead of the page being written, never all at once
    seen_at_page.clear()
    pulled = 0
    monkeypatch.setattr(sheets_mod.os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    print_cards(cards(), tmp_path / "stream.pdf", dpi=72)
    ahead = sheets_mod.PARALLEL_FROM
    assert seen_at_page[0] <= ahead + 1 and len(seen_at_page) == 5
    assert all(at <= 9 * (i + 1) + max(ahead, 4 * 2 + 1) for i, at in enumerate(seen_at_page))


def test_bad_requests(tmp_path: Path) -> None:
    with pytest.raises(PrintError, match="poster"):
        print_cards([card()], tmp_path / "x.pdf", mode="poster")
    with pytest.raises(PrintError, match="5000 DPI"):
        print_cards([card()], tmp_path / "x.pdf", dpi=5000)
    with pytest.raises(CardbaseError, match="nope : ce dossier n'existe pas"):
        print_cards([card()], tmp_path / "nope" / "x.pdf")
    with pytest.raises(TemplateError, match="tailles différentes"):
        lay_cards = [card(), card(game="minigame", number=3)]
        mini_dir = tmp_path / "tpl"
        mini_dir.mkdir()
        for name in ("poker", "mini"):
            (mini_dir / f"{name}.toml").write_text((default_templates_dir() / f"{name}.toml").read_text())
        (mini_dir / "minigame.toml").write_text('extends = "mini"\n')
        print_cards(lay_cards, tmp_path / "x.pdf", templates_dir=mini_dir, dpi=72)


# --------------------------------------------------------------------------- failures lose nothing

def _fail_after(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """Make the renderer raise on the (n+1)-th card, as a crash half-way through a print would."""
    real = sheets_mod.render_card
    done = 0

    def flaky(*args, **kwargs):
        nonlocal done
        if done >= n:
            raise ArtError("boom: the renderer failed half-way")
        done += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(sheets_mod, "render_card", flaky)


@pytest.mark.parametrize("mode", ["home", "shop", "proof"])
def test_print_failing_half_way_keeps_the_previous_files(tmp_path: Path, ten_cards: list[CardDef],
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          mode: str) -> None:
    out = tmp_path / ("p.png" if mode == "proof" else "p.pdf")
    print_cards(ten_cards[:4], out, mode=mode, dpi=72)
    before = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert out in [tmp_path / p for p in before] and len(before) >= 2
    _fail_after(monkeypatch, 3)
    changed = [dataclasses.replace(c, name=c.name + " bis") for c in ten_cards]
    with pytest.raises(ArtError, match="half-way"):
        print_cards(changed, out, mode=mode, dpi=72)
    after = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert after == before  # byte for byte, and no temporary file or folder left behind
    assert sorted(tmp_path.rglob("*")) == sorted({tmp_path / p for p in before}
                                                 | {p for p in tmp_path.rglob("*") if p.is_dir()})
    assert not [p for p in tmp_path.rglob("*") if ".part" in p.name or ".old" in p.name]


def test_a_good_print_replaces_the_previous_files(tmp_path: Path, ten_cards: list[CardDef]) -> None:
    out = tmp_path / "s.pdf"
    print_cards(ten_cards[:4], out, mode="shop", dpi=72)
    print_cards(ten_cards[4:6], out, mode="shop", dpi=72)
    assert sorted(p.name for p in (tmp_path / "s-png").iterdir()) == [
        "TST-005.png", "TST-006.png", "back-nespanini.png"]
    assert len(_pdf_pages(out)) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s-png", "s.manifest.json", "s.pdf"]
    assert oct(out.stat().st_mode & 0o777) != oct(0o600)  # an ordinary file, not a private temp


# --------------------------------------------------------------------------- template settings

TEXT_REGIONS = ("name", "value", "band", "type", "effect", "stats", "stickers", "rarity",
                "edition", "number", "fingerprint")


def test_every_region_but_the_art_stays_in_the_safe_zone() -> None:
    for path in sorted(default_templates_dir().glob("*.toml")):
        t = load_template(path.stem)
        for name in TEXT_REGIONS:
            r = t.regions.get(name)
            if r is None:
                continue
            x, y, w, h = r.box
            assert x >= t.safe_mm - 1e-6 and y >= t.safe_mm - 1e-6, (path.stem, name)
            assert x + w <= t.width_mm - t.safe_mm + 1e-6, (path.stem, name)
            assert y + h <= t.height_mm - t.safe_mm + 1e-6, (path.stem, name)
    # the footer of the poker layout used to sit 2.1 mm from the trim
    assert load_template("poker").regions["number"].box[1] + 2.6 <= 85 + 1e-6


def test_a_box_in_the_safe_margin_is_moved_inside(tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text(
        'extends = "poker"\n[card]\nsafe_mm = 4\n[regions.number]\nbox = [30, 84.5, 12, 2.6]\n'
        '[regions.art]\nbox = [0, 0, 63, 50]\n')
    t = load_template("t", tmp_path)
    assert t.regions["number"].box == pytest.approx((30, 88 - 4 - 2.6, 12, 2.6))
    assert t.regions["name"].box[0] >= 4 and t.regions["value"].box[:2] == pytest.approx((4.2, 4.2))
    assert t.regions["art"].box == (0, 0, 63, 50)  # art may run to the edge


def test_card_background_colours_a_card_without_colour(tmp_path: Path) -> None:
    (tmp_path / "nespanini.toml").write_text('extends = "nespanini"\n[card]\nbackground = "#00ff00"\n')
    t = load_template("nespanini", tmp_path)
    colourless = render_card(card(colour=None), t, RenderOptions(dpi=100, stickers=False))
    coloured = render_card(card(), t, RenderOptions(dpi=100))
    assert colourless.getpixel((3, 100)) == (0, 255, 0)  # the frame
    assert coloured.getpixel((3, 100)) == (0xc0, 0x39, 0x2b)  # rouge, as before
    assert t.colour_of("Rouge") == "#c0392b" and t.colour_of("pourpre") == "#5b6b7f"


def test_region_fill_is_painted_behind_its_text(tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text('extends = "nespanini"\n[regions.name]\nfill = "#0000ff"\n'
                                     '[regions.number]\nfill = "#ff00ff"\n')
    t = load_template("t", tmp_path)
    img = render_card(card(), t, RenderOptions(dpi=100))
    for region, colour in (("name", (0, 0, 255)), ("number", (255, 0, 255))):
        x, y, _w, _h = t.regions[region].box
        corner = (mm_to_px(x + 0.2, 100), mm_to_px(y + 0.2, 100))
        assert img.getpixel(corner) == colour, region
    plain = render_card(card(), load_template("nespanini"), RenderOptions(dpi=100))
    x, y, _w, _h = t.regions["name"].box
    assert plain.getpixel((mm_to_px(x + 0.2, 100), mm_to_px(y + 0.2, 100))) != (0, 0, 255)


def test_a_template_anywhere_can_extend_the_shipped_ones(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "fete.toml").write_text('extends = "nespanini"\n[back]\ntitle = "Fête"\n')
    t = load_template(folder / "fete.toml")
    assert t.back.title == "Fête" and t.back.background == load_template("nespanini").back.background
    assert load_template("fete", folder).regions["effect"].box == load_template("poker").regions["effect"].box
    # a template may even be named like the shipped one it changes
    (folder / "poker.toml").write_text('extends = "poker"\n[card]\npanel = "#ffffff"\n')
    mine = load_template("poker", folder)
    assert mine.panel == "#ffffff" and mine.regions["name"].size_pt == 11
    (folder / "a.toml").write_text('extends = "a2"\n')
    (folder / "a2.toml").write_text('extends = "a"\n')
    with pytest.raises(TemplateError, match="tourne en rond"):
        load_template("a", folder)


def test_overkill_atouts_get_their_template() -> None:
    ovk = edition_defs("OVK")
    atouts = [c for c in ovk if c.card_type != "Nombre"]
    assert len(atouts) == 19
    for c in atouts:
        assert template_for(c.game, c.card_type).name == "overkill-atout", c.card_type
    for c in ovk:
        if c.card_type == "Nombre":
            assert template_for(c.game, c.card_type).name == "overkill"
    t = template_for("overkill", "Challengers")
    assert "stats" in t.regions and t.back.title == "OVERKILL"
    img = render_card(atouts[0], t, RenderOptions(dpi=100, stickers=False))
    assert img.getpixel((3, 100)) == (0x2b, 0x2b, 0x30)


def test_template_types_list(tmp_path: Path) -> None:
    (tmp_path / "poker.toml").write_text((default_templates_dir() / "poker.toml").read_text())
    (tmp_path / "jeu.toml").write_text('extends = "poker"\n')
    (tmp_path / "jeu-sorts.toml").write_text('extends = "jeu"\ntypes = ["Sort rapide", "Rituel"]\n')
    (tmp_path / "jeu-creature.toml").write_text('extends = "jeu"\n')
    assert template_for("jeu", "Créature", tmp_path).source.stem == "jeu-creature"
    assert template_for("jeu", "rituel", tmp_path).source.stem == "jeu-sorts"
    assert template_for("jeu", "Sort  rapide", tmp_path).source.stem == "jeu-sorts"
    assert template_for("jeu", "Objet", tmp_path).source.stem == "jeu"
    (tmp_path / "bad.toml").write_text('extends = "poker"\ntypes = "Rituel"\n')
    with pytest.raises(TemplateError, match="types"):
        load_template("bad", tmp_path)


def test_printed_figures_follow_the_language() -> None:
    from cardbase.outputs.printing.card import stat_label

    assert stat_label("damage") == "dégâts" and stat_label("team_damage") == "dégâts d'équipe"
    assert stat_label("new_figure") == "new figure"
    assert stat_label("value", "overseers") == "valeur"  # a column every card has, by its name
    with i18n.use_language("en"):
        assert stat_label("team_damage") == "team damage" and stat_label("objectif") == "target"
        assert stat_label("value", "overseers") == "value"
    ct = next(c for c in edition_defs("CTT") if dict(c.stats).get("team_damage"))
    t = template_for(ct.game, ct.card_type)
    fr = render_card(ct, t, RenderOptions(dpi=100, fingerprint=False))
    with i18n.use_language("en"):
        en = render_card(ct, t, RenderOptions(dpi=100, fingerprint=False))
    assert fr.tobytes() != en.tobytes()
    with i18n.use_language("fr"):
        assert render_card(ct, t, RenderOptions(dpi=100, fingerprint=False)).tobytes() == fr.tobytes()
    # the fingerprint follows the printed words; French ones are as before
    from cardbase.outputs.printing import card_fingerprint
    french = card_fingerprint(ct)
    with i18n.use_language("en"):
        assert card_fingerprint(ct) != french


@pytest.mark.parametrize("reference", ["/etc/passwd", "../../x.png", "../outside.png", "link.png",
                                       "sub/../../outside.png"])
def test_art_outside_the_art_folder_is_never_read(tmp_path: Path, reference: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    art_dir = tmp_path / "art"
    art_dir.mkdir()
    Image.new("RGB", (30, 20), (10, 200, 30)).save(tmp_path / "outside.png")
    (art_dir / "link.png").symlink_to(tmp_path / "outside.png")
    opened: list[str] = []
    real_open = Image.open
    monkeypatch.setattr(art_mod.Image, "open", lambda fp, *a, **k: (opened.append(str(fp)), real_open(fp, *a, **k))[1])
    bad = card(number=7, art=reference)
    with pytest.raises(ArtError) as exc:
        render_card(bad, template_for("nespanini"), RenderOptions(art_dir=art_dir, dpi=72))
    assert "TST-007" in str(exc.value) and reference in str(exc.value)
    assert "dossier des images" in str(exc.value)
    out = tmp_path / "p.pdf"
    with pytest.raises(ArtError, match="TST-007"):
        print_cards([card(), bad], out, art_dir=art_dir, dpi=72)
    assert not out.exists() and opened == []
    # the fingerprint does not read it either
    from cardbase.outputs.printing import card_fingerprint
    real_read = Path.read_bytes
    read: list[Path] = []
    monkeypatch.setattr(Path, "read_bytes", lambda self: (read.append(self), real_read(self))[1])
    card_fingerprint(bad, art_dir=art_dir)
    assert not any("outside" in str(p) or "passwd" in str(p) for p in read)


def test_art_inside_the_folder_and_its_subfolders_prints(tmp_path: Path) -> None:
    (tmp_path / "np1").mkdir()
    Image.new("RGB", (30, 20), (10, 200, 30)).save(tmp_path / "np1" / "012.png")
    t = template_for("nespanini")
    img = render_card(card(art="np1/012.png"), t, RenderOptions(art_dir=tmp_path, dpi=72))
    x0, y0, x1, y1 = (mm_to_px(v, 72) for v in (t.regions["art"].box[0], t.regions["art"].box[1],
                                                  t.regions["art"].box[0] + t.regions["art"].box[2],
                                                  t.regions["art"].box[1] + t.regions["art"].box[3]))
    assert img.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == (10, 200, 30)


def test_value_disc_stays_round_on_stretched_layouts() -> None:
    t = load_template("tarot")
    x, y, w, h = t.regions["value"].box
    assert abs(w - h) > 1  # the inherited box is stretched
    img = render_card(card(colour="bleu"), t, RenderOptions(dpi=150, stickers=False))
    blue = (0x1f, 0x5f, 0xae)
    cx, cy = mm_to_px(x + w / 2, 150), mm_to_px(y + h / 2, 150)
    # the disc's extent across and down its centre, by the card colour: a circle, not an ellipse
    across = [i for i in range(mm_to_px(x, 150), mm_to_px(x + w, 150)) if img.getpixel((i, cy + 12)) == blue]
    down = [j for j in range(mm_to_px(y, 150), mm_to_px(y + h, 150)) if img.getpixel((cx + 12, j)) == blue]
    assert across and down
    assert abs((across[-1] - across[0]) - (down[-1] - down[0])) <= 2


def test_odd_back_offsets_and_huge_manifests_are_refused(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    for offset in ((float("nan"), 0.0), (0.0, float("inf")), (1e9, 0.0)):
        with pytest.raises(PrintError, match="décalage du dos"):
            print_cards([card()], tmp_path / "x.pdf", backs=True, back_offset_mm=offset)
    first = print_cards([card()], tmp_path / "a.pdf", dpi=72)
    monkeypatch.setattr(sheets_mod, "MAX_MANIFEST_BYTES", 10)
    with pytest.raises(PrintError, match="a.manifest.json"):
        print_cards([card()], tmp_path / "b.pdf", dpi=72, changed_since=first.manifest)
    assert not (tmp_path / "x.pdf").exists() and not (tmp_path / "b.pdf").exists()


def test_shop_file_names_stay_in_their_folder(tmp_path: Path) -> None:
    tpl = tmp_path / "tpl"
    tpl.mkdir()
    (tpl / "evil.toml").write_text('extends = "nespanini"\nname = "../../escaped"\n')
    out = tmp_path / "out" / "s.pdf"
    out.parent.mkdir()
    print_cards([card()], out, mode="shop", dpi=72, template="evil", templates_dir=tpl)
    assert sorted(p.name for p in (tmp_path / "out" / "s-png").iterdir()) == [
        "TST-012.png", "back-______escaped.png"]
    assert not list(tmp_path.rglob("*escaped*"))[1:]  # only the one inside the folder


@pytest.mark.parametrize("dpi", [300, 150])
def test_text_is_never_fitted_under_the_templates_minimum(dpi: int) -> None:
    """Whole pixels rounded the minimum down: 4.6 pt is 19.2 px at 300 dpi, and 19 px (4.56 pt)
    was accepted. Every text that fits is now at the minimum or above, at any resolution that
    fits it (at 150 dpi one pixel less is allowed only where print at 300 dpi fits it)."""
    from cardbase.errors import TemplateError
    from cardbase.outputs.printing.textfit import FIT_DPI

    w, h = mm_to_px(52, dpi), mm_to_px(20, dpi)
    smallest = None
    for n in range(40, 400, 7):
        try:
            layout = fit_text([Paragraph(" ".join(["mot"] * n))], w, h, size_pt=8.2,
                              min_size_pt=4.6, dpi=dpi)
        except TemplateError:
            continue
        smallest = min(smallest or layout.size_px, layout.size_px)
    assert smallest is not None
    if dpi == FIT_DPI:
        assert smallest * 72 / dpi >= 4.6
    else:
        assert (smallest + 1) * 72 / dpi >= 4.6


def test_a_card_template_too_large_to_draw_is_refused_on_loading(tmp_path: Path) -> None:
    """A card of a kilometre would ask for a canvas of gigabytes before a pixel is drawn: the
    template is refused on loading, every size at once (the card at most 1 m, the bleed 50 mm)."""
    import json
    import tomllib

    from cardbase.outputs.printing import templates as tpl

    project = Path(__file__).resolve().parents[1]
    data = tomllib.loads((project / "card_templates" / "poker.toml").read_text(encoding="utf-8"))
    data["card"].update(width_mm=1_000_000, height_mm=1000, bleed_mm=80)
    (tmp_path / "poker.toml").write_text((project / "card_templates" / "poker.toml").read_text(encoding="utf-8"),
                                         encoding="utf-8")
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    tpl.clear_cache()
    with pytest.raises(TemplateError) as err:
        tpl.load_template(path, tmp_path)
    text = str(err.value)
    assert "width_mm" in text and "1000000" in text and "bleed_mm" in text
    assert "height_mm" not in text  # 1 m is still a card
