"""The card query language, in the spirit of Scryfall's, run as SQL.

    bois sacré                 free words: in the name or the effect text (every word must match)
    "bois sacré"               a phrase
    c:bleu  couleur:Bleue      colour (any case, accents, feminine or plural form)
    v>=3  v=2  v<5  v!=0       value (also value, valeur); also n / number / numero
    k:foule                    keyword (also kw, keyword, mot-cle)
    r:rare  e:NP1  g:overkill  rarity, edition code, game code
    t:personnage  b:corsaires  type and banner (fanion): the text contains the value
    name:loup  o:defausse      the name only; the name and effect text (like free words)
    -k:foule  -(c:rouge or c:bleu)    negation of a term or a group
    c:rouge or c:bleu          "or" (also OR, ou); terms side by side must all match
    (…)                        grouping

Matching uses the folded ``*_key`` columns of ``Card`` (accents and case ignored), so the same
query runs on SQLite and PostgreSQL. ``parse_query`` gives an AST of frozen dataclasses;
``to_sql`` turns it into a boolean clause over ``Card`` joined with ``Edition`` and ``Game``;
``search_cards`` runs it. ``to_sqlite`` writes the same clause as SQLite text for the read-only
path (:mod:`cardbase.storage.readonly`), which loads no SQLAlchemy: the functions that take a
``session`` also take a :class:`~cardbase.storage.readonly.ReadOnlyDB`. Errors are ``QueryError`` with the position of the bad part, in the
current language (``cardbase.i18n``).

A game's declared card fields (``cardbase.catalog.gamesdata``) are keys too, by their name: ``damage>=40``
(an ``int`` field compares like ``v``), ``camp:rouge`` (a ``choice`` field: one of its values),
``titre:chef`` (a ``text`` field: contains). A search that knows the database passes them to
``parse_query(text, fields=declared_keys(session))``; only the cards of the games declaring the
field match it.

Keys with a closed set of values (colour, keyword, rarity, edition, game, type, banner) are checked
against the values the database holds (``check_values``, run by ``search_cards``, ``count_cards``
and ``catalog.card_rows``): ``c:rouj`` is an error that suggests ``c:rouge`` instead of an empty
result. A query has at most ``MAX_QUERY_LENGTH`` characters, ``MAX_TERMS`` terms and
``MAX_DEPTH`` levels of parentheses and negations, so that every query can be parsed and run.
"""

from __future__ import annotations

import contextvars
import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Union

from cardbase.errors import QueryError
from cardbase.i18n import tr
from cardbase.storage.readonly import ReadOnlyDB, in_marks
from cardbase.text import canonical_colour, fold

if TYPE_CHECKING:  # pragma: no cover
    from sqlalchemy.sql.elements import ColumnElement
    from sqlmodel import Session

    from cardbase.storage.models import Card

__all__ = [
    "KEYS",
    "MAX_DEPTH",
    "MAX_QUERY_LENGTH",
    "MAX_TERMS",
    "All",
    "And",
    "Field",
    "Node",
    "Not",
    "Or",
    "Text",
    "check_values",
    "count_cards",
    "known_values",
    "parse_query",
    "search_cards",
    "to_query",
    "to_sql",
    "to_sqlite",
]

# --------------------------------------------------------------------------- keys

# canonical field → (aliases, kind). Kinds: "number" compares, "exact" is equality,
# "contains" matches part of the text with ':' and the whole text with '='.
_FIELDS: dict[str, tuple[tuple[str, ...], str]] = {
    "colour": (("c", "colour", "color", "couleur"), "exact"),
    "value": (("v", "value", "valeur", "val"), "number"),
    "keyword": (("k", "kw", "keyword", "keywords", "mot-cle", "motcle"), "exact"),
    "rarity": (("r", "rarity", "rarete"), "exact"),
    "edition": (("e", "edition", "set", "s"), "exact"),
    "game": (("g", "game", "jeu"), "exact"),
    "type": (("t", "type", "classe", "class"), "contains"),
    "banner": (("b", "banner", "fanion", "famille", "family"), "contains"),
    "number": (("n", "number", "num", "numero"), "number"),
    "name": (("name", "nom"), "contains"),
    "text": (("o", "text", "texte", "effet", "effect"), "contains"),
}
KEYS: dict[str, str] = {alias: name for name, (aliases, _) in _FIELDS.items() for alias in aliases}
_SHORT = {name: aliases[0] for name, (aliases, _) in _FIELDS.items()}
_NUMERIC_OPS = (":", "=", "!=", "<", "<=", ">", ">=")
_TEXT_OPS = (":", "=", "!=")
_OR_WORDS = {"or", "ou"}

