-- Issue 52: a link may carry its recipient's e-mail address (where its follow-up goes), and the
-- days after its first open, with no message through it, before a follow-up comes up (1 to 60).
ALTER TABLE application_links ADD COLUMN recipient_email TEXT;
ALTER TABLE application_links ADD COLUMN follow_up_days INTEGER NOT NULL DEFAULT 5;
