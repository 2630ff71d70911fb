"""Print-shop presets (exact canvases, bleed, safe area, file pairing) and colour-blind proofs."""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageChops
from test_app import SQLITE, app_env, no_exception, page_test  # noqa: F401 (app_env: a fixture)
from test_printing import card, edition_defs
from typer.testing import CliRunner

from cardbase import i18n
from cardbase.cli import app
from cardbase.errors import CardbaseError
from cardbase.outputs.printing import RenderOptions, load_template, print_cards, render_card, template_for
from cardbase.outputs.printing import presets as presets_mod
from cardbase.outputs.printing.colourblind import (
    DEFAULT_THRESHOLD,
    colour_report,
    delta_e,
    simulate_image,
)
from cardbase.outputs.printing.presets import (
    PresetError,
    fit,
    fit_note,
    get_preset,
    load_presets,
    shop_back,
    shop_face,
)
from cardbase.outputs.printing.sheets import PROOF_DPI

runner = CliRunner()

LONG_TEXT = ("Défausse : piochez deux cartes, puis défaussez une carte de votre main. "
             "Si la carte défaussée est rouge, chaque adversaire perd 2 points ; sinon, "
             "regardez les trois premières cartes de votre deck et remettez-les dans l'ordre "
             "de votre choix. Foule : +1 pour chaque autre carte de la Foule dans votre main. ") * 2


def _dpi(path: Path) -> tuple[int, int]:
    with Image.open(path) as im:
        return tuple(round(v) for v in im.info["dpi"])  # type: ignore[return-value]


# --------------------------------------------------------------------------- presets as data

def test_shipped_presets_have_the_shops_numbers() -> None:
    presets = load_presets()
    tgc, mpc, mm = presets["tgc-poker"], presets["mpc-poker"], presets["poker-63x88-bleed3"]
    assert tgc.canvas_px == (825, 1125) and tgc.dpi == 300
    g = tgc.geometry()
    assert (g.trim[2] - g.trim[0], g.trim[3] - g.trim[1]) == (750, 1050)  # 2.5 × 3.5 in
    assert (g.safe[2] - g.safe[0], g.safe[3] - g.safe[1]) == (675, 975)
    assert mpc.canvas_px == (822, 1122)
    assert "template" in mpc.note or "gabarit" in mpc.note  # check the shop's current template
    with i18n.use_language("en"):
        assert "check the shop's current template" in mpc.note
    assert mm.canvas_px == (815, 1110) and mm.trim_mm == (63, 88) and mm.bleed_mm == 3
    for p in presets.values():
        assert p.source.strip()