# Limits that keep every query parseable and runnable (SQLite refuses expressions nested 1,000 deep).
MAX_QUERY_LENGTH = 2000
MAX_TERMS = 100
MAX_DEPTH = 20

# --------------------------------------------------------------------------- AST


@dataclass(slots=True, frozen=True)
class All:
    """The empty query: every card."""


@dataclass(slots=True, frozen=True)
class Text:
    """Free text (a word or a quoted phrase), folded; matches the name or the effect text."""

    text: str
    position: int = field(default=0, compare=False)


@dataclass(slots=True, frozen=True)
class Field:
    """``key op value`` with the canonical key ("colour", "value"…) and a normalised value."""

    key: str
    op: str  # "=", "!=", "<", "<=", ">", ">=", or ":" (contains) for text fields
    value: str | int
    position: int = field(default=0, compare=False)
    value_position: int = field(default=-1, compare=False)
    games: tuple[str, ...] = ()  # a declared field ("@name" keys): the games declaring it


@dataclass(slots=True, frozen=True)
class Declared:
    """A declared card field as a search key: its kind, the games declaring it, its choices."""

    name: str
    kind: str  # "number" | "exact" (choice) | "contains" (text)
    games: tuple[str, ...]
    choices: tuple[str, ...] = ()


_NO_DECLARED: Mapping[str, Declared] = MappingProxyType({})
_DECLARED: contextvars.ContextVar[Mapping[str, Declared]] = contextvars.ContextVar(
    "declared", default=_NO_DECLARED)


def declared_keys(session: Session | ReadOnlyDB) -> dict[str, Declared]:
    """The declared card fields of every game, by name (a name declared by several games with
    different types is searched as text)."""
    by_name: dict[str, list[tuple[str, dict]]] = {}
    if isinstance(session, ReadOnlyDB):
        rows = [(code, session.json(fields))
                for code, fields in session.rows("SELECT game.code, game.fields FROM game")]
    else:
        from sqlmodel import select

        from cardbase.storage.models import Game

        rows = session.exec(select(Game.code, Game.fields)).all()
    for code, fields in rows:
        for spec in fields or []:
            if spec["name"] != "value":  # a game's range of values, searched as v:
                by_name.setdefault(spec["name"], []).append((code, spec))
    out = {}
    for name, decls in by_name.items():
        types = {spec["type"] for _, spec in decls}
        kind = "number" if types == {"int"} else "exact" if types == {"choice"} else "contains"
        choices = tuple(dict.fromkeys(c for _, spec in decls for c in spec.get("choices") or ()))
        games = tuple(sorted(code for code, spec in decls if kind != "number" or spec["type"] == "int"))
        out[name] = Declared(name, kind, games, choices)
    return out


@dataclass(slots=True, frozen=True)
class Not:
    node: Node


@dataclass(slots=True, frozen=True)
class And:
    nodes: tuple[Node, ...]


@dataclass(slots=True, frozen=True)
class Or:
    nodes: tuple[Node, ...]


Node = Union[All, Text, Field, Not, And, Or]  # noqa: UP007 - a runtime alias

# --------------------------------------------------------------------------- tokens


@dataclass(slots=True, frozen=True)
class _Tok:
    kind: str  # "(", ")", "-", "or", "term", "end"
    position: int
    node: Node | None = None
    text: str = ""


_KEY_OP = re.compile(r"(?P<key>[^\W\d][\w-]*)(?P<op>>=|<=|!=|:|=|<|>)", re.UNICODE)
_STOP = set(" \t\r\n()\"")


def _err(message: str, position: int, query: str) -> QueryError:
    return QueryError(message, position=position, query=query)


def _read_quoted(query: str, start: int) -> tuple[str, int]:
    """The text between the quote at ``start`` and the next quote; returns (text, end index)."""
    end = query.find('"', start + 1)
    if end < 0:
        raise _err(tr("search.unclosed_quote"), start, query)
    inner = query[start + 1:end]
    if not inner.strip():
        raise _err(tr("search.empty_quotes"), start, query)
    return inner, end + 1


