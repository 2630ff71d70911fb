"""Deck lists, legality, statistics, deck codes and saved decks, on real SQLite files."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import Session, select

from cardbase import i18n
from cardbase.storage import db
from cardbase.catalog.cards import apply_keys
from cardbase.decks import (
    DeckList,
    check_deck,
    deck_entries,
    deck_history,
    deck_stats,
    decode_deck_code,
    diff_versions,
    encode_deck_code,
    format_deck_list,
    import_starter_decks,
    parse_deck_list,
    prob_at_least_one,
    read_deck_code,
    read_deck_file,
    resolve_deck,
    save_deck,
)
from cardbase.errors import DeckListError, StaleEditError
from cardbase.storage.models import Card, Deck, DeckEntry, DeckVersion, Edition, Game
from cardbase.text import fold


@pytest.fixture(autouse=True)
def english():
    """Most tests here read the English wording; the French ones say ``use_language("fr")``."""
    with i18n.use_language("en"):
        yield


# 12 NesPanini-like cards: (number, name, value, colour, rarity, keywords)
CARDS = [
    (1, "Bouffon du Roi", 2, "rouge", "commune", ["Foule"]),
    (2, "Épée Légère", 3, "rouge", "commune", []),
    (3, "Dragon Ancien", 7, "noir", "mythique", ["Légendaire"]),
    (4, "Marchand", 1, "vert", "commune", ["Défausse"]),
    (5, "Garde", 2, "bleu", "commune", ["Foule"]),
    (6, "Sorcière", 4, "violet", "rare", ["Défausse"]),
    (7, "Chevalier", 3, "bleu", "peu commune", []),
    (8, "Paysan", 1, "vert", "commune", ["Foule"]),
    (9, "Reine", 5, "rouge", "rare", []),
    (10, "Voleur", 2, "noir", "peu commune", ["Défausse"]),
    (11, "Moine", 3, "blanc", "peu commune", []),
    (12, "Archer", 2, "vert", "commune", []),
]
NAMES = [c[1] for c in CARDS]
FOULE = {fold(c[1]) for c in CARDS if "Foule" in c[5]}


def _card(edition: Edition, number: int, name: str, value: int, colour: str, rarity: str,
          keywords: list[str]) -> Card:
    return apply_keys(Card(edition_id=edition.id, number=number, name=name, value=value,
                           colour=colour, rarity=rarity, keywords=keywords))


def build_world(session: Session) -> None:
    np = Game(code="nespanini", name="NesPanini", deck_size=20, copy_limit=2,
              keyword_limits={"foule": 4})
    other = Game(code="autre", name="Autre jeu", deck_size=10, copy_limit=3)
    nodecks = Game(code="sansdeck", name="Sans deck")
    session.add_all([np, other, nodecks])
    session.flush()
    np1 = Edition(game_id=np.id, code="NP1", name="Base", set_size=len(CARDS))
    np2 = Edition(game_id=np.id, code="NP2", name="Suite", set_size=2)
    au1 = Edition(game_id=other.id, code="AU1", name="Autre", set_size=3)
    session.add_all([np1, np2, au1])
    session.flush()
    for c in CARDS:
        session.add(_card(np1, *c))
    # a reprint of Garde (copies count together) and a new card
    session.add(_card(np2, 1, "Garde", 2, "bleu", "commune", ["Foule"]))
    session.add(_card(np2, 2, "Héraut", 3, "blanc", "rare", []))
    # another game: one card shares its name with a NesPanini card
    session.add(_card(au1, 1, "Moine", 1, "gris", "commune", []))
    session.add(_card(au1, 2, "Canon", 4, "gris", "commune", []))
    session.add(_card(au1, 3, "Tour", 2, "gris", "commune", []))
    session.commit()


@pytest.fixture(scope="module")
def world_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("decks") / "world.db"
    engine = db.make_engine(f"sqlite:///{path}")
    db.init_db(engine, seed=False)
    with Session(engine) as s:
        build_world(s)
    with engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()
    return path


@pytest.fixture(scope="module")
def pg_world_template(pg_cluster, pg_templates) -> str:
    """The small test world as a PostgreSQL template database (built once)."""
    name = pg_cluster.create_database(template=pg_templates["empty"])
    engine = db.make_engine(pg_cluster.url(name))
    with Session(engine) as s:
        build_world(s)
    engine.dispose()
    pg_cluster.mark_template(name)
    return name


@pytest.fixture
def ws(backend: str, world_template: Path, tmp_path: Path, request: pytest.FixtureRequest):
    """A session on a fresh copy of the small test world (SQLite file or PostgreSQL database)."""
    import shutil

    if backend == "postgresql":
        cluster = request.getfixturevalue("pg_cluster")
        name = cluster.create_database(template=request.getfixturevalue("pg_world_template"))
        url = cluster.url(name)
    else:
        target = tmp_path / "world.db"
        shutil.copyfile(world_template, target)
        url = f"sqlite:///{target}"
    engine = db.make_engine(url)
    with Session(engine, expire_on_commit=False) as s:
        yield s
    engine.dispose()
    if backend == "postgresql":
        cluster.drop_database(name)


LEGAL = """\
# name: Rouge et vert
# game: nespanini
# description: Un deck de test

