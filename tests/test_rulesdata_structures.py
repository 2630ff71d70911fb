"""The rules language's teams, simultaneous choices, answer windows, rounds' operations, triggers on
a move and hidden deck lists (docs/rules-language.md): the checker lists every problem at once, and
whole games played by bots keep the invariants — hidden information never in another seat's
observation, teams' scores and returns, the order in which seats are asked to answer."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from cardbase.games import registry
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import RulesFileError, load_rules, parse_rules_text
from cardbase.i18n import use_language
from tests.rulesdata_helpers import random_game

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "data" / "rules"
runner = CliRunner()


def _random_game(game: Game, seed: int, check=None):
    """A whole game of random moves; ``check(state)`` before every move."""
    return random_game(game, seed, check)


# ------------------------------------------------------------------ the checker

BROKEN = """[game]
code = "essai"
players = [2, 4]

[material]
source = "generated"
cards = [{ name = "Un", value = 1, copies = 4, effect = "Défausse : piochez deux" },
         { name = "Deux", value = 2, copies = 4, keywords = "Foule" }]
into = "pioche"
lists = "hidden"

[[zones]]
name = "pioche"
visible = "everyone"

[[zones]]
name = "main"
owner = "player"
visible = "team"

[round]
start = [{ each = "table", do = [] }]

[[actions]]
name = "miser"
choose = { counter = "mise", values = [1, 2] }
simultaneous = true
ends_turn = false
answers = { by = "partners", with = ["parer", "esquiver"] }
then = [{ end_turn = true }]

[[actions]]
name = "parer"
move = { from = "main", to = "pioche" }
answer_only = true
ends_turn = true

[[actions]]
name = "seule"
answer_only = true

[[triggers]]
on = "parer"
from = "main"
to = "pioche"

[counters]
mise = {}