def _text(raw: str, position: int, query: str) -> Text:
    folded = fold(raw)
    if not folded:  # e.g. a lone accent or symbol: nothing would be left to search for
        raise _err(tr("search.nothing_to_search", raw=raw), position, query)
    return Text(folded, position)


def _tokens(query: str) -> list[_Tok]:
    out: list[_Tok] = []
    i, n = 0, len(query)
    while i < n:
        ch = query[i]
        if ch.isspace():
            i += 1
        elif ch in "()":
            out.append(_Tok(ch, i))
            i += 1
        elif ch == "-":
            if i + 1 >= n or query[i + 1].isspace() or query[i + 1] == ")":
                raise _err(tr("search.dash_alone"), i, query)
            out.append(_Tok("-", i))
            i += 1
        elif ch == '"':
            inner, i2 = _read_quoted(query, i)
            out.append(_Tok("term", i, _text(inner, i, query)))
            i = i2
        else:
            start = i
            while i < n and query[i] not in _STOP:
                i += 1
            raw = query[start:i]
            if fold(raw) in _OR_WORDS:
                out.append(_Tok("or", start, text=raw))
                continue
            m = _KEY_OP.match(raw)
            if m is None:
                if any(c in raw for c in ":<>=!"):
                    op_at = start + min(raw.find(c) for c in ":<>=!" if c in raw)
                    raise _err(tr("search.not_a_term", raw=raw), op_at, query)
                out.append(_Tok("term", start, _text(raw, start, query)))
                continue
            key, op = m.group("key"), m.group("op")
            value = raw[m.end():]
            value_at = start + m.end()
            quoted = False
            if not value and i < n and query[i] == '"':
                value, i = _read_quoted(query, i)
                value_at += 1
                quoted = True  # o:"<b>": a quoted value is text, even when it starts like an operator
            out.append(_Tok("term", start, _field(query, key, op, value, start, value_at,
                                                  quoted=quoted)))
    terms = [tok for tok in out if tok.kind == "term"]
    if len(terms) > MAX_TERMS:
        raise _err(tr("search.too_many_terms", limit=MAX_TERMS), terms[MAX_TERMS].position, query)
    out.append(_Tok("end", n))
    return out


def _field(query: str, key: str, op: str, value: str, key_at: int, value_at: int, *,
           quoted: bool = False) -> Field:
    name = KEYS.get(fold(key))
    declared = _DECLARED.get()
    if name is None and fold(key) in declared:
        return _declared_field(query, declared[fold(key)], key, op, value, key_at, value_at,
                               quoted=quoted)
    if name is None:
        close = difflib.get_close_matches(fold(key), list(KEYS) + list(declared), n=1)
        hint = " " + tr("search.did_you_mean", suggestion=f"{close[0]}:") if close else ""
        raise _err(tr("search.unknown_key", key=key, hint=hint, keys=_keys_help()), key_at, query)
    kind = _FIELDS[name][1]
    allowed = _NUMERIC_OPS if kind == "number" else _TEXT_OPS
    op_at = key_at + len(key)
    if value[:1] in {"<", ">", "=", "!"} and not quoted:
        raise _err(tr("search.bad_operator", op=op + value[:2].rstrip("0123456789"), key=key,
                      allowed=" ".join(allowed)), op_at, query)
    if op not in allowed:
        raise _err(tr("search.cannot_compare", key=key, field=_field_name(name), op=op,
                      allowed=" ".join(allowed)), op_at, query)
    if not value.strip():
        raise _err(tr("search.missing_value", key=f"{key}{op}", example=_example(name)),
                   value_at, query)
    if kind == "number":
        text = value.strip()
        if not re.fullmatch(r"[+-]?\d+", text):
            raise _err(tr("search.not_a_number", field=_field_name(name), value=value,
                          example=_example(name)), value_at, query)
        number = int(text)
        if abs(number) > 1_000_000_000:  # beyond any card figure, and beyond SQL integers
            raise _err(tr("search.out_of_range", field=_field_name(name), value=text), value_at,
                       query)
        return Field(name, "=" if op == ":" else op, number, key_at, value_at)
    folded = canonical_colour(value) if name == "colour" else fold(value)
    if not folded:
        raise _err(tr("search.missing_value", key=f"{key}{op}", example=_example(name)),
                   value_at, query)
    if kind == "exact" and op == ":":
        op = "="
    return Field(name, op, folded, key_at, value_at)


