-- Proof-of-work challenges already used, kept until they expire so none is accepted twice.
CREATE TABLE spam_used_challenges (
    signature  TEXT   PRIMARY KEY,
    expires_at BIGINT NOT NULL
);
CREATE INDEX spam_used_challenges_by_expiry ON spam_used_challenges (expires_at);

-- The site-wide ceiling counts the last hour's real messages.
CREATE INDEX contact_messages_by_time ON contact_messages (created_at);

-- Spam reasons become stable codes.
UPDATE contact_messages SET spam_reason = 'honeypot' WHERE spam_reason LIKE 'honeypot%';
UPDATE contact_messages SET spam_reason = 'too-fast' WHERE spam_reason LIKE 'time trap%';
