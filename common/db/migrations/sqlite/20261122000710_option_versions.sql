-- Conditional updates of per-user options: every save bumps the user's options_version and
-- stamps the rows it writes with it, so a save based on an older read can be refused when
-- a key it overwrites changed since (two tabs appending filter presets).
ALTER TABLE users ADD COLUMN options_version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE user_options ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
