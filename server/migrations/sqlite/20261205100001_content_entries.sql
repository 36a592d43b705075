-- Every kind of content in one store: the page's document (kind 'page', entry ''), and from now
-- on each case study (kind 'case-study', entry its project's id), each with its own draft and
-- published versions (numbered from 1 per entry, the last 20 kept). `seq` numbers every publish
-- across entries, so that one cheap query tells an instance whether anything was published.
CREATE TABLE content_entry_drafts (
    kind TEXT NOT NULL,
    entry TEXT NOT NULL,
    document TEXT NOT NULL,
    revision INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (kind, entry)
);

CREATE TABLE content_entry_versions (
    kind TEXT NOT NULL,
    entry TEXT NOT NULL,
    version INTEGER NOT NULL,
    document TEXT NOT NULL,
    published_at INTEGER NOT NULL,
    seq INTEGER NOT NULL UNIQUE,
    PRIMARY KEY (kind, entry, version)
);

INSERT INTO content_entry_drafts (kind, entry, document, revision, updated_at)
SELECT 'page', '', document, revision, updated_at FROM content_draft;

INSERT INTO content_entry_versions (kind, entry, version, document, published_at, seq)
SELECT 'page', '', version, document, published_at, version FROM content_versions;

DROP TABLE content_draft;
DROP TABLE content_versions;
