-- Personal API tokens of accounts, for bots and scripts (`Authorization: Bearer ...`).
-- Only the SHA-256 of a token is kept; `id` is its public name for listing and revoking.
CREATE TABLE api_tokens (
    id           TEXT PRIMARY KEY,
    identity     TEXT NOT NULL REFERENCES identities (id),
    token_hash   TEXT NOT NULL UNIQUE,
    name         TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER
);

CREATE INDEX api_tokens_identity ON api_tokens (identity);
