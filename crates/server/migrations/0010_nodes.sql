-- What several nodes on one database share besides the games: who is where, the lobby,
-- and the computer's pending moves. One node on SQLite uses the same tables.

-- The nodes that serve this database, each with its last heartbeat (Unix ms). A node
-- unheard of for three heartbeats is gone: its presence rows are cleared by the others.
CREATE TABLE nodes (
    name    TEXT PRIMARY KEY,
    seen_at INTEGER NOT NULL
);

-- Pages open, per node: `place` is a game's id or 'lobby', `identity` '' for a visitor
-- without one.
CREATE TABLE presence (
    place    TEXT NOT NULL,
    identity TEXT NOT NULL,
    node     TEXT NOT NULL,
    sockets  INTEGER NOT NULL,
    PRIMARY KEY (place, identity, node)
);
CREATE INDEX presence_node ON presence (node);

-- Since when (Unix ms) a person has had no page open at a place, after having had one:
-- a player's opponent may claim the game after a while.
CREATE TABLE away (
    place    TEXT NOT NULL,
    identity TEXT NOT NULL,
    since    INTEGER NOT NULL,
    PRIMARY KEY (place, identity)
);

-- Open seeks and challenges (`body`: the JSON the lobby shows).
CREATE TABLE seeks (
    id         TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    preset     TEXT,
    rating     REAL,
    created_at INTEGER NOT NULL,
    body       TEXT NOT NULL
);
CREATE INDEX seeks_owner ON seeks (owner);

CREATE TABLE challenges (
    id         TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    addressee  TEXT,
    created_at INTEGER NOT NULL,
    body       TEXT NOT NULL
);

-- The computer's move owed in a game (at `revision`): the node searching for it holds a
-- lease that its heartbeat renews. A lease that runs out (its node died) is taken by
-- another node.
CREATE TABLE computer_jobs (
    game         TEXT PRIMARY KEY,
    node         TEXT NOT NULL,
    revision     INTEGER NOT NULL,
    leased_until INTEGER NOT NULL
);