def _declared_field(query: str, decl: Declared, key: str, op: str, value: str, key_at: int,
                    value_at: int, *, quoted: bool = False) -> Field:
    """``damage>=40``: a declared field of the cards' games."""
    allowed = _NUMERIC_OPS if decl.kind == "number" else _TEXT_OPS
    example = f"{decl.name}>=1" if decl.kind == "number" else f"{decl.name}:x"
    op_at = key_at + len(key)
    if value[:1] in {"<", ">", "=", "!"} and not quoted:
        raise _err(tr("search.bad_operator", op=op + value[:2].rstrip("0123456789"), key=key,
                      allowed=" ".join(allowed)), op_at, query)
    if op not in allowed:
        raise _err(tr("search.cannot_compare", key=key, field=decl.name, op=op,
                      allowed=" ".join(allowed)), op_at, query)
    if not value.strip():
        raise _err(tr("search.missing_value", key=f"{key}{op}", example=example), value_at, query)
    if decl.kind == "number":
        text = value.strip()
        if not re.fullmatch(r"[+-]?\d+", text):
            raise _err(tr("search.not_a_number", field=decl.name, value=value, example=example),
                       value_at, query)
        number = int(text)
        if abs(number) > 1_000_000_000:
            raise _err(tr("search.out_of_range", field=decl.name, value=text), value_at, query)
        return Field("@" + decl.name, "=" if op == ":" else op, number, key_at, value_at, decl.games)
    if decl.kind == "exact":
        by_key = {fold(c): c for c in decl.choices}
        if fold(value) not in by_key:
            close = difflib.get_close_matches(fold(value), list(by_key), n=1, cutoff=0.6)
            hint = " " + tr("search.did_you_mean", suggestion=f"{key}:{by_key[close[0]]}") if close else ""
            raise _err(tr("gamesdata.search_unknown_choice", field=decl.name, value=value,
                          values=", ".join(decl.choices)) + hint, value_at, query)
        return Field("@" + decl.name, "!=" if op == "!=" else "=", by_key[fold(value)], key_at,
                     value_at, decl.games)
    return Field("@" + decl.name, op, value.strip().lower(), key_at, value_at, decl.games)


def _example(name: str) -> str:
    return {"colour": "c:bleu", "value": "v>=3", "keyword": "k:foule", "rarity": "r:rare",
            "edition": "e:NP1", "game": "g:nespanini", "type": "t:personnage",
            "banner": "b:corsaires", "number": "n<=10", "name": "name:loup",
            "text": "o:defausse"}[name]


def _field_name(name: str) -> str:
    """How a canonical key is named to the user ("couleur" in French)."""
    return tr(f"search.field.{name}")


def _keys_help() -> str:
    return ", ".join(["/".join(aliases[:2]) for aliases, _ in _FIELDS.values()] + list(_DECLARED.get()))


# --------------------------------------------------------------------------- parser


def _flat(kind: type[And | Or], parts: list[Node]) -> tuple[Node, ...]:
    """Children of a group of ``kind``, with nested groups of the same kind merged in."""
    out: list[Node] = []
    for part in parts:
        out.extend(part.nodes if isinstance(part, kind) else (part,))
    return tuple(out)


