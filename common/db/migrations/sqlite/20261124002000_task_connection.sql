-- The connection (and campaign group) a task works for, so a browser can show only the
-- active account's syncs; null for tasks of no one connection.
ALTER TABLE tasks ADD COLUMN account_id TEXT;
ALTER TABLE tasks ADD COLUMN org_id BIGINT;
