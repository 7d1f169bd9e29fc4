-- PostgreSQL: see ../0007_ratings.sql.
CREATE TABLE ratings (
    identity   TEXT NOT NULL REFERENCES identities (id),
    pool       TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (identity, pool)
);

CREATE INDEX ratings_pool ON ratings (pool, rating);

CREATE TABLE rating_changes (
    game      TEXT NOT NULL REFERENCES games (id),
    identity  TEXT NOT NULL REFERENCES identities (id),
    pool      TEXT NOT NULL,
    at        BIGINT NOT NULL,
    before    DOUBLE PRECISION NOT NULL,
    after     DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, identity)
);

CREATE INDEX rating_changes_identity ON rating_changes (identity, pool, at);

-- 0 or 1, as in SQLite, so both read the same queries.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
