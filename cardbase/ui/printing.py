"""Print page: choose what to print (an edition, a saved deck, the deck being built, a query, or
only the cards changed since a previous print), the paper, mode, backs and stickers; see the first
sheet; download the PDF (and the per-card PNGs as a zip in print-shop mode)."""

from __future__ import annotations

import io
import re
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st
from PIL import Image, ImageDraw
from sqlmodel import select

from cardbase import decks
from cardbase.catalog import cards as catalog
from cardbase.catalog import stickers
from cardbase.domain import CardDef
from cardbase.errors import CardbaseError
from cardbase.storage.models import Deck, Edition, Game
from cardbase.ui.common import lang, num, session, show_error, t

PREVIEW_DPI = 60


# --------------------------------------------------------------------------- selection

def cards_for(source: str, value: Any) -> list[CardDef]:
    """The cards to print, each repeated as many times as it is in a deck."""
    with session() as s:
        if source == "edition":
            return catalog.card_defs(s, edition=value)
        if source == "query":
            return catalog.card_defs(s, query=value or None)
        if source in ("deck", "builder"):
            if source == "deck":
                deck = s.get(Deck, int(value))
                resolved = decks.deck_entries(s, deck)
                counts = {e.card.id: e.count for e in resolved.entries}
            else:
                text = "\n".join(f"{n} {ref}" for ref, n in (value or {}).items())
                game = st.session_state.get("deck_game")
                resolved = decks.resolve_deck(s, decks.parse_deck_list(text or "# vide"), game=game)
                counts = {e.card.id: e.count for e in resolved.entries}
            by_id = {c.id: c for c in catalog.card_defs(s, ids=list(counts))}
            return [by_id[i] for i in counts for _ in range(counts[i]) if i in by_id]
    return []


def first_sheet(cards: list[CardDef], *, paper: str, table: dict[str, str], use_stickers: bool) -> Image.Image:
    """The first home sheet as an image: the cards at their place in the grid, with crop marks."""
    from cardbase.outputs.printing import PAPERS_MM, RenderOptions, render_card, sheet_layout, template_for

    def px(mm: float) -> int:
        return round(mm / 25.4 * PREVIEW_DPI)

    pw, ph = PAPERS_MM[paper]
    template = template_for(cards[0].game, cards[0].card_type) if cards else None
    card_mm = (template.width_mm, template.height_mm) if template else (63.0, 88.0)
    layout = sheet_layout(paper, card_mm)
    page = Image.new("RGB", (px(pw), px(ph)), "white")
    draw = ImageDraw.Draw(page)
    opts = RenderOptions(dpi=PREVIEW_DPI * 2, stickers=use_stickers, sticker_table=table, fingerprint=True)
    for i, card in enumerate(cards[: layout.per_page]):
        x, y = layout.slot_mm(i)
        image = render_card(card, template_for(card.game, card.card_type), opts)
        image = image.resize((px(card_mm[0]), px(card_mm[1])), Image.Resampling.LANCZOS)
        page.paste(image.convert("RGB"), (px(x), px(y)))
    ox, oy = layout.origin_mm
    for c in range(layout.cols + 1):  # crop marks above and below the grid
        x = px(ox + c * card_mm[0])
        draw.line((x, px(oy) - 10, x, px(oy) - 3), fill="black")
        yb = px(oy + layout.rows * card_mm[1])
        draw.line((x, yb + 3, x, yb + 10), fill="black")
    for r in range(layout.rows + 1):
        y = px(oy + r * card_mm[1])
        draw.line((px(ox) - 10, y, px(ox) - 3, y), fill="black")
        xr = px(ox + layout.cols * card_mm[0])
        draw.line((xr + 3, y, xr + 10, y), fill="black")
    return page


@st.cache_data(show_spinner=False, max_entries=16)
def first_sheet_png(cards: list[CardDef], paper: str, table: dict[str, str], use_stickers: bool,
                    language: str) -> bytes:
    """The first sheet as PNG bytes; ``language`` is part of the cache key (printed words)."""
    from cardbase import i18n

    buf = io.BytesIO()
    with i18n.use_language(language):
        first_sheet(cards, paper=paper, table=table, use_stickers=use_stickers).save(buf, format="PNG")
    return buf.getvalue()


