-- Application links: one address per application the owner sends (`/a/<slug>`), what was done
-- through it counted per day, never per visit. Times are Unix milliseconds, UTC, set by the
-- server; days are YYYY-MM-DD in the owner's time zone, as insights name them.
CREATE TABLE application_links (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    -- The company slugified, a dash and 16 random base64url characters (96 bits).
    slug             TEXT    NOT NULL UNIQUE,
    company          TEXT    NOT NULL,
    role             TEXT    NOT NULL,
    note             TEXT    NOT NULL DEFAULT '',
    -- The language whose page the link serves (a tag published when the link was made).
    language         TEXT    NOT NULL,
    expires_at       INTEGER,
    revoked_at       INTEGER,
    alert_open       INTEGER NOT NULL DEFAULT 1 CHECK (alert_open IN (0, 1)),
    alert_resume     INTEGER NOT NULL DEFAULT 1 CHECK (alert_resume IN (0, 1)),
    alert_message    INTEGER NOT NULL DEFAULT 1 CHECK (alert_message IN (0, 1)),
    created_at       INTEGER NOT NULL,
    -- Claimed once, by the first counted open (`WHERE first_opened_at IS NULL`).
    first_opened_at  INTEGER,
    last_activity_at INTEGER,
    -- Raised by every change the owner makes, so that each instance's list of live links can tell
    -- it has changed from one cheap query.
    revision         INTEGER NOT NULL DEFAULT 0
);

-- Counts per link and day: open, visitor, section (key: the section's id), click (key: the
-- link's target, e.g. project:shop:demo), resume, message. Other kinds' key is ''.
CREATE TABLE application_link_counts (
    link_id INTEGER NOT NULL REFERENCES application_links (id) ON DELETE CASCADE,
    day     TEXT    NOT NULL,
    kind    TEXT    NOT NULL
        CHECK (kind IN ('open', 'visitor', 'section', 'click', 'resume', 'message')),
    key     TEXT    NOT NULL DEFAULT '',
    count   INTEGER NOT NULL,
    PRIMARY KEY (link_id, day, kind, key)
);

-- The salted hashes (under the insights' daily salt, with the link's id in them) of the visitors
-- and of the sections each saw through a link today: deleted once the day is over, like
-- insights_seen, and neither copied nor backed up.
CREATE TABLE application_link_seen (
    day          TEXT NOT NULL,
    visitor_hash BLOB NOT NULL,
    PRIMARY KEY (day, visitor_hash)
);

-- A message sent during a visit through a link; it stays when the link is deleted.
ALTER TABLE contact_messages ADD COLUMN link_id INTEGER
    REFERENCES application_links (id) ON DELETE SET NULL;
CREATE INDEX contact_messages_by_link ON contact_messages (link_id) WHERE link_id IS NOT NULL;

-- The outbox gains a fourth kind: a link's alert (`kind = 'link'`), naming the link and the
-- event (`open` the first time, `resume`, `message`); its time is the row's created_at.
-- SQLite cannot change a CHECK, so the table is rebuilt with its rows and ids.
CREATE TABLE notification_outbox_new (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id      INTEGER REFERENCES contact_messages (id) ON DELETE CASCADE,
    channel         TEXT    NOT NULL DEFAULT 'email',
    kind            TEXT    NOT NULL DEFAULT 'message'
        CHECK (kind IN ('message', 'test', 'ceiling', 'link')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    leased_until    INTEGER,
    last_error      TEXT,
    sent_at         INTEGER,
    gave_up_at      INTEGER,
    created_at      INTEGER NOT NULL,
    link_id         INTEGER REFERENCES application_links (id) ON DELETE CASCADE,
    link_event      TEXT CHECK (link_event IN ('open', 'resume', 'message')),
    CHECK ((kind = 'message') = (message_id IS NOT NULL)),
    CHECK ((kind = 'link') = (link_id IS NOT NULL AND link_event IS NOT NULL))
);

INSERT INTO notification_outbox_new
    (id, message_id, channel, kind, attempts, next_attempt_at, leased_until, last_error,
     sent_at, gave_up_at, created_at)
    SELECT id, message_id, channel, kind, attempts, next_attempt_at, leased_until, last_error,
           sent_at, gave_up_at, created_at
    FROM notification_outbox;

DROP TABLE notification_outbox;
ALTER TABLE notification_outbox_new RENAME TO notification_outbox;

CREATE INDEX notification_outbox_due ON notification_outbox (sent_at, next_attempt_at);
CREATE INDEX notification_outbox_by_message ON notification_outbox (message_id);
CREATE INDEX notification_outbox_by_link ON notification_outbox (link_id) WHERE link_id IS NOT NULL;
