-- Visitor insights: daily aggregates only, days named YYYY-MM-DD in the owner's time zone.
CREATE TABLE insights_daily (
    day              TEXT    PRIMARY KEY,
    page_views       INTEGER NOT NULL DEFAULT 0,
    visitors         INTEGER NOT NULL DEFAULT 0,
    resume_downloads INTEGER NOT NULL DEFAULT 0
);

-- Counts of one kind of value per day: referrer (host), campaign, click (a content id),
-- device, browser. A bounded number of keys per day and kind; the rest are counted as (other).
CREATE TABLE insights_counts (
    day   TEXT    NOT NULL,
    kind  TEXT    NOT NULL,
    key   TEXT    NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (day, kind, key)
);

-- The day's random salt and the salted hashes of the visitors seen that day, which tell repeat
-- visits apart. Both are deleted once the day is over, and neither is copied or backed up.
CREATE TABLE insights_salts (
    day  TEXT PRIMARY KEY,
    salt BLOB NOT NULL
);

CREATE TABLE insights_seen (
    day          TEXT NOT NULL,
    visitor_hash BLOB NOT NULL,
    PRIMARY KEY (day, visitor_hash)
);