def run_print(cards: list[CardDef], *, mode: str, paper: str, dpi: int, backs: bool,
              offset: tuple[float, float], use_stickers: bool, table: dict[str, str],
              changed_since: bytes | None, name: str, preset: str | None = None,
              proof_overlay: bool = False,
              progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Print to a temporary folder; return the PDF bytes, a zip of PNGs (shop) and the figures.
    ``progress(done)`` is told how many cards are done as the print goes."""
    from cardbase.outputs.printing import print_cards

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{name}.{'png' if mode == 'proof' else 'pdf'}"  # a proof is a PNG here
        previous = None
        if changed_since:
            previous = Path(tmp) / "previous.manifest.json"
            previous.write_bytes(changed_since)
        result = print_cards(cards, out, mode=mode, paper=paper, dpi=dpi, backs=backs,
                             back_offset_mm=offset, stickers=use_stickers, sticker_table=table,
                             changed_since=previous, preset=preset, proof_overlay=proof_overlay,
                             progress=progress)
        pdf = out.read_bytes() if out.exists() and mode != "proof" else None
        manifest = result.manifest.read_bytes() if result.manifest and result.manifest.exists() else None
        png_zip = None
        png_dir = out.with_name(out.stem + "-png")
        if png_dir.is_dir():
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
                for f in sorted(png_dir.glob("*.png")):
                    zf.write(f, f"{name}/{f.name}")
            png_zip = buf.getvalue()
        proof = None
        if mode == "proof":
            proof = out.read_bytes() if out.exists() else None
    return {"pdf": pdf, "zip": png_zip, "proof": proof, "manifest": manifest, "pages": result.pages,
            "cards": result.cards, "unique": result.unique_cards, "skipped": result.skipped,
            "nothing_changed": result.nothing_changed, "notes": list(result.notes)}


def _progress_bar(bar: Any, total: int) -> Callable[[int], None]:
    """A ``print_cards`` progress callback moving ``bar`` (a ``st.progress``) a percent at a time."""
    shown = {"percent": -1}

    def update(done: int) -> None:
        percent = min(100, done * 100 // max(1, total))
        if percent != shown["percent"]:
            shown["percent"] = percent
            bar.progress(percent / 100, text=t("print.progress", done=done, total=total))

    return update


# --------------------------------------------------------------------------- page

def render() -> None:
    st.title(t("print.title"))
    with session() as s:
        editions = list(s.exec(select(Edition.code).order_by(Edition.code)).all())
        saved = [(d.id, d.name, g) for d, g in s.exec(select(Deck, Game.code).join(Game).order_by(Deck.name)).all()]
        table = stickers.colour_table(s)
    builder = st.session_state.get("deck") or {}
    sources = ["edition", "deck", "query"] + (["builder"] if builder else [])
    left, right = st.columns([2, 3], gap="large")
    with left:
        if st.session_state.get("pr_source") not in sources:
            st.session_state["pr_source"] = "builder" if builder else "edition"
        source = st.radio(t("print.source"), sources, key="pr_source", horizontal=True,
                          format_func=lambda s: t(f"print.source_{s}"))
        value: Any = None
        if source == "edition":
            default = editions.index("NP1") if "NP1" in editions else 0
            value = st.selectbox(t("field.edition"), editions, index=default, key="pr_edition")
        elif source == "deck":
            if not saved:
                st.info(t("print.no_decks"))
                return
            labels = {d[0]: f"{d[1]} ({d[2]})" for d in saved}
            value = st.selectbox(t("print.deck"), list(labels), key="pr_deck", format_func=labels.get)
        elif source == "query":
            value = st.text_input(t("cards.search"), key="pr_query", value="e:NP1 k:foule")
        else:
            value = builder
            st.caption(t("print.builder", n=sum(builder.values())))
        a, b = st.columns(2)
        mode = a.radio(t("print.mode"), ["home", "shop", "proof"], key="pr_mode",
                       format_func=lambda m: t(f"print.mode_{m}"))
        paper = b.radio(t("print.paper"), ["a4", "letter"], key="pr_paper",
                        format_func=lambda p: {"a4": "A4", "letter": "US Letter"}[p])
        use_stickers = st.checkbox(t("print.stickers"), value=True, key="pr_stickers")
        backs = st.checkbox(t("print.backs"), value=False, key="pr_backs", disabled=mode == "proof")
        offset = (0.0, 0.0)
        if backs and mode == "home":
            c, d = st.columns(2)
            offset = (c.number_input(t("print.offset_x"), -10.0, 10.0, 0.0, 0.1, key="pr_ox"),
                      d.number_input(t("print.offset_y"), -10.0, 10.0, 0.0, 0.1, key="pr_oy"))
        dpi = st.select_slider(t("print.dpi"), [150, 200, 300, 600], value=300, key="pr_dpi")
        previous = st.file_uploader(t("print.changed_since"), type=["json"], key="pr_prev",
                                    help=t("print.changed_since_help"))
        shop = _shop_options(mode)
    try:
        cards = cards_for(source, value)
    except CardbaseError as exc:
        show_error(exc)
        return
    with right:
        if not cards:
            st.info(t("print.nothing"))
            return
        st.caption(t("print.count", n=len(cards), unique=len({c.id for c in cards})))
        if mode == "home":
            try:
                sheet = first_sheet_png(cards[:12], paper, table, use_stickers, lang())
                st.image(sheet, caption=t("print.first_sheet"), width=520)
            except CardbaseError as exc:
                show_error(exc)
        name = _file_name(source, value, {d[0]: d[1] for d in saved})
        signature = repr((source, value, mode, paper, int(dpi), backs, use_stickers, offset,
                          previous.name if previous else None, shop["preset"], shop["overlay"]))
        if st.button(t("print.make"), key="pr_go", type="primary"):
            bar = st.progress(0.0, text=t("print.working", n=len(cards)))
            try:
                st.session_state["pr_result"] = {
                    "name": name, "signature": signature, **run_print(cards, mode=mode, paper=paper, dpi=int(dpi), backs=backs,
                                              offset=offset, use_stickers=use_stickers, table=table,
                                              changed_since=previous.getvalue() if previous else None,
                                              name=name, preset=shop["preset"],
                                              proof_overlay=shop["overlay"],
                                              progress=_progress_bar(bar, len(cards)))}
            except CardbaseError as exc:
                show_error(exc)
            finally:
                bar.empty()
        result = st.session_state.get("pr_result")
        if result and result.get("signature") == signature:
            _downloads(result, simulate=shop["simulate"])
        if mode == "proof":
            _colour_risks(cards, table)
        _tts_download(source, value, cards, name, {d[0]: d[1] for d in saved}, use_stickers, table)


def _tts_download(source: str, value: Any, cards: list[CardDef], name: str,
                  deck_names: dict[int, str], use_stickers: bool, table: dict[str, str]) -> None:
    """The same export as ``cardbase tts export``, as one zip: the saved object and the images
    (an edition counts every card's copies, like a box game)."""
    from cardbase.i18n import tr
    from cardbase.outputs.tts import TtsSource, edition_source, edition_symbols, export_zip, slug

    st.divider()
    st.subheader(tr("tts.ui.title"))
    st.caption(tr("tts.ui.help"))
    title = deck_names.get(value, name) if source == "deck" else name
    if source == "edition":
        with session() as s:
            title = catalog.get_edition(s, value).name
    base_url = st.text_input(tr("tts.ui.base_url"), key="pr_tts_url", placeholder="https://…",
                             help=tr("tts.ui.base_url_help"))
    # no default: the folder is on the player's computer, which the server cannot know
    folder = st.text_input(tr("tts.ui.folder"), key="pr_tts_dir",
                           placeholder=tr("tts.ui.folder_placeholder", folder=slug(title)),
                           help=tr("tts.ui.folder_help", folder=slug(title)), disabled=bool(base_url.strip()))
    images_at = base_url.strip() or folder_url(folder)
    if not images_at:
        st.caption(tr("tts.ui.folder_needed"))
    signature = repr((source, value, use_stickers, base_url, folder))
    if st.button(tr("tts.ui.make"), key="pr_tts_go", disabled=not images_at):
        try:
            with session() as s:
                src = edition_source(s, value) if source == "edition" else \
                    TtsSource(title, source, tuple(cards))
                symbols = edition_symbols(s, src.cards)
            data, result = export_zip(src, base_url=images_at, stickers=use_stickers,
                                      sticker_table=table, edition_symbols=symbols)
            st.session_state["pr_tts"] = {"signature": signature, "zip": data,
                                          "name": result.object.stem, "cards": result.cards,
                                          "sheets": len(result.sheets), "faces": result.faces}
        except CardbaseError as exc:
            show_error(exc)
    made = st.session_state.get("pr_tts")
    if made and made.get("signature") == signature:
        st.success(tr("tts.ui.done", cards=made["cards"], faces=made["faces"], sheets=made["sheets"]))
        st.download_button(tr("tts.ui.download"), made["zip"], file_name=f"{made['name']}-tts.zip",
                           mime="application/zip", key="pr_tts_dl")


def folder_url(folder: str) -> str | None:
    """The ``file://`` address of a folder of the player's computer, typed as a full path
    (``C:\\Users\\me\\deck`` or ``/home/me/deck``); None for an empty or relative path, which no
    computer could find its images from."""
    from pathlib import PurePosixPath, PureWindowsPath

    text = (folder or "").strip().strip('"')
    if re.match(r"^[A-Za-z]:[\\/]", text):
        return PureWindowsPath(text).as_uri() + "/"
    if text.startswith("/"):
        return PurePosixPath(text).as_uri() + "/"
    return None


def safe_file_name(text: str, fallback: str = "cartes") -> str:
    """A file name anyone's system accepts: letters without accents, digits, ``-`` and ``_``
    (« Bosquet en fête / v2 » → ``bosquet-en-fete-v2``), at most 80 characters."""
    from cardbase.text import fold

    out, dash = [], False
    for ch in fold(text):
        if ch.isascii() and (ch.isalnum() or ch == "_"):
            out.append(ch)
            dash = False
        elif not dash and out:
            out.append("-")
            dash = True
    name = "".join(out).strip("-")[:80].strip("-")
    return name or fallback


def _file_name(source: str, value: Any, deck_names: dict[int, str] | None = None) -> str:
    """The download's file name: the edition code, the saved deck's own name…"""
    if source == "edition":
        return safe_file_name(f"{t('print.file_cards')}-{value}")
    if source == "deck":
        name = (deck_names or {}).get(value)
        return safe_file_name(name) if name else safe_file_name(f"deck-{value}")
    if source == "builder":
        return safe_file_name(t("print.file_builder"))
    return safe_file_name(t("print.file_query"))


# --------------------------------------------------------------------------- shop presets, proofs

def _shop_options(mode: str) -> dict[str, Any]:
    """The print-shop preset (shop and proof), the trim/safe lines and the simulated deficiency
    (proof) chosen on the page."""
    from cardbase.outputs.printing.colourblind import DEFICIENCIES, deficiency_label
    from cardbase.outputs.printing.presets import load_presets

    chosen: dict[str, Any] = {"preset": None, "overlay": False, "simulate": None}
    if mode not in ("shop", "proof"):
        return chosen
    try:
        presets = load_presets()
    except CardbaseError as exc:
        show_error(exc)
        return chosen
    names = [None, *presets]

    def label(name: str | None) -> str:
        if name is None:
            return t("shop.ui.no_preset")
        p = presets[name]
        return f"{name} — {p.shop_label} ({p.canvas_px[0]} × {p.canvas_px[1]} px)"

    chosen["preset"] = st.selectbox(t("shop.ui.preset"), names, key="pr_preset", format_func=label,
                                    help=t("shop.ui.preset_help"))
    if chosen["preset"] and presets[chosen["preset"]].note:
        st.caption(presets[chosen["preset"]].note)
    if mode == "proof":
        chosen["overlay"] = st.checkbox(t("shop.ui.overlay"), value=False, key="pr_overlay")
        chosen["simulate"] = st.selectbox(t("shop.ui.simulate"), [None, *DEFICIENCIES],
                                         key="pr_simulate",
                                         format_func=lambda d: t("shop.ui.no_simulation") if d is None
                                         else deficiency_label(d))
    return chosen


@st.cache_data(show_spinner=False, max_entries=8)
def _simulated_png(proof: bytes, deficiency: str) -> bytes:
    from cardbase.outputs.printing.colourblind import simulate_image

    buf = io.BytesIO()
    simulate_image(Image.open(io.BytesIO(proof)), deficiency).save(buf, format="PNG")
    return buf.getvalue()


def _colour_risks(cards: list[CardDef], table: dict[str, str]) -> None:
    """The pairs of printed colours a colour-blind player may not tell apart, worst first."""
    import pandas as pd

    from cardbase.outputs.printing.colourblind import colour_report, deficiency_label, fix_for

    try:
        report = colour_report(cards, sticker_table=table)
    except CardbaseError as exc:
        show_error(exc)
        return
    st.subheader(t("shop.ui.colours_title"))
    risky = [p for p in report["pairs"] if not p["distinct"]]
    if not risky:
        st.success(t("shop.ui.colours_ok", n=len(report["colours"]),
                     threshold=f"{report['threshold']:g}"))
        return
    rows = [{t("shop.proof.col_vision"): deficiency_label(p["deficiency"]),
             t("shop.proof.col_pair"): f"{p['a']} / {p['b']}", "ΔE": num(p["delta_e"], 1),
             t("shop.proof.col_cue"): t(f"shop.cvd.cue.{p['cue']}"),
             t("shop.proof.col_fix"): fix_for(p, report.get("symbols"))} for p in risky]
    st.table(pd.DataFrame(rows).set_index(t("shop.proof.col_vision")))
    st.caption(t("shop.ui.colours_method", threshold=f"{report['threshold']:g}"))


def _downloads(result: dict[str, Any], simulate: str | None = None) -> None:
    if result.get("nothing_changed"):
        st.info(t("print.nothing_changed", skipped=result["skipped"]))
        return
    st.success(t("print.done", pages=result["pages"], cards=result["cards"], skipped=result["skipped"]))
    name = result["name"]
    if result.get("pdf"):
        st.download_button(t("print.download_pdf"), result["pdf"], file_name=f"{name}.pdf",
                           mime="application/pdf", key="pr_dl_pdf", type="primary")
    if result.get("zip"):
        st.download_button(t("print.download_zip"), result["zip"], file_name=f"{name}-png.zip",
                           mime="application/zip", key="pr_dl_zip")
    for note in result.get("notes") or []:
        st.info(note)
    if result.get("proof") and simulate:
        from cardbase.outputs.printing.colourblind import deficiency_label

        plain, simulated = st.columns(2)
        plain.image(result["proof"], caption=t("shop.ui.proof_plain"))
        simulated.image(_simulated_png(result["proof"], simulate),
                        caption=t("shop.ui.proof_simulated", deficiency=deficiency_label(simulate)))
        st.download_button(t("print.download_proof"), result["proof"], file_name=f"{name}.png",
                           mime="image/png", key="pr_dl_proof")
    elif result.get("proof"):
        st.image(result["proof"])
        st.download_button(t("print.download_proof"), result["proof"], file_name=f"{name}.png",
                           mime="image/png", key="pr_dl_proof")
    if result.get("manifest"):
        st.download_button(t("print.download_manifest"), result["manifest"],
                           file_name=f"{name}.manifest.json", mime="application/json", key="pr_dl_manifest",
                           help=t("print.manifest_help"))
