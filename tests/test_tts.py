"""``cardbase tts``: decks and box games for Tabletop Simulator, read back the way the game reads them."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from PIL import Image, ImageChops
from typer.testing import CliRunner

from cardbase import decks, i18n
from cardbase.catalog import cards as catalog
from cardbase.cli import app
from cardbase.outputs.printing import RenderOptions, render_back, render_card, template_for
from cardbase.catalog.stickers import colour_table
from cardbase.outputs.tts import (
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
        symbol = catalog.get_edition(session, d.edition).symbol
        # drawn as `cardbase print` draws it (300 dpi), then scaled down to the cell
        own = render_card(d, t, RenderOptions(dpi=300, sticker_table=table,
                                              edition_symbols={d.edition: symbol} if symbol else {}))
        assert _same(cell, own.resize(cell.size, Image.Resampling.LANCZOS)), ref


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
    (custom,) = doc["ObjectStates"][0]["CustomDeck"].values()
    assert _path_of(custom["BackURL"]) == Path(out["back"]).resolve()
    with Image.open(out["back"]) as back:
        assert _same(back, render_back(template_for("nespanini"), 300).resize(
            back.size, Image.Resampling.LANCZOS))
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
    k1, k2 = card_index(cells[0][0]["CardID"])[0], card_index(cells[83][0]["CardID"])[0]
    keys = Counter(card_index(c["CardID"])[0] for c, _ in cells[:84])
    assert keys == {k1: MAX_FACES_PER_SHEET, k2: 84 - MAX_FACES_PER_SHEET}
    doc = result.document["ObjectStates"][0]["CustomDeck"]
    assert (doc[str(k1)]["NumWidth"], doc[str(k1)]["NumHeight"]) == (10, 7)
    assert (doc[str(k2)]["NumWidth"], doc[str(k2)]["NumHeight"]) == (10, 2)
    with Image.open(result.sheets[0]) as first:
        assert first.size == (3780, 3696)
    assert cells[84][0]["CardID"] == k1 * 100 and cells[85][0]["CardID"] == k2 * 100 + 1
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
    assert res.exit_code == 1, res.output  # one card unknown: a partial deck
    data = json.loads(res.stdout)
    assert data["status"] == "partial" and data["exit_code"] == 1
    assert data["summary"] == {"decks": 3, "decks_kept": 3, "matched_by_ref": 3,
                               "matched_by_name": 2, "unknown": 1, "states": 0}
    names = [d["name"] for d in data["decks"]]
    assert names == ["Main", "Défausse", "Cartes hors deck"]
    first = data["decks"][0]["cards"][0]
    assert {k: first[k] for k in ("ref", "name", "count", "matched_by")} == {
        "ref": "NP1-027", "name": "Villageois", "count": 2, "matched_by": "ref"}
    assert [o["where"] for o in first["from"]] == ["ObjectStates[0].ContainedObjects[0]",
                                                   "ObjectStates[0].ContainedObjects[1]"]
    assert first["from"][0]["deck"] == "Main" and first["from"][0]["sheet"] == "1"
    assert data["decks"][0]["cards"][1]["matched_by"] == "name"
    (lost,) = data["unknown"]
    assert (lost["name"], lost["count"], lost["deck"], lost["sheet"], lost["cells"]) == (
        "Carte inventée", 1, "Main", "1", [0])
    assert data["cards"] == 5
    assert "reconnue par son nom" in res.stderr and "Glaneuse" in res.stderr
    assert "Carte inventée" in res.stderr and "ContainedObjects[4]" in res.stderr
    res = runner.invoke(app, ["tts", "import", str(path), "--partial"])
    assert res.exit_code == 0, res.output
    assert res.stderr.startswith("Résumé : 3 decks ou groupes de cartes trouvés")
    assert "Main" in res.stdout and "Glaneuse" in res.stdout
    with i18n.use_language("en"):
        res = runner.invoke(app, ["--lang", "en", "tts", "import", str(path)])
    assert res.exit_code == 1, res.output
    assert "--partial" in res.stderr
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
           "2 cartes lues, aucune ne correspond", "Zorglub", "planche 3, case 14")
    many = {"ObjectStates": [{"Name": "Card", "Nickname": "x"}] * 60_000}
    _fails(["tts", "import", write("many.json", json.dumps(many))], "plus de 50000 objets")
    import cardbase.outputs.tts as tts

    monkeypatch.setattr(tts, "MAX_IMPORT_BYTES", 1000)
    _fails(["tts", "import", write("big.json", json.dumps({"ObjectStates": [], "x": "a" * 2000}))],
           "pèse")


def test_base_url_and_english_output(cli_env: str, tmp_path: Path) -> None:
    out = _export(["--edition", "CTT", "--out", str(tmp_path), "--base-url",
                   "https://exemple.fr/jeux/ct"])
    doc = json.loads(Path(out["object"]).read_text(encoding="utf-8"))
    (custom,) = doc["ObjectStates"][0]["CustomDeck"].values()
    assert custom["FaceURL"] == "https://exemple.fr/jeux/ct/" + Path(out["sheets"][0]).name
    assert custom["BackURL"] == "https://exemple.fr/jeux/ct/" + Path(out["back"]).name
    res = runner.invoke(app, ["tts", "export", "--edition", "CTT", "--out", str(tmp_path)])
    assert res.exit_code == 0 and "68 cartes, 26 faces différentes sur 1 planche." in res.output
    with i18n.use_language("en"):
        res = runner.invoke(app, ["--lang", "en", "tts", "export", "--edition", "CTT", "--out",
                                  str(tmp_path)])
    assert res.exit_code == 0 and "68 cards, 26 distinct faces on 1 sheet." in res.output
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
    assert any("68 cartes, 26 faces différentes sur 1 planche." in s.value for s in at.success)
    (button,) = [b for b in at.get("download_button") if "Tabletop" in b.proto.label]
    # the zip holds what the command writes: the saved object and its images, pointing at the folder
    data = at.session_state["pr_tts"]["zip"]
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
        assert sorted(n.split("/")[1].split("-faces")[0] for n in names if "-faces-" in n) == ["ct-vs-terror"]
        doc = json.loads(zf.read("ct-vs-terror/ct-vs-terror.json"))
    assert len(doc["ObjectStates"][0]["ContainedObjects"]) == 68
    assert at.text_input(key="pr_tts_dir").value == str(tmp_path / "ct")
    (face,) = [c["FaceURL"] for c in doc["ObjectStates"][0]["CustomDeck"].values()]
    assert face.startswith((tmp_path / "ct").resolve().as_uri() + "/ct-vs-terror-faces-1-")
    assert any(n.startswith("ct-vs-terror/ct-vs-terror-back-") for n in names) and button is not None


def test_a_failed_export_keeps_the_previous_files(session, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import cardbase.outputs.tts as tts

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
    from cardbase.outputs.tts import ImportedDeck, ImportedEntry

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

    from cardbase.outputs.tts import TtsError, read_saved_object

    leaves = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | \
        st.sampled_from(["Card", "DeckCustom", "Deck", "Bag", "NP1-027", "Villageois", ""]) | st.text(max_size=8)
    keys = st.sampled_from(["Name", "Nickname", "GMNotes", "ContainedObjects", "ObjectStates",
                            "CardID", "States", "DeckIDs", "x"])
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
    (key, custom), = card["CustomDeck"].items()
    assert card["Name"] == "Card" and card["GMNotes"] == "NP1-027"
    assert card["CardID"] == int(key) * 100
    assert custom["NumWidth"] == 2 and custom["NumHeight"] == 2
    res = runner.invoke(app, ["tts", "import", out["object"], "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["decks"][0]["cards"][0]["ref"] == "NP1-027"
    empty = tmp_path / "empty.json"
    empty.write_text('{"ObjectStates": [{"Name": "Bag", "ContainedObjects": []}]}', encoding="utf-8")
    _fails(["tts", "import", str(empty)], "aucune carte", "Save Object")


# --------------------------------------------------------------------------- saved objects people have

CORPUS = ROOT / "tests" / "data" / "tts"


def _import_json(path: Path, *extra: str) -> tuple[int, dict, str]:
    res = runner.invoke(app, ["tts", "import", str(path), "--json", *extra])
    assert "Traceback" not in res.output
    data = json.loads(res.stdout)  # exactly one JSON object, whatever the outcome
    return res.exit_code, data, res.stderr


@pytest.mark.parametrize(("name", "code", "summary"), [
    ("whole_save.json", 0, {"decks": 3, "decks_kept": 3, "matched_by_ref": 9, "matched_by_name": 0,
                            "unknown": 0, "states": 1}),
    ("bare_bag.json", 0, {"decks": 1, "decks_kept": 1, "matched_by_ref": 0, "matched_by_name": 3,
                          "unknown": 0, "states": 0}),
    ("one_sheet_per_card.json", 0, {"decks": 1, "decks_kept": 1, "matched_by_ref": 3,
                                    "matched_by_name": 0, "unknown": 0, "states": 0}),
    ("key_one_decks.json", 1, {"decks": 3, "decks_kept": 1, "matched_by_ref": 0,
                               "matched_by_name": 6, "unknown": 4, "states": 0}),
    ("old_loose_cards.json", 1, {"decks": 2, "decks_kept": 1, "matched_by_ref": 0,
                                 "matched_by_name": 4, "unknown": 2, "states": 0}),
    ("foreign_save.json", 2, {"decks": 1, "decks_kept": 0, "matched_by_ref": 0,
                              "matched_by_name": 0, "unknown": 21, "states": 0}),
])
def test_corpus_of_saved_objects_imports_with_the_right_summary(cli_env: str, name: str, code: int,
                                                                summary: dict) -> None:
    got, data, _ = _import_json(CORPUS / name)
    assert (got, data["exit_code"]) == (code, code)
    assert data["status"] == {0: "ok", 1: "partial", 2: "refused"}[code]
    assert data["summary"] == summary
    # every card of the file is accounted for: in a deck (or as a state), or unknown
    listed = sum(c["count"] + c["states"] for d in data["decks"] for c in d["cards"])
    assert listed + sum(u["count"] for u in data["unknown"]) == sum(
        summary[k] for k in ("matched_by_ref", "matched_by_name", "unknown"))


def test_whole_save_reads_states_bags_and_where_each_card_came_from(cli_env: str) -> None:
    _, data, err = _import_json(CORPUS / "whole_save.json")
    assert [d["name"] for d in data["decks"]] == ["Braises", "CT", "Cartes hors deck"]
    braises = {c["ref"]: c for c in data["decks"][0]["cards"]}
    assert braises["NP1-001"]["count"] == 2
    assert [(o["sheet"], o["cell"]) for o in braises["NP1-003"]["from"]] == [("4821", 2)]
    loose = {c["ref"]: c for c in data["decks"][2]["cards"]}
    # the card kept as the "Garde de la porte"'s second state is read, not counted as a copy
    assert (loose["NP1-002"]["count"], loose["NP1-002"]["states"]) == (0, 1)
    assert loose["NP1-002"]["from"][0]["state"] == "2"
    assert loose["NP1-002"]["from"][0]["where"] == "ObjectStates[3].States[2]"
    assert data["decks"][2]["count"] == 2 and data["cards"] == 8
    assert "état alternatif" in err
    res = runner.invoke(app, ["tts", "import", str(CORPUS / "whole_save.json")])
    assert res.exit_code == 0 and "Braisillon" not in res.stdout  # a state is not in the list


def test_decks_sharing_sheet_key_1_are_never_lumped(cli_env: str) -> None:
    code, data, _ = _import_json(CORPUS / "key_one_decks.json")
    assert code == 1
    lost = [(u["deck"], u["sheet"], u["cells"], u["count"], u["named"]) for u in data["unknown"]]
    assert lost == [("Beta", "1", [0], 1, False), ("Beta", "1", [1], 1, False),
                    ("Gamma", "1", [0], 2, False)]
    # a JSON blob in GMNotes is not a name: the card is named by its deck, sheet and cell
    assert all("{" not in u["name"] for u in data["unknown"])
    assert data["unknown"][2]["name"] == "carte sans nom (deck « Gamma », planche 1, case 0)"
    # the text output: the summary first, the deck list of what matched, exit 1 then --partial
    res = runner.invoke(app, ["tts", "import", str(CORPUS / "key_one_decks.json")])
    assert res.exit_code == 1
    assert res.stderr.startswith("Résumé : 3 decks ou groupes de cartes trouvés")
    assert "Inconnues du deck « Beta », planche 1 (2 cartes)" in res.stderr
    again = runner.invoke(app, ["tts", "import", str(CORPUS / "key_one_decks.json"), "--partial"])
    assert again.exit_code == 0 and again.stdout == res.stdout and "+5 points" in res.stdout


def test_an_older_deck_of_deck_ids_alone_is_read(cli_env: str) -> None:
    _, data, _ = _import_json(CORPUS / "old_loose_cards.json")
    assert [u["where"] for u in data["unknown"][0]["from"]] == ["ObjectStates[4].DeckIDs[0]"]
    assert {u["deck"] for u in data["unknown"]} == {"Ancien"}


def test_a_foreign_save_with_one_known_name_is_not_a_deck(cli_env: str) -> None:
    """After a large import, another game's save whose one card name exists here: refused (2),
    with --partial too, and the JSON still says everything; the text folds the long list."""
    code, data, _ = _import_json(CORPUS / "foreign_save.json", "--partial")
    assert code == 2 and data["status"] == "refused" and data["reason"] == "mostly_unknown"
    assert data["decks"] == [] and data["not_decks"] == ["Chevaliers"]
    assert len(data["unknown"]) == 21 and "Tisonnier" in {u["name"] for u in data["unknown"]}
    assert "n'est pas un deck de cette base" in data["error"]
    res = runner.invoke(app, ["tts", "import", str(CORPUS / "foreign_save.json")])
    assert res.exit_code == 2 and res.stdout == ""
    assert "… et 11 de plus (--json les donne toutes)" in res.stderr
    assert "20 cartes sur 21" not in res.stderr and "21 cartes sur 21" in res.stderr
    with i18n.use_language("en"):
        res = runner.invoke(app, ["--lang", "en", "tts", "import", str(CORPUS / "foreign_save.json")])
    assert res.exit_code == 2 and "… and 11 more (--json gives them all)" in res.stderr
    assert "is not a deck of this database" in res.stderr


def test_json_is_one_object_on_an_unreadable_file(cli_env: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("pas du json", encoding="utf-8")
    code, data, err = _import_json(bad)
    assert code == 2 and data["status"] == "refused" and data["reason"] == "unreadable"
    assert "pas du JSON valide" in data["error"] and "pas du JSON valide" in err
    empty = tmp_path / "empty.json"
    empty.write_text('{"ObjectStates": []}', encoding="utf-8")
    code, data, _ = _import_json(empty)
    assert code == 2 and data["reason"] == "no_cards" and data["summary"]["unknown"] == 0


# --------------------------------------------------------------------------- export: nothing to guess

CARD_FIELDS = {"GUID", "Transform", "ColorDiffuse", "Locked", "Grid", "Snap", "Autoraise", "Sticky",
               "Tooltip", "HideWhenFaceDown", "Hands", "SidewaysCard", "CardID", "CustomDeck",
               "Nickname", "Description", "GMNotes", "LuaScript", "LuaScriptState", "XmlUI"}


def _sheet_keys(doc: dict) -> set[str]:
    return set(doc["ObjectStates"][0]["CustomDeck"])


def test_export_writes_the_fields_the_game_writes_and_hides_face_down_cards(cli_env: str,
                                                                             tmp_path: Path) -> None:
    out = _export(["braises-ardentes", "--out", str(tmp_path)])
    doc = json.loads(Path(out["object"]).read_text(encoding="utf-8"))
    (deck,) = doc["ObjectStates"]
    cards = deck["ContainedObjects"]
    for obj in [deck, *cards]:
        assert CARD_FIELDS - {"CardID"} <= set(obj) | ({"CardID"} if obj is deck else set())
        assert obj["HideWhenFaceDown"] is True and obj["Locked"] is False
        assert obj["Transform"]["rotZ"] == 180.0  # face down
        assert set(obj["ColorDiffuse"]) == {"r", "g", "b"}
        assert obj["SidewaysCard"] is False  # portrait cards
    for card in cards:
        assert CARD_FIELDS <= set(card), CARD_FIELDS - set(card)
        assert card["Hands"] is True
    assert any(card["Description"] for card in cards)  # the text, hidden when face down
    assert deck["Hands"] is False
    guids = [o["GUID"] for o in [deck, *cards]]
    assert len(set(guids)) == len(guids) and all(len(g) == 6 and int(g, 16) >= 0 for g in guids)
    (custom,) = deck["CustomDeck"].values()
    assert custom["BackIsHidden"] is True  # in a hand, others see the back


def test_two_exports_on_one_table_never_collide_and_a_reexport_replaces(cli_env: str, session,
                                                                        tmp_path: Path) -> None:
    a = _export(["braises-ardentes", "--out", str(tmp_path / "a")])
    b = _export(["bosquet-en-fete", "--out", str(tmp_path / "b")])
    again = _export(["braises-ardentes", "--out", str(tmp_path / "a2")])
    doc_a, doc_b, doc_again = (json.loads(Path(x["object"]).read_text(encoding="utf-8"))
                               for x in (a, b, again))
    assert _sheet_keys(doc_a).isdisjoint(_sheet_keys(doc_b))
    assert "1" not in _sheet_keys(doc_a) | _sheet_keys(doc_b)
    # the same deck: the same keys and GUIDs, so the game replaces rather than duplicates
    assert _sheet_keys(doc_again) == _sheet_keys(doc_a)
    assert doc_again["ObjectStates"][0]["GUID"] == doc_a["ObjectStates"][0]["GUID"]
    guids_a = {o["GUID"] for o in [doc_a["ObjectStates"][0], *doc_a["ObjectStates"][0]["ContainedObjects"]]}
    guids_b = {o["GUID"] for o in [doc_b["ObjectStates"][0], *doc_b["ObjectStates"][0]["ContainedObjects"]]}
    assert guids_a.isdisjoint(guids_b)
    # both on one table: each card's sheet is its own deck's, and the import reads both decks
    table = {"SaveName": "Table", "ObjectStates": doc_a["ObjectStates"] + doc_b["ObjectStates"]}
    for deck in table["ObjectStates"]:
        for card in deck["ContainedObjects"]:
            key = str(card_index(card["CardID"])[0])
            assert card["CustomDeck"][key]["FaceURL"] == deck["CustomDeck"][key]["FaceURL"]
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table), encoding="utf-8")
    code, data, _ = _import_json(path)
    assert code == 0 and [d["name"] for d in data["decks"]] == ["Braises ardentes", "Le Bosquet en fête"]


def test_sheet_keys_stay_unique_within_one_export() -> None:
    from cardbase.outputs.tts import SHEET_KEYS, sheet_key

    used: set[int] = set()
    first = sheet_key("D", ["NP1-001"], used)
    assert SHEET_KEYS[0] <= first <= SHEET_KEYS[1]
    assert sheet_key("D", ["NP1-001"], used) == first + 1  # taken: the next free key
    assert len(used) == 2 and sheet_key("D", ["NP1-001"], set()) == first


@pytest.mark.parametrize(("template", "size"), [("poker", (63, 88)), ("bridge", (56, 87)),
                                                ("mini", (44, 63)), ("tarot", (70, 120))])
def test_every_shipped_card_size_keeps_its_proportions(session, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       template: str, size: tuple) -> None:
    from cardbase.outputs.printing import templates
    from cardbase.outputs.tts import read_saved_object

    source = TtsSource("Quinze", "file", tuple(catalog.card_defs(session, edition="P15")))
    monkeypatch.setitem(templates.GAME_TEMPLATES, "pushluck", template)
    monkeypatch.setattr(templates, "_find_file", _hide_game_template(templates._find_file))
    assert template_for("pushluck").width_mm == size[0]
    result = export_tts(source, tmp_path, stickers=False)
    (deck,) = result.document["ObjectStates"]
    w, h = size
    for obj in [deck, *deck["ContainedObjects"]]:
        t = obj["Transform"]
        assert (t["scaleX"], t["scaleY"], t["scaleZ"]) == (round(w / 63, 4), 1.0, round(h / 88, 4))
    (custom,) = deck["CustomDeck"].values()
    with Image.open(result.sheets[0]) as sheet:
        cw, ch = sheet.width // custom["NumWidth"], sheet.height // custom["NumHeight"]
    assert cw * h == ch * w  # cells of the card's own proportions, not poker's
    assert read_saved_object(session, result.object).cards == len(source.cards)


def _hide_game_template(find):
    """The game's own template file hidden, so that the template the game chose is used."""
    def find_file(name, directory):
        return None if name == "pushluck" else find(name, directory)
    return find_file


