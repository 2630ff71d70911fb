"""Millimetres until the last moment: conversions to pixels and PDF points."""

from __future__ import annotations

MM_PER_INCH = 25.4
PT_PER_INCH = 72.0


def mm_to_px(mm: float, dpi: int) -> int:
    """Whole pixels for a length in millimetres at ``dpi`` (rounded to nearest)."""
    return round(mm * dpi / MM_PER_INCH)


def mm_to_pxf(mm: float, dpi: float) -> float:
    return mm * dpi / MM_PER_INCH


def mm_to_pt(mm: float) -> float:
    return mm * PT_PER_INCH / MM_PER_INCH


def pt_to_px(pt: float, dpi: float) -> float:
    """Font sizes are given in points; Pillow wants pixels."""
    return pt * dpi / PT_PER_INCH
