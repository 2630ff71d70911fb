"""One way to write a number for a language: ``i18n.fmt_num`` / ``fmt_pct`` replace the decimal-comma
helpers the command-line modules and the rulings view each had. Their output is the same as those
helpers' (written out below as they were) for every value, digit count, sign and language."""

from __future__ import annotations

import pytest

from cardbase import i18n
from cardbase.i18n import fmt_num, fmt_pct

VALUES = [0, 0.5, -0.25, 1 / 3, 2 / 3, 0.00049, 0.0005, 0.9995, -0.0004, 12.345, 1234.5678,
          -3.14159, 0.125, 0.135, 1e-9, 7]


def _old_num(x: float, digits: int, lang: str) -> str:  # cli/games.py, cli/rulesdata.py, cli/solve.py
    text = f"{x:.{digits}f}"
    return text.replace(".", ",") if lang == "fr" else text


def _old_pct_signed(x: float, digits: int, signed: bool, lang: str) -> str:  # cli/rulings.py, ui/rulings_view.py
    text = f"{100 * x:+.{digits}f}" if signed else f"{100 * x:.{digits}f}"
    return (text.replace(".", ",") if lang == "fr" else text) + " %"


def _old_value(x: float, lang: str) -> str:  # cli/rulings.py, a ruling's float option
    text = f"{x:g}"
    return text.replace(".", ",") if lang == "fr" else text


def _old_solve_pct(x: float, lang: str) -> str:  # cli/solve.py
    text = f"{100 * x:.1f} %"
    return text.replace(".", ",") if lang == "fr" else text


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_shared_helpers_write_what_the_old_ones_wrote(lang: str) -> None:
    with i18n.use_language(lang):
        for x in VALUES:
            for digits in (0, 1, 2, 3):
                assert fmt_num(x, digits) == _old_num(x, digits, lang)
                for signed in (False, True):
                    assert fmt_pct(x, digits, signed=signed) == _old_pct_signed(x, digits, signed, lang)
            assert fmt_pct(x, unit=False) == _old_num(100 * x, 1, lang)  # cli/games.py's _pct
            assert fmt_pct(x) == _old_solve_pct(x, lang)
            assert fmt_num(x, None) == _old_value(x, lang)
    # an explicit language wins over the current one (the app writes in its own language)
    other = "en" if lang == "fr" else "fr"
    with i18n.use_language(other):
        assert fmt_num(2.5, 1, lang=lang) == _old_num(2.5, 1, lang)
        assert fmt_pct(0.25, signed=True, lang=lang) == _old_pct_signed(0.25, 1, True, lang)


def test_the_rulings_view_writes_rates_in_the_app_language(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardbase.ui import rulings_view

    for lang in ("fr", "en"):
        monkeypatch.setattr(rulings_view, "lang", lambda lang=lang: lang)
        with i18n.use_language("en" if lang == "fr" else "fr"):  # not the services' language
            for x in VALUES:
                assert rulings_view.pct(x, 2, signed=True) == _old_pct_signed(x, 2, True, lang)
        assert rulings_view.pct(None) == "—"


def test_no_command_line_module_keeps_its_own_decimal_comma() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "cardbase"
    for name in ("cli/games.py", "cli/rulesdata.py", "cli/rulings.py", "cli/solve.py", "cli/sim.py",
                 "ui/rulings_view.py", "cli/measures_report.py"):
        text = (root / name).read_text(encoding="utf-8")
        assert 'replace(".", ",")' not in text, name
        assert not any(f"def {helper}(" in text for helper in ("_num", "_pct", "_dec")), name
