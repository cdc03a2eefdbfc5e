-- Credentials of a connection beyond its first (issue 43 item 8): Apple grants API access
-- per key, so a second key of the same Apple Ads user may reach campaign groups the first
-- does not. Each extra key is kept, sealed like the first, with the campaign groups calls
-- reach through it, as a JSON array (`store::accounts::ExtraKey`); NULL when the connection
-- has one key.
ALTER TABLE accounts ADD COLUMN extra_keys TEXT;
