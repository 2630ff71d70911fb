"""An edition file or data/games.toml with problems: every problem listed at once, in the user's
language (French by default, English with --lang en), a word agreeing with its number."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardbase.errors import DataFileError
from cardbase.i18n import use_language
from cardbase.storage import datafiles

BAD = """[edition]
game = "nespanini"
code = "T1"
colour = "rouge"

[[cards]]
number = 1
name = "Une"

[[cards]]
number = 1
name = ""
Couleur = "x"
"""


def test_every_problem_of_an_edition_file_in_french_and_english(tmp_path: Path) -> None:
    path = tmp_path / "t1.toml"
    path.write_text(BAD, encoding="utf-8")
    with use_language("fr"), pytest.raises(DataFileError) as fr:
        datafiles.load_edition_file(path)
    assert str(fr.value).startswith(f"{path} : 5 problèmes")
    said = [(p.message, p.fix, p.where) for p in fr.value.problems]
    assert ("[edition] n'a pas de name", "ajoutez name = …", str(path)) in said
    assert ("[edition] a un champ inconnu : 'colour'", said[1][1], str(path)) in said
    assert said[1][1].startswith("utilisez l'un de : game, code, name")
    assert ("le numéro 1 est pris deux fois", "donnez à chaque carte d'une édition son propre numéro",
            f"{path}, carte n° 2") in said
    assert ("la carte n'a pas de nom", 'ajoutez name = "…"', f"{path}, carte n° 2") in said
    assert any(m == "champ inconnu : 'Couleur'" for m, _f, _w in said)
    with use_language("en"), pytest.raises(DataFileError) as en:
        datafiles.load_edition_file(path)
    assert str(en.value).startswith(f"{path}: 5 problems")
    assert ("number 1 used twice", "give every card of an edition its own number", f"{path} card #2") in [
        (p.message, p.fix, p.where) for p in en.value.problems]


def test_one_problem_is_said_in_the_singular(tmp_path: Path) -> None:
    path = tmp_path / "t2.toml"
    path.write_text(BAD.replace('colour = "rouge"\n', "").replace('name = ""\nCouleur = "x"\n', 'name = "Deux"\n')
                    .replace("number = 1\nname = \"Deux\"", "number = 2\nname = \"Deux\"")
                    .replace('code = "T1"\n', 'code = "T1"\nname = "T"\n') + '\n[[cards]]\nnumber = 3\nname = ""\n',
                    encoding="utf-8")
    with use_language("fr"), pytest.raises(DataFileError) as fr:
        datafiles.load_edition_file(path)
    assert str(fr.value).startswith(f"{path} : 1 problème") and "problèmes" not in str(fr.value)
    with use_language("en"), pytest.raises(DataFileError) as en:
        datafiles.load_edition_file(path)
    assert str(en.value).startswith(f"{path}: 1 problem") and "problems" not in str(en.value)


def test_unreadable_files_and_unknown_fields_when_written(tmp_path: Path) -> None:
    with use_language("fr"), pytest.raises(DataFileError, match="fichier introuvable"):
        datafiles.read_toml(tmp_path / "none.toml")
    broken = tmp_path / "b.toml"
    broken.write_text("[edition\n", encoding="utf-8")
    with use_language("fr"), pytest.raises(DataFileError, match="ce n'est pas du TOML valide"):
        datafiles.read_toml(broken)
    with use_language("fr"), pytest.raises(DataFileError, match="^champ inconnu : zz — utilisez l'un de"):
        datafiles.dump_edition({"game": "g", "code": "c", "name": "n", "zz": 1}, [])
    with use_language("en"), pytest.raises(DataFileError, match="^unknown fields Zz, Zy — use one of"):
        datafiles.dump_edition({"game": "g", "code": "c", "name": "n"}, [{"number": 1, "name": "a", "Zz": 1, "Zy": 2}])
