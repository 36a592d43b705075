-- The outbox gains a fifth kind: a notice about the owner's content (`kind = 'notice'`), such as
-- a scheduled post gone live. It is queued on each channel when the post is scheduled, due at
-- its moment, so the outbox sends it once whichever instance is up, and retries it like the rest;
-- a cancel or another publish of the post drops the ones not sent (`notice_entry` names the
-- entry, `post/<id>`). Its subject and text are written when it is queued.
-- SQLite cannot change a CHECK, so the table is rebuilt with its rows and ids.
CREATE TABLE notification_outbox_new (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id      INTEGER REFERENCES contact_messages (id) ON DELETE CASCADE,
    channel         TEXT    NOT NULL DEFAULT 'email',
    kind            TEXT    NOT NULL DEFAULT 'message'
        CHECK (kind IN ('message', 'test', 'ceiling', 'link', 'notice')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    leased_until    INTEGER,
    last_error      TEXT,
    sent_at         INTEGER,
    gave_up_at      INTEGER,
    created_at      INTEGER NOT NULL,
    link_id         INTEGER REFERENCES application_links (id) ON DELETE CASCADE,
    link_event      TEXT CHECK (link_event IN ('open', 'resume', 'message')),
    notice_entry    TEXT,
    notice_subject  TEXT,
    notice_text     TEXT,
    CHECK ((kind = 'message') = (message_id IS NOT NULL)),
    CHECK ((kind = 'link') = (link_id IS NOT NULL AND link_event IS NOT NULL)),
    CHECK ((kind = 'notice') = (notice_entry IS NOT NULL AND notice_subject IS NOT NULL
                                AND notice_text IS NOT NULL))
);

INSERT INTO notification_outbox_new
    (id, message_id, channel, kind, attempts, next_attempt_at, leased_until, last_error,
     sent_at, gave_up_at, created_at, link_id, link_event)
    SELECT id, message_id, channel, kind, attempts, next_attempt_at, leased_until, last_error,
           sent_at, gave_up_at, created_at, link_id, link_event
    FROM notification_outbox;

DROP TABLE notification_outbox;
ALTER TABLE notification_outbox_new RENAME TO notification_outbox;

CREATE INDEX notification_outbox_due ON notification_outbox (sent_at, next_attempt_at);
CREATE INDEX notification_outbox_by_message ON notification_outbox (message_id);
CREATE INDEX notification_outbox_by_link ON notification_outbox (link_id) WHERE link_id IS NOT NULL;
CREATE INDEX notification_outbox_by_notice ON notification_outbox (notice_entry)
    WHERE notice_entry IS NOT NULL;