class _Parser:
    def __init__(self, query: str) -> None:
        self.query = query
        self.toks = _tokens(query)
        self.i = 0
        self.depth = 0

    def peek(self) -> _Tok:
        return self.toks[self.i]

    def take(self) -> _Tok:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def parse(self) -> Node:
        if self.peek().kind == "end":
            return All()
        node = self.or_expr()
        tok = self.peek()
        if tok.kind == ")":
            raise _err(tr("search.unmatched_close"), tok.position, self.query)
        return node

    def or_expr(self) -> Node:
        tok = self.peek()
        if tok.kind == "or":
            raise _err(tr("search.or_left", word=tok.text), tok.position, self.query)
        parts = [self.and_expr()]
        while self.peek().kind == "or":
            or_tok = self.take()
            if self.peek().kind in {"end", ")", "or"}:
                raise _err(tr("search.or_right", word=or_tok.text), or_tok.position, self.query)
            parts.append(self.and_expr())
        return parts[0] if len(parts) == 1 else Or(_flat(Or, parts))

    def and_expr(self) -> Node:
        parts = [self.unary()]
        while self.peek().kind in {"term", "-", "("}:
            parts.append(self.unary())
        return parts[0] if len(parts) == 1 else And(_flat(And, parts))

    def nest(self, tok: _Tok) -> None:
        """One more level of parentheses or negation; refused past ``MAX_DEPTH``."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _err(tr("search.too_deep", limit=MAX_DEPTH), tok.position, self.query)

    def unary(self) -> Node:
        tok = self.take()
        if tok.kind == "-":
            nxt = self.peek()
            if nxt.kind not in {"term", "(", "-"}:
                raise _err(tr("search.dash_needs_term"), tok.position, self.query)
            self.nest(tok)
            node = Not(self.unary())
            self.depth -= 1
            return node
        if tok.kind == "(":
            if self.peek().kind == ")":
                raise _err(tr("search.empty_parentheses"), tok.position, self.query)
            if self.peek().kind == "end":
                raise _err(tr("search.unclosed_paren"), tok.position, self.query)
            self.nest(tok)
            node = self.or_expr()
            self.depth -= 1
            close = self.take()
            if close.kind != ")":
                raise _err(tr("search.unclosed_paren"), tok.position, self.query)
            return node
        if tok.kind == "term":
            assert tok.node is not None
            return tok.node
        if tok.kind == ")":
            raise _err(tr("search.unmatched_close"), tok.position, self.query)
        if tok.kind == "or":
            raise _err(tr("search.or_left", word=tok.text), tok.position, self.query)
        raise _err(tr("search.ends_early"), tok.position, self.query)


def parse_query(text: str, fields: dict[str, Declared] | None = None) -> Node:
    """Parse a query into an AST; the empty query is ``All()``. Raises ``QueryError``.

    ``fields``: the declared card fields usable as keys (:func:`declared_keys`)."""
    token = _DECLARED.set(dict(fields or {}))
    try:
        return _parse_query(text)
    finally:
        _DECLARED.reset(token)


def _parse_query(text: str) -> Node:
    if not isinstance(text, str):
        raise QueryError(tr("search.not_text", kind=type(text).__name__), position=0, query="")
    if len(text) > MAX_QUERY_LENGTH:
        raise _err(tr("search.too_long", length=len(text), limit=MAX_QUERY_LENGTH),
                   MAX_QUERY_LENGTH, text[:MAX_QUERY_LENGTH + 20])
    if "\x00" in text:  # no database can compare text holding it (PostgreSQL refuses it)
        raise _err(tr("search.nul"), text.index("\x00"), text.replace("\x00", " "))
    for i, ch in enumerate(text):
        if "\ud800" <= ch <= "\udfff":  # an undecodable byte of a command line
            shown = text.encode("utf-8", "replace").decode("utf-8")
            raise _err(tr("search.not_utf8"), i, shown)
    return _Parser(text).parse()


# --------------------------------------------------------------------------- back to text


def _quote(value: str) -> str:
    if value and not any(c in _STOP or c in ":<>=!" for c in value) and value[0] != "-" \
            and value not in _OR_WORDS:
        return value
    return '"' + value.replace('"', "") + '"'


def to_query(node: Node) -> str:
    """A query text that parses back to ``node`` (a normalised form of the user's query)."""
    if isinstance(node, All):
        return ""
    if isinstance(node, Text):
        return _quote(node.text)
    if isinstance(node, Field) and node.key.startswith("@"):
        value = str(node.value) if isinstance(node.value, int) else _quote(node.value)
        return f"{node.key[1:]}{node.op}{value}"
    if isinstance(node, Field):
        op = ":" if node.op == "=" and _FIELDS[node.key][1] == "exact" else node.op
        value = str(node.value) if isinstance(node.value, int) else _quote(node.value)
        return f"{_SHORT[node.key]}{op}{value}"
    if isinstance(node, Not):
        inner = to_query(node.node)
        return f"-({inner})" if isinstance(node.node, (And, Or)) else f"-{inner}"
    if isinstance(node, And):
        return " ".join(f"({to_query(n)})" if isinstance(n, Or) else to_query(n)
                        for n in node.nodes)
    if isinstance(node, Or):
        return " or ".join(to_query(n) for n in node.nodes)
    raise TypeError(f"not a query node: {node!r}")


# --------------------------------------------------------------------------- SQL


def _like(value: str) -> str:
    return "%" + value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _contains(column, value: str) -> ColumnElement[bool]:
    return column.like(_like(value), escape="\\")


# The folded column of each text key and the two number keys, by name (``card.<name>`` in SQL).
_COLUMN_NAMES = {
    "colour": "colour_key", "rarity": "rarity_key", "type": "type_key", "banner": "banner_key",
    "name": "name_key", "text": "text_key", "value": "value", "number": "number",
}


def _column(key: str):
    from cardbase.storage.models import Card

    return getattr(Card, _COLUMN_NAMES[key])


def _declared_sql(node: Field) -> ColumnElement[bool]:
    """A declared field, read from ``Card.stats`` for the cards of the games declaring it."""
    from sqlalchemy import and_, case, func, not_

    from cardbase.storage.models import Card, Game

    name, op, value = node.key[1:], node.op, node.value
    stats = Card.__table__.c.stats
    ours = Game.code.in_(list(node.games))
    if isinstance(value, int):
        col = case((ours, stats[name].as_integer()), else_=None)
        compare = {"=": col == value, "!=": col != value, "<": col < value, "<=": col <= value,
                   ">": col > value, ">=": col >= value}[op]
        return and_(ours, col.is_not(None), compare)
    col = func.lower(case((ours, stats[name].as_string()), else_=None))
    match = _contains(col, value) if op == ":" else col == func.lower(value)
    return and_(ours, col.is_not(None), not_(match) if op == "!=" else match)


def _field_sql(node: Field) -> ColumnElement[bool]:
    from sqlalchemy import and_, func, not_

    from cardbase.storage.models import Card, Edition, Game

    key, op, value = node.key, node.op, node.value
    if key.startswith("@"):
        return _declared_sql(node)
    if key in {"value", "number"}:
        col = _column(key)
        compare = {"=": col == value, "!=": col != value, "<": col < value, "<=": col <= value,
                   ">": col > value, ">=": col >= value}[op]
        return and_(col.is_not(None), compare)
    assert isinstance(value, str)
    if key == "keyword":
        clause = _contains(Card.keywords_key, f"|{value}|")
    elif key in {"edition", "game"}:
        col = Edition.code if key == "edition" else Game.code
        clause = func.lower(col) == value.lower()
    else:
        col = _column(key)
        clause = _contains(col, value) if op == ":" else col == value
    return not_(clause) if op == "!=" else clause


_REF = re.compile(r"^([a-z0-9]{1,12})-0*(\d{1,6})$")  # a folded card reference: edition code, number


def to_sql(node: Node) -> ColumnElement[bool]:
    """A boolean clause over ``Card`` joined with ``Edition`` and ``Game``."""
    from sqlalchemy import and_, false, func, not_, or_, true

    from cardbase.storage.models import Card, Edition

    if isinstance(node, All):
        return true()
    if isinstance(node, Text):
        clause = or_(_contains(Card.name_key, node.text), _contains(Card.text_key, node.text))
        ref = _REF.match(node.text)
        if ref:  # a card's reference (NP1-003) finds that card
            clause = or_(clause, and_(func.lower(Edition.code) == ref.group(1), Card.number == int(ref.group(2))))
        return clause
    if isinstance(node, Field):
        return _field_sql(node)
    if isinstance(node, Not):
        return not_(to_sql(node.node))
    if isinstance(node, And):
        return and_(*(to_sql(n) for n in node.nodes)) if node.nodes else true()
    if isinstance(node, Or):
        return or_(*(to_sql(n) for n in node.nodes)) if node.nodes else false()
    raise TypeError(f"not a query node: {node!r}")


# The same clauses as SQLite text, clause for clause, for the read-only path (no SQLAlchemy).
# Each function appends its values to ``params`` in the order of their ``?`` in the text.

_LIKE = "LIKE ? ESCAPE '\\'"
_COMPARE_OPS = frozenset(("=", "!=", "<", "<=", ">", ">="))


def _sqlite_compare(column: str, op: str, value: int, params: list) -> str:
    if op not in _COMPARE_OPS:  # never written into SQL unchecked
        raise ValueError(f"not a comparison: {op!r}")
    params.append(value)
    return f"{column} {op} ?"


def _declared_sqlite(node: Field, params: list) -> str:
    name, op, value = node.key[1:], node.op, node.value
    marks = in_marks(len(node.games))

    def ours() -> str:
        params.extend(node.games)
        return f"game.code IN ({marks})"

    def col(kind: str) -> str:
        text = f"CASE WHEN ({ours()}) THEN CAST(JSON_EXTRACT(card.stats, ?) AS {kind}) END"
        params.append(f'$."{name}"')
        return text if kind == "INTEGER" else f"lower({text})"

    if isinstance(value, int):
        return (f"({ours()} AND {col('INTEGER')} IS NOT NULL AND "
                f"{_sqlite_compare(col('INTEGER'), op, value, params)})")
    head = f"{ours()} AND {col('VARCHAR')} IS NOT NULL"
    column = col("VARCHAR")
    if op == ":":
        params.append(_like(value))
        match = f"{column} {_LIKE}"
    else:
        params.append(value)
        match = f"{column} = lower(?)"
    return f"({head} AND {'NOT (' + match + ')' if op == '!=' else match})"


def _field_sqlite(node: Field, params: list) -> str:
    key, op, value = node.key, node.op, node.value
    if key.startswith("@"):
        return _declared_sqlite(node, params)
    if key in {"value", "number"}:
        column = f"card.{_COLUMN_NAMES[key]}"
        return f"({column} IS NOT NULL AND {_sqlite_compare(column, op, value, params)})"
    assert isinstance(value, str)
    if key == "keyword":
        params.append(_like(f"|{value}|"))
        clause = f"card.keywords_key {_LIKE}"
    elif key in {"edition", "game"}:
        params.append(value.lower())
        clause = f"lower({key}.code) = ?"
    else:
        params.append(_like(value) if op == ":" else value)
        clause = f"card.{_COLUMN_NAMES[key]} {_LIKE if op == ':' else '= ?'}"
    return f"NOT ({clause})" if op == "!=" else clause


def _sqlite(node: Node, params: list) -> str:
    if isinstance(node, All):
        return "1"
    if isinstance(node, Text):
        params += [_like(node.text), _like(node.text)]
        clause = f"card.name_key {_LIKE} OR card.text_key {_LIKE}"
        ref = _REF.match(node.text)
        if ref:
            params += [ref.group(1), int(ref.group(2))]
            clause += " OR (lower(edition.code) = ? AND card.number = ?)"
        return f"({clause})"
    if isinstance(node, Field):
        return _field_sqlite(node, params)
    if isinstance(node, Not):
        return f"NOT ({_sqlite(node.node, params)})"
    if isinstance(node, (And, Or)):
        if not node.nodes:
            return "1" if isinstance(node, And) else "0"
        word = " AND " if isinstance(node, And) else " OR "
        return "(" + word.join(_sqlite(n, params) for n in node.nodes) + ")"
    raise TypeError(f"not a query node: {node!r}")


def to_sqlite(node: Node) -> tuple[str, list]:
    """:func:`to_sql` as SQLite text and its ``?`` values: a clause over ``card`` joined with
    ``edition`` and ``game`` that selects the same cards."""
    params: list = []
    return _sqlite(node, params), params


# --------------------------------------------------------------------------- known values

# Keys whose values form a closed set: the values the cards (or the editions and games) hold.
CLOSED_KEYS = ("colour", "keyword", "rarity", "edition", "game", "type", "banner")
_KEY_COLUMN = {"colour": "colour_key", "rarity": "rarity_key", "type": "type_key",
               "banner": "banner_key", "keyword": "keywords_key"}
_SHOWN_VALUES = 12


def known_values(session: Session | ReadOnlyDB, key: str) -> list[str]:
    """The folded values the database holds for a closed key, sorted (editions as their codes)."""
    if isinstance(session, ReadOnlyDB):
        table = key if key in {"edition", "game"} else None
        sql = (f"SELECT {table}.code FROM {table}" if table
               else f"SELECT DISTINCT card.{_KEY_COLUMN[key]} FROM card")
        found = [row[0] for row in session.rows(sql)]
    else:
        from sqlmodel import select

        from cardbase.storage.models import Card, Edition, Game

        if key in {"edition", "game"}:
            stmt = select((Edition if key == "edition" else Game).code)
        else:
            stmt = select(getattr(Card, _KEY_COLUMN[key])).distinct()
        found = session.exec(stmt).all()
    if key in {"edition", "game"}:
        return sorted({c.lower() for c in found if c})
    values = {v for v in found if v}
    if key == "keyword":
        values = {k for v in values for k in v.split("|") if k}
    return sorted(values)


def _fields_of(node: Node) -> list[Field]:
    out: list[Field] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Field):
            out.append(item)
        elif isinstance(item, Not):
            stack.append(item.node)
        elif isinstance(item, (And, Or)):
            stack.extend(reversed(item.nodes))
    return sorted(out, key=lambda f: f.position)


