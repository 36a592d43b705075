-- Passkey ceremonies no longer wait in the database: a ceremony's state travels sealed in a
-- short-lived cookie of its own between its two requests (no crowd can fill a shared store).
-- What stays here is the id of each ceremony finished, until the ceremony would have expired,
-- so that its cookie works once on any instance sharing the database.
DROP TABLE webauthn_challenges;

CREATE TABLE webauthn_used_challenges (
    challenge_id TEXT    PRIMARY KEY,
    expires_at   BIGINT  NOT NULL
);

CREATE INDEX webauthn_used_challenges_by_expiry ON webauthn_used_challenges (expires_at);
