-- PostgreSQL: see ../0002_server_life.sql.
CREATE TABLE server_facts (
    key   TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);
