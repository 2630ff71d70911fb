"""French card text generated from the AST, so the printed text always says what the engine does."""

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

# feminine singular, feminine plural ("carte" is feminine)
COLOUR_ADJ = {
    "rouge": ("rouge", "rouges"), "jaune": ("jaune", "jaunes"), "bleu": ("bleue", "bleues"),
    "orange": ("orange", "orange"), "vert": ("verte", "vertes"), "marron": ("marron", "marron"),
    "violet": ("violette", "violettes"), "rose": ("rose", "roses"), "noir": ("noire", "noires"),
    "blanc": ("blanche", "blanches"), "gris": ("grise", "grises"),
}
KEYWORD_PRINTED = {"foule": "Foule", "defausse": "Défausse", "legendaire": "Légendaire"}

IN_ZONE = {
    Zone.HAND: "dans votre main", Zone.DISCARDS: "dans votre défausse",
    Zone.OPPONENT_DISCARDS: "dans la défausse adverse", Zone.CIMETIERE: "dans le Cimetière",
    Zone.DECK: "dans votre deck",
}
SUBJECT = {
    Zone.HAND: "votre main", Zone.DISCARDS: "votre défausse",
    Zone.OPPONENT_DISCARDS: "la défausse adverse", Zone.CIMETIERE: "le Cimetière",
    Zone.DECK: "votre deck",
}
OF_ZONE = {
    Zone.HAND: "de votre main", Zone.DISCARDS: "de votre défausse",
    Zone.OPPONENT_DISCARDS: "de la défausse adverse", Zone.CIMETIERE: "du Cimetière",
    Zone.DECK: "de votre deck",
}


def _colour(key: str, plural: bool) -> str:
    forms = COLOUR_ADJ.get(key)
    if forms:
        return forms[1] if plural else forms[0]
    return key + ("s" if plural and not key.endswith("s") else "")


def _keyword(key: str) -> str:
    return KEYWORD_PRINTED.get(key, key[:1].upper() + key[1:])


def _quote(text: str) -> str:
    """A name as the card text quotes it; characters that are card-text markup (docs/rich-text.md)
    escaped, so that a card named « Étoile* » or « a {b} » prints as named, not as markup."""
    from cardbase.text import escape

    return f"« {escape(text)} »"


def _or(items: list[str], word: str = "ou") -> str:
    """``a, b ou c`` (the English text joins with its own ``word``)."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def _ni(items: list[str]) -> str:
    return "ni " + " ni ".join(items)


def card_noun(filt: Filter, plural: bool, *, other: bool | None = None) -> str:
    """« autre carte rouge Foule du fanion Brigade de valeur 3 ou plus »."""
    other = filt.other if other is None else other
    words = []
    if other:
        words.append("autres" if plural else "autre")
    words.append("cartes" if plural else "carte")
    tail: list[str] = []
    for term in filt.terms:
        if isinstance(term, ValueTerm):
            lo, hi = term.min, term.max
            if lo is not None and hi is not None:
                tail.append(f"de valeur {lo}" if lo == hi else f"de valeur {lo} à {hi}")
            elif lo is not None:
                tail.append(f"de valeur {lo} ou plus")
            else:
                tail.append(f"de valeur {hi} ou moins")
            continue
        assert isinstance(term, AttrTerm)
        vals = list(term.values)
        if term.attr == "colour":
            adj = [_colour(v, plural) for v in vals]
            words.append(("non " + adj[0] if len(adj) == 1 else _ni(adj)) if term.negated
                         else _or(adj))
        elif term.attr == "keyword":
            kws = [_keyword(v) for v in vals]
            words.append("sans " + (kws[0] if len(kws) == 1 else " ni ".join(kws)) if term.negated
                         else _or(kws))
        elif term.attr == "banner":
            names = _or(vals)
            tail.append(("hors du fanion " if term.negated else "du fanion ") + names)
        else:
            quoted = [_quote(v) for v in vals]
            named = "nommées" if plural else "nommée"
            tail.append((f"non {named} " if term.negated else f"{named} ") + _or(quoted))
    return " ".join(words + tail)


QUANTITY_WORDS = {">=": "au moins", "<=": "au plus", "=": "exactement"}


def quantity(op: str, n: int, words: dict[str, str] = QUANTITY_WORDS) -> tuple[str, int, bool]:
    """(words, number shown, negative sentence?) for a comparison, rewriting > and <; ``words``:
    the language's words for >=, <= and = (the English text gives its own)."""
    if op == ">":
        op, n = ">=", n + 1
    elif op == "<":
        op, n = "<=", n - 1
    return words.get(op, words["="]), n, op not in words


