"""Render the whole NesPanini starter edition (NP1) to a home PDF at 300 DPI; print cards/s.

Also prints the peak memory (RSS) of a child process printing the edition 1× and 10×, to show
that memory stays flat as pages grow (pages are written as they are made).

    python benchmarks/bench_print.py [--dpi 300] [--repeat 3]
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardbase.datafiles import load_edition_file
from cardbase.domain import CardDef


def starter_edition() -> list[CardDef]:
    ed, cards = load_edition_file(ROOT / "data" / "editions" / "NP1.toml")
    return [
        CardDef(id=i, game=ed["game"], edition=ed["code"], number=c["number"],
                set_size=ed.get("set_size") or len(cards), name=c["name"], value=c.get("value"),
                colour=c.get("colour"), banner=c.get("banner"), rarity=c.get("rarity"),
                card_type=c.get("type"), keywords=tuple(c.get("keywords", ())),
                effect=c.get("effect"), effect_text=c.get("effect_text"), flavour=c.get("flavour"),
                art=c.get("art"), stats=tuple((c.get("stats") or {}).items()))
        for i, c in enumerate(cards, start=1)
    ]


def _child(times: int, dpi: int) -> None:
    import cardbase.db  # noqa: F401 - loaded by the command line before it prints (see main)
    from cardbase.printing import print_cards

    base = starter_edition()
    # distinct cards (new numbers) so no image is reused between copies
    cards = (dataclasses.replace(c, number=c.number + k * 1000) for k in range(times) for c in base)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        r = print_cards(cards, Path(tmp) / "big.pdf", dpi=dpi)
        dt = time.perf_counter() - t0
        size = (Path(tmp) / "big.pdf").stat().st_size
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{r.cards} {r.pages} {peak_mb:.1f} {size / 1e6:.1f} {dt:.3f}")


def _run_child(times: int, dpi: int) -> subprocess.CompletedProcess[str]:
    """This script in a new process (same CPU affinity) printing the edition ``times``×."""
    return subprocess.run([sys.executable, __file__, "--child", str(times), "--dpi", str(dpi)],
                          capture_output=True, text=True, check=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dpi", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--child", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--no-memory", action="store_true", help="skip the memory runs")
    args = ap.parse_args()
    if args.child:
        _child(args.child, args.dpi)
        return

    import cardbase.db  # noqa: F401 - the CLI has it loaded; keep import time out of the figures
    from cardbase.printing import card as card_mod
    from cardbase.printing import print_cards

    cards = starter_edition()
    print(f"starter edition NP1: {len(cards)} cards, home A4 PDF at {args.dpi} DPI, one core")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "np1.pdf"
        t0 = time.perf_counter()
        r = print_cards(cards, out, dpi=args.dpi)
        cold = time.perf_counter() - t0
        print(f"  cold (empty caches)    {cold:6.2f} s  {len(cards) / cold:6.1f} cards/s  "
              f"{r.pages} pages, {out.stat().st_size / 1e6:.1f} MB")
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            print_cards(cards, out, dpi=args.dpi)
            times.append(time.perf_counter() - t0)
        best = min(times)
        print(f"  warm (best of {args.repeat})      {best:6.2f} s  {len(cards) / best:6.1f} cards/s")
        t0 = time.perf_counter()
        print_cards(cards, out, dpi=args.dpi, backs=True)
        dt = time.perf_counter() - t0
        print(f"  warm, with duplex backs {dt:5.2f} s  {len(cards) / dt:6.1f} cards/s")
        card_mod._chrome.cache_clear()
        card_mod._chrome_masks.cache_clear()
    # what a designer feels with the command line: a new Python process that imports, then prints
    t0 = time.perf_counter()
    res = _run_child(1, args.dpi)
    wall = time.perf_counter() - t0
    n, _pages, _peak, _size, inner = res.stdout.split()
    print(f"  fresh process, first print {float(inner):5.2f} s  {int(n) / float(inner):6.1f} cards/s  "
          f"(with Python start and imports: {wall:.2f} s, {int(n) / wall:.1f} cards/s)")
    print("  target: >= 30 cards/s (Squib, the Ruby reference, renders about 22 cards/s)")
    if args.no_memory:
        return
    print("memory (peak RSS of a fresh process; distinct cards, so nothing is reused):")
    for times in (1, 4, 10):
        res = _run_child(times, args.dpi)
        n, pages, peak, size, _inner = res.stdout.split()
        print(f"  {n:>4} cards  {pages:>3} pages  {size:>6} MB PDF  peak RSS {peak:>6} MB")


if __name__ == "__main__":
    main()
