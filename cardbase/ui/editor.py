"""Card editor: create, edit, duplicate and delete cards with a live preview and the effect checked
as you type; CSV/JSON import with a dry-run report first; export.

The form keeps what the user typed in widget state, with a shadow copy in ``ed_shadow`` that puts
it back when the page is left and opened again (Streamlit forgets the state of widgets that a run
does not draw); the card being edited is remembered only by its id and the version the edit
started from. The editor opens on the main game's first edition. A save made stale by someone else is refused by
``catalog.update_card`` and shown next to the saved values, with the user's input untouched.

A game that declares card fields (:mod:`cardbase.catalog.gamesdata`) gets one typed input per field — a
number input within the field's range, a list of its choices, a text input — in place of the raw
``stats`` table; their form keys are ``x_<field>`` and they are saved by name, so that the service
checks every value (type, range, required).
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import streamlit as st
from sqlmodel import select

from cardbase import access
from cardbase.catalog import cards as catalog
from cardbase.catalog import gamesdata
from cardbase.catalog import transfer
from cardbase.domain import CardDef
from cardbase.errors import CardbaseError, EffectError, StaleEditError
from cardbase.storage.models import Card, Edition, Game
from cardbase.catalog.richtext import plain as plain_text
from cardbase.text import canonical_colour
from cardbase.ui.common import (
    MAIN_GAME,
    editor_gate,
    is_editor,
    lang,
    plain,
    problems_table,
    render_def_png,
    session,
    show_error,
    t,
    tp,
)

TEXT_FIELDS = ("name", "colour", "banner", "rarity", "card_type", "keywords", "effect", "effect_text",
               "flavour", "art", "stats")
INT_FIELDS = ("number", "value", "copies")
FORM_FIELDS = INT_FIELDS + TEXT_FIELDS
K = "edf_"  # widget key prefix of the form fields
SHADOW = "ed_shadow"  # copy of the page's widget values, kept while other pages are shown
PAGE_WIDGETS = tuple(K + f for f in FORM_FIELDS) + ("ed_mode", "ed_pick_edition", "ed_pick_card",
                                                    "ed_new_edition")
X = "x_"  # form key prefix of a declared card field: ``x_damage``


def field_label(field: str, decls: Any = ()) -> str:
    """A form field's name in the interface language (``card_type`` → « Type »); a declared
    field by its label, else its printed name (``damage`` → « dégâts »)."""
    name = field[len(X):] if field.startswith(X) else field
    decl = next((d for d in decls if d.name == name), None)
    if decl is not None:
        return decl.label_in(lang())
    return t("field.type" if field == "card_type" else f"field.{field}")


def form_keys(decls: Any = ()) -> tuple[str, ...]:
    """The form's fields: the common ones, then the game's declared fields (which replace the raw
    ``stats`` table when the game declares any)."""
    if not decls:
        return FORM_FIELDS
    return tuple(f for f in FORM_FIELDS if f != "stats") + tuple(X + d.name for d in decls)


def _service_key(key: str) -> str:
    return key[len(X):] if key.startswith(X) else key


# --------------------------------------------------------------------------- pure helpers

def card_to_form(card: dict[str, Any], decls: Any = ()) -> dict[str, str]:
    """A card dict (``catalog.card_to_dict``) as the text the form widgets show."""
    def text(v: Any) -> str:
        return "" if v is None else str(v)

    stats = card.get("stats") or {}
    declared = {X + d.name: text(stats.get(d.name)) for d in decls}
    return {**declared,
        "number": text(card.get("number")), "value": text(card.get("value")),
        "copies": text(card.get("copies") if card.get("copies") is not None else 1),
        "name": text(card.get("name")), "colour": text(card.get("colour")),
        "banner": text(card.get("banner")), "rarity": text(card.get("rarity")),
        "card_type": text(card.get("type", card.get("card_type"))),
        "keywords": "; ".join(card.get("keywords") or []),
        "effect": text(card.get("effect")), "effect_text": text(card.get("effect_text")),
        "flavour": text(card.get("flavour")), "art": text(card.get("art")),
        "stats": json.dumps(card["stats"], ensure_ascii=False) if card.get("stats") else "",
    }


def form_to_fields(form: dict[str, str], decls: Any = ()) -> dict[str, Any]:
    """Form text → service field values (``catalog.validate_card_fields`` checks them; a declared
    field goes by its name, checked by ``gamesdata``)."""
    out: dict[str, Any] = {}
    for key in form_keys(decls):
        raw = (form.get(key) or "").strip()
        if key.startswith(X):
            out[key[len(X):]] = raw or None
        elif key == "stats":
            if not raw:
                out[key] = {}
            else:
                try:
                    out[key] = json.loads(raw)
                except json.JSONDecodeError:
                    out[key] = raw  # reported by the validator as "not a table of figures"
        elif key == "keywords":
            out[key] = [k.strip() for k in raw.replace(",", ";").split(";") if k.strip()]
        elif key in INT_FIELDS:
            out[key] = raw if raw else (None if key == "value" else ("" if key == "number" else 1))
        else:
            out[key] = raw or None
    return out


def changed_fields(original: dict[str, str], form: dict[str, str], decls: Any = ()) -> dict[str, Any]:
    """The fields whose text differs from what was loaded, as service values (by service name)."""
    new = form_to_fields(form, decls)
    return {_service_key(k): new[_service_key(k)] for k in form_keys(decls)
            if (form.get(k) or "").strip() != (original.get(k) or "").strip()}


def preview_def(form: dict[str, str], *, game: str, edition: str, set_size: int, decls: Any = ()) -> CardDef:
    """The card as it would print, from the form text (bad numbers shown as blanks)."""
    f = form_to_fields(form, decls)

    def as_int(v: Any, default: int | None) -> int | None:
        try:
            return int(v)
        except (TypeError, ValueError):
            return default

    effect_text = f.get("effect_text")
    if not effect_text and f.get("effect") and game == "nespanini":
        # an effect that does not parse is never printed raw on the preview: say it needs fixing
        effect_text = effect_french(f["effect"]) or t("editor.effect_preview_invalid")
    stats = f.get("stats") if isinstance(f.get("stats"), dict) else {}
    if decls:
        stats = {}
        for d in decls:
            value = f.get(d.name)
            if value is not None:
                stats[d.name] = as_int(value, None) if d.type == "int" else value
        stats = {k: v for k, v in stats.items() if v is not None}
    return CardDef(
        id=0, game=game, edition=edition, number=as_int(f.get("number"), 0) or 0, set_size=set_size,
        name=f.get("name") or "?", value=as_int(f.get("value"), None),
        colour=canonical_colour(f.get("colour")) or None, banner=f.get("banner"),
        rarity=f.get("rarity"), card_type=f.get("card_type"), keywords=tuple(f.get("keywords") or ()),
        effect=f.get("effect"), effect_text=effect_text, flavour=f.get("flavour"), art=f.get("art"),
        copies=as_int(f.get("copies"), 1) or 1, stats=tuple(sorted(stats.items())),
    )


def effect_french(source: str) -> str | None:
    try:
        from cardbase.games.effects import effect_to_french, parse_effect

        return effect_to_french(parse_effect(source))
    except (ImportError, EffectError):
        return None


def check_effect_text(source: str, *, known: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """Parse and lint an effect: ``{"ok", "french", "problems": [Problem…]}``."""
    from cardbase.games.effects import effect_to_french, lint_effect, parse_effect

    if not source.strip():
        return {"ok": True, "french": "", "problems": []}
    try:
        effect = parse_effect(source)
    except EffectError as exc:
        return {"ok": False, "french": "", "problems": exc.problems or [exc]}
    known = known or {}
    problems = lint_effect(effect, known.get("names"), known.get("colours"), known.get("banners"),
                           known.get("keywords"))
    from cardbase.games.effects import effect_to_english

    return {"ok": not problems, "french": effect_to_french(effect),
            "english": effect_to_english(effect), "problems": problems}


# --------------------------------------------------------------------------- data

def _editions() -> list[dict[str, Any]]:
    with session() as s:
        return [{"code": e.code, "game": g.code, "set_size": e.set_size, "name": e.name}
                for e, g in s.exec(select(Edition, Game).join(Game).order_by(Edition.code)).all()]


def _cards_of(edition: str) -> list[tuple[int, str]]:
    with session() as s:
        return [(c["id"], f"{c['ref']} — {c['name']}") for c in catalog.card_dicts(s, edition=edition)]


def _load(card_id: int) -> dict[str, Any] | None:
    with session() as s:
        rows = catalog.card_dicts(s, ids=[card_id])
    return rows[0] if rows else None


def _known(game: str) -> dict[str, list[str]]:
    with session() as s:
        rows = s.exec(select(Card.name, Card.colour, Card.banner, Card.keywords).join(Edition).join(Game)
                      .where(Game.code == game)).all()
    return {"names": [r[0] for r in rows], "colours": [r[1] for r in rows if r[1]],
            "banners": [r[2] for r in rows if r[2]], "keywords": [k for r in rows for k in (r[3] or [])]}


def game_decls(game: str) -> list[gamesdata.FieldDecl]:
    """The card fields ``game`` declares (none for a game that keeps a free table of figures)."""
    with session() as s:
        row = s.exec(select(Game).where(Game.code == game)).first()
        return gamesdata.declared_fields(row)


def _next_number(edition: str) -> int:
    with session() as s:
        numbers = s.exec(select(Card.number).join(Edition).where(Edition.code == edition)).all()
    return max(numbers, default=0) + 1


# --------------------------------------------------------------------------- form state

def _restore_widgets() -> None:
    """Put back the values of widgets that Streamlit dropped while another page was shown."""
    for key, value in (st.session_state.get(SHADOW) or {}).items():
        if key not in st.session_state:
            st.session_state[key] = value


def _remember_widgets() -> None:
    shadow = dict(st.session_state.get(SHADOW) or {})
    shadow.update({k: st.session_state[k] for k in PAGE_WIDGETS if k in st.session_state})
    shadow.update({k: st.session_state[k] for k in list(st.session_state)
                   if isinstance(k, str) and k.startswith(K + X)})
    st.session_state[SHADOW] = shadow


def _main_edition(editions: list[dict[str, Any]]) -> str:
    """The first edition of the main game (NesPanini), else the first edition."""
    return next((e["code"] for e in editions if e["game"] == MAIN_GAME), editions[0]["code"])


def _fill_form(values: dict[str, str], decls: Any = ()) -> None:
    for key in FORM_FIELDS:
        st.session_state[K + key] = values.get(key, "")
    for d in decls:
        raw = values.get(X + d.name, "") or ""
        if d.type == "int":  # a number input holds a number, or None when empty
            try:
                st.session_state[K + X + d.name] = int(raw) if raw.strip() else None
            except ValueError:
                st.session_state[K + X + d.name] = None
        else:
            st.session_state[K + X + d.name] = raw


def _form_values(decls: Any = ()) -> dict[str, str]:
    out = {key: st.session_state.get(K + key, "") or "" for key in FORM_FIELDS}
    for d in decls:
        value = st.session_state.get(K + X + d.name)
        out[X + d.name] = "" if value is None else str(value)
    return out


def go_to(card_id: int, edition: str) -> None:
    """Show a saved card in edit mode on the next run (widgets cannot change after they are drawn)."""
    st.session_state["ed_pending"] = {"id": card_id, "edition": edition}
    st.rerun()


def _apply_pending() -> None:
    pending = st.session_state.pop("ed_pending", None)
    if pending:
        st.session_state["ed_mode"] = "edit"
        st.session_state["ed_pick_edition"] = pending["edition"]
        st.session_state["ed_pick_card"] = pending["id"]
        open_card(pending["id"])


def open_card(card_id: int) -> None:
    """Load a saved card into the form (forgets unsaved input)."""
    card = _load(card_id)
    if card is None:
        return
    decls = game_decls(card["game"])
    form = card_to_form(card, decls)
    st.session_state["ed_card"] = {"id": card["id"], "version": card["version"], "edition": card["edition"],
                                   "game": card["game"], "ref": card["ref"], "original": form}
    st.session_state.pop("ed_stale", None)
    _fill_form(form, decls)


# --------------------------------------------------------------------------- page

def render() -> None:
    st.title(t("editor.title"))
    _restore_widgets()
    _apply_pending()
    try:
        _render()
    finally:
        _remember_widgets()


def _render() -> None:
    if st.session_state.get("ed_mode") is None:
        st.session_state["ed_mode"] = "edit"
    mode = st.segmented_control(t("editor.mode"), ["edit", "new", "import", "export"], key="ed_mode", default="edit",
                                format_func=lambda m: t(f"editor.mode_{m}"),
                                label_visibility="collapsed", required=True) or "edit"
    if mode == "export":
        _export()
        return
    if not editor_gate() and mode != "edit":
        return
    if mode == "import":
        _import()
    elif mode == "new":
        _new()
    else:
        _edit()


def _fields(game: str, *, disabled: bool = False, decls: Any = ()) -> dict[str, str]:
    a, b, c, d = st.columns([1, 3, 1, 1])
    a.text_input(t("field.number"), key=K + "number", disabled=disabled)
    b.text_input(t("field.name"), key=K + "name", disabled=disabled)
    c.text_input(t("field.value"), key=K + "value", disabled=disabled)
    d.text_input(t("field.copies"), key=K + "copies", disabled=disabled)
    a, b, c, d = st.columns(4)
    a.text_input(t("field.colour"), key=K + "colour", disabled=disabled)
    b.text_input(t("field.banner"), key=K + "banner", disabled=disabled)
    c.text_input(t("field.rarity"), key=K + "rarity", disabled=disabled)
    d.text_input(t("field.type"), key=K + "card_type", disabled=disabled)
    st.text_input(t("field.keywords"), key=K + "keywords", disabled=disabled, help=t("editor.keywords_help"))
    if game == "nespanini":
        st.text_area(t("field.effect"), key=K + "effect", height=90, disabled=disabled,
                     help=t("editor.effect_help"))
    st.text_area(t("field.effect_text"), key=K + "effect_text", height=80, disabled=disabled,
                 help=t("editor.effect_text_help") if game == "nespanini" else None)
    a, b = st.columns(2)
    a.text_input(t("field.flavour"), key=K + "flavour", disabled=disabled)
    b.text_input(t("field.art"), key=K + "art", disabled=disabled)
    if decls:
        _declared_inputs(decls, disabled=disabled)
    else:
        st.text_input(t("field.stats"), key=K + "stats", disabled=disabled, help=t("editor.stats_help"))
    return _form_values(decls)


def _declared_inputs(decls: Any, *, disabled: bool) -> None:
    """One typed input per declared field: a number within its range, one of its choices, a text."""
    st.markdown(f"**{t('games_admin.declared_fields')}**", help=t("games_admin.declared_fields_help"))
    columns = st.columns(min(3, len(decls)))
    for i, d in enumerate(decls):
        key = K + X + d.name
        label = field_label(d.name, decls) + (" *" if d.required else "")
        help_text = d.spec
        col = columns[i % len(columns)]
        if d.type == "int":
            value = st.session_state.get(key)
            if value is not None and not isinstance(value, int):
                st.session_state[key] = value = None
            st.session_state[key] = value  # set again: shown as it is after a run without the widget
            # No min_value/max_value on the widget: Streamlit turns a number outside them into "no
            # value", and the card would be saved without it. The declared range is shown in the
            # help; a number outside it reaches the service, which refuses it with a message.
            col.number_input(label, key=key, value=None, step=1, disabled=disabled,
                             help=_range_help(d, help_text))
        elif d.type == "choice":
            current = st.session_state.get(key) or ""
            options = ["", *d.choices] + ([current] if current and current not in d.choices else [])
            st.session_state[key] = current
            none = t("games_admin.no_choice")
            col.selectbox(label, options, key=key, disabled=disabled, help=help_text,
                          format_func=lambda c, none=none: c or none)
        else:
            st.session_state[key] = st.session_state.get(key) or ""
            col.text_input(label, key=key, disabled=disabled, help=help_text)


def _range_help(decl: Any, spec: str) -> str:
    """The help of a declared number: its declaration and, when it has one, its range in words."""
    if decl.min is None and decl.max is None:
        return spec
    low = "−∞" if decl.min is None else str(decl.min)
    high = "+∞" if decl.max is None else str(decl.max)
    return f"{spec} — {t('writes.editor_range', min=low, max=high)}"


def _effect_feedback(form: dict[str, str], game: str) -> None:
    if game != "nespanini" or not form.get("effect", "").strip():
        return
    try:
        result = check_effect_text(form["effect"], known=_known(game))
    except ImportError:
        return
    # the text in the interface's language (the card itself prints the French one)
    shown = plain_text(result.get("english") if lang() == "en" else result["french"]) or ""
    if result["ok"]:
        st.success(tp("editor.effect_ok", text=shown), icon=":material/check_circle:")
    else:
        lines = "\n".join(f"- {plain(p)}" for p in result["problems"])
        st.error(t("editor.effect_bad") + "\n\n" + lines, icon=":material/warning:")
        if result["french"]:
            st.caption(tp("editor.effect_prints", text=shown))


def _preview(form: dict[str, str], *, game: str, edition: str, set_size: int, decls: Any = ()) -> None:
    st.markdown(f"**{t('editor.preview')}**")
    try:
        card = preview_def(form, game=game, edition=edition, set_size=set_size, decls=decls)
        from cardbase.catalog import stickers

        with session() as s:
            table = stickers.colour_table(s)
        st.image(render_def_png(card, dpi=120, sticker_table=table), width=300)
    except (CardbaseError, ImportError, ValueError) as exc:
        st.caption(tp("editor.no_preview", reason=str(exc).split("\n", 1)[0]))


def _pick_card() -> dict[str, Any] | None:
    editions = _editions()
    if not editions:
        st.info(t("editor.no_editions"))
        return None
    codes = [e["code"] for e in editions]
    if st.session_state.get("ed_pick_edition") not in codes:
        st.session_state["ed_pick_edition"] = _main_edition(editions)
    a, b = st.columns([1, 3])
    edition = a.selectbox(t("field.edition"), codes, key="ed_pick_edition")
    cards = _cards_of(edition)
    if not cards:
        b.info(t("editor.edition_empty"))
        return None
    labels = dict(cards)
    if st.session_state.get("ed_pick_card") not in labels:
        st.session_state.pop("ed_pick_card", None)
    current = st.session_state.get("ed_card")
    pick = b.selectbox(t("editor.card"), list(labels), key="ed_pick_card", format_func=labels.get)
    if not current or current["id"] != pick:
        open_card(pick)
    return st.session_state.get("ed_card")


def _edit() -> None:
    card = _pick_card()
    if not card:
        return
    editor = is_editor()
    ed = next(e for e in _editions() if e["code"] == card["edition"])
    decls = game_decls(card["game"])
    left, right = st.columns([3, 2], gap="large")
    with left:
        form = _fields(card["game"], disabled=not editor, decls=decls)
        _effect_feedback(form, card["game"])
        changes = changed_fields(card["original"], form, decls)
        if changes:
            names = [f for f in form_keys(decls) if _service_key(f) in changes]
            st.caption(t("editor.unsaved", fields=", ".join(field_label(f, decls) for f in names)))
        st.caption(tp("editor.editing_version", ref=card["ref"], version=card["version"]))
        if editor:
            _edit_actions(card, form, changes, decls)
    with right:
        _preview(form, game=card["game"], edition=card["edition"], set_size=ed["set_size"], decls=decls)
    stale = st.session_state.get("ed_stale")
    if stale and stale.get("id") == card["id"]:
        _stale_panel(card, form, stale, decls)


def _edit_actions(card: dict[str, Any], form: dict[str, str], changes: dict[str, Any], decls: Any = ()) -> None:
    a, b, c, d = st.columns(4)
    if a.button(t("common.save"), key="ed_save", type="primary", disabled=not changes):
        save_changes(card, changes)
    if b.button(t("editor.duplicate"), key="ed_dup"):
        duplicate(card, form, decls)
    if c.button(t("editor.reload"), key="ed_reload", help=t("editor.reload_help")):
        go_to(card["id"], card["edition"])
    with d.popover(t("common.delete")):
        st.write(tp("editor.delete_confirm", ref=card["ref"]))
        if st.button(t("editor.delete_yes"), key="ed_delete", type="primary"):
            try:
                access.require_editor(action="delete a card")
                with session() as s:
                    catalog.delete_card(s, card["id"], expected_version=card["version"])
                st.session_state.pop("ed_card", None)
                st.toast(tp("editor.deleted", ref=card["ref"]))
                st.rerun()
            except StaleEditError as exc:
                st.session_state["ed_stale"] = {"id": card["id"], "message": str(exc), "current": exc.current}
            except CardbaseError as exc:
                show_error(exc)


def save_changes(card: dict[str, Any], changes: dict[str, Any], *, expected: int | None = None) -> bool:
    """Save ``changes``; on a stale edit remember the saved values and keep the form as typed."""
    try:
        access.require_editor(action="save a card")
        with session() as s:
            saved = catalog.update_card(s, card["id"], expected_version=expected or card["version"],
                                        changes=changes)
            new_version = saved.version
    except StaleEditError as exc:
        st.session_state["ed_stale"] = {"id": card["id"], "message": str(exc), "current": exc.current}
        return False
    except CardbaseError as exc:
        show_error(exc, title=t("editor.not_saved"))
        return False
    st.session_state.pop("ed_stale", None)
    st.toast(tp("editor.saved", ref=card["ref"], version=new_version), icon=":material/check_circle:")
    # reload the saved card (its printed text may have been generated from the effect)
    go_to(card["id"], card["edition"])
    return True


def _stale_panel(card: dict[str, Any], form: dict[str, str], stale: dict[str, Any], decls: Any = ()) -> None:
    st.error(tp("editor.stale", ref=card["ref"]), icon=":material/block:")
    current = card_to_form(stale.get("current") or {}, decls)
    original = card.get("original") or {}

    def text(values: dict[str, Any], key: str) -> str:
        return str(values.get(key) or "").strip()

    # only the fields someone changed: this user (form ≠ what was loaded) or the other editor
    # (saved ≠ what was loaded); a field nobody touched is not listed
    rows = [{t("editor.field"): field_label(key, decls), t("editor.saved_value"): current.get(key, ""),
             t("editor.your_value"): form.get(key, "")}
            for key in form_keys(decls)
            if text(current, key) != text(form, key)
            and (text(form, key) != text(original, key) or text(current, key) != text(original, key))]
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    with st.expander(t("editor.stale_details")):
        st.code(stale.get("message", ""), language=None)
    a, b = st.columns(2)
    if a.button(t("editor.stale_mine"), key="ed_stale_mine",
                help=t("editor.stale_mine_help")):
        # only the fields this user changed go on top of the other editor's version
        latest = stale.get("current") or {}
        save_changes(card, changed_fields(card["original"], form, decls), expected=latest.get("version"))
    if b.button(t("editor.stale_theirs"), key="ed_stale_theirs"):
        go_to(card["id"], card["edition"])


def duplicate(card: dict[str, Any], form: dict[str, str], decls: Any = ()) -> None:
    fields = form_to_fields(form, decls)
    fields["number"] = _next_number(card["edition"])
    fields["name"] = t("editor.copy_name", name=fields.get("name") or "")
    if fields.get("effect"):
        fields.pop("effect_text", None)
    try:
        access.require_editor(action="create a card")
        with session() as s:
            new = catalog.create_card(s, edition=card["edition"], fields=fields)
            new_id = new.id
    except CardbaseError as exc:
        show_error(exc, title=t("editor.not_created"))
        return
    st.toast(t("editor.duplicated"), icon=":material/check_circle:")
    go_to(new_id, card["edition"])


def _new() -> None:
    editions = _editions()
    if not editions:
        st.info(t("editor.no_editions"))
        return
    by_code = {e["code"]: e for e in editions}
    if st.session_state.get("ed_new_edition") not in by_code:
        st.session_state["ed_new_edition"] = _main_edition(editions)
    edition = st.selectbox(t("field.edition"), list(by_code), key="ed_new_edition")
    ed = by_code[edition]
    decls = game_decls(ed["game"])
    if st.session_state.get("ed_new_for") != edition:
        st.session_state["ed_new_for"] = edition
        _fill_form({"number": str(_next_number(edition)), "copies": "1"}, decls)
    left, right = st.columns([3, 2], gap="large")
    with left:
        form = _fields(ed["game"], decls=decls)
        _effect_feedback(form, ed["game"])
        if st.button(t("editor.create"), key="ed_create", type="primary"):
            fields = {k: v for k, v in form_to_fields(form, decls).items()
                      if v not in (None, "", [], {}) or k in ("number", "name")}
            try:
                access.require_editor(action="create a card")
                with session() as s:
                    new_id = catalog.create_card(s, edition=edition, fields=fields).id
            except CardbaseError as exc:
                show_error(exc, title=t("editor.not_created"))
            else:
                st.session_state.pop("ed_new_for", None)
                st.toast(t("editor.created"), icon=":material/check_circle:")
                go_to(new_id, edition)
    with right:
        _preview(form, game=ed["game"], edition=edition, set_size=ed["set_size"], decls=decls)


def _import() -> None:
    st.caption(t("editor.import_intro"))
    upload = st.file_uploader(t("editor.import_file"), type=["csv", "json"], key="ed_upload")
    if upload is None:
        return
    data = upload.getvalue()
    fmt = "json" if upload.name.lower().endswith(".json") else "csv"
    show_import_report(data, fmt=fmt, source=upload.name)


def show_import_report(data: bytes, *, fmt: str, source: str) -> None:
    """The dry-run report of an import, then (if clean) the button that applies it."""
    try:
        with session() as s:
            plan = transfer.import_cards(s, data, fmt=fmt, source=source, dry_run=True)
            s.rollback()
    except CardbaseError as exc:
        show_error(exc)
        return
    counts = plan.counts
    a, b, c, d = st.columns(4)
    a.metric(t("editor.new"), counts["new"])
    b.metric(t("editor.updated"), counts["updated"])
    c.metric(t("editor.unchanged"), counts["unchanged"])
    d.metric(t("editor.problems"), len(plan.problems))
    if plan.problems:
        st.error(t("editor.import_blocked", n=len(plan.problems)))
        problems_table(plan.problems)
    rows = [{t("editor.row"): r.row, t("field.ref"): r.ref, t("field.name"): r.name,
             t("editor.action"): t(f"editor.{r.action}"),
             t("editor.changes"): "; ".join(f"{_label_or_key(k)} : {o!r} → {n!r}" for k, (o, n) in r.changes.items())}
            for r in plan.rows if r.action != "unchanged"]
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    if not plan.problems and (counts["new"] or counts["updated"]):
        if st.button(t("editor.import_apply", n=counts["new"] + counts["updated"]), key="ed_import_go",
                     type="primary"):
            try:
                access.require_editor(action="import cards")
                with session() as s:
                    done = transfer.import_cards(s, data, fmt=fmt, source=source)
                st.success(t("editor.imported", new=done.counts["new"], updated=done.counts["updated"]))
            except CardbaseError as exc:
                show_error(exc)
    elif not plan.problems:
        st.info(t("editor.nothing_to_import"))


def _label_or_key(field: str) -> str:
    key = "field.type" if field in ("card_type", "type") else f"field.{field}"
    return t(key) if key in _interface_keys() else field


def _interface_keys() -> set[str]:
    from cardbase import i18n

    return i18n.keys()


def _export() -> None:
    a, b, c = st.columns([3, 1, 1])
    query = a.text_input(t("cards.search"), key="ed_export_q", placeholder="e:NP1")
    editions = [None, *[e["code"] for e in _editions()]]
    edition = b.selectbox(t("field.edition"), editions, key="ed_export_edition",
                          format_func=lambda e: t("common.all_f") if e is None else e)
    fmt = c.radio(t("editor.format"), ["csv", "json"], key="ed_export_fmt", horizontal=True)
    try:
        with session() as s:
            records = transfer.export_records(s, query=query or None, edition=edition)
    except CardbaseError as exc:
        show_error(exc)
        return
    st.caption(t("editor.export_count", n=len(records)))
    name = f"cartes-{edition or 'toutes'}.{fmt}"
    st.download_button(t("editor.export_button", fmt=fmt.upper()), transfer.export_text(records, fmt),
                       file_name=name, mime="application/json" if fmt == "json" else "text/csv",
                       key="ed_export_dl", type="primary", disabled=not records)
    if records:  # the file's columns keep their codes; the preview names them in words
        frame = pd.DataFrame(records).head(50)
        declared = _declared_labels()
        st.dataframe(frame, hide_index=True, width="stretch", column_config={
            col: st.column_config.Column(declared.get(col) or _label_or_key(col)) for col in frame.columns})


def _declared_labels() -> dict[str, str]:
    """Every game's declared card fields, code → label in the interface language."""
    from sqlmodel import select

    from cardbase.catalog import gamesdata
    from cardbase.storage.models import Game

    with session() as s:
        return {d.name: d.label_in(lang()) for g in s.exec(select(Game)) for d in gamesdata.declared_fields(g)}
