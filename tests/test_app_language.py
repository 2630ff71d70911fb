"""One language everywhere: a walk through every page, mode and table of the app, in French and in
English, that fails on a word of the other language outside the cards' own data.

Everything a person reads is collected from the page's elements (titles, Markdown, captions, boxes,
widget labels, options as formatted, placeholders, helps, metrics, expander and tab labels,
dataframe headers and text cells, chart titles and data) — except the data designers wrote (card
names and texts, game, edition and deck names) and the game terms the rules write in French.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from sqlmodel import select
from test_app import SQLITE, STARTER, app_env, no_exception, page_test  # noqa: F401 - fixture

from cardbase.storage import db
from cardbase.catalog import gamesdata
from cardbase.storage.models import Card, Deck, Edition, Game
from cardbase.outputs.tts import slug

pytestmark = [SQLITE, pytest.mark.usefixtures("app_env")]

# Words that never belong in the French app (raw codes of bots, endings, fields and games too) …
ENGLISH = {
    "the", "and", "with", "without", "from", "your", "you", "is", "are", "of", "to", "for", "in",  # not "on": a French word too
    "none", "true", "false", "null", "nan", "upload", "choose", "select", "press", "enter", "submit",
    "player", "players", "win", "wins",
    "loss", "losses", "ties", "rate", "games", "game", "cards", "card", "turn", "rounds", "mean",
    "yes", "no", "int", "text", "choice", "bool", "str", "float", "value", "values", "damage",
}
# … nor in the English app.
FRENCH = {
    "le", "la", "les", "des", "du", "une", "avec", "sans", "pour", "aucun", "aucune", "et", "est",
    "carte", "cartes", "partie", "parties", "joueur", "joueurs", "équipe", "choisir", "oui", "non",
    "moyenne", "victoire", "victoires", "défaite", "défaites", "égalité", "entier", "texte", "choix",
    "jeu", "jeux", "édition", "éditions", "terroriste", "terroristes", "manches", "manche", "pioche",
}
# Raw codes shown instead of words: games (in both languages), bots and field types (words of the
# English app, raw codes in the French one).
CODES = {"nespanini", "ctterror", "pushluck", "overkill", "overseers", "Terror"}  # Terror: a team's machine name
RAW_CODES = {"target", "optimal", "random", "greedy", "belief", "int", "choice"}
# Terms kept as the rules write them, in every language (game terms, proper nouns of the games).
GAME_TERMS = ("Foule", "Légendaire", "Légendaires", "Défausse", "Cimetière", "OVERKILL", "Overseers", "Overseer",
              "NesPanini", "CT vs Terror", "15 en un tour", "Tabletop Simulator", "cardbase", "PDF", "CSV",
              "TOML", "JSON", "PNG", "Elo", "ΔE", "ISMCTS", "MCTS")
CODE_COLUMNS = {"Code"}
CODE_LABEL = "Code"  # what a column that shows codes through labels counts as
_WORD = re.compile(r"[^\W\d_]+(?:_[^\W\d_]+)*", re.UNICODE)
_SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")  # a raw key (kept_rate, mean_margin) shown as a name
_DOT_DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")  # 3.48 in the French app (not NP1.2 or v1.0.3)
_TEXT_FIELDS = ("body", "label", "help", "title", "placeholder", "captions", "text", "delta", "caption")


# --------------------------------------------------------------------------- collecting

def _proto_strings(proto: Any) -> Iterator[str]:
    """The strings of an element that a person reads (not ids, keys, icons or raw values)."""
    for field, value in proto.ListFields():
        name = field.name
        if name in _TEXT_FIELDS:
            yield from ([value] if isinstance(value, str) else [v for v in value if isinstance(v, str)])
        elif name == "options":
            for opt in value:
                yield opt if isinstance(opt, str) else getattr(opt, "content", "")
        elif name == "spec" and isinstance(value, str):
            yield from _chart_strings(value)
        elif name == "columns" and isinstance(value, str):  # a dataframe's column config (labels, helps)
            try:
                config = json.loads(value)
            except ValueError:
                continue
            for col in config.values():
                if isinstance(col, dict):
                    yield from (str(col[k]) for k in ("label", "help") if col.get(k))
        elif field.message_type is not None and hasattr(value, "ListFields") and name not in (
                "arrow_data", "data", "datasets"):
            yield from _proto_strings(value)


def _chart_strings(spec: str) -> Iterator[str]:
    try:
        data = json.loads(spec)
    except ValueError:
        return

    def walk(node: Any, key: str = "") -> Iterator[str]:
        if isinstance(node, dict):
            for k, v in node.items():
                yield from walk(v, k)
        elif isinstance(node, list):
            for v in node:
                yield from walk(v, key)
        elif isinstance(node, str) and key in ("title", "text", "format"):
            if key == "format":
                yield f"format:{node}"
            elif not node.startswith(("datum", "__")):
                yield node

    yield from walk(data)


def _relabelled(proto: Any) -> dict[str, str]:
    """The columns a dataframe shows under another label (its column config), raw name → label."""
    try:
        config = json.loads(proto.columns or "{}")
    except ValueError:
        return {}
    out = {k: v["label"] for k, v in config.items() if isinstance(v, dict) and v.get("label")}
    for k, v in config.items():  # a choice column shows its options through their own labels
        options = ((v or {}).get("type_config") or {}).get("options") if isinstance(v, dict) else None
        if options and all(isinstance(o, dict) and o.get("label") for o in options):
            out[k] = CODE_LABEL
    return out


def _arrow_strings(payload: bytes, labels: dict[str, str] | None = None, *, chart: bool = False,
                   drawn: set[str] | None = None) -> Iterator[str]:
    """Column names and text cells of a table or chart's data; ``float:`` marks a decimal column.
    ``drawn``: the columns a chart draws (the others are never seen)."""
    try:
        table = pa.ipc.open_stream(payload).read_all()
    except (pa.ArrowInvalid, OSError):
        return
    labels = labels or {}
    for name, column in zip(table.column_names, table.columns, strict=True):
        if drawn is not None and name not in drawn:
            continue
        if not name.startswith("__") and not re.fullmatch(r"\d+", name) and name not in labels:
            yield name
        if name in CODE_COLUMNS or labels.get(name) in CODE_COLUMNS:  # a code under the header « Code »
            continue
        if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
            yield from (v for v in column.to_pylist() if isinstance(v, str))
        elif pa.types.is_floating(column.type):
            values = [v for v in column.to_pylist() if v is not None and v == v]
            if any(v != int(v) for v in values):
                yield f"{'chartfloat' if chart else 'float'}:{name}"


def _chart_fields(spec: str) -> tuple[set[str], set[str]]:
    """The data columns a chart shows under a title of their own, and those it draws at all."""
    out: set[str] = set()
    used: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("field"), str):
                used.add(node["field"])
                if "title" in node:
                    out.add(node["field"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    try:
        walk(json.loads(spec))
    except ValueError:
        return out, used
    return out, used


def _chart_decimal(spec: str) -> str | None:
    try:
        config = json.loads(spec).get("config") or {}
    except (ValueError, AttributeError):
        return None
    return ((config.get("locale") or {}).get("number") or {}).get("decimal")


def _nothing_chosen(box: Any) -> bool:
    """A selectbox showing its placeholder (None may be one of its options, such as « Tous »)."""
    if box.value is not None:
        return False
    try:
        return str(box.format_func(None)) not in box.options
    except Exception:
        return True


def _html_strings(body: str) -> list[str]:
    from html.parser import HTMLParser

    found: list[str] = []

    class Text(HTMLParser):
        skip = False

        def handle_starttag(self, tag: str, attrs: list) -> None:
            self.skip = tag == "style"
            found.extend(v for k, v in attrs if k == "title" and v)

        def handle_endtag(self, tag: str) -> None:
            self.skip = False

        def handle_data(self, data: str) -> None:
            if not self.skip and data.strip():
                found.append(data)

    Text(convert_charrefs=True).feed(body)
    return found


def visible_strings(at: Any) -> list[str]:
    out: list[str] = []
    for node in at._tree:
        proto = getattr(node, "proto", None)
        if proto is None:
            continue
        kind = getattr(node, "type", "")
        if kind == "html":  # what a person reads of HTML: its text and tooltips, not its markup
            out += _html_strings(proto.body)
            continue
        mine = [s for s in _proto_strings(proto) if isinstance(s, str) and s]
        if kind == "dataframe":
            out += list(_arrow_strings(proto.arrow_data.data, _relabelled(proto)))
        if kind in ("arrow_vega_lite_chart", "vega_lite_chart"):
            found = []
            titled, drawn = _chart_fields(proto.spec)
            titled_names = {name: "" for name in titled}
            for ds in proto.datasets:
                found += list(_arrow_strings(ds.data.data, titled_names, chart=True, drawn=drawn))
            if proto.HasField("data"):
                found += list(_arrow_strings(proto.data.data, titled_names, chart=True, drawn=drawn))
            # a chart writes its numbers with its own locale: a French one says so in its spec
            french = _chart_decimal(proto.spec) == ","
            mine += [s.replace("chartfloat:", "float:") for s in found if not (french and s.startswith("chartfloat:"))]
            if french:
                mine = [s for s in mine if not s.startswith("format:")]
        out += mine
        if kind in ("multiselect",) and not proto.placeholder:
            out.append("Choose options")  # Streamlit's own English placeholder
        if kind == "selectbox" and not proto.placeholder and _nothing_chosen(node):
            out.append("Choose an option")
        if kind == "form" or (hasattr(proto, "form") and getattr(proto, "WhichOneof", None)
                              and proto.WhichOneof("type") == "form"):
            if proto.form.enter_to_submit:
                out.append("Press Enter to submit form")
    return out


def card_data(url: str) -> list[str]:
    """The texts designers wrote (shown as they wrote them in both languages), longest first."""
    engine = db.get_engine(url)
    out: set[str] = set()
    with db.session_scope(engine) as s:
        for c in s.exec(select(Card)):
            out |= {x for x in (c.name, c.effect_text, c.flavour, c.banner, c.card_type, c.rarity, c.colour,
                                c.effect) if x}
            out |= {str(k) for k in c.keywords}
            out |= {str(v) for v in (c.stats or {}).values() if isinstance(v, str)}
        for g in s.exec(select(Game)):
            out |= {x for x in (g.name, g.description) if x}
            out |= {x for f in g.fields or [] for x in (f.get("label"), f.get("label_en")) if x}
            out |= {str(k) for k in (g.keyword_limits or {})}
        for e in s.exec(select(Edition)):
            out |= {x for x in (e.name, e.description) if x}
            out.add(slug(e.name))  # a file or folder named after the edition
        for d in s.exec(select(Deck)):
            out |= {x for x in (d.name, d.description) if x}
    out |= set(GAME_TERMS) | set(gamesdata.known_templates())  # template files are named by designers
    from cardbase.games import registry  # games written as data (data/rules/) name themselves

    out |= {spec.title for spec in registry.REGISTRY.values() if getattr(spec, "title", None)}
    from cardbase.games.rulesdata.language import load_rules  # and name their zones and endings

    for spec in registry.REGISTRY.values():
        if getattr(spec, "rules_file", None):
            rules = load_rules(spec.rules_file)
            out |= set(rules.zones) | {e.name for e in rules.endings} | set(rules.counters)
    return sorted({" ".join(x.split()) for x in out}, key=len, reverse=True)


def _strip_data(text: str, data: list[str]) -> str:
    """``text`` without the data's names, each taken out as whole words only: a short French name
    (a zone « pli ») must not cut an English word (« Duplicate ») into pieces that read as French."""
    for item in data:
        if item in text:
            text = re.sub(r"(?<!\w)" + re.escape(item) + r"(?!\w)", " ", text)
    return text


def foreign_words(strings: list[str], lang: str, data: list[str]) -> list[str]:
    """Every word of the other language, raw code or badly written number, with its string."""
    found: list[str] = []
    bad = ENGLISH if lang == "fr" else FRENCH
    for raw in strings:
        if raw.startswith("float:"):
            if lang == "fr":
                found.append(f"decimal column {raw[6:]!r} left to Streamlit (shows a dot)")
            continue
        if raw.startswith("format:"):
            if lang == "fr" and re.search(r"\.\d|%.*\.", raw[7:]):
                found.append(f"chart format {raw[7:]!r} (a dot in French)")
            continue
        text = _strip_data(" ".join(raw.replace("\\", "").split()), data)
        text = re.sub(r"`[^`]*`", " ", text)  # code: the effect language, file names, commands
        text = re.sub(r":material/[a-z_]+:", " ", text)
        text = re.sub(r"<[^>]*>", " ", text)  # the tags and styles of a drawn HTML block
        words = _WORD.findall(text)
        hits = [w for w in words if w.lower() in bad or w in CODES]
        if lang == "fr":  # a bot or type code alone, or in brackets (« Place 1 (optimal) »), is a code
            hits += [w for w in RAW_CODES if text.strip() == w or f"({w})" in text]
        hits += _SNAKE.findall(text)
        if lang == "fr":
            hits += _DOT_DECIMAL.findall(text)
        if hits:
            found.append(f"{sorted(set(hits))} in {raw[:160]!r}")
    return found


# --------------------------------------------------------------------------- walking

Step = Callable[[Any], None]


def _set(**values: Any) -> Step:
    """Choose a mode (segmented control) or a value (selectbox) by its key."""
    def step(at: Any) -> None:
        for key, value in values.items():
            widget = next((n for n in at._tree if getattr(n, "key", None) == key), None)
            assert widget is not None, f"no widget {key}"
            widget.set_value(value)
        at.run()
    return step


def _type(key: str, text: str) -> Step:
    def step(at: Any) -> None:
        at.text_area(key=key).input(text).run()
    return step


def _click(key: str, **inputs: int) -> Step:
    """Set number inputs (to keep batches small), then click a button."""
    def step(at: Any) -> None:
        for k, v in inputs.items():
            at.number_input(key=k).set_value(v)
        at.button(key=key).click().run()
    return step


def _play_to_the_end(*prefixes: str, limit: int = 300) -> Step:
    """Play a table to its end: each time, click the first enabled button whose key starts with the
    first prefix that has one (so the final box and the end-of-game views are walked too)."""
    def step(at: Any) -> None:
        for _ in range(limit):
            buttons = [b for b in at.button if b.key and not b.disabled]
            pick = next((b for p in prefixes for b in buttons if b.key.startswith(p)), None)
            if pick is None:  # nothing left to click: the game is over and says so
                boxes = [x.value for x in [*at.success, *at.info, *at.warning, *at.error]]
                assert any(v.startswith(("Partie terminée", "Game over")) for v in boxes), boxes
                return
            pick.click().run()
            no_exception(at)
        raise AssertionError(f"the game with buttons {prefixes} did not end in {limit} clicks")
    return step


# (page, editor mode, steps): the page is checked after every step
WALK: list[tuple[str, bool, list[Step]]] = [
    ("cards", False, [_set(cards_view="table"), _set(cards_view="gallery")]),
    ("editor", True, [_set(ed_mode="new"), _set(ed_mode="import"), _set(ed_mode="export")]),
    ("editions", True, []),
    ("games_admin", True, [_set(ga_mode="new")]),
    ("decks", False, [_type("deck_paste", STARTER), _click("deck_load_list")]),
    ("printing", False, [_click("pr_go")]),
    ("stickers", True, []),
    ("playtest", False, [
        _click("pt_game_new"),
        _set(pt_mode="bot"), _click("pt_bot_game_new"),
        _set(pt_mode="batch"), _click("ptb_go", ptb_games=10),
        _set(pt_mode="duel"), _click("ptd_go", ptd_games=2),
        _set(pt_mode="ladder"), _set(pt_mode="balance"), _click("ptw_go", ptw_games=10, ptw_lo=1, ptw_hi=2),
    ]),
    ("playtest", False, [
        _set(pt_gamecode="overkill"), _click("ok_new", ok_initial_score=3),
        _play_to_the_end("ok_pass", "ok_atout_", "ok_draw"),
        _set(ok_mode="batch"), _click("okb_go", okb_games=4),
    ]),
    ("playtest", False, [
        _set(pt_gamecode="overseers"), _click("ovs_new"), _set(ovs_mode="batch"), _click("ovsb_go", ovsb_games=4),
    ]),
    ("playtest", False, [
        _set(pt_gamecode="pushluck"), _set(pl_advice=True), _click("pl_flip_0"),
        _play_to_the_end("pl_stop", "pl_flip_", "pl_reshuffle"),
        _set(pl_players=4), _set(pl_bot="optimal"), _click("pl_new"), _click("pl_cancel"),
        _set(pl_mode="variants"), _click("pl_compare"), _set(pl_mode="batch"),
        _click("plb_go", plb_games=4),
    ]),
    ("playtest", False, [
        _set(pt_gamecode="ctterror"), _click("ctt_new"), _play_to_the_end("ctt_act_"), _set(ctt_mode="batch"), _click("cttb_go", cttb_games=4),
    ]),
    ("playtest", False, [  # a game written as data: its table, its batches and its measures
        _set(pt_gamecode="huit"), _click("prt_huit_new"), _set(prt_huit_mode="batch"),
        _click("pgb_huit_go", pgb_huit_games=4), _click("pgb_huit_measures"),
    ]),
    ("games_admin", True, [_set(ga_pick="pushluck")]),  # a game's rules panel
]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(("page", "editor", "steps"), WALK,
                         ids=[f"{p}-{i}" for i, (p, _e, _s) in enumerate(WALK)])
def test_every_page_speaks_one_language(lang: str, page: str, editor: bool,
                                        steps: list[Step]) -> None:
    import streamlit as st

    data = card_data(os.environ["DATABASE_URL"])
    # the options chosen by the walk are matched by their labels, formatted in this process: in the
    # page's language
    st.session_state["lang"] = lang
    try:
        at = page_test(page, editor=editor, lang=lang).run()
        no_exception(at)
        problems = foreign_words(visible_strings(at), lang, data)
        for i, step in enumerate(steps):
            step(at)
            no_exception(at)
            problems += [f"step {i}: {p}" for p in foreign_words(visible_strings(at), lang, data)]
    finally:
        st.session_state["lang"] = "fr"
    assert not problems, "\n".join(dict.fromkeys(problems))


def test_the_walk_sees_what_a_person_reads() -> None:
    """The collector finds labels, options, metrics, headers and Streamlit's own English texts."""
    at = page_test("playtest", lang="fr")
    at.session_state["pt_mode"] = "batch"
    at.run()
    at.number_input(key="ptb_games").set_value(10)
    at.button(key="ptb_go").click().run()
    strings = visible_strings(at)
    assert "Parties" in strings  # a metric's label
    assert "Lancer" in " ".join(strings) or any("Lancer" in s for s in strings)
    assert foreign_words(["Choose an option", "3.48", "kept_rate", "le bot nespanini"], "fr", []) != []
    assert len(foreign_words(["Choose an option", "3.48", "kept_rate", "nespanini"], "fr", [])) == 4
    assert foreign_words(["Partie gagnée avec 3,5 %"], "fr", []) == []
    assert foreign_words(["Aucune carte"], "en", []) and not foreign_words(["No card"], "en", [])



