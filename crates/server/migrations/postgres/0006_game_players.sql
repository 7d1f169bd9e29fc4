-- PostgreSQL: see ../0006_game_players.sql. (A PostgreSQL database starts at this
-- schema's first version, so there are no older games to count stones for.)
ALTER TABLE games ADD COLUMN black_owner TEXT;
ALTER TABLE games ADD COLUMN white_owner TEXT;
ALTER TABLE games ADD COLUMN opponent TEXT NOT NULL DEFAULT 'local';
ALTER TABLE games ADD COLUMN winner TEXT;
ALTER TABLE games ADD COLUMN end_reason TEXT;
ALTER TABLE games ADD COLUMN ply BIGINT NOT NULL DEFAULT 0;

CREATE INDEX games_black_owner ON games (black_owner, updated_at);
CREATE INDEX games_white_owner ON games (white_owner, updated_at);
