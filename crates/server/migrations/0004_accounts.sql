-- Accounts: an identity with a username and a password. A guest that registers keeps its
-- identity (so its games stay its own); `username_key` is the username in lower case, for
-- uniqueness without regard to case. Passwords are stored as argon2id PHC strings.
CREATE TABLE accounts (
    identity      TEXT PRIMARY KEY REFERENCES identities (id),
    username      TEXT NOT NULL,
    username_key  TEXT NOT NULL UNIQUE,
    display_name  TEXT NOT NULL,
    email         TEXT,
    password_hash TEXT NOT NULL,
    created_at    INTEGER NOT NULL
);
