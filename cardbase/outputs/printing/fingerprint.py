"""Short content fingerprints: what is printed on a card, hashed, so a reprint can skip the rest."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from cardbase.domain import CardDef
from cardbase.i18n import DEFAULT, current_language

FINGERPRINT_LENGTH = 8


def _file_digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:
        return "missing"


def card_fingerprint(card: CardDef, *, art_dir: Path | None = None) -> str:
    """Eight hex digits over the printed content (not the id, version or copies).

    The art file's bytes count too: replacing a picture changes the fingerprint; so does the
    language of the printed words when the card has some (figures, the sample mark).
    """
    art = None
    if card.art:
        from cardbase.errors import ArtError
        from cardbase.storage.art import resolve_art

        try:  # never read a file outside the art folder, not even to hash it
            digest = _file_digest(resolve_art(card.art, art_dir))
        except ArtError:
            digest = "refused"
        art = [card.art, digest]
    content = {
        "game": card.game, "edition": card.edition, "number": card.number,
        "set_size": card.set_size, "name": card.name, "value": card.value, "colour": card.colour,
        "banner": card.banner, "rarity": card.rarity, "type": card.card_type,
        "keywords": list(card.keywords), "text": card.effect_text or card.effect,
        "flavour": card.flavour, "art": art, "stats": [list(s) for s in card.stats],
    }
    lang = current_language()
    if lang != DEFAULT and (card.stats or card.sample):
        content["lang"] = lang  # printed words (figures' names) follow the language
    blob = json.dumps(content, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:FINGERPRINT_LENGTH]
