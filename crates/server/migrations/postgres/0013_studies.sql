-- PostgreSQL: see ../0013_studies.sql.
CREATE TABLE studies (
    identity TEXT NOT NULL,
    key      TEXT NOT NULL,
    body     TEXT NOT NULL,
    saved_at BIGINT NOT NULL,
    PRIMARY KEY (identity, key)
);
