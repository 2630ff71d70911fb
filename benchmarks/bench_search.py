"""Search time on a database of generated cards (default 10,000) in a SQLite file.

    python benchmarks/bench_search.py [--cards 10000] [--repeat 20] [--url DATABASE_URL]

Prints, for a few typical queries, the number of matches and the milliseconds per query
(median of ``--repeat`` runs): a full ``search_cards`` call (parse, SQL, one ORM object a match),
the same with ``limit=50`` (one page of the app), and ``count_cards`` (the SQL alone).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from sqlmodel import Session

from cardbase.catalog.cards import apply_keys
from cardbase.storage.db import init_db, make_engine
from cardbase.storage.models import Card, Edition, Game
from cardbase.catalog.search import count_cards, search_cards

QUERIES = [
    "",
    "c:bleu",
    "v>=5",
    "k:foule",
    "loup",
    '"bois sacré"',
    "c:rouge v<=3 -k:defausse",
    "(c:vert or c:violet) k:legendaire",
    "e:GEN3 t:personnage",
    "g:bench b:corsaires r:rare",
    "-(c:rouge or c:bleu) v!=0 main",
]

COLOURS = ["rouge", "bleue", "Verte", "jaune", "violet", "noir", "blanc", "gris"]
BANNERS = ["Les Corsaires", "Les Druides", "La Cour", "Les Gueux", "Le Clergé"]
RARITIES = ["Commune", "Peu commune", "Rare", "Mythique"]
TYPES = ["Personnage", "Lieu", "Objet", "Événement"]
KEYWORDS = ["Foule", "Défausse", "Légendaire", "Vol", "Bouclier"]
WORDS = ["loup", "bois", "sacré", "roi", "écarlate", "main", "carte", "cimetière", "pioche",
         "joueur", "adversaire", "point", "fin", "partie", "couronne", "épée", "lune"]


def populate(engine, n_cards: int, seed: int = 1) -> None:
    rnd = random.Random(seed)
    per_edition = 500
    with Session(engine) as session:
        game = Game(code="bench", name="Bench")
        session.add(game)
        session.flush()
        editions = []
        for i in range((n_cards + per_edition - 1) // per_edition):
            ed = Edition(game_id=game.id, code=f"GEN{i}", name=f"Generated {i}",
                         set_size=per_edition)
            session.add(ed)
            editions.append(ed)
        session.flush()
        for i in range(n_cards):
            ed = editions[i // per_edition]
            text = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(6, 20)))
            session.add(apply_keys(Card(
                edition_id=ed.id, number=i % per_edition + 1,
                name=" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 3))).capitalize(),
                value=rnd.choice([None, *range(11)]), colour=rnd.choice(COLOURS),
                banner=rnd.choice(BANNERS), rarity=rnd.choice(RARITIES), card_type=rnd.choice(TYPES),
                keywords=rnd.sample(KEYWORDS, rnd.randint(0, 2)), effect_text=text.capitalize() + ".",
            )))
        session.commit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--url", help="database URL (default: a new SQLite file in a temp dir)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        url = args.url or f"sqlite:///{Path(tmp) / 'bench.db'}"
        engine = make_engine(url)
        init_db(engine, seed=False, reset=bool(args.url))
        t0 = time.perf_counter()
        populate(engine, args.cards)
        print(f"{engine.dialect.name}: {args.cards} cards generated in "
              f"{time.perf_counter() - t0:.1f} s")
        print(f"{'query':<40} {'matches':>8} {'ms/query':>9} {'ms (limit 50)':>14} "
              f"{'ms (count)':>11}")
        with Session(engine) as session:
            for query in QUERIES:
                full, limited, counted = [], [], []
                count = 0
                for _ in range(args.repeat):
                    t = time.perf_counter()
                    count = len(search_cards(session, query))
                    full.append((time.perf_counter() - t) * 1000)
                    session.expunge_all()
                    t = time.perf_counter()
                    search_cards(session, query, limit=50)
                    limited.append((time.perf_counter() - t) * 1000)
                    session.expunge_all()
                    t = time.perf_counter()
                    count_cards(session, query)
                    counted.append((time.perf_counter() - t) * 1000)
                print(f"{query or '(empty: every card)':<40} {count:>8} "
                      f"{statistics.median(full):>9.1f} {statistics.median(limited):>14.2f} "
                      f"{statistics.median(counted):>11.2f}")
        engine.dispose()


if __name__ == "__main__":
    main()