[end]
[[end.conditions]]
game = "count('pioche') == 0"
[end.winner]
by = "mise"
"""


def test_checker_lists_every_problem_of_the_new_constructs_with_line_and_key() -> None:
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(BROKEN, "essai.toml")
    wheres = [p.where for p in info.value.problems]
    text = str(info.value)
    expected = {
        "ligne 7, clé material.cards[1]": "attendu : une action",  # an effect text that does not parse
        "ligne 7, clé material.cards[2]": "« Deux »",  # keywords that are not a list
        "ligne 10, clé material.lists": "source = \"decks\"",
        "ligne 19, clé zones[2].visible": "pas de [teams]",
        "ligne 22, clé round.start[1]": "« table »",
        "ligne 28, clé actions[1].ends_turn": "finit toujours le tour",
        "ligne 29, clé actions[1].answers": "partenaires",  # partners without teams
        "ligne 30, clé actions[1].then": "« end_turn »",
        "ligne 36, clé actions[2].ends_turn": "sert de réponse",
        "ligne 40, clé actions[3].answer_only": "ne sera jamais possible",
        "ligne 44, clé triggers[1].from": "à la fois on et from/to",
    }
    for where, says in expected.items():
        assert f"fichier essai.toml, {where}" in wheres, (where, wheres)
        assert says in text, says
    assert "L'action « esquiver » n'existe pas" in text
    assert text.count("ne peut pas ouvrir de fenêtre") == 1  # a simultaneous choice with answers
    with use_language("en"), pytest.raises(RulesFileError) as en:
        parse_rules_text(BROKEN, "essai.toml")
    assert len(en.value.problems) == len(info.value.problems)
    assert "file essai.toml, line 28, key actions[1].ends_turn" in [p.where for p in en.value.problems]
    assert "always ends the turn" in str(en.value) and "Remove ends_turn" in str(en.value)


def test_checker_refuses_more_teams_than_seats_and_a_bad_list_of_names() -> None:
    text = (RULES / "encheres.toml").read_text(encoding="utf-8")
    bad = text.replace("count = 2\n", "count = 3\n").replace('names = ["Nord-Sud", "Est-Ouest"]',
                                                             'names = ["Nord-Sud", "Nord-Sud"]')
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(bad, "encheres.toml")
    wheres = [p.where for p in info.value.problems]
    assert any(w.endswith("clé teams.count") for w in wheres)
    assert any(w.endswith("clé teams.names") for w in wheres)
    assert "la partie peut se jouer à 2" in str(info.value)


# ------------------------------------------------------------------ Enchères d'équipe (teams, simultaneous)


def _encheres(players: int = 4, **options) -> Game:
    return registry.get("encheres").build((), players, **options)


def _other_choice(s, record):
    """Another legal secret choice for the seat of ``record`` (its action, another card or number)."""
    seat, k, arg = record
    a = s.rules.actions[k]
    done, s.done = s.done, [0] * len(s.done)
    choices = s._choices(k, seat)
    s.done = done
    for i in choices:
        other = s._pile(a.source, seat)[i] if a.source is not None else i
        if other != arg:
            return (seat, k, other)
    return None


def _check_secrets_stay_secret(s) -> int:
    """Every seat's observation and information key are the same whatever another seat chose in
    secret; a seat sees its own choice. Returns the comparisons made."""
    made = 0
    for n, record in enumerate(s.secret):
        other = _other_choice(s, record)
        if other is None:
            continue
        t = s.clone()
        t.secret = s.secret[:n] + (other,) + s.secret[n + 1:]
        for p in range(s.n):
            if p == record[0]:
                assert s.observation(p)["secret"] != t.observation(p)["secret"]
            else:
                assert s.observation(p) == t.observation(p)
                assert s.information_key(p) == t.information_key(p)
            made += 1
    return made


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_encheres_whole_games_keep_secrets_and_score_by_team(players) -> None:
    """Random whole games: an offer is never in another seat's observation before the reveal (nor
    in the log), every offer of the round is played at its end in the order chosen, the stake goes
    to the team with the strictly best offer, the winning team is the one with the most points
    (its seats added up) and every seat of it gets +1."""
    game = _encheres(players)
    assert game.team_index == tuple(p % 2 for p in range(players))  # alternate seating (EN3)
    compared = 0
    for seed in range(12):
        s = game.new_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            compared += _check_secrets_stay_secret(s)
            before = len(s.events)
            p = s.player
            hand = list(s.zones["main"][p])
            a = rng.choice(s.legal_actions())
            s.apply_action(a)
            new = s.events[before:]
            assert new[0] == ("secret", p)
            cut = next((i for i, e in enumerate(new) if e[0] == "reveal"), len(new))
            assert {e[0] for e in new[:cut]} <= {"secret", "end_turn", "turn"}  # nothing told
            if cut == len(new):
                assert s.zones["main"][p] == hand  # nothing played before the reveal
            if any(e[0] == "reveal" for e in new):
                cut = [i for i, e in enumerate(new) if e[0] == "reveal"][0]
                revealed = [e[1] for e in new[cut:] if e[0] == "action"]
                firsts = [e[1] for e in s.events[:before + cut] if e[0] == "secret"]
                assert revealed == firsts[-players:]  # in the order they were chosen
        points = [sum(s.counters[q]["points"] for q in game.team_seats[k]) for k in range(2)]
        won = {game.team_index[q] for q in s.winners}
        assert won == {k for k in range(2) if points[k] == max(points)}
        ret = s.returns()
        if len(won) == 1:
            assert all(ret[q] == (1.0 if game.team_index[q] in won else -1.0) for q in range(players))
        else:
            assert ret == [0.0] * players
        assert sum(len(x) for z in s.zones.values() for x in z) == 50  # no card lost
    assert compared > 100


def test_encheres_resample_chooses_the_others_secret_offers_again() -> None:
    """A re-deal for a search bot keeps the seat's own offer and what it sees, and deals the
    others' hands and secret offers again (an offer chosen again is a card of that seat's re-dealt
    hand)."""
    game = _encheres(4)
    changed = 0
    for seed in range(20):
        s = game.new_state(seed)
        rng = random.Random(seed)
        for _ in range(3):
            s.apply_action(rng.choice(s.legal_actions()))
        me = s.player
        assert len(s.secret) == 3
        copy = s.clone()  # a copy reveals on its own
        copy.apply_action(copy.legal_actions()[0])
        assert not copy.secret and len(s.secret) == 3 and s.zones["offre"] == [[], [], [], []]
        for i in range(5):
            r = s.resample(me, random.Random(i))
            assert r.observation(me) == s.observation(me)
            for (q, k, arg), (q2, k2, arg2) in zip(s.secret, r.secret):
                assert (q, k) == (q2, k2) and arg2 in r.zones["main"][q2]
                changed += arg != arg2
            r.apply_action(r.legal_actions()[0])  # the round ends: every offer is revealed
            assert not r.secret and r.round == s.round + 1
    assert changed > 20


def test_encheres_ruling_en2_carries_a_tied_stake() -> None:
    """EN2 (contested): with tie = "carry" a stake no team won stays and adds to the next one."""
    game = _encheres(2, tie="carry")
    carried = 0
    for seed in range(30):
        s = game.new_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            stakes = len(s.zones["enjeu"][0])
            rnd = s.round
            s.apply_action(rng.choice(s.legal_actions()))
            if s.round != rnd and not s.is_terminal():
                offers = [s.counters[q]["mise"] for q in range(2)]  # reset at the new round's start
                assert offers == [0, 0]
                carried += len(s.zones["enjeu"][0]) > 1
                assert len(s.zones["enjeu"][0]) in (1, stakes + 1)
    assert carried > 0


def test_encheres_is_registered_and_plays_with_every_bot() -> None:
    spec = registry.get("encheres")
    assert spec.title == "Enchères d'équipe (exemple)" and spec.own_cards
    assert (spec.min_players, spec.max_players, spec.default_players) == (2, 6, 4)
    assert set(spec.bots) == {"random", "greedy", "mc", "ismcts"}
    from cardbase.games.bots.registry import make_bot

    game = _encheres(4)
    bots = [make_bot("greedy"), make_bot("random", seed=1), make_bot("mc", seed=1, samples=2),
            make_bot("ismcts", seed=1, iterations=8)]
    s = game.new_state(4)
    while not s.is_terminal() and s.round <= 2:
        a = bots[s.player].step(s)
        assert a in s.legal_actions()
        s.apply_action(a)
    assert s.round == 3


@pytest.mark.sqlite_only("the command-line contract does not depend on the database")
def test_cli_sim_game_reports_the_teams_of_a_rules_file_game(cli_env) -> None:
    res = runner.invoke(app, ["sim", "game", "encheres", "--games", "30", "--bots",
                              "greedy,random,greedy,random", "--measures-games", "10", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["players"] == 4 and set(data["teams"]) == {"Nord-Sud", "Est-Ouest"}
    assert data["teams"]["Nord-Sud"]["seats"] == [1, 3]
    assert data["teams"]["Nord-Sud"]["wins"] + data["teams"]["Est-Ouest"]["wins"] + data["ties"] == 30
    m = data["measures"]
    assert m["first_player"]["fair"] == 0.5 and m["decided"] > 0  # a team wins, not a seat
    text = runner.invoke(app, ["--lang", "en", "sim", "game", "encheres", "--games", "6", "--measures-games", "0"])
    assert text.exit_code == 0 and "team Nord-Sud" in text.stdout
    search = runner.invoke(app, ["sim", "game", "encheres", "--players", "2", "--bots", "mc,ismcts",
                                 "--games", "1", "--measures-games", "0", "--json"])
    assert search.exit_code == 0, search.output
    one = json.loads(search.stdout)
    assert one["games"] == 1 and [s["bot"] for s in one["seats"]] == ["mc", "ismcts"]
    assert one["ended_by"] == {"mains_vides": 1}


def test_games_check_passes_every_shipped_rules_file() -> None:
    """Every file of data/rules is checked, tried and searched (so a shipped example stays valid)."""
    files = sorted(RULES.glob("*.toml"))
    assert {p.stem for p in files} >= {"huit", "pushluck", "nespanini", "encheres"}
    for path in files:
        extra = ["--edition", str(ROOT / "data" / "editions" / "P15.toml")] if path.stem == "pushluck" else []
        res = runner.invoke(app, ["games", "check", str(path), "--games", "4", "--search-states", "300",
                                  "--json", *extra])
        assert res.exit_code == 0, (path.name, res.output)
        data = json.loads(res.stdout)
        # the 4 games shared out over the player counts, at least one each
        assert data["ok"] and data["tried"]["ended"] == data["tried"]["games"] >= 4, path.name


# ------------------------------------------------------------------ answer windows, team order, team zones

RIPOSTE = """[game]
code = "riposte"
players = [2, 6]
default_players = 4

