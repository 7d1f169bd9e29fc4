-- PostgreSQL: see ../0011_reviews.sql.
-- `positions`: positions to analyse (moves + 1); `status`: 'running' or 'done'.
CREATE TABLE reviews (
    game         TEXT PRIMARY KEY,
    positions    BIGINT NOT NULL,
    status       TEXT NOT NULL,
    node         TEXT NOT NULL,
    leased_until BIGINT NOT NULL,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL
);
CREATE INDEX reviews_running ON reviews (status, leased_until);

-- Each analysed position of a review (`ply` stones on the board), stored as it comes, so
-- an interrupted review continues where it stopped. `body`: the JSON of the analysis.
CREATE TABLE review_positions (
    game TEXT NOT NULL,
    ply  BIGINT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game, ply)
);
