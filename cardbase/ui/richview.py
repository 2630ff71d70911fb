"""Card texts with markup (docs/rich-text.md) shown styled in the app, never interpreted.

Each run of text goes through ``common.plain`` (the app's one escaping of user text), then gets
the emphasis the markup asked for; a symbol becomes a small badge. Nothing a user typed is ever
handed to Markdown or HTML as such: a card text ``_x_`` or ``<b>`` shows exactly that.
"""

from __future__ import annotations

from cardbase.catalog.richtext import NBSP, Span, has_markup, parse
from cardbase.ui.common import plain

# Streamlit's named colours for the colours the seed games print (others: a grey badge)
_NAMED = {"rouge": "red", "bleu": "blue", "vert": "green", "orange": "orange", "violet": "violet",
          "gris": "gray", "noir": "gray"}


def game_keywords(game: str, card_type: str | None = None) -> tuple[str, ...]:
    """The keywords the card's template makes bold (``bold_keywords``), so that the app's text
    shows in bold what the printed card shows in bold; none when the template cannot be read."""
    from cardbase.errors import CardbaseError
    from cardbase.outputs.printing import template_for

    try:
        return template_for(game, card_type).bold_keywords
    except (CardbaseError, OSError, ValueError):
        return ()


def rich_markdown(text: str | None, keywords: tuple[str, ...] = ()) -> str:
    """Markdown showing ``text`` styled: bold, italic, line breaks and symbol badges."""
    if not text:
        return ""
    if not has_markup(text) and not keywords:
        return plain(text)
    parsed = parse(text, keywords=keywords)
    if parsed.problems:  # shown exactly as written, like the print does
        return plain(text)
    out: list[str] = []
    for item in parsed.items:
        if isinstance(item, Span):
            for k, line in enumerate(item.text.replace(NBSP, " ").split("\n")):
                if k:
                    out.append("  \n")
                if not line.strip():  # spaces between runs: one, never an indented code block
                    out.append(" " if line else "")
                    continue
                lead = " " if line[:1].isspace() else ""
                trail = " " if line[-1:].isspace() else ""
                body = plain(line.strip())
                if item.bold:
                    body = f"**{body}**"
                elif item.italic:
                    body = f"*{body}*"
                out.append(lead + body + trail)
        else:
            name = item.name.split(":", 1)[-1] if item.name.startswith("sticker:") else item.name
            colour = _NAMED.get(name.lower(), "gray")
            out.append(f":{colour}-background[{plain(name)}]")
    return "".join(out)
