"""A small streaming PDF writer: pages are written as they are made, never held together.

Each card is an image XObject (JPEG, 4:4:4) placed at its exact physical size with a ``cm``
transform; crop marks are vector lines. A card printed several times is stored once and placed
again. Only the page list (object numbers) stays in memory until the end.
"""

from __future__ import annotations

import io
from pathlib import Path
from types import TracebackType
from typing import Self

from PIL import Image

JPEG_QUALITY = 94


def encode_jpeg(image: Image.Image) -> tuple[bytes, int, int]:
    """The JPEG bytes of ``image`` as the PDF stores them (RGB, 4:4:4), with its width and height."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    buf = io.BytesIO()
    image.save(buf, "JPEG", quality=JPEG_QUALITY, subsampling=0, optimize=False)
    return buf.getvalue(), image.width, image.height


def _num(v: float) -> str:
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return s if s not in ("-0", "") else "0"


class PdfWriter:
    """``with PdfWriter(path) as pdf: pdf.add_page(...)``; ``close`` writes the page tree."""

    def __init__(self, path: Path, *, title: str = "cardbase") -> None:
        self.path = Path(path)
        self._f = open(self.path, "wb")
        self._f.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        self._offsets: dict[int, int] = {}
        self._next = 4  # 1 catalog, 2 page tree, 3 info
        self._pages: list[int] = []
        self._title = title
        self.closed = False

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc_type is None:
            self.close()
        else:
            self._f.close()
            self.closed = True

    @property
    def page_count(self) -> int:
        return len(self._pages)

    def _new_id(self) -> int:
        oid = self._next
        self._next += 1
        return oid

    def _obj(self, oid: int, body: bytes, stream: bytes | None = None) -> None:
        self._offsets[oid] = self._f.tell()
        self._f.write(f"{oid} 0 obj\n".encode())
        self._f.write(body)
        if stream is not None:
            self._f.write(b"\nstream\n")
            self._f.write(stream)
            self._f.write(b"\nendstream")
        self._f.write(b"\nendobj\n")

    def add_image(self, image: Image.Image) -> int:
        """Write ``image`` once as a JPEG XObject; returns its object number."""
        return self.add_jpeg(*encode_jpeg(image))

    def add_jpeg(self, data: bytes, w: int, h: int) -> int:
        """Write JPEG bytes made by ``encode_jpeg`` (e.g. in another process) as an XObject."""
        oid = self._new_id()
        head = (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceRGB "
                f"/BitsPerComponent 8 /Filter /DCTDecode /Length {len(data)} >>").encode()
        self._obj(oid, head, data)
        return oid

    def add_page(self, width_pt: float, height_pt: float, content: str, images: dict[str, int],
                 *, trim_box: tuple[float, float, float, float] | None = None,
                 bleed_box: tuple[float, float, float, float] | None = None) -> None:
        data = content.encode("ascii")
        cid = self._new_id()
        self._obj(cid, f"<< /Length {len(data)} >>".encode(), data)
        pid = self._new_id()
        xobj = " ".join(f"/{name} {oid} 0 R" for name, oid in images.items())
        boxes = f"/MediaBox [0 0 {_num(width_pt)} {_num(height_pt)}]"
        if trim_box:
            boxes += " /TrimBox [" + " ".join(_num(v) for v in trim_box) + "]"
        if bleed_box:
            boxes += " /BleedBox [" + " ".join(_num(v) for v in bleed_box) + "]"
        body = (f"<< /Type /Page /Parent 2 0 R {boxes} /Resources << /XObject << {xobj} >> "
                f"/ProcSet [/PDF /ImageC] >> /Contents {cid} 0 R >>")
        self._obj(pid, body.encode())
        self._pages.append(pid)

    def close(self) -> None:
        if self.closed:
            return
        kids = " ".join(f"{p} 0 R" for p in self._pages)
        self._obj(2, f"<< /Type /Pages /Kids [{kids}] /Count {len(self._pages)} >>".encode())
        self._obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
        title = self._title.encode("ascii", "replace").decode().replace("(", "[").replace(")", "]")
        self._obj(3, f"<< /Title ({title}) /Producer (cardbase) >>".encode())
        xref = self._f.tell()
        size = self._next
        self._f.write(f"xref\n0 {size}\n".encode())
        self._f.write(b"0000000000 65535 f \n")
        for oid in range(1, size):
            off = self._offsets.get(oid)
            if off is None:
                self._f.write(b"0000000000 65535 f \n")
            else:
                self._f.write(f"{off:010d} 00000 n \n".encode())
        self._f.write(f"trailer\n<< /Size {size} /Root 1 0 R /Info 3 0 R >>\nstartxref\n{xref}\n%%EOF\n"
                      .encode())
        self._f.close()
        self.closed = True


def place_image(name: str, x_pt: float, y_pt: float, w_pt: float, h_pt: float) -> str:
    """Content-stream operators drawing XObject ``name`` in the box (origin bottom-left)."""
    return f"q {_num(w_pt)} 0 0 {_num(h_pt)} {_num(x_pt)} {_num(y_pt)} cm /{name} Do Q\n"


def line(x0: float, y0: float, x1: float, y1: float) -> str:
    return f"{_num(x0)} {_num(y0)} m {_num(x1)} {_num(y1)} l S\n"
