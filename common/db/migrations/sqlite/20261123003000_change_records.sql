-- Change records (issue 10): one row per field of one entity changed through Searchdeck —
-- a quick edit, a bulk edit item, later automated rules — with who, when, where, the old and
-- the new value. The activity log (spec §2) lists them per workspace by time, filters them by
-- source (its left filter list: Manual change, Automated rule, ...), by entity and by
-- campaign name, and groups them under Today / Yesterday / Last 30 days / Older.
--
-- Values are text as the tables show them: money as an exact decimal in `currency` (the
-- campaign group's), statuses as the provider writes them, booleans `true` / `false`.
-- Names are copied at the time of the change so the log still reads after a rename or a
-- deletion; the connection and the user may go (SET NULL), the record stays.

CREATE TABLE change_records (
    id TEXT PRIMARY KEY NOT NULL,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    -- Who: the member (NULL once removed, or for automated sources) and their email then.
    user_id TEXT REFERENCES users(id) ON DELETE SET NULL,
    user_email TEXT,
    -- Where: the connection and the campaign group (Apple's org id).
    account_id TEXT REFERENCES accounts(id) ON DELETE SET NULL,
    org_id BIGINT NOT NULL,
    -- What: the entity level and Apple's id, with its campaign and ad group for filtering.
    level TEXT NOT NULL CHECK (level IN ('CAMPAIGN', 'AD_GROUP', 'KEYWORD', 'NEGATIVE_KEYWORD', 'AD')),
    entity_id BIGINT NOT NULL,
    campaign_id BIGINT NOT NULL,
    ad_group_id BIGINT,
    entity_name TEXT NOT NULL,
    campaign_name TEXT NOT NULL,
    -- The table's column name (dailyBudget, status, defaultBidAmount, cpaGoal, cptBid, ...).
    field TEXT NOT NULL,
    old_value TEXT,
    new_value TEXT,
    currency TEXT,
    -- The activity log's notification tags (spec §3 Notification.tag).
    source TEXT NOT NULL CHECK (source IN ('manual_change', 'auto_rules', 'goal_optimization', 'quick_start', 'team')),
    -- The bulk-edit job that applied it (NULL for a quick edit).
    job_id TEXT,
    -- When it was applied (unix seconds).
    created_at BIGINT NOT NULL
);

-- The activity log: a workspace's records newest first, optionally by source.
CREATE INDEX change_records_workspace_time ON change_records (workspace_id, created_at, id);
CREATE INDEX change_records_workspace_source ON change_records (workspace_id, source, created_at);
-- One entity's history.
CREATE INDEX change_records_entity ON change_records (workspace_id, level, entity_id, created_at);
-- A retried bulk-edit job records each item's field once.
CREATE UNIQUE INDEX change_records_job_item ON change_records (job_id, level, entity_id, field) WHERE job_id IS NOT NULL;
