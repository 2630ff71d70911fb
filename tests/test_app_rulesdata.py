"""The app's batch view plays a game written as data (data/rules/huit.toml) with no database card."""

from __future__ import annotations

import re

from test_app import app_env, no_exception, page_test  # noqa: F401 - fixture


def test_the_batch_view_plays_a_rules_file_game() -> None:
    at = page_test("playtest")
    at.session_state["pt_gamecode"] = "huit"
    at.session_state["prt_huit_mode"] = "batch"
    at.run()
    no_exception(at)
    at.number_input(key="pgb_huit_games").set_value(20).run()
    at.button(key="pgb_huit_go").click().run()
    no_exception(at)
    shown = " ".join(str(x.value) for x in [*at.markdown, *at.caption, *at.info, *at.success])
    assert "**Taux de victoire par place**" in shown and "**Fin des parties**" in shown
    assert "HU2" in shown  # its contested ruling, from the rules file
    tables = " ".join(x.value.to_string() for x in at.dataframe)
    assert "Un joueur s'est défait de toutes ses cartes" in tables  # an ending by its label
    at.button(key="pgb_huit_measures").click().run()
    no_exception(at)
    frame = at.table[-1].value
    rows = dict(zip(frame["Mesure"], frame["IC 95 %"]))
    assert {"Victoires du premier joueur", "Vainqueur connu après", "Décisions qui changent l'issue",
            "Écart de niveau (greedy contre random)", "Changements de meneur"} <= set(rows)
    assert all(" – " in rows[k] for k in ("Victoires du premier joueur", "Vainqueur connu après"))
    assert "hasard décide" in frame.to_string()


def _table_page(lang: str = "fr"):
    at = page_test("playtest", lang=lang)
    at.session_state["pt_gamecode"] = "huit"
    at.run()
    no_exception(at)
    return at


def test_the_table_of_a_rules_file_game_hides_what_seat_1_cannot_see() -> None:
    at = _table_page()
    zones = at.dataframe[0].value
    rows = {(r["Zone"], r["À qui"]): r for _, r in zones.iterrows()}
    mine, theirs = rows[("main", "joueur 1")], rows[("main", "joueur 2")]
    assert "?" not in mine["Contenu (? = cachée)"] and mine["Cartes"] >= 6
    assert set(theirs["Contenu (? = cachée)"].split(", ")) == {"?"}
    pioche = rows[("pioche", "table")]["Contenu (? = cachée)"].split(", ")
    assert set(pioche) == {"?"}
    top = rows[("defausse", "table")]["Contenu (? = cachée)"].split(", ")
    assert top[-1] != "?" and all(c == "?" for c in top[:-1])
    buttons = [b for b in at.button if b.key.startswith("prt_huit_a")]
    assert buttons and all(b.label.startswith(("Jouer", "Piocher", "Passer")) for b in buttons)


def test_a_rules_file_game_is_played_by_hand_to_its_end() -> None:
    at = _table_page("en")
    for _ in range(200):
        buttons = [b for b in at.button if b.key.startswith("prt_huit_a")]
        if not buttons:
            break
        before = len(at.session_state["prt_huit"]["actions"])
        buttons[0].click().run()
        no_exception(at)
        assert len(at.session_state["prt_huit"]["actions"]) > before
    assert any("Game over" in s.value for s in at.success)
    assert any("End of the game" in x.value for x in at.text)


def test_the_table_of_a_team_game_tells_teams_and_secret_choices_without_showing_them() -> None:
    """Enchères d'équipe (data/rules/encheres.toml): each seat's team beside it; after your offer
    the round's other seats choose in secret — the table says who has chosen, never what — and
    your own offer is shown to you alone."""
    at = page_test("playtest")
    at.session_state["pt_gamecode"] = "encheres"
    at.run()
    no_exception(at)
    zones = at.dataframe[0].value
    owners = set(zones["À qui"])
    assert {"joueur 1 (équipe Nord-Sud)", "joueur 2 (équipe Est-Ouest)"} <= owners
    buttons = [b for b in at.button if b.key.startswith("prt_encheres_a")]
    assert buttons and all(b.label.startswith("Offrir : ") for b in buttons)
    buttons[0].click().run()  # seat 1 offers; the bots end the round, then open the next one
    no_exception(at)
    captions = " ".join(c.value for c in at.caption)
    assert "Choix secrets de la manche : joueur 2 a choisi, joueur 3 a choisi, joueur 4 a choisi." in captions
    hidden = at.dataframe[0].value
    offers = hidden[hidden["Zone"] == "offre"]["Contenu (? = cachée)"]
    assert all(x == "" for x in offers)  # nothing is played before the reveal
    log = " ".join(x.value for x in at.text)
    assert "choix secret" in log and "Les choix simultanés sont révélés" in log