def test_a_text_print_refuses_is_refused_in_the_tts_export(session, tmp_path: Path) -> None:
    """Print draws at 300 dpi and refuses a text that would fall under the template's minimum
    size; the export used to draw at 152 dpi, where whole-pixel rounding let it pass in smaller
    type. Now both refuse it."""
    from cardbase.domain import CardDef
    from cardbase.errors import TemplateError

    t = template_for("nespanini", "Personnage")

    def card(n: int) -> CardDef:
        return CardDef(id=1, game="nespanini", edition="NP1", number=999, set_size=1, name="Long",
                       value=3, colour="rouge", card_type="Personnage",
                       effect_text=" ".join(["mot"] * n))

    def fits(n: int, dpi: float) -> bool:
        try:
            render_card(card(n), t, RenderOptions(dpi=dpi, fingerprint=False))
        except TemplateError:
            return False
        return True

    lo, hi = 1, 600  # the shortest text print refuses
    assert fits(lo, 300) and not fits(hi, 300)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid, 300) else (lo, mid)
    # every output judges as print does (before, the cell's 152 dpi, a 100 dpi proof and a
    # 600 dpi shop file each fitted it in type of their own rounding)
    for dpi in (100, cell_size(63, 88)[2], 600):
        assert not fits(hi, dpi) and fits(lo, dpi), dpi
    with pytest.raises(TemplateError) as info:
        export_tts(TtsSource("Trop long", "file", (card(hi),)), tmp_path / "o", stickers=False)
    assert [p.where for p in info.value.problems] == ["NP1-999"]
    assert not (tmp_path / "o").exists()
    # every card that cannot be drawn is named at once, as print names them (it stopped at one)
    def numbered(n: int, words: int) -> CardDef:
        return CardDef(id=n, game="nespanini", edition="NP1", number=n, set_size=1, name=f"C{n}",
                       value=3, colour="rouge", card_type="Personnage",
                       effect_text=" ".join(["mot"] * words))
    with pytest.raises(TemplateError) as info:
        export_tts(TtsSource("Deux", "file", (numbered(997, lo), numbered(999, hi),
                                               numbered(998, hi))), tmp_path / "o", stickers=False)
    assert [p.where for p in info.value.problems] == ["NP1-999", "NP1-998"]
    assert "2 cartes ne peuvent pas être dessinées" in str(info.value) and not (tmp_path / "o").exists()
    export_tts(TtsSource("Juste", "file", (card(lo),)), tmp_path / "ok", stickers=False)


