-- Recovery that holds against a stolen session: which passkey signed a session in (removing the
-- passkey ends it), and the single-use links that security notices carry, each of which signs
-- every session out and changes nothing else. Times are Unix milliseconds, UTC.

-- The passkey a session signed in with (its API id), if it did.
ALTER TABLE sessions ADD COLUMN passkey_id TEXT;

-- A notice's "sign out everywhere" link: only the SHA-256 of its token is stored; it works once,
-- for a day.
CREATE TABLE sign_out_links (
    token_hash TEXT    PRIMARY KEY,
    owner_id   BIGINT  NOT NULL REFERENCES owner (id) ON DELETE CASCADE,
    created_at BIGINT  NOT NULL,
    expires_at BIGINT  NOT NULL
);

CREATE INDEX sign_out_links_by_owner ON sign_out_links (owner_id);
