"""Declared card fields: what checking them costs on import, and searching by them, on SQLite.

    python benchmarks/bench_gamesdata.py [--rows 20000] [--repeat 3]

Two games with the same cards: ``plain`` declares no field, ``typed`` declares three
(``force:int:0..10:required``, ``camp:choice(rouge|noir)``, ``titre:text``). The same rows are
imported into each (``transfer.import_cards``, CSV, a fresh database each time): ``plain`` with no
figures, ``typed`` with the three columns. Then ``force>=5`` (read from the stats JSON of the cards
of the games declaring it) is timed against ``v>=5`` (a column) on the typed game's cards.
Prints rows/s, the ratio, and milliseconds a search.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlmodel import Session

from cardbase.catalog import cards as catalog
from cardbase.storage import db
from cardbase.catalog import gamesdata
from cardbase.catalog import search
from cardbase.catalog import transfer


def rows_csv(code: str, n: int, typed: bool) -> str:
    head = "edition,number,name,value" + (",force,camp,titre" if typed else "")
    lines = [head]
    for i in range(1, n + 1):
        extra = f",{i % 11},{'rouge' if i % 2 else 'noir'},{'Chef' if i % 7 == 0 else ''}" if typed else ""
        lines.append(f"{code},{i},Carte {i},{i % 10}{extra}")
    return "\n".join(lines) + "\n"


def fresh(folder: Path, n: int) -> str:
    url = f"sqlite:///{folder / f'db{n}.db'}"
    db.init_db(db.make_engine(url))
    return url


def run(rows: int, repeat: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-gamesdata-"))
    rates: dict[str, list[float]] = {"plain": [], "typed": []}
    url = ""
    for r in range(repeat):
        for kind in ("plain", "typed"):
            url = fresh(folder, len(rates["plain"]) * 2 + (kind == "typed") + 10 * r)
            engine = db.make_engine(url)
            with Session(engine) as s:
                fields = ["force:int:0..10:required", "camp:choice(rouge|noir)", "titre:text"] if kind == "typed" else []
                gamesdata.create_game(s, code=kind, name=kind, fields=fields)
                catalog.create_edition(s, game=kind, code="BX1", name="Banc", set_size=rows)
                s.commit()
                data = rows_csv("BX1", rows, kind == "typed")
                start = time.perf_counter()
                transfer.import_cards(s, data, fmt="csv", source="bench.csv")
                s.commit()
                rates[kind].append(rows / (time.perf_counter() - start))
            engine.dispose()
    plain, typed = statistics.median(rates["plain"]), statistics.median(rates["typed"])
    print(f"import {rows} rows (median of {repeat}): no declared field {plain:,.0f} rows/s, "
          f"three declared fields {typed:,.0f} rows/s, ratio {typed / plain:.2f}")
    engine = db.make_engine(url)  # the last typed database
    with Session(engine) as s:
        for query in ("force>=5", "v>=5", "camp:noir force>=5"):
            times = []
            for _ in range(5):
                start = time.perf_counter()
                n = search.count_cards(s, query)
                times.append(time.perf_counter() - start)
            print(f"search {query!r}: {n} cards, {1000 * statistics.median(times):.1f} ms "
                  f"(count over {rows + 200} cards)")
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("CARDBASE_LANG", "fr")
    run(args.rows, args.repeat)


if __name__ == "__main__":
    main()
