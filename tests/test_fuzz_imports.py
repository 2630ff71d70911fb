"""Bad input against a real database (SQLite and PostgreSQL): card imports, searches, deck lists
and deck codes either succeed or raise cardbase's own error — and a refused import writes nothing.

PostgreSQL is stricter than SQLite (text length limits, no NUL character in text, JSON without
NaN, integer ranges), so the same generated input must be checked by the services on both.

Each case runs in a transaction that is rolled back, so thousands of cases share one database.
"""

from __future__ import annotations

import csv
import io
import json
import math

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import func
from sqlmodel import Session, select
from test_fuzz_parsers import _checksummed, structured_body

from cardbase import decks
from cardbase.storage import db
from cardbase.catalog import transfer
from cardbase.errors import CardbaseError, DeckListError, ImportError_, QueryError
from cardbase.storage.models import Card
from cardbase.catalog.search import search_cards

# A database round trip per case: half of the profile's cases, on each backend.
DB_CASES = max(25, settings.default.max_examples // 2)
DB_SETTINGS = settings(max_examples=DB_CASES, deadline=None,
                       suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def fuzz_engine(module_db_url: str):
    engine = db.make_engine(module_db_url)
    yield engine
    engine.dispose()


def _fingerprint(session: Session) -> tuple:
    row = session.exec(select(func.count(Card.id), func.coalesce(func.sum(Card.version), 0),
                              func.coalesce(func.max(Card.id), 0))).one()
    return tuple(row)


def _refused(exc: CardbaseError, kind: type[CardbaseError]) -> None:
    event("refused")
    assert isinstance(exc, kind), f"{type(exc).__name__} raised where {kind.__name__} was expected"
    assert len(str(exc).strip()) >= 10


# --------------------------------------------------------------------------- card imports

texts = st.one_of(st.text(max_size=12), st.text(min_size=30, max_size=400), st.just("\x00"),
                  st.sampled_from(["Banc de sardines", "é", " ", "rouge", "Rouge", "NP1-001", "ＮＰ１"]))
numbers = st.one_of(st.integers(-5, 200), st.integers(-(2**70), 2**70), st.floats(), st.text(max_size=6),
                    st.sampled_from(["1", "2.0", "1e3", "nan", "inf", "", " 3 ", "0x10", "١"]))
cell = {
    "edition": st.one_of(st.sampled_from(["NP1", "np1", "OVK", "XXX", "", "NP1 "]), st.text(max_size=4)),
    "number": numbers,
    "name": texts,
    "value": numbers,
    "colour": texts,
    "banner": texts,
    "rarity": texts,
    "type": texts,
    "keywords": st.one_of(texts, st.lists(texts, max_size=40)),
    "copies": numbers,
    "stats": st.one_of(st.just('{"damage": NaN}'), st.just("{"), st.dictionaries(
        st.text(max_size=5), st.one_of(st.integers(), st.floats(), st.text(max_size=5)), max_size=3)),
    "effect": st.one_of(texts, st.sampled_from(["score: +1 per card in hand where colour = rouge max 3",
                                                "defausse: draw 1", "score: +"])),
    "effect_text": texts,
    "flavour": texts,
    "art": texts,
    "sample": st.one_of(st.booleans(), texts),
    "version": numbers,
    "junk": texts,
}


@st.composite
def card_rows(draw: st.DrawFn) -> list[dict]:
    rows = []
    for _ in range(draw(st.integers(0, 5))):
        keys = draw(st.sets(st.sampled_from(sorted(cell)), max_size=10))
        row = {"edition": "NP1", "number": draw(st.integers(1, 130)), "name": "Carte"}
        if draw(st.booleans()):
            row = {}
        for key in keys:
            row[key] = draw(cell[key])
        rows.append(row)
    return rows


def _as_csv(rows: list[dict]) -> str:
    header = sorted({k for r in rows for k in r} | {"edition", "number", "name"})
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header)
    writer.writeheader()
    for r in rows:
        writer.writerow({k: json.dumps(v) if isinstance(v, (dict, list)) and k == "stats"
                         else ";".join(map(str, v)) if isinstance(v, list) else v for k, v in r.items()})
    return out.getvalue()


def _as_json(rows: list[dict]) -> str:
    return json.dumps(rows, ensure_ascii=False, default=str)


@DB_SETTINGS
@given(rows=card_rows(), fmt=st.sampled_from(["csv", "json"]), dry_run=st.booleans())
def test_import_is_all_or_nothing(fuzz_engine, rows: list[dict], fmt: str, dry_run: bool) -> None:
    try:
        data = _as_csv(rows) if fmt == "csv" else _as_json(rows)
    except (ValueError, UnicodeEncodeError):  # the generator made something no file can hold
        return
    with Session(fuzz_engine, expire_on_commit=False) as s:
        before = _fingerprint(s)
        try:
            plan = transfer.import_cards(s, data, fmt=fmt, source=f"fuzz.{fmt}", dry_run=dry_run)
        except CardbaseError as exc:
            _refused(exc, ImportError_)
            assert not s.new and not s.dirty and not s.deleted
            assert _fingerprint(s) == before, "a refused import wrote something"
            s.rollback()
            return
        try:
            s.flush()
            after = _fingerprint(s)
            if dry_run or plan.problems:
                assert after == before, "a dry run wrote something"
            else:
                assert after[0] == before[0] + plan.counts["new"]
                changed = plan.counts["new"] + plan.counts["updated"]
                assert (after[1] - before[1]) == changed
        finally:
            s.rollback()


# --------------------------------------------------------------------------- search in SQL

QUERY_WORDS = ["c:rouge", "v>=3", "v=2", "v<99999999999999", "v>-99999999999999999999", "k:foule", "r:rare",
               "e:NP1", "g:nespanini", "t:atout", "-", "or", "(", ")", '"%"', '"_"', "\\", "'", "é", "c:",
               "n:sard", "k:%", "v!=1", "\x00", "🂡", "e:", "g:xx"]


@DB_SETTINGS
@given(st.one_of(st.text(max_size=30), st.lists(st.one_of(st.sampled_from(QUERY_WORDS), st.text(max_size=3)),
                                                  max_size=8).map(" ".join)))
def test_search_runs_in_sql(fuzz_engine, query: str) -> None:
    with Session(fuzz_engine) as s:
        try:
            cards = search_cards(s, query, limit=50)
        except CardbaseError as exc:
            _refused(exc, QueryError)
            return
        finally:
            s.rollback()
    assert all(isinstance(c, Card) for c in cards)


def test_search_escapes_like_wildcards(fuzz_engine) -> None:
    with Session(fuzz_engine) as s:
        everything = len(search_cards(s, ""))
        assert len(search_cards(s, '"%"')) < everything
        assert len(search_cards(s, '"_"')) < everything


# --------------------------------------------------------------------------- deck lists and codes

_CODE: dict[str, str] = {}


def _real_code(session: Session) -> str:
    if "code" not in _CODE:
        deck = decks.parse_deck_list("2 NP1-001\n2 NP1-002\n1 NP1-003\n4 NP1-010\n")
        _CODE["code"] = decks.encode_deck_code(session, deck, "nespanini")
    return _CODE["code"]


@st.composite
def damaged_code(draw: st.DrawFn, code: str) -> str:
    chars = list(code)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(chars)))
        op = draw(st.sampled_from(("set", "del", "ins", "cut")))
        c = draw(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"))
        if op == "set" and i < len(chars):
            chars[i] = c
        elif op == "del" and i < len(chars):
            del chars[i]
        elif op == "ins":
            chars.insert(i, c)
        else:
            chars = chars[:i]
    return "".join(chars)


@DB_SETTINGS
@given(data=st.data())
def test_deck_codes_against_the_database(fuzz_engine, data: st.DataObject) -> None:
    with Session(fuzz_engine) as s:
        code = data.draw(st.one_of(damaged_code(_real_code(s)), st.text(max_size=20),
                                   structured_body().map(_checksummed)))
        try:
            decoded = decks.decode_deck_code(s, code)
        except CardbaseError as exc:
            _refused(exc, DeckListError)
            return
        finally:
            s.rollback()
    assert decoded.count >= 0


DECK_WORDS = ["2", "1", "4", "NP1-001", "NP1-999", "Banc de sardines", "banc de SARDINES", "Zeta", "#",
              "# game: nespanini", "# game: overkill", "# game: nope", "# name: x", "\n", "OVK-1", "ＮＰ１-001"]


@DB_SETTINGS
@given(st.lists(st.one_of(st.sampled_from(DECK_WORDS), st.text(max_size=4)), max_size=16).map(" ".join))
def test_deck_lists_against_the_database(fuzz_engine, text: str) -> None:
    with Session(fuzz_engine) as s:
        try:
            deck = decks.parse_deck_list(text.replace(" \n ", "\n"))
            resolved = decks.resolve_deck(s, deck, game=deck.game or "nespanini")
            if not resolved.problems:
                legality = decks.check_deck(s, resolved)
                assert legality.legal or legality.problems
                stats = decks.deck_stats(s, resolved)
                assert stats is not None
        except CardbaseError as exc:
            assert len(str(exc).strip()) >= 10
        finally:
            s.rollback()


def test_nan_is_not_a_number_anywhere(fuzz_engine) -> None:
    """A NaN in imported stats is refused on both backends (PostgreSQL JSON cannot store it)."""
    data = json.dumps([{"edition": "NP1", "number": 1, "name": "X", "stats": {"d": math.nan}}])
    with Session(fuzz_engine) as s:
        before = _fingerprint(s)
        with pytest.raises(ImportError_):
            transfer.import_cards(s, data, fmt="json", source="nan.json")
        assert _fingerprint(s) == before
        s.rollback()


@given(st.text(alphabet=st.sampled_from(list("=+-@\t\r'ab\"é,\n ")), max_size=12) | st.text(max_size=20))
def test_csv_formula_escape_round_trips(text: str) -> None:
    """Export neutralises every formula start; import reads back exactly what was exported."""
    escaped = transfer.csv_escape(text)
    assert transfer.csv_unescape(escaped) == text
    assert not escaped or escaped[0] not in transfer.FORMULA_START
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL).writerow([escaped])
    assert next(csv.reader(io.StringIO(buf.getvalue(), newline=""), strict=True)) == [escaped]
