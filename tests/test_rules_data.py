"""The edition files of OVERKILL, 15 en un tour, CT vs Terror and Overseers match their rule texts."""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cardbase.storage.datafiles import dump_edition, figures, load_edition_file
from cardbase.text import canonical_colour

DATA = Path(__file__).resolve().parents[1] / "data"
EDITIONS = DATA / "editions"
RULES_DIR = Path("/work/shared/rules")
FILES = {"OVK": "overkill", "P15": "pushluck", "CTT": "ctterror", "OVS": "overseers"}


def load(code: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return load_edition_file(EDITIONS / f"{code}.toml")


def copies(card: dict[str, Any]) -> int:
    return card.get("copies", 1)


def by_name(cards: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in cards}


# --------------------------------------------------------------------------- all four files

@pytest.mark.parametrize("code", sorted(FILES))
def test_file_round_trips_byte_for_byte(code: str) -> None:
    path = EDITIONS / f"{code}.toml"
    assert dump_edition(*load_edition_file(path)) == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("code", sorted(FILES))
def test_edition_fields(code: str) -> None:
    edition, cards = load(code)
    games = {g["code"] for g in tomllib.loads((DATA / "games.toml").read_text())["games"]}
    assert edition["code"] == code
    assert edition["game"] == FILES[code] and edition["game"] in games
    assert edition["set_size"] == len(cards)
    assert [c["number"] for c in cards] == list(range(1, len(cards) + 1))
    assert edition["symbol"] and edition["description"]
    assert str(edition["date"]) == "2026-11-01"


@pytest.mark.parametrize("code", sorted(FILES))
def test_colours_are_canonical_and_stats_are_scalars(code: str) -> None:
    _, cards = load(code)
    for card in cards:
        if "colour" in card:
            assert card["colour"] == canonical_colour(card["colour"]), card["name"]
        for key, val in figures(card).items():
            assert isinstance(val, (int, str)) and not isinstance(val, bool), (card["name"], key)


# --------------------------------------------------------------------------- OVERKILL

ATOUTS = {
    "Helpers": ("Passif", ["Snake eye", "Overseer", "Retracer", "Spy"]),
    "Challengers": ("Passif", ["Minimiser", "Juker", "Rebooter", "Maximiser"]),
    "Negociaters": ("Passif", ["Gambler", "Bettor", "Gard", "Protector"]),
    "Offensives": ("Actif", ["Gifter", "Yoinker", "Remover", "Rewinder"]),
    "Defensives": ("Actif", ["Saver", "Mistake Patcher", "Switcher"]),
}


def test_overkill_number_cards() -> None:
    _, cards = load("OVK")
    numbers = [c for c in cards if c.get("type") == "Nombre" and c["value"] != 99]
    assert sorted((c["colour"], c["value"]) for c in numbers) == sorted(
        (colour, v) for colour in ("rouge", "noir") for v in range(1, 10))
    assert all(copies(c) == 1 for c in numbers)
    nines = [c for c in cards if c.get("value") == 99]
    assert sorted(c["colour"] for c in nines) == ["noir", "rouge"]
    assert all(copies(c) == 1 for c in nines)


def test_overkill_atouts() -> None:
    _, cards = load("OVK")
    atouts = [c for c in cards if c.get("type") in ATOUTS]
    assert len(atouts) == 19
    for klass, (mode, names) in ATOUTS.items():
        got = [c for c in atouts if c["type"] == klass]
        assert [c["name"] for c in got] == names
        for card in got:
            assert card["keywords"] == [mode]
            assert card["banner"] == klass
            assert "value" not in card
    atout = by_name(atouts)
    assert {n: atout[n]["objectif"] for n in ATOUTS["Challengers"][1]} == {
        "Minimiser": 17, "Juker": 19, "Rebooter": 24, "Maximiser": 27}
    assert {n: atout[n]["pari"] for n in ATOUTS["Negociaters"][1]} == {
        "Gambler": 2, "Bettor": 1, "Gard": -2, "Protector": -1}
    assert len(cards) == 18 + 2 + 19


def test_overkill_effects_are_the_rule_text_verbatim() -> None:
    rules = RULES_DIR / "000_018393eb38a1d79c.txt"
    if not rules.exists():
        pytest.skip(f"rule text not found at {rules}")
    text = rules.read_text(encoding="utf-8")
    _, cards = load("OVK")
    for card in cards:
        if card.get("type") in ATOUTS:
            quoted = '"' + card["name"] + '": ' + card["effect_text"]
            assert quoted in text, card["name"]


# --------------------------------------------------------------------------- 15 en un tour

def test_pushluck_cards() -> None:
    _, cards = load("P15")
    card = by_name(cards)
    box = ["+3 points", "+5 points", "×2 points", "Protection", "Perdre tout"]
    assert [c["name"] for c in cards if copies(c) == 1] == box
    assert card["+3 points"]["value"] == 3 and card["+5 points"]["value"] == 5
    assert "value" not in card["×2 points"] and figures(card["×2 points"]) == {"multiplier": 2}
    assert "value" not in card["Protection"] and "value" not in card["Perdre tout"]
    plus_one = card["+1 points"]
    assert plus_one["value"] == 1 and copies(plus_one) == 0
    assert figures(plus_one) == {"optional": 1}
    assert sum(copies(c) for c in cards) == 5


def test_pushluck_other_reading_is_one_edit_away() -> None:
    """Reading two (+1 instead of +5): swap the copies, the deck is still five cards."""
    _, cards = load("P15")
    swapped = [dict(c) for c in cards]
    for c in swapped:
        if c["name"] == "+1 points":
            c["copies"] = 1
        elif c["name"] == "+5 points":
            c["copies"] = 0
    deck = sorted(c.get("value", 0) for c in swapped for _ in range(copies(c)))
    assert deck == [0, 0, 0, 1, 3]


# --------------------------------------------------------------------------- CT vs Terror

def test_ctterror_counts() -> None:
    _, cards = load("CTT")
    assert sum(copies(c) for c in cards) == 68
    per_type = Counter()
    for c in cards:
        per_type[c["type"]] += copies(c)
    assert per_type == {"Personnage": 8, "Points de vie": 8, "Spécial": 18, "Armure": 18,
                        "Arme": 16}


def test_ctterror_characters() -> None:
    _, cards = load("CTT")
    chars = [c for c in cards if c["type"] == "Personnage"]
    assert Counter(c["banner"] for c in chars for _ in range(copies(c))) == {
        "CT": 4, "Terroriste": 4}
    assert all(c["sample"] and figures(c) == {"damage": 20} for c in chars)
    assert not any(c.get("sample") for c in cards if c["type"] != "Personnage")


def test_ctterror_figures() -> None:
    _, cards = load("CTT")
    card = by_name(cards)
    specials = {"Bombe", "Grenade à gaz", "Désamorçage", "Esquive", "Tir ami", "Grenade flash",
                "Tir à la tête", "Renfort", "Ricochet"}
    assert {c["name"] for c in cards if c["type"] == "Spécial"} == specials
    assert all(copies(card[n]) == 2 for n in specials)
    assert {n: (copies(card[n]), card[n].get("armour"))
            for n in ("Casque", "Gilet", "Masque")} == {
        "Casque": (7, 20), "Gilet": (7, 40), "Masque": (4, None)}
    assert {n: (copies(card[n]), card[n]["damage"])
            for n in ("9 mm", "AK 47", "Grenade", "Fusil de sniper", "Uzi")} == {
        "9 mm": (4, 40), "AK 47": (4, 60), "Grenade": (2, 80), "Fusil de sniper": (2, 80),
        "Uzi": (4, 40)}
    assert "Défense" not in card["Grenade"]["keywords"]  # « Granada can not be used defensively »
    life = card["Points de vie"]
    assert copies(life) == 8 and figures(life) == {"life": 100, "life_step": 20}
    assert "100, 80, 60, 40 et 20" in life["effect_text"]
    assert figures(card["Bombe"]) == {"damage": 40, "team_damage": 20}


# --------------------------------------------------------------------------- Overseers

SIX_PLAYERS = {"rouge": 5, "orange": 6, "violet": 7, "bleu": 7, "vert": 7, "gris": 4}


def test_overseers_virtue_and_vice_split() -> None:
    _, cards = load("OVS")
    vv = [c for c in cards if c["type"] == "Vertu & Vice"]
    assert sum(copies(c) for c in vv) == 36
    split = Counter()
    for c in vv:
        split[c["colour"]] += copies(c)
    assert split == SIX_PLAYERS
    assert all(isinstance(c["value"], int) and c["value"] > 0 for c in vv)
    assert [c for c in vv if "Vol" in c.get("keywords", [])] == [
        c for c in vv if c["colour"] == "gris"]


@pytest.mark.parametrize("players,line", [
    (4, {"rouge": 3, "orange": 4, "violet": 5, "bleu": 5, "vert": 5, "gris": 3}),
    (5, {"rouge": 4, "orange": 6, "violet": 6, "bleu": 6, "vert": 6, "gris": 4}),
    (6, SIX_PLAYERS),
])
def test_overseers_every_setup_fits_in_the_box(players: int, line: dict[str, int]) -> None:
    """Every line of « RÉPARTITION DES CARTES » can be taken from the file's 36 cards."""
    _, cards = load("OVS")
    box = Counter()
    for c in cards:
        if c["type"] == "Vertu & Vice":
            box[c["colour"]] += copies(c)
    assert all(line[colour] <= box[colour] for colour in line)
    assert sum(line.values()) >= 6 * players  # six cards dealt to each player


def test_overseers_everything_is_sample() -> None:
    edition, cards = load("OVS")
    assert edition["sample"] is True
    assert all(c.get("sample") is True for c in cards)
    chars = [c for c in cards if c["type"] == "Personnage"]
    assert len(chars) == 11 and all(c["effect_text"] for c in chars)
    assert len(cards) == 36 + 11