[teams]
count = 2
seating = "blocks"
order = "teams"

[material]
source = "generated"
colours = ["rouge", "noir", "vert"]
values = [1, 6]
into = "pioche"

[[zones]]
name = "pioche"
visible = "nobody"

[[zones]]
name = "main"
owner = "player"
ordered = false
visible = "owner"

[[zones]]
name = "reserve"
owner = "player"
ordered = false
visible = "team"

[[zones]]
name = "table"
visible = "everyone"

[counters]
points = {}
parades = {}

[setup]
do = [{ shuffle = "pioche" }, { deal = "pioche", to = "main", count = 2 },
      { deal = "pioche", to = "reserve", count = 1 }]

[[actions]]
name = "attaquer"
label = { fr = "Attaquer", en = "Attack" }
move = { from = "main", to = "table" }
answers = { by = "until_by", with = ["parer"], until = "until_mode" }
then = [{ if = "answered == 0", then = [{ add = "points", value = "card.value" }] }]
ends_turn = true

[[actions]]
name = "parer"
label = { fr = "Parer", en = "Block" }
move = { from = "main", to = "table" }
answer_only = true
filter = "card.value >= cause.value and actor > 0"
then = [{ add = "parades", value = 1 }]

[[actions]]
name = "renfort"
label = { fr = "Renfort", en = "Reinforce" }
move = { from = "reserve", to = "main" }
when = "count('main') == 0"