def test_a_bad_presets_file_lists_every_problem(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "shops.toml"
    path.write_text('[a]\nunit = "in"\ntrim = [2.5, 3.5]\nbleed = 0.125\ndpi = 300\n'
                    'canvas_px = [800, 1125]\nsource = "x"\ncolor = 1\n'
                    '[b]\ntrim = [63, 88]\nbleed = 3\ncanvas_px = [815, 1110]\n', encoding="utf-8")
    with pytest.raises(PresetError) as err:
        load_presets(path)
    where = " ".join(p.where for p in err.value.problems)
    messages = " ".join(p.message for p in err.value.problems)
    assert "[a]" in where and "[b]" in where
    assert "color" in messages and "800" in messages and "source" in messages
    monkeypatch.setenv("CARDBASE_PRESETS", str(tmp_path / "none.toml"))
    with pytest.raises(PresetError, match="none.toml"):
        load_presets()
    monkeypatch.delenv("CARDBASE_PRESETS")
    with pytest.raises(PresetError, match="tgc-poker"):  # the message lists the known presets
        get_preset("tgc")


# --------------------------------------------------------------------------- exact canvases

@pytest.mark.parametrize("name", ["tgc-poker", "mpc-poker", "poker-63x88-bleed3"])
def test_shop_files_are_exactly_the_preset_canvas(name: str, tmp_path: Path) -> None:
    preset = get_preset(name)
    cards = edition_defs("NP1")[:3] + edition_defs("CTT")[:2]
    out = tmp_path / "deck.pdf"
    result = print_cards(cards + cards[:1], out, mode="shop", preset=name, backs=True)
    folder = tmp_path / "deck-png"
    names = sorted(p.name for p in folder.iterdir())
    fronts = [n for n in names if n.startswith("front-")]
    backs = [n for n in names if n.startswith("back-")]
    # one front and one back per card, paired by number, in the cards' order
    assert fronts == [f"front-{i:03d}-{c.ref}.png" for i, c in enumerate(cards, start=1)]
    assert backs == [f.replace("front-", "back-") for f in fronts]
    assert len(names) == 10 and result.cards == 6
    for n in names:
        with Image.open(folder / n) as im:
            assert im.size == preset.canvas_px and im.mode == "RGB", n
        assert _dpi(folder / n) == (300, 300)
    # the PDF: one page per face and per back, at the canvas size, trim box set
    data = out.read_bytes()
    w, h = (v * 72 / 300 for v in preset.canvas_px)
    assert data.count(b"/Type /Page ") + data.count(b"/Type /Page\n") + \
        data.count(b"/Type /Page>") >= 1
    assert result.pages == 10
    media = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert media and all(abs(float(a) - w) < 0.01 and abs(float(b) - h) < 0.01 for a, b in media)
    assert b"/TrimBox" in data
    manifest = json.loads(result.manifest.read_text(encoding="utf-8"))
    assert manifest["preset"] == name


def test_every_mode_has_its_exact_size(tmp_path: Path) -> None:
    cards = edition_defs("NP1")[:2]
    # shop without a preset: the template's size plus its 3 mm bleed (69 × 94 mm at 300 dpi)
    print_cards(cards, tmp_path / "a.pdf", mode="shop")
    with Image.open(tmp_path / "a-png" / f"{cards[0].ref}.png") as im:
        assert im.size == (815, 1110)
    # proof with a preset: each card on the preset's canvas at screen resolution
    t = template_for(cards[0].game, cards[0].card_type)
    for preset in load_presets().values():
        face = shop_face(cards[0], t, preset, RenderOptions(), fingerprint="0" * 8, dpi=PROOF_DPI)
        assert face.size == preset.geometry(PROOF_DPI).canvas == (
            round(preset.canvas_px[0] * PROOF_DPI / 300), round(preset.canvas_px[1] * PROOF_DPI / 300))
        assert shop_back(t, preset).size == preset.canvas_px
    # a template of other proportions is scaled to fit, never cropped, and the print says so
    tarot = load_template("tarot")
    tgc = get_preset("tgc-poker")
    face = shop_face(cards[0], tarot, tgc, RenderOptions(), fingerprint="0" * 8)
    assert face.size == (825, 1125)
    f = fit(tarot, tgc)
    assert f.proportions_differ and f.extra_mm[0] > 10
    note = fit_note(tarot, tgc)
    assert "proportions" in note and "tarot" in note
    with i18n.use_language("en"):
        assert "proportions differ" in fit_note(tarot, tgc)
    result = print_cards([cards[0]], tmp_path / "t.pdf", mode="shop", preset="tgc-poker",
                         template="tarot")
    assert any("tarot" in n for n in result.notes)


def test_background_runs_into_the_bleed() -> None:
    c = card(colour="vert")
    t = template_for("nespanini")
    for preset in load_presets().values():
        face = np.asarray(shop_face(c, t, preset, RenderOptions(), fingerprint="0" * 8)).astype(int)
        frame = np.array(Image.new("RGB", (1, 1), t.colour_of("vert")).getpixel((0, 0)))
        for edge in (face[0], face[-1], face[:, 0], face[:, -1]):  # every outer row and column
            assert np.abs(edge - frame).max() <= 2, preset.name


# --------------------------------------------------------------------------- safe area

def _ink(full: Image.Image, blank: Image.Image) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(full, blank).convert("L").point(lambda v: 255 if v > 8 else 0).getbbox()


def _filling_text(t, preset) -> str:
    """The longest part of LONG_TEXT that the effect box holds without growing into the art
    (a grown text box moves the art's edge, which is allowed outside the safe area)."""
    from cardbase.outputs.printing.card import _effect_growth
    from cardbase.outputs.printing.textfit import Paragraph

    f = fit(t, preset)
    region = f.template.region("effect")
    words = LONG_TEXT.split()
    for n in range(len(words), 0, -4):
        text = " ".join(words[:n])
        paras = [Paragraph(text, region.font), Paragraph("« Ça, c'est fait. »", "italic")]
        if _effect_growth(card(effect_text=text), f.template, region, paras, f.dpi)[0] == 0:
            assert n > 40  # a text that really fills the box
            return text
    raise AssertionError("no text fits")


@pytest.mark.parametrize("safe_mm", [None, 6.0])
def test_text_stays_inside_the_safe_area(safe_mm: float | None, tmp_path: Path,
                                         monkeypatch) -> None:
    """A card whose texts fill their boxes: every pixel that the texts, value, stickers and
    rarity change lies inside the preset's safe rectangle (also with a safe margin twice the
    template's, which moves the regions inwards)."""
    if safe_mm is not None:
        path = tmp_path / "shops.toml"
        path.write_text(f'[wide]\nunit = "mm"\ntrim = [63, 88]\nbleed = 3\nsafe = {safe_mm}\n'
                        f'dpi = 300\ncanvas_px = [815, 1110]\nsource = "test"\n', encoding="utf-8")
        monkeypatch.setenv("CARDBASE_PRESETS", str(path))
        names = ["wide"]
    else:
        names = list(load_presets())
    t = template_for("nespanini")
    for name in names:
        preset = get_preset(name)
        g = preset.geometry()
        full = card(name="Chevalière de l'Été vif", effect_text=_filling_text(t, preset),
                    keywords=("Foule", "Défausse"), banner=None, value=17, rarity="rare")
        blank = dataclasses.replace(full, name=" ", effect_text=" ", flavour=None, keywords=(),
                                    card_type=None, value=None, rarity=None)
        a = shop_face(full, t, preset, RenderOptions(), fingerprint="abcdef12")
        b = shop_face(blank, t, preset, RenderOptions(stickers=False, fingerprint=False))
        box = _ink(a, b)
        assert box is not None
        x0, y0, x1, y1 = box
        assert x0 >= g.safe[0] - 1 and y0 >= g.safe[1] - 1, (name, box, g.safe)
        assert x1 <= g.safe[2] + 1 and y1 <= g.safe[3] + 1, (name, box, g.safe)
        # the text really fills its box: ink reaches close to the safe area's sides
        assert x0 - g.safe[0] < 60 and g.safe[2] - x1 < 60
        # and every region but the art (the footer too) lies in the safe area
        f = fit(t, preset)
        ppm = f.dpi / 25.4
        for region in f.template.regions.values():
            if region.name == "art":
                continue
            rx, ry, rw, rh = region.box
            ox = f.template.bleed_mm * ppm - f.crop[0]
            oy = f.template.bleed_mm * ppm - f.crop[1]
            assert ox + rx * ppm >= g.safe[0] - 1 and ox + (rx + rw) * ppm <= g.safe[2] + 1, region
            assert oy + ry * ppm >= g.safe[1] - 1 and oy + (ry + rh) * ppm <= g.safe[3] + 1, region


def test_proof_overlay_draws_trim_and_safe_lines(tmp_path: Path) -> None:
    cards = edition_defs("NP1")[:1]
    plain = tmp_path / "plain.png"
    lined = tmp_path / "lined.png"
    print_cards(cards, plain, mode="proof", preset="tgc-poker")
    print_cards(cards, lined, mode="proof", preset="tgc-poker", proof_overlay=True)
    a, b = Image.open(plain).convert("RGB"), Image.open(lined).convert("RGB")
    assert a.size == b.size
    g = get_preset("tgc-poker").geometry(PROOF_DPI)
    gap = 14  # the sheet's margin around the first card
    x, y = gap + round(g.trim[0]), gap + (round(g.trim[1]) + round(g.trim[3])) // 2
    assert b.getpixel((x, y)) == (0x11, 0x11, 0x11) != a.getpixel((x, y))  # the trim line
    diff = _ink(a, b)
    assert diff is not None and diff[0] >= gap + round(g.trim[0]) - 1
    with pytest.raises(CardbaseError, match="--proof-overlay"):
        print_cards(cards, tmp_path / "x.pdf", mode="shop", proof_overlay=True)


# --------------------------------------------------------------------------- colour vision

# Machado, Oliveira & Fernandes (2009), table of simulation matrices, severity 1.0
MACHADO = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                   [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                     [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                   [0.004733, 0.691367, 0.303900]],
}


def _independent_delta(a: str, b: str, deficiency: str) -> float:
    """The same figure computed here step by step: sRGB → linear, the paper's matrix, back to
    sRGB (clipped), then CAM02-UCS coordinates and their Euclidean distance."""
    from colorspacious import cspace_convert

    def sim(hex_: str) -> np.ndarray:
        rgb = np.array([int(hex_[i:i + 2], 16) for i in (1, 3, 5)]) / 255
        if deficiency == "normal":
            return rgb
        lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
        out = np.clip(np.array(MACHADO[deficiency]) @ lin, 0, 1)
        return np.where(out <= 0.0031308, out * 12.92, 1.055 * out ** (1 / 2.4) - 0.055)

    ja, jb = (cspace_convert(sim(h), "sRGB1", "CAM02-UCS") for h in (a, b))
    return float(np.linalg.norm(ja - jb))


def test_the_issues_figures() -> None:
    t = load_template("nespanini")
    c = {k: t.colour_of(k) for k in ("rouge", "jaune", "bleu", "orange", "vert", "marron", "violet")}
    assert delta_e(c["bleu"], c["violet"], "deuteranopia") == pytest.approx(3.7, abs=0.05)
    assert delta_e(c["rouge"], c["vert"], "deuteranopia") == pytest.approx(7.5, abs=0.05)
    assert delta_e(c["rouge"], c["marron"], "protanopia") == pytest.approx(3.4, abs=0.05)
    assert min(delta_e(c[a], c[b]) for a, b in itertools.combinations(c, 2)) > 18


def test_colour_report_matches_an_independent_computation() -> None:
    cards = edition_defs("NP1")
    report = colour_report(cards, sticker_table=None)
    assert set(report) >= {"method", "threshold", "colours", "pairs"}
    assert report["threshold"] == DEFAULT_THRESHOLD == 10
    t = template_for("nespanini")
    used = {c.colour for c in cards if c.colour}
    assert report["colours"] == {k: t.colour_of(k) for k in used}
    n = len(used)
    assert len(report["pairs"]) == n * (n - 1) // 2 * 4
    deltas = [p["delta_e"] for p in report["pairs"]]
    assert deltas == sorted(deltas)  # worst first
    for p in report["pairs"]:
        expected = _independent_delta(report["colours"][p["a"]], report["colours"][p["b"]],
                                      p["deficiency"])
        assert p["delta_e"] == pytest.approx(expected, abs=0.05), p
        assert p["distinct"] == (p["delta_e"] >= 10)
        assert p["deficiency"] in ("protanopia", "deuteranopia", "tritanopia", "normal")
        assert p["cue"] == "sticker"  # NesPanini prints the colour's sticker symbol
    worst = report["pairs"][0]
    assert (worst["a"], worst["b"], worst["deficiency"]) == ("bleu", "violet", "deuteranopia")


def test_cue_is_the_banner_or_nothing_without_stickers() -> None:
    base = [card(id=1, colour="rouge", banner="Braises"), card(id=2, colour="vert", banner="Bosquet")]
    no_sticker_template = {"rouge": None, "vert": None}
    report = colour_report(base, sticker_table={"bleu": "lune"})  # no symbol for rouge/vert
    assert {p["cue"] for p in report["pairs"]} == {"banner"}
    shared = [card(id=1, colour="rouge", banner="Foire"), card(id=2, colour="vert", banner="Foire")]
    report = colour_report(shared, sticker_table={"bleu": "lune"})
    assert {p["cue"] for p in report["pairs"]} == {"none"}
    assert no_sticker_template  # (the table above has no symbol for either colour)
    with pytest.raises(CardbaseError):
        colour_report(base, threshold=0)


def test_simulated_proof_differs_only_in_colour(tmp_path: Path) -> None:
    cards = edition_defs("NP1")[::8]
    plain, sim = tmp_path / "p.png", tmp_path / "s.png"
    print_cards(cards, plain, mode="proof", proof_overlay=True)
    print_cards(cards, sim, mode="proof", proof_overlay=True, simulate="deuteranopia")
    a = np.asarray(Image.open(plain).convert("RGB")).reshape(-1, 3)
    b = np.asarray(Image.open(sim).convert("RGB")).reshape(-1, 3)
    assert a.shape == b.shape
    # same layout: every pixel of one colour in the proof has one single colour in the simulation
    # (a colour mapping, nothing moved), so every edge of the proof is where it was
    key_a = a[:, 0].astype(np.int64) << 16 | a[:, 1].astype(np.int64) << 8 | a[:, 2]
    key_b = b[:, 0].astype(np.int64) << 16 | b[:, 1].astype(np.int64) << 8 | b[:, 2]
    pairs = np.unique(np.stack([key_a, key_b], 1), axis=0)
    assert len(pairs) == len(np.unique(key_a))
    # greys stay grey (the matrices keep white), red frames do not stay red
    grey = (a[:, 0] == a[:, 1]) & (a[:, 1] == a[:, 2])
    assert np.abs(b[grey].astype(int) - a[grey]).max() <= 2
    assert (np.abs(b.astype(int) - a).max(axis=1) > 30).mean() > 0.05
    # the pixels agree with the per-colour simulation within one level
    from colorspacious import cspace_convert

    sample = np.unique(a, axis=0)[:500]
    ref = np.clip(cspace_convert(sample / 255, {"name": "sRGB1+CVD", "cvd_type": "deuteranomaly",
                                                "severity": 100}, "sRGB1"), 0, 1)
    got = np.asarray(simulate_image(Image.fromarray(sample.reshape(1, -1, 3).astype(np.uint8)),
                                    "deuteranopia")).reshape(-1, 3)
    assert np.abs(got.astype(int) - np.round(ref * 255)).max() <= 1


# --------------------------------------------------------------------------- command line

def test_proof_colours_json_contract_and_table(cli_env: str) -> None:
    res = runner.invoke(app, ["proof", "colours", "--edition", "NP1", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert set(data) == {"method", "threshold", "colours", "pairs"}
    assert all(re.fullmatch(r"#[0-9a-f]{6}", v) for v in data["colours"].values())
    assert set(data["pairs"][0]) == {"a", "b", "deficiency", "delta_e", "distinct", "cue"}
    assert data["pairs"][0]["delta_e"] == pytest.approx(3.66, abs=0.01)
    res = runner.invoke(app, ["proof", "colours", "--game", "nespanini", "--threshold", "3",
                              "--json"])
    assert res.exit_code == 0
    assert all(p["distinct"] for p in json.loads(res.stdout)["pairs"])
    res = runner.invoke(app, ["proof", "colours", "--edition", "NP1"])
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("Vision"))
    assert "deutéranopie" in lines[first + 2] and "bleu / violet" in lines[first + 2]
    assert "3.7" in lines[first + 2] and "symbole d'autocollant" in lines[first + 2]
    assert "rouge / vert" in lines[first + 3]
    res = runner.invoke(app, ["--lang", "en", "proof", "colours", "--edition", "NP1"])
    assert "deuteranopia" in res.stdout and "Fix to consider" in res.stdout
    res = runner.invoke(app, ["proof", "colours", "--game", "ctterror"])  # no card colours
    assert res.exit_code == 0 and "aucune paire" in res.stdout
    res = runner.invoke(app, ["proof", "colours", "--game", "ctterror", "--json"])
    assert json.loads(res.stdout)["pairs"] == []
    res = runner.invoke(app, ["proof", "colours"])
    assert res.exit_code == 2 and "--game" in res.stderr
    res = runner.invoke(app, ["proof", "colours", "--edition", "XYZ"])
    assert res.exit_code == 2 and "XYZ" in res.stderr and "Traceback" not in res.output
    res = runner.invoke(app, ["proof", "colours", "--edition", "NP1", "--threshold", "-1"])
    assert res.exit_code == 2 and "seuil" in res.stderr


def test_print_presets_and_shop_command(cli_env: str, tmp_path: Path) -> None:
    res = runner.invoke(app, ["print", "presets", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    by_name = {p["name"]: p for p in data["presets"]}
    assert by_name["tgc-poker"]["canvas_px"] == [825, 1125]
    assert by_name["mpc-poker"]["canvas_px"] == [822, 1122]
    res = runner.invoke(app, ["print", "presets"])
    assert "825 × 1125 px" in res.stdout and "fond perdu" in res.stdout
    res = runner.invoke(app, ["--lang", "en", "print", "presets"])
    assert "bleed" in res.stdout and "fond perdu" not in res.stdout
    out = tmp_path / "ctt.pdf"
    res = runner.invoke(app, ["print", "--edition", "CTT", "--out", str(out), "--mode", "shop",
                              "--preset", "mpc-poker"])
    assert res.exit_code == 0, res.output
    assert "mpc-poker" in res.stdout and "note" in res.stdout  # scaled to 100.8 %: said
    fronts = sorted((tmp_path / "ctt-png").glob("front-*.png"))
    assert fronts and Image.open(fronts[0]).size == (822, 1122)
    proof = tmp_path / "p.png"
    res = runner.invoke(app, ["print", "--edition", "CTT", "--out", str(proof), "--mode", "proof",
                              "--preset", "tgc-poker", "--proof-overlay", "--simulate",
                              "tritanopia"])
    assert res.exit_code == 0, res.output
    assert proof.exists() and "tritanopia" in res.stdout
    for args, word in ((["--mode", "home", "--preset", "tgc-poker"], "--preset"),
                       (["--mode", "shop", "--preset", "nope"], "nope"),
                       (["--mode", "home", "--simulate", "deuteranopia"], "--simulate"),
                       (["--mode", "proof", "--simulate", "red"], "red")):
        target = tmp_path / ("x.png" if "proof" in args else "x.pdf")
        res = runner.invoke(app, ["print", "--edition", "CTT", "--out", str(target), *args])
        assert res.exit_code == 2 and word in res.stderr and "Traceback" not in res.output, args
    res = runner.invoke(app, ["--lang", "en", "print", "--edition", "CTT", "--out",
                              str(tmp_path / "x.pdf"), "--mode", "shop", "--preset", "nope"])
    assert "unknown preset" in res.stderr
    res = runner.invoke(app, ["print", "--edition", "CTT"])
    assert res.exit_code == 2 and "--out" in res.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_preset_print_failure_keeps_previous_files(tmp_path: Path) -> None:
    cards = edition_defs("CTT")[:2]
    out = tmp_path / "ctt.pdf"
    print_cards(cards, out, mode="shop", preset="tgc-poker")
    before = sorted(p.name for p in (tmp_path / "ctt-png").iterdir())
    bad = dataclasses.replace(cards[1], effect_text="x" * 6000)
    with pytest.raises(CardbaseError):
        print_cards([cards[0], bad], out, mode="shop", preset="tgc-poker")
    assert sorted(p.name for p in (tmp_path / "ctt-png").iterdir()) == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_render_card_is_unchanged_by_presets() -> None:
    """Drawing on a preset never changes the plain card (the caches are keyed apart)."""
    c = card()
    t = template_for("nespanini")
    before = render_card(c, t, RenderOptions(dpi=100), fingerprint="0" * 8).tobytes()
    for preset in load_presets().values():
        shop_face(c, t, preset, RenderOptions(), fingerprint="0" * 8)
    assert render_card(c, t, RenderOptions(dpi=100), fingerprint="0" * 8).tobytes() == before
    assert presets_mod.template_preset(t).canvas_px == (815, 1110)


# --------------------------------------------------------------------------- the print page

@SQLITE
@pytest.mark.usefixtures("app_env")
def test_print_page_shop_preset_zip_and_colour_proof() -> None:
    import io
    import zipfile

    at = page_test("printing").run()
    no_exception(at)
    at.radio(key="pr_mode").set_value("shop").run()
    at.selectbox(key="pr_preset").set_value("tgc-poker").run()
    no_exception(at)
    at.button(key="pr_go").click().run()
    no_exception(at)
    zips = [b for b in at.get("download_button") if "zip" in b.proto.label.lower()]
    assert zips, [b.proto.label for b in at.get("download_button")]
    data = at.session_state["pr_result"]["zip"]
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = sorted(n.split("/")[-1] for n in zf.namelist())
        assert len(names) == 128 and names[0] == "back-001-NP1-001.png"
        with Image.open(io.BytesIO(zf.read(zf.namelist()[0]))) as im:
            assert im.size == (825, 1125)
    at.radio(key="pr_mode").set_value("proof").run()
    at.checkbox(key="pr_overlay").check().run()
    at.selectbox(key="pr_simulate").set_value("deuteranopia").run()
    at.button(key="pr_go").click().run()
    no_exception(at)
    assert len(at.get("imgs")) >= 1 or len(at.get("image")) >= 2
    risks = at.table[-1].value
    assert risks.index[0] == "deutéranopie"
    assert list(risks.iloc[0])[:2] == ["bleu / violet", "3,7"]  # a decimal comma in the French app


@pytest.mark.parametrize("card_settings", [{"border_mm": 33}, {"border_mm": 30}, {"safe_mm": 31}])
def test_extreme_borders_and_safe_zones_still_render(tmp_path: Path, card_settings: dict) -> None:
    """A border wider than half the card (no panel, no frame lines on the back) or a safe zone
    that leaves a value disc smaller than its ring: the card and its back still render (found by
    the template fuzz test)."""
    from cardbase.outputs.printing import render_back
    from cardbase.outputs.printing import templates as tpl

    settings = "\n".join(f"{k} = {v}" for k, v in card_settings.items())
    (tmp_path / "wide.toml").write_text(f'extends = "poker"\n[card]\n{settings}\n', encoding="utf-8")
    tpl.clear_cache()
    t = load_template("wide", tmp_path)
    size = (round(63 * 40 / 25.4), round(88 * 40 / 25.4))
    assert render_back(t, 40).size == size
    try:
        face = render_card(card(), t, RenderOptions(dpi=40, fingerprint=False))
    except CardbaseError as exc:  # texts squeezed into 1 mm boxes: refused, with the region named
        assert "safe_mm" in card_settings and "zone" in str(exc)
        return
    assert face.size == size
    for preset in load_presets().values():
        assert shop_face(card(), t, preset, RenderOptions(), fingerprint="0" * 8).size == preset.canvas_px
