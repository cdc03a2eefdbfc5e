-- The leading characters of each recovery code, stored in clear so a wrong guess can be
-- counted against the live code it aims at (recovery_codes.attempts); a code dies after a
-- few wrong guesses. Codes issued before this column exist have no selector and no longer
-- match (they live 30 minutes).
ALTER TABLE recovery_codes ADD COLUMN selector TEXT;
CREATE INDEX recovery_codes_selector ON recovery_codes (selector, expires_at);
