-- Post-game reviews (issue 27): one per game, shared by everyone who asks, analysed in
-- the background by the node holding its lease (renewed as positions are stored; a lease
-- that runs out is taken over by another node, or by this one after a restart).
-- `positions`: positions to analyse (moves + 1); `status`: 'running' or 'done'.
CREATE TABLE reviews (
    game         TEXT PRIMARY KEY,
    positions    INTEGER NOT NULL,
    status       TEXT NOT NULL,
    node         TEXT NOT NULL,
    leased_until INTEGER NOT NULL,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
CREATE INDEX reviews_running ON reviews (status, leased_until);

-- Each analysed position of a review (`ply` stones on the board), stored as it comes, so
-- an interrupted review continues where it stopped. `body`: the JSON of the analysis.
CREATE TABLE review_positions (
    game TEXT NOT NULL,
    ply  INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game, ply)
);
