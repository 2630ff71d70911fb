"""Helpers of the seeding tests, also used by ``benchmarks/bench_seed.py``: a database an older
cardbase made and seeded, and a digest of every row of a database."""

from __future__ import annotations

import hashlib
import json

from sqlalchemy import text

from cardbase.catalog import backup
from cardbase.storage import db

CLOCK = {"updated_at", "created_at", "saved_at", "pulled_at"}  # the clock's columns, not the data's


def older_database(engine, *, game: str, game_name: str, edition: str, set_size: int, number: int,
                   name: str, value: int | None = None, stats: str = "{}", text_key: str = "") -> None:
    """Schema 0002 holding what a cardbase of before seed identities had seeded: a game, one of its
    editions and one card of it (the other cards of the edition deleted by a user)."""
    db.upgrade(engine, "0002")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO game (code, name, keyword_limits, fields, version) VALUES "
                          f"('{game}', '{game_name}', '{{}}', '[]', 1)"))
        game_id = conn.execute(text(f"SELECT id FROM game WHERE code = '{game}'")).scalar()
        conn.execute(text("INSERT INTO edition (game_id, code, name, set_size, sample, version) "
                          f"VALUES ({game_id}, '{edition}', '{game_name}', {set_size}, false, 1)"))
        ed_id = conn.execute(text(f"SELECT id FROM edition WHERE code = '{edition}'")).scalar()
        conn.execute(text(
            "INSERT INTO card (edition_id, number, name, value, keywords, stats, copies, sample, version, "
            "updated_at, name_key, text_key, colour_key, banner_key, rarity_key, type_key, keywords_key) "
            f"VALUES ({ed_id}, {number}, '{name}', {'NULL' if value is None else value}, '[]', :stats, 1, "
            f"false, 1, '2026-11-01 00:00:00', '{name.lower()}', '{text_key}', '', '', '', '', '')"),
            {"stats": stats})


def database_digest(engine) -> str:
    """Every row of every table as a backup writes it (ids included), the clock's columns aside."""
    rows = {name: [{k: v for k, v in json.loads(line).items() if k not in CLOCK} for line in data.splitlines()]
            for name, data in backup.table_lines(engine).items()}
    return hashlib.sha256(json.dumps(rows, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
