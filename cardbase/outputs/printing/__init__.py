"""Printing: templates → card images → sheets → PDF.

Public entry points: ``print_cards`` (home sheets, print-shop files, proof sheets),
``render_card`` / ``render_back`` (Pillow images), ``render_card_png``, ``load_template`` /
``template_for``, ``card_fingerprint`` and ``read_manifest``. Print-shop presets (exact canvases) are in
``cardbase.outputs.printing.presets``, colour-blind proofs in ``cardbase.outputs.printing.colourblind``.
"""

from __future__ import annotations

from cardbase.outputs.printing.card import RenderOptions, render_back, render_card
from cardbase.outputs.printing.fingerprint import card_fingerprint
from cardbase.outputs.printing.sheets import (
    MODES,
    PAPERS_MM,
    PrintError,
    PrintResult,
    SheetLayout,
    print_cards,
    read_manifest,
    render_card_png,
    sheet_layout,
)
from cardbase.outputs.printing.templates import Template, load_template, template_for

__all__ = [
    "MODES", "PAPERS_MM", "PrintError", "PrintResult", "RenderOptions", "SheetLayout", "Template",
    "card_fingerprint", "load_template", "print_cards", "read_manifest", "render_back",
    "render_card", "render_card_png", "sheet_layout", "template_for",
]
