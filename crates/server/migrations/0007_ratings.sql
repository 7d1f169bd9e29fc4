-- Ratings (Glicko-2): each identity's rating per pool ('gomoku.blitz', 'renju.rapid', ...).
CREATE TABLE ratings (
    identity   TEXT NOT NULL REFERENCES identities (id),
    pool       TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (identity, pool)
);

CREATE INDEX ratings_pool ON ratings (pool, rating);

-- Every rated result, one row per person and game: the rating graph, the change shown
-- with a finished game, and the guard that rates a game once.
CREATE TABLE rating_changes (
    game      TEXT NOT NULL REFERENCES games (id),
    identity  TEXT NOT NULL REFERENCES identities (id),
    pool      TEXT NOT NULL,
    at        INTEGER NOT NULL,
    before    REAL NOT NULL,
    after     REAL NOT NULL,
    deviation REAL NOT NULL,
    PRIMARY KEY (game, identity)
);

CREATE INDEX rating_changes_identity ON rating_changes (identity, pool, at);

-- Whether a game is rated (also in its setup JSON), for histories.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