def _card(cid, nick=None, **kw) -> dict:
    return {"Name": "Card", "CardID": cid, **({"Nickname": nick} if nick is not None else {}), **kw}


def test_text_from_a_strangers_file_cannot_break_or_steer_the_output(cli_env: str,
                                                                      tmp_path: Path) -> None:
    """A lone surrogate (valid JSON, unencodable) used to end in a traceback; an escape sequence
    in a deck name reached the terminal as it was."""
    path = tmp_path / "odd.json"
    path.write_text('{"ObjectStates":[{"Name":"Deck","Nickname":"D\\ud800\\u001b[2Jx",'
                    '"ContainedObjects":[{"Name":"Card","CardID":100,"Nickname":"A\\udfffb"},'
                    '{"Name":"Card","CardID":101,"Nickname":"Tisonnier"},'
                    '{"Name":"Card","CardID":102,"Nickname":"Tisonnier"}],'
                    '"States":{"2\\u001b":{"Name":"Card","CardID":103,"Nickname":"Tisonnier"}}}]}',
                    encoding="utf-8")
    code, data, err = _import_json(path)
    assert code == 1
    assert data["decks"][0]["name"] == "D\ufffd\ufffd[2Jx"
    assert data["unknown"][0]["name"] == "A\ufffdb"
    text = json.dumps(data, ensure_ascii=False) + err
    text.encode("utf-8")  # no lone surrogate left
    assert "\x1b" not in text
    res = runner.invoke(app, ["tts", "import", str(path), "--partial"])
    assert res.exit_code == 0 and "Traceback" not in res.output and "\x1b" not in res.output
    assert "1 Tisonnier" not in res.stdout and "2 Tisonnier" in res.stdout


