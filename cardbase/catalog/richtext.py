"""Card-text markup: bold, italic, line breaks, non-breaking spaces and inline symbols.

The syntax (documented for designers in ``docs/rich-text.md``) is small enough to type in a CSV
cell or a TOML string::

    **Défausse** : +1 pour chaque carte {rouge}.    bold, then a colour symbol
    *Une foule en liesse.*                           italic
    Coûte {sticker:12}\\nPuis piochez 1 carte.       value stickers, then a line break
    Gagnez 10~points                                 "~" is a non-breaking space
    5 \\* 2 \\{pas un symbole\\}                       a backslash keeps the next character

``parse`` turns a text into :class:`Span` (text in one style) and :class:`Symbol` items, and
lists every problem at once (an unknown symbol, an unclosed ``**`` or ``*``, an unclosed ``{``)
with its position in the text. ``plain`` is the text without markup (what search matches);
``parse`` never fails: a text with problems still gives items, so old texts always print.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from cardbase.errors import Problem
from cardbase.i18n import tr
from cardbase.text import canonical_colour, fold

NBSP = "\u00a0"
from cardbase.text import MARKUP_SPECIAL as _SPECIAL  # noqa: E402
from cardbase.text import escape  # noqa: E402,F401 - written literally in the markup
MAX_SYMBOL_NAME = 40


@dataclass(slots=True, frozen=True)
class Span:
    """Text in one style ("\\n" in it is a line break, U+00A0 a non-breaking space)."""

    text: str
    bold: bool = False
    italic: bool = False


@dataclass(slots=True, frozen=True)
class Symbol:
    """An inline symbol. ``kind``: "colour" (a disc of the game's colour), "value" (value
    stickers), "sticker" (a colour sticker symbol), "glyph" (a character of the shipped font),
    "image" (a picture file) or "unknown" (a name the context does not know)."""

    kind: str
    name: str  # as written between the braces, e.g. "rouge" or "sticker:3"
    value: str = ""  # the colour's hex, the sticker key, the glyph, the image path, the number
    bold: bool = False
    italic: bool = False


Item = Span | Symbol


@dataclass(slots=True, frozen=True)
class SymbolContext:
    """What ``{name}`` can mean for a game: its colours (folded name → hex colour, from its card
    template), the colour → sticker symbol table, and the symbols it declares (name → a glyph of
    one or two characters, or an image path)."""

    colours: Mapping[str, str] = field(default_factory=dict)
    sticker_colours: Mapping[str, str] = field(default_factory=dict)
    declared: Mapping[str, str] = field(default_factory=dict)

    def known(self) -> list[str]:
        names = [c for c in self.colours if not c.startswith("_")] + list(self.declared)
        return sorted(set(names)) + ["sticker:<n>", "sticker:<couleur>"]


@dataclass(slots=True, frozen=True)
class Parsed:
    items: tuple[Item, ...]
    problems: tuple[Problem, ...] = ()

    @property
    def plain(self) -> str:
        return "".join(i.text if isinstance(i, Span) else _symbol_plain(i) for i in self.items)

    @property
    def is_plain(self) -> bool:
        """One unstyled span and no symbol: the text prints as it is."""
        return all(isinstance(i, Span) and not i.bold and not i.italic for i in self.items)


def _symbol_plain(sym: Symbol) -> str:
    return sym.name.split(":", 1)[1] if sym.name.startswith("sticker:") else sym.name


def has_markup(text: str | None) -> bool:
    return bool(text) and any(c in _SPECIAL for c in text)  # type: ignore[union-attr]


def _problem(code: str, position: int, where: str, **kw: object) -> Problem:
    place = tr("richtext.position", position=position + 1)
    kw = {"position": position + 1, **kw}  # always formatted: the messages write braces as {{ }}
    return Problem(f"richtext.{code}", tr(f"richtext.{code}", **kw), tr(f"richtext.{code}_fix", **kw),
                   f"{where}, {place}" if where else place)


def _resolve(name: str, ctx: SymbolContext | None) -> tuple[str, str] | None:
    """(kind, value) of a symbol name, or None when the context does not know it."""
    from cardbase.catalog.stickers import MAX_VALUE, SYMBOL_SHAPES

    key = fold(name)
    if key.startswith("sticker:"):
        arg = key.split(":", 1)[1].strip()
        if re.fullmatch(r"\d{1,7}", arg):
            return ("value", str(int(arg))) if int(arg) <= MAX_VALUE else None
        if arg in SYMBOL_SHAPES:
            return "sticker", arg
        table = ctx.sticker_colours if ctx is not None and ctx.sticker_colours else None
        if table is None:
            from cardbase.catalog.stickers import default_colour_table

            table = default_colour_table()
        sym = {canonical_colour(c): s for c, s in table.items()}.get(canonical_colour(arg))
        return ("sticker", sym) if sym in SYMBOL_SHAPES else None
    if ctx is None:
        return "unknown", ""
    for decl, value in ctx.declared.items():
        if fold(decl) == key:
            return ("glyph" if len(value) <= 2 else "image"), value
    colour = ctx.colours.get(canonical_colour(name)) or ctx.colours.get(key)
    if colour and not key.startswith("_"):
        return "colour", colour
    return None


def parse(text: str | None, ctx: SymbolContext | None = None, *, where: str = "",
          keywords: Iterable[str] = ()) -> Parsed:
    """The items and problems of ``text``. Without a context, symbol names are not checked.
    ``keywords``: words made bold wherever they appear outside bold text (the game's option)."""
    return _parse(text or "", _freeze(ctx), where,
                  tuple(sorted({fold(k) for k in keywords if fold(k)})))


def _freeze(ctx: SymbolContext | None) -> SymbolContext | None:
    if ctx is None or isinstance(ctx.colours, _FrozenMap):
        return ctx
    return _context(tuple(sorted(ctx.colours.items())), tuple(sorted(ctx.sticker_colours.items())),
                    tuple(sorted(ctx.declared.items())))


@lru_cache(maxsize=4096)
def _parse(text: str, ctx: SymbolContext | None, where: str, keywords: tuple[str, ...]) -> Parsed:
    items: list[Item] = []
    problems: list[Problem] = []
    buf: list[str] = []
    bold = italic = False
    bold_at = italic_at = -1

    def flush() -> None:
        if buf:
            items.append(Span("".join(buf), bold, italic))
            buf.clear()

    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n:
            nxt = text[i + 1]
            if nxt == "n":
                buf.append("\n")
            elif nxt in _SPECIAL:
                buf.append(nxt)
            else:  # not an escape: the backslash is kept as written
                buf.append("\\" + nxt)
            i += 2
        elif ch == "~":
            buf.append(NBSP)
            i += 1
        elif ch == "*":
            flush()
            if text.startswith("**", i):
                bold, bold_at = not bold, i
                i += 2
            else:
                italic, italic_at = not italic, i
                i += 1
        elif ch == "{":
            end = text.find("}", i + 1)
            nl = text.find("\n", i + 1)
            if end < 0 or (0 <= nl < end):
                problems.append(_problem("unclosed_brace", i, where))
                buf.append(ch)
                i += 1
                continue
            name = text[i + 1:end].strip()
            found = _resolve(name, ctx) if name and len(name) <= MAX_SYMBOL_NAME else None
            if found is None:
                shown = name if len(name) <= MAX_SYMBOL_NAME else name[:MAX_SYMBOL_NAME] + "…"
                known = ", ".join(ctx.known()) if ctx is not None else "sticker:<n>"
                problems.append(_problem("unknown_symbol", i, where, name=shown, known=known))
                found = ("unknown", "")
            flush()
            items.append(Symbol(found[0], name, found[1], bold, italic))
            i = end + 1
        elif ch == "}":
            problems.append(_problem("stray_brace", i, where))
            buf.append(ch)
            i += 1
        else:
            buf.append(ch)
            i += 1
    flush()
    if bold:
        problems.append(_problem("unclosed_bold", bold_at, where))
    if italic:
        problems.append(_problem("unclosed_italic", italic_at, where))
    if keywords:
        items = _bold_keywords(items, keywords)
    return Parsed(tuple(_merge(items)), tuple(sorted(problems, key=_position)))


def _position(p: Problem) -> int:
    m = re.search(r"(\d+)\D*$", p.where)
    return int(m.group(1)) if m else 0


_WORD = re.compile(r"\w+(?:['’-]\w+)*")


def _bold_keywords(items: list[Item], keywords: tuple[str, ...]) -> list[Item]:
    wanted = set(keywords)
    out: list[Item] = []
    for item in items:
        if not isinstance(item, Span) or item.bold:
            out.append(item)
            continue
        last = 0
        for m in _WORD.finditer(item.text):
            word = fold(m.group())
            # a keyword is written with a capital initial, as the rules' keyword index writes it:
            # « carte Foule » is the keyword, « votre défausse » the pile (NesPanini ruling R11)
            if not m.group()[0].isupper():
                continue
            if word in wanted or (word.endswith(("s", "x")) and word[:-1] in wanted):
                if m.start() > last:
                    out.append(Span(item.text[last:m.start()], False, item.italic))
                out.append(Span(m.group(), True, item.italic))
                last = m.end()
        if last < len(item.text):
            out.append(Span(item.text[last:], False, item.italic))
    return out


def _merge(items: list[Item]) -> list[Item]:
    out: list[Item] = []
    for item in items:
        if (out and isinstance(item, Span) and isinstance(out[-1], Span)
                and (out[-1].bold, out[-1].italic) == (item.bold, item.italic)):
            out[-1] = Span(out[-1].text + item.text, item.bold, item.italic)
        elif not (isinstance(item, Span) and not item.text):
            out.append(item)
    return out


def plain(text: str | None) -> str:
    """``text`` without its markup: styles dropped, ``{rouge}`` → "rouge", ``{sticker:3}`` → "3",
    ``\\n`` → a line break, ``~`` → a space (what search matches)."""
    if not has_markup(text):
        return text or ""
    return parse(text).plain.replace(NBSP, " ")


def problems(text: str | None, ctx: SymbolContext | None, *, where: str = "") -> list[Problem]:
    """Every markup problem of ``text`` (empty when the text is fine or has no markup)."""
    if not has_markup(text):
        return []
    return list(parse(text, ctx, where=where).problems)


def context_for(template: object | None, sticker_table: Mapping[str, str] | None = None) -> SymbolContext:
    """The symbol context of a card template (its colours and declared symbols)."""
    from cardbase.catalog.stickers import default_colour_table

    colours = dict(getattr(template, "colours", {}) or {})
    declared = dict(getattr(template, "symbols", {}) or {})
    table = dict(sticker_table) if sticker_table is not None else default_colour_table()
    return _context(tuple(sorted(colours.items())), tuple(sorted(table.items())),
                    tuple(sorted(declared.items())))


@lru_cache(maxsize=64)
def _context(colours: tuple, table: tuple, declared: tuple) -> SymbolContext:
    return SymbolContext(_FrozenMap(colours), _FrozenMap(table), _FrozenMap(declared))


class _FrozenMap(dict):
    """A dict that can key a cache (contexts are built once per template)."""

    def __init__(self, pairs: tuple) -> None:
        super().__init__(pairs)
        self._key = pairs

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(self._key)



# --------------------------------------------------------------------------- foreign markup

MARKUPS = ("html",)
_TAG = re.compile(r"<\s*(/?)\s*([A-Za-z][A-Za-z0-9]*)\b[^<>]*?(/?)\s*>")
_ENTITY = re.compile(r"&(#\d{1,7}|#x[0-9A-Fa-f]{1,6}|[A-Za-z]{2,8});")
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'", "nbsp": NBSP}
_HTML_STYLE = {"b": "**", "strong": "**", "i": "*", "em": "*"}


def looks_foreign(text: str | None) -> bool:
    """Whether ``text`` holds what looks like HTML (a tag or an entity), imported as is."""
    return bool(text) and bool(_TAG.search(text) or _ENTITY.search(text))  # type: ignore[arg-type]


def from_html(text: str) -> tuple[str, list[str], list[str]]:
    """``text`` with ``<b>``/``<strong>``, ``<i>``/``<em>``, ``<br>`` and entities turned into
    this markup, the tags it could not convert (left in the text as they were: a ``</b>`` without
    its ``<b>``, a ``<b>`` inside a ``<b>``, ``<span>``…), and the tags never closed (closed at the
    end of the text). Characters that are markup here (``*{}~\\``) are escaped first, so ``{0}``
    stays ``{0}``."""
    out: list[str] = []
    left: list[str] = []
    closed: list[str] = []
    pos = 0
    open_styles: list[str] = []
    for m in _TAG.finditer(text):
        out.append(_html_text(text[pos:m.start()]))
        pos = m.end()
        closing, name, self_closing = m.group(1), m.group(2).lower(), m.group(3)
        if name == "br":
            out.append("\\n")
        elif name == "p" and closing:
            out.append("\\n")
        elif name == "p":
            continue
        elif name in _HTML_STYLE and not self_closing:
            mark = _HTML_STYLE[name]
            if closing:
                if mark in open_styles:
                    open_styles.remove(mark)
                    out.append(mark)
                else:  # a </b> without its <b>: left in the text, as said
                    left.append(m.group(0))
                    out.append(escape(m.group(0)))
            elif mark in open_styles:  # <b> inside <b>: already bold; left in the text
                left.append(m.group(0))
                out.append(escape(m.group(0)))
            else:
                open_styles.append(mark)
                out.append(mark)
        else:
            left.append(m.group(0))
            out.append(escape(m.group(0)))
    out.append(_html_text(text[pos:]))
    for mark in reversed(open_styles):  # an unclosed <b>: closed at the end of the text
        out.append(mark)
        closed.append("<b>" if mark == "**" else "<i>")
    return "".join(out), left, closed


def _html_text(text: str) -> str:
    def entity(m: re.Match[str]) -> str:
        name = m.group(1)
        if name.startswith("#"):
            code = int(name[2:], 16) if name.startswith("#x") else int(name[1:])
            # no control character and nothing beyond Unicode comes out of an entity
            return chr(code) if 32 <= code < 0x110000 and not 0xD800 <= code < 0xE000 else m.group(0)
        return _ENTITIES.get(name.lower(), m.group(0))

    return escape(_ENTITY.sub(entity, text)).replace(NBSP, "~")
