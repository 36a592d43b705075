-- Uploads: each image or SVG the owner uploaded, the files made from it (their bytes in the
-- database, so every instance serves them), and the uploaded resume.
CREATE TABLE media_items (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    width BIGINT NOT NULL,
    height BIGINT NOT NULL,
    bytes BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE media_files (
    path TEXT PRIMARY KEY,
    media_id TEXT NOT NULL REFERENCES media_items (id) ON DELETE CASCADE,
    content_type TEXT NOT NULL,
    width BIGINT NOT NULL,
    data BYTEA NOT NULL
);

CREATE INDEX media_files_by_item ON media_files (media_id, width);

CREATE TABLE media_resume (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    data BYTEA NOT NULL,
    sha256 TEXT NOT NULL,
    uploaded_at BIGINT NOT NULL
);

-- WebP, PDF: already compressed, so stored out of line without another try at compressing.
ALTER TABLE media_files ALTER COLUMN data SET STORAGE EXTERNAL;
ALTER TABLE media_resume ALTER COLUMN data SET STORAGE EXTERNAL;
