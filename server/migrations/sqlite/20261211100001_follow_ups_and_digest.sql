-- Follow-ups: a link with a recipient's address, opened and then quiet (no message through it, no
-- mail from its recipient) for its days, comes up once for a follow-up. Its row is written when
-- the owner acts on it: `sent` (the mail as sent, with its Message-ID, through the outbox),
-- `dismissed`, or `snoozed` until a time, when it comes up again. One row per link.
CREATE TABLE link_follow_ups (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    link_id       INTEGER NOT NULL UNIQUE REFERENCES application_links (id) ON DELETE CASCADE,
    state         TEXT    NOT NULL CHECK (state IN ('sent', 'dismissed', 'snoozed')),
    snoozed_until INTEGER,
    -- A sent follow-up: its RFC 5322 Message-ID (ours, made at random), where it went, its
    -- subject and its text as sent.
    mail_id       TEXT    UNIQUE,
    recipient     TEXT,
    subject       TEXT,
    body          TEXT,
    -- The recipient's first answer (read from the site's mailbox) became this message, through
    -- the link; later answers are filed into its conversation.
    message_id    INTEGER REFERENCES contact_messages (id) ON DELETE SET NULL,
    answer_mail_id TEXT   UNIQUE,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    CHECK ((state = 'snoozed') = (snoozed_until IS NOT NULL)),
    CHECK ((state = 'sent') = (mail_id IS NOT NULL AND recipient IS NOT NULL
                               AND subject IS NOT NULL AND body IS NOT NULL))
);

-- The weekly digest: the owner's choice (one row: on or off, the ISO weekday, 1 for Monday, and
-- the hour, in the owner's time zone, and since when, so that a time already past when it was
-- chosen is not sent late), and each week's digest (by the local date and time it was due),
-- written once across instances with its figures (JSON), sent or skipped as an empty week.
CREATE TABLE digest_settings (
    id            INTEGER  PRIMARY KEY CHECK (id = 1),
    enabled       BOOLEAN NOT NULL,
    weekday       INTEGER  NOT NULL CHECK (weekday BETWEEN 1 AND 7),
    hour          INTEGER  NOT NULL CHECK (hour BETWEEN 0 AND 23),
    updated_at    INTEGER  NOT NULL
);

CREATE TABLE weekly_digests (
    slot          TEXT    PRIMARY KEY,
    slot_at       INTEGER  NOT NULL,
    figures       TEXT    NOT NULL,
    skipped       BOOLEAN NOT NULL,
    created_at    INTEGER  NOT NULL
);

-- The outbox gains two kinds: a follow-up to send to a link's recipient (`follow_up`, on the
-- e-mail channel), naming its row above, and the weekly digest (`digest`, on every channel), its
-- subject and figures in `notice_subject` and `notice_text`. SQLite cannot change a CHECK, so the table is rebuilt with its
-- rows and ids.
CREATE TABLE notification_outbox_new (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id      INTEGER REFERENCES contact_messages (id) ON DELETE CASCADE,
    channel         TEXT    NOT NULL DEFAULT 'email',
    kind            TEXT    NOT NULL DEFAULT 'message'
        CHECK (kind IN ('message', 'test', 'ceiling', 'link', 'notice', 'reply', 'answer',
                        'follow_up', 'digest')),
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
    reply_id        INTEGER REFERENCES message_replies (id) ON DELETE CASCADE,
    follow_up_id    INTEGER REFERENCES link_follow_ups (id) ON DELETE CASCADE,
    CHECK ((kind = 'message') = (message_id IS NOT NULL)),
    CHECK ((kind = 'link') = (link_id IS NOT NULL AND link_event IS NOT NULL)),
    CHECK ((kind = 'notice') = (notice_entry IS NOT NULL AND notice_subject IS NOT NULL
                                AND notice_text IS NOT NULL)),
    CHECK ((kind IN ('reply', 'answer')) = (reply_id IS NOT NULL)),
    CHECK ((kind = 'follow_up') = (follow_up_id IS NOT NULL)),
    CHECK (kind <> 'digest' OR (notice_subject IS NOT NULL AND notice_text IS NOT NULL))
);

INSERT INTO notification_outbox_new
    (id, message_id, channel, kind, attempts, next_attempt_at, leased_until, last_error,
     sent_at, gave_up_at, created_at, link_id, link_event, notice_entry, notice_subject,
     notice_text, reply_id)
    SELECT id, message_id, channel, kind, attempts, next_attempt_at, leased_until, last_error,
           sent_at, gave_up_at, created_at, link_id, link_event, notice_entry, notice_subject,
           notice_text, reply_id
    FROM notification_outbox;

DROP TABLE notification_outbox;
ALTER TABLE notification_outbox_new RENAME TO notification_outbox;

CREATE INDEX notification_outbox_due ON notification_outbox (sent_at, next_attempt_at);
CREATE INDEX notification_outbox_by_message ON notification_outbox (message_id);
CREATE INDEX notification_outbox_by_link ON notification_outbox (link_id) WHERE link_id IS NOT NULL;
CREATE INDEX notification_outbox_by_notice ON notification_outbox (notice_entry)
    WHERE notice_entry IS NOT NULL;
CREATE INDEX notification_outbox_by_reply ON notification_outbox (reply_id)
    WHERE reply_id IS NOT NULL;
CREATE INDEX notification_outbox_by_follow_up ON notification_outbox (follow_up_id)
    WHERE follow_up_id IS NOT NULL;