[[actions]]
name = "passer"
label = { fr = "Passer", en = "Pass" }
when = "count('main') == 0 and count('reserve') == 0"
ends_turn = true

[end]
check = "turn"

[[end.conditions]]
name = "epuise"
game = "count_all('main') + count_all('reserve') == 0"

[end.winner]
by = "points"
among = "all"
ties = "shared"
"""


def _riposte(players: int, by: str = "opponents", until: str = "first") -> Game:
    text = RIPOSTE.replace("until_by", by).replace("until_mode", until)
    return Game(parse_rules_text(text, "riposte.toml"), (), players)


@pytest.mark.parametrize("by,until", [("opponents", "first"), ("others", "all"), ("partners", "all")])
def test_answer_windows_ask_in_seat_order_and_the_opener_reads_the_answers(by, until) -> None:
    """After « attaquer », the seats asked are the actor's opponents (others, partners) in seat
    order from the actor's left; a seat answers with « parer » (a card at least the attack's,
    ``cause.value``) or passes; ``until = "first"`` closes the window at the first answer; the
    attack scores only if nobody answered (``answered``, read by its ``then``)."""
    game = _riposte(4, by, until)
    windows = 0
    for seed in range(40):
        s = game.new_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            p = s.player
            a = rng.choice(s.legal_actions())
            if s.window is None and a // game.stride == 0:  # an attack opens a window
                card = game.cards[s.zones["main"][p][a % game.stride]]
                points = s.counters[p]["points"]
                s.apply_action(a)
                expected = [(p + i) % 4 for i in range(1, 4)]
                expected = [q for q in expected if (game.team_index[q] != game.team_index[p]) == (by != "partners")
                            or by == "others"]
                asked, answers = [], 0
                while s.window is not None:
                    q = s.player
                    asked.append(q)
                    legal = s.legal_actions()
                    assert legal[-1] == game.pass_action  # « pass » always offered
                    blocks = [x for x in legal if x != game.pass_action]
                    hand = s.zones["main"][q]
                    assert sorted(game.cards[hand[x % game.stride]].value for x in blocks) == \
                        sorted(game.cards[c].value for c in hand if game.cards[c].value >= card.value)
                    x = rng.choice(legal)
                    answers += x != game.pass_action
                    s.apply_action(x)
                    if until == "first" and answers:
                        break
                assert asked == expected[:len(asked)]
                if until == "all" or not answers:
                    assert asked == expected
                windows += 1
                assert s.counters[p]["points"] == points + (0 if answers else card.value)
                continue
            s.apply_action(a)
        assert sum(s.counters[q]["parades"] for q in range(4)) <= windows
    assert windows > 60


def test_answer_window_is_in_every_observation_and_the_log_in_both_languages() -> None:
    game = _riposte(2)
    s = game.new_state(3)
    s.apply_action([a for a in s.legal_actions() if a // game.stride == 0][0])
    assert s.player == 1 and s.observation(0)["window"] == (0, "attaquer", 1, 0)
    assert s.observation(1)["window"] == s.observation(0)["window"]
    copy = s.clone()  # a copy answers on its own: the game it came from still waits for seat 2
    copy.apply_action(copy.legal_actions()[0])
    assert copy.window is None and s.window is not None and s.player == 1
    assert s.information_key(1) != copy.information_key(1)
    assert s.action_to_string(game.pass_action) == "Ne pas répondre"
    s.apply_action(game.pass_action)
    lines = s.log_lines()
    assert "Joueur 1 : Attaquer — les autres peuvent répondre" in lines
    assert "Joueur 2 ne répond pas" in lines
    with use_language("en"):
        assert "Player 2 does not answer" in s.log_lines()
        assert "Player 1: Attack — the others may answer" in s.log_lines()
    with pytest.raises(Exception, match="ne peut pas"):
        t = game.new_state(3)
        t.apply_action([a for a in t.legal_actions() if a // game.stride == 0][0])
        t.apply_action(10**6)


def test_teams_in_blocks_play_one_team_after_the_other_and_see_their_team_zone() -> None:
    """seating = "blocks", order = "teams": seats 1, 2 against 3, 4, turns 1, 3, 2, 4; a zone
    visible = "team" is seen by the owner and the partner, hidden from the others (and re-dealt by
    a resample of theirs only)."""
    game = _riposte(4)
    assert game.team_index == (0, 0, 1, 1)
    s = game.new_state(5)
    order = [e[1] for e in s.events if e[0] == "turn"]
    while len(order) < 4:
        s.apply_action(s.legal_actions()[-1] if s.window is not None else s.legal_actions()[0])
        order = [e[1] for e in s.events if e[0] == "turn"]
    assert order[:4] == [0, 2, 1, 3]
    t = game.new_state(5)
    for p in range(4):
        obs = t.observation(p)["zones"]["reserve"]
        for q in range(4):
            seen = game.team_index[p] == game.team_index[q]
            assert all((c is not None) == seen for c in obs[q])
    r = t.resample(0, random.Random(1))
    assert r.zones["reserve"][0] == t.zones["reserve"][0] and r.zones["reserve"][1] == t.zones["reserve"][1]
    assert Counter(r.zones["reserve"][2] + r.zones["reserve"][3] + r.zones["main"][2] + r.zones["main"][3]
                   + r.zones["main"][1] + r.zones["pioche"][0]) == Counter(
        t.zones["reserve"][2] + t.zones["reserve"][3] + t.zones["main"][2] + t.zones["main"][3]
        + t.zones["main"][1] + t.zones["pioche"][0])


def test_answer_windows_play_whole_games_with_every_bot() -> None:
    """Random, greedy, mc and ismcts answer and pass; the teams' returns are shared."""
    from cardbase.games.bots.registry import make_bot

    game = _riposte(4)
    bots = [make_bot("greedy"), make_bot("mc", seed=2, samples=3), make_bot("random", seed=2),
            make_bot("ismcts", seed=2, iterations=12)]
    for seed in range(3):
        s = game.new_state(seed)
        while not s.is_terminal():
            s.apply_action(bots[s.player].step(s))
        ret = s.returns()
        assert ret[0] == ret[1] and ret[2] == ret[3]
        assert s.coverage()["parer"][0] >= s.coverage()["parer"][1]


