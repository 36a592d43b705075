-- Delivery the owner can see: one outbox row per channel (`email`, or `webhook:<id>` for each
-- --webhook-url), test e-mails that tell about no message (`kind = 'test'`, `message_id` NULL),
-- a lease kept apart from the schedule (so "Retry now" never steals a row being sent), and the
-- time a test e-mail was given up after its one attempt.
-- SQLite cannot drop NOT NULL from a column, so the table is rebuilt with its rows and ids.
CREATE TABLE notification_outbox_new (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id      INTEGER REFERENCES contact_messages (id) ON DELETE CASCADE,
    channel         TEXT    NOT NULL DEFAULT 'email',
    kind            TEXT    NOT NULL DEFAULT 'message' CHECK (kind IN ('message', 'test')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    leased_until    INTEGER,
    last_error      TEXT,
    sent_at         INTEGER,
    gave_up_at      INTEGER,
    created_at      INTEGER NOT NULL,
    CHECK ((kind = 'message') = (message_id IS NOT NULL))
);

INSERT INTO notification_outbox_new (id, message_id, attempts, next_attempt_at, last_error, sent_at, created_at)
    SELECT id, message_id, attempts, next_attempt_at, last_error, sent_at, created_at FROM notification_outbox;

DROP TABLE notification_outbox;
ALTER TABLE notification_outbox_new RENAME TO notification_outbox;

CREATE INDEX notification_outbox_due ON notification_outbox (sent_at, next_attempt_at);
CREATE INDEX notification_outbox_by_message ON notification_outbox (message_id);
