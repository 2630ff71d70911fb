"""cardbase: cards, decks, printing and playtests for homemade card games."""

from __future__ import annotations

__version__ = "0.1.0"
