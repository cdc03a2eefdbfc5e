-- Notifications (issue 25, docs/api/activity.md): the activity log's items. One row per user
-- action or job run — a quick edit, a bulk edit, a rule run, campaigns created, an undo, a
-- team change — or per transaction of Apple's change history made outside Searchdeck, with
-- its field changes in `change_records` (`notification_id`).

CREATE TABLE notifications (
    id TEXT PRIMARY KEY NOT NULL,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    -- The natural key of what made it (`edit:<uuid>`, `job:<job id>`, `rule-run:<run id>`,
    -- `creation:<job id>`, `undo:<notification id>`, `history:<account>:<org>:<transaction>`,
    -- `team:<uuid>`): a retried job or a re-read history never writes it twice.
    key TEXT NOT NULL,
    -- spec §3 Notification.tag: the log's left filter list.
    tag TEXT NOT NULL CHECK (tag IN ('manual_change', 'quick_start', 'auto_rules', 'goal_optimization', 'team')),
    -- `change`, or `undo` of another notification.
    type TEXT NOT NULL CHECK (type IN ('change', 'undo')),
    title TEXT NOT NULL,
    -- UPDATE, CREATE, DELETE or UNDO.
    action TEXT NOT NULL,
    -- The level every change shares (CAMPAIGN, AD_GROUP, KEYWORD, NEGATIVE_KEYWORD, AD) or MIXED.
    target TEXT NOT NULL,
    -- Who: a member (`user`), a rule (`rule`) or a change outside Searchdeck (`apple_ads`).
    source TEXT NOT NULL CHECK (source IN ('user', 'rule', 'apple_ads')),
    -- The member's or the rule's name at the time, or "Apple Ads".
    source_name TEXT NOT NULL,
    user_id TEXT REFERENCES users(id) ON DELETE SET NULL,
    email TEXT,
    -- The rule (no reference: the log outlives a deleted rule).
    rule_id TEXT,
    account_id TEXT REFERENCES accounts(id) ON DELETE SET NULL,
    org_id BIGINT,
    -- The campaigns its changes touched: the first one's id and name, how many, and every
    -- name lower-cased and '\n'-separated for the campaign-name search.
    campaign_id BIGINT,
    campaign_name TEXT,
    campaign_count BIGINT NOT NULL DEFAULT 0,
    campaign_names TEXT NOT NULL DEFAULT '',
    -- The notification this one undoes, and the one that undid this one.
    undo_of TEXT,
    undone_by TEXT,
    -- When the change was made (unix seconds; Apple's event time for an outside change).
    created_at BIGINT NOT NULL,
    -- When it was written (unix milliseconds): "Mark all as read" moves a per-user watermark
    -- over it, so a change Apple reports late is still unread.
    seq BIGINT NOT NULL
);

CREATE UNIQUE INDEX notifications_key ON notifications (workspace_id, key);
-- The log: a workspace's notifications newest first, optionally by tag.
CREATE INDEX notifications_time ON notifications (workspace_id, created_at, id);
CREATE INDEX notifications_tag_time ON notifications (workspace_id, tag, created_at, id);
CREATE INDEX notifications_seq ON notifications (workspace_id, seq);

-- Notifications a member marked read one by one.
CREATE TABLE notification_reads (
    notification_id TEXT NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (notification_id, user_id)
);
CREATE INDEX notification_reads_user ON notification_reads (user_id, notification_id);

-- "Mark all as read": every notification of the workspace with `seq` at most `read_seq` is
-- read for the member.
CREATE TABLE notification_read_marks (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    read_seq BIGINT NOT NULL,
    PRIMARY KEY (user_id, workspace_id)
);

-- Each change record belongs to the notification of the action that made it.
ALTER TABLE change_records ADD COLUMN notification_id TEXT REFERENCES notifications(id) ON DELETE CASCADE;
CREATE INDEX change_records_notification ON change_records (notification_id, field);
