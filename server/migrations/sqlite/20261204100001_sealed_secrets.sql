-- The id of the key (`--secret-key-file`, never in the database) that seals the server's secrets:
-- the values of auth_secrets and the second factor's key. One row, written at the first start that
-- sealed them (a database from before is sealed then, in the same transaction); none while they
-- are not sealed yet or after `portfolio secrets discard`.
CREATE TABLE secret_key (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    key_id     TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);
