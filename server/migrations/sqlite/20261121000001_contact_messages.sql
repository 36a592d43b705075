-- Contact messages sent from the public page, and the outbox of owner notifications.
-- Times are Unix milliseconds, UTC, set by the server.
CREATE TABLE contact_messages (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT    NOT NULL,
    email       TEXT    NOT NULL,
    subject     TEXT    NOT NULL,
    message     TEXT    NOT NULL,
    form_name   TEXT    NOT NULL DEFAULT 'contact',
    created_at  INTEGER NOT NULL,
    is_read     INTEGER NOT NULL DEFAULT 0 CHECK (is_read IN (0, 1)),
    is_spam     INTEGER NOT NULL DEFAULT 0 CHECK (is_spam IN (0, 1)),
    spam_reason TEXT,
    deleted_at  INTEGER,
    user_agent  TEXT
);

-- The inbox lists one folder (inbox, spam, trash) newest first, paged by (created_at, id).
CREATE INDEX contact_messages_by_folder ON contact_messages (is_spam, deleted_at, created_at DESC, id DESC);

CREATE TABLE notification_outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id      INTEGER NOT NULL REFERENCES contact_messages (id) ON DELETE CASCADE,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    sent_at         INTEGER,
    created_at      INTEGER NOT NULL
);

CREATE INDEX notification_outbox_due ON notification_outbox (sent_at, next_attempt_at);
