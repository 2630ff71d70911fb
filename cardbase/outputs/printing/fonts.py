"""The shipped fonts (DejaVu, with French accents) and a cache of loaded faces by (path, size).

Pillow's built-in default font has no é/è/à/ç, so cards are always drawn with a real TrueType
face. A template names a font by style ("regular", "bold", "italic", "condensed",
"condensed-bold", "condensed-italic") or by a path to a .ttf/.otf file.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from cardbase.errors import TemplateError
from cardbase.i18n import tr

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"

STYLES: dict[str, str] = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "italic": "DejaVuSans-Oblique.ttf",
    "condensed": "DejaVuSansCondensed.ttf",
    "condensed-bold": "DejaVuSansCondensed-Bold.ttf",
    "condensed-italic": "DejaVuSansCondensed-Oblique.ttf",
}


@lru_cache(maxsize=256)
def font_path(name: str, *, base_dir: Path | None = None) -> Path:
    """The file behind a font style or path; a clear error when it does not exist."""
    if name in STYLES:
        path = FONT_DIR / STYLES[name]
    else:
        path = Path(name)
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
    try:
        found = path.is_file()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte…
        found = False
    if not found:
        raise TemplateError(tr("printing.tpl.font_missing", name=name, path=str(path),
                               styles=", ".join(STYLES)))
    return path


@lru_cache(maxsize=1024)
def _load(path: str, size_px: int) -> ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype(path, size_px)
    except OSError as exc:
        raise TemplateError(tr("printing.tpl.font_unreadable", path=path, reason=str(exc))) from None


def get_font(name: str, size_px: float, *, base_dir: Path | None = None) -> ImageFont.FreeTypeFont:
    """A loaded face at a whole pixel size (at least 1), cached by (path, size)."""
    return _load(str(font_path(name, base_dir=base_dir)), max(1, round(size_px)))


def cache_info() -> object:
    return _load.cache_info()


_WIDTHS: dict[tuple[int, str], float] = {}


def text_width(font: ImageFont.FreeTypeFont, text: str) -> float:
    """``font.getlength`` memoised (fonts are cached, so their ids are stable)."""
    key = (id(font), text)
    w = _WIDTHS.get(key)
    if w is None:
        if len(_WIDTHS) > 200_000:
            _WIDTHS.clear()
        w = _WIDTHS[key] = font.getlength(text)
    return w
