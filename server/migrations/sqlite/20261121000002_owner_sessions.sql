-- The owner account, the owner's sessions and the sign-in throttle.
-- Times are Unix milliseconds, UTC, set by the server.

-- There is one owner: the CHECK keeps it that way.
CREATE TABLE owner (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    email         TEXT    NOT NULL,
    password_hash TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);

-- Only the SHA-256 of a session token is stored: a copy of the database signs no one in.
CREATE TABLE sessions (
    token_hash          TEXT    PRIMARY KEY,
    owner_id            INTEGER NOT NULL REFERENCES owner (id) ON DELETE CASCADE,
    created_at          INTEGER NOT NULL,
    last_seen_at        INTEGER NOT NULL,
    idle_expires_at     INTEGER NOT NULL,
    absolute_expires_at INTEGER NOT NULL
);

CREATE INDEX sessions_by_owner ON sessions (owner_id);

-- Failed sign-ins per account and per client. The key is a hash (of the e-mail typed, or of
-- the client's address with a secret salt), never the raw address.
CREATE TABLE sign_in_failures (
    key             TEXT    PRIMARY KEY,
    failures        INTEGER NOT NULL,
    last_failure_at INTEGER NOT NULL,
    locked_until    INTEGER NOT NULL
);

-- Secrets the server makes for itself, shared by every instance on this database.
CREATE TABLE auth_secrets (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
