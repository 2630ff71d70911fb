-- cardbase's SQLite schema as the migrations make it, replayed on a new database
-- (cardbase/storage/sqlite_schema.py). Do not edit: run python -m cardbase.storage.schema_snapshot
-- revision: 0003

CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);

CREATE TABLE game (
	id INTEGER NOT NULL, 
	code VARCHAR(40) NOT NULL, 
	name VARCHAR(120) NOT NULL, 
	min_players INTEGER, 
	max_players INTEGER, 
	deck_size INTEGER, 
	copy_limit INTEGER, 
	keyword_limits JSON NOT NULL, 
	rules_file VARCHAR(200), 
	description TEXT, template VARCHAR(80), fields JSON DEFAULT '[]' NOT NULL, version INTEGER DEFAULT '1' NOT NULL, origin VARCHAR(200), 
	PRIMARY KEY (id)
);

CREATE UNIQUE INDEX ix_game_code ON game (code);

CREATE TABLE sticker_colour (
	id INTEGER NOT NULL, 
	colour VARCHAR(40) NOT NULL, 
	symbol VARCHAR(60) NOT NULL, 
	label VARCHAR(120), 
	PRIMARY KEY (id)
);

CREATE UNIQUE INDEX ix_sticker_colour_colour ON sticker_colour (colour);

CREATE TABLE deck (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	name VARCHAR(120) NOT NULL, 
	description TEXT, 
	version INTEGER NOT NULL, 
	created_at DATETIME NOT NULL, 
	updated_at DATETIME NOT NULL, origin VARCHAR(200), 
	PRIMARY KEY (id), 
	FOREIGN KEY(game_id) REFERENCES game (id), 
	CONSTRAINT uq_deck_game_name UNIQUE (game_id, name)
);

CREATE INDEX ix_deck_game_id ON deck (game_id);

CREATE TABLE edition (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	code VARCHAR(20) NOT NULL, 
	name VARCHAR(120) NOT NULL, 
	release_date DATE, 
	set_size INTEGER NOT NULL, 
	symbol VARCHAR(40), 
	description TEXT, 
	sample BOOLEAN NOT NULL, 
	version INTEGER NOT NULL, origin VARCHAR(200), 
	PRIMARY KEY (id), 
	FOREIGN KEY(game_id) REFERENCES game (id)
);

CREATE UNIQUE INDEX ix_edition_code ON edition (code);

CREATE INDEX ix_edition_game_id ON edition (game_id);

CREATE TABLE card (
	id INTEGER NOT NULL, 
	edition_id INTEGER NOT NULL, 
	number INTEGER NOT NULL, 
	name VARCHAR(120) NOT NULL, 
	value INTEGER, 
	colour VARCHAR(40), 
	banner VARCHAR(80), 
	rarity VARCHAR(40), 
	card_type VARCHAR(80), 
	keywords JSON NOT NULL, 
	effect TEXT, 
	effect_text TEXT, 
	flavour TEXT, 
	art VARCHAR(300), 
	copies INTEGER NOT NULL, 
	stats JSON NOT NULL, 
	sample BOOLEAN NOT NULL, 
	version INTEGER NOT NULL, 
	updated_at DATETIME NOT NULL, 
	name_key VARCHAR(120) NOT NULL, 
	text_key TEXT NOT NULL, 
	colour_key VARCHAR(40) NOT NULL, 
	banner_key VARCHAR(80) NOT NULL, 
	rarity_key VARCHAR(40) NOT NULL, 
	type_key VARCHAR(80) NOT NULL, 
	keywords_key VARCHAR(300) NOT NULL, origin VARCHAR(200), 
	PRIMARY KEY (id), 
	FOREIGN KEY(edition_id) REFERENCES edition (id), 
	CONSTRAINT uq_card_edition_number UNIQUE (edition_id, number)
);

CREATE INDEX ix_card_colour_key ON card (colour_key);

CREATE INDEX ix_card_edition_id ON card (edition_id);

CREATE INDEX ix_card_name_key ON card (name_key);

CREATE TABLE deck_version (
	id INTEGER NOT NULL, 
	deck_id INTEGER NOT NULL, 
	number INTEGER NOT NULL, 
	saved_at DATETIME NOT NULL, 
	note VARCHAR(300), 
	entries JSON NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(deck_id) REFERENCES deck (id), 
	CONSTRAINT uq_deck_version_number UNIQUE (deck_id, number)
);

CREATE INDEX ix_deck_version_deck_id ON deck_version (deck_id);

CREATE TABLE deck_entry (
	id INTEGER NOT NULL, 
	deck_id INTEGER NOT NULL, 
	card_id INTEGER NOT NULL, 
	count INTEGER NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(card_id) REFERENCES card (id), 
	FOREIGN KEY(deck_id) REFERENCES deck (id), 
	CONSTRAINT uq_deck_entry_card UNIQUE (deck_id, card_id)
);

CREATE INDEX ix_deck_entry_card_id ON deck_entry (card_id);

CREATE INDEX ix_deck_entry_deck_id ON deck_entry (deck_id);

CREATE UNIQUE INDEX ix_game_origin ON game (origin);

CREATE UNIQUE INDEX ix_edition_origin ON edition (origin);

CREATE UNIQUE INDEX ix_card_origin ON card (origin);

CREATE UNIQUE INDEX ix_deck_origin ON deck (origin);

CREATE TABLE seed_item (
	id INTEGER NOT NULL, 
	kind VARCHAR(20) NOT NULL, 
	origin VARCHAR(200) NOT NULL, 
	data_hash VARCHAR(64), 
	db_hash VARCHAR(64), 
	pulled_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_seed_item_kind_origin UNIQUE (kind, origin)
);

