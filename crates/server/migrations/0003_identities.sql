-- Identities: who plays. A guest is made at the first request that changes something from
-- a browser without a session; accounts (a later migration) build on the same rows.
CREATE TABLE identities (
    id         TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

-- Sessions: the SHA-256 of each session token (the token itself is only in the cookie).
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    identity   TEXT NOT NULL REFERENCES identities (id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);

CREATE INDEX sessions_identity ON sessions (identity);
