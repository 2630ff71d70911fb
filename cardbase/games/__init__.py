"""The games: pure rules engines, one package a game (``nespanini``, ``overkill``, ``pushluck``,
``ctterror``, ``overseers``, and ``rulesdata`` for games written as data), the bots that play any of
them (``bots``), the NesPanini effect language (``effects``), the registry of playable games
(``registry``), the rulings as data (``rulings``) and the frame every engine fits in (``frame``:
one illegal-action error, one replay, each game's greedy, play-out and own bots).

No database, no UI: engines take plain card values (:class:`cardbase.domain.CardDef`). A game
package may import the frame, the bots, the effect language and the kernel, never another game
package, storage, the catalog, decks, playtest, outputs or a face (import-linter contracts).
"""
