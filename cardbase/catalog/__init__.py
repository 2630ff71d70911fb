"""The card catalog: games, editions and cards as services over storage — validation and
versioned edits (``cards``), cards read on a session or on the read-only path of the SQLite default
(``reads``), the query language (``search``), sticker codes (``stickers``), rich
card text (``richtext``), games declared as data (``gamesdata``), CSV/JSON import and export
(``transfer``, ``export``), whole-database backups (``backup``) and seeding from ``data/`` (``seed``). It may
import storage, the games (their registry and effect language) and decks' legality rules, never
playtest, outputs or a face (Streamlit, Typer).
"""
