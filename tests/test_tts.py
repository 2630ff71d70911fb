"""``cardbase tts``: decks and box games for Tabletop Simulator, read back the way the game reads them."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from PIL import Image, ImageChops
from typer.testing import CliRunner

from cardbase import catalog, decks, i18n
from cardbase.cli import app
from cardbase.printing import RenderOptions, render_back, render_card, template_for
from cardbase.stickers import colour_table
from cardbase.tts import (
    MAX_FACES_PER_SHEET,
    MAX_SIDE_PX,
    TtsSource,
    card_index,
    cell_size,
    export_tts,
    grid_for,
)

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _export(args: list[str]) -> dict:
    res = runner.invoke(app, ["tts", "export", *args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _path_of(url: str) -> Path:
    parts = urlsplit(url)
    assert parts.scheme == "file", url
    return Path(unquote(parts.path))


def read_back(object_path: Path) -> list[tuple[dict, Image.Image]]:
    """Each card of the saved object with the cell of its sheet, as the game cuts it."""
    doc = json.loads(Path(object_path).read_text(encoding="utf-8"))
    (deck,) = doc["ObjectStates"]
    assert deck["Name"] == "DeckCustom"
    assert deck["Transform"]["rotZ"] == 180.0  # face down
    cards = deck["ContainedObjects"]
    assert deck["DeckIDs"] == [c["CardID"] for c in cards]
    sheets: dict[str, Image.Image] = {}
    out = []
    for card in cards:
        assert card["Name"] == "Card"
        key, cell = card_index(card["CardID"])
        custom = deck["CustomDeck"][str(key)]
        assert card["CustomDeck"][str(key)] == custom
        assert custom["BackIsHidden"] is True and custom["UniqueBack"] is False
        cols, rows = custom["NumWidth"], custom["NumHeight"]
        assert 2 <= cols <= 10 and 2 <= rows <= 7
        assert 0 <= cell < cols * rows - 1  # the last cell is the hidden-card image
        if str(key) not in sheets:
            sheets[str(key)] = Image.open(_path_of(custom["FaceURL"]))
            sheets[str(key)].load()
        sheet = sheets[str(key)]
        assert sheet.mode == "RGB" and max(sheet.size) <= MAX_SIDE_PX
        assert sheet.width % cols == 0 and sheet.height % rows == 0
        cw, ch = sheet.width // cols, sheet.height // rows
        assert cw * 88 == ch * 63  # exactly the card's proportions
        r, c = divmod(cell, cols)
        out.append((card, sheet.crop((c * cw, r * ch, (c + 1) * cw, (r + 1) * ch))))
    return out


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


def _check_faces(session, cells: list[tuple[dict, Image.Image]]) -> None:
    """The cell of every card is that card's own render at the cell's size."""
    table = colour_table(session)
    done: set[str] = set()
    for card, cell in cells:
        ref = card["GMNotes"]
        if ref in done:
            continue
        done.add(ref)
        found = catalog.get_card(session, ref)
        (d,) = catalog.card_defs(session, ids=[found.id])
        assert card["Nickname"] == d.name
        assert card["Description"] == (d.effect_text or d.effect or "")
        t = template_for(d.game, d.card_type)
        _, _, dpi = cell_size(t.width_mm, t.height_mm)
        symbol = catalog.get_edition(session, d.edition).symbol
        own = render_card(d, t, RenderOptions(dpi=dpi, sticker_table=table,
                                              edition_symbols={d.edition: symbol} if symbol else {}))
        assert _same(cell, own), ref


def test_grid_and_cell_size() -> None:
    assert cell_size(63, 88) == (378, 528, pytest.approx(152.4))
    assert grid_for(1) == (2, 2)
    assert grid_for(20) == (10, 3)  # 20 faces and the empty last cell
    assert grid_for(69) == (10, 7)
    with pytest.raises(ValueError):
        grid_for(70)
    assert 10 * 378 <= MAX_SIDE_PX and 7 * 528 <= MAX_SIDE_PX


def test_deck_export_read_back_as_the_game_does(cli_env: str, session, tmp_path: Path) -> None:
    deck_file = ROOT / "data" / "decks" / "bosquet-en-fete.txt"
    out = _export([str(deck_file), "--out", str(tmp_path / "tts")])
    assert out["cards"] == 20 and len(out["sheets"]) == 1
    cells = read_back(Path(out["object"]))
    assert len(cells) == 20
    # copies counted: the deck list, card by card
    listed = decks.resolve_deck(session, decks.read_deck_file(deck_file))
    assert Counter(c["GMNotes"] for c, _ in cells) == {e.ref: e.count for e in listed.entries}
    # each distinct card drawn once: copies share a CardID
    ids = {c["GMNotes"]: c["CardID"] for c, _ in cells}
    assert all(c["CardID"] == ids[c["GMNotes"]] for c, _ in cells)
    assert len(set(ids.values())) == len(listed.entries)
    _check_faces(session, cells)
    # the back is the game's back template at the cell's size
    doc = json.loads(Path(out["object"]).read_text(encoding="utf-8"))
    custom = doc["ObjectStates"][0]["CustomDeck"]["1"]
    assert _path_of(custom["BackURL"]) == Path(out["back"]).resolve()
    with Image.open(out["back"]) as back:
        assert _same(back, render_back(template_for("nespanini"), cell_size(63, 88)[2]))
    assert doc["ObjectStates"][0]["Nickname"] == "Le Bosquet en fête"
    assert not list((tmp_path / "tts").glob(".*"))  # no temporary file left behind


def test_box_game_counts_every_copy(cli_env: str, session, tmp_path: Path) -> None:
    out = _export(["--edition", "CTT", "--out", str(tmp_path)])
    assert out["cards"] == 68
    cells = read_back(Path(out["object"]))
    counts = Counter(c["GMNotes"] for c, _ in cells)
    defs = catalog.card_defs(session, edition="CTT")
    assert counts == {d.ref: d.copies for d in defs} and sum(counts.values()) == 68
    assert len({c["CardID"] for c, _ in cells}) == 26
    _check_faces(session, cells[:12] + cells[-12:])


def test_84_faces_span_two_sheets(session, tmp_path: Path) -> None:
    defs = [d for d in catalog.card_defs(session, edition="NP1") + catalog.card_defs(session, edition="OVK")]
    assert len(defs) >= 84
    faces = defs[:84]
    source = TtsSource("Quatre-vingt-quatre", "file", tuple(faces) + (faces[0], faces[70]))
    result = export_tts(source, tmp_path, sticker_table=colour_table(session))
    assert len(result.sheets) == 2 and result.faces == 84 and result.cards == 86
    cells = read_back(result.object)
    keys = Counter(card_index(c["CardID"])[0] for c, _ in cells[:84])
    assert keys == {1: MAX_FACES_PER_SHEET, 2: 84 - MAX_FACES_PER_SHEET}
    doc = result.document["ObjectStates"][0]["CustomDeck"]
    assert (doc["1"]["NumWidth"], doc["1"]["NumHeight"]) == (10, 7)
    assert (doc["2"]["NumWidth"], doc["2"]["NumHeight"]) == (10, 2)
    with Image.open(result.sheets[0]) as first:
        assert first.size == (3780, 3696)
    assert cells[84][0]["CardID"] == 100 and cells[85][0]["CardID"] == 201
    _check_faces(session, cells[60:75])


def test_export_then_import_gives_the_same_deck_list(cli_env: str, session, tmp_path: Path) -> None:
    out = _export(["braises-ardentes", "--out", str(tmp_path)])
    res = runner.invoke(app, ["tts", "import", out["object"], "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    (deck,) = data["decks"]
    starter = decks.resolve_deck(session, decks.read_deck_file(ROOT / "data/decks/braises-ardentes.txt"))
    assert {c["ref"]: c["count"] for c in deck["cards"]} == {e.ref: e.count for e in starter.entries}
    assert all(c["matched_by"] == "ref" for c in deck["cards"]) and data["unknown"] == []
    # the text output is a deck list that reads back to the same cards
    res = runner.invoke(app, ["tts", "import", out["object"]])
    assert res.exit_code == 0, res.output
    again = decks.resolve_deck(session, decks.parse_deck_list(res.stdout))
    assert again.problems == ()
    assert {e.ref: e.count for e in again.entries} == {e.ref: e.count for e in starter.entries}
    assert again.name == "Braises ardentes"


def test_import_a_game_save_with_cards_moved(cli_env: str, tmp_path: Path) -> None:
    """Two decks after a game, a loose card, a card without its reference, an unknown card."""
    card = {"Name": "Card", "CardID": 100}
    doc = {"SaveName": "Partie", "ObjectStates": [
        {"Name": "DeckCustom", "Nickname": "Main", "ContainedObjects": [
            {**card, "Nickname": "Villageois", "GMNotes": "NP1-027"},
            {**card, "Nickname": "Villageois", "GMNotes": "NP1-027"},
            {**card, "Nickname": "Glaneuse", "GMNotes": ""},
            {**card, "Nickname": "Carte inventée", "GMNotes": "ZZZ-999"},
            "pas un objet",
        ]},
        {"Name": "Bag", "ContainedObjects": [
            {"Name": "Deck", "Nickname": "Défausse", "ContainedObjects": [
                {**card, "Nickname": 12, "GMNotes": "NP1-027"}]}]},
        {**card, "Nickname": "Herboriste", "GMNotes": None},
    ]}
    path = tmp_path / "partie.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    res = runner.invoke(app, ["tts", "import", str(path), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    names = [d["name"] for d in data["decks"]]
    assert names == ["Main", "Défausse", "Cartes hors deck"]
    assert data["decks"][0]["cards"][0] == {"ref": "NP1-027", "name": "Villageois", "count": 2,
                                           "matched_by": "ref"}
    assert data["decks"][0]["cards"][1]["matched_by"] == "name"
    assert data["unknown"] == [{"name": "Carte inventée", "count": 1}]
    assert data["cards"] == 5
    assert "reconnue par son nom" in res.stderr and "Glaneuse" in res.stderr
    assert "Carte inventée" in res.stderr and "ContainedObjects[4]" in res.stderr
    with i18n.use_language("en"):
        res = runner.invoke(app, ["--lang", "en", "tts", "import", str(path)])
    assert res.exit_code == 0, res.output
    assert "matched by its name" in res.stderr and "unknown: 'Carte inventée'" in res.stderr


def _fails(args: list[str], *expected: str) -> str:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, res.output
    assert isinstance(res.exception, SystemExit)  # no traceback
    assert "Traceback" not in res.output
    for text in expected:
        assert text in res.stderr, res.stderr
    return res.stderr


def test_bad_sources_exit_2_naming_them(cli_env: str, tmp_path: Path) -> None:
    out = str(tmp_path / "o")
    _fails(["tts", "export", "deck-qui-n-existe-pas", "--out", out],
           "deck-qui-n-existe-pas", "braises-ardentes")
    _fails(["tts", "export", "--edition", "ZZZ", "--out", out], "ZZZ", "CTT")
    _fails(["tts", "export", "--out", out], "--edition")
    _fails(["tts", "export", "braises-ardentes", "--edition", "CTT", "--out", out], "--edition")
    bad = tmp_path / "bad.txt"
    bad.write_text("2 Villageois\n3 Carte qui n'existe pas\n", encoding="utf-8")
    _fails(["tts", "export", str(bad), "--out", out], "Carte qui n'existe pas")
    a_file = tmp_path / "fichier"
    a_file.write_text("x")
    _fails(["tts", "export", "--edition", "CTT", "--out", str(a_file)], "pas un dossier")
    _fails(["tts", "export", "--edition", "CTT", "--out", out, "--base-url", "pas une adresse"],
           "--base-url")
    assert not Path(out).exists() or not any(Path(out).iterdir())
    with i18n.use_language("en"):
        _fails(["--lang", "en", "tts", "export", "nope", "--out", out], "no deck 'nope'")
        _fails(["--lang", "en", "tts", "export", "--edition", "ZZZ", "--out", out],
               "no edition 'ZZZ'")


def test_hostile_saved_objects_get_clear_errors(cli_env: str, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def write(name: str, data: str | bytes) -> str:
        p = tmp_path / name
        p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        return str(p)

    _fails(["tts", "import", write("deep.json", "[" * 200_000 + "]" * 200_000)], "trop profondément")
    nested: dict = {"Name": "Bag", "ContainedObjects": []}
    top = nested
    for _ in range(60):
        child: dict = {"Name": "Bag", "ContainedObjects": []}
        nested["ContainedObjects"].append(child)
        nested = child
    _fails(["tts", "import", write("bags.json", json.dumps({"ObjectStates": [top]}))],
           "trop profondément")
    _fails(["tts", "import", write("types.json", '{"ObjectStates": {"a": 1}}')], "ObjectStates",
           "liste")
    _fails(["tts", "import", write("text.json", "pas du json")], "pas du JSON valide", "ligne 1")
    _fails(["tts", "import", write("bin.json", b"\xff\xfe\x00garbage")], "UTF-8")
    _fails(["tts", "import", write("number.json", "42")], "n'est pas un objet enregistré")
    _fails(["tts", "import", str(tmp_path)], "dossier")
    _fails(["tts", "import", str(tmp_path / "absent.json")], "n'existe pas")
    nothing = {"ObjectStates": [{"Name": "DeckCustom", "ContainedObjects": [
        {"Name": "Card", "Nickname": "Zorglub", "GMNotes": "ZZZ-001"},
        {"Name": "Card", "Nickname": ["liste"], "CardID": 314}]}]}
    _fails(["tts", "import", write("nothing.json", json.dumps(nothing))],
           "aucune des 2 carte(s)", "Zorglub", "CardID 314")
    many = {"ObjectStates": [{"Name": "Card", "Nickname": "x"}] * 60_000}
    _fails(["tts", "import", write("many.json", json.dumps(many))], "plus de 50000 objets")
    import cardbase.tts as tts

    monkeypatch.setattr(tts, "MAX_IMPORT_BYTES", 1000)
    _fails(["tts", "import", write("big.json", json.dumps({"ObjectStates": [], "x": "a" * 2000}))],
           "pèse")


def test_base_url_and_english_output(cli_env: str, tmp_path: Path) -> None:
    out = _export(["--edition", "CTT", "--out", str(tmp_path), "--base-url",
                   "https://exemple.fr/jeux/ct"])
    doc = json.loads(Path(out["object"]).read_text(encoding="utf-8"))
    custom = doc["ObjectStates"][0]["CustomDeck"]["1"]
    assert custom["FaceURL"] == "https://exemple.fr/jeux/ct/" + Path(out["sheets"][0]).name
    assert custom["BackURL"] == "https://exemple.fr/jeux/ct/" + Path(out["back"]).name
    res = runner.invoke(app, ["tts", "export", "--edition", "CTT", "--out", str(tmp_path)])
    assert res.exit_code == 0 and "68 carte(s), 26 face(s) différente(s) sur 1 planche(s)" in res.output
    with i18n.use_language("en"):
        res = runner.invoke(app, ["--lang", "en", "tts", "export", "--edition", "CTT", "--out",
                                  str(tmp_path)])
    assert res.exit_code == 0 and "68 card(s), 26 distinct face(s) on 1 sheet(s)" in res.output
    assert "Saved Objects" in res.output


@pytest.mark.sqlite_only("page rendering does not depend on the database backend")
def test_print_page_offers_the_tts_zip(cli_env: str, tmp_path: Path) -> None:
    import io
    import zipfile

    from streamlit.testing.v1 import AppTest

    script = """
