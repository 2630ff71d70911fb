"""Pure rules engines, one package a game. No database, no UI: they take plain card values."""