def _quantity(op: str, n: int) -> tuple[str, int, bool]:
    return quantity(op, n)


def _condition(cond: Comparison) -> str:
    count = cond.count
    words, n, negative = _quantity(cond.op, cond.value)
    plural = n > 1
    if count.kind == "cards":
        subject = SUBJECT[count.zone]
        if cond.op == "=" and n == 0:
            return f"{subject} ne contient aucune {card_noun(count.filter, False)}"
        verb = "ne contient pas" if negative else "contient"
        return f"{subject} {verb} {words} {n} {card_noun(count.filter, plural)}"
    noun = "couleurs différentes" if plural else "couleur différente"
    if count.filter.is_empty:
        place = IN_ZONE[count.zone]
    else:
        place = f"parmi les {card_noun(count.filter, True)} {OF_ZONE[count.zone]}"
    verb = "il n'y a pas" if negative else "il y a"
    return f"{verb} {words} {n} {noun} {place}"


def _si(conds: tuple[Comparison, ...]) -> str:
    parts = []
    for c in conds:
        text = _condition(c)
        parts.append(("s'" + text) if text.startswith("il ") else "si " + text)
    return " et ".join(parts)


def _per(count: Count, cap: int | None) -> str:
    if count.kind == "cards":
        text = f"pour chaque {card_noun(count.filter, False)} {IN_ZONE[count.zone]}"
        unit = ("carte", "cartes")
    else:
        if count.filter.is_empty:
            text = f"pour chaque couleur différente {IN_ZONE[count.zone]}"
        else:
            text = (f"pour chaque couleur différente parmi les {card_noun(count.filter, True)} "
                    f"{OF_ZONE[count.zone]}")
        unit = ("couleur", "couleurs")
    if cap is not None:
        text += f" ({cap} {unit[1] if cap > 1 else unit[0]} au plus)"
    return text


def rule_to_french(rule: ScoreRule) -> str:
    amount = f"{rule.amount:+d}"
    if rule.per is None:
        if rule.conditions:
            return f"{amount} {_si(rule.conditions)}."
        return f"{amount}."
    body = f"{amount} {_per(rule.per, rule.cap)}"
    if rule.conditions:
        lead = _si(rule.conditions)
        return f"{lead[0].upper()}{lead[1:]} : {body}."
    return f"{body}."


def _cards(n: int) -> str:
    return f"{n} carte" if n == 1 else f"{n} cartes"


def action_to_french(action: object) -> str:
    if isinstance(action, Draw):
        return f"Piochez {_cards(action.n)}, puis placez {_cards(action.n)} de votre main sous votre deck."
    if isinstance(action, Look):
        return (f"Regardez les {action.n} premières cartes de votre deck, prenez-en {action.take} "
                f"en main, puis placez sous votre deck les autres et {_cards(action.take)} "
                f"de votre main.")
    if isinstance(action, (Recover, Swap)):
        other = action.zone in (Zone.DISCARDS, Zone.CIMETIERE)
        noun = card_noun(action.filter, False, other=other)
        if isinstance(action, Recover):
            return (f"Prenez en main une {noun} {OF_ZONE[action.zone]}, puis placez une carte "
                    f"de votre main sous votre deck.")
        return (f"Échangez une carte non Légendaire de votre main avec une {noun} "
                f"{OF_ZONE[action.zone]} ; la vôtre va dans votre défausse.")
    if isinstance(action, ForceDiscard):
        kind = "carte non Légendaire" if action.n == 1 else "cartes non Légendaires"
        return (f"Votre adversaire défausse {action.n} {kind} de son choix, "
                f"puis en pioche autant.")
    if isinstance(action, Reveal):
        if action.target == "hand":
            return "Votre adversaire vous montre sa main."
        return "Votre adversaire vous montre la première carte de son deck."
    if isinstance(action, Bury):
        top = "la première carte" if action.n == 1 else f"les {action.n} premières cartes"
        if action.opponent:
            return (f"Placez {top} du deck adverse dans sa défausse "
                    f"(une carte Légendaire va sous le deck).")
        return (f"Placez {top} de votre deck dans votre défausse "
                f"(une carte Légendaire va sous le deck).")
    raise TypeError(f"not an action: {action!r}")


def effect_to_french(effect: Effect) -> str:
    """The card text: one line per score rule, then « Défausse : » and the actions in order."""
    lines = [rule_to_french(r) for r in effect.score]
    if effect.on_discard:
        lines.append("Défausse : " + " ".join(action_to_french(a) for a in effect.on_discard))
    return "\n".join(lines)
