-- Leases on jobs that one instance at a time should do (the scheduled backup), and when each
-- was last done. Times are Unix milliseconds, UTC, set by the server.
CREATE TABLE ops_leases (
    name    TEXT    PRIMARY KEY,
    holder  TEXT    NOT NULL,
    held_until   INTEGER NOT NULL,
    done_at INTEGER
);