from cardbase.ui import common, printing
common.apply_language()
printing.render()
"""
    at = AppTest.from_string(script, default_timeout=60)
    at.session_state["lang"] = "fr"
    at.session_state["pr_source"] = "edition"
    at.session_state["pr_edition"] = "CTT"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    # no folder by default (the server's own home means nothing on the player's computer): the
    # placeholder shows a full path ending like the folder inside the zip, the button waits for one
    assert at.text_input(key="pr_tts_dir").value == ""
    assert "ct-vs-terror" in at.text_input(key="pr_tts_dir").placeholder
    assert at.button(key="pr_tts_go").disabled
    at.text_input(key="pr_tts_dir").set_value("cardbase-tts/ct").run()  # relative: no computer finds it
    assert at.button(key="pr_tts_go").disabled
    assert any("chemin complet" in c.value for c in at.caption)
    at.text_input(key="pr_tts_dir").set_value(str(tmp_path / "ct")).run()
    at.button(key="pr_tts_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("68 carte(s), 26 face(s)" in s.value for s in at.success)
    (button,) = [b for b in at.get("download_button") if "Tabletop" in b.proto.label]
    # the zip holds what the command writes: the saved object and its images, pointing at the folder
    data = at.session_state["pr_tts"]["zip"]
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
        assert sorted(n.split("/")[1].split("-faces")[0] for n in names if "-faces-" in n) == ["ct-vs-terror"]
        doc = json.loads(zf.read("ct-vs-terror/ct-vs-terror.json"))
    assert len(doc["ObjectStates"][0]["ContainedObjects"]) == 68
    assert at.text_input(key="pr_tts_dir").value == str(tmp_path / "ct")
    face = doc["ObjectStates"][0]["CustomDeck"]["1"]["FaceURL"]
    assert face.startswith((tmp_path / "ct").resolve().as_uri() + "/ct-vs-terror-faces-1-")
    assert any(n.startswith("ct-vs-terror/ct-vs-terror-back-") for n in names) and button is not None


def test_a_failed_export_keeps_the_previous_files(session, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import cardbase.tts as tts

    source = tts.edition_source(session, "P15")
    first = export_tts(source, tmp_path, sticker_table=colour_table(session))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full_disk)  # the saved object is written last
    with pytest.raises(tts.CardbaseError) as err:
        export_tts(source, tmp_path, sticker_table=colour_table(session))
    assert str(first.object) in str(err.value) and "No space left" in str(err.value)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # no .part file left
    monkeypatch.undo()
    assert len(read_back(first.object)) == 6


def test_overseers_sticker_codes_and_no_stickers(cli_env: str, tmp_path: Path) -> None:
    # grey has no sticker symbol in the rules: the print pipeline's clear error, then --no-stickers
    _fails(["tts", "export", "--edition", "OVS", "--out", str(tmp_path)], "gris", "--no-stickers")
    out = _export(["--edition", "OVS", "--out", str(tmp_path), "--no-stickers"])
    assert out["cards"] == 47


def test_deck_list_uses_the_reference_of_a_shared_name(session, tmp_path: Path) -> None:
    from cardbase.tts import ImportedDeck, ImportedEntry

    (d,) = [c for c in catalog.card_defs(session, edition="NP1") if c.number == 27]
    text = ImportedDeck("D", [ImportedEntry(d, 2, "ref")], frozenset({fold_name(d.name)})).deck_list()
    assert "2 NP1-027" in text
    assert "2 Villageois" in ImportedDeck("D", [ImportedEntry(d, 2, "ref")]).deck_list()


def fold_name(name: str) -> str:
    from cardbase.text import fold

    return fold(name)


@pytest.mark.sqlite_only("the reader's limits do not depend on the database backend")
def test_any_json_gives_a_result_or_a_clear_error(session, tmp_path: Path) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from cardbase.tts import TtsError, read_saved_object

    leaves = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | \
        st.sampled_from(["Card", "DeckCustom", "Deck", "Bag", "NP1-027", "Villageois", ""]) | st.text(max_size=8)
    keys = st.sampled_from(["Name", "Nickname", "GMNotes", "ContainedObjects", "ObjectStates",
                            "CardID", "x"])
    values = st.recursive(leaves, lambda kids: st.lists(kids, max_size=4)
                          | st.dictionaries(keys, kids, max_size=5), max_leaves=30)
    path = tmp_path / "fuzz.json"

    @settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(values)
    def check(value) -> None:
        path.write_text(json.dumps(value), encoding="utf-8")
        try:
            result = read_saved_object(session, path)
        except TtsError as exc:
            assert str(exc)
            return
        assert result.cards > 0 and all(d.deck_list() for d in result.decks)

    check()


def test_one_card_and_no_card(cli_env: str, tmp_path: Path) -> None:
    one = tmp_path / "one.txt"
    one.write_text("1 Villageois\n", encoding="utf-8")
    out = _export([str(one), "--out", str(tmp_path / "o")])
    doc = json.loads(Path(out["object"]).read_text(encoding="utf-8"))
    (card,) = doc["ObjectStates"]
    assert card["Name"] == "Card" and card["GMNotes"] == "NP1-027" and card["CardID"] == 100
    assert card["CustomDeck"]["1"]["NumWidth"] == 2 and card["CustomDeck"]["1"]["NumHeight"] == 2
    res = runner.invoke(app, ["tts", "import", out["object"], "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["decks"][0]["cards"][0]["ref"] == "NP1-027"
    empty = tmp_path / "empty.json"
    empty.write_text('{"ObjectStates": [{"Name": "Bag", "ContainedObjects": []}]}', encoding="utf-8")
    _fails(["tts", "import", str(empty)], "aucune carte", "Save Object")
