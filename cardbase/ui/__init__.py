"""The app's face: one Streamlit page a module (``streamlit_app.py`` builds the navigation).

Pages are thin: each action calls the same service function as the command line (catalog, decks,
playtest, outputs, games). This package and :mod:`cardbase.cli` are the only ones that may import
Streamlit; it may import every layer below it, but not the command line.
"""