# ------------------------------------------------------------------ hidden deck lists (NesPanini R9)


def test_r9_hidden_deck_lists_draw_the_opponents_unseen_cards_from_the_pool() -> None:
    """[material] lists = "deck_lists" (option, R9): ``public`` keeps each deck's cards in a
    re-deal (the default; the same game as before), ``hidden`` draws the opponent's unseen cards
    from the card pool — cards their deck may not hold, each at most as many times as the deck
    rules allow less the copies seen — and never touches what the player sees."""
    from cardbase.playtest.cards import load_deck_defs, load_edition_defs, starter_decks

    decks = [load_deck_defs(starter_decks()[n]) for n in ("maree-et-crypte", "braises-ardentes")]
    pool = [c for c in load_edition_defs([ROOT / "data" / "editions" / "NP1.toml"]) if c.game == "nespanini"]
    public = Game(load_rules(RULES / "nespanini.toml"), pool, decks=decks)
    hidden = Game(load_rules(RULES / "nespanini.toml", options={"deck_lists": "hidden"}), pool, decks=decks)
    assert len(public.cards) == 40 and len(hidden.cards) > 40
    outside = 0
    for seed in range(15):
        s = hidden.new_state(seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(1, 8)):
            if not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        me = s.player
        opp = 1 - me
        for i in range(4):
            r = s.resample(me, random.Random(i))
            assert r.observation(me) == s.observation(me)
            assert r.zones["defausse"] == s.zones["defausse"] and r.zones["main"][me] == s.zones["main"][me]
            unseen = r.zones["main"][opp] + r.zones["deck"][opp]
            assert len(unseen) == len(s.zones["main"][opp]) + len(s.zones["deck"][opp])
            assert all(c >= 40 for c in unseen)  # drawn from the pool, not the real deck
            copies = Counter(hidden.defs[c] for c in unseen + s.zones["defausse"][opp])
            assert all(n <= (4 if "foule" in d.keyword_keys else 2) for d, n in copies.items())
            outside += sum(1 for c in unseen if hidden.defs[c] not in decks[opp])
            while not r.is_terminal():  # a re-dealt world plays on
                r.apply_action(r.legal_actions()[0])
        pub = public.new_state(seed)
        assert pub.zones == hidden.new_state(seed).zones  # the same deal either way
    assert outside > 50


