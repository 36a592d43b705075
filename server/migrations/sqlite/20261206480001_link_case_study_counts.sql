-- An application link's counts gain a kind: 'case-study' (key: the project's id), a case study
-- opened from the link's page, once a visitor a day. SQLite cannot change a CHECK, so the table
-- is rebuilt with its rows (nothing refers to it).
CREATE TABLE application_link_counts_new (
    link_id INTEGER NOT NULL REFERENCES application_links (id) ON DELETE CASCADE,
    day     TEXT    NOT NULL,
    kind    TEXT    NOT NULL
        CHECK (kind IN ('open', 'visitor', 'section', 'case-study', 'click', 'resume', 'message')),
    key     TEXT    NOT NULL DEFAULT '',
    count   INTEGER NOT NULL,
    PRIMARY KEY (link_id, day, kind, key)
);

INSERT INTO application_link_counts_new (link_id, day, kind, key, count)
    SELECT link_id, day, kind, key, count FROM application_link_counts;

DROP TABLE application_link_counts;
ALTER TABLE application_link_counts_new RENAME TO application_link_counts;
