"""Outputs: what leaves cardbase for the table — printing (``printing/``: templates, card images,
sheets, streaming PDF, manifests; ``fonts/`` shipped with it) and Tabletop Simulator decks and
boxes (``tts``). It may import the catalog, decks, playtest's starter decks, storage and the
kernel, never a face (Streamlit, Typer).
"""