# --------------------------------------------------------------------------- what the walk found

def test_tabletop_folder_is_a_full_path_of_the_players_computer() -> None:
    from cardbase.ui.printing import folder_url

    assert folder_url(r"C:\Users\moi\Documents\deck") == "file:///C:/Users/moi/Documents/deck/"
    assert folder_url("/home/moi/mon deck") == "file:///home/moi/mon%20deck/"
    assert folder_url("cardbase-tts/deck") is None and folder_url("") is None and folder_url("~/x") is None


def test_numbers_are_written_for_the_language() -> None:
    import streamlit as st

    from cardbase.ui.common import num, pct

    try:
        st.session_state["lang"] = "fr"
        assert (num(3.4812), num(12345.5, 1), num(-1.5, signed=True), num(7)) == ("3,48", "12\u202f345,5",
                                                                                  "-1,50", "7")
        assert (pct(0.0348), pct(1.008), pct(0.25, 0), pct(-0.1, signed=True)) == (
            "3,5\u00a0%", "100,8\u00a0%", "25\u00a0%", "-10,0\u00a0%")
        st.session_state["lang"] = "en"
        assert (num(3.4812), num(12345.5, 1), pct(0.0348)) == ("3.48", "12,345.5", "3.5%")
        assert num(None) == pct(float("nan")) == "—"
    finally:
        st.session_state["lang"] = "fr"


