"""Games page (Jeux): every game with its players, deck rules, declared card fields, template and
whether an engine plays it; create a game and edit one (editor mode), with a live preview of a
sample card of the game in the chosen template.

Every check is the service's (:mod:`cardbase.catalog.gamesdata`): the page only turns its widgets into
values, and shows every problem the service finds at once. A save made stale by someone else is
refused by ``gamesdata.update_game`` and shown next to the saved values, the input untouched.

The form is plain widgets (not a ``st.form``) so that the preview follows what is typed. The
declared fields and keyword limits are small table editors whose starting rows live in
``st.session_state[<prefix>rows]`` / ``[<prefix>kw_rows]``; loading a game starts a new editor
(``<prefix>epoch``), so that its edits never leak into another game's table. Streamlit forgets the
state of widgets a run does not draw (the other mode, another page): a shadow copy of the form
(``<prefix>shadow``, and the tables as last edited) puts what was typed back.
"""

from __future__ import annotations

import io
import math
from typing import Any

import pandas as pd
import streamlit as st

from cardbase import access
from cardbase.catalog import gamesdata
from cardbase.domain import CardDef
from cardbase.errors import CardbaseError, StaleEditError
from cardbase.ui.common import editor_gate, is_editor, lang, num, session, show_error, t, tp

NEW = "gan_"  # widget key prefix of the new-game form
EDIT = "gae_"  # widget key prefix of the edit form
FIELD_COLUMNS = ("name", "label", "label_en", "type", "min", "max", "choices", "required")
KW_COLUMNS = ("keyword", "limit")
WIDGETS = ("code", "name", "min_players", "max_players", "has_deck", "deck_size", "copy_limit", "template",
           "description")
BLANK = {"name": "", "code": "", "min_players": 2, "max_players": 4, "deck_size": None, "copy_limit": None,
         "keyword_limits": {}, "template": None, "fields": [], "description": None}


# --------------------------------------------------------------------------- pure helpers

def players_text(game: dict[str, Any]) -> str:
    lo, hi = game.get("min_players"), game.get("max_players")
    if lo is None:
        return "—"
    return str(lo) if lo == hi else f"{lo}–{hi}"


def deck_rules_text(game: dict[str, Any]) -> str:
    """« 20 cartes, 2 exemplaires max, Foule ≤ 4 », or the fixed box."""
    if not game.get("deck_size"):
        return t("games_admin.box")
    parts = [t("games_admin.deck_cards", n=game["deck_size"])]
    if game.get("copy_limit"):
        parts.append(t("games_admin.deck_copies", n=game["copy_limit"]))
    parts += [f"{kw} ≤ {n}" for kw, n in (game.get("keyword_limits") or {}).items()]
    return ", ".join(parts)


def field_type_label(kind: Any) -> str:
    """A field type in words (« nombre », « texte », « liste de valeurs »)."""
    return t(f"games_admin.type_{kind}") if kind in gamesdata.FIELD_TYPES else str(kind or "")


def field_text(decl: gamesdata.FieldDecl) -> str:
    """A declared field as a person reads it: « Dégâts (nombre 0–1000) »."""
    label, kind = decl.label_in(lang()), field_type_label(decl.type)
    if decl.min is not None or decl.max is not None:
        lo = "" if decl.min is None else num(decl.min)
        hi = "" if decl.max is None else num(decl.max)
        return t("games_admin.field_range", label=label, kind=kind, lo=lo, hi=hi)
    return t("games_admin.field_shown", label=label, kind=kind)


def fields_text(game: dict[str, Any], *, most: int | None = None) -> str:
    """The declared fields by their label in the interface language, the first ``most``."""
    specs = [field_text(d) for d in gamesdata.check_declarations(game.get("fields") or [])[0]]
    if most is not None and len(specs) > most:
        specs = specs[:most] + [f"… (+{len(specs) - most})"]
    return ", ".join(specs) or "—"


