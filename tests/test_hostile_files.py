"""Hostile files and output paths: Tabletop Simulator import/export, print-shop presets, printing.

Every limit is checked before the work it protects (reading, parsing, drawing, writing) and
refused with exit code 2 and a French message naming the limit. Special files (a named pipe,
/dev/zero) run in a child process with a time and memory cap, so that a regression fails the test
instead of hanging it or filling the machine's memory.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import types
from pathlib import Path

import pytest
from sqlmodel import select
from typer.testing import CliRunner

import cardbase.outputs.tts as tts
from cardbase.catalog import cards as catalog
from cardbase.cli import app
from cardbase.storage.models import Card, Edition
from cardbase.outputs.printing import presets as presets_mod

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _fails(args: list[str], *texts: str) -> str:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, (res.exit_code, res.output, res.exception)
    for text in texts:
        assert text in res.stderr, res.stderr
    return res.stderr


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))


def _cli_in_child(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    """The command line in a child process: at most 60 s and 2 GB, never a hung test."""
    code = "from cardbase.cli import main; main()"
    try:
        return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=60,
                              preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired:
        pytest.fail(f"cardbase {' '.join(args)} still running after 60 s: it blocked")


def _child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CARDBASE_LANG"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


# --------------------------------------------------------------------------- tts import

def test_millions_of_tiny_objects_are_refused_before_json_builds_them(
        cli_env: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 6 MB file of ``{}`` values: refused by the count of values in its text, json.loads
    never called (today it builds two million dicts, then counts 50,000 objects)."""
    n = tts.MAX_JSON_VALUES
    path = tmp_path / "tiny.json"
    path.write_text('{"ObjectStates": [' + "{}," * n + "{}]}", encoding="utf-8")
    assert path.stat().st_size < tts.MAX_IMPORT_BYTES
    called = []

    def spy(*args, **kwargs):
        called.append(1)
        return json.loads(*args, **kwargs)

    monkeypatch.setattr(tts, "json", types.SimpleNamespace(loads=spy, dumps=json.dumps,
                                                           JSONDecodeError=json.JSONDecodeError))
    _fails(["tts", "import", str(path)], f"plus de {n} valeurs JSON", "tiny.json")
    assert called == []
    # strings do not count: the same number of commas inside one text is a valid file
    text = tmp_path / "text.json"
    text.write_text(json.dumps({"ObjectStates": [{"Name": "Card", "Nickname": "Villageois",
                                                  "Description": "{," * (n // 2)}]}),
                    encoding="utf-8")
    res = runner.invoke(app, ["tts", "import", str(text), "--json"])
    assert res.exit_code == 0, res.output
    assert called and json.loads(res.stdout)["cards"] == 1


def test_deep_json_is_refused_before_parsing(cli_env: str, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * (tts.MAX_JSON_DEPTH + 1) + "]" * (tts.MAX_JSON_DEPTH + 1))
    monkeypatch.setattr(tts, "json", types.SimpleNamespace(loads=None, dumps=json.dumps,
                                                           JSONDecodeError=json.JSONDecodeError))
    _fails(["tts", "import", str(deep)], f"plus de {tts.MAX_JSON_DEPTH} niveaux")


def test_import_of_a_fifo_and_of_dev_zero_is_refused_without_blocking(cli_env: str,
                                                                       tmp_path: Path) -> None:
    fifo = tmp_path / "objet.json"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    env = _child_env(DATABASE_URL=cli_env)
    res = _cli_in_child(["tts", "import", str(fifo)], env, tmp_path)
    assert res.returncode == 2, res.stderr
    assert "n'est pas un fichier ordinaire" in res.stderr and "FIFO" in res.stderr
    res = _cli_in_child(["tts", "import", str(zero)], env, tmp_path)
    assert res.returncode == 2, res.stderr
    assert "périphérique" in res.stderr and "Traceback" not in res.stderr


def test_the_size_limit_holds_when_stat_says_less(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The limit is on the bytes read, not on the size ``stat`` reports (/proc files say 0)."""
    from cardbase.bounded_io import read_bounded

    path = tmp_path / "grows.json"
    path.write_bytes(b" " * 5000)
    real_fstat = os.fstat

    class Lying:
        def __init__(self, st: os.stat_result) -> None:
            self.st_mode, self.st_size = st.st_mode, 0

    monkeypatch.setattr(os, "fstat", lambda fd: Lying(real_fstat(fd)))
    with pytest.raises(tts.TtsError, match="plus de"):
        read_bounded(path, 4096, tts.TtsError, "tts.import")
    assert read_bounded(path, 5000, tts.TtsError, "tts.import") == b" " * 5000


# --------------------------------------------------------------------------- tts export

def _one_card(session) -> object:
    return catalog.card_defs(session, edition="CTT")[0]


def test_export_round_trip_at_the_card_limit(session, tmp_path: Path) -> None:
    """Exactly MAX_EXPORT_CARDS cards export and read back; one more is refused before any work."""
    card = _one_card(session)
    limit = tts.MAX_EXPORT_CARDS
    result = tts.export_tts(tts.TtsSource("Limite", "file", (card,) * limit), tmp_path / "ok")
    back = tts.read_saved_object(session, result.object)
    assert back.cards == limit and back.decks[0].entries[0].card.ref == card.ref
    with pytest.raises(tts.TtsError, match=f"au plus {limit}"):
        tts.export_tts(tts.TtsSource("Trop", "file", (card,) * (limit + 1)), tmp_path / "no")
    assert not (tmp_path / "no").exists()


def test_export_never_writes_what_import_refuses(session, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """At an import size limit one byte under the saved object, the export refuses and writes
    nothing; at exactly its size, export and import both pass."""
    cards = tuple(catalog.card_defs(session, edition="CTT")[:3]) * 4
    size = tts.export_tts(tts.TtsSource("Taille", "file", cards), tmp_path / "a").object.stat().st_size
    monkeypatch.setattr(tts, "MAX_IMPORT_BYTES", size - 1)
    with pytest.raises(tts.TtsError, match="tts import") as err:
        tts.export_tts(tts.TtsSource("Taille", "file", cards), tmp_path / "b")
    assert "rien n'a été écrit" in str(err.value)
    assert not (tmp_path / "b").exists()
    monkeypatch.setattr(tts, "MAX_IMPORT_BYTES", size)
    result = tts.export_tts(tts.TtsSource("Taille", "file", cards), tmp_path / "b")
    assert tts.read_saved_object(session, result.object).cards == 12
    # the value count too: a limit one under the object's values
    text = result.object.read_text(encoding="utf-8")
    from cardbase.bounded_io import json_shape

    bare = json_shape(text, 0, 10**6)
    assert bare is not None and bare[0] == "values"
    monkeypatch.setattr(tts, "MAX_JSON_VALUES", bare[1] - 1)
    with pytest.raises(tts.TtsError, match="valeurs JSON"):
        tts.export_tts(tts.TtsSource("Taille", "file", cards), tmp_path / "c")
    with pytest.raises(tts.TtsError, match="valeurs JSON"):
        tts.read_saved_object(session, result.object)


def test_a_box_of_a_million_copies_is_refused_before_any_work(cli_env: str, session,
                                                              tmp_path: Path) -> None:
    limit = tts.MAX_EXPORT_CARDS
    edition = session.exec(select(Edition).where(Edition.code == "CTT")).one()
    card = session.exec(select(Card).where(Card.edition_id == edition.id)).first()
    card.copies = 1_000_000
    session.add(card)
    session.commit()
    out = tmp_path / "box"
    _fails(["tts", "export", "--edition", "CTT", "--out", str(out)], f"au plus {limit}",
           "copies")
    assert not out.exists()
    deck = tmp_path / "deck.txt"
    deck.write_text("".join(f"99 NP1-{i % 64 + 1:03d}\n" for i in range(102)), encoding="utf-8")
    _fails(["tts", "export", str(deck), "--out", str(out)], f"au plus {limit}")
    assert not out.exists()


def test_export_output_paths_are_checked_first(cli_env: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    cwd = tmp_path / "ici"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    _fails(["tts", "export", "braises-ardentes", "--out", ""], "--out est vide")
    _fails(["tts", "export", "braises-ardentes", "--out", "  "], "--out est vide")
    assert list(cwd.iterdir()) == []
    out = tmp_path / "o"
    for url in ("http://[::1", "http://exemple.fr:port/", "https://[zz"):
        err = _fails(["tts", "export", "braises-ardentes", "--out", str(out), "--base-url", url],
                     "--base-url", url)
        assert "Traceback" not in err
    assert not out.exists()


# --------------------------------------------------------------------------- presets

_BASE = '[p]\nshop = "x"\nsource = "y"\nunit = "mm"\nsafe = 1\n'


def _preset_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "shops.toml"
    path.write_text(_BASE + body, encoding="utf-8")
    presets_mod._CACHE.clear()
    return path


def _preset_problems(path: Path) -> str:
    with pytest.raises(presets_mod.PresetError) as err:
        presets_mod.load_presets(path)
    return str(err.value)


def test_preset_canvas_and_lengths_are_bounded_before_drawing(tmp_path: Path) -> None:
    side = 100_000  # Pillow would be asked for 30 GB
    trim = side * 25.4 / 300
    text = _preset_problems(_preset_file(
        tmp_path, f"bleed = 0\ndpi = 300\ntrim = [{trim}, {trim}]\ncanvas_px = [{side}, {side}]\n"))
    assert f"au plus {presets_mod.MAX_CANVAS_SIDE_PX} px" in text
    assert f"au plus {presets_mod.MAX_TRIM_MM:g} mm" in text
    huge = int(1e100 * 72 / 25.4)  # a canvas that agrees with a 1e100 mm trim
    text = _preset_problems(_preset_file(
        tmp_path, f"bleed = 0\ndpi = 72\ntrim = [1e100, 1e100]\ncanvas_px = [{huge}, {huge}]\n"))
    assert f"au plus {presets_mod.MAX_TRIM_MM:g} mm" in text and "canvas_px" in text
    assert len(text) < 2000  # no hundred-digit number in the message
    text = _preset_problems(_preset_file(
        tmp_path, "bleed = 1e9\ndpi = 300\ntrim = [63, 88]\ncanvas_px = [744, 1039]\n"))
    assert f"au plus {presets_mod.MAX_BLEED_MM:g} mm" in text
    # the area too: two sides under the limit whose product is not
    side = presets_mod.MAX_CANVAS_SIDE_PX
    mm = side * 25.4 / 1200
    text = _preset_problems(_preset_file(
        tmp_path, f"bleed = 0\ndpi = 1200\ntrim = [{mm}, {mm}]\ncanvas_px = [{side}, {side}]\n"))
    assert f"{presets_mod.MAX_CANVAS_PIXELS // 1_000_000} millions de pixels" in text


def test_deeply_nested_presets_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * 500 + "]" * 500 + "\n", encoding="utf-8")
    presets_mod._CACHE.clear()
    assert f"plus de {presets_mod.MAX_TOML_DEPTH} niveaux" in _preset_problems(path)
    path.write_text("a = " + "{b = " * 500 + "1" + "}" * 500 + "\n", encoding="utf-8")
    presets_mod._CACHE.clear()
    assert f"plus de {presets_mod.MAX_TOML_DEPTH} niveaux" in _preset_problems(path)
    # brackets inside strings and comments do not count
    path = _preset_file(tmp_path, 'note = "' + "[" * 500 + '"  # ' + "{" * 500 + "\nbleed = 0\n"
                        "dpi = 300\ntrim = [63, 88]\ncanvas_px = [744, 1039]\n")
    assert presets_mod.load_presets(path)["p"].canvas_px == (744, 1039)


def test_presets_file_too_big_fifo_and_dev_zero(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * presets_mod.MAX_PRESETS_BYTES + "\n", encoding="utf-8")
    presets_mod._CACHE.clear()
    assert "pèse plus de" in _preset_problems(big)
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "FIFO"), ("/dev/zero", "périphérique")):
        res = _cli_in_child(["print", "presets"], _child_env(CARDBASE_PRESETS=str(path)), tmp_path)
        assert res.returncode == 2, res.stderr
        assert "n'est pas un fichier ordinaire" in res.stderr and kind in res.stderr


# --------------------------------------------------------------------------- print outputs

def test_proof_writes_the_file_it_is_given(cli_env: str, tmp_path: Path) -> None:
    """``--mode proof --out proof.pdf`` writes proof.pdf (a PDF), and leaves proof.png alone."""
    other = tmp_path / "proof.png"
    other.write_bytes(b"not mine")
    out = tmp_path / "proof.pdf"
    res = runner.invoke(app, ["print", "--edition", "CTT", "--mode", "proof", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_bytes().startswith(b"%PDF-") and other.read_bytes() == b"not mine"
    assert str(out) in res.output


def test_print_into_a_folder_as_the_readme_writes_it(cli_env: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    cwd = tmp_path / "ici"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    tmp_path = cwd
    res = runner.invoke(app, ["print", "--edition", "CTT", "--mode", "shop", "--preset",
                              "tgc-poker", "--out", "shop/"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "shop" / "ctt-shop.pdf").read_bytes().startswith(b"%PDF-")
    assert len(list((tmp_path / "shop" / "ctt-shop-png").glob("front-*.png"))) == 26
    # an existing folder, a proof into it
    res = runner.invoke(app, ["print", "--edition", "CTT", "--mode", "proof", "--out", "shop/"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "shop" / "ctt-proof.png").is_file()
    _fails(["print", "--edition", "CTT", "--out", "shop"], "est un dossier")  # no slash: as before
    # a folder whose parent does not exist: refused before any work, nothing created
    _fails(["print", "--edition", "CTT", "--out", "absent/sous/"], "absent")
    _fails(["print", "--edition", "CTT", "--out", ""], "--out est vide")
    # a print that fails once the folder is made takes the empty folder away again
    _fails(["print", "--edition", "CTT", "--out", "neuf/", "--template", "gabarit-absent"],
           "gabarit-absent")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shop"]


def test_changed_since_reads_a_manifest_within_limits(cli_env: str, tmp_path: Path) -> None:
    """``--changed-since`` reads a file someone may hand over: a named pipe, /dev/zero and a
    file of tiny values are refused, without blocking and before json.loads builds them."""
    from cardbase.outputs.printing import sheets

    fifo = tmp_path / "old.manifest.json"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.manifest.json"
    zero.symlink_to("/dev/zero")
    env = _child_env(DATABASE_URL=cli_env)
    for path, kind in ((fifo, "FIFO"), (zero, "périphérique")):
        res = _cli_in_child(["print", "--edition", "CTT", "--out", str(tmp_path / "n.pdf"),
                             "--changed-since", str(path)], env, tmp_path)
        assert res.returncode == 2, res.stderr
        assert "n'est pas un fichier ordinaire" in res.stderr and kind in res.stderr
    tiny = tmp_path / "tiny.manifest.json"
    tiny.write_text('{"cards": [' + "{}," * sheets.MAX_MANIFEST_VALUES + "{}]}", encoding="utf-8")
    _fails(["print", "--edition", "CTT", "--out", str(tmp_path / "n.pdf"), "--changed-since",
            str(tiny)], f"plus de {sheets.MAX_MANIFEST_VALUES} valeurs JSON")
    assert not (tmp_path / "n.pdf").exists()


def _python_in_child(code: str, cwd: Path) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=_child_env(),
                              capture_output=True, text=True, timeout=60,
                              preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired:
        pytest.fail("still running after 60 s: it blocked")


def test_art_files_are_read_within_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card's art that is a named pipe or /dev/zero: refused, never waited on; a file larger
    than the limit: refused whatever size stat reports."""
    fifo = tmp_path / "fifo.png"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.png"
    zero.symlink_to("/dev/zero")
    for path, kind in ((fifo, "FIFO"), (zero, "périphérique")):
        res = _python_in_child(
            "from pathlib import Path\nfrom cardbase.errors import ArtError\n"
            "from cardbase.storage.art import load_art\n"
            f"try:\n    load_art(Path({str(path)!r}), (10, 10), where='TST-001')\n"
            "except ArtError as exc:\n    print(exc)\n", tmp_path)
        assert res.returncode == 0, res.stderr
        assert "TST-001" in res.stdout and "pas un fichier ordinaire" in res.stdout
        assert kind in res.stdout
    from PIL import Image

    from cardbase.errors import ArtError
    from cardbase.storage import art

    png = tmp_path / "art.png"
    Image.new("RGB", (40, 40), "red").save(png)
    monkeypatch.setattr(art, "MAX_ART_BYTES", png.stat().st_size - 1)
    real_fstat = os.fstat

    class Lying:  # a file system that reports no size: the bytes read decide
        def __init__(self, st: os.stat_result) -> None:
            self.st_mode, self.st_size = st.st_mode, 0

    monkeypatch.setattr(os, "fstat", lambda fd: Lying(real_fstat(fd)))
    art._art_fitted.cache_clear()
    with pytest.raises(ArtError, match="pèse plus de"):
        art.load_art(png, (10, 10), where="TST-002")
    monkeypatch.setattr(art, "MAX_ART_BYTES", png.stat().st_size)
    art._art_fitted.cache_clear()
    assert art.load_art(png, (10, 10), where="TST-002").size == (10, 10)


def test_template_files_are_read_within_limits(cli_env: str, tmp_path: Path) -> None:
    from cardbase.outputs.printing import templates

    deep = tmp_path / "deep.toml"
    deep.write_text('extends = "nespanini"\nx = ' + "[" * 500 + "]" * 500 + "\n", encoding="utf-8")
    out = tmp_path / "t.pdf"
    _fails(["print", "--edition", "CTT", "--out", str(out), "--template", str(deep)],
           f"plus de {templates.MAX_TEMPLATE_DEPTH} niveaux")
    big = tmp_path / "big.toml"
    big.write_text('extends = "nespanini"\n# ' + "x" * templates.MAX_TEMPLATE_BYTES + "\n",
                   encoding="utf-8")
    _fails(["print", "--edition", "CTT", "--out", str(out), "--template", str(big)],
           "pèse plus de", "gabarit")
    bad = tmp_path / "latin1.toml"
    bad.write_bytes('extends = "nespanini"\n# \xe9t\xe9\n'.encode("latin-1"))
    _fails(["print", "--edition", "CTT", "--out", str(out), "--template", str(bad)], "latin1.toml")
    assert not out.exists()


def test_distinct_faces_are_bounded_before_any_is_drawn(session, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import cardbase.outputs.printing as printing

    defs = catalog.card_defs(session, edition="NP1") + catalog.card_defs(session, edition="OVK")
    faces = tuple(defs[:tts.MAX_FACES_PER_SHEET + 1])
    monkeypatch.setattr(tts, "MAX_EXPORT_SHEETS", 1)

    def no_drawing(*args, **kwargs):
        raise AssertionError("a face was drawn")

    monkeypatch.setattr(printing, "render_card", no_drawing)
    with pytest.raises(tts.TtsError, match=f"au plus {tts.MAX_FACES_PER_SHEET} \\(1 planche"):
        tts.export_tts(tts.TtsSource("Trop de faces", "file", faces), tmp_path / "o")
    assert not (tmp_path / "o").exists()
    monkeypatch.undo()
    result = tts.export_tts(tts.TtsSource("Une planche", "file", faces[:-1]), tmp_path / "o")
    assert len(result.sheets) == 1 and result.faces == tts.MAX_FACES_PER_SHEET


def test_a_proof_sheet_is_bounded_before_it_is_allocated(cli_env: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A proof of many cards, or of a preset with a large canvas, is refused once its pixels pass
    the limit: before the sheet is allocated, while the thumbnails are drawn."""
    from cardbase.outputs.printing import sheets

    out = tmp_path / "proof.png"
    monkeypatch.setattr(sheets, "MAX_PROOF_PIXELS", 2_000_000)  # about 25 poker cards at 96 dpi
    _fails(["print", "--edition", "CTT", "--mode", "proof", "--out", str(out)],
           "au-delà de la limite de 2 millions")
    assert not out.exists()
    made = []
    real_new = sheets.Image.new
    monkeypatch.setattr(sheets.Image, "new", lambda *a, **k: made.append(a) or real_new(*a, **k))
    monkeypatch.setattr(sheets, "MAX_PROOF_PIXELS", 2_500_000)  # the thumbnails fit, the sheet not
    _fails(["print", "--edition", "CTT", "--mode", "proof", "--out", str(out)], "planche d'épreuve")
    assert not any(len(a) > 1 and a[1][0] * a[1][1] > 2_500_000 for a in made)
    monkeypatch.setattr(sheets, "MAX_PROOF_PIXELS", 100_000_000)
    res = runner.invoke(app, ["print", "--edition", "CTT", "--mode", "proof", "--out", str(out)])
    assert res.exit_code == 0, res.output


# --------------------------------------------------------------------------- rules files

def test_export_reads_the_rules_files_within_limits_and_writes_nothing_on_a_bad_one(
        cli_env: str, tmp_path: Path) -> None:
    """``data export`` copies data/rules/*.toml beside games.toml: a named pipe among them blocked
    the export for ever and /dev/zero ran it out of memory; now either is refused with its name,
    before any file is written."""
    data = tmp_path / "data"
    (data / "rules").mkdir(parents=True)
    (data / "rules" / "huit.toml").write_bytes((ROOT / "data" / "rules" / "huit.toml").read_bytes())
    os.mkfifo(data / "rules" / "tuyau.toml")
    out = tmp_path / "out" / "editions"
    env = _child_env(DATABASE_URL=cli_env, CARDBASE_DATA_DIR=str(data))
    res = _cli_in_child(["data", "export", "--out", str(out)], env, tmp_path)
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert "tuyau.toml" in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.toml"))
    (data / "rules" / "tuyau.toml").unlink()
    (data / "rules" / "zero.toml").symlink_to("/dev/zero")
    res = _cli_in_child(["data", "export", "--out", str(out)], env, tmp_path)
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert "zero.toml" in res.stderr and "Traceback" not in res.stderr
    assert not any((tmp_path / "out").rglob("*.toml"))