def test_a_declared_field_has_a_french_and_an_english_label(tmp_path) -> None:
    """``label`` (French) and ``label_en`` in data/games.toml, checked, stored, exported as written;
    the page, the editor and the printed card use the one of their language, the code stays the
    code."""
    from cardbase.catalog.gamesdata import check_declarations
    from cardbase.i18n import use_language
    from cardbase.outputs.printing.card import STAT_LABELS, stat_label

    decls, problems = check_declarations([{"name": "team_damage", "type": "int", "label": "Dégâts d'équipe",
                                           "label_en": "Team damage"}])
    assert not problems
    (decl,) = decls
    assert decl.as_dict() == {"name": "team_damage", "type": "int", "label": "Dégâts d'équipe",
                              "label_en": "Team damage"}
    assert (decl.label_in("fr"), decl.label_in("en")) == ("Dégâts d'équipe", "Team damage")
    _, bad = check_declarations([{"name": "x", "type": "int", "label_en": "y" * 81}])
    assert bad  # too long, like the French one
    # a field without an English label falls back on the printed name, then on the French label
    (plain,) = check_declarations([{"name": "zz_force", "type": "int", "label": "Force"}])[0]
    assert plain.label_in("en") == "Force"
    # the seeded games carry both labels; printing follows the language of the print
    with db.session_scope(db.get_engine(os.environ["DATABASE_URL"])) as s:
        fields = {f["name"]: f for f in gamesdata.get_game(s, "ctterror").fields}
        from cardbase.catalog import cards as catalog

        catalog.card_defs(s, game="ctterror", limit=1)
    assert fields["team_damage"]["label_en"] == "Team damage"
    assert STAT_LABELS["ctterror"]["team_damage"] == {"fr": "Dégâts d'équipe", "en": "Team damage"}
    with use_language("en"):
        assert stat_label("team_damage", "ctterror") == "Team damage"
    with use_language("fr"):
        assert stat_label("team_damage", "ctterror") == "Dégâts d'équipe"


