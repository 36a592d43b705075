-- The inbox search looks in one column, lower-cased by the server with Unicode rules when a
-- message is stored (SQLite's own lower() and LIKE fold only ASCII). Rows stored before this
-- migration are filled in by the server at start-up.
ALTER TABLE contact_messages ADD COLUMN search_text TEXT NOT NULL DEFAULT '';

-- Per-visitor contact limits kept in the database, so that every instance on one database shares
-- them. The key is a salted hash of the client's address, never the address. (A SQLite database
-- serves one instance, which keeps these counters in memory; the table keeps both schemas alike.)
CREATE TABLE contact_rate_limits (
    key          TEXT    NOT NULL,
    window_ms    INTEGER NOT NULL,
    window_start INTEGER NOT NULL,
    hits         INTEGER NOT NULL,
    PRIMARY KEY (key, window_ms)
);