def test_decks_of_one_name_and_cards_without_cardid_are_told_apart(cli_env: str,
                                                                   tmp_path: Path) -> None:
    """Ruling T10: two decks with the same nickname get « (2) »; a nameless card without a
    usable CardID is named by its place in the file, not lumped with the others."""
    def deck(nick, cards):
        return {"Name": "DeckCustom", "Nickname": nick, "ContainedObjects": cards}
    doc = {"ObjectStates": [
        deck("Player Deck", [_card(100), _card(101)]),
        deck("Player Deck", [_card(100), _card(101), _card(102)]),
        deck("Braises", [_card(200, "Tisonnier", GMNotes="NP1-005")] * 6
             + [_card(None), _card(-5), _card(1.5), _card("x")]),
    ]}
    path = tmp_path / "same.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, data, err = _import_json(path, "--partial")
    assert code == 2 and data["reason"] == "mostly_unknown"  # 9 of 15 unknown
    decks = [u["deck"] for u in data["unknown"]]
    assert decks[:5] == ["Player Deck"] * 2 + ["Player Deck (2)"] * 3
    assert "Inconnues du deck « Player Deck (2) », planche 1 (3 cartes)" in err
    no_id = [u for u in data["unknown"] if u["deck"] == "Braises"]
    assert [u["count"] for u in no_id] == [1, 1, 1, 1]
    assert len({u["name"] for u in no_id}) == 4
    assert no_id[0]["name"] == ("carte sans nom (deck « Braises », sans CardID lisible, "
                                "en ObjectStates[2].ContainedObjects[6])")


