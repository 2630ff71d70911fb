"""Python's shuffle at speed, for the engines that deal from a seeded ``random.Random``.

:func:`shuffle` makes the same permutation as :meth:`random.Random.shuffle` from the same
generator state and leaves the generator in the same state: Python's own algorithm (from the
end, each place swapped with a position drawn below it by rejection on ``getrandbits``), written
per list length as straight-line code (no loop over the places; each place's bound and bit count
a constant). :func:`deal` shuffles and splits a deck into a hand and the rest in one go. The tests
compare both with :meth:`random.Random.shuffle`.
"""

from __future__ import annotations

import random

LONGEST = 256  # longer lists go to random.Random.shuffle

_SHUFFLES: dict = {}
_DEALS: dict = {}


def shuffle(rng: random.Random, x: list) -> None:
    """``rng.shuffle(x)``: the same permutation, the same draws of the generator."""
    run = _SHUFFLES.get(len(x))
    if run is None:
        if len(x) > LONGEST:
            rng.shuffle(x)
            return
        run = _SHUFFLES[len(x)] = _shuffler(len(x))
    run(rng.getrandbits, x)


def _shuffler(n: int):
    """The shuffle of a list of ``n`` items as straight-line code: per place from the end, a
    position drawn below it by rejection, then the swap."""
    body = ["def shuffle_n(getrandbits, x):"]
    for i in range(n - 1, 0, -1):
        m, k = i + 1, (i + 1).bit_length()
        body += [f"    j = getrandbits({k})", f"    while j >= {m}:", f"        j = getrandbits({k})",
                 f"    x[{i}], x[j] = x[j], x[{i}]"]
    if n < 2:
        body.append("    pass")
    scope: dict = {}
    exec(compile("\n".join(body), f"<shuffle of {n}>", "exec"), scope)  # our own text, no input
    return scope["shuffle_n"]


def deal(rng: random.Random, cards, n: int) -> tuple[list, list]:
    """``x = list(cards); rng.shuffle(x)``, then (the rest, the hand): ``x[:-n]`` and the last ``n``
    items from the end (``x[:-n - 1:-1]``, the top card first) — the same lists and draws."""
    size = len(cards)
    run = _DEALS.get((size, n))
    if run is None:
        if not 0 < n < size <= LONGEST:
            x = list(cards)
            shuffle(rng, x)
            hand = x[:-n - 1:-1] if n > 0 else []
            del x[len(x) - n if n < len(x) else 0:]
            return x, hand
        run = _DEALS[(size, n)] = _dealer(size, n)
    return run(rng.getrandbits, list(cards))


def _dealer(size: int, n: int):
    """:func:`deal` of ``size`` cards, ``n`` to the hand, as straight-line code: per place from the
    end, the item drawn for it (kept in a local: it does not move again) and the place's item moved
    to the drawn position, then the two lists built from the locals."""
    body = ["def deal_n(getrandbits, x):"]
    for i in range(size - 1, 0, -1):
        m, k = i + 1, (i + 1).bit_length()
        body += [f"    j = getrandbits({k})", f"    while j >= {m}:", f"        j = getrandbits({k})",
                 f"    v{i} = x[j]", f"    x[j] = x[{i}]"]
    rest = ", ".join(["x[0]"] + [f"v{i}" for i in range(1, size - n)])
    hand = ", ".join(f"v{i}" for i in range(size - 1, size - n - 1, -1))
    body.append(f"    return [{rest}], [{hand}]")
    scope: dict = {}
    exec(compile("\n".join(body), f"<deal of {size}, {n}>", "exec"), scope)  # our own text
    return scope["deal_n"]
