"""Rich card text (docs/rich-text.md): the markup parser, its problems, and the one renderer."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from cardbase.catalog import richtext
from cardbase.domain import CardDef
from cardbase.outputs.printing import RenderOptions, load_template, render_card
from cardbase.outputs.printing.textfit import fit_text
from cardbase.catalog.richtext import NBSP, Span, Symbol, SymbolContext, parse, plain

CTX = SymbolContext(colours={"rouge": "#c0392b", "bleu": "#2e6fb7"}, declared={"etoile": "★"})


def test_markup_gives_styled_runs_and_symbols() -> None:
    parsed = parse("**Défausse** : +1 par carte {rouge}, *vite*~!", CTX)
    assert parsed.problems == ()
    assert parsed.items == (
        Span("Défausse", bold=True), Span(" : +1 par carte "),
        Symbol("colour", "rouge", "#c0392b"), Span(", "), Span("vite", italic=True),
        Span(NBSP + "!"),
    )


def test_sticker_symbols_value_and_colour() -> None:
    items = parse("{sticker:12} {sticker:bleu} {sticker:coeur} {etoile}", CTX).items
    symbols = [i for i in items if isinstance(i, Symbol)]
    assert [(s.kind, s.value) for s in symbols] == [
        ("value", "12"), ("sticker", "goutte"), ("sticker", "coeur"), ("glyph", "★")]


def test_escapes_and_line_breaks() -> None:
    parsed = parse(r"5 \* 2 \{x\} a\\b\nsuite \~", CTX)
    assert parsed.problems == ()
    assert parsed.plain == "5 * 2 {x} a\\b\nsuite ~"
    assert richtext.escape("**x** {y}") == r"\*\*x\*\* \{y\}"
    assert parse(richtext.escape("a *b* {c} ~ \\"), CTX).plain == "a *b* {c} ~ \\"


def test_every_problem_is_listed_at_once_with_its_position() -> None:
    problems = parse("**gras {inconnu} *ital } {ouvert", CTX, where="NP1-007").problems
    codes = [p.code for p in problems]
    assert codes == ["richtext.unclosed_bold", "richtext.unknown_symbol", "richtext.unclosed_italic",
                     "richtext.stray_brace", "richtext.unclosed_brace"]
    assert problems[0].where == "NP1-007, caractère 1"
    assert problems[1].where == "NP1-007, caractère 8"
    assert "inconnu" in problems[1].message and "rouge" in problems[1].fix


def test_plain_text_is_what_search_matches() -> None:
    assert plain("Inflige 3 **dégâts** {rouge}") == "Inflige 3 dégâts rouge"
    assert plain("<b>brut</b> [x] $2 @ _") == "<b>brut</b> [x] $2 @ _"  # not our markup: kept


def test_keywords_bold_only_with_a_capital_initial_r11() -> None:
    """NesPanini ruling R11: « carte Foule » is the keyword, « votre défausse » the pile."""
    items = parse("+1 par carte Foule dans votre défausse. Défausse : rien.",
                  keywords=["Foule", "Défausse"]).items
    bold = [i.text for i in items if isinstance(i, Span) and i.bold]
    assert bold == ["Foule", "Défausse"]


def _card(text: str, **kw) -> CardDef:
    base = dict(id=1, game="nespanini", edition="NP1", number=7, set_size=60, name="Banc",
                value=3, colour="rouge", effect_text=text)
    base.update(kw)
    return CardDef(**base)


def _effect_box(img: Image.Image) -> Image.Image:
    w, h = img.size
    return img.crop((int(w * 0.06), int(h * 0.63), int(w * 0.94), int(h * 0.86)))


def test_bold_keyword_and_colour_symbol_are_drawn() -> None:
    template = load_template("nespanini")
    opts = RenderOptions(dpi=150, fingerprint=False)
    plain_img = render_card(_card("Gagnez 1 point par carte rouge."), template, opts)
    rich_img = render_card(_card("Gagnez 1 point par carte {rouge}."), template, opts)
    # the colour disc puts the template's red inside the text box, plain text does not
    red = Image.new("RGB", (1, 1), template.colours["rouge"]).getpixel((0, 0))

    def reds(img: Image.Image) -> int:
        box = np.asarray(_effect_box(img), dtype=int)
        return int((np.abs(box - np.array(red)).sum(axis=2) < 40).sum())

    assert reds(rich_img) - reds(plain_img) > 20
    # bold ink is heavier than regular ink for the same words
    light = render_card(_card("Texte normal ici"), template, opts)
    heavy = render_card(_card("**Texte normal ici**"), template, opts)

    def ink(img: Image.Image) -> int:
        return int((np.asarray(_effect_box(img).convert("L")) < 100).sum())

    assert ink(heavy) > ink(light) * 1.15


def test_markup_characters_never_print_and_broken_markup_prints_as_written() -> None:
    template = load_template("nespanini")
    opts = RenderOptions(dpi=150, fingerprint=False)
    same_a = render_card(_card("Texte **fort**"), template, opts)
    same_b = render_card(_card("Texte **fort"), template, opts)  # unclosed: printed as written
    assert same_a.tobytes() != same_b.tobytes()
    escaped = render_card(_card(r"5 \* 2"), template, opts)
    literal = render_card(_card("5 * 2"), template, RenderOptions(dpi=150, fingerprint=False))
    assert escaped.tobytes() == literal.tobytes()


def test_fitting_measures_rich_runs_and_never_splits_a_symbol() -> None:
    template = load_template("nespanini")
    ctx = richtext.context_for(template)
    text = " ".join(["**Mot**~{rouge}"] * 12)
    parsed = parse(text, ctx)
    from cardbase.outputs.printing.textfit import Paragraph

    layout = fit_text([Paragraph(parsed.plain, rich=parsed)], 300, 400, size_pt=10,
                      min_size_pt=5, dpi=150)
    for line in layout.lines:
        assert line.width <= 300 + 1e-6
        # a glued « Mot + symbol » word is never cut: each line holds whole pairs
        assert line.text.count("Mot") == line.text.count("\ufffc")
    bold_w = fit_text([Paragraph("x", rich=parse("**WWWW WWWW**"))], 1000, 100, size_pt=10,
                      min_size_pt=5, dpi=150).lines[0].width
    regular_w = fit_text([Paragraph("WWWW WWWW")], 1000, 100, size_pt=10, min_size_pt=5,
                         dpi=150).lines[0].width
    assert bold_w > regular_w  # widths are those of the bold face


def test_template_declares_symbols_and_bold_keywords(tmp_path) -> None:
    (tmp_path / "jeu.toml").write_text(
        'extends = "poker"\nname = "jeu"\nbold_keywords = ["Rage"]\n[symbols]\nepee = "⚔"\n',
        encoding="utf-8")
    template = load_template(str(tmp_path / "jeu.toml"))
    assert template.bold_keywords == ("Rage",)
    ctx = richtext.context_for(template)
    assert parse("{epee}", ctx).items == (Symbol("glyph", "epee", "⚔"),)
    (tmp_path / "bad.toml").write_text(
        'extends = "poker"\nbold_keywords = "Rage"\n[symbols]\nsticker = "x"\nimg = "absent.png"\n',
        encoding="utf-8")
    try:
        load_template(str(tmp_path / "bad.toml"))
    except Exception as exc:  # every problem of the file at once
        problems = getattr(exc, "problems", [])
        assert len(problems) == 3, problems
    else:
        raise AssertionError("a bad template was accepted")


def test_app_shows_the_text_styled_but_never_interprets_what_users_typed() -> None:
    from cardbase.ui.richview import rich_markdown

    shown = rich_markdown("**Défausse** : 1 carte {rouge} *vite*\\nfin")
    assert shown == "**Défausse** \\: 1 carte :red-background[rouge] *vite*  \nfin"
    # hostile text stays literal: no emphasis, link or HTML comes out of a card's text
    assert rich_markdown("_x_") == "\\_x\\_"
    assert rich_markdown("<b>a</b>") == "\\<b\\>a\\<\\/b\\>"
    assert rich_markdown("**[lien](javascript:x)**") == "**\\[lien\\]\\(javascript\\:x\\)**"
    assert rich_markdown("**pas fermé") == "\\*\\*pas fermé"  # broken markup: as written


def test_tts_description_is_the_text_as_it_reads() -> None:
    from cardbase.outputs.tts import saved_object_doc

    cards = [_card("Inflige 3 **dégâts** {rouge}~!"), _card("5 \\* 2", number=8)]
    doc = saved_object_doc("x", cards, [100, 101], {1: ("face.png", 10, 7)}, "back.png")
    states = doc["ObjectStates"][0]["ContainedObjects"]
    assert [s["Description"] for s in states] == ["Inflige 3 dégâts rouge !", "5 * 2"]


HOSTILE = ["Braisillon _petit_ *rouge*", "![x](http://host.invalid/pixel.png)",
           "[Clique ici](http://host.invalid/)", "<img src=x onerror=alert(1)>",
           ":red[rouge] :material/home: $x^2$ `code`", "# titre", "1. liste", "> citation",
           "www.host.invalid", "&amp; &lt;", "~~barré~~", "| a | b |"]


def test_styled_app_text_renders_only_the_emphasis_it_asked_for() -> None:
    """Hostile text in a bold run: Markdown shows it bold and literal, with no link, image,
    heading, list, code or HTML of its own."""
    import html as htmllib
    import re

    from markdown_it import MarkdownIt

    from cardbase.ui.richview import rich_markdown

    md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    for text in HOSTILE:
        html = md.render(rich_markdown("**" + richtext.escape(text) + "** fin"))
        for tag in ("<em", "<a ", "<img", "<h1", "<ol", "<blockquote", "<code", "<s>", "<del",
                    "<table"):
            assert tag not in html, (text, html)
        assert html.count("<strong>") == 1, (text, html)
        visible = htmllib.unescape(re.sub(r"<[^>]+>", "", html)).replace("\u2060", "")
        assert visible.split() == (text + " fin").split(), (text, html)


_MARKUP_TEXT = st.lists(st.sampled_from(list("ab *{}~\\\n:") + ["rouge", "sticker:3", "**"]),
                        max_size=40).map("".join)


@given(_MARKUP_TEXT)
def test_any_text_parses_without_failing_and_escaping_is_exact(text: str) -> None:
    parsed = parse(text, CTX)
    assert isinstance(parsed.problems, tuple)  # problems listed, never an exception
    for p in parsed.problems:
        assert p.where.startswith("caractère ")
    assert parse(richtext.escape(text), CTX).plain == text  # any text can be written literally
    assert parse(richtext.escape(text), CTX).problems == ()


def test_generated_effect_text_quotes_names_literally() -> None:
    """A card name quoted by the effect language's French text is literal text, not markup: « Étoile* »
    used to open an italic that never closed (the text then printed raw, backslashes and all)."""
    from cardbase.games.effects import effect_to_french, parse_effect
    from cardbase.catalog.richtext import parse

    for name in ("Étoile*", "a {b}", "x~y"):
        text = effect_to_french(parse_effect(f'score: +2 per card in hand where name = "{name}"'))
        parsed = parse(text)
        assert parsed.problems == ()
        assert parsed.plain == f"+2 pour chaque carte nommée « {name} » dans votre main."


def test_english_effect_text_uses_the_markup_and_keeps_the_games_terms() -> None:
    """NesPanini ruling R13: the English text keeps the game's terms as its rules name them, keywords bold
    through the markup; every NP1 effect gives a text without markup problems."""
    from pathlib import Path

    from cardbase.storage.datafiles import load_edition_file
    from cardbase.games.effects import effect_to_english, parse_effect
    from cardbase.catalog.richtext import parse

    def en(src: str) -> str:
        return effect_to_english(parse_effect(src))

    assert en("defausse: force_discard 1") == ("**Défausse**: Your opponent discards 1 "
                                               "non-**Légendaire** card of their choice, then draws as many.")
    assert en("score: +1 per card in hand where other and keyword = foule max 3") == (
        "+1 for each other **Foule** card in your hand (3 cards at most).")
    assert en("defausse: recover from discards where colour = bleu").startswith(
        "**Défausse**: Take another bleu card from your discard pile")
    assert en("score: -2 if count(hand where other and colour = jaune) = 0") == (
        "-2 if your hand holds no other jaune card.")
    assert parse(en('score: +2 per card in hand where name = "a {b}*"')).plain == (
        "+2 for each card named “a {b}*” in your hand.")
    root = Path(__file__).resolve().parents[1]
    _, cards = load_edition_file(root / "data" / "editions" / "NP1.toml")
    texts = [en(c["effect"]) for c in cards if c.get("effect")]
    assert len(texts) > 40
    for text in texts:
        parsed = parse(text)
        assert parsed.problems == (), text
        assert "a other" not in parsed.plain and "**" not in parsed.plain


def test_cards_show_in_english_gives_the_effects_english_text(cli_env) -> None:
    from typer.testing import CliRunner

    from cardbase.cli import app

    res = CliRunner().invoke(app, ["--lang", "en", "cards", "show", "NP1-002"])
    assert res.exit_code == 0, res.output
    assert ("effect text (English): +1 for each other rouge card in your hand (3 cards at most)."
            in res.output)
    res = CliRunner().invoke(app, ["cards", "show", "NP1-002"])
    assert "anglais" not in res.output and "English" not in res.output
