-- PostgreSQL: see ../0012_puzzles.sql.
CREATE TABLE puzzles (
    id         TEXT PRIMARY KEY,
    rule       TEXT NOT NULL,
    theme      TEXT NOT NULL,
    body       TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    plays      BIGINT NOT NULL DEFAULT 0,
    solved     BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX puzzles_by_rating ON puzzles (theme, rating);

-- Each person's (identity's) puzzle rating and streak.
CREATE TABLE puzzle_players (
    identity    TEXT PRIMARY KEY,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    streak      BIGINT NOT NULL,
    best_streak BIGINT NOT NULL,
    plays       BIGINT NOT NULL,
    solved      BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);

-- A person's first try of each puzzle: the one that is rated.
CREATE TABLE puzzle_attempts (
    identity      TEXT NOT NULL,
    puzzle        TEXT NOT NULL,
    solved        BIGINT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after  DOUBLE PRECISION NOT NULL,
    at            BIGINT NOT NULL,
    PRIMARY KEY (identity, puzzle)
);
