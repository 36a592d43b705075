-- Replies: the owner answers a contact message from the inbox (`direction = 'reply'`, sent to the
-- visitor through the outbox) and the visitor's answers come back from the site's mailbox
-- (`direction = 'answer'`, read over IMAP and filed by their In-Reply-To and References). Each
-- has its RFC 5322 Message-ID (`mail_id`): ours, made at random, for a reply; the mail's own (or
-- `sha256:` and the digest of its bytes when it has none) for an answer, unique, so an answer is
-- filed once whichever instance reads it and however often.
CREATE TABLE message_replies (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id    INTEGER NOT NULL REFERENCES contact_messages (id) ON DELETE CASCADE,
    direction     TEXT    NOT NULL CHECK (direction IN ('reply', 'answer')),
    mail_id       TEXT    NOT NULL UNIQUE,
    -- A reply's threading headers as sent: the mail it answers, and the conversation's ids.
    in_reply_to   TEXT,
    refs          TEXT,
    -- A reply: the owner's words; an answer: its text part (or its HTML made text).
    body          TEXT    NOT NULL,
    -- A reply: the whole text sent (the words, then the original quoted).
    sent_text     TEXT,
    from_address  TEXT,
    subject       TEXT    NOT NULL DEFAULT '',
    from_html     BOOLEAN NOT NULL DEFAULT FALSE,
    cut           BOOLEAN NOT NULL DEFAULT FALSE,
    -- An answer's Date header (Unix ms), as its sender's client wrote it.
    mail_date     INTEGER,
    created_at    INTEGER NOT NULL
);
CREATE INDEX message_replies_by_message ON message_replies (message_id, created_at, id);

-- An answer's attachments: listed whatever their size, their bytes kept up to the limit.
CREATE TABLE reply_attachments (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    reply_id      INTEGER NOT NULL REFERENCES message_replies (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    content_type  TEXT    NOT NULL,
    size          INTEGER NOT NULL,
    bytes         BLOB,
    UNIQUE (reply_id, position)
);

-- Where the reader of the site's mailbox is: the mailbox's UIDVALIDITY and the last UID read,
-- so nothing is read twice or missed across restarts and instances; and how the last read went.
CREATE TABLE mailbox_state (
    mailbox       TEXT    PRIMARY KEY,
    uid_validity  INTEGER NOT NULL,
    last_uid      INTEGER NOT NULL,
    read_at       INTEGER,
    last_error    TEXT,
    error_at      INTEGER
);

-- Mail in the site's mailbox that belongs to no conversation (no reference to a reply of ours,
-- or not from the conversation's address): left in the mailbox untouched, listed for the owner.
CREATE TABLE unmatched_mail (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    mail_id       TEXT    NOT NULL UNIQUE,
    mailbox       TEXT    NOT NULL,
    uid_validity  INTEGER NOT NULL,
    uid           INTEGER NOT NULL,
    from_address  TEXT,
    subject       TEXT    NOT NULL DEFAULT '',
    mail_date     INTEGER,
    reason        TEXT    NOT NULL CHECK (reason IN ('no-reference', 'other-sender')),
    created_at    INTEGER NOT NULL
);

-- The outbox gains two kinds: a reply to send to the visitor (`reply`, on the e-mail channel) and
-- the owner's notice of an answer (`answer`, on every channel), each naming its row above.
-- SQLite cannot change a CHECK, so the table is rebuilt with its rows and ids.
CREATE TABLE notification_outbox_new (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id      INTEGER REFERENCES contact_messages (id) ON DELETE CASCADE,
    channel         TEXT    NOT NULL DEFAULT 'email',
    kind            TEXT    NOT NULL DEFAULT 'message'
        CHECK (kind IN ('message', 'test', 'ceiling', 'link', 'notice', 'reply', 'answer')),
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
    CHECK ((kind = 'message') = (message_id IS NOT NULL)),
    CHECK ((kind = 'link') = (link_id IS NOT NULL AND link_event IS NOT NULL)),
    CHECK ((kind = 'notice') = (notice_entry IS NOT NULL AND notice_subject IS NOT NULL
                                AND notice_text IS NOT NULL)),
    CHECK ((kind IN ('reply', 'answer')) = (reply_id IS NOT NULL))
);

INSERT INTO notification_outbox_new
    (id, message_id, channel, kind, attempts, next_attempt_at, leased_until, last_error,
     sent_at, gave_up_at, created_at, link_id, link_event, notice_entry, notice_subject,
     notice_text)
    SELECT id, message_id, channel, kind, attempts, next_attempt_at, leased_until, last_error,
           sent_at, gave_up_at, created_at, link_id, link_event, notice_entry, notice_subject,
           notice_text
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
