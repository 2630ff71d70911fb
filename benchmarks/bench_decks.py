"""Deck validation time per deck: parse + resolve against the database + legality check.

Builds a SQLite file with a NesPanini edition of 64 cards (plus, with --filler N, N cards of other
games that the resolver must not be slowed down by), generates random 20-card lists and prints
µs/deck for each stage, plus deck-code encode/decode and statistics.

    python benchmarks/bench_decks.py [--decks 500] [--filler 10000]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from sqlmodel import Session

from cardbase.storage import db
from cardbase.catalog.cards import apply_keys
from cardbase.decks import (
    check_deck,
    deck_stats,
    decode_deck_code,
    encode_deck_code,
    parse_deck_list,
    resolve_deck,
)
from cardbase.storage.models import Card, Edition, Game

SYLLABLES = ["ba", "ro", "ké", "lu", "mi", "da", "zo", "vé", "ni", "sa", "tu", "gé"]


def _name(rng: random.Random, i: int) -> str:
    return " ".join("".join(rng.choice(SYLLABLES) for _ in range(3)).capitalize()
                    for _ in range(2)) + f" {i}"


def build(path: Path, filler: int, rng: random.Random) -> list[Card]:
    engine = db.make_engine(f"sqlite:///{path}")
    db.init_db(engine, seed=False)
    with Session(engine, expire_on_commit=False) as s:
        np = Game(code="nespanini", name="NesPanini", deck_size=20, copy_limit=2,
                  keyword_limits={"foule": 4})
        other = Game(code="filler", name="Filler", deck_size=40, copy_limit=3)
        s.add_all([np, other])
        s.flush()
        np1 = Edition(game_id=np.id, code="NP1", name="Base", set_size=64)
        s.add(np1)
        s.flush()
        cards = []
        for i in range(1, 65):
            kws = ["Foule"] if i % 8 == 0 else (["Défausse"] if i % 4 == 0 else [])
            cards.append(apply_keys(Card(edition_id=np1.id, number=i, name=_name(rng, i),
                                         value=rng.randint(0, 7), colour=rng.choice(
                                             ["rouge", "bleu", "vert", "noir", "blanc"]),
                                         rarity=rng.choice(["commune", "rare"]),
                                         keywords=kws)))
        s.add_all(cards)
        for e in range(filler // 500):
            ed = Edition(game_id=other.id, code=f"F{e:02d}", name=f"Filler {e}", set_size=500)
            s.add(ed)
            s.flush()
            s.add_all(apply_keys(Card(edition_id=ed.id, number=n, name=f"Filler {e}-{n}",
                                      value=n % 9)) for n in range(1, 501))
        s.commit()
    engine.dispose()
    return cards


def random_list(rng: random.Random, cards: list[Card]) -> str:
    lines = ["# game: nespanini"]
    total = 0
    while total < 20:
        c = rng.choice(cards)
        n = rng.randint(1, 2)
        total += n
        lines.append(f"{n} {c.name if rng.random() < 0.8 else f'NP1-{c.number:03d}'}")
    return "\n".join(lines) + "\n"


def timed(label: str, n: int, fn) -> None:
    start = time.perf_counter()
    for i in range(n):
        fn(i)
    elapsed = time.perf_counter() - start
    print(f"  {label:<34} {elapsed / n * 1e6:10.1f} µs/deck")


def run(path: Path, texts: list[str], filler: int) -> None:
    n = len(texts)
    engine = db.make_engine(f"sqlite:///{path}")
    print(f"{n} random 20-card decks, database of {64 + filler} cards")
    with Session(engine) as s:
        lists = [parse_deck_list(t) for t in texts]
        timed("parse", n, lambda i: parse_deck_list(texts[i]))
        timed("parse + resolve", n, lambda i: resolve_deck(s, lists[i]))
        timed("validate (parse+resolve+check)", n,
              lambda i: check_deck(s, parse_deck_list(texts[i])))
        legal = [d for d in lists if check_deck(s, d).legal]
        print(f"  ({len(legal)} of {len(lists)} random decks legal)")
        timed("statistics with draw odds", n, lambda i: deck_stats(s, lists[i]))
        codes: list[str] = []
        timed("deck code encode", n, lambda i: codes.append(encode_deck_code(s, lists[i])))
        timed("deck code decode", n, lambda i: decode_deck_code(s, codes[i]))
        print(f"  mean deck code length: {sum(map(len, codes)) / len(codes):.0f} chars")
    engine.dispose()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--decks", type=int, default=300)
    ap.add_argument("--filler", type=int, default=10_000, help="cards of another game")
    args = ap.parse_args()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        for filler in sorted({0, args.filler}):
            path = Path(tmp) / f"bench{filler}.db"
            cards = build(path, filler, rng)
            texts = [random_list(rng, cards) for _ in range(args.decks)]
            run(path, texts, filler)


if __name__ == "__main__":
    main()
