-- A form token is good for one message: the nonces of those used, kept until they expire.
CREATE TABLE spam_used_tokens (
    nonce      TEXT   PRIMARY KEY,
    expires_at BIGINT NOT NULL
);
CREATE INDEX spam_used_tokens_by_expiry ON spam_used_tokens (expires_at);

-- The clock hours (Unix milliseconds / 3,600,000) in which the site-wide ceiling held messages in
-- Spam and the owner was told, so each such hour queues one notice, on every instance.
CREATE TABLE spam_ceiling_hours (
    hour       BIGINT PRIMARY KEY,
    created_at BIGINT NOT NULL
);

-- The outbox gains a third kind: that notice (`kind = 'ceiling'`, about no one message).
ALTER TABLE notification_outbox DROP CONSTRAINT notification_outbox_kind_check;
ALTER TABLE notification_outbox ADD CONSTRAINT notification_outbox_kind_check
    CHECK (kind IN ('message', 'test', 'ceiling'));
