"""English card text generated from the AST, as :mod:`cardbase.games.effects.french` writes the French.

Both texts use the card-text markup (docs/rich-text.md). NesPanini ruling R13: the game's terms
keep the names its rules give them — the keywords **Défausse**, **Foule**, **Légendaire**, the
Cimetière and the colours as the cards print them — since they are names on the cards and in deck
filters, not words to translate; the keywords are written bold (``**Défausse**``) so that they
stand out in English too, where the template's French ``bold_keywords`` would not find them
inside an English sentence. Card names are quoted literally (markup characters escaped).
"""

from __future__ import annotations

from cardbase.games.effects.ast import (
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
    ValueTerm,
    Zone,
)
from cardbase.games.effects.french import KEYWORD_PRINTED, quantity
from cardbase.games.effects.french import _or as join_or

IN_ZONE = {
    Zone.HAND: "in your hand", Zone.DISCARDS: "in your discard pile",
    Zone.OPPONENT_DISCARDS: "in your opponent's discard pile", Zone.CIMETIERE: "in the Cimetière",
    Zone.DECK: "in your deck",
}
SUBJECT = {
    Zone.HAND: "your hand", Zone.DISCARDS: "your discard pile",
    Zone.OPPONENT_DISCARDS: "your opponent's discard pile", Zone.CIMETIERE: "the Cimetière",
    Zone.DECK: "your deck",
}
OF_ZONE = {
    Zone.HAND: "from your hand", Zone.DISCARDS: "from your discard pile",
    Zone.OPPONENT_DISCARDS: "from your opponent's discard pile", Zone.CIMETIERE: "from the Cimetière",
    Zone.DECK: "from your deck",
}


def _keyword(key: str) -> str:
    return "**" + KEYWORD_PRINTED.get(key, key[:1].upper() + key[1:]) + "**"


def _quote(text: str) -> str:
    from cardbase.text import escape

    return f"“{escape(text)}”"


def _or(items: list[str], word: str = "or") -> str:
    return join_or(items, word)


def card_noun(filt: Filter, plural: bool, *, other: bool | None = None) -> str:
    """« other rouge Foule cards of the Brigade banner with value 3 or more »."""
    other = filt.other if other is None else other
    words = ["other"] if other else []
    tail: list[str] = []
    for term in filt.terms:
        if isinstance(term, ValueTerm):
            lo, hi = term.min, term.max
            if lo is not None and hi is not None:
                tail.append(f"with value {lo}" if lo == hi else f"with value {lo} to {hi}")
            elif lo is not None:
                tail.append(f"with value {lo} or more")
            else:
                tail.append(f"with value {hi} or less")
            continue
        assert isinstance(term, AttrTerm)
        vals = list(term.values)
        if term.attr == "colour":
            words.append(("non-" + vals[0] if len(vals) == 1 else "neither " + _or(vals, "nor"))
                         if term.negated else _or(vals))
        elif term.attr == "keyword":
            kws = [_keyword(v) for v in vals]
            if term.negated:
                tail.append("without " + _or(kws, "or"))
            else:
                words.append(_or(kws))
        elif term.attr == "banner":
            tail.append(("outside the " if term.negated else "of the ") + _or(vals) + " banner")
        else:
            quoted = _or([_quote(v) for v in vals])
            tail.append(("not named " if term.negated else "named ") + quoted)
    words.append("cards" if plural else "card")
    return " ".join(words + tail)


QUANTITY_WORDS = {">=": "at least", "<=": "at most", "=": "exactly"}


def _quantity(op: str, n: int) -> tuple[str, int, bool]:
    return quantity(op, n, QUANTITY_WORDS)


