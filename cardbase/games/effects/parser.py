"""Parser of the effect text designers type (grammar in docs/effects.md).

One rule a line, ``score: …`` or ``defausse: …``; ``#`` starts a comment; blank lines are ignored.
Language words are matched without case or accents (``Défausse:`` = ``defausse:``). Every line is
parsed even when an earlier one is wrong, and all problems are raised together in one
:class:`~cardbase.errors.EffectError` whose problems say ``line L, column C``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from cardbase.errors import EffectError, Problem
from cardbase.games.effects.ast import (
    COMPARISONS,
    PILE_ZONES,
    REVEAL_TARGETS,
    Action,
    AttrTerm,
    Bury,
    Comparison,
    Count,
    Draw,
    Effect,
    Filter,
    ForceDiscard,
    Look,
    Recover,
    Reveal,
    ScoreRule,
    Swap,
    Term,
    ValueTerm,
    Zone,
)
from cardbase.i18n import tr
from cardbase.text import canonical_colour, fold

# --------------------------------------------------------------------------- tokens

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<comment>\#.*)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<badstring>".*)
  | (?P<number>[+-]?\d+)
  | (?P<range>\.\.)
  | (?P<op>>=|<=|!=|=|>|<)
  | (?P<punct>[():,])
  | (?P<word>[^\W\d][\w-]*)
  | (?P<bad>.)
    """,
    re.VERBOSE,
)

WORD_RE = re.compile(r"[^\W\d][\w-]*\Z")

#: language words; a value equal to one of them must be quoted
RESERVED = frozenset({
    "score", "defausse", "per", "card", "cards", "colour", "colours", "in", "where", "max", "if",
    "and", "count", "other", "banner", "keyword", "name", "value", "not", "draw", "look", "take",
    "recover", "from", "swap", "with", "force_discard", "reveal", "bury", "opponent", "hand",
    "top", "discards", "opponent_discards", "cimetiere", "deck",
})

ZONE_WORDS = {z.value: z for z in Zone} | {
    # French spellings designers tend to type
    "main": Zone.HAND, "defausse": Zone.DISCARDS, "defausses": Zone.DISCARDS,
    "defausse_adverse": Zone.OPPONENT_DISCARDS, "pioche": Zone.DECK,
}
ATTR_WORDS = {
    "colour": "colour", "color": "colour", "couleur": "colour",
    "banner": "banner", "fanion": "banner", "famille": "banner",
    "keyword": "keyword", "mot-cle": "keyword", "motcle": "keyword",
    "name": "name", "nom": "name",
}
ACTION_WORDS = ("draw", "look", "recover", "swap", "force_discard", "reveal", "bury")


@dataclass(slots=True, frozen=True)
class Token:
    kind: str  # word, number, string, op, punct, range, end
    text: str
    col: int  # 0-based
    key: str = ""  # folded text of words

    @property
    def shown(self) -> str:
        return tr("effects.parse.end_of_line") if self.kind == "end" else quoted(self.text)


class _Fail(Exception):
    def __init__(self, problem: Problem) -> None:
        self.problem = problem


def quoted(text: str) -> str:
    """A word of the effect text as the current language quotes it (« x », 'x')."""
    return tr("effects.parse.quoted", text=text)


def _where(line: int, col: int) -> str:
    return tr("effects.parse.where", line=line, column=col + 1)


def _unescape(body: str) -> str:
    return re.sub(r"\\(.)", r"\1", body)


def _tokenize(text: str, line: int) -> list[Token]:
    tokens: list[Token] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "bad"
        col = m.start()
        if kind in ("ws", "comment"):
            continue
        if kind == "badstring":
            raise _Fail(Problem("effect-syntax", tr("effects.parse.unterminated"),
                                tr("effects.parse.unterminated_fix"), _where(line, col)))
        if kind == "bad":
            raise _Fail(Problem("effect-syntax", tr("effects.parse.bad_char", char=m.group()),
                                tr("effects.parse.bad_char_fix"), _where(line, col)))
        if kind == "string":
            tokens.append(Token("string", _unescape(m.group()[1:-1]), col))
        elif kind == "word":
            tokens.append(Token("word", m.group(), col, fold(m.group())))
        else:
            tokens.append(Token(kind, m.group(), col))
    tokens.append(Token("end", "", len(text.rstrip())))
    return tokens


