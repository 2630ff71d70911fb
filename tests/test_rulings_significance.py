"""sim rulings' « significant effect » allows for the number of sides it compares (Bonferroni): with
four seats, one seat's 95 % interval excluding 0 is met by chance in about one batch in six, and
Marché's blind test read such a seat as a significant ruling."""

from __future__ import annotations

import random
from statistics import NormalDist

from cardbase.playtest.weights import Z95, beyond_chance, paired_delta, questions


def test_two_mirrored_sides_ask_one_question_four_seats_ask_four_a_duel_two() -> None:
    assert questions(2) == 1 and questions(3) == 3 and questions(4) == 4
    assert questions(2, mirrored=False) == 2


def test_a_difference_just_past_its_95_interval_is_significant_alone_not_among_four() -> None:
    half = 0.02
    delta = half * 1.1  # the 95 % interval [0.002, 0.042] excludes 0
    ci = [delta - half, delta + half]
    assert beyond_chance(delta, ci, 1)
    assert not beyond_chance(delta, ci, 4)  # needs z = 2.50 at 5 % / 4, has 2.16
    z4 = NormalDist().inv_cdf(1 - 0.025 / 4)  # two-sided 5 % / 4: 2.50
    wide = half * z4 / Z95
    assert beyond_chance(wide * 1.01, [wide * 1.01 - half, wide * 1.01 + half], 4)
    assert not beyond_chance(wide * 0.99, [wide * 0.99 - half, wide * 0.99 + half], 4)


def test_under_no_effect_four_seats_flag_about_five_batches_in_a_hundred() -> None:
    """Simulated batches with no effect at all (the variant's wins drawn like the baseline's): the
    share of batches called significant stays near 5 % with the allowance, about 18 % without."""
    rng = random.Random(7)
    plain = adjusted = 0
    batches = 400
    for _ in range(batches):
        flags_plain = flags_adj = False
        for _seat in range(4):
            a = [1 if rng.random() < 0.25 else 0 for _ in range(150)]
            b = [x if rng.random() < 0.7 else (1 if rng.random() < 0.25 else 0) for x in a]
            d, ci = paired_delta(a, b)
            flags_plain |= ci[0] > 0 or ci[1] < 0
            flags_adj |= beyond_chance(d, ci, questions(4))
        plain += flags_plain
        adjusted += flags_adj
    assert adjusted / batches < 0.09 < 0.12 < plain / batches, (adjusted, plain)