# ------------------------------------------------------------------ effects through triggers

EFFECTS = """[game]
code = "effets"
players = [2, 3]

[material]
source = "generated"
cards = [
  { name = "Pioche2", value = 1, copies = 2, effect = "defausse: draw 2" },
  { name = "Regard", value = 1, copies = 2, effect = "defausse: look 3 take 1" },
  { name = "Recup", value = 1, copies = 2, effect = "defausse: recover from opponent_discards" },
  { name = "Echange", value = 1, copies = 2, effect = "defausse: swap with opponent_discards" },
  { name = "Force", value = 1, copies = 2, effect = "defausse: force_discard 1" },
  { name = "Montre", value = 1, copies = 2, effect = "defausse: reveal hand" },
  { name = "Enterre", value = 1, copies = 2, effect = "defausse: bury 2 opponent" },
  { name = "Compte", value = 2, copies = 2, effect = "score: +1 per card in discards" },
  { name = "Ancre", value = 5, copies = 2, keywords = ["Légendaire"] },
  { name = "Simple", value = 3, copies = 12 },
]
into = "deck"
per_player = true

[[zones]]
name = "deck"
owner = "player"
visible = "nobody"

[[zones]]
name = "main"
owner = "player"
ordered = false
visible = "owner"

[[zones]]
name = "defausse"
owner = "player"
visible = "everyone"

[[zones]]
name = "jeu"
owner = "player"
visible = "everyone"

[effects]
hand = "main"
discards = "defausse"
deck = "deck"

[setup]
do = [{ shuffle = "deck" }, { move = "deck", to = "main", count = 4 }]

[turn]
start = [{ move = "deck", to = "main" }]

[[actions]]
name = "defausser"
move = { from = "main", to = "defausse" }
filter = "not has(card, 'Légendaire')"
ends_turn = true

[[actions]]
name = "jouer"
move = { from = "main", to = "jeu" }
filter = "not has(card, 'Légendaire')"
ends_turn = true

[[triggers]]
on = "trigger_on"
do = [{ effect = "defausse" }]

[end]
check = "turn"
[[end.conditions]]
name = "tours"
game = "turn > 12"
[end.winner]
by = "score()"
"""


@pytest.mark.parametrize("on", ["draw", "defausser", "jouer"])
@pytest.mark.parametrize("players", [2, 3])
def test_every_effect_kind_runs_from_a_trigger_on_draw_discard_and_play(on, players) -> None:
    """Every Défausse action kind of the effect language (draw, look, recover, swap, force_discard,
    reveal, bury … opponent) applies through a trigger on a draw (from/to, the turn's first move),
    a discard or a play; score rules count at scoring (``score()``). At three seats « the opponent »
    is the next seat. No card is ever lost or doubled; a Légendaire never reaches a discard pile."""
    text = EFFECTS
    if on == "draw":
        text = text.replace('on = "trigger_on"', 'from = "deck"\nto = "main"')
    else:
        text = text.replace("trigger_on", on)
    game = Game(parse_rules_text(text, "effets.toml"), (), players)
    kinds: Counter = Counter()
    for seed in range(25):
        def check(s):
            for p in range(players):
                cards = [c for z in s.zones.values() for c in z[p]]
                assert len(cards) == len(set(cards))
                assert not any(game.cards[c].name == "Ancre" for c in s.zones["defausse"][p])
        s = _random_game(game, seed, check)
        kinds.update(e[0] for e in s.events)
        total = sum(len(x) for z in s.zones.values() for x in z)
        assert total == 30 * players
        for p in range(players):
            hand = [game.cards[c] for c in s.zones["main"][p]]
            bonus = sum(len(s.zones["defausse"][p]) for c in hand if c.name == "Compte")
            assert s.effect_score(p) == sum(c.value for c in hand) + bonus
    assert {"effect", "draw", "bottom", "look", "take", "pick", "give", "forced", "reveal", "bury"} <= set(kinds)


