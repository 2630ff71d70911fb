"""End-to-end tests in a real Chromium (Playwright) against `streamlit run` on a temporary database.

One server serves every test (see ``browser_support``). Set ``CARDBASE_SCREENSHOTS=docs/images``
to refresh the screenshots of the documentation while the tests run.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from pathlib import Path

import pytest
from browser_support import (  # the fixtures themselves are registered in conftest.py
    BROWSER_WAIT_MS,
    PASSWORD,
    goto,
    pick_option,
    shot,
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
    page.get_by_text(re.compile(r"\d+ cartes? en \d+ ms")).first.wait_for()
    shot(page, "cards")

    box = page.locator(".st-key-cards_q input")
    start = time.perf_counter()
    box.fill("k:foule v>=2")
    box.press("Enter")
    caption = page.get_by_text(re.compile(r"\d+ cartes? en \d+ ms · k:foule v>=2"))
    caption.wait_for()
    TIMINGS["search_roundtrip_s"] = time.perf_counter() - start
    text = caption.inner_text()
    n, ms = (int(x) for x in re.match(r"(\d+) cartes? en (\d+) ms", text).groups())
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


def test_the_cards_open_as_a_list_and_the_interactive_table_is_one_click_away(page, st_server) -> None:  # noqa: F811
    """The first view is the light list (no interactive table, whose scripts the first page does not
    fetch): every result a row; the interactive table comes with a click, and the list with another."""
    scripts: list[str] = []
    page.on("request", lambda req: scripts.append(req.url.rsplit("/", 1)[-1]) if req.url.endswith(".js") else None)
    goto(page, st_server)
    caption = page.get_by_text(re.compile(r"^\d+ cartes? en \d+ ms"))
    caption.wait_for()
    count = int(caption.inner_text().split()[0])
    rows = page.locator(".st-key-cards_list table tbody tr")
    rows.first.wait_for()
    assert rows.count() == count > 10
    assert rows.first.locator("td").first.inner_text() == "NP1-001"
    assert page.locator(".st-key-cards_list th").all_inner_texts()[:3] == ["Réf.", "Nom", "Valeur"]
    wait_idle(page)
    assert not page.locator('[data-testid="stDataFrame"]').count()
    assert not any(name.startswith("DataFrame.") for name in scripts), scripts
    page.get_by_text("Tableau interactif", exact=True).click()
    page.locator('[data-testid="stDataFrame"]').wait_for()
    assert not page.locator(".st-key-cards_list").count()
    page.get_by_text("Liste", exact=True).click()
    rows.first.wait_for()
    assert rows.count() == count


def test_build_a_legal_deck_by_clicking_then_print_it(page, st_server, tmp_path: Path) -> None:  # noqa: F811
    goto(page, st_server, "decks")
    search = page.locator(".st-key-deck_q input")
    search.fill("e:NP1 -k:foule")
    search.press("Enter")
    page.get_by_text(re.compile(r"\d+ résultats?")).wait_for()
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
            page.get_by_text(f"Dans le deck : {total} {'carte' if total < 2 else 'cartes'}").wait_for()
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
    page.get_by_text("20 cartes à imprimer").wait_for()
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
    played = re.compile(r"(\d+) actions? jouées?")
    for _ in range(40):
        if page.get_by_text(re.compile(r"Partie terminée : -?\d+ points")).count():
            break
        count = int(played.search(page.get_by_text(played).inner_text()).group(1))
        after = page.get_by_text(re.compile(rf"^{count + 1} actions? jouées?"))
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
    from cardbase import access
    from cardbase.catalog import cards as catalog
    from cardbase.storage import db

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
    page.get_by_text(re.compile(r"^1 carte en \d+ ms")).wait_for()
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
    page.get_by_text(re.compile(r"^1 résultat\b")).wait_for()
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
    page.get_by_text(re.compile(r"\d+ cartes? en \d+ ms")).first.wait_for()
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
    pick_option(page, "ed_pick_card", re.compile("^NP1-007"))
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
    pick_option(page, "pt_gamecode", "OVERKILL", typed="OVERK")
    wait_idle(page)
    page.locator(".st-key-ok_new button").click()
    page.get_by_text("Vos lignes").wait_for()
    wait_idle(page)
    played = re.compile(r"(\d+) actions? jouées?")
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
                        const m = text.match(/(\\d+) actions? jouées?/);
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


# --------------------------------------------------------------------------- the Playtest tables
#
# Each table is played to its end by clicking. The seed the table shows lets the test keep a
# mirror of the game: the engine, built from the same database, replays every click the test makes
# and every bot move (the bot of action i is seeded seed + i, as the app seeds it), so that at each
# step the test knows what the page must show (the action count, hand sizes, the final box) and
# which card names the player cannot know, which must then be absent from the whole page.

ALERT = {"success": "stAlertContentSuccess", "error": "stAlertContentError", "info": "stAlertContentInfo",
         "warning": "stAlertContentWarning"}


def _db_session(server):
    from cardbase.storage import db

    engine = db.make_engine(f"sqlite:///{server.db_path}")
    return engine, db.session_scope(engine)


def _box_game(server, code: str, players: int, **options):
    from cardbase.games import registry

    cards = tuple(_box_game_cards(server, code))
    return registry.playable(code).build(cards, players, **options)


def _box_game_cards(server, code: str) -> list:
    from cardbase.catalog import cards as catalog

    engine, scope = _db_session(server)
    try:
        with scope as s:
            return catalog.card_defs(s, game=code)
    finally:
        engine.dispose()


def _bots_play(state, actions: list[int], *, human: int, bot: str, seed: int, game) -> None:
    """The bots' moves until it is seat ``human``'s decision, as the app plays them."""
    from cardbase.playtest.games import seat_bot

    while not state.is_terminal() and state.current_player() != human:
        a = seat_bot(bot, seed + len(actions), game).step(state)
        state.apply_action(a)
        actions.append(a)


def _pick_option(pg, option: str, key: str) -> None:
    """Choose ``option`` in the select box of widget key ``key`` and wait until it shows it."""
    pick_option(pg, key, option, typed=option[:5])
    wait_idle(pg)
    pg.wait_for_function("([k, v]) => { const i = document.querySelector(`.st-key-${k} input`);"
                         " return i && i.value === v; }", arg=[key, option])


def _settled(pg) -> None:
    """The script has finished and the page holds no element of the previous run."""
    wait_idle(pg)
    pg.wait_for_function("() => !document.querySelector('[data-stale=\"true\"]')")


def _metric(pg, label: str) -> str:
    box = pg.locator('[data-testid="stMetric"]').filter(has_text=label).first
    return box.locator('[data-testid="stMetricValue"]').inner_text().strip()


def _main_text(pg) -> str:
    return pg.locator('[data-testid="stMainBlockContainer"]').inner_text()


def _click_until(pg, selector: str, count_pattern: str, expected: int, *, tries: int = 3) -> float:
    """Click the button of CSS ``selector`` until the page shows ``expected`` actions played (a click landing while the
    page is redrawn can be lost); the seconds from the click that took to the table redrawn."""
    regex = re.compile(count_pattern)
    for attempt in range(tries):
        wait_idle(pg)
        now = regex.search(_main_text(pg))
        if now and int(now.group(1)) == expected:
            break  # the previous attempt took after all
        # during a redraw the old widgets stay beside the new ones for a moment (marked stale); a
        # button with a tooltip is drawn twice, one copy hidden: click the visible one
        pg.wait_for_function("() => !document.querySelector('[data-stale=\"true\"]')")
        start = time.perf_counter()
        pg.locator(f"{selector} >> visible=true").first.click()
        try:
            pg.wait_for_function("([p, n]) => { const m = document.querySelector("
                                 "'[data-testid=\"stMainBlockContainer\"]').innerText.match(new RegExp(p));"
                                 " return m && Number(m[1]) === n; }", arg=[count_pattern, expected],
                                 timeout=25_000)
            _settled(pg)
            return time.perf_counter() - start
        except Exception:
            if attempt == tries - 1:
                raise
    return float("nan")


def _wait_count(pg, selector: str, n: int) -> None:
    """The page shows ``n`` elements of ``selector`` (waiting a little for the redraw to settle)."""
    try:
        pg.wait_for_function("([s, n]) => document.querySelectorAll(s).length === n", arg=[selector, n],
                             timeout=10_000)
    except Exception:
        raise AssertionError(f"{pg.locator(selector).count()} × {selector} shown, {n} expected") from None


def _absent(pg, names: set[str], where: str, every: Iterable[str] = ()) -> None:
    """None of ``names`` (cards the player cannot know) is anywhere in the page. ``every``: all the
    card names of the box — a name inside a longer one (« Grenade » in « Grenade flash ») is looked
    for outside that longer name."""
    if not names:
        return
    html = pg.content()
    text = pg.locator("body").inner_text()
    shown = []
    for n in sorted(names):
        longer = sorted((m for m in every if n in m and m != n), key=len, reverse=True)
        for where_ in (html, text):
            for m in longer:
                where_ = where_.replace(m, " ")
            if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", where_):  # a whole name: « Rouge 1 » is not in « Rouge 12 »
                shown.append(n)
                break
    assert not shown, f"{where}: hidden card(s) shown in the page: {shown}"


def _final_box(pg, kind: str, text: str | re.Pattern) -> None:
    box = pg.locator(f'[data-testid="{ALERT[kind]}"]').filter(has_text=text)
    box.first.wait_for()
    box.first.scroll_into_view_if_needed()
    others = [k for k in ALERT if k != kind]
    for k in others:
        assert not pg.locator(f'[data-testid="{ALERT[k]}"]').filter(has_text=text).count(), \
            f"the final box must be {kind}, not {k}"


def _report(capsys, table: str, clicks: list[float], extra: str = "") -> None:
    clicks = sorted(c for c in clicks if c == c)
    assert clicks
    TIMINGS[f"{table}_median_s"] = clicks[len(clicks) // 2]
    with capsys.disabled():
        print(f"\n[browser] {table}: {len(clicks)} clicks to the end, median {clicks[len(clicks) // 2]:.2f} s "
              f"from click to the table redrawn (max {clicks[-1]:.2f} s){extra}")


def _nespanini_deck(server, name: str):
    from sqlmodel import select

    from cardbase.storage.models import Deck
    from cardbase.playtest import deck_defs_from_db

    engine, scope = _db_session(server)
    try:
        with scope as s:
            deck = s.exec(select(Deck).where(Deck.name == name)).one()
            return deck_defs_from_db(s, deck.id)
    finally:
        engine.dispose()


def test_play_a_nespanini_game_against_the_bot(page, st_server, capsys) -> None:  # noqa: F811
    """A NesPanini game against the greedy bot, to its end: at every decision the action count
    and the bot's hand size are the engine's, the bot's hand shows as backs and no card of it
    that you cannot know is named; the end is the result box of the right colour."""
    import random

    from cardbase.games.bots import make_bot
    from cardbase.games.nespanini import Game
    from cardbase.games.nespanini.state import replay

    goto(page, st_server, "playtest")
    page.get_by_text("Contre un bot", exact=True).click()
    wait_idle(page)
    mine = page.locator(".st-key-pt_bot_game_deck input").input_value()
    theirs = page.locator(".st-key-pt_bot_game_bdeck input").input_value()
    assert mine != theirs  # two different decks: the bot's cards are not all yours too
    page.locator(".st-key-pt_bot_game_new button").click()
    page.get_by_text("Votre main").wait_for()
    _settled(page)
    seed = int(_metric(page, "Graine"))
    my_deck, bot_deck = _nespanini_deck(st_server, mine), _nespanini_deck(st_server, theirs)
    game = Game([my_deck, bot_deck])
    state = replay(game, seed, [])
    actions: list[int] = []

    def bots() -> None:
        while not state.is_terminal() and state.current_player() != 0:
            a = make_bot("greedy", seed=seed + len(actions)).step(state)
            state.apply_action(a)
            actions.append(a)

    bots()
    rng = random.Random(seed)
    count = r"(\d+) actions? jouées?"
    clicks: list[float] = []
    secret_checked = 0
    took = False
    for _ in range(120):
        if state.is_terminal():
            break
        page.get_by_text(re.compile(rf"^{len(actions)} actions? jouées?")).wait_for()
        _settled(page)
        obs = state.observation(0)
        # the bot's hand: one back per card, its size the engine's
        line = page.locator('[data-testid="stMarkdownContainer"]').filter(has_text="Main du bot :").last
        backs = line.inner_text().count("crop_portrait")
        assert backs == obs.hand_sizes[1], (backs, obs.hand_sizes)
        assert _metric(page, "Graine") == str(seed)
        known = ({c.name for c in my_deck} | {c.name for d in obs.discards for c in d}
                 | {c.name for c in obs.revealed[1]} | {c.name for c in obs.choices})
        for ev in state.events or []:  # what an effect showed you (cards looked at, picked, given)
            if ev[0] in ("look", "reveal") and ev[1] == 0:
                known |= {state.table.defs[k].name for k in ev[2]}
            elif ev[0] in ("legendary-bottom", "pick", "give", "forced", "bury", "effect", "discard"):
                known.add(state.table.defs[ev[2]].name)
        secret = {c.name for c in (state.table.defs[k] for k in state.hands[1])} - known
        _absent(page, secret, f"after {len(actions)} actions")
        secret_checked += bool(secret)
        if not took and len(clicks) >= 4:
            shot(page, "playtest-bot")
            took = True
        legal = state.legal_actions(0)
        if state.decision is None:  # discard a card of your hand (a Légendaire cannot be)
            i = rng.choice([i for i, kind in enumerate(state.hands[0]) if kind in legal])
            action, button = state.hands[0][i], f".st-key-pt_bot_game_discard_{i} button"
        else:
            i = rng.randrange(len(legal))
            action, button = legal[i], f".st-key-pt_bot_game_choice_{i} button"
        state.apply_action(action)
        actions.append(action)
        bots()
        clicks.append(_click_until(page, button, count, len(actions)))
    assert state.is_terminal()
    assert secret_checked, "the bot never held a card you could not know: the check said nothing"
    me, bot = state.scores()
    kind, word = ("success", "Gagné") if me > bot else ("error", "Perdu") if me < bot else ("info", "Égalité")
    _final_box(page, kind, f"{word}")
    page.get_by_text(f"{me} à {bot}").first.wait_for()
    page.get_by_text("Décompte carte par carte").first.wait_for()
    shot(page, "playtest-bot-end")
    _report(capsys, "NesPanini against the greedy bot", clicks,
            f"; {secret_checked} decision(s) with bot cards you could not know, none shown")


def test_play_a_ct_vs_terror_game_with_four_seats(page, st_server, capsys) -> None:  # noqa: F811
    """CT vs Terror at 4 seats against greedy bots, to its end: at every decision the action count
    and every seat's hand size are the engine's, your hand is listed, the cards the others hold
    that you cannot know are named nowhere; the end says who won, a loss in red."""
    import random

    from cardbase.games.ctterror.state import PASS, replay
    from cardbase.ui import playtest_ctterror as ctt_view

    page.set_viewport_size({"width": 1400, "height": 1300})
    goto(page, st_server, "playtest")
    _pick_option(page, "CT vs Terror", "pt_gamecode")
    page.locator(".st-key-ctt_new button").wait_for()
    assert page.locator(".st-key-ctt_players input").input_value() == "4"
    page.locator(".st-key-ctt_new button").click()
    page.get_by_text("Votre main").first.wait_for()
    _settled(page)
    seed = int(re.search(r"graine (\d+)", _main_text(page)).group(1))
    game = _box_game(st_server, "ctterror", 4)
    state = replay(game, seed, [])
    actions: list[int] = []
    _bots_play(state, actions, human=0, bot="greedy", seed=seed, game=game)
    kinds = game.kinds
    texts = {c.ref: c.effect_text or "" for c in _box_game_cards(st_server, "ctterror")}
    rng = random.Random(seed)
    count = r"(\d+) actions? jouées? · graine"
    clicks: list[float] = []
    hidden_named = 0
    for step in range(80):
        page.get_by_text(re.compile(rf"^{len(actions)} actions? jouées? · graine {seed}")).wait_for()
        _settled(page)
        obs = state.observation(0)
        main = _main_text(page)
        sizes = [int(n) for n in re.findall(r"(\d+) cartes? en main", main)]
        assert sizes == list(obs.hand_sizes), (sizes, obs.hand_sizes)
        assert f"Votre main ({sum(obs.hand)})" in main
        mine = {kinds[k].name for k, n in enumerate(obs.hand) if n}
        for name in mine:
            assert name in main, f"your card {name} is not shown"
        if state.is_terminal():
            break
        legal = state.legal_actions(0)
        legal = [a for a in legal if a != PASS] + [a for a in legal if a == PASS]  # the page's order
        public = " ".join(state.event_to_string(ev) for ev in state.events or [])
        public += " ".join(state.action_to_string(a) for a in legal)
        public += " ".join(texts.get(kinds[k].ref, "") for k, n in enumerate(obs.hand) if n)
        # what the page says of the decision names cards as rules (« seule une Esquive sauve… »)
        public += " " + ctt_view.situation(state) + " ".join(ctt_view.action_label(state, a) for a in legal)
        known = mine | {kinds[k].name for k in obs.discard} | {kinds[k].name for _o, k, _m in state.table}
        held = {kinds[k].name for q in range(1, state.n) for k, n in enumerate(state.hands[q]) if n}
        secret = {name for name in held - known if name not in public}
        _absent(page, secret, f"after {len(actions)} actions", every=[k.name for k in kinds])
        hidden_named += len(secret)
        if step == 0:
            shot(page, "ctterror-table")
        i = rng.randrange(len(legal))
        state.apply_action(legal[i])
        actions.append(legal[i])
        _bots_play(state, actions, human=0, bot="greedy", seed=seed, game=game)
        clicks.append(_click_until(page, f".st-key-ctt_act_{i} button", count, len(actions)))
    assert state.is_terminal()
    obs = state.observation(0)
    if obs.winner is None:
        _final_box(page, "warning", "limite de tours")
    elif obs.winner == obs.teams[0]:
        _final_box(page, "success", "Votre équipe a gagné")
    else:
        _final_box(page, "error", "Votre équipe a perdu")
    assert not page.get_by_text("Votre décision").count()  # nothing left to decide
    shot(page, "ctterror-end")
    _report(capsys, "CT vs Terror, 4 seats, greedy bots", clicks,
            f"; {hidden_named} card name(s) held by others and unknowable, none shown")


def test_play_an_overseers_game_with_four_seats(page, st_server, capsys) -> None:  # noqa: F811
    """Overseers at 4 seats against greedy bots, three rounds to the end, by clicking (the
    placement by ticking cards): at every decision the action count is the engine's, the others'
    face-down cards show as as many backs, your own as marked cards, none of their names you could
    not know is in the page, and the totals stay hidden until the end (OV10); the final box is
    green only when you win alone."""
    import random

    from cardbase.games.overseers.state import PLACE, K, replay
    from cardbase.i18n import translate

    page.set_viewport_size({"width": 1400, "height": 1300})
    goto(page, st_server, "playtest")
    _pick_option(page, "Overseers", "pt_gamecode")
    page.locator(".st-key-ovs_new button").wait_for()
    assert page.locator(".st-key-ovs_players input").input_value() == "4"
    page.locator(".st-key-ovs_new button").click()
    page.get_by_text(re.compile(r"^4 joueurs · graine \d+")).wait_for()
    _settled(page)
    seed = int(re.search(r"graine (\d+)", _main_text(page)).group(1))
    game = _box_game(st_server, "overseers", 4)
    state = replay(game, seed, [])
    actions: list[int] = []
    _bots_play(state, actions, human=0, bot="greedy", seed=seed, game=game)
    cards = game.box.cards
    rng = random.Random(seed)
    count = r"· (\d+) actions? jouées? · bots"
    clicks: list[float] = []
    hidden_named = backs_seen = 0
    took = False
    for _ in range(80):
        page.get_by_text(re.compile(rf"· {len(actions)} actions? jouées? · bots")).first.wait_for()
        _settled(page)
        obs = state.observation(0)
        if state.is_terminal():
            break
        assert "Totaux :" not in _main_text(page)  # OV10: the others' points are not known yet
        if obs.table is None:  # before the reveal: the others' face-down cards are backs
            hidden = sum(b for q, b in enumerate(obs.bottoms) if q != 0)
            _wait_count(page, 'span[title="Carte face cachée"]', hidden)
            mine_down = len(obs.bottoms[0]) if obs.tops[0] or obs.bottoms[0] else 0
            _wait_count(page, 'span[title="Votre carte face cachée"]', mine_down)
            backs_seen += hidden
            known = ({k for hand in obs.seen for k in hand} | set(obs.kept) | set(obs.known_discard)
                     | {k for _q, k in obs.peeks} | {k for top in obs.tops if top for k in top})
            last_tops: tuple = ((),) * state.n
            for ev in state.events or []:  # cards shown to everyone on the way
                if ev[0] in ("take",):
                    known.add(ev[2])
                elif ev[0] == "give":
                    known.add(ev[3])
                elif ev[0] == "penalty":
                    known |= set(ev[2])
                elif ev[0] == "reveal":  # an earlier round's reveal stays on the page
                    known |= {k for row in ev[1] for k in row}
                elif ev[0] in ("pick", "last_card", "discard") and ev[1] == 0:  # your own log lines,
                    known.add(ev[2])  # of every round: the same card may be elsewhere now
                elif ev[0] == "place" and ev[1] == 0:
                    known |= set(ev[2]) | set(ev[3])
                elif ev[0] == "spy" and ev[1] == 0:
                    known.add(ev[3])
                elif ev[0] == "tops":
                    last_tops = ev[1]
                elif ev[0] == "shed" and (ev[1] == 0 or ev[2] in last_tops[ev[1]]):
                    known.add(ev[2])  # a card seen leaving (yours, or a top-row one) is named
            secret = {cards[k].name for q in range(1, state.n) for k in state.bottom[q] if k not in known}
            secret -= {cards[k].name for k in known}
            _absent(page, secret, f"after {len(actions)} actions")
            hidden_named += len(secret)
            if not took and hidden and obs.phase == "vote":
                shot(page, "overseers-vote")
                took = True
        legal = state.legal_actions(0)
        if obs.phase == "place":  # tick the cards of the bottom row, then place
            action = rng.choice(legal)
            mask = action - PLACE * K
            for i in range(len(state.kept[0])):
                if mask >> i & 1:
                    page.locator(f".st-key-ovs_down_{len(actions)}_{i} label").click()
                    wait_idle(page)
            button = ".st-key-ovs_place button:not([disabled])"
            page.locator(f"{button} >> visible=true").first.wait_for()
        else:
            i = rng.randrange(len(legal))
            action, button = legal[i], f".st-key-ovs_a_{i} button"
        state.apply_action(action)
        actions.append(action)
        _bots_play(state, actions, human=0, bot="greedy", seed=seed, game=game)
        clicks.append(_click_until(page, button, count, len(actions)))
    assert state.is_terminal() and took
    assert backs_seen and hidden_named, "no face-down card of another seat was ever checked"
    winners = state.winners
    if winners == [0]:
        _final_box(page, "success", "vous gagnez")
    elif len(winners) > 1:
        _final_box(page, "info", "victoire partagée")
    else:
        _final_box(page, "error", "victoire de")
    totals = ", ".join(f"{translate('fr', 'overseers_page.you_seat' if q == 0 else 'overseers_page.seat', seat=q + 1)}"
                       f" {v}" for q, v in enumerate(state.observation(0).totals))
    page.get_by_text(f"Totaux : {totals}", exact=True).wait_for()
    assert not page.locator('span[title="Carte face cachée"]').count()  # every card is shown at the end
    shot(page, "overseers-end")
    _report(capsys, "Overseers, 4 seats, greedy bots", clicks,
            f"; {hidden_named} face-down card name(s) of other seats checked absent")


def _type_cell(pg, editor, dx: float, dy: float, text: str) -> None:
    """Type ``text`` in the cell of a table editor at (dx, dy) from its corner, and check it took
    (the editor's accessible table holds the cells' text)."""
    grid = editor.locator('[data-testid="stDataFrameResizable"]')
    for _ in range(3):  # a click landing while the page is redrawn only focuses the table
        _settled(pg)
        grid.scroll_into_view_if_needed()
        frame = grid.bounding_box()
        pg.mouse.dblclick(frame["x"] + dx, frame["y"] + dy)  # opens the cell's editor
        entry = pg.locator("#portal textarea, #portal input").first
        try:
            entry.wait_for(timeout=5_000)
        except Exception:
            pg.screenshot(path="/tmp/browser_scratch/cell.png")
            continue
        entry.fill(text)
        entry.press("Enter")
        _settled(pg)
        if text in editor.evaluate("e => e.textContent"):
            return
    raise AssertionError(f"the table editor did not take {text!r}: {editor.evaluate('e => e.textContent')!r}")


def test_the_games_page_shows_a_game_and_creates_one(page, st_server) -> None:  # noqa: F811
    """The Jeux page lists the games; in editor mode it shows a game's settings, and creates a new
    game with a declared card field typed in the table editor: the game is listed, stored with its
    field, and the Playtest selector offers it with the « no engine yet » note."""
    from cardbase.catalog import gamesdata

    goto(page, st_server, "games")
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=\"stDataFrame\"]')]"
                           ".some(e => e.textContent.includes('Overseers') && e.textContent.includes('3–6'))")
    assert not page.locator(".st-key-ga_create").count()  # no form before editor mode
    page.locator(".st-key-editor_password input").fill(PASSWORD)
    page.get_by_role("button", name="Déverrouiller le mode éditeur").click()
    page.get_by_text("Mode éditeur actif").wait_for()
    wait_idle(page)

    _pick_option(page, "Overseers", "ga_pick")
    page.wait_for_function("() => document.querySelector('.st-key-gae_name input')?.value === 'Overseers'")
    assert page.locator(".st-key-gae_min_players input").input_value() == "3"
    assert page.locator(".st-key-gae_max_players input").input_value() == "6"
    page.wait_for_function("() => document.querySelector('[class*=\"st-key-gae_fields_\"]')?.textContent"
                           ".includes('vote')")
    _settled(page)  # the grid of the previous run may linger, marked stale, beside the new one
    fields = page.locator('[class*="st-key-gae_fields_"]:not([data-stale="true"])').first
    assert "int" in fields.evaluate("e => e.textContent")
    page.get_by_text("Aperçu d'une carte du jeu").scroll_into_view_if_needed()
    wait_idle(page)
    shot(page, "games-settings")

    page.get_by_text("Nouveau jeu", exact=True).click()
    wait_idle(page)
    page.locator(".st-key-gan_code input").fill("monjeu")
    name = page.locator(".st-key-gan_name input")
    name.fill("Mon jeu")
    name.press("Enter")
    wait_idle(page)
    _settled(page)
    editor = page.locator('[class*="st-key-gan_fields_"]')
    for attempt in range(3):  # the table's toolbar shows on hover, and not while the page is redrawn
        editor.hover()
        try:
            editor.get_by_role("button", name="Add row").click(timeout=10_000)
            break
        except Exception:
            if attempt == 2:
                raise
            _settled(page)
    _settled(page)
    _type_cell(page, editor, 40, 54, "force")  # the new row's name (its type is a number by default)
    shot(page, "games-new")
    page.locator(".st-key-ga_create button").click()
    wait_idle(page)
    assert not page.get_by_text("Jeu non créé").count(), _main_text(page)
    # created: the page switches to editing it (the toast saying so may be gone already)
    page.wait_for_function("() => document.querySelector('.st-key-ga_pick input')?.value === 'Mon jeu'")
    page.wait_for_function("() => document.querySelector('[class*=\"st-key-gae_fields_\"]')?.textContent"
                           ".includes('force')")
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=\"stDataFrame\"]')]"
                           ".some(e => e.textContent.includes('Mon jeu') && e.textContent.includes('force (nombre)'))")
    engine, scope = _db_session(st_server)
    try:
        with scope as s:
            stored = next(gamesdata.game_dict(g) for g in gamesdata.list_games(s) if g.code == "monjeu")
    finally:
        engine.dispose()
    assert stored["name"] == "Mon jeu"
    assert [(f["name"], f["type"], f.get("min"), f.get("max")) for f in stored["fields"]] == [("force", "int", None, None)]

    goto(page, st_server, "playtest")
    _pick_option(page, "Mon jeu", "pt_gamecode")
    page.locator('[data-testid="stAlertContentInfo"]').filter(has_text="pas encore de moteur").wait_for()
    page.get_by_role("link", name="Cartes").first.wait_for()
    shot(page, "playtest-no-engine")


def test_play_a_15_en_un_tour_game_to_the_end(page, st_server, capsys) -> None:  # noqa: F811
    """15 en un tour at 2 seats against the greedy bot, to its end, by clicking face-down cards and
    sometimes stopping: every click answers (the table is redrawn), a face-down card never shows
    its name before it is flipped, and the game ends with its final box and nothing left to click."""
    import random

    goto(page, st_server, "playtest")
    _pick_option(page, "15 en un tour (stop ou encore)", "pt_gamecode")
    page.locator(".st-key-pl_new button").wait_for()
    page.locator(".st-key-pl_new button").click()
    _settled(page)
    names = {c.name for c in _box_game_cards(st_server, "pushluck")}
    rng = random.Random()
    clicks: list[float] = []
    final = page.locator('[data-testid="stAlertContainer"]').filter(has_text="Partie terminée")
    took = False
    for step in range(150):
        _settled(page)  # the table is drawn: a final box, or something to click
        page.wait_for_function("() => [...document.querySelectorAll('[data-testid=\"stAlertContainer\"]')]"
                               ".some(e => e.innerText.includes('Partie terminée'))"
                               " || document.querySelector('[class*=\"st-key-pl_flip_\"], .st-key-pl_stop,"
                               " .st-key-pl_reshuffle')")
        if final.count():
            break
        flips = page.locator('[class*="st-key-pl_flip_"] button >> visible=true')
        n = flips.count()
        for i in range(n):  # a face-down card is a back, whatever it is
            label = flips.nth(i).inner_text()
            assert not any(name in label for name in names), label
        stop = page.locator(".st-key-pl_stop button")
        again = page.locator(".st-key-pl_reshuffle button")
        points = int(_metric(page, "Vos points du tour") or 0) if stop.count() else 0
        if stop.count() and (not n or points >= 10 or rng.random() < 0.1):
            target = ".st-key-pl_stop button"
        elif n:
            target = f".st-key-pl_flip_{rng.randrange(n)} button"
        elif again.count():
            target = ".st-key-pl_reshuffle button"
        else:
            raise AssertionError(f"nothing to click and no final box:\n{_main_text(page)}")
        if not took and step >= 1:
            shot(page, "pushluck-game")
            took = True
        before = _main_text(page)
        start = time.perf_counter()
        page.locator(f"{target} >> visible=true").first.click()
        page.wait_for_function("b => document.querySelector('[data-testid=\"stMainBlockContainer\"]')"
                               ".innerText !== b", arg=before, timeout=BROWSER_WAIT_MS)
        _settled(page)
        clicks.append(time.perf_counter() - start)
    final.first.wait_for()
    final.first.scroll_into_view_if_needed()
    assert not page.locator('[class*="st-key-pl_flip_"]').count()  # nothing left to play
    assert not page.locator(".st-key-pl_stop").count()
    shot(page, "pushluck-end")
    _report(capsys, "15 en un tour, 2 seats, greedy bot", clicks)

    page.get_by_text("Variantes de la boîte", exact=True).click()
    page.locator(".st-key-pl_compare button").click()
    page.locator('[data-testid="stVegaLiteChart"]').first.wait_for()
    _settled(page)
    shot(page, "pushluck-variants")


def test_15_en_un_tour_optimal_bots_at_five_players_show_progress_and_cancel(page, st_server, capsys) -> None:  # noqa: F811
    """5 players with the optimal bots: the exact solver takes minutes, so « Nouvelle partie »
    answers at once with the time spent, counting up while the page stays usable, and « Annuler le
    calcul » stops it; the game is not shown before its bots are ready."""
    goto(page, st_server, "playtest")
    _pick_option(page, "15 en un tour (stop ou encore)", "pt_gamecode")
    players = page.locator(".st-key-pl_players input")
    players.fill("5")
    players.press("Enter")
    _settled(page)
    page.get_by_text(re.compile(r"s'arrête à sa limite \(PL13\)")).first.wait_for()  # its cost, said first
    _pick_option(page, "Optimal (calcul exact)", "pl_bot")
    start = time.perf_counter()
    page.locator(".st-key-pl_new button").click()
    progress = page.get_by_text(re.compile(r"Calcul exact de la stratégie optimale à 5 joueurs, temps écoulé : (\d+) s"))
    progress.first.wait_for()
    answered = time.perf_counter() - start
    first = int(re.search(r"temps écoulé : (\d+) s", progress.first.inner_text()).group(1))
    page.wait_for_function("n => { const m = document.body.innerText.match(/temps écoulé : (\\d+) s/);"
                           " return m && +m[1] > n; }", arg=first, timeout=60_000)  # it counts up
    assert not page.locator('[class*="st-key-pl_flip_"]').count()  # no game before its bots
    shot(page, "pushluck-solving")
    start = time.perf_counter()
    page.locator(".st-key-pl_cancel button").click()
    page.get_by_text(re.compile("Calcul annulé")).first.wait_for()
    cancelled = time.perf_counter() - start
    with capsys.disabled():
        print(f"\n[browser] 15 en un tour, 5 optimal bots: progress shown {answered:.2f} s after the click, "
              f"cancelled in {cancelled:.2f} s")


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


def test_a_rich_card_text_shows_styled_beside_its_image(page, st_server) -> None:  # noqa: F811
    """docs/rich-text.md: the card view shows the text as the card image draws it — the keywords
    bold (explicit ``**`` and the game's bold keywords), italics, the colour as a badge — and the
    markup characters never. Its screenshot is docs/images/app-rich-text.png."""
    from cardbase import access
    from cardbase.catalog import cards as catalog
    from cardbase.storage import db

    text = "**Foule** : +1 pour chaque carte {rouge} de votre main, *même* la Légendaire."
    engine = db.make_engine(f"sqlite:///{st_server.db_path}")
    try:
        with access.editor_context(None), db.session_scope(engine) as s:
            if not any(c["number"] == 992 for c in catalog.card_dicts(s, edition="NP1")):
                catalog.create_card(s, edition="NP1", fields={
                    "number": 992, "name": "Colosse riche", "value": 9, "colour": "rouge",
                    "effect_text": text})
    finally:
        engine.dispose()
    goto(page, st_server)
    box = page.locator(".st-key-cards_q input")
    box.fill("Colosse riche")
    box.press("Enter")
    page.get_by_text(re.compile(r"^1 carte en \d+ ms")).wait_for()
    wait_idle(page)
    detail = page.locator('[data-testid="stMainBlockContainer"]')
    detail.get_by_role("heading", name="Colosse riche").wait_for()
    line = detail.locator("p", has_text="pour chaque carte").first
    line.wait_for()
    bold = line.locator("strong").all_inner_texts()
    assert "Foule" in bold and "Légendaire" in bold  # the second one from the game's keywords
    assert line.locator("em").all_inner_texts() == ["même"]
    shown = line.inner_text()
    assert "rouge" in shown and "{" not in shown and "*" not in shown
    line.scroll_into_view_if_needed()
    wait_idle(page)
    shot(page, "rich-text")
