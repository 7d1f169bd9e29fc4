-- Games: one row per game. `setup` is fixed at creation (mode, rules, layout, players,
-- clock settings); `state` is the history (stones with times, opening steps, a result
-- decided off the board, clock) and is rewritten in one transaction per action, before
-- the action is acknowledged.
CREATE TABLE games (
    id         TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    mode       TEXT NOT NULL,
    rule       TEXT NOT NULL,
    status     TEXT NOT NULL,
    setup      TEXT NOT NULL,
    state      TEXT NOT NULL
);

CREATE INDEX games_updated_at ON games (updated_at);