def _condition(cond: Comparison) -> str:
    count = cond.count
    words, n, negative = _quantity(cond.op, cond.value)
    plural = n != 1
    if count.kind == "cards":
        subject = SUBJECT[count.zone]
        if cond.op == "=" and n == 0:
            return f"{subject} holds no {card_noun(count.filter, False)}"
        verb = "does not hold" if negative else "holds"
        return f"{subject} {verb} {words} {n} {card_noun(count.filter, plural)}"
    noun = "different colours" if plural else "different colour"
    if count.filter.is_empty:
        place = IN_ZONE[count.zone]
    else:
        place = f"among the {card_noun(count.filter, True)} {IN_ZONE[count.zone]}"
    verb = "there are not" if negative else ("there are" if plural else "there is")
    return f"{verb} {words} {n} {noun} {place}"


def _if(conds: tuple[Comparison, ...]) -> str:
    return " and ".join("if " + _condition(c) for c in conds)


def _per(count: Count, cap: int | None) -> str:
    if count.kind == "cards":
        text = f"for each {card_noun(count.filter, False)} {IN_ZONE[count.zone]}"
        unit = ("card", "cards")
    else:
        if count.filter.is_empty:
            text = f"for each different colour {IN_ZONE[count.zone]}"
        else:
            text = (f"for each different colour among the {card_noun(count.filter, True)} "
                    f"{IN_ZONE[count.zone]}")
        unit = ("colour", "colours")
    if cap is not None:
        text += f" ({cap} {unit[1] if cap > 1 else unit[0]} at most)"
    return text


def rule_to_english(rule: ScoreRule) -> str:
    amount = f"{rule.amount:+d}"
    if rule.per is None:
        return f"{amount} {_if(rule.conditions)}." if rule.conditions else f"{amount}."
    body = f"{amount} {_per(rule.per, rule.cap)}"
    if rule.conditions:
        lead = _if(rule.conditions)
        return f"{lead[0].upper()}{lead[1:]}: {body}."
    return f"{body}."


def _a(noun: str) -> str:
    """« a card », « an other card » → « another card »."""
    if noun.startswith("other "):
        return "an" + noun
    return ("an " if noun.lstrip("*")[:1].lower() in "aeiou" else "a ") + noun


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def action_to_english(action: object) -> str:
    legendary = _keyword("legendaire")
    if isinstance(action, Draw):
        return f"Draw {_cards(action.n)}, then put {_cards(action.n)} from your hand under your deck."
    if isinstance(action, Look):
        return (f"Look at the top {action.n} cards of your deck, take {action.take} into your hand, "
                f"then put the others and {_cards(action.take)} from your hand under your deck.")
    if isinstance(action, (Recover, Swap)):
        other = action.zone in (Zone.DISCARDS, Zone.CIMETIERE)
        noun = card_noun(action.filter, False, other=other)
        if isinstance(action, Recover):
            return (f"Take {_a(noun)} {OF_ZONE[action.zone]} into your hand, then put a card "
                    f"from your hand under your deck.")
        return (f"Swap a non-{legendary} card from your hand with {_a(noun)} "
                f"{OF_ZONE[action.zone]}; yours goes to your discard pile.")
    if isinstance(action, ForceDiscard):
        kind = "card" if action.n == 1 else "cards"
        return (f"Your opponent discards {action.n} non-{legendary} {kind} of their choice, "
                f"then draws as many.")
    if isinstance(action, Reveal):
        if action.target == "hand":
            return "Your opponent shows you their hand."
        return "Your opponent shows you the top card of their deck."
    if isinstance(action, Bury):
        top = "the top card" if action.n == 1 else f"the top {action.n} cards"
        whose = "of your opponent's deck into their" if action.opponent else "of your deck into your"
        return f"Put {top} {whose} discard pile (a {legendary} card goes under the deck)."
    raise TypeError(f"not an action: {action!r}")


def effect_to_english(effect: Effect) -> str:
    """The card text in English: one line per score rule, then « **Défausse**: » and the actions."""
    lines = [rule_to_english(r) for r in effect.score]
    if effect.on_discard:
        lines.append(_keyword("defausse") + ": "
                     + " ".join(action_to_english(a) for a in effect.on_discard))
    return "\n".join(lines)
