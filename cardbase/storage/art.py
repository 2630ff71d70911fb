"""Card art: the card's own image, checked before it is decoded, or a generated placeholder."""

from __future__ import annotations

import io
import warnings
from functools import lru_cache
from pathlib import Path, PurePosixPath

from PIL import Image, ImageDraw, ImageOps, UnidentifiedImageError

from cardbase import config
from cardbase.errors import ArtError
from cardbase.i18n import tr

MAX_ART_PIXELS = 40_000_000  # 40 megapixels: far above any card art, far below a bomb
MAX_ART_BYTES = 60 * 1024 * 1024


def default_art_dir() -> Path:
    """The art folder: ``CARDBASE_ART_DIR``, else ``data/art``. Card ``art`` paths are relative to it."""
    return config.art_dir()


def safe_art_path(art_dir: Path, name: str) -> Path:
    """``art_dir / name`` when ``name`` is a plain relative path that stays inside ``art_dir``."""
    if not isinstance(name, str) or not name.strip():
        raise ArtError(tr("backup.art_no_name"))
    if "\x00" in name or "\\" in name:
        raise ArtError(tr("backup.art_bad_char", name=repr(name)))
    pure = PurePosixPath(name)
    if pure.is_absolute() or (len(name) > 1 and name[1] == ":"):
        raise ArtError(tr("backup.art_absolute", name=repr(name)))
    if any(part in ("..", "") for part in name.split("/")) or any(p.startswith(".") for p in pure.parts):
        raise ArtError(tr("backup.art_leaves", name=repr(name)))
    root = Path(art_dir).resolve()
    target = (root / pure).resolve()
    if target != root and root not in target.parents:
        raise ArtError(tr("backup.art_outside", name=repr(name), root=root))
    return target


def resolve_art(art: str, art_dir: Path | None, *, where: str = "") -> Path:
    """The file of a card's art reference: a name inside the art folder (``art_dir``, else the
    project's art folder). An absolute path, ``..`` or a link leading out of the folder is
    refused with an :class:`ArtError` naming the card (``where``): printing never reads it."""
    folder = Path(art_dir) if art_dir is not None else default_art_dir()
    try:
        return safe_art_path(folder, art)
    except ArtError as exc:
        raise ArtError(tr("printing.art.refused", where=where or tr("printing.art.card"),
                          art=str(art), reason=str(exc))) from None


def decode_image(source: Path | io.BytesIO, *, what: str,
                 max_pixels: int | None = None) -> Image.Image:
    """Open and fully decode an image, refusing decompression bombs and broken files.

    The one safety check for every image cardbase reads (printing art, uploads): ``what`` names
    the image in the :class:`ArtError` that says why it is refused. ``max_pixels`` defaults to
    ``MAX_ART_PIXELS``, read when called.
    """
    max_pixels = MAX_ART_PIXELS if max_pixels is None else max_pixels
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            im = Image.open(source)
            w, h = im.size
            if w < 1 or h < 1 or w * h > max_pixels:
                raise ArtError(f"{what} is {w}×{h} pixels, over the {max_pixels // 1_000_000} "
                               "megapixel limit (refused as a possible decompression bomb) — "
                               "scale it down")
            im.load()
    except ArtError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ArtError(f"{what} is too large to decode safely (decompression bomb refused) — "
                       "scale it down") from None
    except UnidentifiedImageError:
        raise ArtError(f"{what} is not an image Pillow can read — give a PNG, JPEG or WebP "
                       "file") from None
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise ArtError(f"{what} cannot be decoded ({exc}) — it may be truncated; export it "
                       "again") from None
    return im


def _open_checked(path: Path, where: str) -> Image.Image:
    from cardbase.bounded_io import read_bounded

    # at most the limit is read, whatever size the file claims; a named pipe or a device is
    # refused without waiting on it
    try:
        raw = read_bounded(path, MAX_ART_BYTES, ArtError, "files.art")
    except ArtError as exc:
        raise ArtError(tr("files.art.where", where=where, message=str(exc))) from None
    return decode_image(io.BytesIO(raw), what=f"{where}: art file {path}")


_ART = "\x00card-art\x00"  # replaced by the card's name in messages


@lru_cache(maxsize=64)
def _art_fitted(path: str, mtime: float, size: tuple[int, int]) -> Image.Image:
    im = _open_checked(Path(path), _ART)
    im = ImageOps.exif_transpose(im)
    if im.mode not in ("RGB", "RGBA"):
        im = im.convert("RGBA" if "A" in im.getbands() or im.mode == "P" else "RGB")
    return ImageOps.fit(im, size, Image.Resampling.LANCZOS)


def load_art(path: Path, size: tuple[int, int], *, where: str = "") -> Image.Image:
    """The art scaled and cropped to ``size`` (cover); a clear ``ArtError`` when unusable."""
    try:
        mtime = path.stat().st_mtime
    except OSError:
        raise ArtError(tr("printing.art.not_found", where=where, path=str(path))) from None
    try:
        return _art_fitted(str(path), mtime, size)
    except ArtError as exc:
        raise ArtError(str(exc).replace(_ART, where or _ART, 1)) from None


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


@lru_cache(maxsize=128)
def placeholder_art(rgb: tuple[int, int, int], size: tuple[int, int]) -> Image.Image:
    """A quiet pattern in the card's colour: a vertical wash and a diagonal weave."""
    w, h = size
    light = _mix(rgb, (255, 255, 255), 0.55)
    dark = _mix(rgb, (0, 0, 0), 0.15)
    grad = Image.linear_gradient("L").resize((1, 256))
    # the wash is one column stretched to the height, then repeated across: the same pixels as
    # resizing the 1-pixel-wide gradient to (w, h) at once (a 1-pixel-wide source gives every
    # column the same values), about a hundred times faster
    col = (ImageOps.colorize(grad.convert("L"), light, dark)
           .resize((1, h), Image.Resampling.BILINEAR).resize((w, h), Image.Resampling.NEAREST))
    d = ImageDraw.Draw(col)
    step = max(6, w // 14)
    line = _mix(rgb, (255, 255, 255), 0.35)
    lw = max(1, step // 9)
    for x in range(-h, w + h, step):
        d.line((x, 0, x + h, h), fill=line, width=lw)
        d.line((x + h, 0, x, h), fill=line, width=lw)
    return col.convert("RGB")
