"""The engines' shuffle (cardbase.games.shuffles): Python's, draw for draw."""

from __future__ import annotations

import random

from cardbase.games.shuffles import LONGEST, deal, shuffle


def test_shuffle_is_pythons_permutation_and_generator_state() -> None:
    for seed in range(40):
        a, b = random.Random(seed), random.Random(seed)
        for n in (*range(0, 45), 100, LONGEST, LONGEST + 1, 300):
            x, y = list(range(n)), list(range(n))
            a.shuffle(x)
            shuffle(b, y)
            assert x == y
            assert a.getstate() == b.getstate()


def test_shuffle_moves_the_items_not_their_values() -> None:
    items = ["a", "b", "c", "d", "e"] * 4
    out = items[:]
    shuffle(random.Random(7), out)
    assert sorted(out) == sorted(items)
    expected = items[:]
    random.Random(7).shuffle(expected)
    assert out == expected


def test_deal_is_pythons_shuffle_split_into_rest_and_hand() -> None:
    for seed in range(40):
        for size in (*range(0, 30), 60, LONGEST, LONGEST + 1):
            for n in (0, 1, 2, 5, 7, size - 1, size, size + 1):
                if n < 0:
                    continue
                a, b = random.Random(seed), random.Random(seed)
                x = [f"c{i}" for i in range(size)]
                a.shuffle(x)
                rest, hand = deal(b, [f"c{i}" for i in range(size)], n)
                assert hand == x[:-n - 1:-1] if n else hand == []
                assert rest == x[:max(size - n, 0)]
                assert a.getstate() == b.getstate()
