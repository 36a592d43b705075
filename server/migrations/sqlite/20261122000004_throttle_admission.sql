-- The sign-in throttle counts each attempt before the password is checked; the lock a key had
-- before its latest attempt says whether that attempt was admitted.
ALTER TABLE sign_in_failures ADD COLUMN prev_locked_until INTEGER NOT NULL DEFAULT 0;