def test_round_operations_each_and_sum() -> None:
    """[round] start / end, { each = "player" | "team" } and sum('zone'): at Enchères d'équipe's
    round end each team's first seat in order takes the stake it won, and sum('enjeu') is its
    value."""
    game = _encheres(4)
    s = game.new_state(2)
    rng = random.Random(2)
    stake = game.cards[s.zones["enjeu"][0][-1]].value
    for _ in range(4):
        s.apply_action(rng.choice(s.legal_actions()))
    offers = [s.counters[q]["mise"] for q in range(4)]
    best = [max(offers[q] for q in game.team_seats[k]) for k in range(2)]
    if best[0] != best[1]:
        k = 0 if best[0] > best[1] else 1
        first = game.team_seats[k][0]  # round 1: seat 1 is first; the team's first seat takes it
        assert s.counters[first]["points"] == stake and len(s.zones["gains"][first]) == 1
    assert all(not x for x in s.zones["offre"])  # offers cleared at the round's end
    assert s.round == 2 and len(s.zones["enjeu"][0]) == 1


# ------------------------------------------------------------------ votes, targets, passing hands

VOTE = """[game]
code = "vote"
players = [3, 5]

[material]
source = "generated"
cards = [{ name = "Vice", value = 1, copies = 9, keywords = ["Vol"] }, { name = "Vertu", value = 2, copies = 9 }]
into = "boite"

[[zones]]
name = "boite"
visible = "nobody"

[[zones]]
name = "vices"
visible = "everyone"

[[zones]]
name = "main"
owner = "player"
ordered = false
visible = "owner"

[[zones]]
name = "tas"
owner = "player"
visible = "everyone"

[counters]
vote = { reset = "round" }
recus = {}
cible = {}

[setup]
do = [{ move = "boite", to = "vices", filter = "has(card, 'Vol')", pick = "all" },
      { shuffle = "boite" }, { deal = "boite", to = "main", count = 2 }]

[round]
end = [
  { each = "player", do = [{ add = "recus", value = "named('vote')" }] },
  { rotate = "main", direction = "left" },
]

[[actions]]
name = "voter"
label = { fr = "Voter", en = "Vote" }
choose = { counter = "vote", values = [1, 2, 3, 4, 5], allowed = "value != seat and value <= players" }
when = "round == 1"
simultaneous = true

[[actions]]
name = "viser"
label = { fr = "Viser", en = "Aim" }
choose = { counter = "cible", values = [1, 2, 3, 4, 5], allowed = "value != seat and value <= players" }
when = "round == 2"
answers = { by = "seat", seat = "cible", with = ["esquiver"] }
then = [{ if = "answered == 0", then = [{ give = "main", to = "tas", seat = "cible", pick = "random" },
                                          { for_seat = "cible", do = [{ add = "recus", value = 10 }] }] }]
ends_turn = true

[[actions]]
name = "esquiver"
label = { fr = "Esquiver", en = "Dodge" }
answer_only = true
when = "count('main') > 1"

[end]
check = "round"
[[end.conditions]]
name = "deux"
game = "round >= 2"
[end.winner]
by = "recus"
"""


def test_votes_targets_filtered_moves_and_passing_hands() -> None:
    """A filtered move takes only the cards that pass (the set-up's « Vol » cards); a secret vote
    for another seat, counted with named('vote'); at the round's end every hand passes to the left
    (rotate); a chosen target (answers by = "seat") may answer alone; unanswered, the target
    receives a card from the actor's hand (give) and 10 points (for_seat)."""
    game = Game(parse_rules_text(VOTE, "vote.toml"), (), 3)
    for seed in range(30):
        s = game.new_state(seed)
        assert [game.cards[c].name for c in s.zones["vices"][0]] == ["Vice"] * 9
        assert all(game.cards[c].name == "Vertu" for p in range(3) for c in s.zones["main"][p])
        rng = random.Random(seed)
        hands = [list(h) for h in s.zones["main"]]
        votes = []
        for _ in range(3):
            legal = s.legal_actions()
            assert len(legal) == 2  # another seat, never oneself
            a = rng.choice(legal)
            votes.append(a % game.stride + 1)
            s.apply_action(a)
        assert [c["recus"] for c in s.counters] == [votes.count(q + 1) for q in range(3)]
        assert s.zones["main"] == [hands[2], hands[0], hands[1]]  # passed to the left
        before = [c["recus"] for c in s.counters]
        p = s.player
        a = rng.choice(s.legal_actions())
        assert a // game.stride == 1  # viser
        target = a % game.stride
        s.apply_action(a)
        if s.window is not None:
            assert s.player == target and s.observation(0)["window"][2] == target
            answer = rng.choice(s.legal_actions())
            s.apply_action(answer)
            dodged = answer != game.pass_action
        else:
            dodged = False
        gained = s.counters[target]["recus"] - before[target]
        assert gained == (0 if dodged else 10)
        assert len(s.zones["tas"][target]) == (0 if dodged else 1)
        assert len(s.zones["main"][p]) == (2 if dodged else 1)
    bad = VOTE.replace('{ rotate = "main", direction = "left" }', '{ rotate = "vices", direction = "haut" }') \
        .replace('by = "seat", seat = "cible"', 'by = "seat"').replace("named('vote')", "named('votes')")
    with pytest.raises(RulesFileError) as info:
        parse_rules_text(bad, "vote.toml")
    text = str(info.value)
    assert "« direction » vaut « haut »" in text and "va avec seat" in text and "named('votes') nomme un compteur" in text
    with pytest.raises(Exception, match="n'est pas un joueur"):
        wrong = Game(parse_rules_text(VOTE.replace('seat = "cible"', 'seat = "cible + 7"'), "v.toml"), (), 3)
        s = wrong.new_state(0)
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[0])