def test_a_deck_kept_as_a_state_is_read_but_not_counted(cli_env: str, tmp_path: Path) -> None:
    """Ruling T8 goes down: the cards of a deck kept as another object's state are states too."""
    doc = {"ObjectStates": [_card(300, "Tisonnier", GMNotes="NP1-005", States={
        "2": {"Name": "DeckCustom", "ContainedObjects": [_card(400, "Braisillon",
                                                               GMNotes="NP1-002")]}})]}
    path = tmp_path / "st.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, data, _ = _import_json(path)
    assert code == 0 and data["summary"]["states"] == 1 and data["cards"] == 1
    res = runner.invoke(app, ["tts", "import", str(path)])
    assert "Braisillon" not in res.stdout and "# name: Deck 1" not in res.stdout


def test_a_reference_this_database_lacks_is_said_not_called_missing(cli_env: str,
                                                                    tmp_path: Path) -> None:
    """A card whose GMNotes hold a reference that does not exist here (another database's
    numbering) and whose name matches: matched by name, and the import says which reference it
    carried instead of « its reference was missing »."""
    doc = {"ObjectStates": [{"Name": "DeckCustom", "Nickname": "G", "ContainedObjects": [
        _card(100, "Tisonnier", GMNotes="NP1-999"), _card(101, "Braisillon", GMNotes="NP1-002")]}]}
    path = tmp_path / "g.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, data, _ = _import_json(path)
    assert code == 0
    by_ref = {c["ref"]: c for c in data["decks"][0]["cards"]}
    assert by_ref["NP1-005"]["matched_by"] == "name"
    assert by_ref["NP1-005"]["unknown_refs"] == ["NP1-999"]
    assert by_ref["NP1-002"]["unknown_refs"] == []
    res = runner.invoke(app, ["tts", "import", str(path)])
    assert "la référence de ses notes du MJ (NP1-999) n'existe pas dans cette base" in res.stderr