4 Bouffon du Roi   # Foule
2x Épée Légère
2 NP1-003
2 marchand
2 Garde
2 Sorcière
2 Chevalier
2 Reine
2 Voleur
"""


# --------------------------------------------------------------------------- parser


def test_parse_formats_and_metadata() -> None:
    dl = parse_deck_list(LEGAL, source="x.txt")
    assert (dl.name, dl.game, dl.description) == ("Rouge et vert", "nespanini", "Un deck de test")
    assert dl.count == 20
    first = dl.lines[0]
    assert (first.line, first.count, first.text, first.column) == (5, 4, "Bouffon du Roi", 3)
    assert dl.lines[1].text == "Épée Légère" and dl.lines[1].count == 2
    assert dl.lines[2].ref == ("NP1", 3)


def test_bare_name_is_one_copy_and_hash_inside_name_kept() -> None:
    dl = parse_deck_list("Reine\n  3x   Carte#2  # note\n\n#comment only\n")
    assert [(ln.count, ln.text) for ln in dl.lines] == [(1, "Reine"), (3, "Carte#2")]
    assert dl.lines[1].line == 2


def test_parse_reports_every_error_with_line_and_column() -> None:
    text = "2 Reine\n0 Garde\n3\n   5x\n# name: A\n# name: B\n2 Ok\x07ay\n12Garde\n"
    with pytest.raises(DeckListError) as err:
        parse_deck_list(text, source="d.txt")
    problems = err.value.problems
    assert [p.code for p in problems] == [
        "bad-count", "missing-name", "missing-name", "duplicate-metadata", "bad-character",
        "bad-count"]
    assert problems[0].where == "d.txt line 2 column 1"
    assert problems[2].where == "d.txt line 4 column 4"
    assert problems[4].where == "d.txt line 7 column 5"
    assert "line 6" in str(err.value) and "first on line 5" in str(err.value)


def test_format_round_trip_merges_duplicates() -> None:
    dl = parse_deck_list("# game: nespanini\n2 Reine\n1 reine\n2 np1-004\n")
    text = format_deck_list(dl)
    assert text == "# game: nespanini\n\n3 Reine\n2 NP1-004\n"
    again = parse_deck_list(text)
    assert [(ln.count, ln.key) for ln in again.lines] == [(3, "reine"), (2, "NP1-004")]


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_parser_only_raises_deck_list_error(text: str) -> None:
    try:
        dl = parse_deck_list(text)
    except DeckListError as exc:
        assert exc.problems and all(p.where for p in exc.problems)
        return
    assert all(1 <= ln.count <= 99 and ln.text.strip() == ln.text and ln.text for ln in dl.lines)


def _key(name: str) -> str:
    return parse_deck_list(f"1 {name}").lines[0].key


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 9),
                          st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF,
                                                blacklist_characters="#", blacklist_categories=("Cc", "Cs")),
                                  min_size=1,
                                  max_size=30).map(str.strip).filter(
                                      lambda s: s and not s[0].isdigit())),
                max_size=10))
def test_format_parse_round_trip(pairs: list[tuple[int, str]]) -> None:
    dl = parse_deck_list(format_deck_list([(name, n) for n, name in pairs], name="D"))
    expected: Counter[str] = Counter()
    for n, name in pairs:
        expected[_key(name)] += n
    got: Counter[str] = Counter()
    for ln in dl.lines:
        got[ln.key] += ln.count
    assert got == expected and len(dl.lines) == len(expected)
    assert dl.name == "D"


# --------------------------------------------------------------------------- resolution


def test_resolve_accents_case_refs_and_reprints(ws: Session) -> None:
    dl = parse_deck_list("2 EPEE LEGERE\n1 NP2-001\n1 garde\n1 np1-005\n")
    rd = resolve_deck(ws, dl)
    assert rd.game is not None and rd.game.code == "nespanini"
    assert not rd.problems
    assert [(e.ref, e.count) for e in rd.entries] == [
        ("NP1-002", 2), ("NP2-001", 1), ("NP1-005", 2)]


def test_resolve_problems_with_suggestions(ws: Session) -> None:
    dl = parse_deck_list("# game: nespanini\n2 Sorciere\n2 Sorcire\n1 NP1-099\n1 ZZ9-001\n"
                         "1 Canon\n1 Bouffon\n")
    rd = resolve_deck(ws, dl)
    codes = [p.code for p in rd.problems]
    assert codes == ["unknown-card", "unknown-ref", "unknown-ref", "wrong-game", "unknown-card"]
    assert "« Sorcière »" in rd.problems[0].fix and "line 3" in rd.problems[0].where
    assert "1 to 12" in rd.problems[1].fix
    assert "Bouffon du Roi" in rd.problems[4].fix
    assert [e.count for e in rd.entries] == [2]


def test_name_in_two_games_without_game_is_ambiguous(ws: Session) -> None:
    rd = resolve_deck(ws, parse_deck_list("1 Moine\n1 Canon\n"))
    # Canon only exists in "autre": the deck is inferred to be an "autre" deck.
    assert rd.game.code == "autre" and not rd.problems
    rd = resolve_deck(ws, parse_deck_list("1 Moine\n"))
    assert rd.game is None and [p.code for p in rd.problems] == ["ambiguous-card"]


# --------------------------------------------------------------------------- legality


def test_legal_deck(ws: Session) -> None:
    result = check_deck(ws, parse_deck_list(LEGAL))
    assert result.legal, result.problems
    assert result.count == 20 and result.problems == []


def test_every_problem_with_fix(ws: Session) -> None:
    text = ("# game: nespanini\n3 Reine\n5 Bouffon du Roi\n2 Garde\n2 NP2-001\n1 Garde\n"
            "1 Dragn Ancien\n")
    result = check_deck(ws, parse_deck_list(text))
    assert not result.legal
    by_code = Counter(p.code for p in result.problems)
    assert by_code == {"unknown-card": 1, "deck-size": 1, "too-many-copies": 3}
    msgs = {p.code + p.message: p for p in result.problems}
    size = next(p for p in result.problems if p.code == "deck-size")
    assert result.count == 14 and size.fix == "add 6 cards"
    reine = next(p for p in result.problems if "Reine" in p.message)
    assert reine.fix == "lower « Reine » to 2 copies or pick a card with Foule (up to 4 copies)"
    bouffon = next(p for p in result.problems if "Bouffon" in p.message)
    assert bouffon.fix == "lower « Bouffon du Roi » to 4 copies" and "Foule" in bouffon.message
    garde = next(p for p in result.problems if "Garde" in p.message)
    assert "5 times" in garde.message  # printings of NP1 and NP2 count together
    assert msgs


def test_too_many_cards_and_other_game_rules(ws: Session) -> None:
    result = check_deck(ws, parse_deck_list(LEGAL + "1 Archer\n"))
    assert [p.fix for p in result.problems] == ["remove 1 card"]
    result = check_deck(ws, parse_deck_list("3 Canon\n3 Tour\n3 NP1-001\n1 Moine\n"), "autre")
    assert [p.code for p in result.problems] == ["wrong-game"]
    assert result.count == 10
    result = check_deck(ws, parse_deck_list("3 Canon\n3 Tour\n3 AU1-001\n1 Moine\n"), "autre")
    assert [p.code for p in result.problems] == ["too-many-copies"]
    result = check_deck(ws, parse_deck_list("1 Canon\n"), "sansdeck")
    assert not result.legal and result.problems[-1].code == "no-deck-rules"
    result = check_deck(ws, parse_deck_list("1 Canon\n"), "nope")
    assert [p.code for p in result.problems] == ["unknown-game"]


def test_check_accepts_card_count_pairs(ws: Session) -> None:
    cards = ws.exec(select(Card).join(Edition).where(Edition.code == "NP1")).all()
    pairs = [(c, 2) for c in cards[:10]]
    assert check_deck(ws, pairs, "nespanini").legal


names_and_counts = st.dictionaries(
    st.sampled_from(NAMES + ["NP2-001"]), st.integers(1, 6), max_size=12)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picked=names_and_counts)
def test_legality_property(ws: Session, picked: dict[str, int]) -> None:
    text = "# game: nespanini\n" + "".join(f"{n} {name}\n" for name, n in picked.items())
    result = check_deck(ws, parse_deck_list(text))
    per_name: Counter[str] = Counter()
    for name, n in picked.items():
        per_name["garde" if name == "NP2-001" else fold(name)] += n
    total = sum(picked.values())
    copies_ok = all(n <= (4 if key in FOULE else 2) for key, n in per_name.items())
    assert result.legal == (total == 20 and copies_ok)
    assert result.count == total
    over = sum(1 for key, n in per_name.items() if n > (4 if key in FOULE else 2))
    assert sum(p.code == "too-many-copies" for p in result.problems) == over
    assert all(p.fix for p in result.problems)


# --------------------------------------------------------------------------- statistics


def brute_force(deck_size: int, copies: int, seen: int) -> Fraction:
    deck = [1] * copies + [0] * (deck_size - copies)
    hands = list(itertools.combinations(range(deck_size), seen))
    hits = sum(1 for h in hands if any(deck[i] for i in h))
    return Fraction(hits, len(hands))


@pytest.mark.parametrize("deck_size,copies,seen", [
    (8, 1, 3), (8, 2, 3), (8, 4, 5), (10, 3, 6), (9, 0, 4), (7, 7, 1), (6, 2, 6), (6, 2, 0)])
def test_hypergeometric_matches_enumeration(deck_size: int, copies: int, seen: int) -> None:
    assert prob_at_least_one(deck_size, copies, seen) == brute_force(deck_size, copies, seen)


def test_stats(ws: Session) -> None:
    stats = deck_stats(ws, parse_deck_list(LEGAL))
    assert stats.count == 20
    assert stats.value_curve == {1: 2, 2: 8, 3: 4, 4: 2, 5: 2, 7: 2}
    assert stats.total_value == 4 * 2 + 2 * 3 + 2 * 7 + 2 * 1 + 2 * 2 + 2 * 4 + 2 * 3 + 2 * 5 + 2 * 2
    assert stats.mean_value == pytest.approx(stats.total_value / 20)
    assert stats.colours["rouge"] == 8 and sum(stats.colours.values()) == 20
    assert stats.keywords == {"Foule": 6, "Défausse": 6, "Légendaire": 2}
    assert stats.rarities["commune"] == 10
    bouffon = next(o for o in stats.draw_odds if o.name == "Bouffon du Roi")
    assert len(bouffon.by_turn) == 6
    assert bouffon.by_turn[0] == 1 - Fraction(16 * 15 * 14 * 13 * 12, 20 * 19 * 18 * 17 * 16)
    assert bouffon.by_turn[5] == 1 - Fraction(comb_(16, 10), comb_(20, 10))
    assert list(bouffon.by_turn) == sorted(bouffon.by_turn)
    reine = next(o for o in stats.draw_odds if o.name == "Reine")
    assert reine.by_turn[5] == 1 - Fraction(comb_(18, 10), comb_(20, 10))
    d = stats.as_dict()
    assert d["seen_by_turn"] == [5, 6, 7, 8, 9, 10]


def comb_(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


# --------------------------------------------------------------------------- deck codes


def test_deck_code_round_trip(ws: Session) -> None:
    rd = resolve_deck(ws, parse_deck_list(LEGAL))
    code = encode_deck_code(ws, rd)
    assert len(code) < 80 and all(ch.isalnum() or ch in "-_" for ch in code)
    decoded = decode_deck_code(ws, code)
    assert decoded.ok and decoded.same_data and decoded.game == "nespanini"
    assert sorted((e.ref, e.count) for e in decoded.entries) == sorted(
        (e.ref, e.count) for e in rd.entries)
    assert check_deck(ws, decoded.to_deck_list()).legal


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picked=st.dictionaries(st.sampled_from([f"NP1-{i:03d}" for i in range(1, 13)] + [
    "NP2-001", "NP2-002"]), st.integers(1, 99), min_size=1, max_size=14))
def test_deck_code_property(ws: Session, picked: dict[str, int]) -> None:
    dl = parse_deck_list("# game: nespanini\n" + "".join(f"{n} {r}\n" for r, n in picked.items()))
    code = encode_deck_code(ws, dl)
    decoded = decode_deck_code(ws, code)
    assert decoded.ok
    assert {e.ref: e.count for e in decoded.entries} == picked


def test_decode_against_changed_data(ws: Session) -> None:
    code = encode_deck_code(ws, parse_deck_list("# game: nespanini\n2 Reine\n2 Garde\n1 Héraut"))
    reine = ws.exec(select(Card).where(Card.name == "Reine")).one()
    reine.value = 6
    heraut = ws.exec(select(Card).where(Card.name == "Héraut")).one()
    ws.delete(heraut)
    ws.commit()
    decoded = decode_deck_code(ws, code)
    assert not decoded.same_data
    status = {e.ref: e.status for e in decoded.entries}
    assert status == {"NP1-009": "changed", "NP1-005": "ok", "NP2-002": "unknown"}
    assert [p.code for p in decoded.problems] == ["changed-card", "unknown-card"]


@pytest.mark.parametrize("code,needle", [
    ("", "empty"),
    ("abc$def", "character"),
    ("AQ", "too short"),
    ("Ag" + "A" * 10, "version 2"),
    ("AQAAAAAAAA", "checksum"),
    ("A", "length"),
])
def test_malformed_codes(code: str, needle: str) -> None:
    with pytest.raises(DeckListError) as err:
        read_deck_code(code)
    assert needle in str(err.value)


def test_damaged_code_detected(ws: Session) -> None:
    code = encode_deck_code(ws, parse_deck_list(LEGAL))
    flipped = code[:10] + ("B" if code[10] != "B" else "C") + code[11:]
    with pytest.raises(DeckListError, match="checksum|damaged|short"):
        read_deck_code(flipped)
    with pytest.raises(DeckListError):
        read_deck_code(code[:-3])


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=40))
def test_decoder_only_raises_deck_list_error(data: bytes) -> None:
    import base64
    import hashlib

    body = bytes([1]) + data
    code = base64.urlsafe_b64encode(body + hashlib.sha256(body).digest()[:2]).decode().rstrip("=")
    try:
        read_deck_code(code)
    except DeckListError:
        pass


# --------------------------------------------------------------------------- saving


def test_save_versions_history_and_stale(ws: Session) -> None:
    dl = parse_deck_list(LEGAL)
    deck = save_deck(ws, game="nespanini", name="Rouge et vert", entries=dl, note="v1")
    ws.commit()
    assert deck.version == 1
    assert sum(e.count for e in deck_entries(ws, deck).entries) == 20

    with pytest.raises(StaleEditError, match="version 1"):
        save_deck(ws, game="nespanini", name="Rouge et vert", entries=dl)
    v2 = parse_deck_list(LEGAL.replace("2 Voleur", "1 Voleur\n1 Archer"))
    deck = save_deck(ws, game="nespanini", name="Rouge et vert", entries=v2, expected_version=1)
    ws.commit()
    assert deck.version == 2
    with pytest.raises(StaleEditError, match="at version 2"):
        save_deck(ws, game="nespanini", name="Rouge et vert", entries=dl, expected_version=1)
    ws.rollback()

    history = deck_history(ws, deck.id)
    assert [v.number for v in history] == [1, 2] and history[0].note == "v1"
    assert sum(e["count"] for e in history[0].entries) == 20
    assert set(history[0].entries[0]) == {"card_id", "ref", "name", "count"}
    diff = diff_versions(history[0], history[1])
    assert [(d.name, d.before, d.after) for d in diff.added] == [("Archer", 0, 1)]
    assert [(d.name, d.before, d.after) for d in diff.changed] == [("Voleur", 2, 1)]
    assert not diff.removed and not diff_versions(history[0], history[0])
    rows = ws.exec(select(DeckEntry).where(DeckEntry.deck_id == deck.id)).all()
    assert sum(r.count for r in rows) == 20 and len(rows) == 10


def test_history_survives_card_changes(ws: Session) -> None:
    deck = save_deck(ws, game="nespanini", name="H", entries=parse_deck_list("2 Reine"))
    ws.commit()
    reine = ws.exec(select(Card).where(Card.name == "Reine")).one()
    reine.name = "Grande Reine"
    ws.commit()
    (v1,) = deck_history(ws, deck.id)
    assert v1.entries[0]["name"] == "Reine" and v1.entries[0]["ref"] == "NP1-009"


def test_save_refuses_unknown_cards_and_illegal_when_asked(ws: Session) -> None:
    with pytest.raises(DeckListError, match="not found"):
        save_deck(ws, game="nespanini", name="X", entries=parse_deck_list("2 Nobody"))
    with pytest.raises(DeckListError, match="not legal"):
        save_deck(ws, game="nespanini", name="X", entries=parse_deck_list("2 Reine"),
                  require_legal=True)
    with pytest.raises(StaleEditError):
        save_deck(ws, game="nespanini", name="Y", entries=parse_deck_list("2 Reine"),
                  expected_version=3)
    assert ws.exec(select(Deck)).all() == []


def test_concurrent_save_one_wins(world_template: Path, tmp_path: Path) -> None:
    import shutil

    target = tmp_path / "w.db"
    shutil.copyfile(world_template, target)
    engine = db.make_engine(f"sqlite:///{target}")
    with Session(engine) as s:
        save_deck(s, game="nespanini", name="C", entries=parse_deck_list("2 Reine"))
        s.commit()
    with Session(engine) as a, Session(engine) as b:
        save_deck(a, game="nespanini", name="C", entries=parse_deck_list("1 Reine"),
                  expected_version=1)
        a.commit()
        with pytest.raises(StaleEditError):
            save_deck(b, game="nespanini", name="C", entries=parse_deck_list("2 Garde"),
                      expected_version=1)
    with Session(engine) as s:
        assert [v.number for v in s.exec(select(DeckVersion)).all()] == [1, 2]
    engine.dispose()


def test_import_starter_decks_idempotent(ws: Session, tmp_path: Path) -> None:
    folder = tmp_path / "data" / "decks"
    folder.mkdir(parents=True)
    (folder / "rouge.txt").write_text(LEGAL, encoding="utf-8")
    (folder / "autre.txt").write_text(LEGAL.replace("Rouge et vert", "Second"), encoding="utf-8")
    assert import_starter_decks(ws, tmp_path / "data") == 2
    assert import_starter_decks(ws, tmp_path / "data") == 0
    assert sorted(d.name for d in ws.exec(select(Deck)).all()) == ["Rouge et vert", "Second"]
    (folder / "bad.txt").write_text("# game: nespanini\n2 Reine\n", encoding="utf-8")
    with pytest.raises(DeckListError, match="deck-size|cards"):
        import_starter_decks(ws, tmp_path / "data")


def test_deck_list_value_is_frozen() -> None:
    dl = parse_deck_list("2 Reine")
    assert isinstance(dl, DeckList)
    with pytest.raises(AttributeError):
        dl.name = "x"  # type: ignore[misc]


# --------------------------------------------------------------------------- seeded data


def test_seeded_starter_decks_are_legal_and_share_as_codes(session: Session) -> None:
    from cardbase.storage.db import DATA_DIR

    files = sorted((DATA_DIR / "decks").glob("*.txt"))
    if not files:
        pytest.skip("no starter decks in data/decks yet")
    saved = session.exec(select(Deck)).all()
    assert len(saved) == len(files) >= 3
    for deck in saved:
        current = deck_entries(session, deck)
        assert check_deck(session, current).legal
        decoded = decode_deck_code(session, encode_deck_code(session, current))
        assert decoded.ok and decoded.same_data and decoded.count == 20
    assert import_starter_decks(session, DATA_DIR) == 0


def test_delete_deck_removes_history_and_respects_versions(session):
    from cardbase import decks
    from cardbase.errors import StaleEditError
    from cardbase.storage.models import DeckVersion

    deck = decks.list_decks(session, game="nespanini")[0]
    with pytest.raises(StaleEditError, match="NOT deleted"):
        decks.delete_deck(session, deck.id, expected_version=deck.version + 5)
    name = decks.delete_deck(session, deck.id, expected_version=deck.version)
    assert name == deck.name
    assert all(d.id != deck.id for d in decks.list_decks(session, game="nespanini"))
    assert session.exec(select(DeckVersion).where(DeckVersion.deck_id == deck.id)).all() == []


def test_viewer_cannot_delete_a_deck(session, monkeypatch):
    from cardbase import access, decks
    from cardbase.errors import PermissionDenied

    monkeypatch.setenv(access.PASSWORD_ENV, "s3cret")
    deck = decks.list_decks(session, game="nespanini")[0]
    access.enforce(True)
    try:
        with access.editor_context(None), pytest.raises(PermissionDenied, match="locked"):
            decks.delete_deck(session, deck.id)
        with access.editor_context(access.unlock("s3cret")):
            decks.delete_deck(session, deck.id)
    finally:
        access.enforce(False)


# --------------------------------------------------------------------------- one language


def test_messages_are_french_by_default_and_english_on_request(ws: Session) -> None:
    text = "# game: nespanini\n3 Reine\n2 Sorciere\n1 Sorcire\n0 Garde\n"
    with i18n.use_language("fr"):
        with pytest.raises(DeckListError) as err:
            parse_deck_list(text, source="d.txt")
        (bad,) = err.value.problems
        assert bad.code == "bad-count" and bad.where == "d.txt ligne 5 colonne 1"
        assert "hors limites" in bad.message and "de 1 à 99" in bad.fix
        assert "ne peut pas être lue" in str(err.value)
        fr = check_deck(ws, parse_deck_list(text.replace("0 Garde\n", "")))
    with i18n.use_language("en"):
        en = check_deck(ws, parse_deck_list(text.replace("0 Garde\n", "")))
    # the same problems, by code and place, in two languages
    assert [p.code for p in fr.problems] == [p.code for p in en.problems] == [
        "unknown-card", "deck-size", "too-many-copies"]
    by_code = {p.code: p for p in fr.problems}
    assert by_code["unknown-card"].message == "aucune carte ne s'appelle « Sorcire »"
    assert by_code["unknown-card"].fix == "vouliez-vous dire « Sorcière » ?"
    assert by_code["deck-size"].message == ("le deck a 6 cartes ; un deck de NesPanini en a "
                                            "exactement 20")
    assert by_code["deck-size"].fix == "ajoutez 14 cartes"
    assert by_code["too-many-copies"].fix == ("réduisez « Reine » à 2 exemplaires ou choisissez "
                                              "une carte avec Foule (jusqu'à 4 exemplaires)")
    assert by_code["too-many-copies"].where == "<deck> ligne 2"
    assert {p.code: p for p in en.problems}["deck-size"].fix == "add 14 cards"


def test_singular_and_plural_in_both_languages(ws: Session) -> None:
    nineteen = LEGAL.replace("2 Voleur\n", "1 Voleur\n")
    with i18n.use_language("fr"):
        (fr,) = check_deck(ws, parse_deck_list(nineteen)).problems
        assert fr.fix == "ajoutez 1 carte"
    (en,) = check_deck(ws, parse_deck_list(nineteen)).problems
    assert en.fix == "add 1 card" and "19 cards" in en.message


def test_deck_code_errors_in_french() -> None:
    with i18n.use_language("fr"):
        with pytest.raises(DeckListError, match="somme de contrôle"):
            read_deck_code("AQAAAAAAAA")
        with pytest.raises(DeckListError, match="vide"):
            read_deck_code("  ")


# --------------------------------------------------------------------------- odd input


def test_absurd_counts_nul_bytes_and_endless_lists_are_clear_problems() -> None:
    with pytest.raises(DeckListError) as err:
        parse_deck_list("99999999999999999999 Bouffon du Roi\n2 Rei\x00ne\n", source="d.txt")
    assert [p.code for p in err.value.problems] == ["bad-count", "bad-character"]
    assert "999999999999…" in err.value.problems[0].message  # not the whole number
    with pytest.raises(DeckListError) as err:
        parse_deck_list("".join(f"1 Carte {i}\n" for i in range(10_000)), source="d.txt")
    (too_many,) = err.value.problems
    assert too_many.code == "too-many-lines" and "line 1001" in too_many.where
    with pytest.raises(DeckListError) as err:
        parse_deck_list("1 Reine\n" * 40_000)
    assert [p.code for p in err.value.problems] == ["too-big"]


def test_deck_files_are_read_with_a_size_limit(tmp_path: Path) -> None:
    import os
    import threading

    with pytest.raises(DeckListError, match="too large"):
        read_deck_file("/dev/zero")
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as fh:  # 2 GB, sparse: costs nothing on disk
        fh.truncate(2 * 1024**3)
    with pytest.raises(DeckListError, match="too large"):
        read_deck_file(huge)
    with pytest.raises(DeckListError, match="folder"):
        read_deck_file(tmp_path)
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)
    stop = threading.Event()

    def endless_writer() -> None:
        try:
            with open(fifo, "wb") as out:
                while not stop.is_set():
                    out.write(b"2 Reine\n" * 1000)
        except (BrokenPipeError, OSError):
            pass

    writer = threading.Thread(target=endless_writer, daemon=True)
    writer.start()
    try:
        with pytest.raises(DeckListError, match="too large"):
            read_deck_file(fifo)
    finally:
        stop.set()
        writer.join(timeout=5)


def test_malformed_deck_codes_are_clear_errors() -> None:
    import base64
    import hashlib

    def checksummed(body: bytes) -> str:
        data = body + hashlib.sha256(body).digest()[:2]
        return base64.urlsafe_b64encode(data).decode().rstrip("=")

    with pytest.raises(DeckListError, match="characters long"):
        read_deck_code("AQ" + "A" * 1_000_000)
    fingerprint = b"\0\0\0\0"
    game = b"\x09nespanini"
    card = b"\x03NP1\x01" + b"\x01" + b"\x00" + b"\0\0"  # one card, count 0
    with pytest.raises(DeckListError, match="damaged"):
        read_deck_code(checksummed(b"\x01" + game + fingerprint + b"\x01" + card))
    with pytest.raises(DeckListError, match="damaged"):  # a NUL inside the game code
        read_deck_code(checksummed(b"\x01\x03n\x00p" + fingerprint + b"\x00"))
    big = b"\x03NP1\x01" + b"\xff\xff\xff\xff\x0f" + b"\x02" + b"\0\0"  # number 2**32 - 1
    with pytest.raises(DeckListError, match="damaged"):
        read_deck_code(checksummed(b"\x01" + game + fingerprint + b"\x01" + big))


def test_saved_fields_are_checked_before_the_write(ws: Session) -> None:
    """Longer than the column (a DataError on PostgreSQL) or holding a NUL: a clear problem."""
    dl = parse_deck_list(LEGAL)
    with pytest.raises(DeckListError) as err:
        save_deck(ws, game="nespanini", name="N" * 121, entries=dl, note="x" * 301)
    assert [p.code for p in err.value.problems] == ["name-too-long", "note-too-long"]
    with pytest.raises(DeckListError) as err:
        save_deck(ws, game="nespanini", name="A\x00B", entries=dl, description="ok\nyes\x00")
    assert [(p.code, p.where) for p in err.value.problems] == [
        ("bad-character", "name"), ("bad-character", "description")]
    ws.rollback()
    assert ws.exec(select(Deck)).all() == []
    deck = save_deck(ws, game="nespanini", name="N" * 120, entries=dl, note="x" * 300)
    ws.commit()
    assert deck.version == 1


def test_odd_codes_on_the_database(ws: Session) -> None:
    """Game and edition codes longer than their columns are looked up, not written: no error."""
    import base64
    import hashlib

    body = b"\x01\x28" + b"g" * 40 + b"\0\0\0\0" + b"\x01\x28" + b"E" * 40 + b"\x01\x01\x01\0\0"
    code = base64.urlsafe_b64encode(body + hashlib.sha256(body).digest()[:2]).decode().rstrip("=")
    decoded = decode_deck_code(ws, code)
    assert [p.code for p in decoded.problems] == ["unknown-game", "unknown-card"]
    assert check_deck(ws, parse_deck_list("# game: " + "x" * 300 + "\n2 Reine\n")).problems[
        0].code == "unknown-game"


# --------------------------------------------------------------------------- starter decks


def test_a_viewer_cannot_overwrite_a_starter_deck(ws: Session, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from cardbase import access
    from cardbase.errors import PermissionDenied

    folder = tmp_path / "data" / "decks"
    folder.mkdir(parents=True)
    (folder / "rouge.txt").write_text(LEGAL, encoding="utf-8")
    assert import_starter_decks(ws, tmp_path / "data") == 1
    ws.commit()
    mine = parse_deck_list(LEGAL.replace("2 Voleur\n", "2 Moine\n"))
    monkeypatch.setenv(access.PASSWORD_ENV, "s3cret")
    access.enforce(True)
    try:
        with access.editor_context(None):
            with pytest.raises(PermissionDenied) as err:
                save_deck(ws, game="nespanini", name="Rouge et vert", entries=mine,
                          expected_version=1)
            assert "starter deck" in str(err.value) and "« Rouge et vert (2) »" in str(err.value)
            with i18n.use_language("fr"), pytest.raises(PermissionDenied, match="deck de départ"):
                save_deck(ws, game="nespanini", name="Rouge et vert", entries=mine)
            ws.rollback()
            # the suggested name is free, and a viewer may save there
            assert save_deck(ws, game="nespanini", name="Rouge et vert (2)", entries=mine).version == 1
            ws.commit()
            with pytest.raises(PermissionDenied, match=r"Rouge et vert \(3\)"):
                save_deck(ws, game="nespanini", name="Rouge et vert", entries=mine,
                          expected_version=1)
            ws.rollback()
        starter = ws.exec(select(Deck).where(Deck.name == "Rouge et vert")).one()
        assert starter.version == 1
        assert Counter({e.card.name: e.count for e in deck_entries(ws, starter).entries})["Voleur"] == 2
        with access.editor_context(access.unlock("s3cret")):  # an editor may update it
            assert save_deck(ws, game="nespanini", name="Rouge et vert", entries=mine,
                             expected_version=1).version == 2
        ws.commit()
    finally:
        access.enforce(False)
    # the command line (no editor mode enforced) may update it too
    assert save_deck(ws, game="nespanini", name="Rouge et vert", entries=parse_deck_list(LEGAL),
                     expected_version=2).version == 3