MANCHE = """[game]
code = "manche"
players = [2, 3]

[material]
source = "generated"
cards = [{ name = "Un", value = 1, copies = 12 }]
into = "pioche"

[[zones]]
name = "pioche"
ordered = false
visible = "nobody"

[[zones]]
name = "tas"
owner = "player"
visible = "everyone"

[counters]
manches = {}
cartes = { reset = "round" }

[round]
until = "count('tas') >= 3"
end = [{ each = "player", do = [{ set = "cartes", value = "count('tas')" },
                                 { move = "tas", to = "pioche", pick = "all" }] },
       { set = "manches", value = "manches + best_seat('cartes')" }]

[[actions]]
name = "prendre"
move = { from = "pioche", to = "tas" }
pick = "random"
ends_turn = true

[end]
check = "round"
[[end.conditions]]
name = "trois"
game = "round >= 3"
[end.winner]
by = "manches"
"""


def test_a_round_goes_on_until_its_condition_and_best_seat_names_the_leader() -> None:
    """[round] until: the round goes around the table until a player holds 3 cards (after that
    player's turn: 5 turns at 2 players, 7 at 3 from seat 1), then [round] end runs; best_seat()
    is the seat with the strictly highest counter (0 on a tie)."""
    for players, turns in ((2, 5), (3, 7)):
        game = Game(parse_rules_text(MANCHE, "manche.toml"), (), players)
        s = game.new_state(1)
        while not s.is_terminal():
            rnd = s.round
            before = s.turns
            while s.round == rnd and not s.is_terminal():
                s.apply_action(s.legal_actions()[0])
            assert s.turns - before == turns
            assert all(not x for x in s.zones["tas"]) and len(s.zones["pioche"][0]) == 12
        assert s.counters[0]["manches"] == 3 and s.winners == [0]  # seat 1 leads each round alone
    with pytest.raises(RulesFileError, match="round.until"):
        parse_rules_text(MANCHE.replace("count('tas') >= 3", "count('tas') >="), "m.toml")


def test_teams_extra_seats_go_to_the_first_or_the_last_teams() -> None:
    """[teams] extra: at an odd count the leftover seat goes to the first team (A B A) or, with
    extra = "last", to the last (A B B, A B A B B: CT vs Terror's CT1 default); blocks alike."""
    from cardbase.games.rulesdata.constructs import Teams

    def seats(t: Teams, n: int) -> str:
        return "".join("ABC"[t.team_of(p, n)] for p in range(n))

    assert [seats(Teams(2), n) for n in (3, 4, 5)] == ["ABA", "ABAB", "ABABA"]
    assert [seats(Teams(2, extra="last"), n) for n in (3, 4, 5)] == ["ABB", "ABAB", "ABABB"]
    assert [seats(Teams(3, extra="last"), n) for n in (4, 5, 7)] == ["ABCC", "ABCBC", "ABCABCC"]
    assert [seats(Teams(2, "blocks"), n) for n in (3, 5)] == ["AAB", "AAABB"]
    assert [seats(Teams(2, "blocks", extra="last"), n) for n in (3, 5)] == ["ABB", "AABBB"]