def field_rows(fields: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Stored declarations → rows of the table editor."""
    return [{"name": f.get("name", ""), "type": f.get("type", "int"),
             "min": f.get("min"), "max": f.get("max"),
             "choices": " | ".join(f.get("choices") or []), "required": bool(f.get("required", False)),
             "label": f.get("label") or "", "label_en": f.get("label_en") or ""} for f in fields]


def _cell(value: Any) -> Any:
    """A table cell as a plain value: empty, NaN and None are None; whole floats are ints."""
    if value is None:
        return None
    if isinstance(value, float):
        if math.isnan(value):
            return None
        return int(value) if value.is_integer() else value
    if isinstance(value, str):
        return value.strip() or None
    try:
        if pd.isna(value):
            return None
    except (TypeError, ValueError):
        pass
    if hasattr(value, "item"):  # numpy scalars
        return _cell(value.item())
    return value


def rows_to_fields(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of the table editor → declarations for the service (which checks them). A row left
    empty (its type alone, as the table adds a row, counts as empty) is ignored; anything else goes
    to the service as typed."""
    out = []
    for row in rows:
        cells = {k: _cell(row.get(k)) for k in FIELD_COLUMNS}
        if cells["required"] is False:
            cells["required"] = None
        # a row left as the « + » button adds it (only its type prefilled) is an empty row too
        if all(v is None for k, v in cells.items() if k != "type"):
            continue
        decl: dict[str, Any] = {"name": cells["name"] or "", "type": cells["type"] or "int"}
        for key in ("min", "max"):
            if cells[key] is not None:
                decl[key] = cells[key]
        if cells["choices"]:
            decl["choices"] = [c.strip() for c in str(cells["choices"]).split("|")]
        if cells["required"]:
            decl["required"] = bool(cells["required"])
        for key in ("label", "label_en"):
            if cells[key]:
                decl[key] = str(cells[key])
        out.append(decl)
    return out


def rows_to_keyword_limits(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for row in rows:
        keyword, limit = _cell(row.get("keyword")), _cell(row.get("limit"))
        if keyword is None and limit is None:
            continue
        out[str(keyword or "")] = limit
    return out


def sample_value(decl: gamesdata.FieldDecl) -> Any:
    """A value a sample card shows for a declared field."""
    if decl.type == "choice":
        return decl.choices[0]
    if decl.type == "text":
        return decl.shown_label
    lo = decl.min if decl.min is not None else 0
    hi = decl.max if decl.max is not None else lo + 5
    return max(lo, min(hi, 3))


def sample_card(code: str, decls: list[gamesdata.FieldDecl], base: CardDef | None) -> CardDef:
    """A card of the game as the preview draws it: its first card if it has one, with a value for
    every declared field."""
    have = dict(base.stats) if base is not None else {}
    stats = tuple((d.name, have.get(d.name, sample_value(d))) for d in decls)
    if base is not None:
        return CardDef(**{**{f: getattr(base, f) for f in CardDef.__dataclass_fields__ if f != "keyword_keys"},
                          "game": code or base.game, "stats": stats})
    return CardDef(id=0, game=code or "jeu", edition="ED1", number=1, set_size=1,
                   name=t("games_admin.sample_name"), value=3,
                   effect_text=t("games_admin.sample_text"), stats=stats)


def template_choice(code: str, chosen: str | None, known: list[str]) -> str:
    """The template a card of the game prints with: the chosen one, else the game's own file,
    else poker."""
    if chosen:
        return chosen
    return code if code in known else "poker"


# --------------------------------------------------------------------------- data

def _games() -> list[dict[str, Any]]:
    with session() as s:
        return [gamesdata.game_dict(g) for g in gamesdata.list_games(s)]


def _engines() -> dict[str, bool]:
    try:
        from cardbase.games.registry import REGISTRY
    except ImportError:
        return {}
    return {code: spec.engine for code, spec in REGISTRY.items()}


def _first_card(code: str) -> CardDef | None:
    from cardbase.catalog import cards as catalog

    if not code:
        return None
    try:
        with session() as s:
            defs = catalog.card_defs(s, game=code, limit=1)
    except CardbaseError:  # a game not created yet
        return None
    return defs[0] if defs else None


def games_frame(games: list[dict[str, Any]], engines: dict[str, bool]) -> pd.DataFrame:
    return pd.DataFrame([{
        t("games_admin.code"): g["code"], t("field.name"): g["name"],
        t("games_admin.players"): players_text(g), t("games_admin.deck_rules"): deck_rules_text(g),
        t("games_admin.template"): g["template"] or t("games_admin.template_default"),
        t("games_admin.engine"): "✓" if engines.get(g["code"]) else "—",
        t("editions.version"): g["version"],
        t("games_admin.fields"): fields_text(g, most=5),
    } for g in games])


# --------------------------------------------------------------------------- form state

def _fill(prefix: str, game: dict[str, Any]) -> None:
    """Put a game's values in the form's widgets (before they are drawn in this run)."""
    st.session_state[prefix + "name"] = game.get("name") or ""
    if prefix == NEW:
        st.session_state[prefix + "code"] = game.get("code") or ""
    st.session_state[prefix + "min_players"] = game.get("min_players")
    st.session_state[prefix + "max_players"] = game.get("max_players")
    st.session_state[prefix + "has_deck"] = game.get("deck_size") is not None
    st.session_state[prefix + "deck_size"] = game.get("deck_size") or 40
    st.session_state[prefix + "copy_limit"] = game.get("copy_limit")
    st.session_state[prefix + "template"] = game.get("template") or ""
    st.session_state[prefix + "description"] = game.get("description") or ""
    st.session_state[prefix + "rows"] = field_rows(game.get("fields") or [])
    st.session_state[prefix + "kw_rows"] = [{"keyword": k, "limit": n}
                                           for k, n in (game.get("keyword_limits") or {}).items()]
    st.session_state[prefix + "epoch"] = st.session_state.get(prefix + "epoch", 0) + 1
    for name in ("fields", "kw"):
        st.session_state.pop(f"{prefix}{name}_seen", None)
    st.session_state[prefix + "shadow"] = {}


def _restore(prefix: str) -> None:
    """Put back the form's widget values Streamlit dropped while they were not drawn.

    Every value is set again, not only the missing ones: a widget drawn again after a run without
    it shows its default unless its value is set through the Session State API."""
    for key, value in (st.session_state.get(prefix + "shadow") or {}).items():
        st.session_state[key] = st.session_state[key] if key in st.session_state else value


def _remember(prefix: str) -> None:
    shadow = dict(st.session_state.get(prefix + "shadow") or {})
    shadow.update({prefix + k: st.session_state[prefix + k] for k in WIDGETS if prefix + k in st.session_state})
    if prefix == EDIT and "ga_pick" in st.session_state:  # the game being edited
        shadow["ga_pick"] = st.session_state["ga_pick"]
    st.session_state[prefix + "shadow"] = shadow


def _apply_pending() -> None:
    pending = st.session_state.pop("ga_pending", None)
    if not pending:
        return
    st.session_state["ga_mode"] = "edit"
    st.session_state["ga_pick"] = pending["code"]
    st.session_state.pop("ga_loaded", None)  # loaded again from the database below
    st.session_state.pop("ga_stale", None)
    if pending.get("clear_new"):
        _fill(NEW, BLANK)


def _table(prefix: str, name: str, rows_key: str, columns: tuple[str, ...],
           config: dict[str, Any], *, disabled: bool) -> list[dict[str, Any]]:
    key = f"{prefix}{name}_{st.session_state.get(prefix + 'epoch', 0)}"
    seen = st.session_state.get(f"{prefix}{name}_seen")
    if key not in st.session_state and seen is not None:
        st.session_state[prefix + rows_key] = seen  # the table as last edited, its editor forgotten
    frame = pd.DataFrame(st.session_state.get(prefix + rows_key) or [], columns=list(columns))
    for col in ("label", "label_en", "choices"):  # text columns: a row written before one existed has none
        if col in frame.columns:
            frame[col] = frame[col].map(lambda v: "" if v is None or (isinstance(v, float) and math.isnan(v)) else v)
    edited = st.data_editor(frame, key=key, num_rows="dynamic", hide_index=True, width="stretch",
                            column_config=config, disabled=disabled)
    rows = edited.to_dict("records")
    st.session_state[f"{prefix}{name}_seen"] = rows
    return rows


def _form(prefix: str, *, known: list[str], disabled: bool = False) -> dict[str, Any]:
    """Draw the game form; its values as the service takes them (plus ``code`` for a new game)."""
    values: dict[str, Any] = {}
    if prefix == NEW:
        a, b = st.columns([1, 2])
        values["code"] = a.text_input(t("games_admin.code"), key=prefix + "code", placeholder="monjeu",
                                      help=t("games_admin.code_help"), disabled=disabled).strip()
        values["name"] = b.text_input(t("field.name"), key=prefix + "name", disabled=disabled)
    else:
        values["name"] = st.text_input(t("field.name"), key=prefix + "name", disabled=disabled)
    a, b, c = st.columns(3)
    values["min_players"] = a.number_input(t("games_admin.min_players"), key=prefix + "min_players", value=None,
                                           step=1, disabled=disabled)
    values["max_players"] = b.number_input(t("games_admin.max_players"), key=prefix + "max_players", value=None,
                                           step=1, disabled=disabled)
    options = ["", *known]
    if st.session_state.get(prefix + "template") not in options:
        st.session_state[prefix + "template"] = ""
    default = t("games_admin.template_default")  # labels made in the run, in its language
    values["template"] = c.selectbox(t("games_admin.template"), options, key=prefix + "template",
                                     format_func=lambda x: x or default,
                                     disabled=disabled) or None
    for key in ("min_players", "max_players"):
        if values[key] is not None:
            values[key] = int(values[key])
    has_deck = st.checkbox(t("games_admin.has_deck"), key=prefix + "has_deck", help=t("games_admin.has_deck_help"),
                           disabled=disabled)
    if has_deck:
        a, b = st.columns(2)
        size = a.number_input(t("games_admin.deck_size"), key=prefix + "deck_size", value=None, step=1, disabled=disabled)
        copies = b.number_input(t("games_admin.copy_limit"), key=prefix + "copy_limit", value=None, step=1,
                                help=t("games_admin.copy_limit_help"), disabled=disabled)
        st.caption(t("games_admin.keyword_limits_help"))
        kw_rows = _table(prefix, "kw", "kw_rows", KW_COLUMNS, {
            "keyword": st.column_config.TextColumn(t("games_admin.keyword")),
            "limit": st.column_config.NumberColumn(t("games_admin.limit"), step=1, format="%d"),
        }, disabled=disabled)
        values["deck_size"] = None if size is None else int(size)
        values["copy_limit"] = None if copies is None else int(copies)
        values["keyword_limits"] = rows_to_keyword_limits(kw_rows)
    else:
        values["deck_size"] = values["copy_limit"] = None
        values["keyword_limits"] = {}
    st.markdown(f"**{t('games_admin.fields')}**")
    st.caption(t("games_admin.fields_help"))
    rows = _table(prefix, "fields", "rows", FIELD_COLUMNS, {
        "name": st.column_config.TextColumn(t("games_admin.field_name"), help=t("games_admin.field_name_help"),
                                            width="small"),
        "label": st.column_config.TextColumn(t("games_admin.field_label"), width="small"),
        "label_en": st.column_config.TextColumn(t("games_admin.field_label_en"), width="small"),
        "type": st.column_config.SelectboxColumn(t("games_admin.field_type"), options=list(gamesdata.FIELD_TYPES),
                                                 default="int", format_func=field_type_label, width="small"),
        "min": st.column_config.NumberColumn(t("games_admin.field_min"), step=1, format="%d", width="small"),
        "max": st.column_config.NumberColumn(t("games_admin.field_max"), step=1, format="%d", width="small"),
        "choices": st.column_config.TextColumn(t("games_admin.field_choices"), help=t("games_admin.field_choices_help"),
                                               width="small"),
        "required": st.column_config.CheckboxColumn(t("games_admin.field_required"), default=False, width="small"),
    }, disabled=disabled)
    values["fields"] = rows_to_fields(rows)
    values["description"] = st.text_area(t("games_admin.description"), key=prefix + "description",
                                         height=80, disabled=disabled).strip() or None
    return values


def _preview(code: str, values: dict[str, Any], known: list[str]) -> None:
    """A sample card of the game drawn with the chosen template, as typed."""
    from cardbase.catalog import stickers
    from cardbase.outputs.printing import RenderOptions, load_template, render_card

    st.markdown(f"**{t('games_admin.preview')}**")
    decls = gamesdata.check_declarations(values.get("fields") or [])[0]
    name = template_choice(code, values.get("template"), known)
    try:
        base = _first_card(code)
        card = sample_card(code, decls, base)
        with session() as s:
            table = stickers.colour_table(s)
        options = RenderOptions(dpi=110, sticker_table=table)
        try:
            image = render_card(card, load_template(name), options)
        except CardbaseError:
            if base is None:
                raise
            # every declared field at a sample value may not fit where the game's real cards do
            image = render_card(base, load_template(name), options)
            st.caption(t("games_admin.sample_unfit"))
        buf = io.BytesIO()
        image.convert("RGB").save(buf, format="PNG")
        st.image(buf.getvalue(), width=280)
        st.caption(tp("games_admin.preview_caption", template=name))
    except (CardbaseError, ImportError, ValueError, OSError) as exc:
        st.caption(tp("games_admin.no_preview", reason=str(exc).split("\n", 1)[0]))


# --------------------------------------------------------------------------- page

def render() -> None:
    st.title(t("games_admin.title"))
    for prefix in (NEW, EDIT):
        _restore(prefix)
    _apply_pending()
    try:
        _render()
    finally:
        for prefix in (NEW, EDIT):
            _remember(prefix)


def _render() -> None:
    games = _games()
    engines = _engines()
    st.dataframe(games_frame(games, engines), hide_index=True, width="stretch")
    no_box = [g["name"] for g in games if not g["deck_size"]]
    if no_box:
        st.caption(tp("games_admin.box_note", games=", ".join(no_box)))
    if not editor_gate():
        return
    known = gamesdata.known_templates()
    if st.session_state.get("ga_mode") is None:
        st.session_state["ga_mode"] = "new" if not games else "edit"
    labels = {"edit": t("games_admin.mode_edit"), "new": t("games_admin.mode_new")}
    mode = st.segmented_control(t("games_admin.mode"), ["edit", "new"], key="ga_mode", default="edit",
                                format_func=labels.get,
                                label_visibility="collapsed", required=True) or "edit"
    if mode == "new" or not games:
        _new(known)
    else:
        _edit(games, known)


def _new(known: list[str]) -> None:
    if NEW + "epoch" not in st.session_state:
        _fill(NEW, BLANK)
    left, right = st.columns([3, 2], gap="large")
    with left:
        values = _form(NEW, known=known)
        if st.button(t("games_admin.create"), key="ga_create", type="primary"):
            try:
                access.require_editor(action="create a game")
                with session() as s:
                    game = gamesdata.create_game(s, **values)
                    code, name = game.code, game.name
            except CardbaseError as exc:
                show_error(exc, title=t("games_admin.not_created"))
            else:
                st.toast(tp("games_admin.created", game=name), icon=":material/check_circle:")
                st.session_state["ga_pending"] = {"code": code, "clear_new": True}
                st.rerun()
    with right:
        _preview(values.get("code") or "", values, known)


def _edit(games: list[dict[str, Any]], known: list[str]) -> None:
    by_code = {g["code"]: g for g in games}
    if st.session_state.get("ga_pick") not in by_code:
        st.session_state["ga_pick"] = next(iter(by_code))
    code = st.selectbox(t("field.game"), list(by_code), key="ga_pick",
                        format_func=lambda c: by_code[c]["name"])
    loaded = st.session_state.get("ga_loaded")
    if not loaded or loaded["code"] != code:
        game = by_code[code]
        _fill(EDIT, game)
        loaded = {"code": code, "version": game["version"], "original": _comparable(game)}
        st.session_state["ga_loaded"] = loaded
        st.session_state.pop("ga_stale", None)
    left, right = st.columns([3, 2], gap="large")
    with left:
        values = _form(EDIT, known=known, disabled=not is_editor())
        changes = changed(loaded["original"], values)
        if changes:
            st.caption(t("games_admin.unsaved", fields=", ".join(_label(k) for k in changes)))
        st.caption(tp("games_admin.editing_version", game=by_code[code]["name"], version=loaded["version"]))
        a, b = st.columns(2)
        if a.button(t("common.save"), key="ga_save", type="primary", disabled=not changes):
            save(code, changes, loaded["version"])
        if b.button(t("games_admin.reload"), key="ga_reload", help=t("games_admin.reload_help")):
            st.session_state["ga_pending"] = {"code": code}
            st.rerun()
    with right:
        _preview(code, values, known)
    stale = st.session_state.get("ga_stale")
    if stale and stale.get("code") == code:
        _stale_panel(code, values, stale, loaded)
    from cardbase.ui import rules_editor

    rules_editor.render(code)


def _comparable(game: dict[str, Any]) -> dict[str, Any]:
    """A stored game as the form gives it back (so that an untouched form has no changes)."""
    return {"name": game["name"], "min_players": game["min_players"], "max_players": game["max_players"],
            "deck_size": game["deck_size"], "copy_limit": game["copy_limit"] if game["deck_size"] else None,
            "keyword_limits": dict(game["keyword_limits"] or {}) if game["deck_size"] else {},
            "template": game["template"] or None, "fields": rows_to_fields(field_rows(game["fields"] or [])),
            "description": game["description"] or None}


def changed(original: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The settings whose value differs from what was loaded, as ``update_game`` changes."""
    return {k: values[k] for k in original if k in values and values[k] != original[k]}


def _label(key: str) -> str:
    return t("field.name") if key == "name" else t(f"games_admin.{key}")


def save(code: str, changes: dict[str, Any], expected: int) -> bool:
    try:
        access.require_editor(action="change a game")
        with session() as s:
            game = gamesdata.update_game(s, code=code, expected_version=expected, changes=changes)
            version, name = game.version, game.name
    except StaleEditError as exc:
        st.session_state["ga_stale"] = {"code": code, "message": str(exc), "current": exc.current}
        return False
    except CardbaseError as exc:
        show_error(exc, title=t("games_admin.not_saved"))
        return False
    st.toast(tp("games_admin.saved", game=name, version=version), icon=":material/check_circle:")
    st.session_state["ga_pending"] = {"code": code}
    st.rerun()
    return True


def _shown(key: str, value: Any) -> str:
    if key == "fields":
        return fields_text({"fields": value or []})
    if key == "keyword_limits":
        return ", ".join(f"{k} = {v}" for k, v in (value or {}).items()) or "—"
    return "—" if value in (None, "", {}) else str(value)


def _stale_panel(code: str, values: dict[str, Any], stale: dict[str, Any], loaded: dict[str, Any]) -> None:
    st.error(tp("games_admin.stale", game=values.get("name") or code), icon=":material/block:")
    current = _comparable(stale.get("current") or {**BLANK, "version": 0})
    original = loaded.get("original") or {}
    # only the settings someone changed: this user or the other editor (not one nobody touched)
    rows = [{t("editor.field"): _label(k), t("editor.saved_value"): _shown(k, current.get(k)),
             t("editor.your_value"): _shown(k, values.get(k))}
            for k in current if current.get(k) != values.get(k)
            and (values.get(k) != original.get(k) or current.get(k) != original.get(k))]
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    with st.expander(t("editor.stale_details")):
        st.code(stale.get("message", ""), language=None)
    a, b = st.columns(2)
    if a.button(t("editor.stale_mine"), key="ga_stale_mine", help=t("editor.stale_mine_help")):
        latest = stale.get("current") or {}
        save(code, changed(loaded["original"], values), latest.get("version") or loaded["version"])
    if b.button(t("editor.stale_theirs"), key="ga_stale_theirs"):
        st.session_state["ga_pending"] = {"code": code}
        st.rerun()