def _exists(session: Session | ReadOnlyDB, item: Field, kind: str) -> bool:
    """Whether some card (edition, game) has the value of ``item``, asked as its positive form."""
    op = ":" if kind == "contains" and item.op == ":" else "="
    positive = Field(item.key, op, item.value)
    table = item.key if item.key in {"edition", "game"} else "card"
    if isinstance(session, ReadOnlyDB):
        params: list = []
        clause = _field_sqlite(positive, params)
        return bool(session.rows(f"SELECT {table}.id FROM {table} WHERE {clause} LIMIT ? OFFSET ?",
                                 [*params, 1, 0]))
    from sqlmodel import select

    from cardbase.storage.models import Card, Edition, Game

    model = {"edition": Edition, "game": Game, "card": Card}[table]
    stmt = select(model.id).where(_field_sql(positive))
    return session.exec(stmt.limit(1)).first() is not None


def _known(value: str, op: str, kind: str, values: list[str]) -> bool:
    if kind == "contains" and op == ":":
        return any(value in v for v in values)
    return value in values


def check_values(session: Session | ReadOnlyDB, node: Node, query: str) -> None:
    """Refuse a closed key whose value no card has (``c:rouj``), suggesting the nearest value.

    Raises ``QueryError`` at the first unknown value; its message names every unknown value of the
    query, each with the nearest known one (accents and case ignored) and the known values.
    """
    cache: dict[str, list[str]] = {}
    messages: list[str] = []
    first = -1
    for item in _fields_of(node):
        if item.key not in CLOSED_KEYS or not isinstance(item.value, str):
            continue
        kind = _FIELDS[item.key][1]
        if _exists(session, item, kind):  # one indexed or early-stopping lookup: the usual case
            continue
        if item.key not in cache:
            cache[item.key] = known_values(session, item.key)
        values = cache[item.key]
        if _known(item.value, item.op, kind, values):
            continue
        typed = query[item.position:item.value_position] if item.value_position > item.position \
            else f"{_SHORT[item.key]}:"
        if typed.endswith('"'):
            typed = typed[:-1]
        close = difflib.get_close_matches(item.value, values, n=1, cutoff=0.6)
        if not close and kind == "contains":
            close = [v for v in values if item.value in v or v in item.value][:1]
        shown = [v.upper() if item.key == "edition" else v for v in values]
        known = ", ".join(shown[:_SHOWN_VALUES]) + ("…" if len(shown) > _SHOWN_VALUES else "")
        parts = [tr(f"search.unknown_value.{item.key}", value=item.value)]
        if close:
            suggestion = close[0].upper() if item.key == "edition" else close[0]
            parts.append(tr("search.did_you_mean", suggestion=typed + _quote(suggestion)))
        parts.append(tr("search.known_values", values=known or tr("search.no_values")))
        messages.append(" ".join(parts))
        if first < 0:
            first = item.value_position if item.value_position >= 0 else item.position
    if messages:
        raise _err("; ".join(messages), first, query)