# --------------------------------------------------------------------------- parser

class _Line:
    """Recursive-descent parser of one line."""

    def __init__(self, tokens: list[Token], line: int, problems: list[Problem]) -> None:
        self.toks = tokens
        self.i = 0
        self.line = line
        self.problems = problems  # semantic problems, collected without stopping

    # -- helpers
    @property
    def tok(self) -> Token:
        return self.toks[self.i]

    def advance(self) -> Token:
        tok = self.toks[self.i]
        if tok.kind != "end":
            self.i += 1
        return tok

    def fail(self, message: str, fix: str = "", tok: Token | None = None) -> _Fail:
        tok = tok or self.tok
        return _Fail(Problem("effect-syntax", message, fix, _where(self.line, tok.col)))

    def note(self, message: str, fix: str, tok: Token, code: str = "effect-invalid") -> None:
        self.problems.append(Problem(code, message, fix, _where(self.line, tok.col)))

    def is_word(self, *words: str) -> bool:
        return self.tok.kind == "word" and self.tok.key in words

    def expect_word(self, *words: str) -> Token:
        if not self.is_word(*words):
            raise self.fail(tr("effects.parse.expected", expected=_either(words), found=self.tok.shown),
                            _suggest(self.tok, words))
        return self.advance()

    def expect_punct(self, char: str) -> Token:
        if not (self.tok.kind in ("punct", "range") and self.tok.text == char):
            raise self.fail(tr("effects.parse.expected", expected=quoted(char), found=self.tok.shown))
        return self.advance()

    def expect_int(self, what: str, *, signed: bool = False) -> tuple[int, Token]:
        tok = self.tok
        if tok.kind != "number":
            raise self.fail(tr("effects.parse.expected_int", what=tr(f"effects.what.{what}"), found=tok.shown))
        self.advance()
        value = int(tok.text)
        if not signed and value < 0:
            self.note(tr("effects.parse.negative", what=tr(f"effects.what.{what}")),
                      tr("effects.parse.negative_fix"), tok)
        return value, tok

    def positive(self, what: str) -> int:
        value, tok = self.expect_int(what)
        if value < 1:
            self.note(tr("effects.parse.at_least_one", what=tr(f"effects.what.{what}"), value=value),
                      tr("effects.parse.at_least_one_fix"), tok)
        return value

    def end(self) -> None:
        if self.tok.kind != "end":
            raise self.fail(tr("effects.parse.trailing", found=self.tok.shown), tr("effects.parse.trailing_fix"))

    # -- grammar
    def zone(self) -> Zone:
        tok = self.tok
        if tok.kind == "word" and tok.key in ZONE_WORDS:
            self.advance()
            return ZONE_WORDS[tok.key]
        raise self.fail(tr("effects.parse.expected_zone", found=tok.shown),
                        _suggest(tok, tuple(ZONE_WORDS)) or tr("effects.parse.one_of",
                                                                words=", ".join(z.value for z in Zone)))

    def value_word(self) -> str:
        tok = self.tok
        if tok.kind in ("word", "string"):
            self.advance()
            return tok.text
        raise self.fail(tr("effects.parse.expected_value", found=tok.shown), tr("effects.parse.expected_value_fix"))

    def filter(self) -> Filter:
        terms: list[Term] = []
        other = False
        while True:
            tok = self.tok
            if self.is_word("other", "autre"):
                self.advance()
                if other:
                    self.note(tr("effects.parse.other_twice"), tr("effects.parse.other_twice_fix"), tok)
                other = True
            elif self.is_word("value", "valeur"):
                self.advance()
                terms.append(self.value_term())
            elif tok.kind == "word" and tok.key in ATTR_WORDS:
                self.advance()
                terms.append(self.attr_term(ATTR_WORDS[tok.key]))
            else:
                raise self.fail(tr("effects.parse.expected_filter", found=tok.shown),
                                _suggest(tok, ("colour", "banner", "keyword", "name", "value", "other")))
            if not self.is_word("and"):
                return Filter(tuple(terms), other)
            self.advance()

    def attr_term(self, attr: str) -> AttrTerm:
        negated = False
        if self.tok.kind == "op" and self.tok.text in ("=", "!="):
            negated = self.advance().text == "!="
            values = [self.value_word()]
        else:
            if self.is_word("not"):
                self.advance()
                negated = True
            if not self.is_word("in"):
                raise self.fail(tr("effects.parse.expected_attr_op", attr=attr, found=self.tok.shown),
                                tr("effects.parse.expected_attr_op_fix", attr=attr))
            self.advance()
            self.expect_punct("(")
            values = [self.value_word()]
            while self.tok.kind == "punct" and self.tok.text == ",":
                self.advance()
                values.append(self.value_word())
            self.expect_punct(")")
        if attr == "colour":
            values = [canonical_colour(v) for v in values]
        elif attr == "keyword":
            values = [fold(v) for v in values]
        return AttrTerm(attr, tuple(values), negated)

    def value_term(self) -> ValueTerm:
        tok = self.tok
        if self.is_word("in"):
            self.advance()
            lo, _ = self.expect_int("lowest", signed=True)
            self.expect_punct("..")
            hi, _ = self.expect_int("highest", signed=True)
            return ValueTerm(lo, hi)
        if tok.kind != "op":
            raise self.fail(tr("effects.parse.expected_value_op", found=tok.shown),
                            tr("effects.parse.expected_value_op_fix"))
        op = self.advance().text
        n, _ = self.expect_int("value", signed=True)
        if op == "=":
            return ValueTerm(n, n)
        if op == ">=":
            return ValueTerm(n, None)
        if op == ">":
            return ValueTerm(n + 1, None)
        if op == "<=":
            return ValueTerm(None, n)
        if op == "<":
            return ValueTerm(None, n - 1)
        raise self.fail(tr("effects.parse.value_ne"), tr("effects.parse.value_ne_fix"), tok)

    def selection(self) -> tuple[Zone, Filter]:
        zone = self.zone()
        if self.is_word("where"):
            self.advance()
            return zone, self.filter()
        return zone, Filter()

    def count(self) -> Count:
        tok = self.expect_word("count", "colours")
        kind = "cards" if tok.key == "count" else "colours"
        self.expect_punct("(")
        zone, filt = self.selection()
        self.expect_punct(")")
        return Count(kind, zone, filt)

    def comparison(self) -> Comparison:
        count = self.count()
        tok = self.tok
        if tok.kind != "op" or tok.text not in COMPARISONS:
            raise self.fail(tr("effects.parse.expected_comparison", ops=" ".join(COMPARISONS), found=tok.shown))
        self.advance()
        value, _ = self.expect_int("compared")
        return Comparison(count, tok.text, value)

    def score_rule(self) -> ScoreRule:
        amount, atok = self.expect_int("bonus", signed=True)
        if amount == 0:
            self.note(tr("effects.parse.zero_bonus"), tr("effects.parse.zero_bonus_fix"), atok)
        per = None
        cap = None
        conditions: list[Comparison] = []
        if self.is_word("per"):
            self.advance()
            kind_tok = self.expect_word("card", "cards", "colour", "colours")
            kind = "cards" if kind_tok.key.startswith("card") else "colours"
            self.expect_word("in")
            zone, filt = self.selection()
            per = Count(kind, zone, filt)
            if self.is_word("max"):
                self.advance()
                cap = self.positive("maximum")
        if self.is_word("if"):
            self.advance()
            conditions.append(self.comparison())
            while self.is_word("and"):
                self.advance()
                conditions.append(self.comparison())
        self.end()
        return ScoreRule(amount, per, cap, tuple(conditions))

    def action(self) -> Action:
        tok = self.tok
        if not (tok.kind == "word" and tok.key in ACTION_WORDS):
            raise self.fail(tr("effects.parse.expected_action", found=tok.shown),
                            _suggest(tok, ACTION_WORDS) or tr("effects.parse.one_of", words=", ".join(ACTION_WORDS)))
        self.advance()
        key = tok.key
        result: Action
        if key == "draw":
            result = Draw(self.positive("cards"))
        elif key == "look":
            n, ntok = self.expect_int("looked")
            self.expect_word("take")
            take, ttok = self.expect_int("taken")
            if take < 1:
                self.note(tr("effects.parse.take_zero"), tr("effects.parse.take_zero_fix"), ttok)
            elif take >= n:
                self.note(tr("effects.parse.take_all", n=n, take=take), tr("effects.parse.take_all_fix", n=n), ntok)
            result = Look(n, take)
        elif key in ("recover", "swap"):
            self.expect_word("from" if key == "recover" else "with")
            ztok = self.tok
            zone, filt = self.selection()
            if zone not in PILE_ZONES:
                self.note(tr("effects.parse.not_a_pile", action=key, zone=zone.value),
                          tr("effects.parse.not_a_pile_fix"), ztok)
            result = Recover(zone, filt) if key == "recover" else Swap(zone, filt)
        elif key == "force_discard":
            result = ForceDiscard(self.positive("cards"))
        elif key == "reveal":
            ttok = self.expect_word(*REVEAL_TARGETS)
            result = Reveal(ttok.key)
        else:
            n = self.positive("cards")
            opponent = False
            if self.is_word("opponent"):
                self.advance()
                opponent = True
            result = Bury(n, opponent)
        self.end()
        return result


