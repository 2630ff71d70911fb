"""Dump and restore a database of 10,000 cards, on SQLite and on PostgreSQL.

    python benchmarks/bench_backup.py [--cards 10000] [--decks 200] [--repeat 3]

Builds a seeded database plus generated editions up to ``--cards`` cards and ``--decks`` decks
with three saved versions each, then times: dump (SQLite), restore into an empty SQLite file,
restore into an empty PostgreSQL database, dump (PostgreSQL) — and checks that every archive is
byte for byte the same. PostgreSQL runs on a throwaway cluster (tests/pg_support.py); it is
skipped with a note when the server binaries are not installed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlmodel import Session, select

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from cardbase.catalog import backup
from cardbase.storage import db
from cardbase.catalog.cards import apply_keys
from cardbase.storage.models import Card, Deck, DeckEntry, DeckVersion, Edition, Game

COLOURS = ["rouge", "bleu", "vert", "jaune", "violet", "noir"]
WORDS = ["loup", "sardine", "banc", "corsaire", "lanterne", "brume", "écume", "fanion", "récif"]


def build(url: str, cards: int, decks: int, rng: random.Random) -> int:
    engine = db.make_engine(url)
    db.init_db(engine)
    with Session(engine, expire_on_commit=False) as s:
        have = len(s.exec(select(Card.id)).all())
        game = s.exec(select(Game).where(Game.code == "nespanini")).one()
        missing, e = cards - have, 0
        made: list[Card] = []
        while missing > 0:
            size = min(500, missing)
            ed = Edition(game_id=game.id, code=f"G{e:03d}", name=f"Générée {e}", set_size=size)
            s.add(ed)
            s.flush()
            batch = [apply_keys(Card(
                edition_id=ed.id, number=n, name=f"{rng.choice(WORDS).capitalize()} {e}-{n}",
                value=rng.randint(0, 9), colour=rng.choice(COLOURS), rarity="commune",
                keywords=["Foule"] if n % 9 == 0 else [], effect_text=f"Effet « {n} » : +1.",
                flavour="Une ligne\net une autre.", stats={"n": n, "x": [1.5, None]}))
                for n in range(1, size + 1)]
            s.add_all(batch)
            made += batch
            missing -= size
            e += 1
        s.flush()
        for d in range(decks):
            deck = Deck(game_id=game.id, name=f"Deck {d}", version=3)
            s.add(deck)
            s.flush()
            picks = rng.sample(made, 10)
            s.add_all(DeckEntry(deck_id=deck.id, card_id=c.id, count=2) for c in picks)
            for v in (1, 2, 3):
                s.add(DeckVersion(deck_id=deck.id, number=v, note=f"v{v}", entries=[
                    {"card_id": c.id, "ref": f"x-{c.number}", "name": c.name, "count": 2} for c in picks]))
        s.commit()
        total = len(s.exec(select(Card.id)).all())
    engine.dispose()
    return total


CPU: list[float] = []  # CPU time (this process) of the last timed call, median


def timed(fn: Callable[[], object], repeat: int, reset: Callable[[], None] | None = None) -> float:
    """Median wall time of ``fn``; its median CPU time (this process) goes to ``CPU[-1]``."""
    times, cpu = [], []
    for _ in range(repeat):
        if reset:
            reset()
        t, c = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    CPU.append(statistics.median(cpu))
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cards", type=int, default=10_000)
    ap.add_argument("--decks", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(2024)
    tmp = Path(tempfile.mkdtemp(prefix="bench-backup-"))
    src = f"sqlite:///{tmp / 'src.db'}"
    t = time.perf_counter()
    total = build(src, args.cards, args.decks, rng)
    print(f"built a SQLite database of {total:,} cards and {args.decks} decks in {time.perf_counter() - t:.1f} s")

    engine = db.make_engine(src)
    archive = tmp / "dump.zip"
    dump_s = timed(lambda: backup.dump_database(engine, archive, force=True), args.repeat)
    engine.dispose()
    size = archive.stat().st_size
    counts = backup.read_archive(archive).manifest["tables"]
    rows = sum(v["rows"] for v in counts.values())
    print(f"dump    SQLite     {dump_s:6.2f} s  ({rows:,} rows, {size / 1e6:.1f} MB, "
          f"{total / dump_s:,.0f} cards/s; CPU {CPU[-1]:.2f} s)")

    n = {"i": 0}

    def fresh_sqlite() -> None:
        n["i"] += 1

    def restore_sqlite() -> None:
        eng = db.make_engine("sqlite:///" + str(tmp / f"r{n['i']}.db"))
        backup.restore_database(eng, archive)
        eng.dispose()

    rs = timed(restore_sqlite, args.repeat, fresh_sqlite)
    print(f"restore SQLite     {rs:6.2f} s  ({total / rs:,.0f} cards/s; blank file, schema included; "
          f"CPU {CPU[-1]:.2f} s)")
    eng = db.make_engine("sqlite:///" + str(tmp / f"r{n['i']}.db"))
    backup.dump_database(eng, tmp / "again.zip")
    eng.dispose()
    same = (tmp / "again.zip").read_bytes() == archive.read_bytes()
    print(f"re-dump of the SQLite restore is byte for byte the same: {same}")

    try:
        from pg_support import PgCluster, PgUnavailable
        cluster = PgCluster.start()
    except (ImportError, PgUnavailable) as exc:
        print(f"PostgreSQL skipped: {exc}")
        return
    try:
        template = cluster.create_database("empty_template")
        e = db.make_engine(cluster.url(template))
        db.init_db(e, seed=False)
        e.dispose()
        cluster.mark_template(template)
        urls: list[str] = []

        def fresh_pg() -> None:
            urls.append(cluster.url(cluster.create_database(template=template)))

        def restore_pg() -> None:
            eng = db.make_engine(urls[-1])
            backup.restore_database(eng, archive)
            eng.dispose()

        rp = timed(restore_pg, args.repeat, fresh_pg)
        print(f"restore PostgreSQL {rp:6.2f} s  ({total / rp:,.0f} cards/s; migrated empty database; "
              f"CPU {CPU[-1]:.2f} s)")
        eng = db.make_engine(urls[-1])
        dp = timed(lambda: backup.dump_database(eng, tmp / "pg.zip", force=True), args.repeat)
        eng.dispose()
        print(f"dump    PostgreSQL {dp:6.2f} s  ({total / dp:,.0f} cards/s; CPU {CPU[-1]:.2f} s)")
        t, c = time.perf_counter(), time.process_time()
        backup.read_archive(archive)
        print(f"restore checks alone (read_archive) {time.perf_counter() - t:6.2f} s  "
              f"(CPU {time.process_time() - c:.2f} s)")
        same = (tmp / "pg.zip").read_bytes() == archive.read_bytes()
        print(f"SQLite → PostgreSQL → archive is byte for byte the same: {same}")
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
