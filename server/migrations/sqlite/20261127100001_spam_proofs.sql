-- A form token is good for one message: the nonces of those used, kept until they expire.
CREATE TABLE spam_used_tokens (
    nonce      TEXT    PRIMARY KEY,
    expires_at INTEGER NOT NULL
);
CREATE INDEX spam_used_tokens_by_expiry ON spam_used_tokens (expires_at);

-- The clock hours (Unix milliseconds / 3,600,000) in which the site-wide ceiling held messages in
-- Spam and the owner was told, so each such hour queues one notice, on every instance.
CREATE TABLE spam_ceiling_hours (
    hour       INTEGER PRIMARY KEY,
    created_at INTEGER NOT NULL
);

-- The outbox gains a third kind: that notice (`kind = 'ceiling'`, about no one message).
-- SQLite cannot change a CHECK, so the table is rebuilt with its rows and ids.
CREATE TABLE notification_outbox_new (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id      INTEGER REFERENCES contact_messages (id) ON DELETE CASCADE,
    channel         TEXT    NOT NULL DEFAULT 'email',
    kind            TEXT    NOT NULL DEFAULT 'message' CHECK (kind IN ('message', 'test', 'ceiling')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    leased_until    INTEGER,
    last_error      TEXT,
    sent_at         INTEGER,
    gave_up_at      INTEGER,
    created_at      INTEGER NOT NULL,
    CHECK ((kind = 'message') = (message_id IS NOT NULL))
);

INSERT INTO notification_outbox_new
    SELECT id, message_id, channel, kind, attempts, next_attempt_at, leased_until, last_error,
           sent_at, gave_up_at, created_at
    FROM notification_outbox;

DROP TABLE notification_outbox;
ALTER TABLE notification_outbox_new RENAME TO notification_outbox;

CREATE INDEX notification_outbox_due ON notification_outbox (sent_at, next_attempt_at);
CREATE INDEX notification_outbox_by_message ON notification_outbox (message_id);
