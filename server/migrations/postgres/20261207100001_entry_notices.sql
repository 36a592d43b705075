-- The outbox gains a fifth kind: a notice about the owner's content (`kind = 'notice'`), such as
-- a scheduled post gone live. It is queued on each channel when the post is scheduled, due at
-- its moment, so the outbox sends it once whichever instance is up, and retries it like the rest;
-- a cancel or another publish of the post drops the ones not sent (`notice_entry` names the
-- entry, `post/<id>`). Its subject and text are written when it is queued.
ALTER TABLE notification_outbox ADD COLUMN notice_entry TEXT;
ALTER TABLE notification_outbox ADD COLUMN notice_subject TEXT;
ALTER TABLE notification_outbox ADD COLUMN notice_text TEXT;
ALTER TABLE notification_outbox DROP CONSTRAINT notification_outbox_kind_check;
ALTER TABLE notification_outbox ADD CONSTRAINT notification_outbox_kind_check
    CHECK (kind IN ('message', 'test', 'ceiling', 'link', 'notice'));
ALTER TABLE notification_outbox ADD CONSTRAINT notification_outbox_notice_check
    CHECK ((kind = 'notice') = (notice_entry IS NOT NULL AND notice_subject IS NOT NULL
                                AND notice_text IS NOT NULL));
CREATE INDEX notification_outbox_by_notice ON notification_outbox (notice_entry)
    WHERE notice_entry IS NOT NULL;
