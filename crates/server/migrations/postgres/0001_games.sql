-- PostgreSQL: the same schema as ../0001_games.sql (see there), in PostgreSQL's types.
CREATE TABLE games (
    id         TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    mode       TEXT NOT NULL,
    rule       TEXT NOT NULL,
    status     TEXT NOT NULL,
    setup      TEXT NOT NULL,
    state      TEXT NOT NULL
);

CREATE INDEX games_updated_at ON games (updated_at);