def _suggest(tok: Token, words: tuple[str, ...] | list[str]) -> str:
    if tok.kind != "word":
        return ""
    close = difflib.get_close_matches(tok.key, list(words), n=1, cutoff=0.6)
    if not close or close[0] == tok.key:  # never "did you mean" the word that was written
        return ""
    return tr("effects.parse.did_you_mean", word=close[0])


def parse_effect(src: str | None) -> Effect:
    """Parse effect source text; raise EffectError listing every problem (line and column)."""
    if not src:
        return Effect()
    problems: list[Problem] = []
    score: list[ScoreRule] = []
    actions: list[Action] = []
    for lineno, text in enumerate(src.splitlines(), start=1):
        try:
            tokens = _tokenize(text, lineno)
            if tokens[0].kind == "end":
                continue
            p = _Line(tokens, lineno, problems)
            trig = p.tok
            if not (trig.kind == "word" and trig.key in ("score", "defausse")):
                raise p.fail(tr("effects.parse.rule_start", found=trig.shown),
                             _suggest(trig, ("score", "defausse")))
            p.advance()
            p.expect_punct(":")
            if trig.key == "score":
                score.append(p.score_rule())
            else:
                actions.append(p.action())
        except _Fail as fail:
            problems.append(fail.problem)
    if problems:
        problems.sort(key=lambda pr: _position(pr.where))
        n = len(problems)
        raise EffectError(tr("effects.parse.problems", count=n), problems)
    return Effect(tuple(score), tuple(actions))


def _position(where: str) -> tuple[int, int]:
    numbers = re.findall(r"\d+", where)  # "ligne 2, colonne 7" / "line 2, column 7"
    return (int(numbers[0]), int(numbers[1])) if len(numbers) >= 2 else (0, 0)


def _either(words: tuple[str, ...] | list[str]) -> str:
    """« a », « b » ou « c » in the current language."""
    shown = [quoted(w) for w in words]
    if len(shown) == 1:
        return shown[0]
    return tr("effects.parse.either", first=", ".join(shown[:-1]), last=shown[-1])