def _checked(session: Session, query: str) -> Node:
    node = parse_query(query or "", declared_keys(session))
    check_values(session, node, query or "")
    return node


def search_cards(session: Session, query: str, *, limit: int | None = None,
                 offset: int = 0) -> list[Card]:
    """Cards matching ``query`` (every card when empty), by game, edition code and number."""
    from sqlmodel import select

    from cardbase.storage.models import Card, Edition, Game

    node = _checked(session, query)
    stmt = (
        select(Card)
        .join(Edition, Card.edition_id == Edition.id)
        .join(Game, Edition.game_id == Game.id)
        .where(to_sql(node))
        .order_by(Game.code, Edition.code, Card.number)
    )
    if offset:
        stmt = stmt.offset(offset)
    if limit is not None:
        stmt = stmt.limit(limit)
    return list(session.exec(stmt).all())


def count_cards(session: Session, query: str) -> int:
    """How many cards match ``query``, counted in SQL (for "n results" and paging)."""
    from sqlalchemy import func
    from sqlmodel import select

    from cardbase.storage.models import Card, Edition, Game

    node = _checked(session, query)
    stmt = (
        select(func.count(Card.id))
        .select_from(Card)
        .join(Edition, Card.edition_id == Edition.id)
        .join(Game, Edition.game_id == Game.id)
        .where(to_sql(node))
    )
    return int(session.exec(stmt).one())