def test_the_table_tells_the_bots_moves_without_the_cards_seat_1_cannot_know() -> None:
    """Le Huit by hand, drawing whenever possible so that both seats draw from the hidden pile, on
    fixed deals until the bot has drawn: after each click the table shows your action and the bot's
    moves since (« Depuis votre dernière action »), and neither that box nor the log names a card
    the bot holds that you never saw."""
    from cardbase.ui import playtest_rules

    at = _table_page()
    told_hidden = False
    clicks = 0
    for seed in range(12):
        at.session_state["prt_huit"] = {"seed": seed, "actions": [], "bot": "random", "players": 2}
        at.run()
        while True:
            record = at.session_state["prt_huit"]
            state = playtest_rules.replay("huit", record)
            seen: set[str] = set()  # every card seat 1 was shown, replayed action by action
            s = playtest_rules._game("huit", 2).new_state(seed)
            for a in [None, *record["actions"]]:
                if a is not None:
                    s.apply_action(a)
                seen |= {c for piles in s.observation(0)["zones"].values() for p in piles for c in p if c}
            secret = {state.game.cards[c].name for c in state.zones["main"][1]} - seen
            shown = " ".join(x.value for x in at.text) + " ".join(c.value for c in at.caption)
            assert not [name for name in secret if name in shown], (seed, secret)
            told_hidden |= "Joueur 2 : Piocher — une carte cachée" in shown  # one line a move
            buttons = [b for b in at.button if b.key.startswith("prt_huit_a")]
            if not buttons:
                break
            if record.get("mine"):
                assert any(c.value == "Depuis votre dernière action" for c in at.caption)
            buttons[-1].click().run()  # « Piocher » (or the last card) rather than the first card
            no_exception(at)
            clicks += 1
        if told_hidden:
            break
    assert told_hidden, f"the bot never drew in {clicks} clicks"  # and the table said so, card hidden


def _asked_in_a_window(players: int = 4, seed: int = 5) -> dict:
    """A Menteur game at the table (random bots) played by seat 1 — its first action, « Annoncer »
    once a card is down — until a bot's announcement asks seat 1 whether it calls: the record."""
    from cardbase.ui import playtest_rules

    record = playtest_rules.play("menteur", {"seed": seed, "actions": [], "bot": "random",
                                             "players": players}, None)
    for _ in range(100):
        state = playtest_rules.replay("menteur", record)
        window = state.observation(0).get("window")
        if window is not None and window[0] != 0 and window[2] == 0:
            return record
        legal = state.legal_actions()
        words = [state.action_to_string(a) for a in legal]
        pick = next((a for a, w in zip(legal, words) if w.startswith(("Annoncer", "Ne pas"))), legal[0])
        record = playtest_rules.play("menteur", record, pick)
    raise AssertionError("seat 1 was never asked")


def test_the_answer_window_names_the_action_by_its_label_in_both_languages() -> None:
    """Menteur at 4: a bot announces and seat 1 is asked whether it calls « Menteur ! ». The table
    says which action opened the window by its label (« Annoncer »), never its name in the file
    (« annoncer »), and counts the answers in proper words (no « réponse(s) »)."""
    from test_app import shown

    record = _asked_in_a_window()
    for lang, pattern, calls in (
            ("fr", r"Le joueur ([234]) a joué « (Annoncer[^»]*) » : le joueur 1 peut répondre "
                   r"\(aucune réponse jusqu'ici\)\.", {"Menteur !", "Ne pas répondre"}),
            ("en", r"Player ([234]) played “(Announce[^”]*)”: player 1 may answer \(no answer so far\)\.",
             {"Liar!", "Do not answer"})):
        at = page_test("playtest", lang=lang)
        at.session_state["pt_gamecode"] = "menteur"
        at.session_state["prt_menteur"] = record
        at.run()
        no_exception(at)
        captions = [shown(c.value) for c in at.caption]
        found = [re.fullmatch(pattern, c) for c in captions]
        assert any(found), captions
        assert not any("annoncer" in c or "(s)" in c for c in captions), captions
        buttons = {b.label for b in at.button if b.key.startswith("prt_menteur_a")}
        assert buttons and buttons <= calls  # seat 1's answers, by their labels
        # the log says the announcement on one line
        log = "\n".join(x.value for x in at.text)
        actor = next(m for m in found if m).group(1)
        words = "the others may answer" if lang == "en" else "les autres peuvent répondre"
        assert re.search(rf"(Joueur|Player) {actor} ?: (Annoncer|Announce)[^\n]* — {words}", log), log


