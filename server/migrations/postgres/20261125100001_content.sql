-- The page's content as data: one draft and the published versions (the last 20 kept).
CREATE TABLE content_draft (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    document TEXT NOT NULL,
    revision BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE content_versions (
    version BIGINT PRIMARY KEY,
    document TEXT NOT NULL,
    published_at BIGINT NOT NULL
);
