"""Python's shuffle at speed, for the engines that deal from a seeded ``random.Random``.

:func:`shuffle` makes the same permutation as :meth:`random.Random.shuffle` from the same
generator state and leaves the generator in the same state: Python's own algorithm (from the
end, each place swapped with a position drawn below it by rejection on ``getrandbits``), written
per list length as straight-line code (no loop over the places; each place's bound and bit count
a constant). The tests compare it with :meth:`random.Random.shuffle`.
"""

from __future__ import annotations

import random

LONGEST = 256  # longer lists go to random.Random.shuffle

_SHUFFLES: dict = {}


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
