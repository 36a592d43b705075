-- An application link's counts gain a kind: 'post' (key: the post's id), a post read during a
-- visit through the link (opened from its page, directly or through the writing's index), once
-- a visitor a day. SQLite cannot change a CHECK, so the table is rebuilt with its rows (nothing
-- refers to it).
CREATE TABLE application_link_counts_new (
    link_id INTEGER NOT NULL REFERENCES application_links (id) ON DELETE CASCADE,
    day     TEXT    NOT NULL,
    kind    TEXT    NOT NULL
        CHECK (kind IN ('open', 'visitor', 'section', 'case-study', 'post', 'click', 'resume',
                        'message')),
    key     TEXT    NOT NULL DEFAULT '',
    count   INTEGER NOT NULL,
    PRIMARY KEY (link_id, day, kind, key)
);

INSERT INTO application_link_counts_new (link_id, day, kind, key, count)
    SELECT link_id, day, kind, key, count FROM application_link_counts;

DROP TABLE application_link_counts;
ALTER TABLE application_link_counts_new RENAME TO application_link_counts;
