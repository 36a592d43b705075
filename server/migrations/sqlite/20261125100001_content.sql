-- The page's content as data: one draft and the published versions (the last 20 kept).
CREATE TABLE content_draft (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    document TEXT NOT NULL,
    revision INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE content_versions (
    version INTEGER PRIMARY KEY,
    document TEXT NOT NULL,
    published_at INTEGER NOT NULL
);
