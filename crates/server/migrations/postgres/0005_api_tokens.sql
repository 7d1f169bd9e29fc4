-- PostgreSQL: see ../0005_api_tokens.sql.
CREATE TABLE api_tokens (
    id           TEXT PRIMARY KEY,
    identity     TEXT NOT NULL REFERENCES identities (id),
    token_hash   TEXT NOT NULL UNIQUE,
    name         TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT
);

CREATE INDEX api_tokens_identity ON api_tokens (identity);