def test_cards_page_names_declared_fields_in_english() -> None:
    at = page_test("cards", lang="en")
    at.session_state["cards_game"] = "ctterror"
    at.run()
    no_exception(at)
    shown = "\n".join(str(m.value) for m in at.markdown)
    assert "**Team damage**" in shown or "**Damage**" in shown, shown
    assert "team_damage" not in shown and "Dégâts" not in shown


def test_creating_an_edition_says_it_was_created() -> None:
    at = page_test("editions", editor=True).run()
    next(ti for ti in at.text_input if ti.label == "Code").input("NP2")
    [ti for ti in at.text_input if ti.label == "Nom"][-1].input("Deuxième édition")
    next(b for b in at.button if b.label == "Créer l'édition").click().run()
    no_exception(at)
    assert any("NP2" in s.value and "créée" in s.value for s in at.success), [s.value for s in at.success]
    assert at.selectbox(key="edn_pick").value == "NP2"  # the new edition, ready to edit


def test_none_agrees_with_what_is_missing() -> None:
    """« aucune » for cards (a discard pile, cards kept), « aucun » for atouts and decks."""
    from cardbase import i18n

    assert i18n.translate("fr", "common.none_f") == "aucune"
    assert i18n.translate("fr", "common.none") == "aucun"
    ui = (Path(__file__).resolve().parents[1] / "cardbase" / "ui")
    for name in ("playtest.py", "playtest_overseers.py"):
        text = (ui / name).read_text(encoding="utf-8")
        assert 't("common.none")' not in text, name  # both list cards there


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_whole_app_with_its_sidebar_speaks_one_language(lang: str) -> None:
    """The navigation script: the sidebar's language switch and password form (no English
    « Press Enter to submit form » under the password)."""
    from streamlit.testing.v1 import AppTest
    from test_app import APP

    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["lang"] = lang
    at.run()
    no_exception(at)
    strings = visible_strings(at)
    assert any(s in strings for s in ("Mot de passe éditeur", "Editor password", "Déverrouiller", "Unlock")), strings
    assert not foreign_words(strings, lang, card_data(os.environ["DATABASE_URL"]))


def test_data_names_are_taken_out_as_whole_words_only() -> None:
    assert _strip_data("Duplicate the pli", ["pli"]).split() == ["Duplicate", "the"]
    assert _strip_data("Le Huit (pli)", ["Le Huit", "pli"]).split() == ["(", ")"]
