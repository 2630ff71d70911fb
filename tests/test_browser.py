"""End-to-end tests in a real Chromium (Playwright) against `streamlit run` on a temporary database.

One server serves every test (see ``browser_support``). Set ``CARDBASE_SCREENSHOTS=docs/images``
to refresh the screenshots of the documentation while the tests run.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from browser_support import (  # noqa: F401 - fixtures
    PASSWORD,
    browser,
    chromium_path,
    goto,
    page,
    shot,
    st_server,
    wait_idle,
)

pytestmark = pytest.mark.browser

TIMINGS: dict[str, float] = {}


def _sidebar(pg, label: str) -> None:
    pg.locator('[data-testid="stSidebarNav"]').get_by_text(label, exact=True).click()
    pg.wait_for_selector(f'h1:has-text("{label}")')
    wait_idle(pg)


def test_first_page_search_and_language(page, st_server, capsys) -> None:  # noqa: F811
    TIMINGS["first_page_s"] = goto(page, st_server)
    assert page.locator("h1").first.inner_text() == "Cartes"
    page.get_by_text(re.compile(r"\d+ carte\(s\) en \d+ ms")).first.wait_for()
    shot(page, "cards")

    box = page.locator(".st-key-cards_q input")
    start = time.perf_counter()
    box.fill("k:foule v>=2")
    box.press("Enter")
    caption = page.get_by_text(re.compile(r"\d+ carte\(s\) en \d+ ms · k:foule v>=2"))
    caption.wait_for()
    TIMINGS["search_roundtrip_s"] = time.perf_counter() - start
    text = caption.inner_text()
    n, ms = (int(x) for x in re.match(r"(\d+) carte\(s\) en (\d+) ms", text).groups())
    TIMINGS["search_sql_ms"] = ms
    assert n >= 8

    page.get_by_text("English", exact=True).click()
    page.wait_for_selector('h1:has-text("Cards")')
    page.get_by_text("Français", exact=True).click()
    page.wait_for_selector('h1:has-text("Cartes")')
    with capsys.disabled():
        print(f"\n[browser] server up in {st_server.started_in:.2f} s; first page shown in "
              f"{TIMINGS['first_page_s']:.2f} s; search 'k:foule v>=2': {n} cards, {ms} ms in SQL, "
              f"{TIMINGS['search_roundtrip_s']:.2f} s from Enter to results on screen")


def test_build_a_legal_deck_by_clicking_then_print_it(page, st_server, tmp_path: Path) -> None:  # noqa: F811
    goto(page, st_server, "decks")
    search = page.locator(".st-key-deck_q input")
    search.fill("e:NP1 -k:foule")
    search.press("Enter")
    page.get_by_text(re.compile(r"\d+ résultat\(s\)")).wait_for()
    wait_idle(page)
    total = 0
    start = time.perf_counter()
    for number in range(1, 60):
        if total == 20:
            break
        button = page.locator(f".st-key-add_NP1-{number:03d} button").first
        if not button.count():
            continue
        for _ in range(2):
            button.click()
            total += 1
            page.get_by_text(f"Dans le deck : {total} carte(s)").wait_for()
    assert total == 20
    TIMINGS["deck_click_s"] = (time.perf_counter() - start) / 20
    print(f"\n[browser] one deck-builder click, rerun and redraw: {TIMINGS['deck_click_s']:.2f} s")
    page.get_by_text("Deck légal : 20 cartes.").wait_for()
    shot(page, "deck-builder")

    page.get_by_role("tab", name="Statistiques").click()
    page.get_by_text("Courbe des valeurs").wait_for()
    page.locator('[data-testid="stVegaLiteChart"]').nth(1).wait_for()
    page.get_by_text("Courbe des valeurs").scroll_into_view_if_needed()
    wait_idle(page)
    shot(page, "deck-stats")

    _sidebar(page, "Impression")
    page.get_by_text("Le deck en construction").click()
    page.get_by_text("20 carte(s) à imprimer").wait_for()
    wait_idle(page)
    page.get_by_role("button", name="Préparer les fichiers").click()
    download_button = page.get_by_role("button", name="Télécharger le PDF")
    download_button.wait_for(timeout=60_000)
    shot(page, "print")
    with page.expect_download() as info:
        download_button.click()
    target = tmp_path / "deck.pdf"
    info.value.save_as(target)
    data = target.read_bytes()
    assert data.startswith(b"%PDF-")
    assert b"%%EOF" in data[-64:]
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", data))
    assert pages == 3  # 20 cards, 9 a sheet
    assert b"/MediaBox [0 0 595" in data or re.search(rb"/MediaBox\s*\[\s*0\s+0\s+595(\.\d+)?\s+841", data)


def test_play_a_goldfish_game_to_the_end(page, st_server) -> None:  # noqa: F811
    goto(page, st_server, "playtest")
    page.get_by_role("button", name="Nouvelle partie").click()
    page.get_by_text("Votre main").wait_for()
    wait_idle(page)
    shot(page, "playtest")
    played = re.compile(r"(\d+) action\(s\) jouée\(s\)")
    for _ in range(40):
        if page.get_by_text(re.compile(r"Partie terminée : -?\d+ points")).count():
            break
        count = int(played.search(page.get_by_text(played).inner_text()).group(1))
        after = page.get_by_text(re.compile(rf"^{count + 1} action\(s\) jouée\(s\)"))
        for attempt in range(3):  # a click that lands while the page is redrawn is lost: click again
            wait_idle(page)
            choice = page.locator('[class*="st-key-pt_game_choice_"] button')
            discard = page.locator('[class*="st-key-pt_game_discard_"] button:not([disabled])')
            (choice if choice.count() else discard).first.click()
            try:
                after.wait_for(timeout=20_000)
                break
            except Exception:
                if attempt == 2:
                    raise
        wait_idle(page)
    final = page.get_by_text(re.compile(r"Partie terminée : -?\d+ points"))
    final.wait_for()
    page.get_by_text("Décompte carte par carte").wait_for()
    shot(page, "goldfish-end")


def test_editor_mode_unlocks_the_card_editor(page, st_server) -> None:  # noqa: F811
    goto(page, st_server, "editor")
    page.get_by_text("Lecture seule").first.wait_for()
    page.locator(".st-key-editor_password input").fill(PASSWORD)
    page.get_by_role("button", name="Déverrouiller le mode éditeur").click()
    page.get_by_text("Mode éditeur actif").wait_for()
    page.get_by_role("button", name="Enregistrer").wait_for()
    page.get_by_text("Aperçu de la carte imprimée").first.wait_for()
    shot(page, "editor")


HOSTILE_HOST = "pixel.cardbase.invalid"


def _wait_text(pg, text: str) -> None:
    """Wait until ``text`` is shown literally (invisible word joiners keep addresses from linking)."""
    pg.wait_for_function("t => document.body.innerText.replace(/\u2060/g, '').includes(t)", arg=text)


def _add_hostile_card(server) -> dict[str, str]:
    """A card whose texts are Markdown that would fetch, link and format if rendered."""
    from cardbase import access, catalog, db

    fields = {
        "number": 990, "name": "Braisillon _petit_ *rouge*", "value": 2, "colour": "rouge",
        "effect_text": f"[Clique ici](http://{HOSTILE_HOST}/lien) :red[rouge] www.{HOSTILE_HOST}",
        "flavour": f"![x](http://{HOSTILE_HOST}/pixel.png) <img src=http://{HOSTILE_HOST}/b.png>",
    }
    engine = db.make_engine(f"sqlite:///{server.db_path}")
    try:
        with access.editor_context(None), db.session_scope(engine) as s:
            if not any(c["number"] == 990 for c in catalog.card_dicts(s, edition="NP1")):
                catalog.create_card(s, edition="NP1", fields=fields)
    finally:
        engine.dispose()
    return fields


def test_what_users_wrote_shows_as_text_and_fetches_nothing(page, st_server) -> None:  # noqa: F811
    fields = _add_hostile_card(st_server)
    requests: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    goto(page, st_server)
    box = page.locator(".st-key-cards_q input")
    box.fill("Braisillon petit")
    box.press("Enter")
    page.get_by_text(re.compile(r"^1 carte\(s\) en \d+ ms")).wait_for()
    wait_idle(page)
    detail = page.locator('[data-testid="stMainBlockContainer"]')
    detail.get_by_role("heading", name=fields["name"]).wait_for()
    for text in (fields["name"], fields["effect_text"], fields["flavour"]):
        _wait_text(page, text)
    page.get_by_text(re.compile("^Decks qui l'utilisent")).scroll_into_view_if_needed()
    wait_idle(page)
    shot(page, "cards-literal")

    goto(page, st_server, "decks")
    search = page.locator(".st-key-deck_q input")
    search.fill("Braisillon petit")
    search.press("Enter")
    page.get_by_text(re.compile(r"^1 résultat\(s\)")).wait_for()
    wait_idle(page)
    page.get_by_text(fields["name"], exact=False).first.wait_for()
    _wait_text(page, fields["effect_text"])

    for pg_html in (page.content(),):
        assert f'href="http://{HOSTILE_HOST}' not in pg_html and f'src="http://{HOSTILE_HOST}' not in pg_html
        assert "<em>petit</em>" not in pg_html
    fetched = [u for u in requests if HOSTILE_HOST in u]
    assert not fetched, fetched


def test_the_cards_page_answers_at_its_own_url(page, st_server) -> None:  # noqa: F811
    goto(page, st_server, "cards")
    page.get_by_text(re.compile(r"\d+ carte\(s\) en \d+ ms")).first.wait_for()
    assert page.locator("h1").first.inner_text() == "Cartes"
    page.wait_for_timeout(500)
    assert not page.get_by_text("Page not found").count()
    assert not page.get_by_text(re.compile("no corresponding file|Page introuvable")).count()


def test_the_editor_keeps_its_place_across_pages(page, st_server) -> None:  # noqa: F811
    goto(page, st_server, "editor")
    page.locator(".st-key-editor_password input").fill(PASSWORD)
    page.get_by_role("button", name="Déverrouiller le mode éditeur").click()
    page.get_by_text("Mode éditeur actif").wait_for()
    wait_idle(page)
    # during a redraw Streamlit can briefly hold the old widget beside the new one: read the last
    picked = page.locator(".st-key-ed_pick_edition input")
    page.wait_for_function("() => document.querySelectorAll('.st-key-ed_pick_edition input').length === 1")
    assert picked.input_value() == "NP1"  # the main game
    card = page.locator(".st-key-ed_pick_card")
    card.click()
    page.get_by_role("option", name=re.compile("^NP1-007")).click()
    wait_idle(page)
    flavour = page.locator(".st-key-edf_flavour input")
    flavour.fill("Une saisie en cours")
    flavour.press("Enter")
    page.get_by_text("Modifications non enregistrées : Texte d'ambiance").wait_for()
    _sidebar(page, "Cartes")
    _sidebar(page, "Éditeur de cartes")
    page.get_by_text("Modifications non enregistrées : Texte d'ambiance").wait_for()
    assert page.locator(".st-key-ed_pick_card input").input_value().startswith("NP1-007")
    assert page.locator(".st-key-edf_flavour input").input_value() == "Une saisie en cours"


def test_play_an_overkill_game_to_the_end(page, st_server, capsys) -> None:  # noqa: F811
    """The game selector opens OVERKILL's table; a game against the greedy bot is played to its end
    by clicking draw and stand, then a small batch draws its charts."""
    page.set_viewport_size({"width": 1400, "height": 1350})  # the whole table in one screenshot
    goto(page, st_server, "playtest")
    game = page.locator(".st-key-pt_gamecode input")
    game.click()
    game.fill("OVERK")
    page.get_by_role("option", name="OVERKILL").click()
    wait_idle(page)
    page.locator(".st-key-ok_new button").click()
    page.get_by_text("Vos lignes").wait_for()
    wait_idle(page)
    played = re.compile(r"(\d+) action\(s\) jouée\(s\)")
    final = re.compile(r"Partie terminée \(.+\) : (gagné|perdu|égalité)")
    took = False
    clicks: list[float] = []
    for i in range(80):
        if page.get_by_text(final).count():
            break
        count = int(played.search(page.get_by_text(played).inner_text()).group(1))
        if not took and i >= 3 and not page.locator('[data-testid="stExpander"] details[open]').count():
            shot(page, "overkill")  # the table, the last round's reveal folded
            took = True
        draw = page.locator(".st-key-ok_draw button:not([disabled])")
        start = time.perf_counter()
        (draw if i % 2 == 0 and draw.count() else page.locator(".st-key-ok_pass button")).click()
        page.wait_for_function(
            """(n) => { const text = document.body.innerText;
                        const m = text.match(/(\\d+) action\\(s\\) jouée\\(s\\)/);
                        return /Partie terminée \\(/.test(text) || (m && Number(m[1]) > n); }""", arg=count)
        wait_idle(page)
        page.get_by_text("Lignes du bot").wait_for()
        clicks.append(time.perf_counter() - start)
        wait_idle(page)
    page.get_by_text(final).wait_for()
    page.get_by_text("Fin de la manche").first.wait_for()
    shot(page, "overkill-end")
    page.get_by_text("Parties en série").click()
    wait_idle(page)
    page.locator(".st-key-okb_go button").click()
    page.get_by_text("Impact de chaque carte").wait_for(timeout=120_000)
    wait_idle(page)
    page.locator(".vega-embed").nth(3).wait_for()  # seats, cards, endings, rounds
    shot(page, "overkill-batch")
    clicks.sort()
    with capsys.disabled():
        print(f"\n[browser] OVERKILL against the greedy bot: {len(clicks)} clicks to the end, "
              f"median {clicks[len(clicks) // 2]:.2f} s from click to the table redrawn "
              f"(max {clicks[-1]:.2f} s)")


def test_the_server_log_has_no_errors(st_server) -> None:  # noqa: F811
    """Runs last: every page shown above rendered without a conversion error or a traceback
    (the Cards table used to log a pyarrow error on every render)."""
    log = st_server.log.read_text(encoding="utf-8", errors="replace")
    bad = [line for line in log.splitlines()
           if re.search(r"Arrow|Traceback|Error|Exception", line) and "ScriptRunContext" not in line]
    assert not bad, "\n".join(bad[:20])


def test_the_app_loads_nothing_from_outside_its_server(page, st_server) -> None:  # noqa: F811
    """A team's private app: every request of every page goes to its own server (the tab's icon,
    fonts and icons included)."""
    from urllib.parse import urlparse

    requests: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    for path in ("", "decks", "playtest", "games", "print", "stickers"):
        goto(page, st_server, path)
        wait_idle(page)
    assert requests
    outside = sorted({u for u in requests
                      if urlparse(u).scheme not in ("data", "blob")
                      and urlparse(u).hostname not in ("127.0.0.1", "localhost", "::1")})
    assert not outside, outside
    icon = page.locator('link[rel="shortcut icon"], link[rel="icon"]').first.get_attribute("href")
    assert icon and "gstatic" not in icon
