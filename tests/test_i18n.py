"""One language mechanism: every key has both languages, every key the code uses exists, and the
placeholders of a message are the same in French and English."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from cardbase import i18n

ROOT = Path(__file__).resolve().parent.parent / "cardbase"


def _used_keys() -> dict[str, str]:
    """Literal keys passed to ``tr(...)`` / ``t(...)`` / ``translate(lang, ...)`` in the package."""
    used: dict[str, str] = {}
    for path in ROOT.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            args = node.args
            if name == "translate":
                args = args[1:]
            elif name not in ("tr", "t"):
                continue
            if args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
                if "." in args[0].value and " " not in args[0].value:
                    used[args[0].value] = f"{path.relative_to(ROOT.parent)}:{node.lineno}"
    return used


def test_every_key_used_in_code_is_translated_in_every_language() -> None:
    used = _used_keys()
    assert used, "no translated message found in the code"
    for lang in i18n.LANGUAGES:
        missing = {k: where for k, where in used.items() if k not in i18n.keys(lang)}
        assert not missing, f"keys without a {lang} translation: {missing}"


def test_both_languages_have_the_same_keys() -> None:
    assert i18n.keys("fr") == i18n.keys("en")


def _fields(text: str) -> set[str]:
    """A message's values; ``{n|carte|cartes}`` (a word agreeing with ``n``) reads ``n``."""
    return {name.split("|")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang, values, expected", [
    ("fr", {"n": 0}, "0 autre carte"), ("fr", {"n": 1}, "1 autre carte"), ("fr", {"n": 2}, "2 autres cartes"),
    ("fr", {"n": "1,5"}, "1,5 autre carte"), ("fr", {"n": "1 234"}, "1 234 autres cartes"),
    ("en", {"n": 0}, "0 other cards"), ("en", {"n": 1}, "1 other card"), ("en", {"n": 12}, "12 other cards"),
    ("en", {"n": "1"}, "1 other card"), ("en", {"n": "1.00"}, "1.00 other cards"),  # decimals: the plural
    ("fr", {"n": "1,00"}, "1,00 autre carte"),
    ("fr", {"n": "beaucoup"}, "beaucoup autres cartes"),  # not a number: the plural
])
def test_a_word_agrees_with_its_number(lang: str, values: dict, expected: str, monkeypatch) -> None:
    texts = {"fr": "{n} {n|autre|autres} {n|carte|cartes}", "en": "{n} other {n|card|cards}"}
    monkeypatch.setattr(i18n, "find", lambda lg, key: texts[lg])
    assert i18n.translate(lang, "x.y", **values) == expected


def test_placeholders_agree_between_languages() -> None:
    fr, en = i18n.table("fr"), i18n.table("en")
    bad = {k: (fr[k], en[k]) for k in fr if k in en and _fields(fr[k]) != _fields(en[k])}
    assert not bad


def test_current_language_and_strict_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    assert i18n.current_language() == "fr"
    assert i18n.tr("cli.error", message="x") == "erreur : x"
    with i18n.use_language("en"):
        assert i18n.tr("cli.error", message="x") == "error: x"
    assert i18n.current_language() == "fr"
    with pytest.raises(KeyError):
        i18n.tr("no.such.key")
    monkeypatch.setenv("CARDBASE_I18N_STRICT", "0")
    assert i18n.tr("no.such.key") == "no.such.key"


def test_no_message_writes_a_plural_in_brackets() -> None:
    """« carte(s) » is how a form writes, not a sentence: a word agrees with its number
    (``{n|carte|cartes}``)."""
    import re

    # also « jeu(x) », « utilise(nt) », « entry(ies) », « un(e) », « le(s) », « copy/copies »
    bracketed = re.compile(r"\w\((s|es|x|e|e\)\(s|nt|ent|ies|le|les|aux)\)|\bcopy/copies\b")
    for lang in i18n.LANGUAGES:
        bad = {k: v for k, v in i18n.table(lang).items() if bracketed.search(v)}
        assert not bad, f"{lang}: {len(bad)} messages write « (s) »: {sorted(bad)[:20]}"
