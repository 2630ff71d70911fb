"""Card games described as data (``data/rules/<code>.toml``) and the interpreter that plays them.

The language is documented in ``docs/rules-language.md``; :mod:`.language` reads and checks a file,
:mod:`.engine` plays it with the frame of the hand-written engines, :mod:`.register` adds every
rules file to the games registry, :mod:`.measures` gives the figures of a good game.
"""
