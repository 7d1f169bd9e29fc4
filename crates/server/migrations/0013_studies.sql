-- Analysis-board studies (issue 27): each person's tree of variations for a game (`key`: the
-- game's id) or for the free board (`key` 'board'), kept with the game on the server so it
-- follows the person from device to device. `body`: the page's JSON (tree, current node).
-- `saved_at`: the page's clock when it was saved (the newer copy wins).
CREATE TABLE studies (
    identity TEXT NOT NULL,
    key      TEXT NOT NULL,
    body     TEXT NOT NULL,
    saved_at INTEGER NOT NULL,
    PRIMARY KEY (identity, key)
);
