-- PostgreSQL: see ../0009_revision.sql.
ALTER TABLE games ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
