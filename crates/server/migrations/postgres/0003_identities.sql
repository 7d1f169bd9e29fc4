-- PostgreSQL: see ../0003_identities.sql.
CREATE TABLE identities (
    id         TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    identity   TEXT NOT NULL REFERENCES identities (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX sessions_identity ON sessions (identity);
