-- PostgreSQL: see ../0004_accounts.sql.
CREATE TABLE accounts (
    identity      TEXT PRIMARY KEY REFERENCES identities (id),
    username      TEXT NOT NULL,
    username_key  TEXT NOT NULL UNIQUE,
    display_name  TEXT NOT NULL,
    email         TEXT,
    password_hash TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);