def test_identical_cards_are_one_button_and_the_end_says_its_label() -> None:
    """Cueillette's hands hold several cards of a kind: one button per kind, « (×n) », each playing
    one of them; a game played by hand to its end says how it ended in words (the ending's label),
    not its name in the file."""
    at = page_test("playtest")
    at.session_state["pt_gamecode"] = "cueillette"
    at.run()
    no_exception(at)
    folded = 0
    for _ in range(40):
        buttons = [b for b in at.button if b.key.startswith("prt_cueillette_a")]
        if not buttons:
            break
        labels = [b.label.replace("\\:", ":") for b in buttons]  # the label's markdown escape
        assert len(set(labels)) == len(labels), labels
        record = at.session_state["prt_cueillette"]
        from cardbase.games import registry

        state = registry.get("cueillette").build([], record["players"]).new_state(record["seed"])
        for a in record["actions"]:
            state.apply_action(a)
        said = [state.action_to_string(a) for a in state.legal_actions()]
        for label in labels:  # « Cueillir : Miel (×3) » for three Miels
            base, _, times = label.partition(" (×")
            assert said.count(base) == (int(times.rstrip(")")) if times else 1), (label, said)
            folded += bool(times)
        buttons[-1].click().run()
        no_exception(at)
    assert folded > 0
    assert not [b for b in at.button if b.key.startswith("prt_cueillette_a")]
    assert any("Toutes les manches jouées" in s.value for s in at.success), [s.value for s in at.success]


def test_a_set_is_one_button_naming_its_cards_and_is_laid_at_once() -> None:
    """Marché (data/rules/marche.toml, pick = "set"): each set of the hand is one button « Poser la
    série : a, b, c »; clicking it puts those cards on seat 1's table at once."""
    at = page_test("playtest", lang="fr")
    at.session_state["pt_gamecode"] = "marche"
    at.run()
    no_exception(at)
    laid = None
    for _ in range(120):
        buttons = [b for b in at.button if b.key.startswith("prt_marche_a")]
        if not buttons:
            break
        sets = [b for b in buttons if b.label.startswith("Poser la série : ")]
        labels = [b.label for b in sets]
        assert len(labels) == len(set(labels))  # each set once
        if sets:
            laid = sets[-1].label[len("Poser la série : "):].split(", ")
            assert len(laid) >= 3
            sets[-1].click().run()
            no_exception(at)
            zones = at.dataframe[0].value
            rows = {(r["Zone"], r["À qui"]): r for _, r in zones.iterrows()}
            table = rows[("table", "joueur 1")]["Contenu (? = cachée)"].split(", ")
            assert all(table.count(c) >= laid.count(c) for c in laid)
            break
        # a take that may lead to a set: a market card, else the first choice
        buttons[0].click().run()
        no_exception(at)
    assert laid is not None


def test_menteur_table_shows_the_table_counter_once_and_hides_bookkeeping() -> None:
    """Menteur (data/rules/menteur.toml): the asked rank is a counter of the table, shown once
    (« table : annonce 1 »), never per seat; `douteux` (show = false) is not shown; the lay is one
    button per set, announced « Annoncer 2 × As : … »."""
    at = page_test("playtest", lang="fr")
    at.session_state["pt_gamecode"] = "menteur"
    at.run()
    no_exception(at)
    for _ in range(8):
        captions = " ".join(str(x.value) for x in at.caption)
        assert "table : annonce " in captions and "douteux" not in captions
        assert len(re.findall(r"\bannonce \d", captions)) == 1
        buttons = [b for b in at.button if b.key.startswith("prt_menteur_a")]
        if not buttons:
            break
        lays = [b for b in buttons if b.label.startswith("Annoncer ")]
        if lays:
            assert len({b.label for b in lays}) == len(lays)
            n = int(lays[-1].label.split(" ")[1])
            assert len(lays[-1].label.split(" : ")[1].split(", ")) == n
        buttons[-1].click().run()
        no_exception(at)
