"""End-to-end (Chromium): the measures of a good game under NesPanini's goldfish batch and its round
robin, as a designer sees them. Set ``CARDBASE_SCREENSHOTS=docs/images`` to save
``app-measures-goldfish.png`` and ``app-measures-roundrobin.png``."""

from __future__ import annotations

import pytest
from browser_support import (  # the fixtures themselves are registered in conftest.py
    goto,
    pick_option,
    shot,
    wait_idle,
)

pytestmark = pytest.mark.browser


def _games(page, key: str, n: int) -> None:  # noqa: F811
    box = page.locator(f".st-key-{key} input")
    box.fill(str(n))
    box.press("Enter")
    wait_idle(page)


def _measures_table(page, prefix: str, text: str) -> None:  # noqa: F811
    """Ask for the measures and wait for their table."""
    page.locator(f".st-key-{prefix}_measures button").click()
    page.get_by_text(text).first.wait_for(timeout=120_000)
    wait_idle(page)


def _into_view(page) -> None:  # noqa: F811
    """The measures' title at the top of the window, their table under it."""
    wait_idle(page)
    title = page.get_by_text("Mesures d'un bon jeu", exact=True).last
    title.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)


def test_the_goldfish_and_round_robin_batches_show_the_measures(page, st_server) -> None:  # noqa: F811
    page.set_viewport_size({"width": 1400, "height": 1100})
    goto(page, st_server, "playtest")
    page.get_by_text("Goldfish en série").click()
    wait_idle(page)
    _games(page, "ptb_games", 100)
    page.locator(".st-key-ptb_go button").click()
    page.locator(".st-key-ptb_measures button").wait_for(timeout=120_000)
    wait_idle(page)
    tables = page.locator('[data-testid="stTable"]').count()
    _measures_table(page, "ptb", "Calculer les mesures")
    page.wait_for_function("(n) => document.querySelectorAll('[data-testid=\"stTable\"]').length > n",
                           arg=tables, timeout=120_000)
    table = page.locator('[data-testid="stTable"]').last
    assert "Score final acquis après" in table.inner_text() and "sans objet" in table.inner_text()
    assert "Personne d'autre ne peut mener." in table.inner_text()
    _into_view(page)
    shot(page, "measures-goldfish")

    page.get_by_text("Duels et tournoi").click()
    wait_idle(page)
    pick_option(page, "ptd_decks")  # a third deck: a round robin
    page.keyboard.press("Escape")
    wait_idle(page)
    _games(page, "ptd_games", 6)
    page.locator(".st-key-ptd_go button").click()
    page.locator(".st-key-ptrr_measures button").wait_for(timeout=120_000)
    wait_idle(page)
    _measures_table(page, "ptrr", "paires de decks du tournoi")
    table = page.locator('[data-testid="stTable"]').last
    for name in ("Victoires du premier joueur", "Victoires de la place 2", "Changements de meneur",
                 "Remontées", "Vainqueur connu après", "Écart de niveau (greedy contre random)"):
        assert name in table.inner_text(), name
    _into_view(page)
    shot(page, "measures-roundrobin")