def test_names_are_looked_for_in_the_decks_own_game(cli_env: str, session, tmp_path: Path) -> None:
    """Ruling T11: a NesPanini deck (by its references, or by most of its names) does not take a
    card of another game because a name matches (« Protection » is 15 en un tour's), and a name
    two games share is the one of the deck's game (it used to be unknown, ambiguous)."""
    catalog.create_card(session, edition="P15", fields={"number": 50, "name": "Tisonnier"})
    session.commit()

    def deck(nick, cards):
        return {"Name": "DeckCustom", "Nickname": nick, "ContainedObjects": cards}
    doc = {"ObjectStates": [
        deck("Par noms", [_card(100, "Braisillon"), _card(101, "Apprentie forgeronne"),
                          _card(102, "Tisonnier"), _card(103, "Protection")]),
        deck("Par refs", [_card(200, "x", GMNotes="NP1-002"), _card(201, "y", GMNotes="NP1-001"),
                          _card(202, "Tisonnier"), _card(203, "Protection")]),
    ]}
    path = tmp_path / "t11.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, data, _ = _import_json(path)
    assert code == 1
    for d in data["decks"]:
        assert d["game"] == "nespanini"
        assert {c["ref"] for c in d["cards"]} == {"NP1-002", "NP1-001", "NP1-005"}
    assert [(u["deck"], u["name"]) for u in data["unknown"]] == [("Par noms", "Protection"),
                                                                  ("Par refs", "Protection")]
    # a deck mixing games by name alone, no game in the majority: names matched as before
    mixed = tmp_path / "mixed.json"
    mixed.write_text(json.dumps({"ObjectStates": [deck("Mix", [
        _card(100, "Braisillon"), _card(101, "Protection"), _card(102, "Rouge 1")])]}),
        encoding="utf-8")
    code, data, _ = _import_json(mixed)
    assert code == 0 and data["decks"][0]["game"] is None


