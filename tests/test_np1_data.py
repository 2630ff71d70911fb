"""The NesPanini starter edition NP1 and its starter decks."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from cardbase.storage.datafiles import dump_edition, load_edition_file, read_toml
from cardbase.games.effects import effect_to_french, format_effect, lint_effect, parse_effect
from cardbase.text import fold

ROOT = Path(__file__).resolve().parent.parent
NP1 = ROOT / "data" / "editions" / "NP1.toml"
DECKS = sorted((ROOT / "data" / "decks").glob("*.txt"))


@pytest.fixture(scope="module")
def edition():
    return load_edition_file(NP1)


def test_exact_round_trip(edition):
    assert dump_edition(*edition) == NP1.read_text(encoding="utf-8")


def test_build_script_is_in_sync():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "build_np1.py"), "--check"],
                         check=False, capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr


def test_edition_shape(edition):
    ed, cards = edition
    assert ed["game"] == "nespanini" and ed["code"] == "NP1"
    assert len(cards) >= 60
    assert [c["number"] for c in cards] == list(range(1, len(cards) + 1))
    assert ed["set_size"] == len(cards)
    assert len({fold(c["name"]) for c in cards}) == len(cards)
    for c in cards:
        assert isinstance(c["value"], int) and 0 <= c["value"] <= 9, c["name"]


def test_colours_banners_rarities(edition):
    _, cards = edition
    stickers = {row["colour"] for row in read_toml(ROOT / "data" / "stickers.toml")["colours"]}
    banners: dict[str, set[str]] = {}
    for c in cards:
        assert c["colour"] in stickers, c["name"]
        banners.setdefault(c["colour"], set()).add(c["banner"])
    assert len(banners) >= 5
    assert all(len(b) == 1 for b in banners.values())  # one banner a colour
    rarities = Counter(c["rarity"] for c in cards)
    assert len(rarities) >= 4
    assert not any("legendaire" in fold(r) for r in rarities)


def test_keywords_and_effects(edition):
    _, cards = edition
    kw = Counter(k for c in cards for k in c.get("keywords", []))
    assert set(kw) <= {"Foule", "Légendaire", "Défausse"}
    assert kw["Foule"] >= 8 and kw["Légendaire"] >= 6 and kw["Défausse"] >= 15
    state_dependent = 0
    for c in cards:
        src = c.get("effect", "")
        effect = parse_effect(src)
        assert ("Défausse" in c.get("keywords", [])) == bool(effect.on_discard), c["name"]
        if src:
            assert src == format_effect(effect), c["name"]
            assert c["effect_text"] == effect_to_french(effect), c["name"]
        else:
            assert "effect_text" not in c, c["name"]
        if any(rule.per is not None or rule.conditions for rule in effect.score):
            state_dependent += 1
    assert state_dependent >= 20


def test_every_effect_lints_clean(edition):
    _, cards = edition
    names = [c["name"] for c in cards]
    colours = {c["colour"] for c in cards}
    banners = {c["banner"] for c in cards}
    keywords = {k for c in cards for k in c.get("keywords", [])}
    for c in cards:
        problems = lint_effect(parse_effect(c.get("effect")), names, colours, banners, keywords)
        assert problems == [], (c["name"], [str(p) for p in problems])


def _read_deck(path: Path) -> tuple[dict[str, str], Counter]:
    header: dict[str, str] = {}
    counts: Counter = Counter()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            header[key.strip()] = value.strip()
            continue
        n, name = line.split(" ", 1)
        counts[name] += int(n)
    return header, counts


def test_starter_decks_are_legal_and_different(edition):
    _, cards = edition
    by_name = {c["name"]: c for c in cards}
    assert len(DECKS) >= 3
    styles = set()
    for path in DECKS:
        header, counts = _read_deck(path)
        assert header.get("game") == "nespanini" and header.get("name") and header.get("description")
        assert sum(counts.values()) == 20, path.name
        for name, n in counts.items():
            assert name in by_name, (path.name, name)
            limit = 4 if "Foule" in by_name[name].get("keywords", []) else 2
            assert n <= limit, (path.name, name, n)
        main_colour = Counter(by_name[n]["colour"] for n in counts.elements()).most_common(1)[0][0]
        styles.add(main_colour)
    assert len(styles) == len(DECKS)  # each deck leans on a different colour
