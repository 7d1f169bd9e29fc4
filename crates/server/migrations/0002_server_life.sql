-- The server's own facts, one row each. `alive_at` is the last time (Unix ms) the server
-- noted that it was running (every second, and at a clean stop); at the next start the
-- time from it to the start is an outage that game clocks do not count.
CREATE TABLE server_facts (
    key   TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