def test_nothing_recognised_lists_the_unknown_once_folded_and_all_in_json(cli_env: str, session,
                                                                          tmp_path: Path) -> None:
    """A file of 60 cards none of which is known: the summary folds them (« … et 50 de plus »),
    the refusal is one line (it repeated the first 50 unfolded, the other 10 silently dropped),
    --json gives all 60; the library's error names all 60."""
    from cardbase.outputs.tts import TtsError, read_saved_object

    doc = {"ObjectStates": [{"Name": "Deck", "Nickname": "F", "ContainedObjects": [
        _card(100 + i, f"Inconnue {i}") for i in range(60)]}]}
    path = tmp_path / "f.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    res = runner.invoke(app, ["tts", "import", str(path)])
    assert res.exit_code == 2
    assert "… et 50 de plus" in res.stderr
    assert res.stderr.count("Inconnue 3 ") == 1 and "Inconnue 55" not in res.stderr
    assert res.stderr.rstrip().endswith("60 cartes lues, aucune ne correspond à une carte de la base")
    code, data, _ = _import_json(path)
    assert code == 2 and len(data["unknown"]) == 60 and "\n" not in data["error"]
    with pytest.raises(TtsError) as info:
        read_saved_object(session, path)
    assert len(info.value.problems) == 60


def test_many_broken_objects_are_folded_in_text_and_all_in_json(cli_env: str,
                                                                tmp_path: Path) -> None:
    doc = {"ObjectStates": [{"Name": "Deck", "Nickname": "B", "ContainedObjects": [
        _card(100, "Tisonnier", GMNotes="NP1-005"), *(["pas un objet"] * 500)]}]}
    path = tmp_path / "b.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    res = runner.invoke(app, ["tts", "import", str(path)])
    assert res.exit_code == 0, res.output
    assert res.stderr.count("devrait être un objet") == 10
    assert "… et 490 autres objets ignorés" in res.stderr
    code, data, _ = _import_json(path)
    assert code == 0 and len(data["problems"]) == 500
