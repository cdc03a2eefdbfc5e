-- A workspace's purchases (spec §3 Purchase; docs/api/plans.md): the plan bought or the
-- trial started, with its flags (is_free, is_trial, is_full, is_organization: the spec's free, trial, full, organization; 0/1), when it started and when it
-- ends (`off_account_time`, ms; null: no end). `trial_kind` says which trial a trial row is
-- (`pro`: the 14-day Pro trial, `pre`: the pre-trial, `growth`: the 30-day Growth trial);
-- each can be had once per workspace, which the unique index enforces even when two
-- requests race. `payment_failed` is set by billing when a renewal fails.
CREATE TABLE purchases (
    id TEXT PRIMARY KEY NOT NULL,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    is_free BIGINT NOT NULL DEFAULT 0,
    is_trial BIGINT NOT NULL DEFAULT 0,
    is_full BIGINT NOT NULL DEFAULT 0,
    is_organization BIGINT NOT NULL DEFAULT 0,
    trial_kind TEXT CHECK (trial_kind IN ('pro', 'pre', 'growth')),
    suggester BIGINT NOT NULL DEFAULT 0,
    payment_failed BIGINT NOT NULL DEFAULT 0,
    started_at BIGINT NOT NULL,
    off_account_time BIGINT,
    created_at BIGINT NOT NULL
);
CREATE INDEX purchases_workspace ON purchases (workspace_id, started_at);
CREATE UNIQUE INDEX purchases_trial_once ON purchases (workspace_id, trial_kind)
    WHERE trial_kind IS NOT NULL;
