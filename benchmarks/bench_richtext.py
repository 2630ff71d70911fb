"""What rich card text (docs/rich-text.md) costs when printing: NesPanini NP1 card faces at 300 DPI.

Three runs over the same 64 cards, each drawn by ``render_card`` as a print does:

* **plain** — the texts as shipped, the template without ``bold_keywords`` (the plain path only);
* **keywords** — the shipped NesPanini template: Défausse, Foule and Légendaire made bold;
* **markup** — keywords, plus markup on every text: its first word in bold, a colour symbol and
  the value stickers inline (``**Mot** … {rouge} {sticker:7}``).

It prints the best CPU time of ``--runs`` runs of each (process time: steadier on a busy machine)
and the cost of each rich run against the plain one, twice: for the whole print (``print_cards``,
home A4 sheets to a PDF — what a user waits for; the target is ≤ 20 %) and for drawing the faces
alone (``render_card``, the part rich text changes, so its cost shows larger there).

    python benchmarks/bench_richtext.py [--runs 3] [--dpi 300]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardbase.storage.datafiles import figures, load_edition_file
from cardbase.domain import CardDef
from cardbase.outputs.printing import RenderOptions, load_template, print_cards, render_card


def np1_cards() -> list[CardDef]:
    ed, cards = load_edition_file(ROOT / "data" / "editions" / "NP1.toml")
    return [CardDef(id=i, game=ed["game"], edition=ed["code"], number=c["number"],
                    set_size=ed.get("set_size") or len(cards), name=c["name"],
                    value=c.get("value"), colour=c.get("colour"), banner=c.get("banner"),
                    rarity=c.get("rarity"), card_type=c.get("type"),
                    keywords=tuple(c.get("keywords", ())), effect=c.get("effect"),
                    effect_text=c.get("effect_text"), flavour=c.get("flavour"),
                    stats=tuple(figures(c).items()))
            for i, c in enumerate(cards, start=1)]


def with_markup(card: CardDef) -> CardDef:
    text = card.effect_text or "Aucun effet."
    first, _, rest = text.partition(" ")
    extra = f" {{{card.colour}}}" if card.colour else ""
    extra += f" {{sticker:{card.value}}}" if card.value is not None and card.value >= 0 else ""
    return dataclasses.replace(card, effect_text=f"**{first}** {rest}{extra}".strip())


def timed(cards: list[CardDef], template, dpi: int, runs: int) -> float:
    opts = RenderOptions(dpi=dpi)
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        for card in cards:
            render_card(card, template, opts, fingerprint="0" * 8)
        best = min(best, time.process_time() - start)
    return best


def timed_print(cards: list[CardDef], templates_dir: Path | None, dpi: int, runs: int,
                out: Path) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        # one process: process_time does not count the CPU of worker processes, which would
        # leave only the parent's share of the print (and rich text's cost hidden in the workers)
        print_cards(cards, out, dpi=dpi, templates_dir=templates_dir, workers=1)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dpi", type=int, default=300)
    args = parser.parse_args()
    cards = np1_cards()
    shipped = load_template("nespanini")
    bare = dataclasses.replace(shipped, bold_keywords=())
    marked = [with_markup(c) for c in cards]
    # fonts, frames and placeholder art (cached per colour and banner) made once for every run
    # alike: warmed on every card, else the first run measured pays for the ones after it
    timed(cards, bare, args.dpi, 1)
    n = len(cards)
    with tempfile.TemporaryDirectory() as tmp:
        bare_dir = Path(tmp) / "bare"
        bare_dir.mkdir()
        source = (ROOT / "card_templates" / "nespanini.toml").read_text(encoding="utf-8")
        (bare_dir / "nespanini.toml").write_text(
            "\n".join(line for line in source.splitlines() if not line.startswith("bold_keywords")),
            encoding="utf-8")
        out = Path(tmp) / "np1.pdf"
        timed_print(cards, bare_dir, args.dpi, 1, out)
        figures = {
            "print": (timed_print(cards, bare_dir, args.dpi, args.runs, out),
                      timed_print(cards, None, args.dpi, args.runs, out),
                      timed_print(marked, None, args.dpi, args.runs, out)),
            "faces": (timed(cards, bare, args.dpi, args.runs), timed(cards, shipped, args.dpi, args.runs),
                      timed(marked, shipped, args.dpi, args.runs)),
        }
    print(f"{n} NP1 cards at {args.dpi} DPI, best CPU time of {args.runs} runs")
    for what, (plain, keywords, markup) in figures.items():
        title = "whole print (home A4 PDF)" if what == "print" else "faces only (render_card)"
        print(f" {title}")
        for label, secs in (("plain", plain), ("keywords", keywords), ("markup", markup)):
            cost = (secs / plain - 1) * 100
            print(f"  {label:<9} {secs:6.2f} s  {n / secs:6.1f} cards/s  "
                  f"{'' if label == 'plain' else f'{cost:+.1f} % vs plain'}")


if __name__ == "__main__":
    main()
