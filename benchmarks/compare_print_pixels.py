"""Every card drawn by this checkout and by another one (the code before a change): the same pixels?

Each checkout draws, in its own process, the face of every card of the shipped editions and of
the long-text fixture (``long_text_cards.py``, several seeds) with ``render_card`` at the given
resolutions, and hashes each image (SHA-256 of its size, mode and pixels). The two lists of hashes
are compared card by card; the cards that differ are named. The fixture cards are made in memory,
so that both checkouts draw exactly the same cards whatever their database code.

    python benchmarks/compare_print_pixels.py --before OTHER_CHECKOUT [--long 500] [--seeds 4]
        [--dpi 300 150]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def _script(bench: Path, data: Path, count: int, seeds: int, dpis: list[int]) -> str:
    return f'''
import hashlib, json, sys, tomllib
from pathlib import Path
sys.path.insert(0, {str(bench)!r})
from long_text_cards import long_text_cards
from cardbase.domain import CardDef
from cardbase.outputs.printing.card import RenderOptions, render_card
from cardbase.outputs.printing.templates import template_for

GAMES = {{}}
for f in sorted(Path({str(data)!r}).glob("editions/*.toml")):
    doc = tomllib.loads(f.read_text(encoding="utf-8"))
    GAMES[doc["edition"]["code"]] = (doc["edition"]["game"], doc["cards"])
for seed in range(1, {seeds} + 1):
    GAMES[f"L{{seed:02d}}"] = ("nespanini", long_text_cards({count}, seed=seed))
FIELDS = {{"number", "name", "value", "colour", "banner", "rarity", "keywords", "effect",
          "effect_text", "flavour", "sample"}}
out = {{}}
for code, (game, cards) in GAMES.items():
    for i, c in enumerate(cards):
        stats = tuple((k, v) for k, v in c.items() if k not in FIELDS | {{"type", "copies", "art"}}
                      and isinstance(v, (int, str)) and not isinstance(v, bool))
        card = CardDef(id=i + 1, game=game, edition=code, set_size=len(cards),
                       card_type=c.get("type"), stats=stats,
                       keywords=tuple(c.get("keywords", ())),
                       **{{k: v for k, v in c.items() if k in FIELDS - {{"keywords"}}}})
        template = template_for(game, card.card_type)
        for dpi in {dpis!r}:
            try:
                img = render_card(card, template, RenderOptions(dpi=dpi), fingerprint="0badc0de")
            except Exception as exc:  # a card that cannot be drawn must fail the same way
                out[f"{{card.ref}}@{{dpi}}"] = f"refused: {{type(exc).__name__}} {{exc}}"
                continue
            h = hashlib.sha256(f"{{img.size}}{{img.mode}}".encode() + img.tobytes()).hexdigest()
            out[f"{{card.ref}}@{{dpi}}"] = h
json.dump(out, sys.stdout)
'''


def _hashes(root: Path, script: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(root))
    env.pop("CARDBASE_LANG", None)
    with tempfile.TemporaryDirectory() as tmp:
        env["DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'unused.db'}"
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                              text=True, cwd=tmp)
    if done.returncode != 0:
        sys.exit(f"{root}: {done.stderr}")
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, required=True, help="the other checkout")
    ap.add_argument("--root", type=Path, default=ROOT, help="this checkout")
    ap.add_argument("--long", type=int, default=500, help="long-text cards per seed")
    ap.add_argument("--seeds", type=int, default=4, help="seeds of the long-text fixture")
    ap.add_argument("--dpi", type=int, nargs="+", default=[300])
    args = ap.parse_args()
    script = _script(ROOT / "benchmarks", ROOT / "data", args.long, args.seeds, args.dpi)
    before = _hashes(args.before, script)
    after = _hashes(args.root, script)
    differ = sorted(k for k in before if after.get(k) != before[k])
    refused = sum(v.startswith("refused") for v in before.values())
    print(f"{len(before)} card faces drawn by each checkout ({args.before} and {args.root}; "
          f"{refused} refused alike, e.g. a colour without sticker symbol), "
          f"dpi {', '.join(map(str, args.dpi))}: {len(before) - len(differ)} the same pixels, "
          f"{len(differ)} different" + (f": {', '.join(differ[:20])}" if differ else ""))
    sys.exit(1 if differ or set(before) != set(after) else 0)


if __name__ == "__main__":
    main()
