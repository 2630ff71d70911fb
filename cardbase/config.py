"""Where cardbase keeps its files: the project folder, the data folder and the art folder.

The bottom of the house: it imports nothing of cardbase, so every layer may read it. ``DATA_DIR``
is ``CARDBASE_DATA_DIR`` or ``data/`` of the project; the art folder is ``CARDBASE_ART_DIR`` or
``DATA_DIR/art`` (read when asked, so a test may change the variable).
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_DIR = PACKAGE_DIR.parent
DATA_DIR = Path(os.environ.get("CARDBASE_DATA_DIR", PROJECT_DIR / "data"))


def templates_dir() -> Path:
    """The card templates' folder: ``CARDBASE_TEMPLATES``, else ``card_templates/`` of the project."""
    env = os.environ.get("CARDBASE_TEMPLATES")
    return Path(env) if env else PROJECT_DIR / "card_templates"


def art_dir() -> Path:
    """The art folder: ``CARDBASE_ART_DIR``, else ``data/art``. Card ``art`` paths are relative to it."""
    env = os.environ.get("CARDBASE_ART_DIR")
    return Path(env) if env else DATA_DIR / "art"


# The seeding service that storage runs on a database never seeded from ``data/`` (module:function).
# Storage does not import it: seeding belongs to the catalog, above storage.
SEEDER = "cardbase.catalog.seed:seed_database"
