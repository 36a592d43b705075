-- Delivery the owner can see: one outbox row per channel (`email`, or `webhook:<id>` for each
-- --webhook-url), test e-mails that tell about no message (`kind = 'test'`, `message_id` NULL),
-- a lease kept apart from the schedule (so "Retry now" never steals a row being sent), and the
-- time a test e-mail was given up after its one attempt.
ALTER TABLE notification_outbox ALTER COLUMN message_id DROP NOT NULL;
ALTER TABLE notification_outbox ADD COLUMN channel TEXT NOT NULL DEFAULT 'email';
ALTER TABLE notification_outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'message' CHECK (kind IN ('message', 'test'));
ALTER TABLE notification_outbox ADD COLUMN leased_until BIGINT;
ALTER TABLE notification_outbox ADD COLUMN gave_up_at BIGINT;
ALTER TABLE notification_outbox ADD CHECK ((kind = 'message') = (message_id IS NOT NULL));
