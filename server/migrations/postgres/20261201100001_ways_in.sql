-- The owner's ways in besides the password: what the session list shows of each session, the
-- second factor and its recovery codes, passkeys, the WebAuthn ceremonies between their two
-- requests, and password-reset links. Times are Unix milliseconds, UTC, set by the server.

-- What the session list shows: the browser's family and device class, read from its User-Agent
-- at sign-in (never its address); how it signed in (password, password+code, passkey); and when
-- it last proved the password or a passkey again (sign-in counts), for the changes that ask.
ALTER TABLE sessions ADD COLUMN browser TEXT NOT NULL DEFAULT 'Other';
ALTER TABLE sessions ADD COLUMN device TEXT NOT NULL DEFAULT 'other';
ALTER TABLE sessions ADD COLUMN method TEXT NOT NULL DEFAULT 'password';
ALTER TABLE sessions ADD COLUMN reauthenticated_at BIGINT NOT NULL DEFAULT 0;

-- A password sign-in that waits for its second factor: only the SHA-256 of its token is stored;
-- it is deleted when a code completes it.
CREATE TABLE pending_sign_ins (
    token_hash TEXT    PRIMARY KEY,
    owner_id   BIGINT NOT NULL REFERENCES owner (id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL
);

-- The key of the time-based one-time codes (RFC 6238). It signs no one in until a first code
-- confirms it (enabled_at). last_step is the 30-second step of the last code accepted: no code of
-- that step or an earlier one is accepted again.
CREATE TABLE second_factor (
    owner_id   BIGINT PRIMARY KEY REFERENCES owner (id) ON DELETE CASCADE,
    secret     BYTEA   NOT NULL,
    created_at BIGINT NOT NULL,
    enabled_at BIGINT,
    last_step  BIGINT NOT NULL DEFAULT 0
);

-- Single-use recovery codes, stored by their SHA-256 (each holds 80 random bits).
CREATE TABLE recovery_codes (
    code_hash  TEXT    PRIMARY KEY,
    owner_id   BIGINT NOT NULL REFERENCES owner (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    used_at    BIGINT
);

-- Passkeys: the credential as the WebAuthn library keeps it (public key, counter; JSON), found by
-- its credential id (base64url); `id` is the short random id the API names it by.
CREATE TABLE passkeys (
    id            TEXT    PRIMARY KEY,
    owner_id      BIGINT NOT NULL REFERENCES owner (id) ON DELETE CASCADE,
    credential_id TEXT    NOT NULL UNIQUE,
    name          TEXT    NOT NULL,
    credential    TEXT    NOT NULL,
    created_at    BIGINT NOT NULL,
    last_used_at  BIGINT
);

-- A WebAuthn ceremony between its two requests, kept here so that any instance finishes what
-- another began; deleted by the request that finishes it (single use) or once expired. kind:
-- register, sign_in or reauth; session_hash: the session that began it (not for sign_in);
-- client_key: the client's salted address hash, to cap how many one client holds.
CREATE TABLE webauthn_challenges (
    id           TEXT    PRIMARY KEY,
    kind         TEXT    NOT NULL,
    session_hash TEXT,
    client_key   TEXT    NOT NULL,
    name         TEXT,
    state        TEXT    NOT NULL,
    expires_at   BIGINT NOT NULL
);

CREATE INDEX webauthn_challenges_by_client ON webauthn_challenges (client_key, expires_at);

-- The one password-reset link that may be used (a new one replaces it): the SHA-256 of its token.
CREATE TABLE password_resets (
    owner_id   BIGINT PRIMARY KEY REFERENCES owner (id) ON DELETE CASCADE,
    token_hash TEXT    NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
