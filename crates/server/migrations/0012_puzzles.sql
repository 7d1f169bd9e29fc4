-- Puzzles (issue 27): positions mined by `wuzi puzzles mine`, each with its proven
-- solution tree (`body`: the puzzle file's JSON line), rated by how players do on them.
-- Ratings are Glicko-2: `rating`, `deviation`, `volatility`.
CREATE TABLE puzzles (
    id         TEXT PRIMARY KEY,
    rule       TEXT NOT NULL,
    theme      TEXT NOT NULL,
    body       TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    plays      INTEGER NOT NULL DEFAULT 0,
    solved     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX puzzles_by_rating ON puzzles (theme, rating);

-- Each person's (identity's) puzzle rating and streak.
CREATE TABLE puzzle_players (
    identity    TEXT PRIMARY KEY,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    streak      INTEGER NOT NULL,
    best_streak INTEGER NOT NULL,
    plays       INTEGER NOT NULL,
    solved      INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);

-- A person's first try of each puzzle: the one that is rated.
CREATE TABLE puzzle_attempts (
    identity      TEXT NOT NULL,
    puzzle        TEXT NOT NULL,
    solved        INTEGER NOT NULL,
    rating_before REAL NOT NULL,
    rating_after  REAL NOT NULL,
    at            INTEGER NOT NULL,
    PRIMARY KEY (identity, puzzle)
);
